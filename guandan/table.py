"""The table primitives of a refereed 掼蛋 deal, and the refereed table's state: the engine
knows HOW (these methods), the referee knows WHEN (``enforcement.guandan_rulings``).

A ruling is data the table carries out (``carry_out(effects, sanctions, reason=, answers=)``,
and ``guandan.match.Match.carry_out`` with the match around it): each listed table effect
through its handler in ``EFFECT_HANDLERS`` (in the fixed order of kinds ``CARRY_ORDER``),
then the imposed sanctions through ``SANCTION_HANDLERS``, then ``resolve``. A handler does
exactly what its effect says, through the primitives below, or raises ``RulingRefused``.

``TableState`` is ``deal.table`` (None in strict mode). ``TablePrimitives`` is a mixin of
``guandan.deal.Deal`` (through ``guandan.refereed.RefereedTable``): ``resolve`` ends the wait
for a ruling; ``return_cards``, ``expose`` (told by the ruling what follows: the lead option,
penalty cards or nothing), ``make_penalty``, ``bar_next_play`` / ``bar_in_round`` (禁出一手's
two scopes),
``restrict_lead``, ``offer_choice`` / ``offer_replay``, ``random_draw``, ``restore_turn``,
``await_correction``, ``stand_play``, ``start_pass_sequence``, ``place_last`` (单下),
``report_again``, ``mark_unauthorised``, ``redeal``, ``schedule_next_deal`` and (on the deal)
``force_result`` (双下 or any whole result) each emit their own public event. Exposed and
penalty cards stay in the owner's hand, marked, visible to every seat; bars, restrictions and
choices are applied in ``legal_actions()`` and the turn order (``guandan.refereed``).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from guandan import events as ev
from guandan.combos import Reading, readings
from guandan.movegen import legal_plays
from guandan.observation import Phase, TopPlay, UnauthorisedItem
from tabletop import rng as streams
from tabletop.cards import Card, codes, full_deck, holds, sort_cards, without
from tabletop.errors import RulingRefused
from tabletop.events import Event
from guandan.refereed.records import (
    Correction, Designation, Grab, LatentIrregularity, LeadRestriction, PassSequence, UnauthorisedMark,
)
from tabletop.refereed import RefereedState, offer_choice
from tabletop.rulings import (
    Awaited, Ruling, RulingPlan, Unresolved, admit_ruling, refuse, refuse_what_cannot_be_carried_out,
)
from tabletop.irregular import facts as make_facts
from tabletop.seats import NUM_SEATS, next_seat, partner, prev_seat

REPORT_LIMIT = 10
_PLAY, _AWAITING, _SCORED = Phase.PLAY, Phase.AWAITING_RULING, Phase.SCORED
LEAD_OPTIONS = ("forbid", "require", "free")
REPLAY_OPTIONS = ("take_back", "stand")
IRREGULARITIES = (
    "draw_out_of_turn", "wrong_counts_after_draw", "announce_out_of_turn", "play_out_of_turn", "wrong_kind",
    "does_not_beat", "extra_cards", "retract_play", "exposed_card", "pass_on_lead", "wrong_tribute",
    "wrong_return", "report_repeated", "ask_count", "report_missing", "report_wrong", "incident",
)
"""Every irregularity id refereed 掼蛋 records (``gd.irregular`` / ``gd.found``): the
vocabulary of the rulebook's triggers (enforcement.rulebook) and of the rulings' dispatch."""


def kind_key(reading: Reading) -> str:
    """The combination type for the lead option (PD): the kind, bombs by size."""
    return f"BOMB {reading.size}" if reading.kind.name == "BOMB" else reading.kind.name




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


class OutOfTurn:
    """An out-of-turn play lying on the table, waiting for the offender's 下家."""

    __slots__ = ("seq", "seat", "cards", "reading", "rightful", "responder")

    def __init__(self, seq: int, seat: int, cards: tuple[Card, ...], reading: Reading,
                 rightful: int, responder: int) -> None:
        self.seq, self.seat, self.cards, self.reading = seq, seat, cards, reading
        self.rightful, self.responder = rightful, responder


class LatentReport:
    """A missing or wrong 报牌 nobody noticed yet (GD-4.2), to come to light at ``target``."""

    __slots__ = ("seq", "seat", "target", "irregularity", "acted", "played", "plays_since", "snap0",
                 "snap_partner", "count")

    def __init__(self, seq: int, seat: int, target: int, irregularity: str, count: int | None,
                 snap0: dict) -> None:
        self.seq, self.seat, self.target, self.irregularity = seq, seat, target, irregularity
        self.count = count
        self.acted: list[int] = []
        """Other seats that played or passed since the unreported play."""
        self.played: list[int] = []
        """Other seats that played (出牌) since: GD-4.2.2 needs the 下家 among them."""
        self.plays_since = 0
        self.snap0 = snap0
        self.snap_partner: dict | None = None


class TableState(RefereedState):
    """Everything refereed mode adds to a 掼蛋 deal (strict deals have none): the shared
    refereed state (waiting for rulings, cards on the table, the choice offered) and 掼蛋's
    own."""

    def __init__(self) -> None:
        super().__init__()
        self.grab: Grab | None = None
        self.exposures: list[Exposure] = []
        self.lead_options: list[LeadOptionState] = []
        self.restriction: LeadRestriction | None = None
        self.bars: dict[int, str] = {}
        """Barred seat → scope ('next_turn' or 'round')."""
        self.designation: Designation | None = None
        self.report_due: int | None = None
        self.oot: OutOfTurn | None = None
        self.correction: Correction | None = None
        self.sequence: PassSequence | None = None
        self.placed_last: list[int] = []
        self.unauthorised: list[UnauthorisedMark] = []
        self.latent: list[LatentIrregularity] = []
        """Wrong tribute / return found after the first play."""
        self.latent_report: LatentReport | None = None
        self.end_pending = False
        self.lead_count = 0
        """Leads so far (round starts): a lead option is asked once per lead."""
        self.option_asked: dict[int, int] = {}
        """Restricted seat → the lead at which a lead option was last answered for it."""
        self.turns = 0
        self.next_uid = 0
        self.last_play: dict[int, tuple[Card, ...]] = {}
        """Seat → the cards of its last play (what a ``Retract`` would take back)."""
        # the draw
        self.setup: dict[str, Any] = {}
        self.redeals = 0
        self.lost: list[Card] = []
        self.face_position: int | None = None
        self.face_drawer: int | None = None
        self.taken = 0
        """Cards taken from the stock so far (positions in the drawn order)."""
        self.next_deal: dict[str, Any] | None = None
        self.report_step = True
        """报牌 is a decision of the seat (``Report``); False: the engine reports correctly."""


class TablePrimitives:
    """The table primitives and the wait for rulings (a mixin of the deal)."""

    # -----------------------------------------------------------------------------------------
    # Waiting for the referee

    def _r_await(self, seq: int, irregularity: str, seat: int | None, event: Event) -> None:
        """The table waits for a ruling on attempt ``seq``, which ``event`` calls for: the
        referee's seat is to act."""
        assert irregularity in IRREGULARITIES, f"undeclared irregularity id {irregularity!r}"
        t = self.table
        t.wait(Awaited(seq, irregularity, seat, event))
        if self.phase is not Phase.AWAITING_RULING and self.phase is not Phase.SCORED:
            t.resume_phase = self.phase
            self.phase = Phase.AWAITING_RULING
        self._legal = None

    def _r_found(self, answers: int, irregularity: str, seat: int | None, *, await_: bool = True,
                 **info: Any) -> None:
        e = self.stream.emit(ev.IrregularityFound, seat=seat, irregularity=irregularity, answers=answers,
                             facts=make_facts(**info))
        if await_:
            self._r_await(answers, irregularity, seat, e)

    def _r_discover_tribute(self) -> None:
        t = self.table
        found, t.latent = t.latent, []
        for li in found:
            self._r_found(li.seq, li.irregularity, li.seat, **{**li.facts, "discovered": "after_first_play"})

    def resolve(self, seq: int | None = None) -> None:
        """End the wait for the ruling on attempt ``seq`` (the first one when None); play
        goes on once no ruling is awaited (its events go to the stream)."""
        t = self.table
        if t is None:
            raise ValueError("resolve: the deal is not refereed")
        if t.stop_waiting(seq) and self.phase is Phase.AWAITING_RULING:
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
    # Carrying a ruling out: the ruling is data, the table interprets it

    def apply_ruling(self, ruling: Ruling | Unresolved, match: Any = None) -> None:
        """The referee's seat acts: refuse what cannot be carried out before anything
        changes, log the ruling (``ref.ruling`` / ``ref.unresolved``), then carry out exactly
        its effects and sanctions (``carry_out``); ``match``: the match around the deal."""
        t = self.table
        sanctions, reason = admit_ruling("掼蛋", t, () if t is None else t.awaiting, ruling, EFFECT_HANDLERS,
                                         SANCTION_HANDLERS, self.stream)
        self.carry_out(ruling.effects, sanctions, reason=reason, answers=ruling.answers, match=match)

    def carry_out(self, effects: Sequence[Any], sanctions: Sequence[Any] = (), *, reason: str,
                  answers: int | None = None, match: Any = None) -> None:
        """Carry out a ruling on this deal: each listed table effect, each through
        ``EFFECT_HANDLERS`` by its kind, in the table's fixed order of kinds (``CARRY_ORDER``:
        cards back first, then exposed, bars, reports, choices, the turn, the next deal —
        whatever order the ruling lists them in; effects of one kind in the order listed); then the imposed sanctions' consequences through
        ``SANCTION_HANDLERS`` (``LevelDiffPenalty`` → the match score, ``ForcedLast`` → 单下,
        ``ForcedDoubleLast`` → the 双下 result); then — ``answers`` given — the wait for the
        ruling on attempt ``answers`` ends and play resumes. ``effects`` are
        ``tabletop.effects.TableEffect`` records, ``sanctions`` the ledger's imposed rows
        (``.sanction``, ``.seat``, ``.side``, ``.clause``), read by kind and fields only;
        ``match``: the ``guandan.match.Match`` around the deal (None: a lone deal, whose level
        penalties are only recorded). ``reason`` (the clause) is what the primitive events give
        as their reason. What the table cannot carry out raises ``RulingRefused`` with the
        reason: unknown kinds and a ruling on nothing awaited before anything changes;
        otherwise a handler refuses before it changes anything, the effects listed before it
        having been carried out."""
        t = self.table
        if t is None:
            raise RulingRefused("the deal is not refereed: no ruling to carry out")
        # (a ruling with no table effect may answer an attempt that stood, GD-2.3.2)
        refuse_what_cannot_be_carried_out("掼蛋", effects, sanctions, EFFECT_HANDLERS, SANCTION_HANDLERS,
                                          (w.answers for w in t.awaiting), answers, effects_need_an_attempt=True)
        effects = sorted(effects, key=lambda e: CARRY_ORDER[e.KIND])   # stable: same kinds as listed
        plan = _Plan(reason, effects, answers, match)
        plan.carry_out_effects(self, EFFECT_HANDLERS)
        lr = t.latent_report
        if lr is not None and answers is not None and lr.seq == answers and t.choice is None:
            t.latent_report = None           # a 报牌 ruled on, no take-back offered: settled
        for row in sanctions:
            handler = SANCTION_HANDLERS[row.sanction.KIND]
            if handler is not None:
                handler(self, row, plan)
        if answers is not None:
            self.resolve(answers)

    # -----------------------------------------------------------------------------------------
    # Table primitives (the referee's rulings call these)

    def referee_rng(self) -> Any:
        """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
        return self.table.referee_rng(self.seed, self.deal_number)

    def return_cards(self, seat: int, reason: str, *, only: Iterable[Card] | None = None) -> tuple[Card, ...]:
        """The cards ``seat`` laid on the table go back to its hand (a card drawn out of
        turn: back on top of the stock); ``only``: just those of them, the rest stay laid."""
        t = self.table
        if t.grab is not None and t.grab.seat == seat:
            card = t.grab.card
            if t.grab.in_hand:
                self.hands[seat][card] -= 1
                self.sizes[seat] -= 1
                self._hand_tuples[seat] = None
            else:
                t.on_table.pick_up(seat, [card])
            self.stock.insert(0, card)
            t.taken -= 1
            t.grab = None
            self.stream.emit(ev.CardsReturned, seat=seat, cards=(str(card),), to="stock", reason=reason)
            return (card,)
        laid = t.on_table.pick_up(seat, only)
        for c in laid:
            self.hands[seat][c] += 1
        self.sizes[seat] += len(laid)
        self._hand_tuples[seat] = None
        if t.oot is not None and t.oot.seat == seat and seat not in t.on_table:
            t.oot = None
        if laid:
            self.stream.emit(ev.CardsReturned, seat=seat, cards=codes(sort_cards(laid)), to="hand", reason=reason)
        self._legal = None
        return tuple(laid)

    def expose(self, seat: int, cards: Iterable[Card], reason: str, *, then: str,
               reading: Reading | None = None, only_new: bool = True) -> Exposure | None:
        """暴露张: ``cards`` (in ``seat``'s hand) lie face up, seen by all, still its own.
        ``then`` is the ruling's instruction: 'lead_option' sets the GD-2.3.1 option for the
        partner's next lead (the cards must form a combination); 'penalty' makes them
        penalty cards at once (GD-6); 'none' only exposes them. ``only_new``: cards that
        already lay exposed are left out (not exposed twice); False: ``cards`` are exactly
        the ones to expose (an ``Expose`` effect)."""
        t = self.table
        cards = sort_cards(cards)
        new = self.newly_exposed(seat, cards) if only_new else cards
        if len(new) != len(cards):  # some of them lay exposed already (and went out in the attempt)
            cards, reading = new, None
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
        if then == "lead_option":
            if kind is None:
                raise ValueError(f"{reason}: no lead option about cards that form no combination")
            opt = LeadOptionState(exposure.uid, prev_seat(seat), partner(seat), kind)
            t.lead_options.append(opt)
            self.stream.emit(ev.LeadOptionSet, seat=seat, chooser=opt.chooser, restricted=opt.restricted,
                             combination=kind, cards=codes(cards))
        elif then == "penalty":
            self.make_penalty(seat, exposure, reason)
        elif then != "none":
            raise ValueError(f"expose: unknown instruction {then!r}")
        self._legal = None
        return exposure

    def newly_exposed(self, seat: int, cards: Iterable[Card]) -> list[Card]:
        """Those of ``cards`` that do not lie exposed in front of ``seat`` already."""
        already = [c for e in self.table.exposures if e.seat == seat for c in e.cards]
        cards = sort_cards(cards)
        return sort_cards(without(cards, already)) if already else cards

    def partner_may_lead(self, seat: int) -> bool:
        """Whether ``seat``'s partner can still have the lead this deal (not out, not 单下)."""
        p = partner(seat)
        return bool(self.sizes[p]) and p not in self.table.placed_last

    def make_penalty(self, seat: int, exposure: Exposure | None = None, reason: str = "GD-6") -> None:
        """Exposed cards (one exposure, or all of the seat's) become penalty cards (GD-6)."""
        t = self.table
        for e in t.exposures:
            if e.seat == seat and (exposure is None or e is exposure) and not e.penalty:
                e.penalty = True
                self.stream.emit(ev.PenaltyCardsMarked, seat=seat, cards=codes(e.cards), reason=reason)
        self._legal = None

    def bar_next_play(self, seat: int, reason: str) -> None:
        """禁出一手 (scope 'next_turn'): ``seat`` passes automatically when its turn to play
        next comes, in this round or a later one; a barred lead goes to its 下家."""
        self._bar(seat, reason, "next_turn")

    def bar_in_round(self, seat: int, reason: str) -> None:
        """禁出一手 (scope 'round', GD-2.2): as ``bar_next_play``, but the bar lapses when the
        round ends before the turn comes."""
        self._bar(seat, reason, "round")

    def _bar(self, seat: int, reason: str, scope: str) -> None:
        self.table.bars[seat] = scope
        self.stream.emit(ev.SeatBarred, seat=seat, reason=reason, scope=scope)
        self._legal = None

    def restrict_lead(self, seat: int, rule: str, kind: str, *, cards: Iterable[Card] = (), reason: str = "") -> None:
        """``seat``'s next lead must ('require'), must not ('forbid') be of ``kind``, or must
        be exactly ``cards`` ('cards'). Enforced in legal_actions(); it lapses when nothing
        (or, for 'require', only bombs) satisfies it."""
        t = self.table
        cards = tuple(sort_cards(cards))
        r = LeadRestriction(seat, rule, kind, cards)
        lapsed = self._r_satisfying(r, legal_plays(self.hand(seat), None, self.level, rules=self.rules)) is None
        t.restriction = r
        self.stream.emit(ev.LeadRestricted, seat=seat, rule=rule, combination=kind, cards=codes(cards),
                         lapsed=lapsed)
        self._legal = None

    def offer_choice(self, seat: int, purpose: str, options: Sequence[str], about: Any = None) -> None:
        """``seat`` must choose one of ``options`` before the table goes on (Choose actions)."""
        offer_choice(self, seat, purpose, options, about)
        self._legal = None

    def random_draw(self, source: int, to: int, reason: str) -> Card:
        """``to`` (the rightful drawer) draws a card at random from ``source``'s hand; the
        draw goes on with ``to``'s 下家 (GD-1.1.3b). The REFEREE stream decides."""
        t = self.table
        hand = self.hand(source)
        card = hand[int(self.referee_rng().integers(len(hand)))]
        self._move(source, to, card)
        if t.grab is not None and t.grab.seat == source:
            t.grab = None
        self.turn = next_seat(to)
        self.stream.emit(ev.RandomlyDrawn, seat=to, source=source, cards=(str(card),), reason=reason)
        self._legal = None
        return card

    def restore_turn(self, seat: int, reason: str) -> None:
        """Order restored: ``seat`` is to act (to draw next, in the draw)."""
        self.turn = seat
        self.stream.emit(ev.TurnRestored, seat=seat, reason=reason)
        self._legal = None

    def await_correction(self, seat: int, cards: Iterable[Card], reason: str, *, unused: str) -> None:
        """``seat`` acts again (a legal play or a pass); the cards of its attempt not used in
        that correction are then exposed (GD-2.4), as the ruling said (``unused``, see
        ``tabletop.effects.CorrectPlay``): 'lead_option' (the option when they form a
        combination, else penalty cards) or 'penalty'."""
        t = self.table
        cards = sort_cards(cards)
        if unused not in ("lead_option", "penalty"):
            raise ValueError(f"await_correction: unknown instruction {unused!r}")
        t.correction = Correction(seat, list(cards), reason, unused)
        self.turn = seat
        self.stream.emit(ev.CorrectionDue, seat=seat, cards=codes(cards), reason=reason)
        self._legal = None

    def stand_play(self, seat: int, cards: Iterable[Card], reading: Reading, reason: str) -> None:
        """Cards ``seat`` laid on the table stand as its play (the rest of a play with extra
        cards, GD-2.4.3)."""
        t = self.table
        cards = tuple(sort_cards(cards))
        for c in t.on_table.pick_up(seat, cards):
            self.hands[seat][c] += 1
            self.sizes[seat] += 1
        self._hand_tuples[seat] = None
        self.stream.emit(ev.PlayStands, seat=seat, cards=codes(cards), reading=reading.code, reason=reason)
        self._r_stand(seat, cards, reading, report_now=False)

    def start_pass_sequence(self, offender: int, then: str, reason: str,
                            seats: Sequence[int] | None = None) -> None:
        """GD-4.2.3 ('offender_leads') / GD-4.2.4 ('play_on'): the offender's 下家, partner
        and (for 4.2.3) 上家 in turn may pass even with the lead; ``seats``: the ones the
        ruling named, in order (None: ``pass_sequence_seats``)."""
        t = self.table
        seats = self.pass_sequence_seats(offender, then) if seats is None else list(seats)
        if not seats:
            return
        t.sequence = PassSequence(offender, seats, 0, then)
        self.turn = seats[0]
        self.passed = [s for s in self.passed if s not in seats]
        self.stream.emit(ev.PassSequence, seat=offender, seats=tuple(seats), then=then)
        self._legal = None

    def pass_sequence_seats(self, offender: int, then: str) -> list[int]:
        """Who may pass in the GD-4.2.3 / 4.2.4 sequence, in order (seats still in play)."""
        order = [next_seat(offender), partner(offender), prev_seat(offender)]
        if then == "play_on":
            order = order[:2]
        active = self._active()
        return [s for s in order if s in active]

    def place_last(self, seat: int, reason: str) -> None:
        """单下: ``seat`` is judged 下游 and plays no more; the deal ends when the others'
        places are settled."""
        t = self.table
        if seat in t.placed_last:
            return
        t.placed_last.append(seat)
        t.bars.pop(seat, None)
        o = t.oot
        if o is not None and o.responder == seat:
            o.responder = self._next_active(seat) if len(self._active()) > 1 else o.responder
        elif o is not None and o.seat == seat:  # its own out-of-turn play is moot now
            t.oot = None
            self.return_cards(seat, reason)
            self._r_found(o.seq, "play_out_of_turn", seat, moot="the offender was judged last",
                          cards=codes(o.cards))
        t.lead_options = [o for o in t.lead_options if o.restricted != seat]
        if t.restriction is not None and t.restriction.seat == seat:
            t.restriction = None
        self.stream.emit(ev.PlacedLast, seat=seat, reason=reason)
        if self.phase is Phase.SCORED:
            return
        if self._deal_over():
            t.end_pending = True
        elif self.turn == seat or (self.turn is not None and not self.sizes[self.turn]):
            self.turn = self._next_active(seat)
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
            t.unauthorised.append(UnauthorisedMark(s, UnauthorisedItem(what, source, cards)))
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

    def schedule_next_deal(self, *, no_tribute_seats: Iterable[int] = (), no_tribute: bool = False,
                           shuffler: int | None = None, cutter: int | None = None,
                           first_drawer: int | None = None, leader: int | None = None) -> list:
        """A lone deal's next-deal procedure (GD-5.1 / GD-5.2): recorded as an event and in
        ``table.next_deal`` (a Match applies its own ``schedule_next_deal``)."""
        t = self.table
        no_tribute = no_tribute or leader is not None
        t.next_deal = dict(no_tribute_seats=tuple(sorted(set(no_tribute_seats))), no_tribute=no_tribute,
                           shuffler=shuffler, cutter=cutter, first_drawer=first_drawer, leader=leader)
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
        if phase is _PLAY and not (
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
            grabbed = t.grab.seat if t.grab is not None and not t.grab.in_hand else None
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
        if r is not None and r.seat == seat:
            extras["restriction"] = (r.rule, r.kind)
        items = [m.item for m in t.unauthorised if m.seat == seat]
        for e in t.exposures:
            if e.seat % 2 == seat % 2:
                items.append(UnauthorisedItem("exposed cards (GD-7)", e.seat, tuple(sort_cards(e.cards))))
        if items:
            extras["unauthorised"] = tuple(items)
        return extras


_REPORT_DUE = {"situation": "report"}


# ---------------------------------------------------------------------------------------------
# The effect handlers: one per table-effect kind a 掼蛋 ruling may list. Each does exactly
# what its effect says through the primitives above, or refuses (RulingRefused) before
# changing anything when the table is not as the effect says. No handler decides anything
# the ruling has not said (who chooses first, the shuffler, the seats of a pass sequence…).


class _Plan(RulingPlan):
    """A ruling being carried out on a 掼蛋 deal, with the match around it (or None). One
    primitive may carry out several listed effects (the Returns of one seat's laid cards are
    one ``table.returned``; an ``Expose`` followed by the ``LeadOption`` or ``PenaltyCards`` of
    its cards is one exposure; a ``RandomDraw`` restores the order to the drawer's 下家)."""

    __slots__ = ("match",)

    def __init__(self, reason: str, effects: Sequence[Any], answers: int | None, match: Any) -> None:
        super().__init__(reason, effects, answers)
        self.match = match


def _seat_of(effect: Any) -> int:
    if effect.seat is None:
        raise refuse(effect, "names no seat")
    return effect.seat


def _awaiting(deal: Any, effect: Any) -> None:
    if deal.phase is not Phase.AWAITING_RULING:
        raise refuse(effect, "the table is not waiting for a ruling")


def _on_return(deal: Any, effect: Any, plan: _Plan) -> None:
    """The cards go back: a card drawn out of turn onto the stock, cards laid on the table
    into the hand (every Return of the seat in the ruling at once)."""
    seat = _seat_of(effect)
    cards = [Card(c) for c in effect.cards]
    t = deal.table
    if t.grab is not None and t.grab.seat == seat:
        if cards != [t.grab.card]:
            raise refuse(effect, f"seat {seat} drew {t.grab.card} out of turn, not {' '.join(effect.cards)}")
        deal.return_cards(seat, plan.reason)
        return
    laid = t.on_table.get(seat, [])
    taken = []
    while (more := plan.take("Return", seat=seat)) is not None:
        taken.append(more)
    for more in taken:
        cards += [Card(c) for c in more.cards]
    need, have = Counter(cards), Counter(laid)
    if not cards or any(have[c] < n for c, n in need.items()):
        raise refuse(effect, f"seat {seat} has not got these cards lying on the table "
                      f"({' '.join(codes(sort_cards(laid))) or 'none'})")
    whole = need == have
    deal.return_cards(seat, plan.reason, only=None if whole else cards)


def _on_expose(deal: Any, effect: Any, plan: _Plan) -> None:
    """暴露张: the cards lie face up, still their owner's; with the ``LeadOption`` (the
    partner's next lead, chosen by the 上家) or the ``PenaltyCards`` of the same cards listed
    after it, that follows at once."""
    seat = _seat_of(effect)
    cards = sort_cards(Card(c) for c in effect.cards)
    hand = deal.hands[seat]
    exposed = Counter(c for e in deal.table.exposures if e.seat == seat for c in e.cards)
    if not cards or any(hand[c] - min(exposed[c], hand[c]) < n for c, n in Counter(cards).items()):
        raise refuse(effect, f"seat {seat} does not hold these cards unexposed")
    reading, then = None, "none"
    lead = plan.take("LeadOption", chooser=prev_seat(seat), restricted_seat=partner(seat))
    if lead is not None:
        reading = next((r for r in readings(cards, deal.level, deal.rules) if kind_key(r) == lead.exposed_kind), None)
        if reading is None:
            raise refuse(effect, f"the cards do not form a {lead.exposed_kind} for the lead option")
        then = "lead_option"
    elif plan.take("PenaltyCards", seat=seat, cards=effect.cards) is not None:
        then = "penalty"
    deal.expose(seat, cards, plan.reason, then=then, reading=reading, only_new=False)


def _on_with_expose(deal: Any, effect: Any, plan: _Plan) -> None:
    raise refuse(effect, "is carried out with the Expose of its cards, listed before it "
                  "(LeadOption: chooser the owner's 上家, restricted seat its partner)")


def _on_bar(deal: Any, effect: Any, plan: _Plan) -> None:
    """禁出一手, scope 'next_turn' (GD-2.3.1) or 'round' (GD-2.2)."""
    if effect.scope == "round":
        deal.bar_in_round(effect.seat, plan.reason)
    elif effect.scope == "next_turn":
        deal.bar_next_play(effect.seat, plan.reason)
    else:
        raise refuse(effect, "掼蛋 bars a seat's next play in this round or its next turn")


def _on_restore_order(deal: Any, effect: Any, plan: _Plan) -> None:
    """``seat`` acts once the wait is over."""
    _awaiting(deal, effect)
    deal.restore_turn(effect.seat, plan.reason)


def _on_random_draw(deal: Any, effect: Any, plan: _Plan) -> None:
    """GD-1.1.3b: ``to`` draws a card at random from ``source``'s hand (REFEREE stream); the
    draw goes on with ``to``'s 下家 (the ``RestoreOrder`` listed with it)."""
    if effect.source is None or effect.to is None or effect.source == effect.to or effect.count != 1:
        raise refuse(effect, "a random draw here is one card from one seat's hand to another seat")
    if deal.phase is not Phase.AWAITING_RULING or deal.table.resume_phase is not Phase.DRAW:
        raise refuse(effect, "a random draw is carried out during the draw")
    if not deal.sizes[effect.source]:
        raise refuse(effect, f"seat {effect.source} holds no card")
    if plan.take("RestoreOrder", seat=next_seat(effect.to)) is None:
        raise refuse(effect, f"the draw goes on with seat {next_seat(effect.to)}: list RestoreOrder with it")
    deal.random_draw(effect.source, effect.to, plan.reason)


def _on_redeal(deal: Any, effect: Any, plan: _Plan) -> None:
    """The cards are gathered and drawn again (a fresh deck for a short one)."""
    if deal.seed is None:
        raise refuse(effect, "a deal from explicit hands cannot be redealt")
    deal.redeal(effect.fresh_deck, plan.reason + (": short deck" if effect.fresh_deck else ""))


def _on_correct_play(deal: Any, effect: Any, plan: _Plan) -> None:
    """``seat`` acts again on its attempt (``cards``, back in its hand); the cards the
    correction does not use are then dealt with as the ruling said (``unused``)."""
    if not effect.cards:
        raise refuse(effect, "names no attempt's cards to correct")
    if effect.unused is None:
        raise refuse(effect, "does not say what becomes of the cards the correction leaves unused")
    cards = sort_cards(Card(c) for c in effect.cards)
    if not holds(deal.hands[effect.seat], cards):
        raise refuse(effect, f"seat {effect.seat} does not hold the attempt's cards (list their Return first)")
    deal.await_correction(effect.seat, cards, plan.reason, unused=effect.unused)


def _on_play_stands(deal: Any, effect: Any, plan: _Plan) -> None:
    """The cards ``seat`` left lying on the table stand as its play, as ``reading``."""
    laid = deal.table.on_table.get(effect.seat)
    if not laid:
        raise refuse(effect, f"no cards of seat {effect.seat} lie on the table")
    if effect.reading is None:
        raise refuse(effect, "names no combination for the cards to stand as")
    reading = Reading.from_code(effect.reading)
    if reading not in readings(sort_cards(laid), deal.level, deal.rules):
        raise refuse(effect, f"the cards lying on the table are no {effect.reading}")
    deal.stand_play(effect.seat, laid, reading, plan.reason + ": the rest stands")


def _on_report_again(deal: Any, effect: Any, plan: _Plan) -> None:
    deal.report_again(effect.seat)


def _on_pass_sequence(deal: Any, effect: Any, plan: _Plan) -> None:
    """GD-4.2.3 / GD-4.2.4: the seats the ruling named may pass in turn, even with the lead."""
    active = deal._active()
    if not effect.seats or any(s not in active for s in effect.seats):
        raise refuse(effect, "names a seat no longer in play")
    deal.start_pass_sequence(effect.offender, effect.then, plan.reason, seats=effect.seats)


def _on_replay(deal: Any, effect: Any, plan: _Plan) -> None:
    """GD-4.2.2: ``chooser`` is offered to take back the plays since the unreported play
    ('replay'), or the offender's partner its own ('partner_replay'); no chooser: nobody is
    offered it (the plays stand)."""
    if effect.chooser is None:
        return
    lr = deal.table.latent_report
    if lr is None or lr.seq != plan.answers:
        raise refuse(effect, "no unreported play awaits this ruling: nothing to take back")
    if effect.chooser not in effect.seats:
        raise refuse(effect, f"seat {effect.chooser} is not one of the seats whose plays may be replayed")
    if effect.purpose == "partner_replay":
        deal.offer_choice(effect.chooser, "partner_replay", REPLAY_OPTIONS)
    else:
        deal.offer_replay(effect.chooser)


def _on_unauthorised(deal: Any, effect: Any, plan: _Plan) -> None:
    """GD-7: ``seats`` may not use what the information shows."""
    if effect.source is None:
        raise refuse(effect, "names no seat the information came from")
    deal.mark_unauthorised(effect.seats, effect.source, [Card(c) for c in effect.cards],
                           effect.what or plan.reason)


def _on_later(deal: Any, effect: Any, plan: _Plan) -> None:
    """RedoTribute / RedoReturn: the seat's own next tribute or return carries it out."""


def _scheduled(deal: Any, match: Any) -> dict[str, Any] | None:
    if match is not None:
        s = match.scheduled
        return None if s is None else dict(
            no_tribute_seats=s.no_tribute_seats, no_tribute=s.no_tribute, shuffler=s.shuffler,
            cutter=s.cutter, first_drawer=s.first_drawer, leader=s.leader)
    return deal.table.next_deal


def _schedule(deal: Any, match: Any, **procedure: Any) -> None:
    if match is None:
        deal.schedule_next_deal(**procedure)
    elif match.ended is None:            # the match is over: no next deal to set up
        match._schedule_next_deal(**procedure)


def _on_no_tribute_next_deal(deal: Any, effect: Any, plan: _Plan) -> None:
    """GD-5.1: ``seat`` gives no tribute next deal (added to the procedure in force)."""
    current = _scheduled(deal, plan.match)
    if current is None:
        _schedule(deal, plan.match, no_tribute_seats=(effect.seat,))
        return
    merged = dict(current)
    merged["no_tribute_seats"] = tuple(sorted(set(current["no_tribute_seats"]) | {effect.seat}))
    _schedule(deal, plan.match, **merged)


def _on_next_deal_procedure(deal: Any, effect: Any, plan: _Plan) -> None:
    """GD-5.2: no tribute next deal; the shuffler, cutter, first drawer and leader named."""
    _schedule(deal, plan.match, no_tribute=True, shuffler=effect.shuffler, cutter=effect.cutter,
              first_drawer=effect.first_drawer, leader=effect.leader)


CARRY_ORDER: dict[str, int] = {kind: i for i, kind in enumerate((
    "Return", "RandomDraw", "Redeal", "Expose", "LeadOption", "PenaltyCards", "BarOnePlay", "ReportAgain",
    "Replay", "PassSequence", "UnauthorisedInformation", "CorrectPlay", "PlayStands", "RedoTribute",
    "RedoReturn", "RestoreOrder", "NoTributeNextDeal", "NextDealProcedure"))}
"""The order in which the table carries out a ruling's effects, by kind: the cards go back
before they are exposed, a seat is barred before its turn comes, the next deal's procedure
is set last (before a forced result may end the match)."""

EFFECT_HANDLERS: dict[str, Any] = {
    "Return": _on_return,
    "Expose": _on_expose,
    "LeadOption": _on_with_expose,
    "PenaltyCards": _on_with_expose,
    "BarOnePlay": _on_bar,
    "RestoreOrder": _on_restore_order,
    "RandomDraw": _on_random_draw,
    "Redeal": _on_redeal,
    "CorrectPlay": _on_correct_play,
    "PlayStands": _on_play_stands,
    "ReportAgain": _on_report_again,
    "PassSequence": _on_pass_sequence,
    "Replay": _on_replay,
    "UnauthorisedInformation": _on_unauthorised,
    "RedoTribute": _on_later,
    "RedoReturn": _on_later,
    "NoTributeNextDeal": _on_no_tribute_next_deal,
    "NextDealProcedure": _on_next_deal_procedure,
}
"""Effect kind → handler(deal, effect, plan): the one place a 掼蛋 ruling's table effects
are carried out (``TablePrimitives.carry_out``)."""


def _on_level_penalty(deal: Any, row: Any, plan: _Plan) -> None:
    """LevelDiffPenalty: off the side's match score (a lone deal: recorded as an event)."""
    if plan.match is not None:
        plan.match._add_level_penalty(row.side, row.sanction.n, reason=row.clause)
    else:
        deal.stream.emit(ev.LevelPenalty, team=row.side, levels=row.sanction.n, reason=row.clause)


def _on_forced_last(deal: Any, row: Any, plan: _Plan) -> None:
    """GD-5.1 单下: the seat is judged 下游 and plays no more."""
    if row.seat is not None and deal.phase is not Phase.SCORED:
        deal.place_last(row.seat, f"{row.clause}: judged 下游 (单下)")


def _on_forced_double_last(deal: Any, row: Any, plan: _Plan) -> None:
    """GD-5.2 双下: the other side 上游 and 二游 (see ``double_last_order``)."""
    if deal.phase is Phase.SCORED:
        return
    order = double_last_order(deal, row.side)
    why = f"{row.clause}: 双下 for side {row.side}"
    if plan.match is not None:
        plan.match._force_result(order, why)
    else:
        deal._force_result(order, why)


def double_last_order(deal: Any, side: int) -> tuple[int, int, int, int]:
    """The 双下 result: the non-offending side 上游 and 二游, the offending side after it.
    Within a side, places the play already settled stand: a seat that went out is ahead of
    its partner, a seat judged 下游 (单下) is behind it; else the lower seat first."""
    finished = list(deal.finish_order)
    judged = deal.table.placed_last if deal.table is not None else []

    def ranked(team: int) -> list[int]:
        def key(s: int) -> tuple[int, int]:
            if s in finished:
                return (0, finished.index(s))
            return (2, s) if s in judged else (1, s)
        return sorted((team, team + 2), key=key)

    return tuple(ranked(1 - side) + ranked(side))  # type: ignore[return-value]


SANCTION_HANDLERS: dict[str, Any] = {
    "LevelDiffPenalty": _on_level_penalty,
    "ForcedLast": _on_forced_last,
    "ForcedDoubleLast": _on_forced_double_last,
    # recorded in the ledger only: nothing changes at the table
    "Warning": None, "RecordedViolation": None, "Suspension": None, "AdjustedScore": None,
}
"""Sanction kind → handler(deal, imposed row, plan), None: recorded only."""
