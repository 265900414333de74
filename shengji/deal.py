"""One 双升 deal as a deterministic state machine: the card-by-card draw with trump
declarations, the kitty, 25 tricks with throws, points and the result (shengji.md §1–7).

Phases: DRAW → DECLARE (the last-chance round) → KITTY → PLAY → SCORED.

The draw runs by itself. After each card, the seat that drew it is asked to declare
(``Declare`` / ``NoDeclare``) only when it *can* show a declaration that would stand;
otherwise the next card is drawn at once. This keeps deals fast and still lets every seat
declare at the moment a card makes it possible (and at every later draw of its own).
After the last card each seat in turn from the first drawer (the banker, except in the
first deal of a match) gets one last chance, again only if it can declare. Nobody declared:
the first deal of a match is redealt from the next seed; later deals follow rules.no_bid.

Validation lives in one function, ``why_illegal(action) -> str | None``; strict mode
raises IllegalAction with that reason. ``mode="refereed"`` (see ``shengji.table``): an
action that breaks a rule is recorded as an irregular attempt and the deal waits for a
referee's ruling (``phase`` AWAITING_RULING) instead of raising; the draw has decisions of
its own (``Draw``); the table primitives a ruling uses are methods of the deal. Strict mode
(the default) never touches any of it. The state is plain fields (count lists per seat,
the stock, the current trick) so that a referee can inspect and repair it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
from mypy_extensions import mypyc_attr
import numpy as np

from shengji.actions import (
    Bury, Choices, Choose, Declare, Draw, NoDeclare, Play,
)
from shengji.choices import FollowChoices, LeadChoices
from shengji.context import Context
from shengji.declare import (
    DECLARING, NOT_A_DECLARATION, Declaration, can_declare, declaration_options, flip_kitty, why_not_overcall,
)
from shengji.events import (
    Buried, DealScored, DealStarted, DeclarationDeclined, Declared, DeckCut,
    DeckShuffled, HandsSet, KittyFlipped, KittyRevealed, KittyTaken, PointsAdjusted, Redealt,
    PlayStands, ThrowFailed, ThrowPenalty, TrumpSet, CARD_CODES, SINGLE_CODES, emit_card_drawn, emit_cards_played, emit_trick_won,
)
from shengji.follow import LeadInfo, follow_error, lead_info_of
from shengji.observation import Observation, RefereedObservation, observe
from shengji.phase import Phase
from shengji.rules import DEFAULT_RULES, ShengjiRules
from shengji.scoring import POINTS, card_points, kitty_multiplier, level_result
from shengji.throws import first_failed_unit
from shengji.tricks import winner_of
from shengji import refereed
from shengji.refereed.state import TableState
from shengji.units import is_valid_lead
from tabletop import refereed as refereed_core
from tabletop.cards import CARDS, RANKS, Card, as_cards, codes, full_deck, sort_cards
from tabletop.errors import CardParseError, IllegalAction
from tabletop.events import Event, EventStream
from tabletop.rulings import MODES, REFEREED
from tabletop.rng import CUT, FIRST_BANKER, REDEAL, SHUFFLE, child_seed, generator
from tabletop.seats import REFEREE, next_seat, partner, prev_seat, seats_from, team

DECK_SIZE = 108
KITTY_SIZE = 8
CUT_MARGIN = 10
"""The cut moves between CUT_MARGIN and DECK_SIZE − CUT_MARGIN cards (both included)."""
MAX_REDEALS = 20
"""Guard against agents that never declare: after this many redeals the kitty is flipped
(the first drawer banks in a first deal) instead of redealing again."""
CANONICAL_ORDER: tuple[int, ...] = tuple(int(c) for c in sort_cards(CARDS))
_FULL_DECK: tuple[Card, ...] = tuple(full_deck(2))


_CONTEXTS: dict[tuple, Context] = {}


def shared_context(level: int, trump: str | None, rules: ShengjiRules) -> Context:
    """One Context per (level, trump, rules), shared by all deals of the process: contexts
    are immutable, and shengji.follow caches its lead analyses on them."""
    key = (level, trump, rules)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        if len(_CONTEXTS) >= 256:
            _CONTEXTS.clear()
        ctx = _CONTEXTS[key] = Context(level, trump, rules)
    return ctx


def level_index(level: "str | int") -> int:
    """'2' … 'A' (also '10') or 0 … 12 → 0 … 12."""
    if isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 12:
        return level
    if isinstance(level, str):
        text = "T" if level == "10" else level.upper()
        if len(text) == 1 and text in RANKS:
            return RANKS.index(text)
    raise CardParseError(f"not a level: {level!r} (expected 2-9, T/10, J, Q, K or A)")


@attrs.frozen(kw_only=True)
class DealResult:
    """The outcome of a deal. ``raw_points``: the attackers' captured points, kitty bonus
    included; ``points``: after ``adjustments`` ((reason, attackers delta) in order, e.g.
    failed throws and referee point penalties), never below 0. ``side`` ('banker' |
    'attackers') goes up ``levels`` (read from ``points`` with the level table); ``team``
    is that team (the attackers' team also when they take over the bank with +0)."""

    banker: int
    declarer: int | None
    level: str
    trump: str | None
    raw_points: int
    points: int
    adjustments: tuple[tuple[str, int], ...]
    banker_points: int
    kitty: tuple[Card, ...]
    kitty_points: int
    kitty_multiplier: int
    kitty_bonus: int
    last_trick_winner: int
    side: str
    team: int
    levels: int
    next_banker: int
    throws: int = 0
    """Leads of several units (甩牌) in this deal; ``failed_throws`` of them were beaten."""
    failed_throws: int = 0

    @property
    def banker_holds(self) -> bool:
        return self.side == "banker"


@attrs.frozen
class TrickRecord:
    """A completed trick: (seat, cards) in play order, its winner and points."""

    plays: tuple[tuple[int, tuple[Card, ...]], ...]
    winner: int
    points: int


def _has_cards(counts: Sequence[int], cards: Sequence[int]) -> bool:
    if len(cards) == 1:
        return counts[cards[0]] > 0
    return all(counts[c] >= cards.count(c) for c in set(cards))


_ACTIONS = (Declare, NoDeclare, Bury, Play)
_PLAY = Phase.PLAY
_AWAITING_RULING = Phase.AWAITING_RULING
_DRAWS = tuple((Draw(seat),) for seat in range(4))
"""A draw step's one legal action per seat (frozen: one made for all deals)."""
_EXPECTED = {Phase.DRAW: (Declare, NoDeclare), Phase.DECLARE: (Declare, NoDeclare),
             Phase.KITTY: (Bury,), Phase.PLAY: (Play,), Phase.SCORED: ()}


# Compiled builds: a Python class all the same (its methods compiled): a deal pickles and copies
# through its __dict__ (environment snapshots, copies of a position), as in the pure build.
@mypyc_attr(native_class=False)
class Deal:
    """A 双升 deal; see the module docstring. Construct it to shuffle, cut and draw (the
    set-up events wait in ``take_events()``), or use ``Deal.from_hands`` for a position."""

    def __init__(
        self,
        seed: int,
        *,
        rules: ShengjiRules | None = None,
        banker: int | None = None,
        levels: tuple["str | int", "str | int"] = ("2", "2"),
        stream: EventStream | None = None,
        mode: str = "strict",
        deck: Sequence[Any] | None = None,
        deal_number: int | None = None,
    ) -> None:
        """``seed`` drives the shuffle, the cut and (first deal) the first drawer. ``deck``
        stacks the pack instead (top card drawn first, no cut) for tests and puzzles; a
        redeal shuffles from the seed as usual. ``deal_number`` sets the stream's deal
        number for the events (a match sets it on the shared stream itself)."""
        team_levels = (level_index(levels[0]), level_index(levels[1]))
        if banker is None and team_levels[0] != team_levels[1]:
            raise ValueError("a first deal (banker None) needs both teams at the same level")
        level = team_levels[0] if banker is None else team_levels[team(banker)]
        self._init_state(rules, level, team_levels, banker, stream, mode, deal_number)
        self.seed = seed
        self.first_deal = banker is None
        self.first_drawer = int(generator(seed, FIRST_BANKER).integers(4)) if banker is None else banker
        self._stacked = None if deck is None else as_cards(deck)
        if self._stacked is not None and sorted(self._stacked) != full_deck(2):
            raise ValueError("a stacked deck must hold the 108 cards of two packs")
        self._emit(DealStarted, None, level=RANKS[level], banker=banker, first_drawer=self.first_drawer,
                   levels=tuple(RANKS[x] for x in team_levels), source="draw")
        self.start_draw()

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Any],
        level: "str | int",
        trump: str | None,
        banker: int,
        kitty: Any = None,
        rules: ShengjiRules | None = None,
        *,
        at: str = "play",
        levels: tuple["str | int", "str | int"] | None = None,
        stream: EventStream | None = None,
        mode: str = "strict",
        deal_number: int | None = None,
    ) -> "Deal":
        """A deal from explicit hands (any equal size), for puzzles and tests. ``at="play"``:
        ``kitty`` is the buried kitty (default none) and the banker leads. ``at="kitty"``:
        the banker has just picked up ``kitty`` (added to its hand) and must bury as many."""
        if at not in ("play", "kitty"):
            raise ValueError(f"at must be 'play' or 'kitty', got {at!r}")
        if trump not in (None, "S", "H", "C", "D"):
            raise ValueError(f"trump must be 'S', 'H', 'C', 'D' or None (no-trump), got {trump!r}")
        cards = [as_cards(h) for h in hands]
        if len(cards) != 4 or len({len(h) for h in cards}) != 1:
            raise ValueError("from_hands needs four hands of equal size")
        kitty_cards = as_cards(kitty) if kitty is not None else []
        if at == "kitty" and not kitty_cards:
            raise ValueError("at='kitty' needs the kitty cards")
        if banker is None:
            raise ValueError("from_hands needs the banker's seat")
        every = [c for h in cards for c in h] + kitty_cards
        too_many = sorted({c for c in every if every.count(c) > 2})
        if too_many:
            raise ValueError(f"more than two copies of {' '.join(map(str, too_many))} (two packs)")
        lvl = level_index(level)
        team_levels = (lvl, lvl) if levels is None else (level_index(levels[0]), level_index(levels[1]))
        self = cls.__new__(cls)
        self._init_state(rules, lvl, team_levels, banker, stream, mode, deal_number)
        self.seed = 0
        self.first_deal = False
        self.first_drawer = banker
        self._stacked = None
        self._kitty_size = len(kitty_cards) if at == "kitty" else KITTY_SIZE
        self._emit(DealStarted, None, level=RANKS[lvl], banker=banker, first_drawer=banker,
                   levels=tuple(RANKS[x] for x in team_levels), source="hands")
        for seat, hand in enumerate(cards):
            for c in hand:
                self.hands[seat][c] += 1
            self.hand_size[seat] = len(hand)
        self._emit(HandsSet, None, hands=tuple(codes(sort_cards(h)) for h in cards), kitty=codes(kitty_cards))
        self.kitty = list(kitty_cards)
        self._set_trump(trump)
        self._emit(TrumpSet, None, trump=trump, how="given", banker=banker)
        if at == "kitty":
            self._take_kitty()
        else:
            self.buried = True
            self.start_play()
        return self

    @classmethod
    def from_observation(cls, observation: Observation, hands: Sequence[Iterable[Card]],
                         kitty: Iterable[Card]) -> "Deal":
        """A strict deal at the point of play ``observation`` shows — the trick in progress
        (its cards out of the hands, laid as played), its leader, the seat to act, the trick
        number, the points and adjustments so far — holding ``hands`` (the observer's own and
        a guess at the others': a search's determinisation) with ``kitty`` buried. Its
        events are taken."""
        obs = observation
        if obs.banker is None or obs.context is None:
            raise ValueError("from_observation needs a point of play (banker and trump settled)")
        held = [list(h) for h in hands]
        for seat, cards in obs.trick:   # back in the hands first: from_hands wants equal hands
            held[seat].extend(cards)
        deal = cls.from_hands(held, obs.level, obs.trump, obs.banker, list(kitty), obs.rules, levels=obs.levels)
        for seat, cards in obs.trick:
            deal.remove_cards(seat, cards)
        deal.trick = list(obs.trick)
        if obs.trick:
            deal.lead_info = lead_info_of(obs.trick[0][1], obs.context)
        deal.leader = obs.leader
        deal.turn = obs.seat
        deal.trick_number = obs.trick_number
        deal.attackers_points = obs.attackers_points
        deal.banker_points = obs.banker_points
        deal.adjustments = obs.adjustments
        deal.take_events()
        return deal

    def _init_state(self, rules: Any, level: Any, team_levels: Any, banker: int | None, stream: Any, mode: str,
                    deal_number: int | None) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
        if banker not in (None, 0, 1, 2, 3):
            raise ValueError(f"banker must be a seat 0-3 or None, got {banker!r}")
        self.rules = DEFAULT_RULES if rules is None else rules   # frozen: one for all
        self.mode = mode
        self.table: TableState | None = TableState(refereed.draw.DrawState()) if mode == REFEREED else None
        """Refereed mode's state (None in strict mode)."""
        self.stream = EventStream() if stream is None else stream
        if deal_number is not None:
            self.stream.deal = deal_number
        self.level = level
        self.levels = team_levels
        self.throws = 0
        self.failed_throws = 0
        self.level_texts = (RANKS[team_levels[0]], RANKS[team_levels[1]])
        self.banker = banker
        self.phase = Phase.DRAW
        self.turn: int | None = None
        """The seat whose turn it is in the play of the deal (to declare, bury, lead,
        follow, draw); None: over. A wait for a ruling or a choice leaves it as it is."""
        self.attempt = 0
        self.hands: list[list[int]] = [[0] * 54 for _ in range(4)]
        self.hand_size = [0, 0, 0, 0]
        self.sorted_cache: list[tuple[Card, ...] | None] = [None] * 4
        # draw
        self.stock: list[Card] = []
        self.drawn = 0
        self.draw_seat = 0
        self.last_chance: list[int] = []
        self.declaration: Declaration | None = None
        self.declarations: tuple[Declaration, ...] = ()    # tuples: rarely change, often observed
        self.declare_barred: set[int] = set()
        self.flipped: tuple[Card, ...] = ()
        self._kitty_size = KITTY_SIZE
        # trump, kitty, play
        self.trump: str | None = None
        self.trump_known = False
        self.ctx: Context | None = None
        self.kitty: list[Card] = []     # the undrawn kitty, then (after burying) the buried one
        self.picked_up: tuple[Card, ...] = ()
        self.buried = False
        self.trick_number = 0
        self.leader: int | None = None
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.lead_info: LeadInfo | None = None  # shengji.follow's analysis of the current lead
        self.tricks: list[TrickRecord] = []
        self.attackers_points = 0
        self.banker_points = 0
        self.adjustments: tuple[tuple[str, int], ...] = ()
        self.result: DealResult | None = None

    # -----------------------------------------------------------------------------------------
    # Refereed mode: what callers outside the table ask of the deal (shengji.refereed does it)

    @property
    def awaiting_ruling(self) -> tuple[Any, ...]:
        """The irregularities awaiting a ruling, oldest first (the referee rules on the first)."""
        return tuple(self.table.awaiting) if self.table is not None else ()

    @property
    def game_phase(self) -> Any:
        """The phase of play, also while a ruling is awaited."""
        if self.phase is Phase.AWAITING_RULING:
            assert self.table is not None  # only a refereed deal awaits rulings
            return self.table.resume_phase
        return self.phase

    def apply_ruling(self, ruling: Any, match: Any = None) -> None:
        """The referee's seat acts (``shengji.refereed.engine.apply_ruling``)."""
        refereed.engine.apply_ruling(self, ruling, match)

    def carry_out(self, effects: Sequence[Any], sanctions: Sequence[Any] = (), *, reason: str,
                  answers: int | None = None) -> None:
        """Carry out a ruling on this deal (``shengji.refereed.engine.carry_out``)."""
        refereed.engine.carry_out(self, effects, sanctions, reason=reason, answers=answers)

    def resolve(self, seq: int | None = None) -> list:
        """End the wait for the ruling on attempt ``seq`` (``tabletop.refereed.resolve``).
        Returns nothing: the events wait in the stream (``take_events``)."""
        refereed_core.resolve(self, seq)
        return []

    def referee_rng(self) -> Any:
        """The REFEREE stream of this deal (tabletop.rng), for lots and random draws."""
        return refereed.state.referee_rng(self)

    # -----------------------------------------------------------------------------------------
    # Engine protocol

    def take_events(self) -> list[Event]:
        return self.stream.take()

    def observe(self, seat: int) -> Observation:
        if self.table is not None:
            extras = refereed.observation.observe_extras(self, seat)
            if extras is not None:
                return observe(self, seat, RefereedObservation, **extras)
        return observe(self, seat)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards in canonical order (cached until the hand changes)."""
        cached = self.sorted_cache[seat]
        if cached is None:
            counts = self.hands[seat]
            out: list[Card] = []
            for c in CANONICAL_ORDER:
                n = counts[c]
                if n:
                    out.append(CARDS[c])
                    if n > 1:
                        out.extend([CARDS[c]] * (n - 1))
            cached = self.sorted_cache[seat] = tuple(out)
        return cached

    @property
    def to_act(self) -> int | str | None:
        """The seat to decide now, computed from the state: ``REFEREE`` while a ruling is
        awaited, the chooser while a choice is open, else the seat whose turn it is."""
        t = self.table
        if t is None:
            return self.turn
        if self.phase is _AWAITING_RULING:
            return REFEREE
        c = t.choice
        return self.turn if c is None else c.seat

    @property
    def level_text(self) -> str:
        return RANKS[self.level]

    @property
    def lead(self) -> tuple[Card, ...] | None:
        """The cards leading the current trick (after a failed throw: the forced unit)."""
        return self.trick[0][1] if self.trick else None

    def legal_actions(self) -> Choices:
        t = self.table
        if t is not None:
            if self.phase is Phase.AWAITING_RULING:
                return Choices(())
            if t.choice is not None:
                return Choices([Choose(t.choice.seat, o) for o in t.choice.options])
            if t.draw.step:   # a draw step: its one legal action, the rightful drawer's Draw
                return Choices(() if self.turn is None else _DRAWS[self.turn])
        seat = self.turn
        if seat is None:
            return Choices(())
        if self.phase is _PLAY:
            return self._follow_choices(seat) if self.trick else self._lead_choices(seat)
        if self.phase in (Phase.DRAW, Phase.DECLARE):
            options = declaration_options(self.hands[seat], self.level, seat, self.declaration,
                                          self.rules.pair_vs_pair)
            return Choices([NoDeclare(seat)] + [Declare(seat, c) for c in options])
        if self.phase is Phase.KITTY:
            return self._bury_choices(seat)
        if not self.trick:
            return self._lead_choices(seat)
        return self._follow_choices(seat)

    def apply(self, action: Any) -> list[Event]:
        """Apply a legal action and return the events it produced. Strict mode: an illegal
        action raises IllegalAction and changes nothing. Refereed mode: see ``shengji.table``."""
        if self.table is not None:
            return refereed.engine.apply(self, action)
        if type(action) is Play and self.phase is _PLAY and action.seat == self.turn:
            # the common case: ``illegality`` checks just this (a plain follow first)
            found = self.play_illegality(action)
            if found is not None:
                raise IllegalAction(found[1])
            self.play_cards(action)
            return self.stream.take()
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason)
        if isinstance(action, Play):
            self.play_cards(action)
        elif isinstance(action, Declare):
            self.make_declaration(action)
        elif isinstance(action, NoDeclare):
            self._emit(DeclarationDeclined, action.seat)
            self.resume_declaring()
        else:
            self.bury_cards(action)
        return self.stream.take()

    # -----------------------------------------------------------------------------------------
    # Validation: the one place that says why an action is not allowed

    def why_illegal(self, action: Any) -> str | None:
        """Why ``action`` may not be applied now (the message strict mode raises), or None."""
        found = self.illegality(action)
        return None if found is None else found[1]

    def illegality(self, action: Any) -> tuple[str, str] | None:
        """(irregularity id, message) for an action that may not be applied now, or None.
        The ids are stable (the rulebook's triggers name them: ``shengji.table.IRREGULARITIES``);
        the message says exactly what is wrong."""
        kind = type(action)
        to_act = self.turn if self.table is None else self.to_act
        if kind is Play and self.phase is _PLAY and action.seat == to_act:
            return self.play_illegality(action)      # the common case, checked as below
        if kind not in _ACTIONS:
            return "not_an_action", f"not a 双升 action: {action!r}"
        seat = action.seat
        phase = self.phase
        if to_act is None:
            return "deal_over", "the deal is over"
        if kind is Play and phase is Phase.KITTY and seat == self.banker:
            return "lead_before_burial", f"the kitty is not buried yet (seat {seat} must Bury)"
        if seat != to_act:
            code = "out_of_turn"
            if phase is Phase.PLAY and kind is Play:
                code = "play_before_turn" if self.trick else "lead_out_of_turn"
            return code, f"not your turn (seat {to_act} is to act)"
        if phase is Phase.PLAY:
            allowed = kind is Play
        elif phase is Phase.KITTY:
            allowed = kind is Bury
        else:
            allowed = kind is Declare or kind is NoDeclare
        if not allowed:
            wanted = " or ".join(cls.__name__ for cls in _EXPECTED[phase])
            return "wrong_action", f"a {kind.__name__} is not possible now ({phase.value}: seat {seat} must {wanted})"
        if kind is NoDeclare:
            return None
        if kind is Play:
            return self.play_illegality(action)
        cards = action.cards
        counts = self.hands[seat]
        if kind is Declare:
            if seat in self.declare_barred:
                return "declare_barred", f"seat {seat} has lost the right to declare in this deal"
            if not _has_cards(counts, cards):
                return "cards_not_in_hand", "cards not in hand"
            message = why_not_overcall(seat, cards, self.level, self.declaration, self.rules.pair_vs_pair)
            if message is None:
                return None
            return ("not_a_declaration" if message == NOT_A_DECLARATION else "does_not_overcall"), message
        if len(cards) != self._kitty_size:
            return "wrong_bury_count", f"kitty must be {self._kitty_size} cards (got {len(cards)})"
        return None if _has_cards(counts, cards) else ("cards_not_in_hand", "cards not in hand")

    def play_illegality(self, action: Play) -> tuple[str, str] | None:
        """``illegality`` of a Play by the seat to act in the play phase."""
        cards = action.cards
        counts = self.hands[action.seat]
        ctx = self.ctx
        assert ctx is not None  # trump is known in play
        if self.trick:
            lead, info = self.trick[0][1], self.lead_info
            assert info is not None  # a trick is open
            if _plain_follow_ok(counts, cards, lead, ctx):
                return None
            message = follow_error(counts, list(cards), info, ctx)
            return None if message is None else (_follow_code(message, len(lead), len(cards)), message)
        if not cards:
            return "missing_card", "a play needs at least one card"
        if not _has_cards(counts, cards):
            return "cards_not_in_hand", "cards not in hand"
        return None if len(cards) == 1 or is_valid_lead(list(cards), ctx) else ("lead_mixed_suits", "a lead must be one suit")

    def is_legal(self, action: Any) -> bool:
        return self.why_illegal(action) is None

    # -----------------------------------------------------------------------------------------
    # The draw and the declarations

    def _emit(self, cls: type[Event], seat: int | None, **payload: Any) -> Event:
        return self.stream.emit(cls, seat=seat, **payload)

    def start_draw(self) -> None:
        seed = self.seed if self.attempt == 0 else child_seed(self.seed, REDEAL, self.attempt)
        if self._stacked is not None and self.attempt == 0:
            deck, position = self._stacked, 0
        else:
            deck = list(map(_FULL_DECK.__getitem__, generator(seed, SHUFFLE).permutation(DECK_SIZE).tolist()))
            position = int(generator(seed, CUT).integers(CUT_MARGIN, DECK_SIZE - CUT_MARGIN + 1))
        self._emit(DeckShuffled, None, deck=tuple(map(CARD_CODES.__getitem__, deck)), attempt=self.attempt, seed=seed)
        self._emit(DeckCut, prev_seat(self.first_drawer), position=position)
        self.stock = deck[position:] + deck[:position]
        self.drawn = 0
        self.draw_seat = self.first_drawer
        self.hands = [[0] * 54 for _ in range(4)]
        self.hand_size = [0, 0, 0, 0]
        self.sorted_cache = [None] * 4
        self.declaration = None
        self.declarations = ()
        self.phase = Phase.DRAW
        if self.table is not None:
            refereed.draw.begin(self)
            return
        self._continue_draw()

    def _continue_draw(self) -> None:
        stock, hands, level, stream = self.stock, self.hands, self.level, self.stream
        hand_size, sorted_cache, barred = self.hand_size, self.sorted_cache, self.declare_barred
        standing, pair_vs_pair = self.declaration, self.rules.pair_vs_pair
        last = len(stock) - KITTY_SIZE
        drawn, seat = self.drawn, self.draw_seat
        declaring = DECLARING[level]
        # seats found unable to declare earlier in this run (the standing declaration is the
        # same): a card a declaration cannot show leaves them unable
        unable = [False, False, False, False]
        while drawn < last:
            card = stock[drawn]
            counts = hands[seat]
            counts[card] += 1
            hand_size[seat] += 1
            sorted_cache[seat] = None
            emit_card_drawn(stream, seat, CARD_CODES[card], drawn)
            drawn += 1
            if (declaring[card] or not unable[seat]) and seat not in barred:
                if can_declare(counts, level, seat, standing, pair_vs_pair):
                    self.drawn, self.draw_seat = drawn, (seat + 1) % 4
                    self.turn = seat
                    return
                unable[seat] = True
            seat = (seat + 1) % 4
        self.drawn, self.draw_seat = drawn, seat
        self.phase = Phase.DECLARE
        self.last_chance = list(seats_from(self.first_drawer))
        self.continue_last_chance()

    def continue_last_chance(self) -> None:
        while self.last_chance:
            seat = self.last_chance.pop(0)
            if seat not in self.declare_barred and can_declare(
                    self.hands[seat], self.level, seat, self.declaration, self.rules.pair_vs_pair):
                self.turn = seat
                return
        self.turn = None
        self._close_declarations()

    def resume_declaring(self) -> None:
        if self.phase is Phase.DRAW:
            if self.table is not None:
                refereed.draw.begin(self)
            else:
                self._continue_draw()
        else:
            self.continue_last_chance()

    def make_declaration(self, action: Declare) -> None:
        declaration = Declaration(action.seat, action.cards)
        self.declaration = declaration
        self.declarations += (declaration,)
        self._emit(Declared, action.seat, cards=codes(action.cards), trump=declaration.trump)
        self.resume_declaring()

    def _close_declarations(self) -> None:
        if self.declaration is None:
            no_bid = "redeal" if self.first_deal else self.rules.no_bid
            if no_bid == "redeal" and self.attempt < MAX_REDEALS:
                self.attempt += 1
                reason = "nobody declared in the first deal" if self.first_deal else "nobody declared"
                seed = child_seed(self.seed, REDEAL, self.attempt)
                if self.table is not None:   # the cards on the table are gathered up too
                    refereed.remedies.clear_for_redeal(self)
                self._emit(Redealt, None, reason=reason, attempt=self.attempt, seed=seed)
                self.start_draw()
                return
        self.kitty = self.stock[self.drawn:]
        del self.stock[self.drawn:]
        if self.declaration is not None:
            trump, how = self.declaration.trump, "declared"
            if self.banker is None:
                self.banker = self.declaration.seat
        else:
            if self.banker is None:
                self.banker = self.first_drawer
            if no_bid == "no_trump":
                trump, how = None, "no_trump"
            else:
                trump, turned = flip_kitty(self.kitty, self.level)
                for position in range(turned):
                    self.flipped += (self.kitty[position],)
                    self._emit(KittyFlipped, None, card=str(self.kitty[position]), position=position)
                how = "flip_kitty"
        self._set_trump(trump)
        self._emit(TrumpSet, None if self.declaration is None else self.declaration.seat,
                   trump=trump, how=how, banker=self.banker)
        self._take_kitty()

    def _set_trump(self, trump: str | None) -> None:
        self.trump = trump
        self.trump_known = True
        self.ctx = shared_context(self.level, trump, self.rules)

    # -----------------------------------------------------------------------------------------
    # Kitty

    def _take_kitty(self) -> None:
        banker = self.banker
        assert banker is not None  # the kitty goes to the banker
        self.picked_up = tuple(self.kitty)
        self.kitty = []                         # in the banker's hand until it buries
        self.add_cards(banker, self.picked_up)
        self._emit(KittyTaken, banker, cards=codes(self.picked_up))
        if self.table is not None and self.table.deferred:
            refereed.points.banker_known(self)
        self.phase = Phase.KITTY
        self.turn = banker

    def bury_cards(self, action: Bury) -> None:
        counts = self.hands[action.seat]
        for c in action.cards:
            counts[c] -= 1
        self.hand_size[action.seat] -= len(action.cards)
        self.sorted_cache[action.seat] = None
        self.kitty = list(action.cards)
        self.buried = True
        self._emit(Buried, action.seat, cards=codes(action.cards))
        self.start_play()

    def _bury_choices(self, seat: int) -> Choices:
        # a bound method, not a closure: compiled builds compile this method
        return Choices([Bury(seat, self.picked_up)], complete=False, sampler=functools.partial(self.random_burial, seat))

    def random_burial(self, seat: int, rng: np.random.Generator) -> Bury:
        """A random burial of the kitty's size from ``seat``'s hand (what a kitty decision samples)."""
        hand = self.hand(seat)
        picks = rng.choice(len(hand), size=self._kitty_size, replace=False)
        return Bury(seat, [hand[i] for i in picks])

    # -----------------------------------------------------------------------------------------
    # Play

    def start_play(self) -> None:
        self.phase = Phase.PLAY
        banker = self.banker
        assert banker is not None  # the banker leads
        self.leader = banker
        self.turn = banker
        if self.hand_size[banker] == 0:
            self.finish_deal()

    def add_cards(self, seat: int, cards: Iterable[Card]) -> None:
        """``cards`` go into ``seat``'s hand (drawn, picked up, back from the table): its
        counts, its size and its sorted view, together."""
        counts = self.hands[seat]
        n = 0
        for c in cards:
            counts[c] += 1
            n += 1
        self.hand_size[seat] += n
        self.sorted_cache[seat] = None

    def remove_cards(self, seat: int, cards: Iterable[Card]) -> None:
        counts = self.hands[seat]
        cached = self.sorted_cache[seat]
        remaining = None if cached is None else list(cached)
        n = 0
        for c in cards:
            counts[c] -= 1
            n += 1
            if remaining is not None:
                remaining.remove(c)             # keeps the canonical order of the cache
        self.hand_size[seat] -= n
        self.sorted_cache[seat] = None if remaining is None else tuple(remaining)

    def play_cards(self, action: Play, stand: str | None = None) -> tuple[Card, ...]:
        """Put the cards on the trick; return those that stay there (a failed throw's forced
        unit). ``stand``: refereed mode lets a play stand that was not an ordinary in-turn
        play (its event is PlayStands, not an action)."""
        seat, cards = action.seat, action.cards
        trick = self.trick
        lead = not trick
        if stand is None:
            emit_cards_played(self.stream, seat, SINGLE_CODES[cards[0]] if len(cards) == 1
                              else tuple(map(CARD_CODES.__getitem__, cards)), self.trick_number, lead)
        else:
            self.stream.emit(PlayStands, seat=seat, cards=codes(cards), trick=self.trick_number, lead=lead,
                             reason=stand)
        played = cards
        if lead:
            ctx = self.ctx
            assert ctx is not None  # trump is known in play
            info = lead_info_of(cards, ctx)
            if info.is_throw:
                self.throws += 1
                played = self._check_throw(seat, cards)
                if played is not cards:
                    self.failed_throws += 1
                    info = lead_info_of(played, ctx)
            self.lead_info = info
        self.remove_cards(seat, played)
        trick.append((seat, played))
        if len(trick) < 4:
            self.turn = (seat + 1) % 4
        else:
            self._finish_trick()
        return played

    def _check_throw(self, seat: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """The cards that stay on the table: all of them, or the forced unit of a failed throw."""
        assert self.ctx is not None and self.banker is not None  # in play
        hands = self.hands
        beatable = first_failed_unit(list(cards), [hands[s] for s in seats_from(seat)[1:]], self.ctx)
        if beatable is None:
            return cards
        forced = tuple(sort_cards(beatable.cards))
        returned = list(cards)
        for c in forced:
            returned.remove(c)
        self._emit(ThrowFailed, seat, attempted=codes(cards), forced=codes(forced), returned=codes(returned))
        points = self.rules.throw_penalty
        if points:
            delta = -points if team(seat) != team(self.banker) else points
            self.adjustments += (("failed throw", delta),)
            self._emit(ThrowPenalty, seat, points=points, attackers_delta=delta)
        return forced

    def _finish_trick(self) -> None:
        plays = self.trick
        assert self.ctx is not None and self.banker is not None  # in play
        assert self.lead_info is not None  # read when the lead was played
        winner = plays[winner_of([c for _, c in plays], self.lead_info, self.ctx, self.rules)][0]
        points = sum([POINTS[c] for _, cards in plays for c in cards])
        if (winner - self.banker) % 2 == 0:      # the banker's side
            self.banker_points += points
        else:
            self.attackers_points += points
        self.tricks.append(TrickRecord(tuple(plays), winner, points))
        emit_trick_won(self.stream, winner, self.trick_number, points, self.attackers_points)
        self.trick = []
        self.trick_number += 1
        self.leader = winner
        self.turn = winner
        if self.table is not None and refereed.revoke.trick_closed(self):
            return
        if self.hand_size[winner] == 0:
            self.finish_deal()

    def finish_deal(self) -> None:
        banker = self.banker
        assert banker is not None and self.ctx is not None  # the deal was played
        last = self.tricks[-1] if self.tricks else None
        last_winner = last.winner if last is not None else banker
        kitty_points = card_points(list(self.kitty))
        multiplier = 0
        bonus = 0
        if last is not None and team(last_winner) != team(banker):
            multiplier = kitty_multiplier(list(last.plays[0][1]), self.ctx, self.rules)
            bonus = kitty_points * multiplier
            self.attackers_points += bonus
        self._emit(KittyRevealed, banker, cards=codes(self.kitty), points=kitty_points,
                   multiplier=multiplier, bonus=bonus)
        raw = self.attackers_points
        points = adjusted_points(raw, self.adjustments)
        side, levels = level_result(points)
        if side == "banker":
            winner_team, next_banker = team(banker), partner(banker)
        else:
            winner_team, next_banker = 1 - team(banker), next_seat(banker)
        self.result = DealResult(
            banker=banker, declarer=None if self.declaration is None else self.declaration.seat,
            level=RANKS[self.level], trump=self.trump, raw_points=raw, points=points,
            adjustments=self.adjustments, banker_points=self.banker_points,
            kitty=tuple(self.kitty), kitty_points=kitty_points, kitty_multiplier=multiplier,
            kitty_bonus=bonus, last_trick_winner=last_winner, side=side, team=winner_team,
            levels=levels, next_banker=next_banker, throws=self.throws, failed_throws=self.failed_throws,
        )
        self._emit(DealScored, banker, raw=raw, points=points, side=side, team=winner_team,
                   levels=levels, next_banker=next_banker)
        self.phase = Phase.SCORED
        self.turn = None

    # -----------------------------------------------------------------------------------------
    # Table primitives (refereed mode adds the rest: shengji.table)

    def adjust_points(self, offender: int, points: int, reason: str) -> list[Event]:
        """A point penalty of ``points`` against ``offender``'s side (enforcement PD): the
        attackers' total drops by it if the offender attacks, rises by it if it defends.
        Refereed mode: before the banker is known (during the draw) it waits until it is."""
        self.move_points(offender, points, reason)
        return self.stream.take()

    def move_points(self, offender: int, points: int, reason: str) -> None:
        """``adjust_points`` leaving its events in the stream."""
        if self.banker is None:
            if self.table is None:
                raise ValueError("no point penalty before the banker is known")
            refereed.points.adjust_points_deferred(self, offender, points, reason)
            return
        delta = points if team(offender) == team(self.banker) else -points
        self.adjustments += ((reason, delta),)
        self._emit(PointsAdjusted, offender, points=points, attackers_delta=delta, reason=reason)

    # -----------------------------------------------------------------------------------------
    # Choices for leads and follows

    def _lead_choices(self, seat: int) -> Choices:
        ctx = self.ctx
        assert ctx is not None  # trump is known in play
        return LeadChoices(self, seat, ctx)

    def _follow_choices(self, seat: int) -> Choices:
        """Listed in full when an upper bound of their number is small. Sampled directly
        for a led single or pair (the common case, uniform over the cards held), else with
        ``sample_follow``; every legal follow has a positive probability."""
        ctx = self.ctx
        assert ctx is not None  # trump is known in play
        return FollowChoices(seat, self.hand(seat), self.trick[0][1], ctx)   # a trick is open


def adjusted_points(raw: int, adjustments: Sequence[tuple[str, int]]) -> int:
    """The attackers' points after penalties (enforcement PD, as
    ``enforcement.ledger.adjusted_attacker_points``): their own penalties lower their captured
    points, never below 0; the banker side's raise them."""
    lower = sum(delta for _, delta in adjustments if delta < 0)
    raise_ = sum(delta for _, delta in adjustments if delta > 0)
    return max(0, raw + lower) + raise_


def _follow_code(message: str, led: int, played: int) -> str:
    """The irregularity id of a follow shengji.follow refused (it reports in words)."""
    if played > led:
        return "extra_card"
    if played < led:
        return "missing_card"
    if message.startswith("cards not in hand"):
        return "cards_not_in_hand"
    return "wrong_follow"


def _plain_follow_ok(counts: list[int], cards: tuple[Card, ...], lead: tuple[Card, ...], ctx: Context) -> bool:
    """A fast yes for the common follows to a led single or pair (held cards; the suit
    followed as far as possible; a pair when the suit holds one). False means "ask
    shengji.follow", which gives the reason."""
    n = len(lead)
    if n == 1 and len(cards) == 1:             # a single: the card held, of the suit or from a void
        card = cards[0]
        if not counts[card]:
            return False
        suit_of = ctx.suit_of
        suit = suit_of[lead[0]]
        return suit_of[card] == suit or not any(map(counts.__getitem__, ctx.kinds[suit]))
    if n > 2 or len(cards) != n or (n == 2 and lead[0] != lead[1]):
        return False
    if not _has_cards(counts, cards):
        return False
    suit_of = ctx.suit_of
    suit = suit_of[lead[0]]
    kinds = ctx.kinds[suit]
    held = sum(map(counts.__getitem__, kinds))
    played = (suit_of[cards[0]] == suit) + (n == 2 and suit_of[cards[1]] == suit)
    if played != (held if held < n else n):
        return False
    if n == 1 or held <= 2 or cards[0] == cards[1]:
        return True
    return not any(counts[c] >= 2 for c in kinds)


# ---------------------------------------------------------------------------------------------
# Stacked packs for tests and puzzles


def stacked_deck(first_drawer: int, draws: "dict[int, Any]", kitty: Any = (), level: "str | int" = "2") -> list[Card]:
    """A pack (top first) for ``Deal(deck=...)``: each seat's first draws are the cards listed
    for it in ``draws``, in order; the pack ends with ``kitty`` (up to 8 cards). The other
    cards fill the gaps in index order, level cards and jokers last (so that they tend to
    end in the kitty and the fill rarely offers a declaration)."""
    lvl = level_index(level)
    wanted = {seat: as_cards(cards) for seat, cards in draws.items()}
    kitty_cards = as_cards(kitty)
    rest = full_deck(2)
    for c in [c for cards in wanted.values() for c in cards] + kitty_cards:
        rest.remove(c)
    rest.sort(key=lambda c: (c >= 52 or c % 13 == lvl, c))
    fill = iter(rest[:len(rest) - (KITTY_SIZE - len(kitty_cards))])
    tail = rest[len(rest) - (KITTY_SIZE - len(kitty_cards)):]
    deck: list[Card] = []
    taken = {seat: 0 for seat in range(4)}
    for i in range(DECK_SIZE - KITTY_SIZE):
        seat = (first_drawer + i) % 4
        mine = wanted.get(seat, [])
        if taken[seat] < len(mine):
            deck.append(mine[taken[seat]])
            taken[seat] += 1
        else:
            deck.append(next(fill))
    return deck + tail + kitty_cards
