"""The frame of a replay: what a card player sees at one moment, as plain data
(``Table.view``) that the terminal view and the HTML page both draw.

The table itself is the engine's: ``paiju.replay.fold`` re-runs the log through its engine
(``paiju.replay.rerun``) and hands each step the game's typed view of the table
(``GameSpec.table_view``: hands, counts, exposed and penalty cards, cards on the table, bars,
lead options and restrictions, choices, places, levels, trump and banker, kitty, points), read
by the viewer's seat (the engine applies the information rules). A step inside one action's
events shows the table after that action (the engine has no state between them).

What this module keeps is the record of the log, for the words: the round (掼蛋) or trick
(双升) in the middle as its lines listed it, notes, rulings, the tribute and the result as
said. A game's paiju part turns the engine's view into the seats' part of the frame
(``PaijuPart.replay_seats``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

import attrs

from tabletop.cards import CARDS, SUIT_SYMBOLS, SUITS, Card
from tabletop.errors import LogError
from tabletop.events import Event

NUM_SEATS = 4
SEAT_NAMES = ("South", "East", "North", "West")
"""Compass position of seat 0 … 3 when seat 0 sits at the bottom (play goes counter-clockwise:
下家, the next seat, sits on the right)."""

JOKER_NAMES = {"BJ": "小王", "RJ": "大王"}
BY_CODE: dict[str, Card] = {str(c): c for c in CARDS}
"""Card by its log code (the strict notation of logs: no aliases)."""

Handler = Callable[["Table", Event], str]
E = TypeVar("E", bound=Event)


class Handlers(dict[str, Handler]):
    """A game's replay handlers by event kind; ``on(cls)`` registers one, annotated with
    its event class."""

    def on(self, cls: type[E]) -> Callable[[Callable[["Table", E], str]], Callable[["Table", E], str]]:
        def register(fn: Callable[["Table", E], str]) -> Callable[["Table", E], str]:
            self[cls.KIND] = cast(Handler, fn)  # the fold hands it only events of kind cls.KIND, of class cls
            return fn
        return register


def card(code: Any) -> Card:
    """A card from its log code (strict: the log notation only)."""
    try:
        return BY_CODE[code]
    except (KeyError, TypeError):
        raise LogError(f"not a card code: {code!r}") from None


def cards(codes: Any) -> list[Card]:
    if not isinstance(codes, tuple):
        raise LogError(f"not a list of card codes: {codes!r}")
    return [card(c) for c in codes]


def seat_of(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < NUM_SEATS:
        raise LogError(f"not a seat (0-3): {value!r}")
    return value


def card_text(c: Card) -> str:
    """'♠7', '♥T', '小王', '大王'."""
    code = str(c)
    if code in JOKER_NAMES:
        return JOKER_NAMES[code]
    return SUIT_SYMBOLS[SUITS.index(code[0])] + code[1]


def cards_text(cs: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cs) or "-"


def codes_text(cs: Iterable[Card]) -> str:
    """Space-separated log codes (the compact form of the view data)."""
    return " ".join(str(c) for c in cs)


PLACE_NAMES = {1: "上游 1st", 2: "二游 2nd", 3: "三游 3rd", 4: "下游 4th"}


@attrs.define
class Entry:
    seat: int
    cards: tuple[Card, ...] | None
    """None: a pass."""
    label: str = ""
    seq: int = -1
    stood: int = -1
    """A play laid earlier (at ``seq``) that stood by a later ruling: that event's seq."""


@attrs.define
class Tribute:
    """This deal's tribute (掼蛋): who pays whom (进贡) and returns what (还贡), or why none
    is paid (抗贡, or waived by a ruling). The page draws it at the table."""

    how: str
    """'due', 'resisted' (抗贡) or 'waived'."""
    double: bool = False
    payments: list[list[Any]] = attrs.Factory(list)
    """[payer, receiver, tribute card code or None, returned card code or None] each."""
    seats: tuple[int, ...] = ()
    """'resisted': the seats that hold both big jokers; otherwise the seats excused (GD-5.1)."""
    head: str = ""
    """What the table says of it ('' : the page's own words)."""

    def paid(self, payer: int, receiver: int, code: str) -> None:
        self._payment(payer, receiver)[2] = code

    def returned(self, payer: int, receiver: int, code: str) -> None:
        self._payment(payer, receiver)[3] = code

    def _payment(self, payer: int, receiver: int) -> list[Any]:
        for payment in self.payments:
            if payment[0] == payer and payment[1] == receiver:
                return payment
        self.payments.append([payer, receiver, None, None])   # a log without its tribute_due line
        return self.payments[-1]

    def view(self) -> dict[str, Any]:
        return {"how": self.how, "double": self.double, "payments": [list(p) for p in self.payments],
                "seats": list(self.seats), "head": self.head}


@attrs.define
class Pile:
    """The round (掼蛋: plays and passes since the lead) or trick (双升) in the middle, as
    the log's lines listed it."""

    title: str = ""
    entries: list[Entry] = attrs.Factory(list)
    winner: int | None = None
    done: bool = False
    note: str = ""

    def view(self) -> dict[str, Any]:
        return {"title": self.title, "winner": self.winner, "done": self.done, "note": self.note,
                "plays": [[e.seat, codes_text(e.cards) if e.cards is not None else None, e.label]
                          for e in self.entries]}


SeatsOf = Callable[["Table"], list[dict[str, Any]]]
"""A game's seats of the frame, from the engine's view (``Table.facts``)."""


def no_seats(table: "Table") -> list[dict[str, Any]]:
    """A game whose engine offers no view: the seats as the record knows them (nothing)."""
    return [{"hand": None, "count": None, "announced": None, "exposed": "", "penalty": "", "on_table": "",
             "flags": [], "role": None} for _ in range(NUM_SEATS)]


class Table:
    """A replay's frame at one step: the engine's view of the table (``facts``; ``before``:
    the view before the step's action) and the record of the log. Deal-level parts of the
    record are reset by ``new_deal``."""

    def __init__(self, game: str, viewer: int | None = None, match: bool = False,
                 rules: dict[str, Any] | None = None, seats: SeatsOf = no_seats) -> None:
        self.game = game
        self.rules = rules or {}
        """The log header's rules (a game may need them to order a hand)."""
        self.viewer = viewer
        self.seats_of = seats
        self.facts: Any = None
        """The engine's view of the table after the step's action (None: none yet)."""
        self.before: Any = None
        """The engine's view before the step's action (None: none yet)."""
        self.unit: int | None = None
        self.unit_name = "match" if match else "deal"
        """What a unit of the log is (a ``unit`` event starts each of a batch log's units)."""
        self.hide_judgement = False
        """The trainer's view: an irregularity's facts that are the referee's findings (they
        would give the ruling away) are not shown."""
        self.chinese = False
        """The view also says its texts in Chinese alone (``zh``: the trainer's page)."""
        self.zh: dict[str, str] = {}
        """A text the frame shows (note, flag, result …) → the same in Chinese, the referee's
        terms, as the handler that made it said it (``say_zh``)."""
        self.new_unit(None)

    def new_unit(self, index: int | None) -> None:
        """Unit ``index`` of the log starts (a ``unit`` event): nothing of an earlier match —
        its notes, its result — carries over into this one."""
        self.unit = index
        self.match_notes: list[str] = []
        self.fixed_leader: int | None = None
        """掼蛋: the leader a ruling fixed for the next deal (GD-5.2), until that deal's play starts."""
        self.facts = self.before = None
        self.new_deal(0, None)

    def new_deal(self, deal: int, level: str | None) -> None:
        self.deal = deal
        self.level = level
        self.pile = Pile()
        self.piles = 0
        """Rounds (掼蛋) or tricks (双升) begun in this deal."""
        self.last: Pile | None = None
        self.notes: list[str] = []
        self.result: str | None = None
        self.rulings: list[dict[str, Any]] = []
        self.laid_at: dict[int, int] = {}
        """Seat → the seq of the irregular attempt that laid the cards it has on the table (a
        play that stands later takes that place in the round)."""
        self.kitty_note = ""
        """双升: what the log last said of the kitty ('' : no kitty on show)."""
        self.tribute: Tribute | None = None
        self.drawn_hands: dict[tuple[Any, ...], list[list[str]]] = {}
        """A hand as the frame draws it (by suit, in the game's order), by what orders it and
        the hand: a seat's hand is drawn again only when it changes."""

    def drawn_hand(self, key: tuple[Any, ...], hand: tuple[Card, ...],
                   order: Callable[[list[Card]], list[tuple[str, list[Card]]]]) -> list[list[str]]:
        """``hand`` drawn by ``order`` (``key``: what ``order`` depends on)."""
        drawn = self.drawn_hands.get((key, hand))
        if drawn is None:
            drawn = self.drawn_hands[(key, hand)] = [[label, codes_text(cs)] for label, cs in order(list(hand))]
        return [list(group) for group in drawn]

    def say_zh(self, text: str, zh: str) -> str:
        """``text`` (shown by the frame) is ``zh`` in Chinese; ``text`` back."""
        if self.chinese:
            self.zh[text] = zh
        return text

    # -- information rules ------------------------------------------------------------------
    def sees(self, seat: int | None) -> bool:
        """Whether the viewer sees ``seat``'s hidden cards."""
        return self.viewer is None or self.viewer == seat

    def on_table_before(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` had lying on the table before the step's action (the engine's)."""
        return () if self.before is None else tuple(self.before.seats[seat].on_table)

    # -- the view -----------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """Plain data (JSON-ready) of what the viewer sees now (``chinese``: and ``zh``, each
        text it shows in Chinese)."""
        out = self._view()
        if self.chinese:
            from paiju.replay.chinese import text_zh
            out["zh"] = {t: self.zh.get(t) or text_zh(t) for t in shown_texts(out)}
        return out

    def _view(self) -> dict[str, Any]:
        facts = self.facts
        phase = "set-up"
        if facts is not None:
            phase = facts.resume_phase if facts.phase == "awaiting_ruling" and facts.resume_phase else facts.phase
        levels = getattr(facts, "levels", None)
        trump_known = bool(getattr(facts, "trump_known", False))
        return {
            "game": self.game,
            "unit": self.unit,
            "unit_name": self.unit_name,
            "deal": self.deal,
            "phase": phase,
            "level": facts.level if facts is not None else self.level,
            "levels": list(levels) if levels is not None else None,
            "trump": (facts.trump or "NT") if trump_known else None,
            "banker": getattr(facts, "banker", None),
            "points": self._points(),
            "kitty": self._kitty_view(),
            "tribute": self.tribute.view() if self.tribute is not None else None,
            "seats": self.seats_of(self),
            "pile": self.pile.view(),
            "last": self.last.view() if self.last is not None else None,
            "finish": list(facts.finish) if facts is not None and hasattr(facts, "finish") else [],
            "notes": list(self.notes),
            "result": self.result,
            "rulings": list(self.rulings),
            "match": list(self.match_notes),
            "viewer": self.viewer,
        }

    def _points(self) -> int | None:
        """双升: the attackers' points (after adjustments), once trump is known."""
        facts = self.facts
        if facts is None or not getattr(facts, "trump_known", False):
            return None
        if facts.result is not None:
            return int(facts.result.points)
        return int(facts.points + sum(delta for _, delta in facts.adjustments))

    def _kitty_view(self) -> dict[str, Any] | None:
        facts = self.facts
        if not self.kitty_note or facts is None or not hasattr(facts, "kitty"):
            return None
        return {"cards": codes_text(facts.kitty) if facts.kitty is not None else None, "count": facts.kitty_size,
                "note": self.kitty_note}


def shown_texts(view: dict[str, Any]) -> list[str]:
    """The texts a frame shows beside the cards: notes, the result, the match's notes, the
    kitty's note, the pile's note and plays' words, the seats' flags and roles, the tribute's head."""
    texts = [*view["notes"], *view["match"], *([view["result"]] if view["result"] else [])]
    for pile in (view["pile"], view["last"]):
        if pile:
            texts.extend([pile["note"], *(play[2] for play in pile["plays"])])
    if view["kitty"]:
        texts.append(view["kitty"]["note"])
    if view["tribute"]:
        texts.append(view["tribute"]["head"])
    for seat in view["seats"]:
        texts.extend([*seat["flags"], *([seat["role"]] if seat["role"] else [])])
    return [t for t in dict.fromkeys(texts) if t]


def by_suit(hand: list[Card]) -> list[tuple[str, list[Card]]]:
    """Jokers, then ♠ ♥ ♣ ♦, each high to low (the order before a game's own order)."""
    groups: list[tuple[str, list[Card]]] = []
    jokers = sorted((c for c in hand if c.is_joker), reverse=True)
    if jokers:
        groups.append(("王", jokers))
    for i, suit in enumerate(SUITS):
        cs = sorted((c for c in hand if c.suit == suit), reverse=True)
        if cs:
            groups.append((SUIT_SYMBOLS[i], cs))
    return groups
