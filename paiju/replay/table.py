"""The table of a replay: what a card player sees at one moment (hands, the round or trick in
the middle, announced counts, levels, trump and banker, kitty, exposed and penalty cards,
bars, restrictions, choices, rulings), and its view as plain data (``Table.view``) that the
terminal view and the HTML page both draw. ``paiju.replay.fold`` folds a log into it.

Cards follow the engines' refereed model: exposed and penalty cards stay in the hand; an
irregular attempt's cards leave the hand and lie on the table in front of the seat until an
event moves them (back to the hand, onto the stock, or into the play as it stands).

The viewer is None (every hand shown) or one seat: what that seat may not know is hidden,
by the games' information rules (掼蛋: another seat's count only as announced, ≤ 10; 双升:
hand sizes are public, the kitty only for the banker after burying).
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


def without(pile: list[Card], cs: Iterable[Card]) -> list[Card]:
    rest = list(pile)
    take(rest, cs)
    return rest


def take(pile: list[Card], cs: Iterable[Card]) -> None:
    """Remove ``cs`` from ``pile`` (a multiset); a card that is not there is skipped."""
    for c in cs:
        try:
            pile.remove(c)
        except ValueError:
            pass


PLACE_NAMES = {1: "上游 1st", 2: "二游 2nd", 3: "三游 3rd", 4: "下游 4th"}


@attrs.define
class Seat:
    hand: list[Card] = attrs.Factory(list)
    """The cards in the seat's hand, exposed ones included (they are still its own)."""
    exposed: list[Card] = attrs.Factory(list)
    penalty: list[Card] = attrs.Factory(list)
    on_table: list[Card] = attrs.Factory(list)
    """Laid on the table by an irregular attempt, waiting for the ruling (out of the hand)."""
    announced: int | None = None
    place: int | None = None
    barred: bool = False
    restriction: str | None = None
    choice: str | None = None
    marks: list[str] = attrs.Factory(list)
    laid_at: int | None = None
    """The seq of the irregular attempt that laid ``on_table`` (a play that stands later
    takes that place in the round)."""

    def concealed(self) -> list[Card]:
        rest = list(self.hand)
        take(rest, self.exposed)
        return rest

    def lose(self, cs: Iterable[Card]) -> None:
        """The cards leave the seat (played, given, buried): from the table where they lie
        there, else from the hand."""
        for c in cs:
            if c in self.on_table:
                self.on_table.remove(c)
            elif c in self.hand:
                self.hand.remove(c)
            take(self.exposed, [c])
            take(self.penalty, [c])

    def lay(self, cs: Iterable[Card]) -> None:
        """An irregular attempt's cards go from the hand onto the table."""
        cs = list(cs)
        for c in cs:
            if c in self.hand:
                self.hand.remove(c)
                self.on_table.append(c)

    def pick_up(self, cs: Iterable[Card]) -> list[Card]:
        """Cards lying on the table go back into the hand; the ones that were there."""
        back = []
        for c in cs:
            if c in self.on_table:
                self.on_table.remove(c)
                self.hand.append(c)
                back.append(c)
        return back


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
class ExposureMark:
    """Cards lying exposed (掼蛋): the ``uid``-th exposure of the deal, ``seat``'s ``cards``
    still face up (a play uses them up)."""

    uid: int
    seat: int
    cards: list[Card]


@attrs.frozen
class LeadOptionMark:
    """A GD-2.3.1 lead option: ``chooser`` decides how ``restricted`` leads ``combination``
    (words), the combination of the exposure ``uid``."""

    chooser: int
    restricted: int
    combination: str
    uid: int


@attrs.define
class Pile:
    """The round (掼蛋: plays and passes since the lead) or trick (双升) in the middle."""

    title: str = ""
    entries: list[Entry] = attrs.Factory(list)
    winner: int | None = None
    done: bool = False
    note: str = ""

    def view(self) -> dict[str, Any]:
        return {"title": self.title, "winner": self.winner, "done": self.done, "note": self.note,
                "plays": [[e.seat, codes_text(e.cards) if e.cards is not None else None, e.label]
                          for e in self.entries]}


class Table:
    """The state a replay shows. Deal-level parts are reset by ``new_deal``."""

    def __init__(self, game: str, viewer: int | None = None, match: bool = False,
                 rules: dict[str, Any] | None = None) -> None:
        self.game = game
        self.rules = rules or {}
        """The log header's rules (a game may need them to order a hand)."""
        self.viewer = viewer
        self.unit: int | None = None
        self.unit_name = "match" if match else "deal"
        """What a unit of the log is (a ``unit`` event starts each of a batch log's units)."""
        self.hide_judgement = False
        """The trainer's view: an irregularity's facts that are the referee's findings (they
        would give the ruling away) are not shown."""
        self.new_unit(None)

    def new_unit(self, index: int | None) -> None:
        """Unit ``index`` of the log starts (a ``unit`` event): nothing of an earlier match —
        its levels, its notes, its result — carries over into this one."""
        self.unit = index
        self.levels: list[str] | None = ["2", "2"] if self.unit_name == "match" else None
        """Team levels (a match), or None when the log does not say."""
        self.match_notes: list[str] = []
        self.fixed_leader: int | None = None
        """掼蛋: the leader a ruling fixed for the next deal (GD-5.2), until that deal's play starts."""
        self.new_deal(0, None)

    def new_deal(self, deal: int, level: str | None) -> None:
        self.deal = deal
        self.level = level
        self.phase = "set-up"
        self.seats = [Seat() for _ in range(NUM_SEATS)]
        self.pile = Pile()
        self.piles = 0
        """Rounds (掼蛋) or tricks (双升) begun in this deal."""
        self.last: Pile | None = None
        self.finish: list[int] = []
        self.notes: list[str] = []
        self.result: str | None = None
        self.rulings: list[dict[str, Any]] = []
        self.lead_options: list[LeadOptionMark] = []
        """掼蛋 GD-2.3.1: the lead options in force (until a) or b) is chosen, or their cards are gone)."""
        self.exposures: list[ExposureMark] = []
        """掼蛋: the exposures lying on the table, in the order they were made."""
        self.exposures_made = 0
        """Exposures made this deal: the next one's number (the ``about`` of its lead option choice)."""
        self.choosing: dict[int, Any] = {}
        """Seat → what its pending choice is about (``table.choice``'s ``about``)."""
        self.trump: str | None = None
        self.trump_known = False
        self.banker: int | None = None
        self.kitty: list[Card] | None = None
        self.kitty_public = False
        self.kitty_owner: int | None = None
        """The one seat that sees the kitty (the banker, once it has buried)."""
        self.kitty_note = ""
        self.tribute: Tribute | None = None
        self.points: int | None = None
        self.adjustment = 0
        self.hand_order: Callable[[list[Card]], list[tuple[str, list[Card]]]] = by_suit
        self.hand_sizes_public = False

    def option_about(self, option: LeadOptionMark) -> str:
        """What a lead option is about: the combination, and the exposed cards still on the table."""
        exposure = next((x for x in self.exposures if x.uid == option.uid), None)
        return f"{option.combination} ({cards_text(exposure.cards)})" if exposure is not None else option.combination

    # -- information rules ------------------------------------------------------------------
    def sees(self, seat: int | None) -> bool:
        """Whether the viewer sees ``seat``'s hidden cards."""
        return self.viewer is None or self.viewer == seat

    # -- the view -----------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """Plain data (JSON-ready) of what the viewer sees now."""
        return {
            "game": self.game,
            "unit": self.unit,
            "unit_name": self.unit_name,
            "deal": self.deal,
            "phase": self.phase,
            "level": self.level,
            "levels": list(self.levels) if self.levels is not None else None,
            "trump": (self.trump or "NT") if self.trump_known else None,
            "banker": self.banker,
            "points": self.points + self.adjustment if self.points is not None else None,
            "kitty": self._kitty_view(),
            "tribute": self.tribute.view() if self.tribute is not None else None,
            "seats": [self._seat_view(s) for s in range(NUM_SEATS)],
            "pile": self.pile.view(),
            "last": self.last.view() if self.last is not None else None,
            "finish": list(self.finish),
            "notes": list(self.notes),
            "result": self.result,
            "rulings": list(self.rulings),
            "match": list(self.match_notes),
            "viewer": self.viewer,
        }

    def _seat_view(self, s: int) -> dict[str, Any]:
        seat = self.seats[s]
        shown = self.sees(s)
        flags = []
        if seat.place is not None:
            flags.append(PLACE_NAMES.get(seat.place, f"place {seat.place}"))
        if seat.barred:
            flags.append("barred 禁出一手")
        if seat.restriction:
            flags.append(seat.restriction)
        if seat.choice:
            flags.append(seat.choice)
        flags.extend(f"lead option 选择: seat {o.chooser} chooses how it leads {self.option_about(o)}"
                     for o in self.lead_options if o.restricted == s)
        flags.extend(seat.marks)
        return {
            "hand": [[label, codes_text(cs)] for label, cs in self.hand_order(seat.concealed())] if shown else None,
            "count": len(seat.hand) if shown or self.hand_sizes_public else None,
            "announced": seat.announced,
            "exposed": codes_text(without(without(seat.exposed, seat.penalty), seat.on_table)),
            "penalty": codes_text(without(seat.penalty, seat.on_table)),
            "on_table": codes_text(seat.on_table),
            "flags": flags,
            "role": "banker 庄家" if self.banker == s else None,
        }

    def _kitty_view(self) -> dict[str, Any] | None:
        if self.kitty is None:
            return None
        shown = self.viewer is None or self.kitty_public or self.viewer == self.kitty_owner
        return {"cards": codes_text(self.kitty) if shown else None, "count": len(self.kitty), "note": self.kitty_note}


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
