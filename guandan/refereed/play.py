"""Refereed mode of a 掼蛋 deal: irregular attempts recorded instead of refused, the
refereed legal actions and turn order (the table primitives a ruling uses are in
``guandan.table``).

``Deal`` inherits ``RefereedTable``; its state lives in ``deal.table`` (a ``TableState``),
which is None in strict mode: strict play shares the engine's rule path and
``illegality`` with refereed play but never reaches the handlers here.

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
  ``Report(seat, count)`` (unless the deal was built with ``report_step=False``).
- Exposed cards (暴露张) stay in the owner's hand, marked and visible to all. The ruling
  decides what an exposure carries: the GD-2.3.1 lead option (when the owner's partner next
  has the lead, the partner's 下家 chooses forbid / require / free), or penalty cards at once
  (the partner can never lead again, or the cards form no combination). After 'free' the
  cards are penalty cards (GD-6), which must be played or passed at each legal chance
  (legal_actions offers only the plays made of them, plus the pass), the holder's 下家
  designating the kind when there are several (``gd.designated``).
- 禁出一手: a 'next_turn' bar waits for the seat's next turn to play, in a later round if
  need be; a barred lead passes to the 下家 (接风 when it is out). A 'round' bar (GD-2.2)
  lapses when its round ends.
- Bars, lead restrictions, penalty obligations, the GD-4.2.3 pass sequence and 单下 seats
  are applied inside ``legal_actions()`` and the turn order, so no agent is ever offered
  an action they forbid.
- GD-4.2.2 take-back restores an exact snapshot of the play taken when the unreported play
  was made (and one before the offender's partner first acted after it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from guandan import events as ev
from guandan.actions import (
    DISCOVERED_AT_ONCE, AskCount, Announce, CallReferee, Choose, Draw, DrawOutOfTurn, DropCard,
    GiveTribute, Incident, Pass, Play, PlayWithExtra, Report, Retract, ReturnCard, action_to_data,
)
from guandan.combos import BOMB_KINDS, Reading, readings
from guandan.legal import RECORDED, LegalActions
from guandan.movegen import Move, legal_plays
from guandan.observation import Phase
from guandan.refereed.records import Designation, Grab, LatentIrregularity, LeadRestriction
from guandan.table import (
    LEAD_OPTIONS, REPLAY_OPTIONS, LatentReport, OutOfTurn,
    TablePrimitives, kind_key,
)
from tabletop.cards import Card, codes, count_list, holds, sort_cards, without
from tabletop.errors import IllegalAction
from tabletop.irregular import facts as make_facts
from tabletop.rulings import Awaited, Ruling, Unresolved
from tabletop.seats import NUM_SEATS, next_seat, partner, seats_from


class RefereedTable(TablePrimitives):
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
    def awaiting_ruling(self) -> tuple[Awaited, ...]:
        """The irregularities awaiting a ruling, oldest first (the referee rules on the first)."""
        return tuple(self.table.awaiting) if self.table is not None else ()

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
        if r is None or r.seat != seat:
            return moves
        kept = self._r_satisfying(r, moves)
        return kept if kept is not None else moves

    def _r_satisfying(self, r: LeadRestriction, moves: list[Move]) -> list[Move] | None:
        """The moves a restriction allows, or None when it lapses (nothing satisfies it;
        for 'require', also when only bombs do: refusal granted, PD)."""
        rule, kind, cards = r.rule, r.kind, r.cards
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

    def _r_restriction_in_force(self, seat: int) -> LeadRestriction | None:
        """The lead restriction on ``seat`` if it does not lapse for its hand now."""
        r = self.table.restriction
        if r is None or r.seat != seat:
            return None
        every = legal_plays(self.hand(seat), None, self.level, rules=self.rules)
        return None if self._r_satisfying(r, every) is None else r

    @staticmethod
    def _r_allows(r: LeadRestriction, cards: Sequence[Card], reading: Reading) -> bool:
        rule, kind = r.rule, r.kind
        if rule == "cards":
            return sort_cards(cards) == list(r.cards)
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
        if d is not None and d.holder == seat and d.turn == t.turns:
            moves = [m for m in moves if kind_key(m.reading) == d.kind] or moves
        return moves

    def _r_restriction_broken(self, seat: int, cards: tuple[Card, ...], reading: Reading,
                              top: Reading | None) -> str | None:
        """Which table restriction a play breaks (None: none)."""
        t = self.table
        if not t.exposures and t.restriction is None:
            return None
        r = self._r_restriction_in_force(seat) if top is None else None
        if r is not None and not self._r_allows(r, cards, reading):
            return f"lead restriction: {r.rule} {r.kind}"
        penalty = self._r_penalty_moves(seat, top)
        if penalty:
            pcards = [c for e in t.exposures if e.seat == seat and e.penalty for c in e.cards]
            kinds = {kind_key(m.reading) for m in penalty}
            if not holds(count_list(pcards), cards) or kind_key(reading) not in kinds:
                return "penalty cards must be played (or pass)"
        return None

    # -----------------------------------------------------------------------------------------
    # apply, refereed

    def _r_apply(self, action: Any) -> list:
        legal = self._legal
        kind = type(action)
        if kind is Ruling or kind is Unresolved:
            self.apply_ruling(action)
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
        if self.phase is not Phase.DRAW:
            raise IllegalAction("no draw now")
        if a.seat != self.to_act:
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
        self._r_await(ev_.seq, "wrong_counts_after_draw", None, ev_)

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
            self._start_tribute(s["previous_order"], s["no_tribute_seats"], s["no_tribute"], s["leader"])
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
            t.on_table.lay(a.seat, [drawn])
        t.grab = Grab(a.seat, drawn, inserted, rightful)
        self._r_await(ev_.seq, "draw_out_of_turn", a.seat, ev_)

    # ---- tribute and return

    def _r_give_tribute(self, a: GiveTribute, handed: bool) -> None:
        t = self.table
        found = self.illegality(a)
        if found is None:
            self._r_consume_exposed(a.seat, [a.card])   # an exposed card given leaves its exposure
            self._give_tribute(a.seat, a.card)
            return
        if found.code != "wrong_tribute":
            raise IllegalAction(found.message)
        stage = a.discovered or DISCOVERED_AT_ONCE
        facts = make_facts(**found.facts, discovered=stage)
        if stage == DISCOVERED_AT_ONCE:
            e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_tribute",
                                 action=action_to_data(a), facts=facts)
            self._r_lay(a.seat, [a.card])
            self._r_await(e.seq, "wrong_tribute", a.seat, e)
            return
        e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_tribute",
                             action=action_to_data(a), facts=facts, latent=True)
        t.latent.append(LatentIrregularity(e.seq, "wrong_tribute", a.seat, dict(facts)))
        self._r_consume_exposed(a.seat, [a.card])
        self._give_tribute(a.seat, a.card, emit=False)

    def _r_return_card(self, a: ReturnCard, handed: bool) -> None:
        t = self.table
        found = self.illegality(a)
        if found is None:
            self._r_consume_exposed(a.seat, [a.card])
            self._return_card(a.seat, a.card)
            return
        if found.code != "wrong_return":
            raise IllegalAction(found.message)
        stage = a.discovered or DISCOVERED_AT_ONCE
        facts = make_facts(**found.facts, discovered=stage)
        if stage == DISCOVERED_AT_ONCE:
            e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_return",
                                 action=action_to_data(a), facts=facts)
            self._r_lay(a.seat, [a.card])
            self._r_await(e.seq, "wrong_return", a.seat, e)
            return
        e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity="wrong_return",
                             action=action_to_data(a), facts=facts, latent=True)
        t.latent.append(LatentIrregularity(e.seq, "wrong_return", a.seat, dict(facts)))
        self._r_consume_exposed(a.seat, [a.card])
        self._return_card(a.seat, a.card, emit=False, to=found.facts["to"])

    # ---- play

    def _r_play(self, a: Play, handed: bool) -> None:
        seat = a.seat
        if self.phase is not Phase.PLAY:
            raise IllegalAction("no play now: the deal is not in play")
        if handed:
            found = None
        else:
            self._r_check_holds(seat, a.cards)
            found = self.illegality(a)
            if found is not None and found.code == "play_out_of_turn":
                self._r_out_of_turn_play(a)
                return
        self._r_play_in_turn(a, found)

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
        found = self.illegality(Play(seat, a.cards, a.reading))
        if found is not None and found.code not in RECORDED:
            raise IllegalAction(found.message)
        top = self._top_for(seat)
        e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="extra_cards",
                             action=action_to_data(a),
                             facts=make_facts(cards=codes(a.cards), reading=a.reading.code, extra=codes(a.extra),
                                              top=None if top is None else top.code, leading=top is None,
                                              rest_legal=found is None,
                                              rest_problem=None if found is None else found.code))
        self._r_lay(seat, a.cards + a.extra)
        self._r_await(e.seq, "extra_cards", seat, e)

    def _r_check_holds(self, seat: int, cards: Sequence[Card]) -> None:
        """What cannot even be attempted: cards the seat does not hold, a seat out of play."""
        if seat not in range(NUM_SEATS):
            raise IllegalAction(f"no seat {seat}")
        if not cards:
            raise IllegalAction("no cards (a pass is not a play)")
        if not holds(self.hands[seat], cards):
            raise IllegalAction(f"cards not in hand: {' '.join(map(str, cards))}")
        if seat in self.table.placed_last:
            raise IllegalAction(f"seat {seat} is judged last and plays no more")

    def _r_play_in_turn(self, action: Play, found: Any) -> None:
        """A play in turn (also the answer to an out-of-turn play, which accepts it), with
        its ``illegality``: legal, recorded as an irregular attempt, or refused."""
        t = self.table
        if found is not None and found.code not in RECORDED:
            raise IllegalAction(found.message)
        seat, cards, reading = action.seat, action.cards, action.reading
        accept_oot = t.oot is not None
        if found is None:
            lr = t.latent_report
            held = lr is not None and lr.seat == seat and len(cards) < self.sizes[seat] and (
                lr.target == 3 or (lr.target == 4 and lr.plays_since >= 1))
            self.stream.emit(ev.CardsPlayed, seat=seat, cards=codes(cards), reading=reading.code)
            if accept_oot:
                self._r_stand_out_of_turn(seat)
                if self.phase is Phase.SCORED or t.end_pending:
                    return
            if not held:
                self._play(seat, cards, reading)
                return
            # GD-4.2.3 / 4.2.4: the unreported player plays again; the play is held on the table
            self._r_lay(seat, cards)
            t.latent_report = None
            stage = 3 if lr.plays_since == 0 else 4
            self._r_found(lr.seq, lr.irregularity, seat, stage=stage, at_deal_end=False,
                          acted=tuple(lr.acted), partner_acted=partner(seat) in lr.acted,
                          partner_out=partner(seat) in self.finish_order, count=lr.count,
                          holds=self.sizes[seat] + len(cards), cards=codes(cards), reading=reading.code)
            return
        top = self._top_for(seat)
        e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity=found.code,
                             action=action_to_data(action),
                             facts=make_facts(cards=codes(cards), reading=reading.code,
                                              top=None if top is None else top.code,
                                              leading=top is None, **found.facts))
        if accept_oot:
            self._r_stand_out_of_turn(seat)
        self._r_lay(seat, cards)
        self._r_await(e.seq, found.code, seat, e)

    def _r_lay(self, seat: int, cards: Iterable[Card]) -> None:
        """Cards of an attempt go from the hand onto the table (still the seat's)."""
        hand = self.hands[seat]
        cards = list(cards)
        for c in cards:
            hand[c] -= 1
            self.sizes[seat] -= 1
        self.table.on_table.lay(seat, cards)
        self._hand_tuples[seat] = None

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
        """The ruling's CorrectPlay(unused=...) carried out: 'penalty', or 'lead_option' (the
        option needs a combination: cards that form none are penalty cards)."""
        t = self.table
        c = t.correction
        attempt, reason, rule = c.cards, c.reason, c.unused
        t.correction = None
        unused = without(attempt, used)
        new = self.newly_exposed(seat, unused)  # what expose will lay out
        if new:
            combo = bool(readings(new, self.level, self.rules))
            self.expose(seat, unused, reason, then="lead_option" if rule == "lead_option" and combo else "penalty")

    def _r_pass(self, a: Pass, handed: bool) -> None:
        t = self.table
        seat = a.seat
        if self.phase is not Phase.PLAY:
            raise IllegalAction("no pass now: the deal is not in play")
        found = None if handed else self.illegality(a)
        if found is not None:
            if found.code == "announce_out_of_turn":
                self._r_announce(Announce(seat, "pass"), handed, action=a)
                return
            if found.code not in RECORDED:
                raise IllegalAction(found.message)
            e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity=found.code,
                                 action=action_to_data(a), facts=make_facts(**found.facts))
            self._r_await(e.seq, found.code, seat, e)
            return
        self.stream.emit(ev.Passed, seat=seat)
        if t.oot is not None:
            if seat in t.bars:  # its turn, with the only answer its bar left it: the bar is served
                del t.bars[seat]
                self.stream.emit(ev.BarEnded, seat=seat, how="served")
            self._r_stand_out_of_turn(seat)
            if self.phase is Phase.SCORED or t.end_pending:
                return
        self._pass(seat)

    def _r_lapse_round_bars(self) -> None:
        """The round ended: its GD-2.2 bars lapse; 'next_turn' bars wait for their turn."""
        t = self.table
        for s in sorted(t.bars):
            if t.bars[s] == "round":
                del t.bars[s]
                self.stream.emit(ev.BarEnded, seat=s, how="lapsed")

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
        responder = self._next_active(seat)
        top = self.top
        e = self.stream.emit(ev.IrregularAttempt, seat=seat, irregularity="play_out_of_turn",
                             action=action_to_data(a), latent=True,
                             facts=make_facts(rightful=rightful, responder=responder, cards=codes(a.cards),
                                              reading=a.reading.code,
                                              top=None if top is None else top.reading.code))
        self._r_lay(seat, a.cards)
        t.oot = OutOfTurn(e.seq, seat, a.cards, a.reading, rightful, responder)

    def _r_call_referee(self, a: CallReferee, handed: bool) -> None:
        t = self.table
        o = t.oot
        if o is None or a.seat != self.to_act:
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
        self._play(seat, cards, reading)
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
        self._r_await(e.seq, "announce_out_of_turn", seat, e)

    def _r_simple(self, action: Any, irregularity: str, **info: Any) -> None:
        e = self.stream.emit(ev.IrregularAttempt, seat=action.seat, irregularity=irregularity,
                             action=action_to_data(action), facts=make_facts(**info))
        self._r_await(e.seq, irregularity, action.seat, e)

    def _r_retract(self, a: Retract, handed: bool) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalAction("nothing to take back: the deal is not in play")
        last = self.table.last_play.get(a.seat)
        self._r_simple(a, "retract_play", last_play=None if last is None else codes(last))

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
            self._r_await(e.seq, irregularity, a.seat, e)
            return
        e = self.stream.emit(ev.IrregularAttempt, seat=a.seat, irregularity=irregularity,
                             action=action_to_data(a), facts=info, latent=True)
        t.latent_report = LatentReport(e.seq, a.seat, a.discovered, irregularity, a.count, self._r_snapshot())

    def _r_discover_report(self, stage: int | None) -> None:
        """The latent report comes to light at ``stage`` (None: the deal would end now)."""
        t = self.table
        lr = t.latent_report
        n = self._r_first_after(lr.seat)
        n_played = n in lr.played  # 出牌: a pass is not a play (GD-4.2.2)
        at_end = stage is None
        if at_end:
            stage = 4 if lr.plays_since >= 2 else 3 if lr.plays_since == 1 else 2 if n_played else 1
        t.latent_report = None if stage != 2 else lr
        self._r_found(lr.seq, lr.irregularity, lr.seat, stage=stage, at_deal_end=at_end,
                      acted=tuple(lr.acted), played=tuple(lr.played),
                      partner_acted=partner(lr.seat) in lr.acted,
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
            t.designation = Designation(c.about, t.turns, a.option)
            self.stream.emit(ev.PenaltyKindDesignated, seat=a.seat, holder=c.about, combination=a.option)
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
        if not partner_only and p in lr.played and lr.snap_partner is not None:
            self.offer_choice(p, "partner_replay", REPLAY_OPTIONS)
            return
        t.latent_report = None

    def _r_take_back(self, snap: dict, lr: LatentReport) -> None:
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
        s = t.sequence
        offender, seats, index, then = s.offender, s.seats, s.index, s.then
        top = self.top
        if top is not None and top.seat != seat:
            self.passed.append(seat)
        index += 1
        while index < len(seats) and seats[index] not in self._active():
            index += 1
        if index < len(seats):
            s.index = index
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
                del t.bars[offender]
                self.stream.emit(ev.BarEnded, seat=offender, how="lifted")
            self._r_lapse_round_bars()
            exposed = [c for e in t.exposures if e.seat == offender and e.reason.startswith("GD-4.2.3")
                       for c in e.cards]
            if exposed:
                self.restrict_lead(offender, "cards", "exposed cards", cards=exposed, reason="GD-4.2.3")
            return
        # 'play_on': the offender's 上家 continues as in normal play
        last = seats[-1]
        self.turn = self._next_active(last)
        if top is not None and all(s == top.seat or s in self.passed for s in self._active()):
            self._round_over()

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
                if self._deal_over():
                    self._end_by_play()
                    return
            seat = self.turn
            lr = t.latent_report
            if lr is not None and lr.target == 2:
                first = self._r_first_after(lr.seat)
                if first in lr.acted and first not in lr.played:
                    self._r_discover_report(1)  # the 下家 passed: not yet 出牌, still GD-4.2.1
                    return
                if seat == lr.seat and first in lr.played:
                    self._r_discover_report(2)
                    return
            if lr is not None and seat == partner(lr.seat) and lr.snap_partner is None:
                lr.snap_partner = self._r_snapshot()
            top = self.top
            leading = top is None or top.seat == seat
            if seat in t.bars:
                scope = t.bars.pop(seat)
                if leading and t.sequence is None:
                    if scope == "round":  # a GD-2.2 bar reaches no further than its round
                        self.stream.emit(ev.BarEnded, seat=seat, how="lapsed")
                    else:
                        self._r_barred_lead(seat)
                    continue
                self.stream.emit(ev.BarredPass, seat=seat)
                self._pass(seat)
                continue
            if leading and t.lead_options and t.option_asked.get(seat) != t.lead_count:
                opt = next((o for o in t.lead_options if o.restricted == seat and o.asked_at < t.lead_count), None)
                if opt is not None:
                    self.offer_choice(opt.chooser, "lead_option", LEAD_OPTIONS, about=opt.uid)
                    return
            if t.exposures and any(e.seat == seat and e.penalty for e in t.exposures):
                d = t.designation
                if d is None or d.holder != seat or d.turn != t.turns:
                    moves = self._r_penalty_moves(seat, None if leading else top.reading)
                    kinds = sorted({kind_key(m.reading) for m in moves})
                    if len(kinds) > 1:  # GD-6: the holder's 下家 designates (at the table even when out)
                        self.offer_choice(next_seat(seat), "designate", tuple(kinds), about=seat)
                        return
            return

    def _r_barred_lead(self, seat: int) -> None:
        """A 'next_turn' bar on a lead: the seat passes and the lead goes to its 下家 (as in
        GD-4.2.3, 下家自动拥有领出权); when the 下家 has gone out, to the 下家's partner (接风,
        as when a seat goes out with the round won), else to the next seat still in play. The
        lead thus stays with the non-offending side. A new lead: the lead count goes up."""
        t = self.table
        lead_to = self._leader_after(next_seat(seat))
        self.stream.emit(ev.BarredPass, seat=seat, lead_to=lead_to)
        t.turns += 1
        self.top = None
        self.passed = []
        self.leader = self.turn = lead_to
        t.lead_count += 1
        if t.designation is not None and t.designation.holder == seat:
            t.designation = None

    def _r_flush_latent(self) -> None:
        """The deal ended with irregularities nobody noticed in time: they come to light now
        (``after_end``), so that each one still gets its ruling."""
        t = self.table
        lr, t.latent_report = t.latent_report, None
        if lr is not None:
            self._r_found(lr.seq, lr.irregularity, lr.seat, after_end=True, stage=None, count=lr.count)
        found, t.latent = t.latent, []
        for li in found:
            self._r_found(li.seq, li.irregularity, li.seat, **{**li.facts, "after_end": True})
        o, t.oot = t.oot, None
        if o is not None:
            self.return_cards(o.seat, "the deal ended")
            self._r_found(o.seq, "play_out_of_turn", o.seat, after_end=True, cards=codes(o.cards))


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
