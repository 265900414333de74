"""A 双升 match: deals in a row on one event stream, levels per team, banker rotation
(shengji.md §7).

Both teams start at 2; a deal is played at the banker team's level (the first deal at 2,
its banker decided by the declaration). After each deal the team the level table favours
climbs, one rank at a time, stopping at A and at every rules.must_defend level it reaches
(a team already standing on such a level climbs past it). The match is won by the team
that holds as banker at level A. ``rules.max_deals`` guards against runaway matches: the
match then ends 'by levels' (the higher team wins; equal levels: no winner).

Deal n of a match (0 first) is dealt from ``child_seed(seed, n)``.

Refereed mode (``mode="refereed"``) passes down to every deal; a deal may then end inside a
referee's ruling (its primitives finish the play): every change (``apply``, ``carry_out``,
``forfeit``) ends by settling a finished deal and dealing the next, so every read is pure. ``forfeit(side, reason)`` ends the match at once: the side
loses it by a human referee's 判负 (MatchLoss, enforcement SJ-3.2: never automatic).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import attrs

from shengji.actions import Choices
from shengji.deal import Deal, DealResult, Phase, level_index
from shengji.events import LevelsAdvanced, MatchEnded
from shengji.observation import Observation
from shengji.rules import ShengjiRules
from tabletop.cards import RANKS
from tabletop.errors import IllegalAction
from tabletop.events import Event, EventStream
from tabletop.rng import child_seed
from tabletop.rulings import Ruling, Unresolved
from tabletop.seats import team

LEVEL_A = 12


def promote(level: int, steps: int, stops: Iterable[int] = (LEVEL_A,)) -> int:
    """The level after climbing ``steps`` ranks from ``level``: one rank at a time,
    stopping at A and at the first of ``stops`` reached (``level`` itself never stops it)."""
    stop_at = set(stops) | {LEVEL_A}
    for _ in range(steps):
        if level >= LEVEL_A:
            break
        level += 1
        if level in stop_at:
            break
    return level


@attrs.frozen(kw_only=True)
class MatchResult:
    """``winner``: the team that won (None: equal levels at the deal limit); ``how``:
    'held_a', 'max_deals' or 'match_loss' (the other side lost by sanction); ``levels``:
    (team 0, team 1) at the end."""

    winner: int | None
    how: str
    levels: tuple[str, str]
    deals: int
    results: tuple[DealResult, ...]


class Match:
    """The engine protocol over a whole match; ``deal`` is the deal in progress."""

    def __init__(self, seed: int, rules: ShengjiRules | None = None, *, mode: str = "strict",
                 stream: EventStream | None = None, levels: tuple["str | int", "str | int"] = ("2", "2"),
                 banker: int | None = None, first_deal: Deal | None = None) -> None:
        """``levels`` and ``banker`` start a match from a position (tests, puzzles); by
        default both teams are at 2 and the first deal's declaration decides the banker.
        ``first_deal``: a deal already set up on this match's ``stream`` (e.g.
        ``Deal.from_hands``) played as deal 0; the next deals are dealt from the seed."""
        self.seed = seed
        self.rules = ShengjiRules() if rules is None else rules
        self.mode = mode
        self.stream = EventStream() if stream is None else stream
        self.levels = [level_index(levels[0]), level_index(levels[1])]
        self.stops = frozenset(level_index(r) for r in self.rules.must_defend)
        self.banker: int | None = banker
        self.deal_number = 0
        self.results: list[DealResult] = []
        self.result: MatchResult | None = None
        self.forfeited_by: int | None = None
        """The side that lost by sanction while the deal still awaited a ruling (see ``forfeit``)."""
        self._ruling = 0
        """How deep in ``apply`` of a ruling (which settles once the ruling is carried out)."""
        if first_deal is not None:
            if first_deal.stream is not self.stream:
                raise ValueError("first_deal must share the match's stream")
            self.stream.deal = 0
            self.banker = first_deal.banker
        self.deal = self._new_deal() if first_deal is None else first_deal
        self._previous: tuple[int, Deal] | None = None
        """(number, deal) of the deal before ``deal`` (None during the first)."""

    def _new_deal(self) -> Deal:
        self.stream.deal = self.deal_number
        return Deal(child_seed(self.seed, self.deal_number), rules=self.rules, banker=self.banker,
                    levels=(self.levels[0], self.levels[1]), stream=self.stream, mode=self.mode)

    # -----------------------------------------------------------------------------------------
    # Engine protocol

    @property
    def phase(self) -> Phase:
        """The phase of the deal in progress (SCORED once the match is over)."""
        return self.deal.phase

    @property
    def to_act(self) -> int | str | None:
        return None if self.result is not None else self.deal.to_act

    @property
    def awaiting_ruling(self) -> tuple[Any, ...]:
        """The irregularities of the deal in progress awaiting a ruling (``tabletop.rulings.Awaited``)."""
        return self.deal.awaiting_ruling

    def legal_actions(self) -> Choices:
        return Choices(()) if self.result is not None else self.deal.legal_actions()

    def deal_numbered(self, number: int) -> Deal:
        """The deal ``number`` (from 0): the current one or the one before it. A change that
        ends a deal also deals the next, so its events span both; an observer reads, for each
        event, the deal it belongs to (``event.deal``)."""
        previous = self._previous
        return previous[1] if previous is not None and previous[0] == number else self.deal

    def why_illegal(self, action: Any) -> str | None:
        return "the match is over" if self.result is not None else self.deal.why_illegal(action)

    def is_legal(self, action: Any) -> bool:
        return self.why_illegal(action) is None

    def observe(self, seat: int) -> Observation:
        return self.deal.observe(seat)

    def take_events(self) -> list[Event]:
        return self.stream.take()

    def apply(self, action: Any) -> list[Event]:
        if self.result is not None:
            raise IllegalAction("the match is over")
        if type(action) is Ruling or type(action) is Unresolved:
            self._ruling += 1
            try:
                self.deal.apply_ruling(action, match=self)   # a MatchLoss is this match's
            finally:
                self._ruling -= 1
            self._end_if_forfeited()
            events = self.stream.take()
        else:
            events = self.deal.apply(action)
        if self._settle():
            events.extend(self.stream.take())
        return events

    def carry_out(self, effects: Sequence[Any], sanctions: Sequence[Any] = (), *, reason: str,
                  answers: int | None = None) -> None:
        """Carry out a ruling (``shengji.refereed.engine.carry_out`` on the deal in
        progress), then the sanctions that are the match's: a ``MatchLoss`` ends it. A deal
        it finishes is settled and the next dealt (by ``apply`` when the ruling is applied
        through it, once the whole ruling is carried out)."""
        self.deal.carry_out(effects, sanctions, reason=reason, answers=answers)
        for row in sanctions:
            handler = self.SANCTION_HANDLERS.get(row.sanction.KIND)
            if handler is not None:
                handler(self, row)
        if not self._ruling:
            self._settle()

    def _settle(self) -> bool:
        """Settle a deal that is over (levels, the next deal or the match end); True if one was."""
        if self.result is None and self.forfeited_by is None and self.deal.result is not None \
                and len(self.results) == self.deal_number:
            self._after_deal(self.deal.result)
            return True
        return False

    def _on_match_loss(self, row: Any) -> None:
        """判负: the offending side loses the match."""
        self.forfeit(row.side, row.clause)

    SANCTION_HANDLERS: ClassVar[dict[str, Any]] = {"MatchLoss": _on_match_loss}
    """Sanction kind → handler(match, imposed row): the match's part of a ruling."""

    def forfeit(self, side: int, reason: str) -> None:
        """``side`` loses the match by sanction (the deal in progress is not scored). It ends
        now, or, when the deal still awaits a ruling (e.g. a revoke that the ruling's own
        table effects brought to light), once the referee has ruled on it: every
        irregularity is ruled on before the match ends. The events wait in the stream."""
        if self.result is None and self.forfeited_by is None:
            self.forfeited_by = side
        self._end_if_forfeited()

    def _end_if_forfeited(self) -> None:
        if self.forfeited_by is not None and self.result is None and not self.deal.awaiting_ruling:
            self._end(1 - self.forfeited_by, "match_loss")

    # -----------------------------------------------------------------------------------------

    def _level_texts(self) -> tuple[str, str]:
        return RANKS[self.levels[0]], RANKS[self.levels[1]]

    def _after_deal(self, r: DealResult) -> None:
        self.results.append(r)
        banker_team = team(r.banker)
        if r.side == "banker" and self.levels[banker_team] == LEVEL_A:
            self.stream.emit(LevelsAdvanced, team=banker_team, earned=r.levels, raised=0,
                             levels=self._level_texts(), next_banker=r.next_banker)
            self._end(banker_team, "held_a")
            return
        before = self.levels[r.team]
        self.levels[r.team] = promote(before, r.levels, self.stops)
        self.stream.emit(LevelsAdvanced, team=r.team, earned=r.levels, raised=self.levels[r.team] - before,
                         levels=self._level_texts(), next_banker=r.next_banker)
        self.banker = r.next_banker
        self.deal_number += 1
        if self.deal_number >= self.rules.max_deals:
            a, b = self.levels
            self._end(None if a == b else (0 if a > b else 1), "max_deals")
            return
        self._previous = (self.deal_number - 1, self.deal)
        self.deal = self._new_deal()

    def _end(self, winner: int | None, how: str) -> None:
        deals = len(self.results)
        self.stream.emit(MatchEnded, how=how, winner=winner, levels=self._level_texts(), deals=deals)
        self.result = MatchResult(winner=winner, how=how, levels=self._level_texts(), deals=deals,
                                  results=tuple(self.results))
