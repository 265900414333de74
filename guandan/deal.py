"""One 掼蛋 deal as a deterministic state machine (guandan.md §1, §5, §6).

    Deal.drawn(seed, level, …)      the physical draw (shuffle, cut, 明牌, one card at a
                                     time), then TRIBUTE/RETURN when a previous finishing
                                     order is given, then PLAY
    Deal.from_hands(hands, level, leader)   straight to PLAY (puzzles, tests, training)

Phases: DRAW (performed by the constructor: no decisions in strict mode) → TRIBUTE →
RETURN → PLAY → SCORED. Every decision goes through ``apply``; its validation lives in
one function, ``illegality(action)``, for both modes: the mode decides only what happens to
an illegal action (strict: IllegalAction with the reason; refereed: an irregularity
recorded, or the action refused). State is kept in plain public fields (hands as
count lists, the top play, who passed, announced counts) for the table primitives.

``mode="refereed"`` (``guandan.refereed``): an action that breaks a
rule is recorded as an irregular attempt and the deal waits for a referee's ruling
(``phase`` AWAITING_RULING) instead of raising; the draw is a decision (``Draw``); 报牌 is a step
of its own (``Report``; ``report_step=False``: the engine reports correctly, for runs in
which no agent can get it wrong); the table primitives a ruling uses are methods of the
deal. The rule path is one: the engine's methods consult the refereed state (bars,
exposures, lead restrictions, pass sequences, latent reports) only when ``table`` is not
None, and strict mode (the default) has no table.

Randomness: a deal numbered ``d`` with seed ``S`` draws from ``tabletop.rng`` streams
``(S, d, SHUFFLE)``, ``(S, d, CUT)``, ``(S, d, FACE_UP)`` and, when no shuffler is given,
``(S, d, FIRST_BANKER)`` for the first shuffler.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Sequence
from typing import Any, cast

import attrs
from mypy_extensions import mypyc_attr

from guandan import events as ev
from guandan.actions import Action, CallReferee, Choose, Draw, GiveTribute, Pass, Play, Report, ReturnCard
from guandan.combos import BOMB_CLASS, Reading, readings, why_not_beats
from guandan.movegen import analysed_hand
from guandan.observation import Observation, Phase, TopPlay, TributeRecord
from guandan.ranks import level_index, level_text
from guandan.rules import GuandanRules
from guandan.legal import Illegality, LegalActions, _Choices
from guandan import refereed
from guandan.refereed.state import _PLAY, _SCORED, TableState
from guandan.tribute import (
    TributePlan, finishing_order, level_gain, plan_tribute, return_choices, tribute_choices,
)
from tabletop import refereed as refereed_core
from tabletop import rng as streams
from tabletop.cards import (
    CARDS, NUM_CARD_KINDS, Card, as_cards, codes, count_list, format_cards, full_deck, sort_cards,
)
from tabletop.errors import IllegalAction
from tabletop.events import Event, EventStream
from tabletop.rulings import MODES, REFEREED
from tabletop.seats import NUM_SEATS, REFEREE, next_seat, partner, prev_seat, seats_from

HAND_SIZE = 27
DECK_SIZE = 108
REPORT_LIMIT = 10
"""报牌: a seat holding this many cards or fewer announces its count after each play."""

_CANONICAL = sorted(range(NUM_CARD_KINDS), key=lambda i: CARDS[i].rank_index * 5 + CARDS[i].suit_index)
_PHASE_ACTION = {Phase.TRIBUTE: GiveTribute, Phase.RETURN: ReturnCard}
_ACTIONS = (Play, Pass, GiveTribute, ReturnCard)
_NEW = object.__new__
_SET_TOP_SEAT, _SET_TOP_CARDS, _SET_TOP_READING = (TopPlay.__dict__[name].__set__ for name in ("seat", "cards", "reading"))
"""The slots' setters of TopPlay (a frozen attrs class): what its ``__init__`` does, called directly."""



@attrs.frozen
class DealResult:
    """``finish_order``: all four seats (上游, 二游, 三游, 下游; after a 1-2 finish the two
    left holding cards follow as the 上游's 下家 then 上家, as ``tribute.finishing_order``).
    ``team``/``levels``: the 上游's team and its gain (3 / 2 / 1). ``plays``: plays made.
    ``forced``: the result was set by a referee ruling (``force_result``, or a seat judged
    last)."""

    finish_order: tuple[int, int, int, int]
    team: int
    levels: int
    plays: int
    forced: bool = False


def _make_again(cls: type["Deal"], how: str, *args: Any, **kwargs: Any) -> "Deal":
    """``cls.drawn(…)`` or ``cls.from_hands(…)``: a function of the module, so that a deal's
    record of how it was made pickles in the compiled build too (a compiled classmethod does not)."""
    made: Deal = getattr(cls, how)(*args, **kwargs)
    return made


# Compiled builds: a Python class all the same (its methods compiled), as the refereed take-back
# copies and restores a deal's whole state through its __dict__.
@mypyc_attr(native_class=False)
class Deal:
    """A 掼蛋 deal. Build it with ``Deal.drawn`` or ``Deal.from_hands``."""

    def __init__(self, level: "str | int", *, rules: GuandanRules | None = None,
                 stream: EventStream | None = None, deal_number: int = 1, mode: str = "strict",
                 report_step: bool = True) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
        self.level = level_index(level)
        self.rules = GuandanRules() if rules is None else rules
        self.stream = EventStream(deal=deal_number) if stream is None else stream
        self.stream.deal = deal_number
        self.deal_number = deal_number
        self.mode = mode
        self.seed: int | None = None
        self.table: TableState | None = TableState(refereed.draw.DrawState()) if mode == REFEREED else None
        """Refereed mode's state (None in strict mode)."""
        if self.table is not None:
            self.table.report_step = report_step
            self.table.record = refereed.rebuild.Record(None, self.stream.next_seq)

        self.phase = Phase.DRAW
        self.stock: list[Card] = []
        """Cards not yet drawn, next card first."""
        self.hands: list[list[int]] = [[0] * NUM_CARD_KINDS for _ in range(NUM_SEATS)]
        self.sizes = [0] * NUM_SEATS
        self.played: list[tuple[Card, ...]] = [()] * NUM_SEATS
        self.turn: int | None = None
        self.leader: int | None = None
        self.top: TopPlay | None = None
        self.passed: list[int] = []
        self.announced: list[int | None] = [None] * NUM_SEATS
        self.finish_order: list[int] = []
        self.plays = 0
        self.tribute_plan: TributePlan | None = None
        self.tributes: list[TributeRecord] = []
        self.pending: list[tuple[int, int]] = []
        """Payments (payer, receiver) still to give in TRIBUTE, or returns still to make
        (receiver, payer) in RETURN."""
        self.first_leader: int | None = None
        self.face_up: tuple[int, Card] | None = None
        """明牌: (the seat that drew it, the card), in a first deal."""
        self.forced = False
        self._result: DealResult | None = None
        self.hand_cache: list[tuple[Card, ...] | None] = [None] * NUM_SEATS
        self.analysed: list[Any] = [None] * NUM_SEATS
        """Per seat, its hand analysed by the move generator (None when the hand changed):
        kept, as ``hand_cache``, while the hand is the same."""
        self.shrunk_from: list[Any] = [None] * NUM_SEATS
        """Per seat, a hand it analysed before and has since only lost cards from (or None):
        what that hand could not play, the seat cannot play now (``movegen`` skips it)."""
        self.legal_cache: LegalActions | None = None

    # -----------------------------------------------------------------------------------------
    # Construction

    @classmethod
    def drawn(
        cls,
        seed: int,
        level: "str | int" = "2",
        *,
        deal_number: int = 1,
        shuffler: int | None = None,
        cutter: int | None = None,
        first_drawer: int | None = None,
        leader: int | None = None,
        face_up: bool | None = None,
        previous_order: Sequence[int] | None = None,
        no_tribute_seats: Collection[int] = frozenset(),
        no_tribute: bool = False,
        rules: GuandanRules | None = None,
        stream: EventStream | None = None,
        mode: str = "strict",
        report_step: bool = True,
    ) -> "Deal":
        """A deal by physical draw. The shuffler (default: seeded) shuffles, the cutter
        (default: the shuffler's 上家) cuts, players draw one card at a time in play order
        from ``first_drawer`` (default: the shuffler's 下家), 27 each.

        Who leads: with ``previous_order`` (the last deal's finishing order) the tribute
        plan decides (``no_tribute_seats``: seats excused from paying, GD-5.1;
        ``no_tribute``: no tribute at all, GD-5.2, where ``leader`` must be given or the
        上游 leads); without it the deal is a first deal: ``leader`` if given, else the
        drawer of the face-up card (``face_up`` defaults to True exactly then), or seat 0
        when ``rules.first_deal_lead`` says so."""
        deal = cls(level, rules=rules, stream=stream, deal_number=deal_number, mode=mode, report_step=report_step)
        if deal.table is not None:  # how to make it again (GD-4.2.2's take-back rebuilds it)
            deal.table.record.make = functools.partial(
                _make_again, cls, "drawn", seed, level, deal_number=deal_number, shuffler=shuffler, cutter=cutter,
                first_drawer=first_drawer, leader=leader, face_up=face_up, previous_order=previous_order,
                no_tribute_seats=no_tribute_seats, no_tribute=no_tribute, rules=rules, mode=mode,
                report_step=report_step)
        if previous_order is None and leader is None and not face_up and deal.rules.first_deal_lead == "seat_0":
            leader = 0
        if shuffler is None:
            shuffler = int(streams.generator(seed, deal_number, streams.FIRST_BANKER).integers(NUM_SEATS))
        cutter = prev_seat(shuffler) if cutter is None else cutter
        first_drawer = next_seat(shuffler) if first_drawer is None else first_drawer
        for name, seat in (("shuffler", shuffler), ("cutter", cutter), ("first_drawer", first_drawer)):
            _check_seat(seat, name)
        if face_up is None:
            face_up = previous_order is None and leader is None
        if previous_order is None and leader is None and not face_up:
            raise ValueError("a first deal needs a leader: face_up=True or an explicit leader")

        deal.seed = seed
        emit = deal.stream.emit
        emit(ev.DealStarted, level=level_text(deal.level), source="draw",
             shuffler=shuffler, cutter=cutter, first_drawer=first_drawer)
        if deal.table is not None:
            if leader is not None:
                _check_seat(leader, "leader")
            deal.table.draw.setup = dict(
                shuffler=shuffler, cutter=cutter, first_drawer=first_drawer, face_up=face_up,
                previous_order=previous_order, no_tribute_seats=no_tribute_seats,
                no_tribute=no_tribute, leader=leader, face_leader=None)
            refereed.draw.shuffle_and_cut(deal, deal.table.draw.setup)
            return deal
        deck, deck_codes, position = deal.shuffle_and_cut(shuffler, cutter, first_drawer, face_up)
        face_leader = None if position is None else (first_drawer + position) % NUM_SEATS
        deal.draw_cards(deck, deck_codes, first_drawer)
        emit(ev.HandsComplete, sizes=tuple(deal.sizes))

        if previous_order is not None:
            deal.start_tribute(previous_order, no_tribute_seats, no_tribute, leader)
        elif leader is not None:
            _check_seat(leader, "leader")
            deal.start_play(leader, "given")
        else:
            assert face_leader is not None  # a drawn deal turns a card face up
            deal.start_play(face_leader, "face_up")
        return deal

    def shuffle_and_cut(self, shuffler: int, cutter: int, first_drawer: int, face_up: bool,
                        attempt: int = 0) -> tuple[list[Card], tuple[str, ...], int | None]:
        """The shuffle (the deal's SHUFFLE stream; a redeal's ``attempt`` numbers its own
        streams), the cut and, with ``face_up``, the card turned face up, each logged: the deck
        in drawing order, its codes, and the face-up card's position (None without one). Strict
        and refereed deals alike."""
        seed = self.seed
        assert seed is not None, "a deal from explicit hands is never shuffled"
        path = () if attempt == 0 else (attempt,)
        emit = self.stream.emit
        order = streams.generator(seed, self.deal_number, streams.SHUFFLE, *path).permutation(DECK_SIZE)
        deck = full_deck(2)
        deck = [deck[i] for i in order.tolist()]  # (indexing with numpy ints is slow)
        deck_codes = codes(deck)
        emit(ev.DeckShuffled, seat=shuffler, deck=deck_codes)
        cut = int(streams.generator(seed, self.deal_number, streams.CUT, *path).integers(1, DECK_SIZE))
        deck = deck[cut:] + deck[:cut]
        deck_codes = deck_codes[cut:] + deck_codes[:cut]
        emit(ev.DeckCut, seat=cutter, position=cut)
        if not face_up:
            return deck, deck_codes, None
        position = int(streams.generator(seed, self.deal_number, streams.FACE_UP, *path).integers(DECK_SIZE))
        face_leader = (first_drawer + position) % NUM_SEATS
        self.face_up = (face_leader, deck[position])
        emit(ev.CardFacedUp, seat=face_leader, card=str(deck[position]), position=position)
        return deck, deck_codes, position

    def draw_cards(self, cards: Sequence[Card], cards_codes: Sequence[str], seat: int) -> int:
        """``cards`` drawn one at a time in play order from ``seat``, each logged (one
        CardDrawn event each, emitted in one call); the seat to draw next. The hands' caches
        are the caller's to forget."""
        hands, sizes = self.hands, self.sizes
        drawing: list[tuple[int | None, dict[str, Any]]] = []
        for card, code in zip(cards, cards_codes):
            hands[seat][card] += 1
            sizes[seat] += 1
            drawing.append((seat, {"card": code}))
            seat = (seat + 1) % NUM_SEATS
        self.stream.emit_each(ev.CardDrawn, drawing)
        return seat

    @classmethod
    def from_hands(
        cls,
        hands: Sequence["str | Iterable[Card | int | str]"],
        level: "str | int",
        leader: int | None,
        rules: GuandanRules | None = None,
        *,
        finished: Sequence[int] = (),
        previous_order: Sequence[int] | None = None,
        no_tribute_seats: Collection[int] = frozenset(),
        no_tribute: bool = False,
        stream: EventStream | None = None,
        deal_number: int = 1,
        mode: str = "strict",
        report_step: bool = True,
    ) -> "Deal":
        """A deal in PLAY from explicit hands (text or card lists, any sizes; at most two
        copies of each card overall). ``finished``: seats that already went out, in order
        (their hands must be empty); every other seat must hold cards.

        With ``previous_order`` the deal starts with the tribute of that finishing order
        instead (as ``drawn``; ``leader`` None lets the tribute plan choose)."""
        if len(hands) != NUM_SEATS:
            raise ValueError(f"four hands are needed, got {len(hands)}")
        deal = cls(level, rules=rules, stream=stream, deal_number=deal_number, mode=mode, report_step=report_step)
        hands = [h if isinstance(h, str) else list(h) for h in hands]
        if deal.table is not None:  # how to make it again (GD-4.2.2's take-back rebuilds it)
            deal.table.record.make = functools.partial(
                _make_again, cls, "from_hands", hands, level, leader, rules, finished=finished, previous_order=previous_order,
                no_tribute_seats=no_tribute_seats, no_tribute=no_tribute, deal_number=deal_number, mode=mode,
                report_step=report_step)
        parsed = [sort_cards(as_cards(h)) for h in hands]
        total = count_list(c for h in parsed for c in h)
        over = [str(CARDS[i]) for i in range(NUM_CARD_KINDS) if total[i] > 2]
        if over:
            raise ValueError(f"more than two copies of: {' '.join(over)}")
        finished = [int(s) for s in finished]
        for seat, cards in enumerate(parsed):
            if (seat in finished) != (not cards):
                problem = "went out but holds cards" if cards else "holds no cards (list it in finished)"
                raise ValueError(f"seat {seat} {problem}")
        if len(set(finished)) != len(finished) or len(finished) > 2 or (
                len(finished) == 2 and finished[1] == partner(finished[0])):
            raise ValueError(f"finished {finished} leaves no deal to play")
        if previous_order is not None and finished:
            raise ValueError("a deal with tribute starts before anyone has gone out")
        if leader is not None or previous_order is None:
            _check_seat(leader, "leader")
        if leader in finished:
            raise ValueError(f"the leader (seat {leader}) has gone out")
        for seat, cards in enumerate(parsed):
            for c in cards:
                deal.hands[seat][c] += 1
            deal.sizes[seat] = len(cards)
            deal.hand_cache[seat] = deal.analysed[seat] = None
        deal.finish_order = list(finished)
        deal.stream.emit(ev.DealStarted, level=level_text(deal.level), source="hands")
        deal.stream.emit(ev.HandsSet, hands=tuple(codes(h) for h in parsed))
        for place, seat in enumerate(finished, start=1):
            deal.stream.emit(ev.PlayerFinished, seat=seat, place=place)
            deal.announced[seat] = 0
        if previous_order is not None:
            deal.start_tribute(previous_order, no_tribute_seats, no_tribute, leader)
        else:
            assert leader is not None  # _check_seat above
            deal.start_play(leader, "given")
        return deal

    @classmethod
    def from_observation(cls, observation: Observation, hands: Sequence[Iterable[Card]]) -> "Deal":
        """A strict deal at the point of play ``observation`` shows — its seat to act, the
        round's leader and play to beat, the seats that passed, the 报牌, the cards played,
        the seats out — holding ``hands`` (the observer's own and a guess at the others': a
        search's determinisation). Its events are taken. ``plays`` counts the cards played
        (an observation does not count plays; only the result reports it)."""
        obs = observation
        deal = cls.from_hands(hands, obs.level, obs.seat, finished=obs.finish_order)
        deal.leader = obs.leader
        deal.top = obs.top
        deal.passed = list(obs.passed)
        deal.announced = list(obs.announced)
        deal.played = list(obs.played)
        deal.plays = sum(1 for cards in obs.played for _ in cards)
        deal.take_events()
        return deal

    # -----------------------------------------------------------------------------------------
    # Engine protocol

    @property
    def to_act(self) -> int | str | None:
        """The seat to decide now: whose turn it is; in refereed mode first the referee
        (``REFEREE``) while a ruling is awaited, then whoever owes the table an answer (to an
        out-of-turn play, a choice, 报牌)."""
        t = self.table
        if t is None:
            return self.turn
        if t.awaiting:
            return REFEREE
        if self.phase is _SCORED:
            return None
        if t.oot is not None:
            return t.oot.responder
        if t.choice is not None:
            return t.choice.seat
        if t.report_due is not None:
            return t.report_due
        return self.turn

    @property
    def result(self) -> DealResult | None:
        return self._result

    @property
    def level_text(self) -> str:
        return level_text(self.level)

    def take_events(self) -> list[Event]:
        return self.stream.take()

    def legal_actions(self) -> LegalActions:
        if self.legal_cache is None:
            if self.table is not None and self.table.awaiting:   # the referee's seat: no seat may act (not cached)
                return LegalActions(0, [], False)
            self.legal_cache = self._compute_legal()
        return self.legal_cache

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return the events it produced (with any events still
        pending in the stream before them). What happens to an illegal one (``illegality``)
        is the mode's: strict mode raises IllegalAction with its message and changes
        nothing; refereed mode records it as an irregularity or refuses it (see
        ``guandan.refereed``)."""
        t = self.table
        legal = self.legal_cache
        kind = type(action)
        if legal is None or not legal.handed_out(action):
            if t is not None:
                return refereed.engine.apply(self, action)
            found = self.illegality(action)
            if found is not None:
                raise IllegalAction(found.message)
        elif t is not None and not ((kind is Play or kind is Pass) and self.phase is _PLAY and t.oot is None
                                    and t.sequence is None and t.correction is None and t.latent_report is None):
            return refereed.engine.apply(self, action)
        # a legal action (refereed: a play or pass handed out by legal_actions() in ordinary play)
        self.legal_cache = None
        if t is not None:
            t.record.actions.append(action)
        if type(action) is Play:
            self.stream.emit(ev.CardsPlayed, seat=action.seat, cards=codes(action.cards),
                             reading=action.reading.code)
            self.play_cards(action.seat, action.cards, action.reading)
        elif type(action) is Pass:
            self.stream.emit(ev.Passed, action.seat)  # (no keyword: compiled, a plain vector call)
            self.pass_turn(action.seat)
        elif type(action) is GiveTribute:
            self.give_tribute(action.seat, action.card)
        else:
            assert type(action) is ReturnCard  # the last action strict play hands out
            self.give_return(action.seat, action.card)
        if t is not None and self.phase is _PLAY and (t.bars or t.lead_options or t.exposures or t.end_pending):
            refereed.engine.settle(self)
        return self.stream.take()

    def why_illegal(self, action: Any) -> str | None:
        """Why ``action`` may not be applied now (the message strict mode raises), or None."""
        found = self.illegality(action)
        return None if found is None else found.message

    def illegality(self, action: Any) -> Illegality | None:
        """Why a play, pass, tribute or return may not be applied now, or None if it may:
        the one classification of both modes. Its ``code`` is an irregularity id a refereed
        table records (``RECORDED``: out of turn, pass on lead, wrong kind, does not beat,
        wrong tribute or return; ``facts`` are the referee's) or says why the action is
        refused in either mode; ``message`` is what strict mode raises. Refereed mode also
        counts the table's turn (an out-of-turn play to answer) and restrictions (lead
        restrictions, penalty cards, a pass sequence)."""
        phase = self.phase
        if phase is Phase.SCORED:
            return Illegality("deal_over", "the deal is over")
        kind = type(action)
        if kind not in _ACTIONS:
            return Illegality("not_an_action", f"not a 掼蛋 action: {action!r}")
        if phase is Phase.AWAITING_RULING:
            return Illegality("awaiting_ruling", "the table waits for the referee's ruling")
        t = self.table
        seat = action.seat
        turn = self.turn if t is None else refereed.state.play_turn(self) if phase is Phase.PLAY else self.to_act
        if seat != turn:
            code = "out_of_turn"
            if phase is Phase.PLAY and (kind is Play or kind is Pass):
                code = "play_out_of_turn" if kind is Play else "announce_out_of_turn"
            return Illegality(code, f"not seat {seat}'s turn (seat {turn} is to act)")
        expected = _PHASE_ACTION.get(phase)
        if expected is not None and kind is not expected:
            return Illegality("wrong_action", f"seat {seat} must give tribute now" if expected is GiveTribute
                              else f"seat {seat} must return a card now")
        if expected is None:
            now = "the deal is in play" if phase is Phase.PLAY else "the cards are being drawn"
            if kind is GiveTribute or kind is ReturnCard:
                return Illegality("wrong_action", f"no {'tribute' if kind is GiveTribute else 'return'} now: {now}")
            if phase is not Phase.PLAY:
                return Illegality("wrong_action", f"no play now: {now}")
        hand = self.hands[seat]
        if kind is Pass:
            if self.top_for(seat) is None and (t is None or t.sequence is None):
                return Illegality("pass_on_lead", "the leader may not pass", {"leading": True})
            return None
        if kind is Play:
            cards = action.cards
            missing = _missing(hand, cards)
            if missing:
                return Illegality("cards_not_in_hand", f"cards not in hand: {' '.join(missing)}")
            if not cards:
                return Illegality("no_cards", "no cards (a pass is not a play)")
            reading = action.reading
            found = readings(cards, self.level, self.rules)
            if reading not in found:
                shown = format_cards(sort_cards(cards))
                if not found:
                    return Illegality("wrong_kind", f"not a combination: {shown}", {"reason": "not a combination"})
                return Illegality("unreadable", f"{shown} cannot be read as {reading.code} "
                                                f"(it reads as {', '.join(r.code for r in found)})")
            top = self.top_for(seat)
            if top is not None:
                why = why_not_beats(reading, top, self.level)
                if why is not None:
                    same = reading.comparison_class == top.comparison_class or top.comparison_class == BOMB_CLASS
                    return Illegality("does_not_beat" if same else "wrong_kind", why,
                                      {"reason": f"{reading.code} on {top.code}"})
            if t is not None:
                broken = refereed.play.restriction_broken(self, seat, cards, reading, top)
                if broken:
                    return Illegality("wrong_kind", broken, {"reason": broken})
            return None
        card = action.card
        if not hand[card]:
            return Illegality("cards_not_in_hand", f"cards not in hand: {card}")
        receiver = self.pending[0][1]
        if kind is GiveTribute:
            choices = tribute_choices(self.hand(seat), self.level)
            if card not in choices:
                return Illegality("wrong_tribute",
                                  f"{card} is not a legal tribute (give one of: {' '.join(map(str, choices))})",
                                  {"given": str(card), "required": codes(choices), "receiver": receiver})
            return None
        to = receiver if action.to is None else action.to
        if to not in range(NUM_SEATS) or to == seat:
            return Illegality("no_recipient", f"cannot return a card to seat {to}")
        choices = return_choices(self.hand(seat), self.level)
        if card not in choices or to != receiver:
            message = (f"{card} is not a legal return (return one of: {' '.join(map(str, choices))})"
                       if card not in choices else f"the card goes back to seat {receiver}, not seat {to}")
            return Illegality("wrong_return", message,
                              {"given": str(card), "allowed": codes(choices), "payer": receiver, "to": to,
                               "wrong_card": card not in choices, "wrong_recipient": to != receiver})
        return None

    def top_for(self, seat: int) -> Reading | None:
        """What a play by ``seat`` must beat now (None: it leads). Refereed: an out-of-turn
        play waiting for its answer is played on."""
        t = self.table
        if t is not None and t.oot is not None and seat == t.oot.responder:
            return t.oot.reading
        top = self.top
        return None if top is None or top.seat == seat else top.reading

    def observe(self, seat: int) -> Observation:
        """What ``seat`` sees now. Its fields are made when first read, from a snapshot
        taken here (copies of whatever changes in place)."""
        table = self.table
        plan = self.tribute_plan
        snapshot = (seat, self.hand_cache[seat] or self.hands[seat][:], self.phase,
                    self.turn if table is None else self.to_act, self.leader, self.top,
                    tuple(self.passed), tuple(self.announced), tuple(self.played),
                    tuple(self.finish_order), tuple(self.tributes), bool(plan and plan.resisted),
                    self.face_up, None if table is None else refereed.observation.observe_extras(self, seat))
        return Observation.deferred(self._observed, snapshot)

    def _observed(self, seat: int, held: "tuple[Card, ...] | list[int]", phase: Phase,
                  to_act: int | str | None, leader: int | None, top: TopPlay | None,
                  passed: tuple[int, ...], announced: tuple[int | None, ...],
                  played: tuple[tuple[Card, ...], ...], finish_order: tuple[int, ...],
                  tributes: tuple[TributeRecord, ...], tribute_resisted: bool,
                  face_up: tuple[int, Card] | None, extras: dict[str, Any] | None) -> dict[str, Any]:
        """The fields of an observation from ``observe``'s snapshot. ``held``: the hand's
        cards, or a copy of its counts (then its cards are the deal's cached ones while the
        hand is still the same); ``extras``: refereed mode's public table state, which may
        replace ``top`` with what is played on (an out-of-turn play waiting for an answer)."""
        if isinstance(held, tuple):
            hand = held
        else:
            hand = self.hand(seat) if self.hands[seat] == held else _hand_cards(held)
        fields = dict(seat=seat, hand=hand, level=self.level, phase=phase, to_act=to_act,
                      leader=leader, top=top, passed=passed, announced=announced, played=played,
                      finish_order=finish_order, tributes=tributes,
                      tribute_resisted=tribute_resisted, face_up=face_up)
        if extras:
            fields.update(extras)
        return fields

    # -----------------------------------------------------------------------------------------
    # Queries

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand in canonical order."""
        cached = self.hand_cache[seat]
        if cached is None:
            cached = self.hand_cache[seat] = _hand_cards(self.hands[seat])
        return cached

    def hand_changed(self, seat: int) -> None:
        """Call after changing ``hands[seat]`` directly (cached views are dropped)."""
        self.hand_cache[seat] = self.analysed[seat] = self.shrunk_from[seat] = None
        self.legal_cache = None

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """Where every card is: 'stock', 'hand 0'…'hand 3' (exposed and penalty cards
        included: they are still the owner's), 'played 0'…'played 3'; refereed mode adds
        'table 0'…'table 3' (laid on the table, not yet played) and 'lost' (fell off the
        table during a flawed draw)."""
        out = {"stock": tuple(self.stock)}
        for seat in range(NUM_SEATS):
            out[f"hand {seat}"] = self.hand(seat)
        for seat in range(NUM_SEATS):
            out[f"played {seat}"] = self.played[seat]
        if self.table is not None:
            for seat in range(NUM_SEATS):
                out[f"table {seat}"] = tuple(self.table.on_table.get(seat, ()))
            out["lost"] = tuple(self.table.draw.lost)
        return out

    def card_counts(self) -> list[int]:
        """How many copies of each card are anywhere at the table (a count list of 54):
        all 2s for a drawn deal, whatever happens."""
        return count_list(c for cards in self.card_locations().values() for c in cards)

    # -----------------------------------------------------------------------------------------
    # Table primitives (the referee will use these)

    def into_hand(self, seat: int, cards: Iterable[Card]) -> None:
        """``cards`` go into ``seat``'s hand (drawn, given, or back from the table): its
        counts, its size and its cached view, together."""
        hand = self.hands[seat]
        n = 0
        for c in cards:
            hand[c] += 1
            n += 1
        self.sizes[seat] += n
        self.hand_cache[seat] = self.analysed[seat] = self.shrunk_from[seat] = None

    def out_of_hand(self, seat: int, cards: Iterable[Card]) -> None:
        """``cards`` leave ``seat``'s hand (laid on the table, given, returned to the
        stock): its counts, its size and its cached view, together."""
        hand = self.hands[seat]
        n = 0
        for c in cards:
            hand[c] -= 1
            n += 1
        self.sizes[seat] -= n
        self.hand_cache[seat] = None
        self.cards_left(seat)

    def cards_left(self, seat: int) -> None:
        """Cards only left ``seat``'s hand: its analysed hand is dropped and remembered as one
        it shrank from (with ``hand_cache`` already dropped)."""
        before = self.analysed[seat]
        if before is not None:
            self.shrunk_from[seat] = before
            self.analysed[seat] = None

    def draw_next(self, seat: int) -> Card:
        """``seat`` draws the next card of the stock."""
        card = self.stock.pop(0)
        self.into_hand(seat, (card,))
        self.stream.emit(ev.CardDrawn, seat=seat, card=str(card))
        return card

    def report(self, seat: int) -> None:
        """报牌: ``seat`` announces its true count."""
        self.announced[seat] = self.sizes[seat]
        self.stream.emit(ev.CardsReported, seat=seat, count=self.sizes[seat])

    # -----------------------------------------------------------------------------------------
    # Refereed mode: what callers outside the table ask of the deal (guandan.refereed does it)

    @property
    def game_phase(self) -> Phase:
        """The phase of play, also while a ruling is awaited."""
        if self.phase is Phase.AWAITING_RULING:
            assert self.table is not None  # only a refereed deal awaits rulings
            return self.table.resume_phase
        return self.phase

    @property
    def awaiting_ruling(self) -> tuple[Any, ...]:
        """The irregularities awaiting a ruling, oldest first (the referee rules on the first)."""
        return tuple(self.table.awaiting) if self.table is not None else ()

    def apply_ruling(self, ruling: Any, match: Any = None) -> None:
        """The referee's seat acts (``guandan.refereed.engine.apply_ruling``)."""
        refereed.engine.apply_ruling(self, ruling, match)

    def carry_out(self, effects: Sequence[Any], sanctions: Sequence[Any] = (), *, reason: str,
                  answers: int | None = None, match: Any = None) -> None:
        """Carry out a ruling on this deal (``guandan.refereed.engine.carry_out``)."""
        refereed.engine.carry_out(self, effects, sanctions, reason=reason, answers=answers, match=match)

    def resolve(self, seq: int | None = None) -> None:
        """End the wait for the ruling on attempt ``seq`` (``tabletop.refereed.resolve``)."""
        refereed_core.resolve(self, seq)

    def referee_rng(self) -> Any:
        """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
        return refereed.state.referee_rng(self)

    def newly_exposed(self, seat: int, cards: Iterable[Card]) -> list[Card]:
        """Those of ``cards`` not lying exposed in front of ``seat`` already."""
        return refereed.restrictions.newly_exposed(self, seat, cards)

    def partner_may_lead(self, seat: int) -> bool:
        """Whether ``seat``'s partner can still have the lead this deal (not out, not 单下)."""
        return refereed.restrictions.partner_may_lead(self, seat)

    def pass_sequence_seats(self, offender: int, then: str) -> list[int]:
        """Who may pass in the GD-4.2.3 / 4.2.4 sequence, in order (seats still in play)."""
        return refereed.pass_sequence.seats_for(self, offender, then)

    def place_last(self, seat: int, reason: str) -> None:
        """单下: ``seat`` is judged 下游 and plays no more (``guandan.refereed.placing``)."""
        refereed.placing.place_last(self, seat, reason)

    def schedule_next_deal(self, **procedure: Any) -> list:
        """A lone deal's next-deal procedure (GD-5.1 / GD-5.2, ``guandan.refereed.next_deal``)."""
        return refereed.next_deal.schedule_next_deal(self, **procedure)

    def force_result(self, finish_order: Sequence[int], reason: str = "") -> list[Event]:
        """End the deal with ``finish_order`` (four seats, or what ``tribute.finishing_order``
        completes), whatever the cards still held; also replaces a result already reached.
        Returns the events."""
        self.impose_result(finish_order, reason)
        return self.stream.take()

    def impose_result(self, finish_order: Sequence[int], reason: str = "") -> None:
        """``force_result`` leaving its events in the stream (a ruling carried out)."""
        order = finishing_order(finish_order)
        self.stream.emit(ev.ResultForced, finish_order=order, reason=reason)
        self.forced = True
        t = self.table
        if t is not None:  # nothing is pending any more but the rulings still awaited
            t.choice = t.report_due = t.sequence = t.correction = None
            t.end_pending = False
        self.finish_order = list(order)
        self._end()

    # -----------------------------------------------------------------------------------------
    # Transitions

    def start_tribute(self, previous_order: Sequence[int], no_tribute_seats: Collection[int],
                       no_tribute: bool, leader: int | None) -> None:
        hands = [self.hand(s) for s in range(NUM_SEATS)]
        tie_to_top = "next_seat"
        if self.rules.equal_double_tribute == "random":  # drawn whether or not the cards tie: one draw per deal
            draw = streams.generator(self.seed or 0, self.deal_number, streams.TRIBUTE_TIE).integers(2)
            tie_to_top = "prev_seat" if draw else "next_seat"
        plan = plan_tribute(previous_order, hands, self.level, no_tribute_seats=no_tribute_seats,
                            no_tribute=no_tribute, leader=leader, tie_to_top=tie_to_top)
        self.tribute_plan = plan
        if plan.resisted:
            self.stream.emit(ev.TributeResisted, payers=tuple(sorted(plan.liable)))
            self.start_play(plan.leader, "resisted")
        elif not plan.payments:
            self.stream.emit(ev.TributeWaived, double=plan.double, excused=plan.excused)
            self.start_play(plan.leader, "no_tribute" if leader is None else "given")
        else:
            self.stream.emit(ev.TributeDue, payments=plan.payments, double=plan.double, excused=plan.excused)
            self.phase = Phase.TRIBUTE
            self.pending = list(plan.payments)
            self.turn = self.pending[0][0]

    def give_tribute(self, payer: int, card: Card, emit: bool = True) -> None:
        receiver = self.pending.pop(0)[1]
        self.move_card(payer, receiver, card)
        self.tributes.append(TributeRecord("tribute", payer, receiver, card))
        if emit:
            self.stream.emit(ev.TributeGiven, seat=payer, card=str(card), receiver=receiver)
        if self.pending:
            self.turn = self.pending[0][0]
        else:
            self.phase = Phase.RETURN
            assert self.tribute_plan is not None  # tribute is being paid
            self.pending = list(self.tribute_plan.returns)
            self.turn = self.pending[0][0]

    def give_return(self, receiver: int, card: Card, emit: bool = True, to: int | None = None) -> None:
        payer = self.pending.pop(0)[1]
        taker = payer if to is None else to
        self.move_card(receiver, taker, card)
        self.tributes.append(TributeRecord("return", receiver, taker, card))
        if emit:
            self.stream.emit(ev.ReturnGiven, seat=receiver, card=str(card), payer=payer)
        if self.pending:
            self.turn = self.pending[0][0]
        else:
            assert self.tribute_plan is not None  # returns are being given
            self.start_play(self.tribute_plan.leader, "tribute")

    def move_card(self, giver: int, taker: int, card: Card) -> None:
        """``card`` goes from ``giver``'s hand to ``taker``'s (a tribute, a return)."""
        self.out_of_hand(giver, (card,))
        self.into_hand(taker, (card,))

    def start_play(self, leader: int, reason: str) -> None:
        self.phase = Phase.PLAY
        self.first_leader = self.leader = self.turn = leader
        self.stream.emit(ev.PlayStarted, seat=leader, reason=reason)
        if self.table is not None:
            refereed.engine.settle(self)

    def play_cards(self, seat: int, cards: tuple[Card, ...], reading: Any) -> None:
        """A legal play, its ``gd.played`` event already emitted: the state after it. In
        refereed mode also the table's bookkeeping (exposed cards used, a lead restriction
        or pass sequence served, a correction carried out, a latent 报牌 followed)."""
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        self.hand_cache[seat] = None
        before = self.analysed[seat]  # as cards_left, inline (every play)
        if before is not None:
            self.shrunk_from[seat] = before
            self.analysed[seat] = None
        left = self.sizes[seat] - len(cards)
        self.sizes[seat] = left
        self.played[seat] = self.played[seat] + cards
        t = self.table
        lr = None
        if t is not None:
            leading = self.top is None or self.top.seat == seat
        self.top = top = _NEW(TopPlay)  # TopPlay(seat, cards, reading) without attrs' __init__ (every play)
        _SET_TOP_SEAT(top, seat)
        _SET_TOP_CARDS(top, cards)
        _SET_TOP_READING(top, reading)
        self.passed = []
        self.plays += 1
        if t is not None:
            t.turns += 1
            t.last_play[seat] = cards
            if t.exposures:
                refereed.restrictions.consume_exposed(self, seat, cards)
            if leading and t.restriction is not None and t.restriction.seat == seat:
                t.restriction = None
            t.sequence = None
            if t.correction is not None and t.correction.seat == seat:
                refereed.correction.expose_unused(self, seat, cards)
            lr = t.latent_report
            if lr is not None:
                if seat == lr.seat:
                    lr.plays_since += 1
                else:
                    refereed.reporting.followed(self, lr, seat, len(cards))
        if left == 0:
            if lr is not None and seat == lr.seat:
                refereed.reporting.discover(self, 5)
                return
            self.announced[seat] = 0
            self.seat_out(seat)
            if self.phase is _SCORED or (t is not None and t.end_pending):
                return
        elif left <= REPORT_LIMIT and (lr is None or lr.seat != seat):
            if t is not None and t.report_step:
                t.report_due = seat  # 报牌 is the seat's own step
            else:
                self.report(seat)
        self.turn = self.next_active(seat)
        if t is not None and self.plays == 1 and t.latent:
            refereed.tribute.discover(self)

    def pass_turn(self, seat: int) -> None:
        """A pass, its ``gd.passed`` event already emitted: the next seat to act, or the
        round's end. In refereed mode also the table's bookkeeping (a correction carried
        out, a latent 报牌 followed, a designation or pass-sequence step used)."""
        t = self.table
        last: Collection[int] = ()
        if t is not None:
            t.turns += 1
            if t.correction is not None and t.correction.seat == seat:
                refereed.correction.expose_unused(self, seat, ())
            lr = t.latent_report
            if lr is not None and seat != lr.seat:
                refereed.reporting.followed(self, lr, seat, 0)
            if t.designation is not None and t.designation.holder == seat:
                t.designation = None
            if t.sequence is not None:
                refereed.pass_sequence.pass_in_sequence(self, seat)
                return
            last = t.placed_last
        assert self.top is not None  # a pass answers a play
        top_seat = self.top.seat
        passed = self.passed
        passed.append(seat)
        sizes = self.sizes
        for s in range(NUM_SEATS):
            if sizes[s] and s != top_seat and s not in passed and s not in last:
                self.turn = self.next_active(seat)
                return
        self.close_round()

    def close_round(self) -> None:
        """Everyone still in play passed: the top play's seat leads (its partner, 接风, when
        it went out). Refereed mode: a new lead, and the round's GD-2.2 bars lapse."""
        assert self.top is not None  # the round had a play
        top_seat = self.top.seat
        leader = self.leader_after(top_seat)
        self.stream.emit(ev.RoundEnded, seat=top_seat, leader=leader, partner_leads=leader != top_seat)
        self.top = None
        self.passed = []
        self.leader = self.turn = leader
        t = self.table
        if t is not None:
            t.lead_count += 1
            if t.bars:   # a clean table has none to lapse
                refereed.restrictions.lapse_round_bars(self)

    def leader_after(self, top_seat: int) -> int:
        sizes = self.sizes
        last = () if self.table is None else self.table.placed_last
        if sizes[top_seat] and top_seat not in last:
            return top_seat
        mate = partner(top_seat)
        if sizes[mate] and mate not in last:
            return mate
        return self.next_active(top_seat)

    def active_seats(self) -> list[int]:
        """The seats still in play: holding cards and not judged last (单下, refereed)."""
        last = () if self.table is None else self.table.placed_last
        return [s for s in range(NUM_SEATS) if self.sizes[s] and s not in last]

    def next_active(self, seat: int) -> int:
        """The next seat after ``seat`` still in play."""
        sizes = self.sizes
        t = self.table
        for _ in range(NUM_SEATS):
            seat = (seat + 1) % NUM_SEATS
            if sizes[seat] and (t is None or seat not in t.placed_last):
                return seat
        raise AssertionError("nobody holds cards")

    def seat_out(self, seat: int) -> None:
        """``seat`` went out. The deal is over after a 1-2 finish or when one seat is left in
        play (refereed: a latent 报牌 irregularity comes to light first)."""
        order = self.finish_order
        order.append(seat)
        self.stream.emit(ev.PlayerFinished, seat=seat, place=len(order))
        if self.table is not None and self.table.lead_options:   # it can never lead again
            refereed.restrictions.restricted_gone(self, seat, "partner_out")
        if self.play_is_over():
            t = self.table
            if t is not None and t.latent_report is not None:
                t.end_pending = True
                refereed.reporting.discover(self, None)
                return
            self.end_by_play()

    def play_is_over(self) -> bool:
        order = self.finish_order
        if len(order) >= 2 and order[1] == partner(order[0]):
            return True
        return len(self.active_seats()) <= 1

    def end_by_play(self) -> None:
        """The deal ends by play: the seats still holding cards follow the finishers from the
        上游's 下家 on (``tribute.finishing_order``), seats judged last (单下) after them."""
        last = [] if self.table is None else self.table.placed_last
        if self.table is not None:
            self.table.end_pending = False
        order = list(self.finish_order)
        first = order[0] if order else 0
        rest = [s for s in seats_from(next_seat(first)) if s not in order and s not in last]
        # 单下 places a seat below everyone still playing: the first judged is the very last
        self.finish_order = order + rest + last[::-1]
        self._end()

    def _end(self) -> None:
        self.phase = Phase.SCORED
        self.turn = None
        self.top = None
        self.passed = []
        self.legal_cache = None
        first, second, third, fourth = self.finish_order
        order = (first, second, third, fourth)
        winner, gain = level_gain(order)
        forced = self.forced or bool(self.table is not None and self.table.placed_last)
        self._result = DealResult(order, winner, gain, self.plays, forced)
        self.stream.emit(ev.DealScored, finish_order=order, team=winner, levels=gain, plays=self.plays)
        if self.table is not None:
            refereed.engine.flush_latent(self)

    def _compute_legal(self) -> LegalActions:
        """Every legal action of the seat to act. Refereed mode adds the answers the table
        waits for (to an out-of-turn play, a choice, 报牌), the draw, and the restrictions
        in force (lead restrictions, penalty cards, a pass sequence); bars act on the turn
        order instead."""
        t = self.table
        if self.phase is _PLAY and (t is None or (
                t.oot is None and t.choice is None and t.report_due is None and not t.exposures
                and t.restriction is None and t.sequence is None)):
            seat = self.turn  # the everyday case: ordinary play, no restriction
            assert seat is not None  # someone is to play
            hand = self.analysed[seat]
            if hand is None:
                hand = self.analysed[seat] = analysed_hand(self.hands[seat], self.level, self.rules,
                                                           self.shrunk_from[seat])
            top = self.top
            if top is None or top.seat == seat:
                return LegalActions(seat, hand.plays(None), False, self.sizes[seat])
            return LegalActions(seat, hand.plays(top.reading), True, self.sizes[seat])
        to_act = self.to_act
        if to_act is None:
            return LegalActions(0, [], False)
        seat = cast(int, to_act)  # not REFEREE: the referee's seat rules, it is not asked for legal actions
        if t is not None:
            if t.oot is not None:
                o = t.oot
                if seat in t.bars or not self.sizes[o.seat]:
                    return _Choices(seat, [CallReferee(seat), Pass(seat)])
                options = refereed.play.play_options(self, seat, o.reading)
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
        top = self.top  # refereed play under a restriction
        assert t is not None  # strict play returned above
        return refereed.play.play_options(self, seat, None if top is None or top.seat == seat else top.reading,
                                          pass_on_lead=t.sequence is not None,
                                          ordinary_hand_size=-1 if t.sequence is not None else self.sizes[seat])

def _check_seat(seat: Any, name: str) -> None:
    if not isinstance(seat, int) or not 0 <= seat < NUM_SEATS:
        raise ValueError(f"{name} must be a seat 0-3, got {seat!r}")


def _hand_cards(counts: list[int]) -> tuple[Card, ...]:
    out: list[Card] = []
    for i in _CANONICAL:
        n = counts[i]
        if n:
            if n == 1:
                out.append(CARDS[i])
            else:
                out += (CARDS[i],) * n
    return tuple(out)


def _missing(hand: list[int], cards: Iterable[Card]) -> list[str]:
    need = count_list(cards)
    return [str(CARDS[i]) for i in _CANONICAL if need[i] > hand[i] for _ in range(need[i] - hand[i])]
