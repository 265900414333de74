"""Refereed mode of a 掼蛋 deal: irregular attempts recorded instead of refused, and the
table primitives a referee's ruling uses (the engine knows HOW, the referee knows WHEN).

``Deal`` inherits this mixin; its state lives in ``deal.table`` (a ``TableState``), which
is None in strict mode, so strict play never enters this module.

How the table works in refereed mode:

- The draw is one decision: ``Draw(seat)`` by the rightful next drawer runs it to the end.
  Before it (and again after a ruling) every other seat may interject a ``DrawOutOfTurn``.
- An action that breaks a rule becomes ONE ``IrregularAttempt`` event (an action event:
  a replay re-applies it). Its cards lie on the table in front of the offender (still its
  own), and the deal waits (``phase`` AWAITING_RULING, ``to_act`` None) until the referee
  calls ``resolve``. A latent attempt (nobody noticed yet) is followed by an
  ``IrregularityFound`` event when the table reaches the stage where it comes to light.
- Out-of-turn play: the offender's 下家 answers: ``CallReferee`` (GD-2.3.1) or any play or
  pass on the out-of-turn cards, which accepts them (GD-2.3.2).
- 报牌 is a step of its own: after a play that leaves 1-10 cards the player is to act with
  ``Report(seat, count)``.
- Exposed cards (暴露张) stay in the owner's hand, marked and visible to all. An exposure
  carries the GD-2.3.1 lead option (GD-2.5: exposed cards are handled as 2.3.1): when the
  owner's partner next has the lead, the partner's 下家 chooses forbid / require / free;
  after 'free' the cards are penalty cards (GD-6), which must be played or passed at each
  legal chance (legal_actions offers only the plays made of them, plus the pass), the
  holder's 下家 designating the kind when there are several.
- Bars, lead restrictions, penalty obligations, the GD-4.2.3 pass sequence and 单下 seats
  are applied inside ``legal_actions()`` and the turn order, so no agent is ever offered
  an action they forbid.
- GD-4.2.2 take-back restores an exact snapshot of the play taken when the unreported play
  was made (and one before the offender's partner first acted after it).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from guandan import events as ev
from guandan.actions import (
    DISCOVERED_AT_ONCE, AskCount, Announce, CallReferee, Choose, Draw, DrawOutOfTurn, DropCard,
    GiveTribute, Incident, Pass, Play, PlayWithExtra, Report, Retract, ReturnCard, action_to_data,
)
from guandan.combos import BOMB_CLASS, BOMB_KINDS, Reading, beats, readings
from guandan.legal import LegalActions, _Choices
from guandan.movegen import Move, legal_plays
from guandan.observation import Phase, TopPlay, UnauthorisedItem
from guandan.tribute import return_choices, tribute_choices
from tabletop import rng as streams
from tabletop.cards import Card, codes, count_list, full_deck, sort_cards
from tabletop.errors import IllegalAction
from tabletop.irregular import facts as make_facts
from tabletop.seats import NUM_SEATS, next_seat, partner, prev_seat, seats_from

REPORT_LIMIT = 10
LEAD_OPTIONS = ("forbid", "require", "free")
REPLAY_OPTIONS = ("take_back", "stand")


def kind_key(reading: Reading) -> str:
    """The combination type for the lead option (PD): the kind, bombs by size."""
    return f"BOMB {reading.size}" if reading.kind.name == "BOMB" else reading.kind.name


def _minus(cards: Sequence[Card], taken: Iterable[Card]) -> list[Card]:
    """Multiset difference."""
    out = list(cards)
    for c in taken:
        if c in out:
            out.remove(c)
    return out


def _contains(hand_counts: list[int], cards: Iterable[Card]) -> bool:
    need = count_list(cards)
    return all(need[i] <= hand_counts[i] for i in range(54) if need[i])


class Exposure:
    """Exposed cards of one seat from one incident (a multiset that shrinks as they are
    played). ``kind``: their combination type, or None when they form none."""

    __slots__ = ("uid", "seat", "cards", "kind", "penalty", "reason")

    def __init__(self, uid: int, seat: int, cards: list[Card], kind: str | None, reason: str) -> None:
        self.uid, self.seat, self.cards, self.kind, self.reason = uid, seat, cards, kind, reason
        self.penalty = False


class LeadOptionState:
    """GD-2.3.1: ``chooser`` decides about ``restricted``'s next lead (exposure ``uid``)."""

    __slots__ = ("uid", "chooser", "restricted", "kind", "asked_at")

    def __init__(self, uid: int, chooser: int, restricted: int, kind: str) -> None:
        self.uid, self.chooser, self.restricted, self.kind = uid, chooser, restricted, kind
        self.asked_at = -1


class ChoiceState:
    __slots__ = ("seat", "purpose", "options", "about")

    def __init__(self, seat: int, purpose: str, options: tuple[str, ...], about: Any = None) -> None:
        self.seat, self.purpose, self.options, self.about = seat, purpose, options, about


class OutOfTurn:
    """An out-of-turn play lying on the table, waiting for the offender's 下家."""

    __slots__ = ("seq", "seat", "cards", "reading", "rightful", "responder")

    def __init__(self, seq: int, seat: int, cards: tuple[Card, ...], reading: Reading,
                 rightful: int, responder: int) -> None:
        self.seq, self.seat, self.cards, self.reading = seq, seat, cards, reading
        self.rightful, self.responder = rightful, responder


class LatentReport:
    """A missing or wrong 报牌 nobody noticed yet (GD-4.2), to come to light at ``target``."""

    __slots__ = ("seq", "seat", "target", "irregularity", "acted", "plays_since", "snap0",
                 "snap_partner", "count")

    def __init__(self, seq: int, seat: int, target: int, irregularity: str, count: int | None,
                 snap0: dict) -> None:
        self.seq, self.seat, self.target, self.irregularity = seq, seat, target, irregularity
        self.count = count
        self.acted: list[int] = []
        self.plays_since = 0
        self.snap0 = snap0
        self.snap_partner: dict | None = None


class TableState:
    """Everything refereed mode adds to a deal (strict deals have none)."""

    def __init__(self) -> None:
        self.awaiting: list[tuple[int, str, int | None]] = []
        """(sequence number, irregularity, seat) of attempts waiting for a ruling."""
        self.resume_phase: Phase | None = None
        self.on_table: dict[int, list[Card]] = {}
        """Cards laid on the table, still their owner's (an attempt, a card drawn out of turn)."""
        self.grab: tuple[int, Card, bool, int] | None = None
        """A card drawn out of turn: (seat, card, in hand, rightful drawer)."""
        self.exposures: list[Exposure] = []
        self.lead_options: list[LeadOptionState] = []
        self.restriction: tuple[int, str, str, tuple[Card, ...]] | None = None
        """(seat, 'forbid' | 'require' | 'cards', kind, cards) for that seat's next lead."""
        self.bars: set[int] = set()
        self.choice: ChoiceState | None = None
        self.designation: tuple[int, int, str] | None = None
        """(holder, turn number, kind) designated for the holder's penalty cards this turn."""
        self.report_due: int | None = None
        self.oot: OutOfTurn | None = None
        self.correction: tuple[int, list[Card], str] | None = None
        self.sequence: list[Any] | None = None
        """GD-4.2.3/4: [offender, seats, index, then]."""
        self.placed_last: list[int] = []
        self.unauthorised: list[tuple[int, UnauthorisedItem]] = []
        self.latent: list[tuple[int, str, int, dict]] = []
        """Wrong tribute / return found after the first play: (seq, irregularity, seat, facts)."""
        self.latent_report: LatentReport | None = None
        self.end_pending = False
        self.lead_count = 0
        """Leads so far (round starts): a lead option is asked once per lead."""
        self.option_asked: dict[int, int] = {}
        """Restricted seat → the lead at which a lead option was last answered for it."""
        self.turns = 0
        self.next_uid = 0
        self.last_play: dict[int, tuple[tuple[Card, ...], Reading]] = {}
        # the draw
        self.setup: dict[str, Any] = {}
        self.redeals = 0
        self.lost: list[Card] = []
        self.face_position: int | None = None
        self.face_drawer: int | None = None
        self.taken = 0
        """Cards taken from the stock so far (positions in the drawn order)."""
        self.rng: Any = None
        self.next_deal: dict[str, Any] | None = None
        self.report_step = True
        """报牌 is a decision of the seat (``Report``); False: the engine reports correctly."""


class RefereedTable:
    """The refereed-mode half of ``guandan.deal.Deal`` (a mixin: it uses the deal's state)."""

    # -----------------------------------------------------------------------------------------
    # Engine protocol, refereed

    @property
    def game_phase(self) -> Phase:
        """The phase of play, also while a ruling is awaited."""
        if self.phase is Phase.AWAITING_RULING:
            return self.table.resume_phase
        return self.phase

    @property
    def awaiting_ruling(self) -> tuple[tuple[int, str, int | None], ...]:
        return tuple(self.table.awaiting) if self.table is not None else ()

    def _r_to_act(self) -> int | None:
        t = self.table
        phase = self.phase
        if phase is Phase.AWAITING_RULING or phase is Phase.SCORED:
            return None
        if t.oot is not None:
            return t.oot.responder
        if t.choice is not None:
            return t.choice.seat
        if t.report_due is not None:
            return t.report_due
        return self.turn

    def _r_play_turn(self) -> int | None:
        """Whose turn to play it is (None while something else must be answered first)."""
        t = self.table
        if self.phase is not Phase.PLAY:
            return None
        if t.oot is not None:
            return t.oot.responder
        if t.choice is not None or t.report_due is not None:
            return None
        return self.turn

    def _r_legal(self) -> Any:
        t = self.table
        if (self.phase is Phase.PLAY and t.oot is None and t.choice is None and t.report_due is None
                and not t.exposures and t.restriction is None and t.sequence is None):
            seat = self.turn  # the everyday case: ordinary play, no restriction
            top = self.top
            if top is None or top.seat == seat:
                return LegalActions(seat, legal_plays(self.hand(seat), None, self.level, rules=self.rules), False)
            return LegalActions(seat, legal_plays(self.hand(seat), top.reading, self.level, rules=self.rules), True)
        seat = self._r_to_act()
        if seat is None:
            return LegalActions(0, [], False)
        if t.oot is not None:
            o = t.oot
            if seat in t.bars or not self.sizes[o.seat]:
                return _Choices(seat, [CallReferee(seat), Pass(seat)])
            options = self._r_play_options(seat, o.reading)
            return _Choices(seat, [CallReferee(seat)] + list(options))
        if t.choice is not None:
            return _Choices(seat, [Choose(seat, o) for o in t.choice.options])
        if t.report_due is not None:
            return _Choices(seat, [Report(seat, self.sizes[seat])])
        phase = self.phase
        if phase is Phase.DRAW:
            return _Choices(seat, [Draw(seat)])
        if phase is Phase.TRIBUTE:
            return _Choices(seat, [GiveTribute(seat, c) for c in tribute_choices(self.hand(seat), self.level)])
        if phase is Phase.RETURN:
            return _Choices(seat, [ReturnCard(seat, c) for c in return_choices(self.hand(seat), self.level)])
        top = self.top
        leading = top is None or top.seat == seat
        return self._r_play_options(seat, None if leading else top.reading,
                                    pass_on_lead=t.sequence is not None)

    def _r_play_options(self, seat: int, top: Reading | None, *, pass_on_lead: bool = False) -> Any:
        t = self.table
        moves = legal_plays(self.hand(seat), top, self.level, rules=self.rules)
        if t.exposures or t.restriction is not None:
            if top is None:
                moves = self._r_lead_filter(seat, moves)
            penalty = self._r_penalty_moves(seat, top)
            if penalty:
                moves = penalty
        return LegalActions(seat, moves, top is not None or pass_on_lead)

    # -----------------------------------------------------------------------------------------
    # Restrictions applied to the legal plays

    def _r_lead_filter(self, seat: int, moves: list[Move]) -> list[Move]:
        r = self.table.restriction
        if r is None or r[0] != seat:
            return moves
        kept = self._r_satisfying(r, moves)
        return kept if kept is not None else moves

    def _r_satisfying(self, r: tuple, moves: list[Move]) -> list[Move] | None:
        """The moves a restriction allows, or None when it lapses (nothing satisfies it;
        for 'require', also when only bombs do: refusal granted, PD)."""
        _seat, rule, kind, cards = r
        if rule == "forbid":
            kept = [m for m in moves if kind_key(m.reading) != kind]
        elif rule == "require":
            kept = [m for m in moves if kind_key(m.reading) == kind]
            if kept and all(m.reading.kind in BOMB_KINDS for m in kept):
                return None
        else:  # 'cards': exactly these cards (GD-4.2.3: the offender leads its exposed cards)
            want = sort_cards(cards)
            kept = [Move(tuple(want), rd) for rd in readings(want, self.level, self.rules)]
        return kept or None

    def _r_restriction_in_force(self, seat: int) -> tuple | None:
        """The lead restriction on ``seat`` if it does not lapse for its hand now."""
        r = self.table.restriction
        if r is None or r[0] != seat:
            return None
        every = legal_plays(self.hand(seat), None, self.level, rules=self.rules)
        return None if self._r_satisfying(r, every) is None else r

    @staticmethod
    def _r_allows(r: tuple, cards: Sequence[Card], reading: Reading) -> bool:
        rule, kind = r[1], r[2]
        if rule == "cards":
            return sort_cards(cards) == list(r[3])
        return (kind_key(reading) == kind) == (rule == "require")

    def _r_penalty_moves(self, seat: int, top: Reading | None) -> list[Move]:
        """GD-6: the legal plays made only of ``seat``'s penalty cards (of the designated
        kind, once designated; within a lead restriction in force). Empty: this is no legal
        opportunity for them."""
        t = self.table
        cards = [c for e in t.exposures if e.seat == seat and e.penalty for c in e.cards]
        if not cards:
            return []
        moves = legal_plays(cards, top, self.level, rules=self.rules)
        if top is None and t.restriction is not None:
            r = self._r_restriction_in_force(seat)
            if r is not None:
                moves = [m for m in moves if self._r_allows(r, m.cards, m.reading)]
        d = t.designation
        if d is not None and d[0] == seat and d[1] == t.turns:
            moves = [m for m in moves if kind_key(m.reading) == d[2]] or moves
        return moves

    def _r_restriction_broken(self, seat: int, cards: tuple[Card, ...], reading: Reading,
                              top: Reading | None) -> str | None:
        """Which table restriction a play breaks (None: none)."""
        t = self.table
        if not t.exposures and t.restriction is None:
            return None
        r = self._r_restriction_in_force(seat) if top is None else None
        if r is not None and not self._r_allows(r, cards, reading):
            return f"lead restriction: {r[1]} {r[2]}"
        penalty = self._r_penalty_moves(seat, top)
        if penalty:
            pcards = [c for e in t.exposures if e.seat == seat and e.penalty for c in e.cards]
            kinds = {kind_key(m.reading) for m in penalty}
            if not _contains(count_list(pcards), cards) or kind_key(reading) not in kinds:
                return "penalty cards must be played (or pass)"
        return None

    # -----------------------------------------------------------------------------------------
    # apply, refereed

    def _r_apply(self, action: Any) -> list:
        t = self.table
        legal = self._legal
        kind = type(action)
        if (legal is not None and legal.handed_out(action) and (kind is Play or kind is Pass)
                and t.oot is None and t.sequence is None and t.correction is None and t.latent_report is None
                and self.phase is Phase.PLAY):
            # the everyday case: a play or pass handed out by legal_actions() in ordinary play
            self._legal = None
            if kind is Play:
                self.stream.emit(ev.CardsPlayed, seat=action.seat, cards=codes(action.cards),
                                 reading=action.reading.code)
                self._r_apply_play(action.seat, action.cards, action.reading)
            else:
                self.stream.emit(ev.Passed, seat=action.seat)
                self._r_apply_pass(action.seat)
            if self.phase is Phase.PLAY:
                self._r_settle()
            return self.stream.take()
        if self.phase is Phase.SCORED:
            raise IllegalAction("the deal is over")
        if self.phase is Phase.AWAITING_RULING:
            raise IllegalAction("the table waits for the referee's ruling")
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction(f"not a 掼蛋 action: {action!r}")
        handed = legal is not None and legal.handed_out(action)
        self._legal = None
        handler(self, action, handed)
        if self.phase is not Phase.AWAITING_RULING and self.phase is not Phase.SCORED:
            self._r_settle()
        return self.stream.take()

    # ---- the draw

    def _r_draw(self, a: Draw, handed: bool) -> None:
        t = self.table
        if self.phase is not Phase.DRAW:
            raise IllegalAction("no draw now")
        if a.seat != self._r_to_act():
            raise IllegalAction(f"seat {self.turn} draws next, not seat {a.seat}")
        n = len(self.stock)
        if not a.flawed:
            self.stream.emit(ev.DrawRan, seat=a.seat)
            self._r_run_draw(n)
            self._r_finish_draw()
            return
        if not 0 <= a.at < n:
            raise IllegalAction(f"the slip must happen within the {n} cards still to draw")
        rightful = (self.turn + a.at) % NUM_SEATS
        if a.extra_by is not None and (a.extra_by not in range(NUM_SEATS) or a.extra_by == rightful):
            raise IllegalAction("the extra card is taken by a seat other than its rightful drawer")
        counts = list(self.sizes)
        seat = self.turn
        for i in range(n):
            if i == a.at and (a.lost or a.extra_by is not None):
                if a.extra_by is not None:
                    counts[a.extra_by] += 1
                continue
            counts[seat] += 1
            seat = next_seat(seat)
        complete = not a.lost
        if complete and counts == [27] * 4:
            raise IllegalAction("that slip leaves every count right: no table could tell (draw normally)")
        ev_ = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_counts_after_draw",
                               action=action_to_data(a),
                               facts=make_facts(counts=tuple(counts), deck_complete=complete))
        self._r_run_draw(n, slip=a)
        self.stream.emit(ev.HandsComplete, sizes=tuple(self.sizes))
        self._r_await(ev_.seq, "wrong_counts_after_draw", None)

    def _r_run_draw(self, count: int, slip: Draw | None = None) -> None:
        t = self.table
        if slip is None:  # the usual draw, kept lean
            face = t.face_position
            seat = self.turn
            draw = self.draw_next
            for _ in range(count):
                if t.taken == face:
                    t.face_drawer = seat
                t.taken += 1
                draw(seat)
                seat = (seat + 1) % NUM_SEATS
            self.turn = seat
            return
        for i in range(count):
            if slip is not None and i == slip.at:
                if slip.lost:
                    card = self.stock.pop(0)
                    t.lost.append(card)
                    t.taken += 1
                    self.stream.emit(ev.CardLost, card=str(card))
                if slip.extra_by is not None:
                    self._r_take_from_stock(slip.extra_by)
                continue
            self._r_take_from_stock(self.turn)
            self.turn = next_seat(self.turn)

    def _r_take_from_stock(self, seat: int) -> Card:
        t = self.table
        if t.taken == t.face_position:
            t.face_drawer = seat
        t.taken += 1
        return self.draw_next(seat)

    def _r_finish_draw(self) -> None:
        self.stream.emit(ev.HandsComplete, sizes=tuple(self.sizes))
        self._r_after_draw()

    def _r_after_draw(self) -> None:
        t = self.table
        s = t.setup
        if s.get("previous_order") is not None:
            self._start_tribute(s["previous_order"], s["no_tribute_teams"], s["no_tribute"], s["leader"])
        elif s.get("leader") is not None:
            self._start_play(s["leader"], "given")
        else:
            self._start_play(t.face_drawer if t.face_drawer is not None else s["face_leader"], "face_up")

    def _r_draw_out_of_turn(self, a: DrawOutOfTurn, handed: bool) -> None:
        t = self.table
        if self.phase is not Phase.DRAW or t.grab is not None:
            raise IllegalAction("no draw out of turn now")
        n = len(self.stock)
        if not 0 <= a.after < n:
            raise IllegalAction(f"only {n} cards are left to draw")
        rightful = (self.turn + a.after) % NUM_SEATS
        if a.seat == rightful:
            raise IllegalAction(f"seat {a.seat} is the rightful drawer of that card")
        card = self.stock[a.after]
        face_card = t.taken + a.after == t.face_position
        inserted = a.inserted
        face_seen = a.face_seen or inserted or face_card
        identifiable = (a.identifiable or face_card) if inserted else True
        shown = face_seen and identifiable
        ev_ = self.stream.emit(
            ev.IrregularAttempt, seat=a.seat, irregularity="draw_out_of_turn", action=action_to_data(a),
            facts=make_facts(rightful=rightful, face_seen=face_seen, inserted=inserted,
                             identifiable=identifiable, face_up_card=face_card,
                             card=str(card) if shown else None))
        self._r_run_draw(a.after)
        drawn = self.stock.pop(0)
        t.taken += 1
        if inserted:
            self.hands[a.seat][drawn] += 1
            self.sizes[a.seat] += 1
            self._hand_tuples[a.seat] = None
        else:
            t.on_table.setdefault(a.seat, []).append(drawn)
        t.grab = (a.seat, drawn, inserted, rightful)
        self._r_await(ev_.seq, "draw_out_of_turn", a.seat)

    # ---- tribute and return

    def _r_give_tribute(self, a: GiveTribute, handed: bool) -> None:
        t = self.table
        if self.phase is not Phase.TRIBUTE or a.seat != self._r_to_act():
            raise IllegalAction(f"seat {a.seat} gives no tribute now")
        if not self.hands[a.seat][a.card]:
            raise IllegalAction(f"cards not in hand: {a.card}")
        choices = tribute_choices(self.hand(a.seat), self.level)
        if a.card in choices:
            self._give_tribute(a.seat, a.card)
            return
        receiver = self.pending[0][1]
        stage = a.discovered or DISCOVERED_AT_ONCE
        facts = make_facts(given=str(a.card), required=codes(choices), receiver=receiver, discovered=stage)
        if stage == DISCOVERED_AT_ONCE:
            e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_tribute",
                                 action=action_to_data(a), facts=facts)
            self._r_lay(a.seat, [a.card])
            self._r_await(e.seq, "wrong_tribute", a.seat)
            return
        e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_tribute",
                             action=action_to_data(a), facts=facts, latent=True)
        t.latent.append((e.seq, "wrong_tribute", a.seat, dict(facts)))
        self._give_tribute(a.seat, a.card, emit=False)

    def _r_return_card(self, a: ReturnCard, handed: bool) -> None:
        t = self.table
        if self.phase is not Phase.RETURN or a.seat != self._r_to_act():
            raise IllegalAction(f"seat {a.seat} returns no card now")
        if not self.hands[a.seat][a.card]:
            raise IllegalAction(f"cards not in hand: {a.card}")
        payer = self.pending[0][1]
        to = payer if a.to is None else a.to
        if to not in range(NUM_SEATS) or to == a.seat:
            raise IllegalAction(f"cannot return a card to seat {to}")
        choices = return_choices(self.hand(a.seat), self.level)
        if a.card in choices and to == payer:
            self._return_card(a.seat, a.card)
            return
        stage = a.discovered or DISCOVERED_AT_ONCE
        facts = make_facts(given=str(a.card), allowed=codes(choices), payer=payer, to=to, discovered=stage,
                           wrong_card=a.card not in choices, wrong_recipient=to != payer)
        if stage == DISCOVERED_AT_ONCE:
            e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_return",
                                 action=action_to_data(a), facts=facts)
            self._r_lay(a.seat, [a.card])
            self._r_await(e.seq, "wrong_return", a.seat)
            return
        e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_return",
                             action=action_to_data(a), facts=facts, latent=True)
        t.latent.append((e.seq, "wrong_return", a.seat, dict(facts)))
        self._return_card(a.seat, a.card, emit=False, to=to)

    # ---- play

    def _r_play(self, a: Play, handed: bool) -> None:
        t = self.table
        seat = a.seat
        if self.phase is not Phase.PLAY:
            raise IllegalAction("no play now: the deal is not in play")
        if not handed:
            self._r_check_holds(seat, a.cards)
        if seat != self._r_play_turn():
            self._r_out_of_turn_play(a)
            return
        if t.oot is not None:
            self._r_answer_out_of_turn(a, handed)
            return
        self._r_play_in_turn(seat, a.cards, a.reading, a, handed)

    def _r_play_extra(self, a: PlayWithExtra, handed: bool) -> None:
        t = self.table
        seat = a.seat
        if self.phase is not Phase.PLAY:
            raise IllegalAction("no play now: the deal is not in play")
        if not a.extra:
            raise IllegalAction("no extra cards: make an ordinary play")
        self._r_check_holds(seat, a.cards + a.extra)
        if seat != self._r_play_turn() or t.oot is not None:
            raise IllegalAction("extra cards carried out of turn are not modelled")
        top = self._r_top_for(seat)
        verdict = self._r_classify(seat, a.cards, a.reading, top)
        e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="extra_cards",
                             action=action_to_data(a),
                             facts=make_facts(cards=codes(a.cards), reading=a.reading.code, extra=codes(a.extra),
                                              top=None if top is None else top.code, leading=top is None,
                                              rest_legal=verdict is None,
                                              rest_problem=None if verdict is None else verdict[0]))
        self._r_lay(seat, a.cards + a.extra)
        self._r_await(e.seq, "extra_cards", seat)

    def _r_check_holds(self, seat: int, cards: Sequence[Card]) -> None:
        if seat not in range(NUM_SEATS):
            raise IllegalAction(f"no seat {seat}")
        if not cards:
            raise IllegalAction("no cards (a pass is not a play)")
        if not _contains(self.hands[seat], cards):
            raise IllegalAction(f"cards not in hand: {' '.join(map(str, cards))}")
        if seat in self.table.placed_last:
            raise IllegalAction(f"seat {seat} is judged last and plays no more")

    def _r_classify(self, seat: int, cards: tuple[Card, ...], reading: Reading,
                    top: Reading | None) -> tuple[str, dict] | None:
        """None if the play is legal here, else (irregularity id, facts)."""
        found = readings(cards, self.level, self.rules)
        if reading not in found:
            if not found:
                return "wrong_kind", {"reason": "not a combination"}
            raise IllegalAction(f"{' '.join(map(str, cards))} cannot be read as {reading.code}")
        if top is not None and not beats(reading, top, self.level):
            same = reading.comparison_class == top.comparison_class or top.comparison_class == BOMB_CLASS
            return ("does_not_beat" if same else "wrong_kind"), {"reason": f"{reading.code} on {top.code}"}
        broken = self._r_restriction_broken(seat, cards, reading, top)
        if broken:
            return "wrong_kind", {"reason": broken}
        return None

    def _r_top_for(self, seat: int) -> Reading | None:
        top = self.top
        return None if top is None or top.seat == seat else top.reading

    def _r_play_in_turn(self, seat: int, cards: tuple[Card, ...], reading: Reading, action: Any,
                        handed: bool, *, accept_oot: bool = False) -> None:
        t = self.table
        top = t.oot.reading if accept_oot else self._r_top_for(seat)
        verdict = None if handed else self._r_classify(seat, cards, reading, top)
        lr = t.latent_report
        if verdict is None and lr is not None and lr.seat == seat and len(cards) < self.sizes[seat] and (
                lr.target == 3 or (lr.target == 4 and lr.plays_since >= 1)):
            # GD-4.2.3 / 4.2.4: the unreported player plays again; the play is held on the table
            self.stream.emit(ev.CardsPlayed, seat=seat, cards=codes(cards), reading=reading.code)
            if accept_oot:
                self._r_stand_out_of_turn(seat)
                if self.phase is Phase.SCORED or t.end_pending:
                    return
            self._r_lay(seat, cards)
            t.latent_report = None
            stage = 3 if lr.plays_since == 0 else 4
            self._r_found(lr.seq, lr.irregularity, seat, stage=stage, at_deal_end=False,
                          acted=tuple(lr.acted), partner_acted=partner(seat) in lr.acted,
                          partner_out=partner(seat) in self.finish_order, count=lr.count,
                          holds=self.sizes[seat] + len(cards), cards=codes(cards), reading=reading.code)
            return
        if verdict is None:
            self.stream.emit(ev.CardsPlayed, seat=seat, cards=codes(cards), reading=reading.code)
            if accept_oot:
                self._r_stand_out_of_turn(seat)
                if self.phase is Phase.SCORED or t.end_pending:
                    return
            self._r_apply_play(seat, cards, reading)
            return
        irregularity, info = verdict
        e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity=irregularity,
                             action=action_to_data(action),
                             facts=make_facts(cards=codes(cards), reading=reading.code,
                                              top=None if top is None else top.code,
                                              leading=top is None, **info))
        if accept_oot:
            self._r_stand_out_of_turn(seat)
        self._r_lay(seat, cards)
        self._r_await(e.seq, irregularity, seat)

    def _r_lay(self, seat: int, cards: Iterable[Card]) -> None:
        """Cards of an attempt go from the hand onto the table (still the seat's)."""
        hand = self.hands[seat]
        laid = self.table.on_table.setdefault(seat, [])
        for c in cards:
            hand[c] -= 1
            self.sizes[seat] -= 1
            laid.append(c)
        self._hand_tuples[seat] = None

    def _r_apply_play(self, seat: int, cards: tuple[Card, ...], reading: Reading) -> None:
        """A legal play (its event already emitted): the table state after it."""
        t = self.table
        leading = self.top is None or self.top.seat == seat
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        self._hand_tuples[seat] = None
        left = self.sizes[seat] - len(cards)
        self.sizes[seat] = left
        self.played[seat] = self.played[seat] + cards
        if leading and self.top is not None:  # its own play stood: a new round in effect
            self.top = None
        self.top = TopPlay(seat, cards, reading)
        self.passed = []
        self.plays += 1
        t.turns += 1
        t.last_play[seat] = (cards, reading)
        if t.exposures:
            self._r_consume_exposed(seat, cards)
        if leading and t.restriction is not None and t.restriction[0] == seat:
            t.restriction = None
        if t.sequence is not None:
            t.sequence = None
        if t.correction is not None and t.correction[0] == seat:
            self._r_expose_unused(seat, cards)
        lr = t.latent_report
        if lr is not None:
            if seat == lr.seat:
                lr.plays_since += 1
            else:
                lr.acted.append(seat)
        if left == 0:
            if lr is not None and seat == lr.seat:
                self._r_discover_report(5)
                return
            self.announced[seat] = 0
            self._r_finish(seat)
            if self.phase is Phase.SCORED or t.end_pending:
                return
        elif left <= REPORT_LIMIT and not (lr is not None and lr.seat == seat):
            if t.report_step:
                t.report_due = seat
            else:
                self.report(seat)
        self.turn = self._r_next_active(seat)
        if self.plays == 1 and t.latent:
            self._r_discover_tribute()

    def _r_consume_exposed(self, seat: int, cards: Iterable[Card]) -> None:
        t = self.table
        rest = list(cards)
        for e in t.exposures:
            if e.seat != seat:
                continue
            for c in list(e.cards):
                if c in rest:
                    e.cards.remove(c)
                    rest.remove(c)
        gone = {e.uid for e in t.exposures if not e.cards}
        if gone:
            t.exposures = [e for e in t.exposures if e.cards]
            t.lead_options = [o for o in t.lead_options if o.uid not in gone]

    def _r_expose_unused(self, seat: int, used: Iterable[Card]) -> None:
        t = self.table
        _, attempt, reason = t.correction
        t.correction = None
        unused = _minus(attempt, used)
        if unused:
            self.expose(seat, unused, reason)

    def _r_pass(self, a: Pass, handed: bool) -> None:
        t = self.table
        seat = a.seat
        if self.phase is not Phase.PLAY:
            raise IllegalAction("no pass now: the deal is not in play")
        if seat != self._r_play_turn():
            self._r_announce(Announce(seat, "pass"), handed, action=a)
            return
        if t.oot is not None:
            self.stream.emit(ev.Passed, seat=seat)
            self._r_stand_out_of_turn(seat)
            if self.phase is Phase.SCORED or t.end_pending:
                return
            self._r_apply_pass(seat)
            return
        leading = self.top is None or self.top.seat == seat
        if leading and t.sequence is None:
            e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="pass_on_lead",
                                 action=action_to_data(a), facts=make_facts(leading=True))
            self._r_await(e.seq, "pass_on_lead", seat)
            return
        self.stream.emit(ev.Passed, seat=seat)
        self._r_apply_pass(seat)

    def _r_apply_pass(self, seat: int) -> None:
        t = self.table
        t.turns += 1
        if t.correction is not None and t.correction[0] == seat:
            self._r_expose_unused(seat, ())
        lr = t.latent_report
        if lr is not None and seat != lr.seat:
            lr.acted.append(seat)
        if t.designation is not None and t.designation[0] == seat:
            t.designation = None
        seq = t.sequence
        if seq is not None:
            self._r_sequence_pass(seat)
            return
        top_seat = self.top.seat
        passed = self.passed
        passed.append(seat)
        sizes = self.sizes
        last = t.placed_last
        for s in range(NUM_SEATS):
            if sizes[s] and s != top_seat and s not in passed and s not in last:
                self.turn = self._r_next_active(seat)
                return
        self._r_round_over()

    def _r_round_over(self) -> None:
        t = self.table
        top_seat = self.top.seat
        leader = self._r_leader_after(top_seat)
        self.stream.emit(ev.RoundEnded, seat=top_seat, leader=leader, partner_leads=leader != top_seat)
        self.top = None
        self.passed = []
        self.leader = self.turn = leader
        t.lead_count += 1
        for s in sorted(t.bars):
            self.stream.emit(ev.BarEnded, seat=s, how="lapsed")
        t.bars.clear()

    def _r_leader_after(self, top_seat: int) -> int:
        active = self._r_active()
        if top_seat in active:
            return top_seat
        if partner(top_seat) in active:
            return partner(top_seat)
        return self._r_next_active(top_seat)

    def _r_active(self) -> list[int]:
        last = self.table.placed_last
        return [s for s in range(NUM_SEATS) if self.sizes[s] and s not in last]

    def _r_next_active(self, seat: int) -> int:
        last = self.table.placed_last
        for _ in range(NUM_SEATS):
            seat = (seat + 1) % NUM_SEATS
            if self.sizes[seat] and seat not in last:
                return seat
        raise AssertionError("nobody holds cards")

    def _r_finish(self, seat: int) -> None:
        t = self.table
        order = self.finish_order
        order.append(seat)
        self.stream.emit(ev.PlayerFinished, seat=seat, place=len(order))
        if self._r_deal_over():
            if t.latent_report is not None:
                t.end_pending = True
                self._r_discover_report(None)
                return
            self._r_end_by_play()

    def _r_deal_over(self) -> bool:
        order = self.finish_order
        if len(order) >= 2 and order[1] == partner(order[0]):
            return True
        return len(self._r_active()) <= 1

    def _r_end_by_play(self) -> None:
        t = self.table
        t.end_pending = False
        order = list(self.finish_order)
        first = order[0] if order else 0
        rest = [s for s in seats_from(next_seat(first)) if s not in order and s not in t.placed_last]
        self.finish_order = order + rest + list(t.placed_last)
        self._end()

    # ---- out of turn

    def _r_out_of_turn_play(self, a: Play) -> None:
        t = self.table
        seat = a.seat
        lead_choice = t.choice is not None and t.choice.purpose == "lead_option"
        if (t.choice is not None and not lead_choice) or t.report_due is not None or t.oot is not None \
                or self.turn is None:
            raise IllegalAction("an out-of-turn play now is not modelled (the table is answering something else)")
        if a.reading not in readings(a.cards, self.level, self.rules):
            raise IllegalAction(f"{' '.join(map(str, a.cards))} cannot be read as {a.reading.code}")
        rightful = self.turn
        responder = self._r_next_active(seat)
        top = self.top
        e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="play_out_of_turn",
                             action=action_to_data(a), latent=True,
                             facts=make_facts(rightful=rightful, responder=responder, cards=codes(a.cards),
                                              reading=a.reading.code,
                                              top=None if top is None else top.reading.code))
        self._r_lay(seat, a.cards)
        t.oot = OutOfTurn(e.seq, seat, a.cards, a.reading, rightful, responder)

    def _r_answer_out_of_turn(self, a: Play, handed: bool) -> None:
        self._r_play_in_turn(a.seat, a.cards, a.reading, a, handed, accept_oot=True)

    def _r_call_referee(self, a: CallReferee, handed: bool) -> None:
        t = self.table
        o = t.oot
        if o is None or a.seat != self._r_to_act():
            raise IllegalAction(f"seat {a.seat} has no out-of-turn play to call the referee about")
        self.stream.emit(ev.RefereeCalled, seat=a.seat, offender=o.seat)
        self._r_found(o.seq, "play_out_of_turn", o.seat,
                      followed=False, rightful=o.rightful, responder=o.responder,
                      cards=codes(o.cards), reading=o.reading.code)

    def _r_stand_out_of_turn(self, responder: int) -> None:
        """The responder acted on the out-of-turn cards: they stand as if played in turn."""
        t = self.table
        o = t.oot
        t.oot = None
        if t.choice is not None and t.choice.purpose == "lead_option":
            t.choice = None  # the lead was made before the choice, and it stands
        laid = t.on_table.pop(o.seat)
        for c in laid:
            self.hands[o.seat][c] += 1
        self.sizes[o.seat] += len(laid)
        self._hand_tuples[o.seat] = None
        self.stream.emit(ev.PlayStands, seat=o.seat, cards=codes(o.cards), reading=o.reading.code,
                         reason=f"GD-2.3.2: seat {responder} acted on it")
        self._r_stand(o.seat, o.cards, o.reading, report_now=True)
        self._r_found(o.seq, "play_out_of_turn", o.seat, followed=True, rightful=o.rightful,
                      responder=responder, cards=codes(o.cards), reading=o.reading.code)

    def _r_stand(self, seat: int, cards: tuple[Card, ...], reading: Reading, *, report_now: bool) -> None:
        """Apply a play that stands by a ruling or an acceptance (no action event)."""
        t = self.table
        awaiting = self.phase is Phase.AWAITING_RULING
        if awaiting:  # the play's state changes happen as in play
            self.phase = t.resume_phase
        self._r_apply_play(seat, cards, reading)
        if report_now and t.report_due == seat:
            t.report_due = None
            self.report(seat)
        if awaiting and self.phase is not Phase.SCORED and self.phase is not Phase.AWAITING_RULING:
            t.resume_phase = self.phase
            self.phase = Phase.AWAITING_RULING

    # ---- announcements and the like

    def _r_announce(self, a: Announce, handed: bool, action: Any = None) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalAction("no announcement now: the deal is not in play")
        seat = a.seat
        if not self.sizes[seat] or seat in self.table.placed_last:
            raise IllegalAction(f"seat {seat} is out of the play")
        if seat == self._r_play_turn():
            raise IllegalAction("it is this seat's turn: play or pass")
        e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="announce_out_of_turn",
                             action=action_to_data(action or a),
                             facts=make_facts(what=a.what, to_act=self.turn,
                                              top=None if self.top is None else self.top.reading.code))
        self._r_await(e.seq, "announce_out_of_turn", seat)

    def _r_simple(self, action: Any, irregularity: str, **info: Any) -> None:
        e = self.stream.emit(ev.IrregularAttempt, seat=action.seat, irregularity=irregularity,
                             action=action_to_data(action), facts=make_facts(**info))
        self._r_await(e.seq, irregularity, action.seat)

    def _r_retract(self, a: Retract, handed: bool) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalAction("nothing to take back: the deal is not in play")
        last = self.table.last_play.get(a.seat)
        self._r_simple(a, "retract_play", last_play=None if last is None else codes(last[0]))

    def _r_ask(self, a: AskCount, handed: bool) -> None:
        if self.phase is not Phase.PLAY or a.target not in range(NUM_SEATS) or a.target == a.seat:
            raise IllegalAction("no count to ask for")
        self._r_simple(a, "ask_count", target=a.target)

    def _r_drop(self, a: DropCard, handed: bool) -> None:
        t = self.table
        if self.phase is not Phase.PLAY:
            raise IllegalAction("dropping a card is modelled in play only")
        exposed = [c for e in t.exposures if e.seat == a.seat for c in e.cards]
        free = list(self.hands[a.seat])
        for c in exposed:
            free[c] -= 1
        if free[a.card] <= 0:
            raise IllegalAction(f"seat {a.seat} holds no unexposed {a.card}")
        self._r_simple(a, "exposed_card", card=str(a.card))

    def _r_incident(self, a: Incident, handed: bool) -> None:
        if a.seat not in range(NUM_SEATS):
            raise IllegalAction(f"no seat {a.seat}")
        self._r_simple(a, "incident", incident=a.incident, severity=a.severity, damaged=a.damaged,
                       note=a.note, phase=self.phase.value)

    # ---- reports

    def _r_report(self, a: Report, handed: bool) -> None:
        t = self.table
        if t.report_due != a.seat:
            if self.phase is not Phase.PLAY:
                raise IllegalAction("no report now")
            self._r_simple(a, "report_repeated", count=a.count, announced=self.announced[a.seat])
            return
        true = self.sizes[a.seat]
        if a.count == true:
            t.report_due = None
            self.announced[a.seat] = true
            self.stream.emit(ev.CountReported, seat=a.seat, count=true)
            return
        irregularity = "report_missing" if a.count is None else "report_wrong"
        t.report_due = None
        if a.count is not None:
            self.announced[a.seat] = a.count
        stage = a.discovered
        if stage > 1 and t.latent_report is not None:
            stage = 1  # one unnoticed 报牌 irregularity at a time: a second one is noticed at once
        info = make_facts(count=a.count, holds=true, stage=stage, requested_stage=a.discovered)
        if stage == 1:
            e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity=irregularity,
                                 action=action_to_data(a), facts=info)
            self._r_await(e.seq, irregularity, a.seat)
            return
        e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity=irregularity,
                             action=action_to_data(a), facts=info, latent=True)
        t.latent_report = LatentReport(e.seq, a.seat, a.discovered, irregularity, a.count, self._r_snapshot())

    def _r_discover_report(self, stage: int | None) -> None:
        """The latent report comes to light at ``stage`` (None: the deal would end now)."""
        t = self.table
        lr = t.latent_report
        n = self._r_first_after(lr.seat)
        n_acted = n in lr.acted
        at_end = stage is None
        if at_end:
            stage = 4 if lr.plays_since >= 2 else 3 if lr.plays_since == 1 else 2 if n_acted else 1
        t.latent_report = None if stage != 2 else lr
        self._r_found(lr.seq, lr.irregularity, lr.seat, stage=stage, at_deal_end=at_end,
                      acted=tuple(lr.acted), partner_acted=partner(lr.seat) in lr.acted,
                      partner_out=partner(lr.seat) in self.finish_order,
                      count=lr.count, holds=self.sizes[lr.seat] + len(t.on_table.get(lr.seat, ())))

    def _r_first_after(self, seat: int) -> int:
        """The seat that acted first after ``seat`` (its 下家 still in play)."""
        for s in seats_from(next_seat(seat))[:3]:
            if self.sizes[s] and s not in self.table.placed_last:
                return s
        return next_seat(seat)

    # ---- choices

    def _r_choose(self, a: Choose, handed: bool) -> None:
        t = self.table
        c = t.choice
        if c is None or a.seat != c.seat or a.option not in c.options:
            raise IllegalAction(f"seat {a.seat} has no choice {a.option!r} to make")
        t.choice = None
        self.stream.emit(ev.ChoiceMade, seat=a.seat, purpose=c.purpose, option=a.option)
        if c.purpose == "lead_option":
            self._r_lead_option_chosen(c.about, a.option)
        elif c.purpose == "designate":
            t.designation = (c.about, t.turns, a.option)
        elif c.purpose == "replay":
            self._r_replay_chosen(a.option, partner_only=False)
        elif c.purpose == "partner_replay":
            self._r_replay_chosen(a.option, partner_only=True)

    def _r_lead_option_chosen(self, uid: int, option: str) -> None:
        t = self.table
        opt = next(o for o in t.lead_options if o.uid == uid)
        exposure = next(e for e in t.exposures if e.uid == uid)
        t.option_asked[opt.restricted] = t.lead_count
        if option == "free":
            opt.asked_at = t.lead_count
            if not exposure.penalty:
                exposure.penalty = True
                self.stream.emit(ev.PenaltyCardsMarked, seat=exposure.seat, cards=codes(exposure.cards),
                                 reason="GD-6: choice c, the exposed cards stay")
            return
        t.lead_options.remove(opt)
        t.exposures.remove(exposure)
        self.stream.emit(ev.ExposureLifted, seat=exposure.seat, cards=codes(exposure.cards),
                         reason=f"GD-2.3.1: choice {'a' if option == 'forbid' else 'b'}")
        self.restrict_lead(opt.restricted, option, opt.kind, reason="GD-2.3.1")

    def _r_replay_chosen(self, option: str, *, partner_only: bool) -> None:
        t = self.table
        lr = t.latent_report
        offender = lr.seat
        p = partner(offender)
        if option == "take_back":
            snap = lr.snap_partner if partner_only else lr.snap0
            self._r_take_back(snap, lr)
            t.latent_report = None
            return
        if not partner_only and p in lr.acted and lr.snap_partner is not None:
            self.offer_choice(p, "partner_replay", REPLAY_OPTIONS)
            return
        t.latent_report = None

    def _r_take_back(self, snap: dict, lr: LatentReport) -> None:
        t = self.table
        before = [list(self.played[s]) for s in range(NUM_SEATS)]
        true_count = self.announced[lr.seat]
        self._r_restore(snap)
        self.announced[lr.seat] = true_count
        taken = [tuple(before[s][len(self.played[s]):]) for s in range(NUM_SEATS)]
        seats = tuple(s for s in range(NUM_SEATS) if taken[s] or (s in lr.acted and s != lr.seat))
        self.stream.emit(ev.PlaysTakenBack, since=lr.seq, seats=seats, cards=tuple(codes(c) for c in taken),
                         reason="GD-4.2.2")
        p = partner(lr.seat)
        if taken[p]:
            self.mark_unauthorised((lr.seat,), p, taken[p], "partner took back (GD-4.2.2)")

    # ---- the GD-4.2.3 / 4.2.4 pass sequence

    def _r_sequence_pass(self, seat: int) -> None:
        t = self.table
        offender, seats, index, then = t.sequence
        top = self.top
        if top is not None and top.seat != seat:
            self.passed.append(seat)
        index += 1
        while index < len(seats) and seats[index] not in self._r_active():
            index += 1
        if index < len(seats):
            t.sequence = [offender, seats, index, then]
            self.turn = seats[index]
            return
        t.sequence = None
        if then == "offender_leads":
            top_seat = top.seat if top is not None else offender
            self.stream.emit(ev.RoundEnded, seat=top_seat, leader=offender, partner_leads=False)
            self.top = None
            self.passed = []
            self.leader = self.turn = offender
            t.lead_count += 1
            if offender in t.bars:
                t.bars.discard(offender)
                self.stream.emit(ev.BarEnded, seat=offender, how="lifted")
            for s in sorted(t.bars):
                self.stream.emit(ev.BarEnded, seat=s, how="lapsed")
            t.bars.clear()
            exposed = [c for e in t.exposures if e.seat == offender and e.reason.startswith("GD-4.2.3")
                       for c in e.cards]
            if exposed:
                self.restrict_lead(offender, "cards", "exposed cards", cards=exposed, reason="GD-4.2.3")
            return
        # 'play_on': the offender's 上家 continues as in normal play
        last = seats[-1]
        self.turn = self._r_next_active(last)
        if top is not None and all(s == top.seat or s in self.passed for s in self._r_active()):
            self._r_round_over()

    # -----------------------------------------------------------------------------------------
    # Whose turn: bars, lead options, designations, discoveries

    def _r_settle(self) -> None:
        t = self.table
        if not (t.bars or t.lead_options or t.exposures or t.latent_report is not None or t.end_pending):
            return  # nothing that acts on whose turn it is
        for _ in range(16):
            if (self.phase is not Phase.PLAY or t.choice is not None or t.report_due is not None
                    or t.oot is not None):
                return
            if t.end_pending:
                t.end_pending = False
                if self._r_deal_over():
                    self._r_end_by_play()
                    return
            seat = self.turn
            lr = t.latent_report
            if (lr is not None and lr.target == 2 and seat == lr.seat
                    and self._r_first_after(lr.seat) in lr.acted):
                self._r_discover_report(2)
                return
            if lr is not None and seat == partner(lr.seat) and lr.snap_partner is None:
                lr.snap_partner = self._r_snapshot()
            top = self.top
            leading = top is None or top.seat == seat
            if seat in t.bars:
                t.bars.discard(seat)
                if leading and t.sequence is None:
                    self.stream.emit(ev.BarEnded, seat=seat, how="lapsed")
                    continue
                self.stream.emit(ev.BarredPass, seat=seat)
                self._r_apply_pass(seat)
                continue
            if leading and t.lead_options and t.option_asked.get(seat) != t.lead_count:
                opt = next((o for o in t.lead_options if o.restricted == seat and o.asked_at < t.lead_count), None)
                if opt is not None:
                    self.offer_choice(opt.chooser, "lead_option", LEAD_OPTIONS, about=opt.uid)
                    return
            if t.exposures and any(e.seat == seat and e.penalty for e in t.exposures):
                d = t.designation
                if d is None or d[0] != seat or d[1] != t.turns:
                    moves = self._r_penalty_moves(seat, None if leading else top.reading)
                    kinds = sorted({kind_key(m.reading) for m in moves})
                    if len(kinds) > 1:
                        designator = next((s for s in (next_seat(seat), prev_seat(seat))
                                           if s in self._r_active()), None)
                        if designator is not None:
                            self.offer_choice(designator, "designate", tuple(kinds), about=seat)
                            return
            return

    def _r_flush_latent(self) -> None:
        """The deal ended with irregularities nobody noticed in time: they come to light now
        (``after_end``), so that each one still gets its ruling."""
        t = self.table
        lr, t.latent_report = t.latent_report, None
        if lr is not None:
            self._r_found(lr.seq, lr.irregularity, lr.seat, after_end=True, stage=None, count=lr.count)
        found, t.latent = t.latent, []
        for seq, irregularity, seat, info in found:
            self._r_found(seq, irregularity, seat, **{**info, "after_end": True})
        o, t.oot = t.oot, None
        if o is not None:
            self.return_cards(o.seat, "the deal ended")
            self._r_found(o.seq, "play_out_of_turn", o.seat, after_end=True, cards=codes(o.cards))

    # -----------------------------------------------------------------------------------------
    # Waiting for the referee

    def _r_await(self, seq: int, irregularity: str, seat: int | None) -> None:
        t = self.table
        t.awaiting.append((seq, irregularity, seat))
        if self.phase is not Phase.AWAITING_RULING and self.phase is not Phase.SCORED:
            t.resume_phase = self.phase
            self.phase = Phase.AWAITING_RULING
        self._legal = None

    def _r_found(self, answers: int, irregularity: str, seat: int | None, *, await_: bool = True,
                 **info: Any) -> None:
        self.stream.emit(ev.IrregularityFound, seat=seat, irregularity=irregularity, answers=answers,
                         facts=make_facts(**info))
        if await_:
            self._r_await(answers, irregularity, seat)

    def _r_discover_tribute(self) -> None:
        t = self.table
        found, t.latent = t.latent, []
        for seq, irregularity, seat, info in found:
            self._r_found(seq, irregularity, seat, **{**info, "discovered": "after_first_play"})

    def resolve(self, seq: int | None = None) -> None:
        """End the wait for the ruling on attempt ``seq`` (the first one when None); play
        goes on once no ruling is awaited. Returns the events emitted."""
        t = self.table
        if t is None:
            raise ValueError("resolve: the deal is not refereed")
        if t.awaiting:
            index = 0 if seq is None else next((i for i, a in enumerate(t.awaiting) if a[0] == seq), None)
            if index is not None:
                t.awaiting.pop(index)
        if not t.awaiting and self.phase is Phase.AWAITING_RULING:
            self.phase = t.resume_phase
            self._legal = None
            self._r_continue()
        return None

    def _r_continue(self) -> None:
        t = self.table
        if self.phase is Phase.DRAW and not self.stock and t.grab is None:
            self._r_finish_draw()
            return
        if self.phase is not Phase.PLAY:
            return
        if t.latent and self.plays >= 1:
            self._r_discover_tribute()
            return
        self._r_settle()

    # -----------------------------------------------------------------------------------------
    # Table primitives (the referee's rulings call these)

    def referee_rng(self) -> Any:
        """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
        t = self.table
        if t.rng is None:
            t.rng = streams.generator(self.seed if self.seed is not None else 0, self.deal_number, streams.REFEREE)
        return t.rng

    def return_cards(self, seat: int, reason: str) -> tuple[Card, ...]:
        """The cards ``seat`` laid on the table go back to its hand (a card drawn out of
        turn: back on top of the stock)."""
        t = self.table
        if t.grab is not None and t.grab[0] == seat:
            grabber, card, inserted, _rightful = t.grab
            if inserted:
                self.hands[seat][card] -= 1
                self.sizes[seat] -= 1
                self._hand_tuples[seat] = None
            else:
                t.on_table[seat].remove(card)
                if not t.on_table[seat]:
                    del t.on_table[seat]
            self.stock.insert(0, card)
            t.taken -= 1
            t.grab = None
            self.stream.emit(ev.CardsReturned, seat=seat, cards=(str(card),), to="stock", reason=reason)
            return (card,)
        laid = t.on_table.pop(seat, [])
        for c in laid:
            self.hands[seat][c] += 1
        self.sizes[seat] += len(laid)
        self._hand_tuples[seat] = None
        if t.oot is not None and t.oot.seat == seat:
            t.oot = None
        if laid:
            self.stream.emit(ev.CardsReturned, seat=seat, cards=codes(sort_cards(laid)), to="hand", reason=reason)
        self._legal = None
        return tuple(laid)

    def expose(self, seat: int, cards: Iterable[Card], reason: str, *, lead_option: bool = True,
               reading: Reading | None = None) -> Exposure | None:
        """暴露张: ``cards`` (in ``seat``'s hand) lie face up, seen by all, still its own. With
        ``lead_option`` the GD-2.3.1 option is set for the partner's next lead; cards that
        form no combination become penalty cards at once (there is no type to choose about)."""
        t = self.table
        cards = sort_cards(cards)
        already = [c for e in t.exposures if e.seat == seat for c in e.cards]
        new = _minus(cards, already) if already else cards
        if len(new) != len(cards):  # some of them lay exposed already (and went out in the attempt)
            cards, reading = sort_cards(new), None
            if not cards:
                return None
        found = readings(cards, self.level, self.rules)
        if reading is None or reading not in found:
            reading = found[0] if found else None
        kind = None if reading is None else kind_key(reading)
        exposure = Exposure(t.next_uid, seat, list(cards), kind, reason)
        t.next_uid += 1
        t.exposures.append(exposure)
        self.stream.emit(ev.CardsExposed, seat=seat, cards=codes(cards), combination=kind, reason=reason)
        if lead_option and kind is not None and self.sizes[partner(seat)] and partner(seat) not in t.placed_last:
            opt = LeadOptionState(exposure.uid, prev_seat(seat), partner(seat), kind)
            t.lead_options.append(opt)
            self.stream.emit(ev.LeadOptionSet, seat=seat, chooser=opt.chooser, restricted=opt.restricted,
                             combination=kind, cards=codes(cards))
        else:  # no option can take them back (no type, or the partner is out): GD-6 at once
            self.make_penalty(seat, exposure, reason)
        self._legal = None
        return exposure

    def make_penalty(self, seat: int, exposure: Exposure | None = None, reason: str = "GD-6") -> None:
        """Exposed cards (one exposure, or all of the seat's) become penalty cards (GD-6)."""
        t = self.table
        for e in t.exposures:
            if e.seat == seat and (exposure is None or e is exposure) and not e.penalty:
                e.penalty = True
                self.stream.emit(ev.PenaltyCardsMarked, seat=seat, cards=codes(e.cards), reason=reason)
        self._legal = None

    def bar_next_play(self, seat: int, reason: str) -> None:
        """禁出一手: ``seat`` passes automatically when its turn next comes in this round."""
        self.table.bars.add(seat)
        self.stream.emit(ev.SeatBarred, seat=seat, reason=reason)
        self._legal = None

    def restrict_lead(self, seat: int, rule: str, kind: str, *, cards: Iterable[Card] = (), reason: str = "") -> None:
        """``seat``'s next lead must ('require'), must not ('forbid') be of ``kind``, or must
        be exactly ``cards`` ('cards'). Enforced in legal_actions(); it lapses when nothing
        (or, for 'require', only bombs) satisfies it."""
        t = self.table
        cards = tuple(sort_cards(cards))
        r = (seat, rule, kind, cards)
        lapsed = self._r_satisfying(r, legal_plays(self.hand(seat), None, self.level, rules=self.rules)) is None
        t.restriction = r
        self.stream.emit(ev.LeadRestricted, seat=seat, rule=rule, combination=kind, cards=codes(cards),
                         lapsed=lapsed)
        self._legal = None

    def offer_choice(self, seat: int, purpose: str, options: Sequence[str], about: Any = None) -> None:
        """``seat`` must choose one of ``options`` before the table goes on (Choose actions)."""
        t = self.table
        t.choice = ChoiceState(seat, purpose, tuple(options), about)
        self.stream.emit(ev.ChoiceOffered, seat=seat, purpose=purpose, options=tuple(options),
                         about=about if isinstance(about, int) else None)
        self._legal = None

    def random_draw(self, source: int, to: int, reason: str) -> Card:
        """``to`` (the rightful drawer) draws a card at random from ``source``'s hand; the
        draw goes on with ``to``'s 下家 (GD-1.1.3b). The REFEREE stream decides."""
        t = self.table
        hand = self.hand(source)
        card = hand[int(self.referee_rng().integers(len(hand)))]
        self._move(source, to, card)
        if t.grab is not None and t.grab[0] == source:
            t.grab = None
        self.turn = next_seat(to)
        self.stream.emit(ev.RandomlyDrawn, seat=to, source=source, card=str(card), reason=reason)
        self._legal = None
        return card

    def restore_turn(self, seat: int, reason: str) -> None:
        """Order restored: ``seat`` is to act (to draw next, in the draw)."""
        self.turn = seat
        self.stream.emit(ev.TurnRestored, seat=seat, reason=reason)
        self._legal = None

    def await_correction(self, seat: int, cards: Iterable[Card], reason: str) -> None:
        """``seat`` acts again (a legal play or a pass); the cards of its attempt not used in
        that correction are then exposed (GD-2.4)."""
        t = self.table
        cards = sort_cards(cards)
        t.correction = (seat, list(cards), reason)
        self.turn = seat
        self.stream.emit(ev.CorrectionDue, seat=seat, cards=codes(cards), reason=reason)
        self._legal = None

    def stand_play(self, seat: int, cards: Iterable[Card], reading: Reading, reason: str) -> None:
        """Cards ``seat`` laid on the table stand as its play (the rest of a play with extra
        cards, GD-2.4.3)."""
        t = self.table
        cards = tuple(sort_cards(cards))
        laid = t.on_table.get(seat, [])
        for c in cards:
            if c in laid:
                laid.remove(c)
                self.hands[seat][c] += 1
                self.sizes[seat] += 1
        if not laid:
            t.on_table.pop(seat, None)
        self._hand_tuples[seat] = None
        self.stream.emit(ev.PlayStands, seat=seat, cards=codes(cards), reading=reading.code, reason=reason)
        self._r_stand(seat, cards, reading, report_now=False)

    def start_pass_sequence(self, offender: int, then: str, reason: str) -> None:
        """GD-4.2.3 ('offender_leads') / GD-4.2.4 ('play_on'): the offender's 下家, partner
        and (for 4.2.3) 上家 in turn may pass even with the lead."""
        t = self.table
        order = [next_seat(offender), partner(offender), prev_seat(offender)]
        if then == "play_on":
            order = order[:2]
        seats = [s for s in order if s in self._r_active()]
        if not seats:
            return
        t.sequence = [offender, seats, 0, then]
        self.turn = seats[0]
        self.passed = [s for s in self.passed if s not in seats]
        self.stream.emit(ev.PassSequence, seat=offender, seats=tuple(seats), then=then)
        self._legal = None

    def place_last(self, seat: int, reason: str) -> None:
        """单下: ``seat`` is judged 下游 and plays no more; the deal ends when the others'
        places are settled."""
        t = self.table
        if seat in t.placed_last:
            return
        t.placed_last.append(seat)
        t.bars.discard(seat)
        o = t.oot
        if o is not None and o.responder == seat:
            o.responder = self._r_next_active(seat) if len(self._r_active()) > 1 else o.responder
        elif o is not None and o.seat == seat:  # its own out-of-turn play is moot now
            t.oot = None
            self.return_cards(seat, reason)
            self._r_found(o.seq, "play_out_of_turn", seat, moot="the offender was judged last",
                          cards=codes(o.cards))
        t.lead_options = [o for o in t.lead_options if o.restricted != seat]
        if t.restriction is not None and t.restriction[0] == seat:
            t.restriction = None
        self.stream.emit(ev.PlacedLast, seat=seat, reason=reason)
        if self.phase is Phase.SCORED:
            return
        if self._r_deal_over():
            t.end_pending = True
        elif self.turn == seat or (self.turn is not None and not self.sizes[self.turn]):
            self.turn = self._r_next_active(seat)
        self._legal = None

    def report_again(self, seat: int) -> None:
        """ReportAgain: ``seat`` announces its true count."""
        laid = len(self.table.on_table.get(seat, ()))
        self.announced[seat] = self.sizes[seat] + laid
        self.stream.emit(ev.CardsReported, seat=seat, count=self.sizes[seat] + laid)

    def offer_replay(self, chooser: int) -> None:
        """GD-4.2.2: the non-offending side (``chooser``) may take back the plays made since
        the unreported play; if it does not, the offender's partner may take back its own."""
        self.offer_choice(chooser, "replay", REPLAY_OPTIONS)

    def drop_latent_report(self) -> None:
        self.table.latent_report = None

    def mark_unauthorised(self, seats: Iterable[int], source: int, cards: Iterable[Card], what: str) -> None:
        """GD-7: ``seats`` may not use what ``cards`` of ``source`` show (an observation flag)."""
        t = self.table
        cards = tuple(sort_cards(cards))
        seats = tuple(sorted(set(seats)))
        for s in seats:
            t.unauthorised.append((s, UnauthorisedItem(what, source, cards)))
        self.stream.emit(ev.UnauthorisedInformation, seats=seats, source=source, cards=codes(cards), what=what)

    def redeal(self, fresh_deck: bool, reason: str) -> None:
        """Gather the cards and draw again (same shuffler, cutter, first drawer; the shuffle
        from the deal's SHUFFLE stream, attempt-numbered). ``fresh_deck``: a short deck is
        replaced (GD-1.2 PD)."""
        t = self.table
        if self.seed is None:
            raise ValueError("a deal from explicit hands cannot be redealt")
        t.redeals += 1
        k = t.redeals
        self.stream.emit(ev.Redealt, attempt=k, fresh_deck=fresh_deck, reason=reason)
        for s in range(NUM_SEATS):
            self.hands[s] = [0] * 54
            self.sizes[s] = 0
            self._hand_tuples[s] = None
        t.on_table.clear()
        t.lost.clear()
        t.grab = None
        t.taken = 0
        t.face_drawer = None
        s = t.setup
        self._r_shuffle_and_cut(s, attempt=k)
        self._legal = None

    def _r_shuffle_and_cut(self, s: dict, attempt: int = 0) -> None:
        """The shuffle, cut and (first deal) face-up card; the draw then waits for ``Draw``."""
        t = self.table
        path = () if attempt == 0 else (attempt,)
        order = streams.generator(self.seed, self.deal_number, streams.SHUFFLE, *path).permutation(108)
        deck = full_deck(2)
        deck = [deck[i] for i in order]
        self.stream.emit(ev.DeckShuffled, seat=s["shuffler"], deck=codes(deck))
        cut = int(streams.generator(self.seed, self.deal_number, streams.CUT, *path).integers(1, 108))
        deck = deck[cut:] + deck[:cut]
        self.stream.emit(ev.DeckCut, seat=s["cutter"], position=cut)
        t.face_position = None
        if s["face_up"]:
            position = int(streams.generator(self.seed, self.deal_number, streams.FACE_UP, *path).integers(108))
            face_leader = (s["first_drawer"] + position) % NUM_SEATS
            self.face_up = (face_leader, deck[position])
            s["face_leader"] = face_leader
            t.face_position = position
            self.stream.emit(ev.CardFacedUp, seat=face_leader, card=str(deck[position]), position=position)
        self.stock = deck
        self.phase = Phase.DRAW
        self.turn = s["first_drawer"]

    def schedule_next_deal(self, *, no_tribute_team: int | None = None, no_tribute: bool = False,
                           shuffler: int | None = None, cutter: int | None = None,
                           first_drawer: int | None = None, leader: int | None = None) -> list:
        """A lone deal's next-deal procedure (GD-5.1 / GD-5.2): recorded as an event and in
        ``table.next_deal`` (a Match applies its own ``schedule_next_deal``)."""
        t = self.table
        no_tribute = no_tribute or leader is not None
        t.next_deal = dict(no_tribute_team=no_tribute_team, no_tribute=no_tribute, shuffler=shuffler,
                           cutter=cutter, first_drawer=first_drawer, leader=leader)
        self.stream.emit(ev.NextDealScheduled, **t.next_deal)
        return []

    # -----------------------------------------------------------------------------------------
    # Snapshots (GD-4.2.2 take-back)

    # The play is restored; what rulings did meanwhile (exposures, bars, lead options and
    # restrictions, seats judged last, information flags) stands: it cannot be unseen.
    _SNAP_FIELDS = ("hands", "sizes", "played", "turn", "leader", "top", "passed", "announced",
                    "finish_order", "plays")
    _SNAP_TABLE = ("sequence", "correction", "lead_count", "turns", "last_play", "designation")

    def _r_snapshot(self) -> dict:
        t = self.table
        snap = {name: copy.deepcopy(getattr(self, name)) for name in self._SNAP_FIELDS}
        snap["table"] = {name: copy.deepcopy(getattr(t, name)) for name in self._SNAP_TABLE}
        return snap

    def _r_restore(self, snap: dict) -> None:
        t = self.table
        snap = copy.deepcopy(snap)
        for name in self._SNAP_FIELDS:
            setattr(self, name, snap[name])
        for name, value in snap["table"].items():
            setattr(t, name, value)
        self._hand_tuples = [None] * NUM_SEATS
        self._legal = None

    # -----------------------------------------------------------------------------------------
    # Observation extras

    def _r_observe_extras(self, seat: int) -> dict[str, Any]:
        t = self.table
        phase = self.phase
        if phase is Phase.PLAY and not (
                t.exposures or t.bars or t.placed_last or t.on_table or t.restriction or t.unauthorised
                or t.choice or t.oot or t.correction or t.sequence):
            # ordinary play: the strict observation says it all (and whether a 报牌 is due)
            return {} if t.report_due is None else _REPORT_DUE
        extras: dict[str, Any] = {}
        if t.exposures:
            exposed: list[list[Card]] = [[], [], [], []]
            penalty: list[list[Card]] = [[], [], [], []]
            for e in t.exposures:
                exposed[e.seat].extend(e.cards)
                if e.penalty:
                    penalty[e.seat].extend(e.cards)
            extras["exposed"] = tuple(tuple(sort_cards(x)) for x in exposed)
            extras["penalty"] = tuple(tuple(sort_cards(x)) for x in penalty)
        if t.bars:
            extras["barred"] = tuple(sorted(t.bars))
        if t.placed_last:
            extras["placed_last"] = tuple(t.placed_last)
        if t.on_table:
            grabbed = t.grab[0] if t.grab is not None and not t.grab[2] else None
            extras["on_table"] = tuple((s, tuple(sort_cards(c))) for s, c in sorted(t.on_table.items())
                                       if s != grabbed)
        situation = None
        if phase is Phase.AWAITING_RULING:
            situation = "awaiting_ruling"
        elif phase is Phase.DRAW:
            situation = "draw"
            extras["stock_left"] = len(self.stock)
        elif t.choice is not None:
            situation = "choice"
            if t.choice.seat == seat:
                extras["choice"] = (t.choice.purpose, t.choice.options)
        elif t.report_due is not None:
            situation = "report"
        elif t.oot is not None:
            situation = "out_of_turn"
            extras["top"] = TopPlay(t.oot.seat, t.oot.cards, t.oot.reading)
        elif t.correction is not None:
            situation = "correction"
        elif t.sequence is not None:
            situation = "pass_sequence"
        extras["situation"] = situation
        r = t.restriction
        if r is not None and r[0] == seat:
            extras["restriction"] = (r[1], r[2])
        items = [item for s, item in t.unauthorised if s == seat]
        for e in t.exposures:
            if e.seat % 2 == seat % 2:
                items.append(UnauthorisedItem("exposed cards (GD-7)", e.seat, tuple(sort_cards(e.cards))))
        if items:
            extras["unauthorised"] = tuple(items)
        return extras


_REPORT_DUE = {"situation": "report"}

_HANDLERS = {
    Draw: RefereedTable._r_draw,
    DrawOutOfTurn: RefereedTable._r_draw_out_of_turn,
    GiveTribute: RefereedTable._r_give_tribute,
    ReturnCard: RefereedTable._r_return_card,
    Play: RefereedTable._r_play,
    PlayWithExtra: RefereedTable._r_play_extra,
    Pass: RefereedTable._r_pass,
    Report: RefereedTable._r_report,
    Choose: RefereedTable._r_choose,
    CallReferee: RefereedTable._r_call_referee,
    Announce: RefereedTable._r_announce,
    Retract: RefereedTable._r_retract,
    AskCount: RefereedTable._r_ask,
    DropCard: RefereedTable._r_drop,
    Incident: RefereedTable._r_incident,
}
