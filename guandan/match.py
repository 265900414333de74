"""A 掼蛋 match: deals one after another, levels, tribute, the match end (guandan.md §6–§7).

The match is an engine like a deal (to_act, legal_actions, apply, observe, take_events,
result, phase) and shares ONE event stream with all its deals (``stream.deal`` is the deal
number, from 1), so sequence numbers are gapless over the match.

Deal ``d`` of a match with seed ``S`` is ``Deal.drawn(S, deal_number=d, …)``: it draws its
shuffle, cut and face-up card from the ``tabletop.rng`` streams ``(S, d, SHUFFLE)``,
``(S, d, CUT)``, ``(S, d, FACE_UP)``; the first shuffler comes from ``(S, 1, FIRST_BANKER)``.
Agents for a match are seeded from ``(S, 0, AGENT + seat)`` by convention (path 0 = the
match level, no deal has number 0).

Deal 1 is played at 2, with a face-up card choosing the leader and no tribute. Every later
deal: the previous 下游 shuffles, the level is the last winners' new level, and the
tribute of the previous finishing order is paid as agent decisions (GiveTribute, then
ReturnCard), unless resisted (抗贡) or waived by the referee.

The match ends by ``rules.match_end``: 'pass_a' (a side passes A), or 'deals' (after
``rules.match_deals`` deals; a side that passes A earlier still ends it, scoring
``rules.pass_a_score``); ``rules.max_deals`` is a guard that ends it with a result by levels.

Every change (``apply``, and the referee hooks ``force_result``, ``carry_out``,
``add_level_penalty``) ends by settling a deal that is over (levels, match end) and drawing the
next one once nothing awaits a ruling: an irregularity that comes to light at a deal's end
is ruled on (e.g. a GD-5.2 next-deal procedure scheduled) before the next deal is drawn.
Every read (``phase``, ``to_act``, ``legal_actions``, ``observe``, ``result``…) is pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from guandan import events as ev
from guandan.actions import Action
from guandan.deal import Deal, LegalActions
from guandan.levels import DealOutcome, TeamLevels, advance, initial_levels, match_score
from guandan.observation import Observation, Phase, TributeRecord
from guandan.ranks import level_text
from guandan.rules import GuandanRules
from tabletop.events import Event, EventStream
from tabletop.rulings import Ruling, Unresolved
from tabletop.seats import NUM_SEATS


@attrs.frozen
class DealRecord:
    """One deal of a match. ``level``: rank text it was played at. ``tributes``: the
    tribute and return cards (giver, taker, card). ``tribute``: 'none' (first deal),
    'single', 'double', 'resisted' or 'waived'."""

    number: int
    level: str
    finish_order: tuple[int, int, int, int]
    team: int
    gain: int
    tribute: str
    tributes: tuple[TributeRecord, ...]
    forced: bool
    outcome: DealOutcome


@attrs.frozen
class MatchResult:
    """``ended``: 'pass_a', 'deals' or 'max_deals' (the guard: a result by levels).
    ``winner``: the team that passed A, else the team with the higher score, or None for a
    tie. ``scores``: 级差分 per team (levels.match_score, penalties subtracted)."""

    levels: tuple[str, str]
    deals: tuple[DealRecord, ...]
    ended: str
    winner: int | None
    scores: tuple[int, int]
    penalties: tuple[int, int]


@attrs.frozen
class NextDeal:
    """A referee's next-deal procedure (GD-5.1 / GD-5.2). None keeps the usual way.
    ``no_tribute_seats``: seats judged 单下, excused from paying (GD-5.1)."""

    no_tribute_seats: tuple[int, ...] = ()
    no_tribute: bool = False
    shuffler: int | None = None
    cutter: int | None = None
    first_drawer: int | None = None
    leader: int | None = None


class Match:
    def __init__(self, seed: int, rules: GuandanRules | None = None, *,
                 stream: EventStream | None = None, mode: str = "strict", report_step: bool = True,
                 first_deal: Deal | None = None) -> None:
        """``first_deal``: a deal already built on this match's ``stream`` (e.g.
        ``Deal.from_hands(..., stream=stream, mode=mode)``) to play as deal 1 instead of a
        drawn one: puzzles, training and the referee's tests start a match from explicit
        hands; later deals are drawn as usual."""
        self.seed = seed
        self.rules = GuandanRules() if rules is None else rules
        self.mode = mode
        self.report_step = report_step
        self.stream = EventStream(deal=1) if stream is None else stream
        self.levels: TeamLevels = initial_levels()
        self.records: list[DealRecord] = []
        self.penalties = [0, 0]
        self.ended: str | None = None
        self.scheduled: NextDeal | None = None
        self.procedure: NextDeal | None = None
        """The procedure the current deal was drawn under (None: the usual way)."""
        self._settled = False
        self._levels_before = self.levels
        self.previous_deal: Deal | None = None
        """The deal before ``deal`` (None during the first)."""
        if first_deal is not None:
            if first_deal.stream is not self.stream:
                raise ValueError("the first deal must be built on the match's event stream")
            self.deal = first_deal
        else:
            self.deal = Deal.drawn(seed, "2", deal_number=1, rules=self.rules, stream=self.stream, mode=mode,
                                   report_step=report_step)

    # -----------------------------------------------------------------------------------------
    # Engine protocol

    @property
    def phase(self) -> Phase:
        return self.deal.phase

    @property
    def to_act(self) -> int | str | None:
        return self.deal.to_act

    @property
    def awaiting_ruling(self) -> tuple[Any, ...]:
        """The irregularities of the deal in progress awaiting a ruling (``tabletop.rulings.Awaited``)."""
        return self.deal.awaiting_ruling

    def legal_actions(self) -> LegalActions:
        return self.deal.legal_actions()

    def apply(self, action: Action) -> list[Event]:
        if type(action) is Ruling or type(action) is Unresolved:
            self.deal.apply_ruling(action, match=self)   # level penalties go to this match
            events = self.stream.take()
        else:
            events = self.deal.apply(action)
        self._between_deals()
        events.extend(self.stream.take())
        return events

    def why_illegal(self, action: Any) -> str | None:
        return self.deal.why_illegal(action)

    def observe(self, seat: int) -> Observation:
        return self.deal.observe(seat)

    def take_events(self) -> list[Event]:
        return self.stream.take()

    @property
    def result(self) -> MatchResult | None:
        if self.ended is None:
            return None
        scores = self.scores
        winner: int | None
        if self.levels.passed_a is not None:
            winner = self.levels.passed_a
        else:
            winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
        first, second = self.levels.levels
        return MatchResult(
            levels=(level_text(first), level_text(second)),
            deals=tuple(self.records), ended=self.ended, winner=winner, scores=scores,
            penalties=(self.penalties[0], self.penalties[1]))

    # -----------------------------------------------------------------------------------------
    # Queries

    @property
    def deal_number(self) -> int:
        return self.deal.deal_number

    @property
    def current_deal(self) -> Deal:
        """The deal being played (or the one just over: the last of the match, or one whose
        end awaits a ruling)."""
        return self.deal

    def deal_numbered(self, number: int) -> Deal:
        """The deal ``number``: the current one or the one before it. A change that ends a
        deal also draws the next, so its events span both; an observer reads, for each event,
        the deal it belongs to (``event.deal``)."""
        previous = self.previous_deal
        return previous if previous is not None and previous.deal_number == number else self.deal

    @property
    def scores(self) -> tuple[int, int]:
        return match_score(self.levels, self.rules, self.penalties)

    # -----------------------------------------------------------------------------------------
    # Referee hooks

    def add_level_penalty(self, team: int, levels: int, reason: str = "") -> list[Event]:
        """LevelDiffPenalty: ``levels`` are subtracted from ``team``'s match score."""
        self.impose_level_penalty(team, levels, reason)
        self._between_deals()
        return self.stream.take()

    def impose_level_penalty(self, team: int, levels: int, reason: str = "") -> None:
        """``add_level_penalty`` leaving its event in the stream (a ruling carried out)."""
        if team not in (0, 1) or levels < 0:
            raise ValueError(f"a level penalty needs team 0 or 1 and levels >= 0, got {team!r}, {levels!r}")
        self.penalties[team] += levels
        self.stream.emit(ev.LevelPenalty, team=team, levels=levels, reason=reason)

    def schedule_next_deal(self, *, no_tribute_seats: Sequence[int] = (), no_tribute: bool = False,
                           shuffler: int | None = None, cutter: int | None = None,
                           first_drawer: int | None = None, leader: int | None = None) -> list[Event]:
        """Set up the next deal differently (GD-5.1: the seats judged 单下 give no tribute;
        GD-5.2: no tribute, shuffler, cutter, first drawer and leader set explicitly). An
        imposed leader means no tribute at all (GD-5.2). Applies to the deal after the
        current one (set it before ending the current one, or while its end awaits a ruling)."""
        self.set_next_deal(no_tribute_seats=no_tribute_seats, no_tribute=no_tribute, shuffler=shuffler,
                                 cutter=cutter, first_drawer=first_drawer, leader=leader)
        return self.stream.take()

    def set_next_deal(self, *, no_tribute_seats: Sequence[int] = (), no_tribute: bool = False,
                            shuffler: int | None = None, cutter: int | None = None,
                            first_drawer: int | None = None, leader: int | None = None) -> None:
        """``schedule_next_deal`` leaving its event in the stream (a ruling carried out)."""
        if self.ended is not None:
            raise ValueError("the match is over")
        seats = tuple(sorted(set(no_tribute_seats)))
        if any(s not in range(NUM_SEATS) for s in seats):
            raise ValueError(f"no_tribute_seats must be seats 0-3, got {no_tribute_seats!r}")
        for name, seat in (("shuffler", shuffler), ("cutter", cutter), ("first_drawer", first_drawer),
                           ("leader", leader)):
            if seat is not None and seat not in range(NUM_SEATS):
                raise ValueError(f"{name} must be a seat 0-3, got {seat!r}")
        self.scheduled = NextDeal(seats, no_tribute or leader is not None,
                                  shuffler, cutter, first_drawer, leader)
        self.stream.emit(ev.NextDealScheduled, no_tribute_seats=seats,
                         no_tribute=self.scheduled.no_tribute, shuffler=shuffler, cutter=cutter,
                         first_drawer=first_drawer, leader=leader)

    def force_result(self, finish_order: Sequence[int], reason: str = "") -> list[Event]:
        """End the current deal with ``finish_order`` (the referee's ForcedLast /
        ForcedDoubleLast) and settle it; returns the events. A deal that already ended
        (and whose successor is not drawn yet: the match is over, or a ruling is awaited)
        is re-scored. The next deal is drawn when due."""
        self.impose_result(finish_order, reason)
        self._between_deals()
        return self.stream.take()

    def impose_result(self, finish_order: Sequence[int], reason: str = "") -> None:
        """``force_result`` leaving its events in the stream (a ruling carried out)."""
        if self._settled:
            self.records.pop()
            self.levels = self._levels_before
            self.ended = None
            self._settled = False
        self.deal.impose_result(finish_order, reason)
        self._settle()

    # -----------------------------------------------------------------------------------------
    # Carrying a ruling out

    def carry_out(self, effects: Sequence[Any], sanctions: Sequence[Any] = (), *, reason: str,
                  answers: int | None = None) -> None:
        """Carry out a ruling on the deal in progress (``guandan.refereed.engine.carry_out``
        with this match around it: level penalties go to the match score, the next-deal
        procedure to the next deal, a forced result is settled, the next deal drawn when due).
        The events wait in the stream."""
        self.deal.carry_out(effects, sanctions, reason=reason, answers=answers, match=self)
        self._between_deals()

    # -----------------------------------------------------------------------------------------
    # Between deals

    def _between_deals(self) -> None:
        """The end of every change: settle a deal that is over, draw the next when due."""
        self._settle()
        self._start_next_if_due()

    def _settle(self) -> None:
        """Record a deal that is over, advance the levels, and end the match if due."""
        deal = self.deal
        if self._settled or deal.phase is not Phase.SCORED:
            return
        self._settled = True
        result = deal.result
        assert result is not None  # the deal is scored
        self._levels_before = self.levels
        self.levels, outcome = advance(self.levels, result.finish_order, self.rules)
        self.records.append(DealRecord(
            number=deal.deal_number, level=deal.level_text, finish_order=result.finish_order,
            team=result.team, gain=result.levels, tribute=_tribute_kind(deal),
            tributes=tuple(deal.tributes), forced=result.forced, outcome=outcome))
        self.stream.emit(ev.LevelsAdvanced, team=outcome.team, gain=outcome.gain,
                         levels=tuple(level_text(v) for v in self.levels.levels),
                         a_failures=self.levels.a_failures, outcome=_outcome_text(outcome))
        played = len(self.records)
        if self.levels.passed_a is not None:
            self.ended = "pass_a"
        elif self.rules.match_end == "deals" and played >= self.rules.match_deals:
            self.ended = "deals"
        elif played >= self.rules.max_deals:
            self.ended = "max_deals"
        if self.ended is not None:
            final = self.result
            assert final is not None  # the match has ended
            self.stream.emit(ev.MatchEnded, how=self.ended, winner=final.winner,
                             levels=final.levels, scores=final.scores)

    def _start_next_if_due(self) -> None:
        """Draw the next deal once the current one is settled (and ruled on: an
        irregularity that came to light at its end is ruled on first)."""
        if not self._settled or self.ended is not None:
            return
        if self.deal.table is not None and self.deal.table.awaiting:
            return
        last = self.deal
        assert last.result is not None  # settled: the deal is scored
        order = last.result.finish_order
        self.procedure = self.scheduled
        plan = self.scheduled or NextDeal()
        self.scheduled = None
        self._settled = False
        self.previous_deal = last
        self.deal = Deal.drawn(
            self.seed, self.levels.level_played, deal_number=last.deal_number + 1,
            shuffler=order[3] if plan.shuffler is None else plan.shuffler,
            cutter=plan.cutter, first_drawer=plan.first_drawer, leader=plan.leader,
            previous_order=order,
            no_tribute_seats=plan.no_tribute_seats,
            no_tribute=plan.no_tribute, rules=self.rules, stream=self.stream, mode=self.mode,
            report_step=self.report_step)


def _tribute_kind(deal: Deal) -> str:
    plan = deal.tribute_plan
    if plan is None:
        return "none"
    if plan.resisted:
        return "resisted"
    if plan.waived:
        return "waived"
    return "double" if len(plan.payments) == 2 else "single"


def _outcome_text(outcome: DealOutcome) -> str:
    """'won' (passed A), 'reset' (third failure at A: back to 2), 'failed' (an attempt
    at A failed) or 'up'."""
    if outcome.match_won is not None:
        return "won"
    if outcome.reset:
        return "reset"
    if outcome.failed_attempt is not None:
        return "failed"
    return "up"
