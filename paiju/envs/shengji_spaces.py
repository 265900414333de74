"""双升 for learning agents: the engine set-up, the action codec and the observation layout
(``paiju.envs.shengji_v0`` puts them in a PettingZoo environment; docs/guides/training-agents.md has the tables).

Actions (one ``Discrete(N_ACTIONS)`` space):

    0-53                  CARD c: add one copy of card c to the play (or burial) being composed
    DONE (54)             end a lead: the cards composed so far are the lead (a throw if several units)
    DECLARE_BASE + c      declare (亮主/反主) with one card c
    DECLARE_PAIR_BASE + c declare with the pair of c
    NO_DECLARE            let this chance to declare go
    DRAW                  refereed table step: let the draw run on
    CHOOSE_BASE + i       answer the table's choice with CHOOSE_OPTIONS[i] (random_draw, decline, redeal)
    HAND_OVER_BASE + c    answer a hand-over choice: hand card c over

Plays and burials are combinatorial (any multiset of one suit may be led; a follow from a
void may be any cards; a burial any 8 of 33), so they are composed card by card: each
CARD step adds one card, and the mask only ever allows a card that some legal play (or
burial) containing the cards so far also contains. A follow is played when it has as many
cards as the lead, a burial when it has the kitty's size; a lead when DONE is chosen. The
agent keeps the turn while it composes (the other seats do not move), and the observation
shows the cards selected so far. Declarations, no-declaration and the referee's choices
are single steps. The exact-mask rule: for a follow, the legal follows are enumerated when
the follower must follow suit with pairs or tractors (few), and read from the follow
rules otherwise (short of the suit: the whole suit plus any other cards; no pair led: any
cards of the suit).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right

from typing import Any

import numpy as np

from shengji.actions import Bury, Choose, Declare, Draw, NoDeclare, Play
from shengji.follow import lead_info, legal_follows
from shengji.phase import Phase
from tabletop.cards import CARDS, NUM_CARD_KINDS, RANKS, format_cards
from tabletop.errors import OptionError

from paiju.envs.layout import CARD_KINDS, SEATS, Layout, add_cards, cards_of, relative

GAME = "shengji"
ENV_NAME = "shengji_v0"

# ---------------------------------------------------------------------------------------------
# Actions

DONE = NUM_CARD_KINDS
DECLARE_BASE = DONE + 1
DECLARE_PAIR_BASE = DECLARE_BASE + NUM_CARD_KINDS
NO_DECLARE = DECLARE_PAIR_BASE + NUM_CARD_KINDS
DRAW = NO_DECLARE + 1
CHOOSE_OPTIONS = ("random_draw", "decline", "redeal")
CHOOSE_BASE = DRAW + 1
HAND_OVER_BASE = CHOOSE_BASE + len(CHOOSE_OPTIONS)
N_ACTIONS = HAND_OVER_BASE + NUM_CARD_KINDS
STEP_STARTS = (0, DONE, DECLARE_BASE, DECLARE_PAIR_BASE, NO_DECLARE, DRAW, CHOOSE_BASE, HAND_OVER_BASE)
"""The first id of each kind of step (a card, done, declare one, declare a pair, no
declaration, draw, choose, hand over a card)."""
F_STEP = CARD_KINDS
F_OPTION = F_STEP + len(STEP_STARTS)
FEATURE_WIDTH = F_OPTION + len(CHOOSE_OPTIONS)
"""Columns of an action-features row (``Decision.features``): 54 card counts, the kind of
step, a choice's option: one row per action id."""
_CHOOSE_INDEX = {o: i for i, o in enumerate(CHOOSE_OPTIONS)}
_CODE_TO_CARD = {str(c): int(c) for c in CARDS}


def encode(action: Any) -> list[int]:
    """The action ids that make ``action``: one id, or for a play or burial its cards' ids
    in canonical order (then DONE for a lead, ``lead=True``; see ``encode_play``)."""
    kind = type(action)
    if kind is Declare:
        cards = action.cards
        if len(cards) == 1:
            return [DECLARE_BASE + cards[0]]
        if len(cards) == 2 and cards[0] == cards[1]:
            return [DECLARE_PAIR_BASE + cards[0]]
    elif kind is NoDeclare:
        return [NO_DECLARE]
    elif kind is Draw and not action.flawed:
        return [DRAW]
    elif kind is Choose:
        if action.option in _CHOOSE_INDEX:
            return [CHOOSE_BASE + _CHOOSE_INDEX[action.option]]
        if action.option in _CODE_TO_CARD:
            return [HAND_OVER_BASE + _CODE_TO_CARD[action.option]]
    elif kind is Bury:
        return [int(c) for c in action.cards]
    raise ValueError(f"no action id for {action!r} (plays: encode_play; irregular actions have none)")


def encode_play(action: Play, lead: bool) -> list[int]:
    """A play's ids: its cards (canonical order), then DONE when it is a lead."""
    return [int(c) for c in action.cards] + ([DONE] if lead else [])


def describe(action_id: int) -> str:
    a = int(action_id)
    if 0 <= a < DONE:
        return f"CARD {CARDS[a]}"
    if a == DONE:
        return "DONE"
    if DECLARE_BASE <= a < DECLARE_PAIR_BASE:
        return f"DECLARE {CARDS[a - DECLARE_BASE]}"
    if DECLARE_PAIR_BASE <= a < NO_DECLARE:
        return f"DECLARE {CARDS[a - DECLARE_PAIR_BASE]} {CARDS[a - DECLARE_PAIR_BASE]}"
    if a == NO_DECLARE:
        return "NO_DECLARE"
    if a == DRAW:
        return "DRAW"
    if CHOOSE_BASE <= a < HAND_OVER_BASE:
        return f"CHOOSE {CHOOSE_OPTIONS[a - CHOOSE_BASE]}"
    if HAND_OVER_BASE <= a < N_ACTIONS:
        return f"HAND_OVER {CARDS[a - HAND_OVER_BASE]}"
    raise ValueError(f"not a 双升 action id: {action_id!r} (0-{N_ACTIONS - 1})")


_SUITS: dict[int, tuple[Any, np.ndarray]] = {}


def _suits(ctx: Any) -> np.ndarray:
    """The effective suit of each card as an array, kept per (shared, immutable) context."""
    got = _SUITS.get(id(ctx))
    if got is None or got[0] is not ctx:
        if len(_SUITS) > 256:
            _SUITS.clear()
        got = _SUITS[id(ctx)] = (ctx, np.array(ctx.suit_of, np.int64))
    return got[1]


def _suit_is(ctx: Any) -> tuple[np.ndarray, ...]:
    """Per effective suit (0-4), which cards are of it (bool arrays), kept per context."""
    got = _SUIT_IS.get(id(ctx))
    if got is None or got[0] is not ctx:
        if len(_SUIT_IS) > 256:
            _SUIT_IS.clear()
        suit_of = _suits(ctx)
        got = _SUIT_IS[id(ctx)] = (ctx, tuple(suit_of == suit for suit in range(5)))
    return got[1]


_SUIT_IS: dict[int, tuple[Any, tuple[np.ndarray, ...]]] = {}


MODES = (None, "lead", "follow", "bury")
"""What is being composed card by card (None: a single-step decision)."""


class Decision:
    """The acting seat's decision. A single-step one lists its legal actions; a composed
    one (lead, follow, burial) keeps the cards selected so far and masks the cards that
    can still complete a legal play."""

    def __init__(self, engine: Any, seat: int, view: Any, tracker: Any) -> None:
        self.seat = seat
        self.legal = engine.legal_actions()
        self.selected = np.zeros(CARD_KINDS, np.int16)
        self.chosen: list[Any] = []
        self.count = 0
        self.need = 0
        phase = view.phase
        self.mode = None
        if view.situation not in ("choice", "draw"):
            if phase is Phase.KITTY:
                self.mode = "bury"
            elif phase is Phase.PLAY:
                self.mode = "follow" if view.trick else "lead"
        if self.mode is None:
            self.listed = tuple(self.legal)
            self.ids = np.array([encode(a)[0] for a in self.listed], np.int64)
            self.mask = np.zeros(N_ACTIONS, np.int8)
            self.mask[self.ids] = 1
            return
        self.hand = np.bincount(np.fromiter(view.hand, np.intp, len(view.hand)), minlength=CARD_KINDS)
        self.ctx = view.context
        self.follows: np.ndarray | None = None
        if self.mode == "bury":
            self.need = len(self.legal[0].cards)
        elif self.mode == "follow":
            self._start_follow(view)
        else:
            self.suit_of = self.ctx.suit_of
        self._mask()

    def _start_follow(self, view: Any) -> None:
        lead = view.trick[0][1]
        ctx = self.ctx
        info = lead_info(lead, ctx)
        self.need = n = info.n
        self.in_suit = _suit_is(ctx)[info.suit]
        self.off_suit = 0   # cards of other suits selected so far
        held = int(self.hand[self.in_suit].sum())
        self.free = n - held if held <= n else 0      # cards of other suits the follow may hold
        self.strict = held > n and info.pairs > 0
        if self.strict:   # pairs or tractors to follow: the legal follows are few, listed
            rows = [np.bincount(np.fromiter(f, np.intp, len(f)), minlength=CARD_KINDS)
                    for f in legal_follows(view.hand, lead, ctx)]
            self.follows = np.array(rows, np.int16)

    def _mask(self) -> None:
        mask = np.zeros(N_ACTIONS, np.int8)
        cards = mask[:CARD_KINDS]
        mode = self.mode
        if mode == "lead":
            np.greater(self.hand, self.selected, out=cards)   # the cards left in hand
            if self.count:   # the suit of the cards selected so far
                cards &= _suit_is(self.ctx)[self.suit_of[min(self.chosen)]]
                mask[DONE] = 1
        elif mode == "bury":
            np.greater(self.hand, self.selected, out=cards)
        elif self.strict:
            assert self.follows is not None  # listed whenever the follow is strict
            rows = self.follows[(self.follows >= self.selected).all(axis=1)]
            mask[:CARD_KINDS] = (rows > self.selected).any(axis=0)
        else:
            np.greater(self.hand, self.selected, out=cards)
            if not self.free or self.off_suit >= self.free:   # no more cards of other suits
                cards &= self.in_suit
        self.mask = mask

    def choose(self, action_id: int) -> Any:
        """The engine action of ``action_id``, or None when a composition goes on."""
        if self.mode is None:
            return self.listed[int((self.ids == action_id).argmax())]
        if action_id == DONE:
            return Play(self.seat, self.chosen)
        self.selected[action_id] += 1
        card = CARDS[action_id]
        self.chosen.append(card)
        self.count += 1
        if self.mode == "follow" and not self.in_suit[action_id]:
            self.off_suit += 1
        if self.count == self.need:
            return Bury(self.seat, self.chosen) if self.mode == "bury" else Play(self.seat, self.chosen)
        self._mask()
        return None

    def describe(self, action_id: int) -> Any:
        if self.mode is None:
            return self.listed[int((self.ids == action_id).argmax())]
        return describe(action_id)

    def features(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, rows): each legal id's row (``FEATURE_WIDTH``): the cards it adds or declares
        or hands over, the kind of step, a choice's option."""
        ids = np.flatnonzero(self.mask)
        rows = np.zeros((len(ids), FEATURE_WIDTH), np.int8)
        for i, a in enumerate(ids):
            rows[i, F_STEP + bisect_right(STEP_STARTS, a) - 1] = 1
            if CHOOSE_BASE <= a < HAND_OVER_BASE:
                rows[i, F_OPTION + a - CHOOSE_BASE] = 1
            elif a >= HAND_OVER_BASE:
                rows[i, a - HAND_OVER_BASE] = 1
            if a < CARD_KINDS:
                rows[i, a] = 1
            elif DECLARE_BASE <= a < NO_DECLARE:
                rows[i, (a - DECLARE_BASE) % CARD_KINDS] = 1 if a < DECLARE_PAIR_BASE else 2
        return ids, rows


# ---------------------------------------------------------------------------------------------
# Observations

PHASES = (Phase.DRAW, Phase.DECLARE, Phase.KITTY, Phase.PLAY, Phase.SCORED, Phase.AWAITING_RULING)
_PHASE_CODE = {p: i for i, p in enumerate(PHASES)}
TRUMPS = ("unknown", "S", "H", "C", "D", "none")
SITUATIONS = (None, "draw", "choice", "awaiting_ruling")
_SITUATION_CODE = {s: i for i, s in enumerate(SITUATIONS)}
CHOICE_PURPOSES = (None, "miscount_draw", "miscount_remedy", "hand_over")
_PURPOSE_CODE = {p: i for i, p in enumerate(CHOICE_PURPOSES)}
_REL = "by relative seat (0 me, 1 my 下家, 2 my partner, 3 my 上家)"

LAYOUT = Layout([
    ("hand", (CARD_KINDS,), 0, 2, "my hand: copies of each card (card index = suit·13 + rank, S H C D, 2…A; 52 BJ, 53 RJ)"),
    ("selected", (CARD_KINDS,), 0, 2, "cards selected so far in the play or burial being composed"),
    ("trick", (SEATS, CARD_KINDS), 0, 2, f"the trick so far (the lead is the led seat's row), {_REL}"),
    ("last_trick", (SEATS, CARD_KINDS), 0, 2, f"the last completed trick, {_REL}"),
    ("played", (SEATS, CARD_KINDS), 0, 2, f"cards of this deal's completed tricks, {_REL} (remembered as they closed)"),
    ("kitty", (CARD_KINDS,), 0, 2, "the buried kitty (the banker, once buried; everyone after the last trick)"),
    ("declaration", (CARD_KINDS,), 0, 2, "the cards of the standing declaration"),
    ("exposed", (SEATS, CARD_KINDS), 0, 2, f"exposed cards (暴露张), still the owner's, {_REL}"),
    ("on_table", (SEATS, CARD_KINDS), 0, 2, f"cards laid on the table but not part of the play, {_REL}"),
    ("phase", (), 0, 5, "0 draw, 1 last chance to declare, 2 kitty, 3 play, 4 scored, 5 awaiting a ruling"),
    ("level", (), 0, 12, "the deal's level, rank index (0 = 2 … 12 = A)"),
    ("team_levels", (2,), 0, 12, "my side's level, the other side's"),
    ("seat", (), 0, 3, "my seat"),
    ("trump", (), 0, 5, "0 not known yet, 1-4 S H C D, 5 no-trump"),
    ("banker", (), 0, SEATS, "relative seat of the banker + 1 (0: not known yet)"),
    ("declarer", (), 0, SEATS, "relative seat of the standing declaration + 1 (0: none)"),
    ("to_act", (), 0, SEATS, "relative seat to act + 1 (0: nobody)"),
    ("leader", (), 0, SEATS, "relative seat that led this trick + 1"),
    ("last_winner", (), 0, SEATS, "relative seat that won the last trick + 1"),
    ("trick_number", (), 0, 60, "tricks completed"),
    ("points", (2,), 0, 10_000, "attackers' points, banker side's points (captured so far)"),
    ("adjustment", (), -10_000, 10_000, "the attackers' points added (or taken) by penalties so far"),
    ("hand_sizes", (SEATS,), 0, 40, f"cards held, {_REL}"),
    ("stock_left", (), 0, 108, "cards still to draw"),
    ("compose", (), 0, 3, "what I am composing: 0 nothing (a single-step decision), 1 a lead, 2 a follow, 3 a burial"),
    ("need", (), 0, 60, "cards the follow or burial must have (0: a lead, ended by DONE)"),
    ("situation", (), 0, len(SITUATIONS) - 1, "0 ordinary, 1 draw step, 2 choice, 3 awaiting a ruling"),
    ("choice", (), 0, len(CHOICE_PURPOSES) - 1, "the choice asked of me: 0 none, 1 miscount draw, 2 miscount remedy, 3 hand over"),
    ("declare_barred", (SEATS,), 0, 1, f"has lost the right to declare, {_REL}"),
])
SIZE = LAYOUT.size
_O = {name: LAYOUT.offset(name) for name, *_ in LAYOUT.fields}
O_STATUS = _O["phase"]
_ROTATIONS = tuple(np.array([(me + r) % SEATS for r in range(SEATS)]) for me in range(SEATS))


def observation_space() -> Any:
    return LAYOUT.space()


def unpack(vector: np.ndarray) -> dict[str, np.ndarray]:
    return LAYOUT.unpack(vector)


class Tracker:
    """Per-episode memory: the cards of each completed trick, per seat (read from the last
    trick, which every seat sees, whenever a trick is won)."""

    def __init__(self, engine: Any) -> None:
        self.played = np.zeros((SEATS, CARD_KINDS), np.int16)
        self.last: tuple[Any, int, np.ndarray] | None = None
        """(view, seat, its observation): a composition step changes only the selection."""
        self._trick = 0   # the trick number last seen by ``catch_up``
        self._changes = 0   # how many times ``played`` has changed
        self._rotated: dict[int, tuple[int, array]] = {}

    def rotated(self, me: int) -> array:
        """``played`` from ``me``'s seat round (relative rows), as int16 cells, kept while
        ``played`` stays the same (it changes when a trick closes)."""
        got = self._rotated.get(me)
        if got is None or got[0] != self._changes:
            got = self._rotated[me] = (self._changes, array("h", self.played[_ROTATIONS[me]].tobytes()))
        return got[1]

    def catch_up(self, view: Any) -> None:
        """Outside an env (no events; ``paiju.envs.policy``): count the last trick when the
        view's trick number has moved on (a seat plays in every trick, so it sees each close),
        and start again when it went back (a new deal)."""
        number = view.trick_number
        if number != self._trick:
            self._changes += 1
        if number < self._trick:
            self.played[:] = 0
        elif number > self._trick:
            for seat, cards in view.last_trick:
                add_cards(self.played[seat], 0, cards)
        self._trick = number

    def on_event(self, event: Any, engine: Any) -> None:
        self._changes += 1
        if event.KIND == "sj.deal_started":
            self.played[:] = 0
            return
        for seat, cards in engine.observe(0).last_trick:
            add_cards(self.played[seat], 0, cards)


TRACKED_EVENTS = frozenset({"sj.trick_won", "sj.deal_started"})
REWARD_EVENTS = {"sj.scored": "scored", "sj.match_over": "match_over"}


def encode_observation(view: Any, me: int, tracker: Tracker, decision: Any = None) -> np.ndarray:
    composing = decision is not None and decision.mode is not None
    last = tracker.last
    if composing and last is not None and last[0] is view and last[1] == me:   # the same table, one card further
        out = last[2].copy()
        out[_O["selected"]:_O["selected"] + CARD_KINDS] = decision.selected
        return out
    out = _encode(view, me, tracker, decision, composing)
    if composing:
        tracker.last = (view, me, out.copy())
    return out


def _encode(view: Any, me: int, tracker: Tracker, decision: Any, composing: bool) -> np.ndarray:
    # counted item by item into a fresh int16 buffer (a few dozen cards: cheaper than any
    # numpy call per field), the scalars written as one slice
    cells = array("h", _ZERO_BYTES)
    for card in view.hand:
        cells[_O_HAND + card] += 1
    for base, plays in ((_O_TRICK, view.trick), (_O_LAST_TRICK, view.last_trick)):
        for seat, cards in plays:
            at = base + CARD_KINDS * ((seat - me) % 4)
            for card in cards:
                cells[at + card] += 1
    if view.kitty:
        for card in view.kitty:
            cells[_O_KITTY + card] += 1
    declaration = view.declaration
    if declaration is not None:
        for card in declaration.cards:
            cells[_O_DECLARATION + card] += 1
    exposed = view.exposed
    if any(exposed):
        for seat in range(SEATS):
            at = _O_EXPOSED + CARD_KINDS * relative(seat, me)
            for card in exposed[seat]:
                cells[at + card] += 1
    for seat, cards in view.on_table:
        at = _O_ON_TABLE + CARD_KINDS * relative(seat, me)
        for card in cards:
            cells[at + card] += 1
    levels = view.levels
    mine, theirs = _RANK_INDEX[levels[me % 2]], _RANK_INDEX[levels[1 - me % 2]]
    trump = 0 if not view.trump_known else (5 if view.trump is None else 1 + "SHCD".index(view.trump))
    banker, to_act, leader, winner = view.banker, view.to_act, view.leader, view.last_trick_winner
    sizes = [0] * SEATS
    for seat, n in enumerate(view.hand_sizes):
        sizes[(seat - me) % 4] = n
    barred = [0] * SEATS
    for seat in view.declare_barred:
        barred[(seat - me) % 4] = 1
    choice = _PURPOSE_CODE.get(view.choice[0], 0) if view.choice is not None else 0
    adjustments = view.adjustments
    cells[O_STATUS:] = array("h", [
        _PHASE_CODE[view.phase], _RANK_INDEX[view.level], mine, theirs, me, trump,
        0 if banker is None else (banker - me) % 4 + 1,
        0 if declaration is None else (declaration.seat - me) % 4 + 1,
        0 if to_act is None else (to_act - me) % 4 + 1, 0 if leader is None else (leader - me) % 4 + 1,
        0 if winner is None else (winner - me) % 4 + 1, view.trick_number, view.attackers_points,
        view.banker_points, sum(delta for _reason, delta in adjustments) if adjustments else 0, *sizes,
        view.stock_left, _MODE_CODE[decision.mode] if composing else 0, decision.need if composing else 0,
        _SITUATION_CODE.get(view.situation, 0), choice, *barred])
    cells[_O_PLAYED:_O_PLAYED + SEATS * CARD_KINDS] = tracker.rotated(me)
    out = np.frombuffer(cells, np.int16)   # a fresh array over the buffer (no copy)
    if composing:
        out[_O_SELECTED:_O_SELECTED + CARD_KINDS] = decision.selected
    return out


_ZERO_BYTES = bytes(2 * SIZE)
_O_HAND, _O_SELECTED, _O_TRICK, _O_LAST_TRICK, _O_PLAYED, _O_KITTY, _O_DECLARATION, _O_EXPOSED, _O_ON_TABLE = (
    _O["hand"], _O["selected"], _O["trick"], _O["last_trick"], _O["played"], _O["kitty"], _O["declaration"],
    _O["exposed"], _O["on_table"])
_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_MODE_CODE = {mode: i for i, mode in enumerate(MODES)}
assert [name for name, *_ in LAYOUT.fields[9:]] == [
    "phase", "level", "team_levels", "seat", "trump", "banker", "declarer", "to_act", "leader", "last_winner",
    "trick_number", "points", "adjustment", "hand_sizes", "stock_left", "compose", "need", "situation", "choice",
    "declare_barred"]   # _encode's status list


def decode_observation(vector: np.ndarray) -> dict[str, Any]:
    """The engine's view back from an observation vector (absolute seats, card tuples)."""
    f = unpack(vector)
    me = int(f["seat"])

    def absolute(rel_plus_one: Any) -> int | None:
        r = int(rel_plus_one)
        return None if r == 0 else (r - 1 + me) % 4

    def plays(rows: np.ndarray) -> tuple:
        return tuple((seat, cards_of(rows[relative(seat, me)])) for seat in range(SEATS)
                     if rows[relative(seat, me)].any())

    trump = int(f["trump"])
    return {
        "seat": me, "hand": cards_of(f["hand"]), "selected": cards_of(f["selected"]),
        "trick": plays(f["trick"]), "last_trick": plays(f["last_trick"]),
        "played": tuple(cards_of(f["played"][relative(s, me)]) for s in range(SEATS)),
        "kitty": cards_of(f["kitty"]), "declaration": cards_of(f["declaration"]),
        "exposed": tuple(cards_of(f["exposed"][relative(s, me)]) for s in range(SEATS)),
        "phase": PHASES[int(f["phase"])], "level": RANKS[int(f["level"])],
        "trump_known": trump != 0, "trump": None if trump in (0, 5) else "SHCD"[trump - 1],
        "banker": absolute(f["banker"]), "declarer": absolute(f["declarer"]), "to_act": absolute(f["to_act"]),
        "leader": absolute(f["leader"]), "last_trick_winner": absolute(f["last_winner"]),
        "trick_number": int(f["trick_number"]), "attackers_points": int(f["points"][0]),
        "banker_points": int(f["points"][1]),
        "hand_sizes": tuple(int(f["hand_sizes"][relative(s, me)]) for s in range(SEATS)),
        "stock_left": int(f["stock_left"]), "compose": MODES[int(f["compose"])], "need": int(f["need"]),
        "situation": SITUATIONS[int(f["situation"])], "choice_purpose": CHOICE_PURPOSES[int(f["choice"])],
        "declare_barred": tuple(s for s in range(SEATS) if f["declare_barred"][relative(s, me)]),
    }


# ---------------------------------------------------------------------------------------------
# Engines

def check_level(level: Any, episode: str) -> int:
    from shengji.deal import level_index

    try:
        return level_index(str(level))
    except Exception:
        raise OptionError(f"level must be a rank 2-9, T, J, Q, K or A, got {level!r}") from None


def new_engine(seed: int, episode: str, level: int, rules: Any, engine_options: dict[str, Any]) -> Any:
    """A deal drawn card by card with both sides at ``level`` (the declaration makes the
    banker), or a match starting there, seeded with ``seed``."""
    if episode == "match":
        from shengji.match import Match

        return Match(seed, rules, levels=(level, level), **engine_options)
    from shengji.deal import Deal

    return Deal(seed, rules=rules, levels=(level, level), **engine_options)


def render(engine: Any, seat: int | None) -> str:
    if seat is None:
        return f"双升: over, {engine.result}"
    view = engine.observe(seat)
    trick = " | ".join(f"{s}: {format_cards(c)}" for s, c in view.trick) or "lead"
    return (f"双升 level {view.level}, trump {view.trump if view.trump_known else '?'}: seat {seat} to act "
            f"({view.phase.value}), trick {trick}; hand {format_cards(view.hand)}")
