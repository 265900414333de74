"""Refereed mode of a 双升 deal: irregular attempts recorded instead of refused, and how the
table carries a ruling out (the engine knows HOW, the referee knows WHEN).

``Deal`` inherits this mixin; its state lives in ``deal.table`` (a ``TableState``), which
is None in strict mode, so strict play never enters this module.

How the table works in refereed mode:

- The draw has decisions of its own: ``Draw(seat)`` by the rightful next drawer runs the
  draw on to the next declaration chance or its end (at the start, and after every
  declaration decision during the draw). Before each decision every other seat may
  interject: ``DrawOutOfTurn`` (it takes a card due to another seat, ``after`` cards from
  now), ``DrawKitty`` (the banker draws on into the kitty), ``DeclareAtOnce`` (with its
  partner, at the partner's declaration chance), ``DropCard``, ``Incident``. A ``Draw``
  may carry a miscount slip that nobody notices until the hands are counted at the end of
  the draw.
- An action that breaks a rule becomes ONE ``IrregularAttempt`` event (an action event:
  a replay re-applies it). Its cards lie on the table in front of the offender (still its
  own), and the deal waits (``phase`` AWAITING_RULING, ``to_act`` None) until a ruling
  is carried out (``carry_out(effects, sanctions, reason=, answers=)``: each listed table
  effect through its handler in ``EFFECT_HANDLERS``, the imposed sanctions through
  ``SANCTION_HANDLERS``, then ``resolve``). A ruling is data: a handler does exactly what
  its effect says, through the primitives below, or raises ``RulingRefused``. A latent
  attempt (a draw slip, a wrong follow nobody noticed) is followed by an
  ``IrregularityFound`` event when the table reaches the stage where it comes to light,
  and the deal waits then.
- Exposed cards (暴露张) stay in the owner's hand, face up and visible to all, until played.
  Taken-back cards of an out-of-turn or wrong play are exposed (enforcement.md: they count
  as exposed). 双升 has no lead option or penalty-card obligation (enforcement PD).
- A choice the table offers (``offer_choice``) makes the chooser ``to_act`` with
  ``Choose`` actions only; the engine carries the chosen remedy out (the chosen option's
  effect through the same handlers: random draw with the REFEREE stream, redeal; or a card
  handed over).
- Point penalties before the banker is known (first deal, during the draw) wait until the
  banker is known, then move points as ``adjust_points`` says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from shengji.actions import (
    Bury, Choices, Choose, Declare, DeclareAtOnce, Draw, DrawKitty, DrawOutOfTurn, DropCard, Incident,
    NoDeclare, Play, PlayWithExtra, Revoke, action_to_data,
)
from shengji.declare import Declaration, can_declare, declaration_options, why_not_overcall
from shengji.events import (
    BurialUndone, CardDrawn, CardHandedOver, CardsExposed, CardsReturned, CardTaken, ChoiceMade, ChoiceOffered,
    DeclarationBarred, DeclarationDeclined, DeclarationStands, DrawRan, IrregularAttempt, IrregularityFound,
    PlaysTakenBack, PointsAdjusted, RandomlyDrawn, Redealt, TurnRestored,
)
from shengji.follow import lead_info
from shengji.phase import Phase
from tabletop import rng as streams
from tabletop.cards import Card, codes, count_list, holds, sort_cards, without
from tabletop.errors import IllegalAction, RulingRefused
from tabletop.rulings import RulingPlan, refuse, refuse_what_cannot_be_carried_out
from tabletop.irregular import facts as make_facts
from tabletop.seats import next_seat, partner, prev_seat, seats_from, team

KITTY_SIZE = 8
MISCOUNT_DRAW = "miscount_draw"
"""SJ-1.10: the non-offending side decides whether a card is drawn at random."""
MISCOUNT_REMEDY = "miscount_remedy"
"""SJ-3.1.7: the non-offending side chooses a random draw or a redeal."""
HAND_OVER = "hand_over"
"""SJ-1.10 declined: the seat with the card too many hands one of its choice over (PD)."""
RANDOM_DRAW, DECLINE, REDEAL = "random_draw", "decline", "redeal"
IRREGULARITIES = (
    "draw_other_seat_card", "banker_drew_kitty", "miscount_after_draw", "simultaneous_declaration",
    "exposed_card", "extra_card", "lead_before_burial", "lead_wrong_bury_count", "lead_out_of_turn",
    "lead_before_trick_complete", "play_before_turn", "show_before_upper", "wrong_follow", "incident",
    "wrong_card_count", "invalid_lead",
)
"""Every irregularity id refereed 双升 records (``sj.irregular`` / ``sj.found``): the
vocabulary of the rulebook's triggers (enforcement.rulebook) and of the rulings' dispatch."""




class ChoiceState:
    __slots__ = ("seat", "purpose", "options", "about", "data")

    def __init__(self, seat: int, purpose: str, options: tuple[str, ...], about: int | None,
                 data: dict[str, Any]) -> None:
        self.seat, self.purpose, self.options, self.about, self.data = seat, purpose, options, about, data


class Redirect:
    """A miscount slip in progress: ``taker`` takes the next ``remaining`` cards due to ``of``
    from draw position ``start`` on."""

    __slots__ = ("seq", "by", "taker", "of", "count", "remaining", "start", "fault")

    def __init__(self, seq: int, by: int, taker: int, of: int, count: int, start: int, fault: str) -> None:
        self.seq, self.by, self.taker, self.of, self.count = seq, by, taker, of, count
        self.start, self.fault = start, fault
        self.remaining = count


class LatentRevoke:
    """A wrong follow nobody noticed yet: made by ``seat`` at ``position`` of trick ``trick``."""

    __slots__ = ("seq", "seat", "trick", "position", "found", "facts")

    def __init__(self, seq: int, seat: int, trick: int, position: int, found: str, facts: dict) -> None:
        self.seq, self.seat, self.trick, self.position = seq, seat, trick, position
        self.found, self.facts = found, facts


class TableState:
    """Everything refereed mode adds to a deal (strict deals have none)."""

    def __init__(self) -> None:
        self.awaiting: list[tuple[int, str, int | None]] = []
        """(sequence number, irregularity, seat) of attempts waiting for a ruling."""
        self.resume_phase: Any = None
        self.resume_to_act: int | None = None
        self.then: str | None = None
        """What the table does once the wait (and any choice) is over: 'draw', 'end_of_draw',
        'declare', 'trick_closed', or None (the seat to act acts)."""
        self.on_table: dict[int, list[Card]] = {}
        """Cards laid on the table, still their owner's (an attempt, a card drawn out of turn)."""
        self.attempts: dict[int, tuple[int, str, tuple[Card, ...], tuple[Card, ...]]] = {}
        """seq → (seat, irregularity, cards of the play, extra cards) of a play attempt on the table."""
        self.exposed: list[list[Card]] = [[], [], [], []]
        self.draw_step = False
        self.slips: list[tuple[int, int, int, bool, bool]] = []
        """Out-of-turn draws to come: (draw position, seq, seat, face seen, in hand)."""
        self.redirect: Redirect | None = None
        self.kitty_draw: tuple[int, int] | None = None
        """(banker, seq): the banker will draw on into the kitty at the end of the draw."""
        self.kitty_drawn: int | None = None
        self.grab: tuple[int, Card, bool, int] | None = None
        """A card drawn out of turn: (seat, card, in hand, rightful drawer)."""
        self.choice: ChoiceState | None = None
        self.revoke: LatentRevoke | None = None
        self.bad_burial: int | None = None
        """Cards buried when the banker buried a wrong number (found at its first lead)."""
        self.shown: dict[int, dict[int, tuple[str, ...]]] = {}
        """seq → {seat: declaration cards} of simultaneous declarations awaiting a ruling."""
        self.deferred: list[tuple[int, int, str]] = []
        """Point penalties (offender, points, reason) waiting for the banker to be known."""
        self.rng: Any = None


class RefereedTable:
    """The refereed-mode half of ``shengji.deal.Deal`` (a mixin: it uses the deal's state)."""

    table: TableState | None

    # -----------------------------------------------------------------------------------------
    # Engine protocol, refereed

    @property
    def awaiting_ruling(self) -> tuple[tuple[int, str, int | None], ...]:
        return tuple(self.table.awaiting) if self.table is not None else ()

    @property
    def game_phase(self) -> Any:
        """The phase of play, also while a ruling is awaited."""
        if self.phase is Phase.AWAITING_RULING:
            return self.table.resume_phase
        return self.phase

    def _r_legal(self) -> Choices:
        """The legal actions of a choice or a draw step (the deal lists the others)."""
        seat = self.to_act
        if seat is None:
            return Choices(())
        t = self.table
        if t.choice is not None:
            return Choices([Choose(seat, o) for o in t.choice.options])
        return Choices([Draw(seat)])

    def _r_apply(self, action: Any) -> list:
        if type(action) is Play and action.seat == self.to_act and self.phase is Phase.PLAY:
            t = self.table
            if t.choice is None and t.bad_burial is None and self.illegality(action) is None:
                self._r_play_now(action.seat, action.cards, action=action)  # the common case
                return self.stream.take()
        if self.phase is Phase.AWAITING_RULING:
            raise IllegalAction("the table waits for the referee's ruling")
        if self.phase is Phase.SCORED:
            raise IllegalAction("the deal is over")
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"not a 双升 action: {action!r}")
        handler(self, action)
        return self.stream.take()

    def _r_observe_extras(self, seat: int) -> dict[str, Any] | None:
        """The RefereedObservation fields, or None when all are at their defaults."""
        t = self.table
        if not (t.draw_step or t.choice is not None or t.on_table or t.slips or self.declare_barred
                or t.exposed[0] or t.exposed[1] or t.exposed[2] or t.exposed[3] or t.revoke is not None
                or t.kitty_draw is not None or t.redirect is not None or self.phase is Phase.AWAITING_RULING):
            return None
        if self.phase is Phase.AWAITING_RULING:
            situation = "awaiting_ruling"
        elif t.choice is not None:
            situation = "choice"
        elif t.draw_step:
            situation = "draw"
        else:
            situation = None
        out: dict[str, Any] = {"situation": situation}
        if t.exposed[0] or t.exposed[1] or t.exposed[2] or t.exposed[3]:
            out["exposed"] = tuple(tuple(sort_cards(cards)) for cards in t.exposed)
        if t.on_table:
            out["on_table"] = tuple((s, tuple(c)) for s, c in sorted(t.on_table.items()))
        choice = t.choice
        if choice is not None and choice.seat == seat:
            out["choice"] = (choice.purpose, choice.options)
        if self.declare_barred:
            out["declare_barred"] = tuple(sorted(self.declare_barred))
        if t.slips or t.kitty_draw is not None or t.redirect is not None or t.revoke is not None:
            own = ["draw_other_seat_card" for slip in t.slips if slip[2] == seat]
            if t.kitty_draw is not None and t.kitty_draw[0] == seat:
                own.append("banker_drew_kitty")
            if t.redirect is not None and t.redirect.by == seat:
                own.append("miscount_after_draw")
            if t.revoke is not None and t.revoke.seat == seat:
                own.append("wrong_follow")
            out["own_latent"] = tuple(own)
        return out

    # -----------------------------------------------------------------------------------------
    # Handlers: the draw

    def _r_begin_draw(self) -> None:
        """Refereed: the draw waits for the rightful next drawer's ``Draw``."""
        t = self.table
        t.draw_step = True
        self.to_act = self.draw_seat

    def _r_draw(self, a: Draw) -> None:
        t = self.table
        if self.phase is not Phase.DRAW or not t.draw_step or t.choice is not None:
            raise IllegalAction("no draw step now")
        if a.seat != self.to_act:
            raise IllegalAction(f"seat {self.to_act} draws next, not seat {a.seat}")
        t.draw_step = False
        if not a.flawed:
            self.stream.emit(DrawRan, seat=a.seat)
            self._r_continue_draw()
            return
        taker, of, count = a.extra_by, a.of, a.count
        if of is None or taker not in range(4) or of not in range(4) or taker == of:
            t.draw_step = True
            raise IllegalAction("a miscount slip names two different seats: extra_by takes cards due to of")
        start = self.drawn + a.at
        last = len(self.stock) - KITTY_SIZE
        turns = sum(1 for i in range(max(start, self.drawn), last) if (self.first_drawer + i) % 4 == of)
        if count < 1 or a.at < 0 or t.redirect is not None or turns < count:
            t.draw_step = True
            raise IllegalAction(f"seat {of} has only {turns} draws left from there (slip of {count})")
        e = self.stream.emit(IrregularAttempt, seat=a.seat, irregularity="miscount_after_draw",
                             action=action_to_data(a), latent=True,
                             facts=make_facts(taker=taker, short=of, size=count, fault=a.fault))
        t.redirect = Redirect(e.seq, a.seat, taker, of, count, start, a.fault)
        self._r_continue_draw()

    def _r_continue_draw(self) -> None:
        """The draw in refereed mode: as in strict mode, plus the slips that were set up."""
        t = self.table
        stock, hands, level = self.stock, self.hands, self.level
        last = len(stock) - KITTY_SIZE
        emit = self.stream.emit
        while self.drawn < last:
            index = self.drawn
            seat = self.draw_seat
            if t.slips and t.slips[0][0] == index:
                self._r_grab(t.slips.pop(0))
                return
            receiver = seat
            r = t.redirect
            if r is not None and r.remaining and seat == r.of and index >= r.start:
                receiver = r.taker
                r.remaining -= 1
            card = stock[index]
            hands[receiver][card] += 1
            self.hand_size[receiver] += 1
            self._sorted[receiver] = None
            emit(CardDrawn, seat=receiver, card=str(card), index=index)
            self.drawn += 1
            self.draw_seat = (seat + 1) % 4
            if receiver not in self.declare_barred and can_declare(
                    hands[receiver], level, receiver, self.declaration, self.rules.pair_vs_pair):
                self.to_act = receiver
                return
        self._r_end_of_draw()

    def _r_grab(self, slip: tuple[int, int, int, bool, bool]) -> None:
        index, seq, seat, face_seen, in_hand = slip
        t = self.table
        card = self.stock[index]
        rightful = self.draw_seat
        self.drawn += 1
        if in_hand:
            self._r_add(seat, [card])
        else:
            t.on_table.setdefault(seat, []).append(card)
        t.grab = (seat, card, in_hand, rightful)
        self.stream.emit(CardTaken, seat=seat, card=str(card), index=index, due=rightful, in_hand=in_hand)
        self._r_found(seq, "draw_other_seat_card", seat, then="draw",
                      card=str(card), face_seen=face_seen or in_hand, in_hand=in_hand, rightful=rightful,
                      index=index, level=self.level_text, trump=self._r_trump_now())

    def _r_end_of_draw(self) -> None:
        """After the last card: the banker's draw into the kitty, then the count of the
        hands (a miscount comes to light), then the last-chance round."""
        t = self.table
        if t.kitty_draw is not None:
            seat, seq = t.kitty_draw
            t.kitty_draw = None
            index = self.drawn
            card = self.stock[index]
            self.drawn += 1
            self._r_add(seat, [card])
            t.kitty_drawn = seat
            self.stream.emit(CardTaken, seat=seat, card=str(card), index=index, due=None, in_hand=True)
            self._r_found(seq, "banker_drew_kitty", seat, then="end_of_draw",
                          card=str(card), kitty_left=len(self.stock) - self.drawn, banker=seat)
            return
        r = t.redirect
        if r is not None:
            t.redirect = None
            counts = tuple(self.hand_size)
            sides = (counts[0] + counts[2], counts[1] + counts[3])
            offender = r.taker if r.fault == "taker" else r.of
            self._r_found(r.seq, "miscount_after_draw", offender, then="end_of_draw",
                          counts=counts, per_side=sides, size=r.count - r.remaining, taker=r.taker, short=r.of,
                          fault=r.fault, offender=offender, before_first_play=True)
            return
        self.phase = Phase.DECLARE
        self.last_chance = list(seats_from(self.first_drawer))
        self._continue_last_chance()

    def _r_draw_out_of_turn(self, a: DrawOutOfTurn) -> None:
        t = self.table
        if self.phase is not Phase.DRAW or self.to_act is None:
            raise IllegalAction("no draw out of turn now: the draw is over")
        last = len(self.stock) - KITTY_SIZE
        taken = {s[0] for s in t.slips}
        index = self.drawn + max(0, a.after)
        free = [i for i in range(self.drawn, last) if i not in taken and (self.first_drawer + i) % 4 != a.seat]
        if not free:
            raise IllegalAction("no card due to another seat is left to take")
        index = next((i for i in free if i >= index), free[-1])
        in_hand = a.in_hand
        e = self.stream.emit(IrregularAttempt, seat=a.seat, irregularity="draw_other_seat_card",
                             action=action_to_data(a), latent=True,
                             facts=make_facts(index=index, rightful=(self.first_drawer + index) % 4,
                                              face_seen=a.face_seen or in_hand, in_hand=in_hand))
        t.slips.append((index, e.seq, a.seat, a.face_seen or in_hand, in_hand))
        t.slips.sort()

    def _r_draw_kitty(self, a: DrawKitty) -> None:
        t = self.table
        if self.phase is not Phase.DRAW or self.to_act is None or self.drawn >= len(self.stock) - KITTY_SIZE:
            raise IllegalAction("no draw into the kitty now: the draw is over")
        if self.banker is None or a.seat != self.banker:
            raise IllegalAction("only a known banker draws on into the kitty (SJ-1.5)")
        if t.kitty_draw is not None or t.kitty_drawn is not None:
            raise IllegalAction("the banker already draws into the kitty")
        e = self.stream.emit(IrregularAttempt, seat=a.seat, irregularity="banker_drew_kitty",
                             action=action_to_data(a), latent=True, facts=make_facts(banker=a.seat))
        t.kitty_draw = (a.seat, e.seq)

    def _r_declare_at_once(self, a: DeclareAtOnce) -> None:
        t = self.table
        other = partner(a.seat)
        if (self.phase not in (Phase.DRAW, Phase.DECLARE) or self.to_act != other or t.draw_step
                or t.choice is not None):
            raise IllegalAction("declaring at once needs the partner to be at a declaration chance")
        if a.seat in self.declare_barred:
            raise IllegalAction(f"seat {a.seat} has lost the right to declare in this deal")
        if not holds(self.hands[a.seat], a.cards):
            raise IllegalAction("cards not in hand")
        message = why_not_overcall(a.seat, a.cards, self.level, self.declaration, self.rules.pair_vs_pair)
        if message is not None:
            raise IllegalAction(message)
        options = declaration_options(self.hands[other], self.level, other, self.declaration,
                                      self.rules.pair_vs_pair)
        if not options:
            raise IllegalAction(f"seat {other} has nothing to declare")
        mine = options[0]
        shown = {a.seat: codes(a.cards), other: codes(mine)}
        e = self.stream.emit(
            IrregularAttempt, seat=a.seat, irregularity="simultaneous_declaration", action=action_to_data(a),
            facts=make_facts(seats=tuple(sorted((a.seat, other))), chose_instead_of_lots=a.chose,
                             declarations=((a.seat, codes(a.cards)), (other, codes(mine))),
                             chosen=a.seat if a.chose else None))
        t.shown[e.seq] = shown
        self._r_await(e.seq, "simultaneous_declaration", a.seat, then="declare")

    # -----------------------------------------------------------------------------------------
    # Handlers: declarations, burial, play

    def _r_declare(self, a: Any) -> None:
        if self.table.draw_step or self.table.choice is not None:
            raise IllegalAction(f"a {type(a).__name__} is not possible now")
        found = self.illegality(a)
        if found is not None:
            raise IllegalAction(found[1])
        if type(a) is Declare:
            self._declare(a)
        else:
            self.stream.emit(DeclarationDeclined, seat=a.seat)
            self._resume_declaring()

    def _r_bury(self, a: Bury) -> None:
        t = self.table
        if t.choice is not None:
            raise IllegalAction("a choice must be answered first")
        found = self.illegality(a)
        if found is not None and found[0] != "wrong_bury_count":
            raise IllegalAction(found[1])
        if found is not None:
            if not a.cards or not holds(self.hands[a.seat], a.cards):
                raise IllegalAction("cards not in hand")
            t.bad_burial = len(a.cards)       # nobody notices until the banker leads
        self._r_unexpose(a.seat, a.cards)
        self._bury(a)

    def _r_play(self, a: Play) -> None:
        t = self.table
        seat, cards = a.seat, a.cards
        if t.choice is not None or t.draw_step or self.phase not in (Phase.PLAY, Phase.KITTY):
            raise IllegalAction("no play now")
        if not cards:
            raise IllegalAction("a play needs at least one card")
        if not holds(self.hands[seat], cards):
            raise IllegalAction("cards not in hand")
        if self.phase is Phase.KITTY:
            if seat == self.banker:
                self._r_attempt(a, "lead_before_burial", rightful=seat, buried=0)
            else:
                self._r_attempt(a, "lead_out_of_turn", rightful=self.banker, leader=None, kitty_buried=False)
            return
        if seat != self.to_act:
            self._r_out_of_turn(a)
            return
        if t.bad_burial is not None and not self.trick and not self.tricks:
            self._r_attempt(a, "lead_wrong_bury_count", rightful=seat, buried=t.bad_burial)
            return
        found = self.illegality(a)
        if found is None:
            self._r_play_now(seat, cards)
            return
        code = found[0]
        if code == "wrong_follow":
            self._r_attempt(a, "wrong_follow", found="at_once", **self._r_follow_facts(seat, cards))
        elif code in ("extra_card", "missing_card"):
            self._r_attempt(a, "wrong_card_count", led=len(self.lead), played=len(cards))
        elif code == "lead_mixed_suits":
            self._r_attempt(a, "invalid_lead", message=found[1])
        else:
            raise IllegalAction(found[1])

    def _r_out_of_turn(self, a: Play) -> None:
        """抢出 / 抢跟: which one it is follows from the trick on the table."""
        seat = a.seat
        rightful = self.to_act
        if not self.trick:
            self._r_attempt(a, "lead_out_of_turn", rightful=rightful, leader=None, kitty_buried=True)
            return
        leader = self.trick[0][0]
        played = [s for s, _ in self.trick]
        if seat in played:
            winner = self._r_current_winner()
            self._r_attempt(a, "lead_before_trick_complete", rightful=rightful, leader=leader,
                            winning=winner, played=len(played))
        elif prev_seat(seat) == rightful:
            self._r_attempt(a, "show_before_upper", rightful=rightful, leader=leader)
        else:
            self._r_attempt(a, "play_before_turn", rightful=rightful, leader=leader)

    def _r_play_extra(self, a: PlayWithExtra) -> None:
        t = self.table
        seat = a.seat
        if t.choice is not None or t.draw_step or self.phase is not Phase.PLAY or seat != self.to_act:
            raise IllegalAction("a play with an extra card needs the seat's turn to play")
        if len(a.extra) != 1 or not a.cards:
            raise IllegalAction("one extra card carried along with a play of at least one card")
        if not holds(self.hands[seat], a.cards + a.extra):
            raise IllegalAction("cards not in hand")
        if t.bad_burial is not None and not self.trick and not self.tricks:
            self._r_attempt(a, "lead_wrong_bury_count", cards=a.cards + a.extra, rightful=seat, buried=t.bad_burial)
            return
        rest_legal = self.illegality(Play(seat, a.cards)) is None
        if self.trick:
            kind = "follow"
        else:
            kind = "throw" if rest_legal and lead_info(list(a.cards), self.ctx).is_throw else "lead"
        self._r_attempt(a, "extra_card", cards=a.cards + a.extra, extra=a.extra, kind=kind,
                        rest_legal=rest_legal, rest=codes(a.cards))

    def _r_revoke(self, a: Revoke) -> None:
        t = self.table
        seat = a.seat
        if t.choice is not None or self.phase is not Phase.PLAY or seat != self.to_act or not self.trick:
            raise IllegalAction("an unnoticed wrong follow needs the seat's turn to follow")
        if t.revoke is not None:           # one unnoticed wrong follow at a time: this one is seen at once
            self._r_play(Play(seat, a.cards))
            return
        if len(a.cards) != len(self.lead) or not holds(self.hands[seat], a.cards):
            raise IllegalAction(f"a follow of {len(self.lead)} card(s) from the hand")
        found = self.illegality(Play(seat, a.cards))
        if found is None:
            self._r_play_now(seat, a.cards)     # a legal follow after all: an ordinary play
            return
        info = self._r_follow_facts(seat, a.cards)
        e = self.stream.emit(IrregularAttempt, seat=seat, irregularity="wrong_follow",
                             action=action_to_data(a), latent=True,
                             facts=make_facts(requested=a.found, cards=codes(a.cards), **info))
        t.revoke = LatentRevoke(e.seq, seat, self.trick_number, len(self.trick), a.found,
                                dict(info, cards=codes(a.cards)))
        self._r_play_now(seat, a.cards, stand="not noticed")

    def _r_drop(self, a: DropCard) -> None:
        t = self.table
        if not a.cards:
            raise IllegalAction("drop at least one card")
        shown = t.exposed[a.seat] + list(a.cards)
        if not holds(self.hands[a.seat], shown):
            raise IllegalAction("cards not in hand (or already exposed)")
        during = "sorting" if a.sorting else {
            Phase.DRAW: "draw", Phase.DECLARE: "draw", Phase.KITTY: "burial", Phase.PLAY: "play"}[self.phase]
        e = self.stream.emit(IrregularAttempt, seat=a.seat, irregularity="exposed_card", action=action_to_data(a),
                             facts=make_facts(cards=codes(a.cards), during=during, level=self.level_text,
                                              trump=self._r_trump_now()))
        self._r_await(e.seq, "exposed_card", a.seat)

    def _r_incident(self, a: Incident) -> None:
        e = self.stream.emit(IrregularAttempt, seat=a.seat, irregularity="incident", action=action_to_data(a),
                             facts=make_facts(incident=a.incident, severity=a.severity, minutes=a.minutes,
                                              damaged=a.damaged, note=a.note, side=team(a.seat)))
        self._r_await(e.seq, "incident", a.seat)

    def _r_choose(self, a: Choose) -> None:
        t = self.table
        c = t.choice
        if c is None or a.seat != c.seat or a.seat != self.to_act:
            raise IllegalAction(f"seat {a.seat} has no choice to make now")
        if a.option not in c.options:
            raise IllegalAction(f"not one of the options {c.options}: {a.option!r}")
        t.choice = None
        self.stream.emit(ChoiceMade, seat=a.seat, purpose=c.purpose, option=a.option)
        data = c.data
        if c.purpose in (MISCOUNT_DRAW, MISCOUNT_REMEDY):
            chosen = next((o for o in data["remedies"] if _OPTION_NAMES.get(o.KIND) == a.option), None)
            if chosen is not None:              # the option's own table effect, through the table
                EFFECT_HANDLERS[chosen.KIND](self, chosen, RulingPlan(data["reason"], (chosen,)))
                if chosen.KIND == "Redeal":
                    return
            else:               # decline: the seat with the card too many hands one over
                source = data["source"]
                options = tuple(dict.fromkeys(str(c_) for c_ in self.hand(source)))
                self.offer_choice(source, HAND_OVER, options, about=c.about, **data)
                return
        elif c.purpose == HAND_OVER:
            self.hand_over(data["source"], data["to"], Card(a.option), data["reason"])
        self._r_carry_on()

    # -----------------------------------------------------------------------------------------
    # Plays, and what refereed mode checks after each

    def _r_play_now(self, seat: int, cards: tuple[Card, ...], stand: str | None = None, *,
                    action: Play | None = None) -> None:
        played = self._play(Play(seat, cards) if action is None else action, stand=stand)
        if self.table.exposed[seat]:
            self._r_unexpose(seat, played)
        if self.table.revoke is not None:
            self._r_after_play()

    def _r_after_play(self) -> None:
        """A latent wrong follow comes to light once the next seat has played (trick open)."""
        t = self.table
        r = t.revoke
        if r is None or r.found != "affecting_play" or r.trick != self.trick_number:
            return
        if len(self.trick) > r.position + 1:
            t.revoke = None
            self._r_found(r.seq, "wrong_follow", r.seat, found="affecting_play", **r.facts)

    def _r_trick_closed(self) -> bool:
        """Called by the deal when a trick closes; True if the table now waits."""
        t = self.table
        r = t.revoke
        if r is not None and r.trick == self.trick_number - 1:
            t.revoke = None
            self._r_found(r.seq, "wrong_follow", r.seat, then="trick_closed", found="after_trick",
                          winner=self.tricks[-1].winner, **r.facts)
            return True
        return False

    def _r_follow_facts(self, seat: int, cards: tuple[Card, ...]) -> dict[str, Any]:
        """What kind of wrong follow: 'suit' (not followed as far as the hand could),
        'pair' or 'tractor' (the shape rule on a pair / tractor lead)."""
        ctx = self.ctx
        lead = self.lead
        info = self._lead_info
        suit = ctx.suit_of[lead[0]]
        held = sum(1 for c in self.hand(seat) if ctx.suit_of[c] == suit)
        in_suit = sum(1 for c in cards if ctx.suit_of[c] == suit)
        if in_suit != min(held, len(lead)):
            what = "suit"
        else:
            what = "tractor" if info.tractors else "pair"
        return dict(what=what, leader=self.trick[0][0], lead=codes(lead), position=len(self.trick),
                    level=self.level_text, trump=self.trump)

    def _r_current_winner(self) -> int:
        from shengji.tricks import trick_winner
        plays = self.trick
        return plays[trick_winner([list(c) for _, c in plays], self.ctx, self.rules)][0]

    def _r_attempt(self, a: Any, irregularity: str, *, cards: tuple[Card, ...] | None = None,
                   extra: tuple[Card, ...] = (), **info: Any) -> None:
        """Lay the attempt's cards on the table and wait for the ruling."""
        laid = a.cards if cards is None else cards
        info = dict(info, cards=codes(laid))
        if extra:
            info["extra"] = codes(extra)
        info.setdefault("level", self.level_text)
        info.setdefault("trump", self.trump)
        info.setdefault("trick", self.trick_number)
        e = self.stream.emit(IrregularAttempt, seat=a.seat, irregularity=irregularity,
                             action=action_to_data(a), facts=make_facts(**info))
        self._r_lay(a.seat, laid)
        self.table.attempts[e.seq] = (a.seat, irregularity, tuple(without(laid, extra)), tuple(extra))
        self._r_await(e.seq, irregularity, a.seat)

    # -----------------------------------------------------------------------------------------
    # Waiting for the referee

    def _r_await(self, seq: int, irregularity: str, seat: int | None, *, then: str | None = None) -> None:
        assert irregularity in IRREGULARITIES, f"undeclared irregularity id {irregularity!r}"
        t = self.table
        t.awaiting.append((seq, irregularity, seat))
        if self.phase is not Phase.AWAITING_RULING:
            t.resume_phase = self.phase
            t.resume_to_act = self.to_act
            self.phase = Phase.AWAITING_RULING
        if then is not None:
            t.then = then
        self.to_act = None

    def _r_found(self, answers: int, irregularity: str, seat: int | None, *, then: str | None = None,
                 **info: Any) -> None:
        self.stream.emit(IrregularityFound, seat=seat, irregularity=irregularity, answers=answers,
                         facts=make_facts(**info))
        self._r_await(answers, irregularity, seat, then=then)

    def resolve(self, seq: int | None = None) -> list:
        """End the wait for the ruling on attempt ``seq`` (the first one when None); play goes
        on once no ruling is awaited and no choice is open. Returns nothing: the events wait
        in the stream (``take_events``)."""
        t = self.table
        if t is None:
            raise ValueError("resolve: the deal is not refereed")
        if t.awaiting:
            index = 0 if seq is None else next((i for i, w in enumerate(t.awaiting) if w[0] == seq), None)
            if index is not None:
                t.awaiting.pop(index)
        if t.awaiting or self.phase is not Phase.AWAITING_RULING:
            return []
        self.phase = t.resume_phase
        self.to_act = t.resume_to_act
        if t.choice is not None:
            self.to_act = t.choice.seat
            return []
        self._r_carry_on()
        return []

    def _r_carry_on(self) -> None:
        """The wait and any choice are over: the table goes on."""
        t = self.table
        then, t.then = t.then, None
        if then == "draw":
            self._r_continue_draw()
        elif then == "end_of_draw":
            self._r_end_of_draw()
        elif then == "declare":
            self._resume_declaring()
        elif then == "trick_closed":
            if self.phase is Phase.PLAY and self.hand_size[self.leader] == 0:
                self._finish()

    def _r_unpaused(self, step: Any) -> None:
        """Run ``step`` (a play a ruling lets stand) as if the table were not waiting; what
        it leads to becomes what the table resumes with."""
        t = self.table
        held = t.awaiting
        t.awaiting = []
        self.phase = t.resume_phase
        self.to_act = t.resume_to_act
        step()
        if t.awaiting:                               # the step itself came to a wait
            t.awaiting = held + t.awaiting
            return
        t.awaiting = held
        t.resume_phase = self.phase
        t.resume_to_act = self.to_act
        if held:
            self.phase = Phase.AWAITING_RULING
            self.to_act = None

    # -----------------------------------------------------------------------------------------
    # Hands

    def _r_add(self, seat: int, cards: Iterable[Card]) -> None:
        counts = self.hands[seat]
        n = 0
        for c in cards:
            counts[c] += 1
            n += 1
        self.hand_size[seat] += n
        self._sorted[seat] = None

    def _r_take(self, seat: int, cards: Iterable[Card]) -> None:
        cards = list(cards)
        self._remove(seat, cards)
        self._r_unexpose(seat, cards)

    def _r_lay(self, seat: int, cards: Iterable[Card]) -> None:
        cards = list(cards)
        self._r_take(seat, cards)
        self.table.on_table.setdefault(seat, []).extend(cards)

    def _r_unexpose(self, seat: int, cards: Iterable[Card]) -> None:
        """Cards that leave the hand are no longer exposed in front of it."""
        exposed = self.table.exposed[seat]
        if exposed:
            for c in cards:
                if c in exposed:
                    exposed.remove(c)

    def _r_trump_now(self) -> str | None:
        """Trump as the table knows it now (during the draw: the standing declaration's)."""
        if self.trump_known:
            return self.trump
        return None if self.declaration is None else self.declaration.trump

    # -----------------------------------------------------------------------------------------
    # Carrying a ruling out: the ruling is data, the table interprets it

    def carry_out(self, effects: Sequence[Any], sanctions: Sequence[Any] = (), *, reason: str,
                  answers: int | None = None) -> None:
        """Carry out a ruling on this deal: its imposed sanctions' table consequences (a
        ``PointPenalty`` moves points, as the ruling's first consequence in the log), then
        each listed table effect in order, each through ``EFFECT_HANDLERS`` by its kind,
        then — ``answers`` given — the wait for the ruling on attempt ``answers`` ends and
        play resumes. ``effects`` are ``enforcement.sanctions.TableEffect`` records,
        ``sanctions`` the ledger's imposed rows (``.sanction``, ``.seat``, ``.side``,
        ``.clause``); both read by kind and fields only. ``reason`` (the clause) is what the
        primitive events give as their reason. An effect or sanction the table cannot carry out raises
        ``RulingRefused`` with the reason: unknown kinds, and a ruling on nothing awaited,
        before anything changes; otherwise a handler refuses before it changes anything,
        the effects listed before it having been carried out."""
        t = self.table
        if t is None:
            raise RulingRefused("the deal is not refereed: no ruling to carry out")
        refuse_what_cannot_be_carried_out("双升", effects, sanctions, EFFECT_HANDLERS, SANCTION_HANDLERS,
                                          (w[0] for w in t.awaiting), answers)
        for row in sanctions:
            handler = SANCTION_HANDLERS[row.sanction.KIND]
            if handler is not None:
                handler(self, row)
        plan = RulingPlan(reason, effects, answers)
        for index, effect in enumerate(effects):
            if index in plan.done:
                continue                     # carried out together with an earlier effect
            plan.index = index
            EFFECT_HANDLERS[effect.KIND](self, effect, plan)
        if answers is not None:
            self.resolve(answers)

    # -----------------------------------------------------------------------------------------
    # Table primitives (the effect handlers call these; each emits its own event)

    def referee_rng(self) -> Any:
        """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
        t = self.table
        if t.rng is None:
            t.rng = streams.generator(self.seed, streams.REFEREE)
        return t.rng

    def attempt_cards(self, seq: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """(play cards, extra cards) of the attempt ``seq`` lying on the table."""
        _seat, _irregularity, cards, extra = self.table.attempts[seq]
        return cards, extra

    def return_cards(self, seat: int, reason: str, *, cards: Iterable[Card] | None = None,
                     exposed: bool = True) -> tuple[Card, ...]:
        """Cards ``seat`` laid on the table (all, or ``cards``) go back to its hand, face up
        (``exposed``) or not. A card drawn out of turn goes back onto the stock instead, to be
        drawn by its rightful drawer."""
        t = self.table
        if t.grab is not None and t.grab[0] == seat:
            grabber, card, in_hand, _rightful = t.grab
            if in_hand:
                self._r_take(seat, [card])
            else:
                t.on_table[seat].remove(card)
                if not t.on_table[seat]:
                    del t.on_table[seat]
            self.drawn -= 1                  # the card is back on top of the stock
            t.grab = None
            self.stream.emit(CardsReturned, seat=seat, cards=(str(card),), to="stock", exposed=False,
                             reason=reason)
            return (card,)
        laid = t.on_table.get(seat, [])
        back = list(laid) if cards is None else list(cards)
        for c in back:
            laid.remove(c)
        if not laid:
            t.on_table.pop(seat, None)
        self._r_add(seat, back)
        if exposed:
            t.exposed[seat].extend(back)
        self.stream.emit(CardsReturned, seat=seat, cards=codes(sort_cards(back)), to="hand", exposed=exposed,
                         reason=reason)
        return tuple(back)

    def expose(self, seat: int, cards: Iterable[Card], reason: str) -> None:
        """暴露张: ``cards`` of ``seat``'s hand lie face up in front of it until played."""
        cards = list(cards)
        self.table.exposed[seat].extend(cards)
        self.stream.emit(CardsExposed, seat=seat, cards=codes(sort_cards(cards)), reason=reason)

    def restore_turn(self, seat: int, reason: str) -> None:
        """Order restored: ``seat`` acts next (once the wait is over)."""
        self.table.resume_to_act = seat
        self.stream.emit(TurnRestored, seat=seat, reason=reason)

    def stand_play(self, seat: int, reason: str) -> None:
        """The cards ``seat`` laid on the table go on the trick as if played in turn."""
        t = self.table
        cards = tuple(sort_cards(t.on_table.pop(seat, [])))
        self._r_add(seat, cards)
        self._r_unpaused(lambda: self._r_play_now(seat, cards, stand=reason))

    def take_back_plays(self, seat: int, reason: str) -> None:
        """The plays of the open trick from ``seat``'s on go back: ``seat``'s exposed, the
        later ones not; ``seat`` plays again (a wrong follow found after the next seat played)."""
        position = next(i for i, (s, _) in enumerate(self.trick) if s == seat)
        taken = self.trick[position:]
        del self.trick[position:]
        for s, cards in taken:
            self._r_add(s, cards)
            if s == seat:
                self.table.exposed[s].extend(cards)
        self.stream.emit(PlaysTakenBack, seat=seat, seats=tuple(s for s, _ in taken),
                         cards=tuple(codes(c) for _, c in taken), reason=reason)
        self.table.resume_to_act = seat

    def undo_burial(self, reason: str) -> None:
        """The banker takes its buried cards back and buries again (SJ-3.1.10.1)."""
        t = self.table
        banker = self.banker
        cards = list(self.kitty)
        self.kitty = []
        self.buried = False
        self._r_add(banker, cards)
        t.bad_burial = None
        t.resume_phase = Phase.KITTY
        t.resume_to_act = banker
        self.stream.emit(BurialUndone, seat=banker, cards=codes(sort_cards(cards)), reason=reason)

    def bar_declaration(self, seat: int, reason: str) -> None:
        """``seat`` may not declare or overcall trump for the rest of this deal."""
        self.declare_barred.add(seat)
        self.stream.emit(DeclarationBarred, seat=seat, reason=reason)

    def settle_declaration(self, seat: int, cards: Iterable[Any], withdrawn: int, reason: str, *,
                           how: str = "lots") -> None:
        """Of two declarations shown at the same moment, ``seat``'s (``cards``) stands and
        ``withdrawn``'s is taken back."""
        declaration = Declaration(seat, cards)
        self.declaration = declaration
        self.declarations += (declaration,)
        self.stream.emit(DeclarationStands, seat=seat, cards=codes(declaration.cards), trump=declaration.trump,
                         withdrawn=withdrawn, how=how, reason=reason)

    def offer_choice(self, seat: int, purpose: str, options: Sequence[str], about: int | None = None,
                     **data: Any) -> None:
        """``seat`` must choose one of ``options`` before the table goes on; ``data`` is what
        the engine needs to carry the choice out (source, to, count, reason)."""
        t = self.table
        t.choice = ChoiceState(seat, purpose, tuple(options), about, data)
        self.stream.emit(ChoiceOffered, seat=seat, purpose=purpose, options=tuple(options), about=about)
        if self.phase is not Phase.AWAITING_RULING:
            self.to_act = seat

    def random_draw(self, source: int, to: int, count: int, reason: str) -> tuple[Card, ...]:
        """``to`` draws ``count`` cards at random from ``source``'s hand (REFEREE stream). In
        the draw, after a card drawn out of turn and kept, it stands for the rightful
        drawer's draw of that card."""
        t = self.table
        rng = self.referee_rng()
        drawn: list[Card] = []
        for _ in range(count):
            hand = self.hand(source)
            card = hand[int(rng.random() * len(hand))]
            self._r_take(source, [card])
            self._r_add(to, [card])
            drawn.append(card)
        if t.grab is not None and t.grab[0] == source:
            seat, card, in_hand, rightful = t.grab
            if not in_hand:                      # the card on the table joins the hand it came to
                t.on_table[seat].remove(card)
                if not t.on_table[seat]:
                    del t.on_table[seat]
                self._r_add(seat, [card])
            t.grab = None
            self.draw_seat = next_seat(rightful)
        self.stream.emit(RandomlyDrawn, seat=to, source=source, cards=codes(drawn), reason=reason)
        return tuple(drawn)

    def hand_over(self, source: int, to: int, card: Card, reason: str) -> None:
        """``source`` hands ``card`` of its choice to ``to``."""
        self._r_take(source, [card])
        self._r_add(to, [card])
        self.stream.emit(CardHandedOver, seat=to, source=source, card=str(card), reason=reason)

    def redeal(self, reason: str) -> None:
        """Gather the cards and draw again (a new shuffle from the redeal seed path)."""
        from shengji.deal import REDEAL
        self.attempt += 1
        seed = streams.child_seed(self.seed, REDEAL, self.attempt)
        self._r_clear_for_redeal()
        self.stream.emit(Redealt, reason=reason, attempt=self.attempt, seed=seed)
        self._start_draw()

    def _r_clear_for_redeal(self) -> None:
        """What lies on the table from the draw that is gathered up (a ruling's redeal or
        nobody declaring): exposed cards, cards on the table, slips, a pending grab."""
        t = self.table
        t.exposed = [[], [], [], []]
        t.on_table = {}
        t.slips = []
        t.redirect = None
        t.kitty_draw = None
        t.kitty_drawn = None
        t.grab = None

    def adjust_points_deferred(self, offender: int, points: int, reason: str) -> None:
        self.table.deferred.append((offender, points, reason))

    def _r_banker_known(self) -> None:
        """The banker is known: point penalties given during the draw take effect."""
        t = self.table
        for offender, points, reason in t.deferred:
            delta = points if team(offender) == team(self.banker) else -points
            self.adjustments += ((reason, delta),)
            self.stream.emit(PointsAdjusted, seat=offender, points=points, attackers_delta=delta, reason=reason)
        t.deferred = []


# ---------------------------------------------------------------------------------------------
# The effect handlers: one per table-effect kind a 双升 ruling may list. Each does exactly
# what its effect says through the primitives above, or refuses (RulingRefused) before
# changing anything when the table is not as the effect says.


def _seat_of(effect: Any) -> int:
    if effect.seat is None:
        raise refuse(effect, "names no seat")
    return effect.seat


def _on_return(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """The cards go back where they came from: a card drawn out of turn onto the stock,
    cards laid on the table into the hand (face up when the ruling also exposes them)."""
    seat = _seat_of(effect)
    cards = [Card(c) for c in effect.cards]
    t = deal.table
    if t.grab is not None and t.grab[0] == seat:
        if cards != [t.grab[1]]:
            raise refuse(effect, f"seat {seat} drew {t.grab[1]} out of turn, not {' '.join(effect.cards)}")
        deal.return_cards(seat, plan.reason)
        return
    laid = t.on_table.get(seat, [])
    if cards and holds(count_list(laid), cards):
        whole = Counter(cards) == Counter(laid)
        deal.return_cards(seat, plan.reason, cards=None if whole else cards,
                          exposed=plan.take("Expose", seat=seat, cards=effect.cards) is not None)
        return
    position = next((i for i, (s, _) in enumerate(deal.trick) if s == seat), None)
    if cards and position is not None and Counter(deal.trick[position][1]) == Counter(cards):
        _take_back(deal, effect, plan, seat, position)
        return
    raise refuse(effect, f"seat {seat} has not got these cards lying on the table "
                  f"({' '.join(codes(sort_cards(laid))) or 'none'}) nor as its play in the open trick")


def _take_back(deal: Any, effect: Any, plan: RulingPlan, seat: int, position: int) -> None:
    """A play of the open trick taken back: it comes back face up, the later plays come
    back to be played again, and ``seat`` plays again — one primitive, so the ruling must
    list all of it (Expose, Replay of the later seats, CorrectFollow)."""
    later = tuple(sorted(s for s, _ in deal.trick[position + 1:]))
    if deal.phase is not Phase.AWAITING_RULING:
        raise refuse(effect, "the table is not waiting for a ruling")
    wanted = [("Expose", dict(seat=seat, cards=effect.cards)), ("CorrectFollow", dict(seat=seat))]
    if later:
        wanted.append(("Replay", dict(seats=later)))
    done = set(plan.done)
    for kind, fields in wanted:
        if not plan.take(kind, **fields):
            plan.done = done
            shown = ", ".join(f"{k}={v}" for k, v in fields.items())
            raise refuse(effect, f"a play taken back from the open trick needs {kind}({shown}) listed with it")
    deal.take_back_plays(seat, plan.reason)


def _on_expose(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """暴露张: the cards lie face up in front of their owner."""
    seat = _seat_of(effect)
    cards = [Card(c) for c in effect.cards]
    if not cards or not holds(deal.hands[seat], deal.table.exposed[seat] + cards):
        raise refuse(effect, f"seat {seat} does not hold these cards unexposed")
    deal.expose(seat, cards, plan.reason)


def _on_restore_order(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """``seat`` acts once the wait is over (RestoreOrder; CorrectFollow: it follows again)."""
    if deal.phase is not Phase.AWAITING_RULING:
        raise refuse(effect, "the table is not waiting for a ruling")
    deal.restore_turn(effect.seat, plan.reason)


def _on_redo_bury(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """The banker takes its buried cards back and buries again."""
    if effect.seat != deal.banker or not deal.buried or deal.tricks or deal.trick:
        raise refuse(effect, f"seat {effect.seat} has no burial of this deal to redo")
    deal.undo_burial(plan.reason)


def _on_lose_declaration_right(deal: Any, effect: Any, plan: RulingPlan) -> None:
    deal.bar_declaration(effect.seat, plan.reason)


def _on_play_stands(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """The cards left lying on the table are played as if in turn."""
    t = deal.table
    seat = effect.seat
    if not t.on_table.get(seat):
        raise refuse(effect, f"no cards of seat {seat} lie on the table")
    if t.resume_phase is not Phase.PLAY or t.resume_to_act != seat:
        raise refuse(effect, f"it is not seat {seat}'s turn to play")
    deal.stand_play(seat, plan.reason + ": the rest stands")


def _shown_declarations(deal: Any, effect: Any, plan: RulingPlan, seat: int | None) -> tuple[dict, int]:
    shown = deal.table.shown.get(plan.answers)
    if shown is None:
        raise refuse(effect, "no simultaneous declarations await this ruling")
    if seat not in shown:
        raise refuse(effect, f"seat {seat} showed none of the simultaneous declarations")
    return shown, next(s for s in shown if s != seat)


def _on_lots_draw(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """The declaration of the seat the lot fell on stands; the other is taken back."""
    shown, other = _shown_declarations(deal, effect, plan, effect.winner)
    if set(effect.seats) != set(shown):
        raise refuse(effect, f"the declarations shown were seats {sorted(shown)}'s")
    deal.settle_declaration(effect.winner, shown[effect.winner], other, plan.reason, how="lots")


def _on_declaration_stands(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """The declaration the partners chose stands; the other is taken back."""
    shown, other = _shown_declarations(deal, effect, plan, effect.seat)
    deal.settle_declaration(effect.seat, shown[effect.seat], other, plan.reason, how="chosen")


_OPTION_NAMES = {"RandomDraw": RANDOM_DRAW, "Redeal": REDEAL}
_CHOICE_PURPOSES = {(RANDOM_DRAW, DECLINE): MISCOUNT_DRAW, (RANDOM_DRAW, REDEAL): MISCOUNT_REMEDY}
"""The choices a 双升 table can offer, by their options (a random draw of the miscount's
cards, or not / or a redeal)."""


def _on_choice(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """The chooser must pick one of the options before the table goes on; the chosen one is
    carried out through this table when it is picked (``_r_choose``)."""
    names = tuple(_OPTION_NAMES.get(o.KIND, o.KIND) for o in effect.options)
    names += (DECLINE,) if effect.may_decline else ()
    purpose = _CHOICE_PURPOSES.get(names)
    if purpose is None:
        raise refuse(effect, f"no 双升 choice offers {', '.join(names)} (offered: "
                      + "; ".join(", ".join(k) for k in _CHOICE_PURPOSES) + ")")
    draw = effect.options[0]
    if draw.source is None or draw.to is None:
        raise refuse(effect, "the random draw names no seat to draw from or for")
    deal.offer_choice(effect.chooser, purpose, names, about=plan.answers, source=draw.source, to=draw.to,
                      count=draw.count, reason=plan.reason, remedies=tuple(effect.options))


def _on_random_draw(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """``to`` draws ``count`` cards at random from ``source``'s hand (REFEREE stream)."""
    if effect.source is None or effect.to is None or effect.source == effect.to:
        raise refuse(effect, "a random draw here is from one seat's hand to another seat")
    if deal.hand_size[effect.source] < effect.count:
        raise refuse(effect, f"seat {effect.source} holds fewer than {effect.count} card(s)")
    deal.random_draw(effect.source, effect.to, effect.count, plan.reason)


def _on_redeal(deal: Any, effect: Any, plan: RulingPlan) -> None:
    """The cards are gathered and drawn again (a chosen remedy: not while a ruling is awaited)."""
    if effect.fresh_deck:
        raise refuse(effect, "双升 redeals the same cards")
    if deal.phase is Phase.AWAITING_RULING:
        raise refuse(effect, "a redeal is carried out when chosen, not while a ruling is awaited")
    deal.table.then = None
    deal.redeal(plan.reason)


EFFECT_HANDLERS: dict[str, Any] = {
    "Return": _on_return,
    "Expose": _on_expose,
    "RestoreOrder": _on_restore_order,
    "CorrectFollow": _on_restore_order,
    "Replay": None,                  # set below: only with the Return of a play taken back
    "RedoBury": _on_redo_bury,
    "LoseDeclarationRight": _on_lose_declaration_right,
    "PlayStands": _on_play_stands,
    "LotsDraw": _on_lots_draw,
    "DeclarationStands": _on_declaration_stands,
    "Choice": _on_choice,
    "RandomDraw": _on_random_draw,
    "Redeal": _on_redeal,
}
"""Effect kind → handler(deal, effect, plan): the one place a 双升 ruling's table effects
are carried out (``RefereedTable.carry_out``)."""


def _on_replay(deal: Any, effect: Any, plan: RulingPlan) -> None:
    raise refuse(effect, "plays are taken back with the Return of the wrong follow before them "
                  "(Return, Expose, CorrectFollow, Replay)")


EFFECT_HANDLERS["Replay"] = _on_replay


def _on_point_penalty(deal: Any, row: Any) -> None:
    """罚分: points move towards the non-offending side (rulings come before the deal is
    scored; during the draw they wait for the banker)."""
    if deal.phase is not Phase.SCORED:
        offender = row.seat if row.seat is not None else row.side     # seat `side` is on that side
        deal._adjust_points(offender, row.sanction.n, f"PointPenalty {row.clause}")


SANCTION_HANDLERS: dict[str, Any] = {
    "PointPenalty": _on_point_penalty,
    # recorded in the ledger only: nothing changes at the table
    "Warning": None, "RecordedViolation": None, "Suspension": None, "AdjustedScore": None,
    # the match's (shengji.match.Match.carry_out); a lone deal has no match to lose
    "MatchLoss": None,
}
"""Sanction kind → handler(deal, imposed row), None: recorded only."""

RefereedTable.EFFECT_HANDLERS = EFFECT_HANDLERS
RefereedTable.SANCTION_HANDLERS = SANCTION_HANDLERS


_HANDLERS = {
    Draw: RefereedTable._r_draw,
    DrawOutOfTurn: RefereedTable._r_draw_out_of_turn,
    DrawKitty: RefereedTable._r_draw_kitty,
    DeclareAtOnce: RefereedTable._r_declare_at_once,
    Declare: RefereedTable._r_declare,
    NoDeclare: RefereedTable._r_declare,
    Bury: RefereedTable._r_bury,
    Play: RefereedTable._r_play,
    PlayWithExtra: RefereedTable._r_play_extra,
    Revoke: RefereedTable._r_revoke,
    DropCard: RefereedTable._r_drop,
    Incident: RefereedTable._r_incident,
    Choose: RefereedTable._r_choose,
}
