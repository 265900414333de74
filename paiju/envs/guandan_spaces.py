"""掼蛋 for learning agents: the engine set-up, the action codec and the observation layout
(``paiju.envs.guandan_v0`` puts them in a PettingZoo environment; docs/guides/training-agents.md has the tables).

Actions (one ``Discrete(N_ACTIONS)`` space; ids are fixed, whatever the state):

    0                     PASS
    1 + 3·r + w           PLAY reading r (``guandan.combos.ALL_READINGS[r]``, 223 of them)
                          holding w heart level cards (wild cards; 0-2)
    TRIBUTE_BASE + c      give card c as tribute (c = card index 0-53)
    RETURN_BASE + c       return card c
    DRAW, REPORT, CALL_REFEREE      refereed table steps: let the draw run on, 报牌 (the true
                          count), call the referee on an out-of-turn play
    CHOOSE_BASE + i       answer the table's choice with ``CHOICE_OPTIONS[i]``

A play is canonical: the engine lists each reading once per number of wild cards it uses,
with one deterministic choice of cards (``guandan.movegen``: natural cards in suit order
S H C D, never a wild where a natural card serves, extra wilds in the highest places), and
(reading, heart level cards) names that play exactly. What this gives up: *which* copies
of a rank a play takes (S7 C7 or H7 D7 for PAIR 7) — it matters only for straight flushes
kept back in hand, and the canonical choice already takes the suits in a fixed order.
"""

from __future__ import annotations

from bisect import bisect_right

from array import array
from typing import Any

import numpy as np

from guandan.actions import CallReferee, Choose, Draw, GiveTribute, Pass, Play, Report, ReturnCard
from guandan.combos import ALL_READINGS, BOMB_SIZES, Kind
from guandan.movegen import Plays, recipe_keys
from guandan.observation import Phase
from guandan.ranks import level_index, level_text
from guandan.refereed.restrictions import LEAD_OPTIONS
from guandan.refereed.take_back import REPLAY_OPTIONS
from tabletop.cards import CARDS, NUM_CARD_KINDS, format_cards
from tabletop.errors import OptionError

from paiju.envs.layout import CARD_KINDS, SEATS, Layout, add_cards, cards_of, relative

GAME = "guandan"
ENV_NAME = "guandan_v0"

# ---------------------------------------------------------------------------------------------
# Actions

N_READINGS = len(ALL_READINGS)
MAX_WILDS = 2
PASS = 0
PLAY_BASE = 1
TRIBUTE_BASE = PLAY_BASE + (MAX_WILDS + 1) * N_READINGS
RETURN_BASE = TRIBUTE_BASE + NUM_CARD_KINDS
DRAW = RETURN_BASE + NUM_CARD_KINDS
REPORT = DRAW + 1
CALL_REFEREE = REPORT + 1
CHOOSE_BASE = CALL_REFEREE + 1
KIND_KEYS = tuple([k.name for k in Kind if k.value < Kind.BOMB.value] + [f"BOMB {n}" for n in BOMB_SIZES]
                  + ["STRAIGHT_FLUSH", "JOKER_BOMB"])
"""The combination types of lead options and designations (``guandan.table.kind_key``)."""
CHOICE_OPTIONS = tuple(LEAD_OPTIONS) + tuple(REPLAY_OPTIONS) + KIND_KEYS
N_ACTIONS = CHOOSE_BASE + len(CHOICE_OPTIONS)
STEP_STARTS = (PASS, PLAY_BASE, TRIBUTE_BASE, RETURN_BASE, DRAW, REPORT, CALL_REFEREE, CHOOSE_BASE)
"""The first id of each kind of step (pass, play, tribute, return, draw, 报牌, call, choose)."""
F_STEP = CARD_KINDS
F_KIND = F_STEP + len(STEP_STARTS)
F_RANK = F_KIND + len(Kind)
F_SUIT = F_RANK + 16
F_WILDS = F_SUIT + 5
F_OPTION = F_WILDS + MAX_WILDS + 1
FEATURE_WIDTH = F_OPTION + len(CHOICE_OPTIONS)
"""Columns of an action-features row (``Decision.features``): 54 card counts, the kind of
step, a play's reading (kind, key rank 2…A BJ RJ or none, straight-flush suit S H C D or
none) and how many wild cards stand in (0-2), a choice's option: one row per action id."""
_SUIT_COLUMN = {"S": 0, "H": 1, "C": 2, "D": 3}
_CHOICE_INDEX = {o: i for i, o in enumerate(CHOICE_OPTIONS)}


def wild_card(level: int) -> int:
    """The card index of the wild card (the heart of the level rank)."""
    return 13 + level


def encode(action: Any, level: "int | str") -> int:
    """The action id of an engine action at a deal of ``level`` (rank index or text)."""
    level = level if isinstance(level, int) else level_index(level)
    kind = type(action)
    if kind is Pass:
        return PASS
    if kind is Play:
        return PLAY_BASE + 3 * action.reading.id + action.cards.count(13 + level)
    if kind is GiveTribute and action.discovered is None:
        return TRIBUTE_BASE + action.card
    if kind is ReturnCard and action.to is None and action.discovered is None:
        return RETURN_BASE + action.card
    if kind is Draw and not action.flawed:
        return DRAW
    if kind is Report:
        return REPORT
    if kind is CallReferee:
        return CALL_REFEREE
    if kind is Choose and action.option in _CHOICE_INDEX:
        return CHOOSE_BASE + _CHOICE_INDEX[action.option]
    raise ValueError(f"no action id for {action!r} (an irregular action is never one of the agent's)")


def describe(action_id: int) -> str:
    """What an action id means, in words (e.g. 'PLAY PAIR 9 with 1 wild')."""
    a = int(action_id)
    if a == PASS:
        return "PASS"
    if PLAY_BASE <= a < TRIBUTE_BASE:
        r, w = divmod(a - PLAY_BASE, 3)
        return f"PLAY {ALL_READINGS[r].code}" + (f" with {w} wild" if w else "")
    if TRIBUTE_BASE <= a < RETURN_BASE:
        return f"TRIBUTE {CARDS[a - TRIBUTE_BASE]}"
    if RETURN_BASE <= a < DRAW:
        return f"RETURN {CARDS[a - RETURN_BASE]}"
    if a in (DRAW, REPORT, CALL_REFEREE):
        return ("DRAW", "REPORT", "CALL_REFEREE")[a - DRAW]
    if CHOOSE_BASE <= a < N_ACTIONS:
        return f"CHOOSE {CHOICE_OPTIONS[a - CHOOSE_BASE]}"
    raise ValueError(f"not a 掼蛋 action id: {action_id!r} (0-{N_ACTIONS - 1})")


_BY_HAND: dict[int, tuple[Any, dict]] = {}
_BY_HAND_LIMIT = 2048
_LEAD = -1


def _hand_ids(plays: Plays) -> dict:
    """The ids kept for an analysed hand (the movegen keeps analysed hands, and a hand is
    asked about again and again): per comparison class, and for the lead, (list, array)."""
    hand = plays.hand
    entry = _BY_HAND.get(id(hand))
    if entry is None or entry[0] is not hand:
        if len(_BY_HAND) >= _BY_HAND_LIMIT:
            _BY_HAND.clear()
        entry = _BY_HAND[id(hand)] = (hand, {})
    return entry[1]


def _class_ids(kept: dict, comparison_class: int, recipes: list) -> list[int]:
    got = kept.get(comparison_class)
    if got is None:
        got = kept[comparison_class] = recipe_keys(recipes, base=PLAY_BASE)
    return got


def legal_ids(legal: Any, level: int) -> list[int]:
    """The action ids of an engine's legal actions, in their order."""
    return legal_ids_and_mask(legal, level)[0]


def legal_ids_and_mask(legal: Any, level: int) -> tuple[list[int], np.ndarray]:
    """The action ids of an engine's legal actions (in their order) and the mask."""
    moves = getattr(legal, "moves", None)
    mask = np.zeros(N_ACTIONS, np.int8)
    if type(moves) is not Plays:   # tribute, return, the table's steps, restricted plays: few
        ids = [encode(a, level) for a in legal]
    else:   # ordinary play: ids per class of the analysed hand, no cards made
        kept = _hand_ids(moves)
        segments = moves.segments
        if not legal.can_pass and all(first == 0 for _c, _r, first in segments):   # a lead: every class
            got = kept.get(_LEAD)
            if got is None:   # every class in one pass (a class's own list is made when a follow needs it)
                ids = recipe_keys(*[recipes for _c, recipes, _f in segments], base=PLAY_BASE)
                mask[np.array(ids, np.intp)] = 1
                got = kept[_LEAD] = (ids, mask)
            return got[0], got[1].copy()   # the kept mask stays the env's: each decision has its own
        ids = [PASS] if legal.can_pass else []
        for comparison_class, recipes, first in segments:
            keys = _class_ids(kept, comparison_class, recipes)
            ids += keys[first:] if first else keys
    if len(ids) < _FEW:   # item by item (through a memoryview: numpy's own item writes cost 3x more)
        cells = mask.data
        for action_id in ids:
            cells[action_id] = 1
    else:
        mask[np.array(ids, np.intp)] = 1
    return ids, mask


_FEW = 32


class Decision:
    """The acting seat's decision: its legal actions, their ids and the mask."""

    __slots__ = ("seat", "legal", "ids", "mask", "level")

    def __init__(self, engine: Any, seat: int, view: Any, tracker: Any) -> None:
        self.seat = seat
        self.level = view.level
        self.legal = engine.legal_actions()
        self.ids, self.mask = legal_ids_and_mask(self.legal, self.level)

    def choose(self, action_id: int) -> Any:
        """The engine action of ``action_id`` (one of the legal ones, as listed)."""
        return self.legal[self.ids.index(action_id)]

    def describe(self, action_id: int) -> Any:
        return self.choose(action_id)

    def features(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, rows): each legal action's row (``FEATURE_WIDTH``): the 54 counts of the
        cards it puts down (a pass, a table step: none) and what tells actions with the same
        cards apart (the kind of step, the reading, the wild cards standing in, the option)."""
        rows = np.zeros((len(self.ids), FEATURE_WIDTH), np.int8)
        for i, (action, action_id) in enumerate(zip(self.legal, self.ids)):
            row = rows[i]
            kind = type(action)
            if kind is Play:
                np.add.at(row, np.fromiter(action.cards, np.intp, len(action.cards)), 1)
                reading_id, wilds = divmod(action_id - PLAY_BASE, MAX_WILDS + 1)
                reading = ALL_READINGS[reading_id]
                row[F_KIND + reading.kind.value] = 1
                row[F_RANK + (15 if reading.rank_index is None else reading.rank_index)] = 1
                row[F_SUIT + _SUIT_COLUMN.get(reading.suit or "", 4)] = 1
                row[F_WILDS + wilds] = 1
            elif kind is GiveTribute or kind is ReturnCard:
                row[action.card] = 1
            elif action_id >= CHOOSE_BASE:
                row[F_OPTION + action_id - CHOOSE_BASE] = 1
            row[F_STEP + bisect_right(STEP_STARTS, action_id) - 1] = 1
        return np.array(self.ids, np.int64), rows


# ---------------------------------------------------------------------------------------------
# Observations

PHASES = (Phase.DRAW, Phase.TRIBUTE, Phase.RETURN, Phase.PLAY, Phase.SCORED, Phase.AWAITING_RULING)
_PHASE_CODE = {p: i for i, p in enumerate(PHASES)}
SITUATIONS = (None, "draw", "report", "choice", "out_of_turn", "correction", "pass_sequence", "awaiting_ruling")
_SITUATION_CODE = {s: i for i, s in enumerate(SITUATIONS)}
CHOICE_PURPOSES = (None, "lead_option", "designate", "replay", "partner_replay")
_PURPOSE_CODE = {p: i for i, p in enumerate(CHOICE_PURPOSES)}
RESTRICTION_RULES = (None, "forbid", "require", "cards")
_RULE_CODE = {r: i for i, r in enumerate(RESTRICTION_RULES)}
_KIND_CODE = {k: i + 1 for i, k in enumerate(KIND_KEYS)}
_REL = "by relative seat (0 me, 1 my 下家, 2 my partner, 3 my 上家)"

LAYOUT = Layout([
    ("hand", (CARD_KINDS,), 0, 2, "my hand: copies of each card (card index = suit·13 + rank, S H C D, 2…A; 52 BJ, 53 RJ)"),
    ("played", (SEATS, CARD_KINDS), 0, 2, f"cards played this deal, {_REL}"),
    ("top", (CARD_KINDS,), 0, 2, "the play to beat (0s when leading; an out-of-turn play waiting for its answer)"),
    ("exposed", (SEATS, CARD_KINDS), 0, 2, f"exposed cards (暴露张, penalty cards included), still the owner's, {_REL}"),
    ("penalty", (SEATS, CARD_KINDS), 0, 2, f"penalty cards (罚张), {_REL}"),
    ("on_table", (SEATS, CARD_KINDS), 0, 2, f"cards laid on the table but not part of the play, {_REL}"),
    ("phase", (), 0, 5, "0 draw, 1 tribute, 2 return, 3 play, 4 scored, 5 awaiting a ruling"),
    ("level", (), 0, 12, "the deal's level, rank index (0 = 2 … 12 = A); the wild card is the heart of it"),
    ("team_levels", (2,), 0, 12, "my side's level, the other side's (a lone deal: the deal's level twice)"),
    ("seat", (), 0, 3, "my seat"),
    ("to_act", (), 0, SEATS, "relative seat to act + 1 (0: nobody)"),
    ("leader", (), 0, SEATS, "relative seat that led the round + 1 (0: none)"),
    ("top_reading", (), 0, N_READINGS, "the play to beat: reading id + 1 (0: none)"),
    ("top_seat", (), 0, SEATS, "relative seat of the play to beat + 1 (0: none)"),
    ("announced", (SEATS,), -1, 27, f"报牌: count last announced, -1 none (more than 10), 0 gone out, {_REL}"),
    ("place", (SEATS,), 0, SEATS, f"finishing place 1-4 (0: still playing), {_REL}"),
    ("passed", (SEATS,), 0, 1, f"passed since the play to beat, {_REL}"),
    ("barred", (SEATS,), 0, 1, f"barred from its next play (禁出一手), {_REL}"),
    ("placed_last", (SEATS,), 0, 1, f"judged 下游 (单下), plays no more, {_REL}"),
    ("restriction", (2,), 0, len(KIND_KEYS),
     "my next lead's restriction: rule (0 none, 1 forbid, 2 require, 3 these cards), type (KIND_KEYS index + 1)"),
    ("situation", (), 0, len(SITUATIONS) - 1,
     "0 ordinary, 1 draw, 2 报牌 due, 3 choice, 4 answer an out-of-turn play, 5 correction, 6 pass sequence, 7 awaiting a ruling"),
    ("choice", (), 0, len(CHOICE_PURPOSES) - 1, "the choice asked of me: 0 none, 1 lead option, 2 designate, 3 replay, 4 partner's replay"),
    ("stock_left", (), 0, 108, "cards still to draw"),
])
SIZE = LAYOUT.size
_O = {name: LAYOUT.offset(name) for name, *_ in LAYOUT.fields}
O_HAND, O_PLAYED, O_TOP, O_EXPOSED, O_PENALTY, O_TABLE, O_STATUS = (
    _O["hand"], _O["played"], _O["top"], _O["exposed"], _O["penalty"], _O["on_table"], _O["phase"])
assert [name for name, *_ in LAYOUT.fields[6:]] == [
    "phase", "level", "team_levels", "seat", "to_act", "leader", "top_reading", "top_seat", "announced", "place",
    "passed", "barred", "placed_last", "restriction", "situation", "choice", "stock_left"]   # encode's status list


def observation_space() -> Any:
    return LAYOUT.space()


def unpack(vector: np.ndarray) -> dict[str, np.ndarray]:
    """An observation vector's fields as named arrays (see ``LAYOUT``)."""
    return LAYOUT.unpack(vector)


class Tracker:
    """Per-episode memory of the env for this game: the cards each seat has played (kept
    up to date from the views, adding only what is new), count vectors of card tuples seen
    before, and the match's levels."""

    def __init__(self, engine: Any) -> None:
        self.match = engine if hasattr(engine, "levels") else None   # a Match keeps TeamLevels
        self._counts: dict[int, tuple[Any, np.ndarray]] = {}
        self.played = np.zeros((2 * SEATS, CARD_KINDS), np.int16)
        """Rows 0-3: each seat's played cards; rows 4-7 the same again, so that the rows from
        seat ``me`` on are the relative order in one slice."""
        self._played_seen: list[tuple] = [(), (), (), ()]

    def counts(self, slot: int, cards: tuple) -> np.ndarray:
        """The count vector of ``cards``, kept per slot while the same tuple comes back."""
        got = self._counts.get(slot)
        if got is not None and got[0] is cards:
            return got[1]
        vec = _counted(cards) if cards else _ZERO
        self._counts[slot] = (cards, vec)
        return vec

    def played_counts(self, played: tuple) -> np.ndarray:
        """(8, 54): each seat's played cards, twice (absolute seats 0-3, 0-3)."""
        seen = self._played_seen
        for seat in range(SEATS):
            cards = played[seat]
            before = seen[seat]
            if cards is not before:
                row = self.played[seat]
                n = len(before)
                if len(cards) == n + 1 and cards[:n] == before:
                    row[cards[-1]] += 1
                elif len(cards) > n and cards[:n] == before:
                    row += _counted(cards[n:])
                else:   # taken back (a refereed table), or a new deal: count again
                    row[:] = _counted(cards) if cards else 0
                self.played[seat + SEATS] = row
                seen[seat] = cards
        return self.played

    def team_levels(self, level: int) -> tuple[int, int]:
        return (level, level) if self.match is None else tuple(self.match.levels.levels)

    def on_event(self, event: Any, engine: Any) -> None:
        pass

    def catch_up(self, view: Any) -> None:
        """Outside an env (no events): nothing to do, the view lists every played card."""


_ROTATIONS = tuple(np.array([(me + r) % SEATS for r in range(SEATS)]) for me in range(SEATS))


def _counted(cards: tuple) -> np.ndarray:
    """54 counts of a tuple of cards (through ``fromiter``: numpy converts a tuple of
    ``Card``, an int subclass, twice as slowly)."""
    return np.bincount(np.fromiter(cards, np.intp, len(cards)), minlength=CARD_KINDS)
_ZERO = np.zeros(CARD_KINDS, np.int64)
TRACKED_EVENTS: frozenset[str] = frozenset()
REWARD_EVENTS = {"gd.scored": "scored", "gd.level_penalty": "penalty", "gd.match_over": "match_over"}


def encode_observation(view: Any, me: int, tracker: Tracker, decision: Any = None) -> np.ndarray:
    """The observation vector of ``view`` (the engine's observation of seat ``me``)."""
    out = np.zeros(SIZE, np.int16)
    hand = view.hand
    counts = tracker.counts
    if hand:
        out[O_HAND:O_HAND + CARD_KINDS] = counts(4 + me, hand)
    out[O_PLAYED:O_PLAYED + SEATS * CARD_KINDS] = tracker.played_counts(view.played)[me:me + SEATS].ravel()
    # the scalar fields, as one list written at once (each numpy item write costs)
    level = view.level
    mine, theirs = tracker.team_levels(level)
    status = [_PHASE_CODE[view.phase], level, theirs if me % 2 else mine, mine if me % 2 else theirs, me,
              0, 0, 0, 0, -1, -1, -1, -1] + [0] * 21
    if view.to_act is not None:
        status[5] = (view.to_act - me) % 4 + 1
    if view.leader is not None:
        status[6] = (view.leader - me) % 4 + 1
    top = view.top
    if top is not None:
        cards = top.cards
        if len(cards) <= 4:   # most plays: item by item beats a count vector
            for card in cards:
                out[O_TOP + card] += 1
        else:
            out[O_TOP:O_TOP + CARD_KINDS] = counts(8, cards)
        status[7] = top.reading.id + 1
        status[8] = (top.seat - me) % 4 + 1
    for seat, count in enumerate(view.announced):
        if count is not None:
            status[9 + (seat - me) % 4] = count
    for place, seat in enumerate(view.finish_order, 1):
        status[13 + (seat - me) % 4] = place
    for seat in view.passed:
        status[17 + (seat - me) % 4] = 1
    if (view.situation is not None or view.on_table or view.barred or view.placed_last or view.stock_left
            or view.restriction is not None or any(view.exposed)):
        _refereed(out, status, view, me)
    out[O_STATUS:] = status
    return out


def _refereed(out: np.ndarray, status: list, view: Any, me: int) -> None:
    """What a refereed table adds to an observation (all public)."""
    if any(view.exposed):
        for seat in range(SEATS):
            add_cards(out, O_EXPOSED + CARD_KINDS * relative(seat, me), view.exposed[seat])
            add_cards(out, O_PENALTY + CARD_KINDS * relative(seat, me), view.penalty[seat])
    for seat, cards in view.on_table:
        add_cards(out, O_TABLE + CARD_KINDS * relative(seat, me), cards)
    for seat in view.barred:
        status[21 + (seat - me) % 4] = 1
    for seat in view.placed_last:
        status[25 + (seat - me) % 4] = 1
    if view.restriction is not None:
        rule, kind = view.restriction
        status[29] = _RULE_CODE.get(rule, 0)
        status[30] = _KIND_CODE.get(kind, 0)
    status[31] = _SITUATION_CODE.get(view.situation, 0)
    if view.choice is not None:
        status[32] = _PURPOSE_CODE.get(view.choice[0], 0)
    status[33] = view.stock_left


_O_TOP_READING, _O_TOP_SEAT, _O_ANNOUNCED, _O_PLACE, _O_PASSED, _O_BARRED, _O_PLACED_LAST = (
    _O["top_reading"], _O["top_seat"], _O["announced"], _O["place"], _O["passed"], _O["barred"], _O["placed_last"])
_ZERO_CELLS = array("h", bytes(2 * CARD_KINDS))
_REFEREED_CARDS = slice(O_EXPOSED, O_TABLE + SEATS * CARD_KINDS)


class ObservationWriter:
    """One seat's observation kept in place between steps: ``write(view)`` changes only
    what changed since the last view it wrote (the hand, the new cards each seat played,
    the play to beat, the scalars) and returns a copy, equal to ``encode_observation`` of
    the same view (a property test holds them to it). Views' card tuples are immutable, so
    a tuple seen before (the same object) needs no work."""

    def __init__(self, me: int, tracker: Tracker, refereed: bool = True) -> None:
        self.me = me
        self.tracker = tracker
        self.refereed = refereed
        """False: the engine is a strict one, whose views leave the refereed fields at their defaults."""
        self.out = np.zeros(SIZE, np.int16)
        self.cells = self.out.data   # item writes ~10x cheaper than numpy's
        self.cells[_O["announced"]:_O["announced"] + SEATS] = array("h", [-1] * SEATS)
        self.cells[_O["seat"]] = me
        self._hand: Any = ()
        self._played: Any = ((), (), (), ())
        self._played_at = [O_PLAYED + CARD_KINDS * ((seat - me) % 4) for seat in range(SEATS)]
        self._top: Any = None
        self._phase: Any = None
        self._announced: Any = (None,) * SEATS
        self._passed: Any = ()
        self._finish: Any = ()
        self._refereed: Any = None   # the refereed fields last written (None: all zero)

    def write(self, view: Any) -> np.ndarray:
        cells, me = self.cells, self.me
        hand = view.hand
        if hand is not self._hand:
            cells[O_HAND:O_HAND + CARD_KINDS] = _ZERO_CELLS
            for card in hand:
                cells[O_HAND + card] += 1
            self._hand = hand
        played, last = view.played, self._played
        if played != last:   # (equal when nobody has played since: the same tuples)
            for seat, cards in enumerate(played):
                before = last[seat]
                if cards is not before:
                    at = self._played_at[seat]
                    n = len(before)
                    if len(cards) > n and cards[:n] == before:   # what was played since: a few cards
                        for card in cards[n:]:
                            cells[at + card] += 1
                    else:   # taken back (a refereed table), or a new deal: count again
                        self.out[at:at + CARD_KINDS] = _counted(cards) if cards else 0
            self._played = played
        top = view.top
        if top is not self._top:
            if self._top is not None:
                for card in self._top.cards:
                    cells[O_TOP + card] -= 1
            if top is not None:
                for card in top.cards:
                    cells[O_TOP + card] += 1
                cells[_O_TOP_READING] = top.reading.id + 1
                cells[_O_TOP_SEAT] = (top.seat - me) % 4 + 1
            else:
                cells[_O_TOP_READING] = cells[_O_TOP_SEAT] = 0
            self._top = top
        phase = view.phase
        if phase is not self._phase:
            cells[O_STATUS] = _PHASE_CODE[phase]
            self._phase = phase
        level = view.level
        cells[O_STATUS + 1] = level
        match = self.tracker.match
        if match is None:   # a lone deal: its level twice
            cells[O_STATUS + 2] = cells[O_STATUS + 3] = level
        else:
            mine, theirs = match.levels.levels
            cells[O_STATUS + 2 + me % 2] = mine
            cells[O_STATUS + 3 - me % 2] = theirs
        to_act, leader = view.to_act, view.leader
        cells[O_STATUS + 5] = 0 if to_act is None else (to_act - me) % 4 + 1
        cells[O_STATUS + 6] = 0 if leader is None else (leader - me) % 4 + 1
        announced = view.announced
        if announced != self._announced:
            for seat, count in enumerate(announced):
                cells[_O_ANNOUNCED + (seat - me) % 4] = -1 if count is None else count
            self._announced = announced
        finish = view.finish_order
        if finish != self._finish:
            _seat_flags(cells, _O_PLACE, (), me)
            for place, seat in enumerate(finish, 1):
                cells[_O_PLACE + (seat - me) % 4] = place
            self._finish = finish
        passed = view.passed
        if passed != self._passed:
            _seat_flags(cells, _O_PASSED, passed, me)
            self._passed = passed
        if not self.refereed:
            return self.out.copy()
        if (view.situation is not None or view.on_table or view.barred or view.placed_last or view.stock_left
                or view.restriction is not None or any(view.exposed)):
            refereed = (view.exposed, view.penalty, view.on_table, view.barred, view.placed_last,
                        view.restriction, view.situation, view.choice, view.stock_left)
            if refereed != self._refereed:
                self._write_refereed(view)
                self._refereed = refereed
        elif self._refereed is not None:   # back to an ordinary table: the refereed fields are 0
            self._clear_refereed()
            self._refereed = None
        return self.out.copy()

    def _clear_refereed(self) -> None:
        self.out[_REFEREED_CARDS] = 0
        self.out[_O["barred"]:] = 0

    def _write_refereed(self, view: Any) -> None:
        self._clear_refereed()
        status = [0] * (SIZE - O_STATUS)
        _refereed(self.out, status, view, self.me)   # the fresh encoder's own code: the two stay in step
        self.out[_O["barred"]:] = status[_O["barred"] - O_STATUS:]


def _seat_flags(cells: memoryview, at: int, seats: Any, me: int) -> None:
    """Four by-relative-seat cells: 1 for the seats in ``seats``, 0 for the others."""
    for r in range(SEATS):
        cells[at + r] = 0
    for seat in seats:
        cells[at + (seat - me) % 4] = 1


def decode_observation(vector: np.ndarray) -> dict[str, Any]:
    """The engine's view back from an observation vector: absolute seats, card tuples in
    canonical order (what ``guandan.observation.Observation`` holds, field by field)."""
    f = unpack(vector)
    me = int(f["seat"])

    def absolute(rel_plus_one: Any) -> int | None:
        r = int(rel_plus_one)
        return None if r == 0 else (r - 1 + me) % 4

    def per_seat(rows: np.ndarray) -> tuple:
        return tuple(cards_of(rows[relative(seat, me)]) for seat in range(SEATS))

    def seats_where(flags: np.ndarray) -> tuple[int, ...]:
        return tuple(sorted(seat for seat in range(SEATS) if flags[relative(seat, me)]))

    places = {int(f["place"][relative(s, me)]): s for s in range(SEATS) if f["place"][relative(s, me)]}
    top_reading = int(f["top_reading"])
    rule, kind = (int(x) for x in f["restriction"])
    return {
        "seat": me, "hand": cards_of(f["hand"]), "played": per_seat(f["played"]),
        "top_cards": cards_of(f["top"]), "top_reading": ALL_READINGS[top_reading - 1].code if top_reading else None,
        "top_seat": absolute(f["top_seat"]), "exposed": per_seat(f["exposed"]), "penalty": per_seat(f["penalty"]),
        "on_table": tuple((s, cards) for s, cards in enumerate(per_seat(f["on_table"])) if cards),
        "phase": PHASES[int(f["phase"])], "level": int(f["level"]), "to_act": absolute(f["to_act"]),
        "leader": absolute(f["leader"]),
        "announced": tuple(None if f["announced"][relative(s, me)] < 0 else int(f["announced"][relative(s, me)])
                           for s in range(SEATS)),
        "finish_order": tuple(places[p] for p in sorted(places)), "passed": seats_where(f["passed"]),
        "barred": seats_where(f["barred"]), "placed_last": seats_where(f["placed_last"]),
        "restriction": None if rule == 0 else (RESTRICTION_RULES[rule], KIND_KEYS[kind - 1] if kind else None),
        "situation": SITUATIONS[int(f["situation"])], "choice_purpose": CHOICE_PURPOSES[int(f["choice"])],
        "stock_left": int(f["stock_left"]),
    }


# ---------------------------------------------------------------------------------------------
# Engines

def check_level(level: Any, episode: str) -> int:
    try:
        index = level_index(str(level))
    except Exception:
        raise OptionError(f"level must be a rank 2-9, T, J, Q, K or A, got {level!r}") from None
    if episode == "match" and index != 0:
        raise OptionError("a 掼蛋 match starts at level 2 (level applies to deal episodes)")
    return index


def new_engine(seed: int, episode: str, level: int, rules: Any, engine_options: dict[str, Any]) -> Any:
    """A drawn deal at ``level`` (a first deal: the face-up card picks the leader), or a
    match, seeded with ``seed``."""
    if episode == "match":
        from guandan.match import Match

        return Match(seed, rules, **engine_options)
    from guandan.deal import Deal

    return Deal.drawn(seed, level_text(level), rules=rules, **engine_options)


def render(engine: Any, seat: int | None) -> str:
    if seat is None:
        return f"掼蛋: over, {engine.result}"
    view = engine.observe(seat)
    top = "lead" if view.top is None else f"on {format_cards(view.top.cards)} ({view.top.reading.code}) by seat {view.top.seat}"
    return f"掼蛋 level {level_text(view.level)}: seat {seat} to act, {top}; hand {format_cards(view.hand)}"
