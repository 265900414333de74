"""The decisions a 双升 seat makes: declare trump (or not), bury the kitty, play cards —
and, in refereed mode, the steps a real table has and the things a real player can get wrong.

Every action is a frozen record naming its seat; cards are kept in canonical order, so
two actions showing the same multiset of cards are equal.

``Choices`` is what ``legal_actions()`` returns. Small decision spaces are listed in full
(``complete`` is True). Three spaces are combinatorial and are never enumerated: burying 8
of 33 cards, leads (any multiset of one effective suit is a throw) and follows from a void
(any n of the other cards). For those ``complete`` is False, the sequence lists only some
legal actions (the basic ones), ``sample(rng)`` draws from the whole space, and the
engine's ``why_illegal(action)`` decides any action an agent builds itself.

``lead_units`` (every single, pair and tractor a hand can lead) and ``random_lead`` (those,
and now and then a random throw) are what the lead ``Choices`` list and sample.

Refereed mode only (strict mode refuses them; see ``shengji.table``):
- ``Draw(seat)``: the rightful next drawer lets the draw run on, to the next declaration
  chance or the end. Its slip fields describe a miscount nobody notices until the hands are
  counted at the end of the draw (SJ-1.10 / SJ-3.1.7).
- ``Choose(seat, option)``: answers a choice the table offers (the non-offending side's
  random draw / redeal / decline, the card to hand over).
- What only an irregular player does: ``DrawOutOfTurn`` (a card another seat should draw),
  ``DrawKitty`` (the banker draws through the kitty), ``DeclareAtOnce`` (declares at the
  same moment as its partner), ``DropCard`` (cards shown by accident), ``PlayWithExtra``
  (a lead, throw or follow carrying one extra card), ``Revoke`` (a wrong follow nobody
  notices at once) and ``Incident`` (what a human referee is told about: lateness,
  prompting, tempo …; no engine can see it). An out-of-turn lead or play, a lead before
  the burial and a wrong follow found at once are ordinary ``Play`` actions the refereed
  engine records instead of refusing.

``action_to_data``/``action_from_data`` turn any action into plain (name, value) pairs and
back: the payload of an irregular-attempt event, so that a replay re-applies the attempt.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs
import numpy as np

from shengji.context import Context
from tabletop.cards import CARDS, Card, as_cards, codes, format_cards, sort_cards
from tabletop.errors import LogError

_CANONICAL_RANK = [0] * len(CARDS)
for _i, _c in enumerate(sort_cards(CARDS)):
    _CANONICAL_RANK[_c] = _i


def _canonical_cards(cards: "str | Iterable[Card | int | str]") -> tuple[Card, ...]:
    """Cards in tabletop's canonical order (rank, then suit), as a tuple of Card."""
    if type(cards) is not tuple or any(type(c) is not Card for c in cards):
        cards = as_cards(cards)
    return tuple(sorted(cards, key=_CANONICAL_RANK.__getitem__))


@attrs.frozen
class Declare:
    """亮主 / 反主 / 加固: show ``cards`` (one level card, or a pair of identical level
    cards or jokers) to declare or overcall trump. A reinforcement shows the whole pair."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)

    def __str__(self) -> str:
        return f"seat {self.seat} declares {format_cards(self.cards)}"


@attrs.frozen
class NoDeclare:
    """Decline to declare at this opportunity (the seat may declare at a later one)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} does not declare"


@attrs.frozen
class Bury:
    """扣底: the banker puts exactly 8 cards face down as the kitty."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)

    def __str__(self) -> str:
        return f"seat {self.seat} buries {format_cards(self.cards)}"


@attrs.frozen
class Play:
    """Lead or follow with ``cards`` (a lead of several units is a throw)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {format_cards(self.cards)}"


_SET_PLAY_SEAT = Play.__dict__["seat"].__set__
_SET_PLAY_CARDS = Play.__dict__["cards"].__set__


def play_of(seat: int, cards: Sequence[Card]) -> Play:
    """``Play(seat, cards)`` for ``cards`` that are Card objects already (a hand's cards):
    sorted into canonical order here, without the converter's checks. The samplers build
    one Play at every decision of a simulation."""
    play = object.__new__(Play)
    _SET_PLAY_SEAT(play, seat)
    _SET_PLAY_CARDS(play, tuple(cards) if len(cards) < 2 else tuple(sorted(cards, key=_CANONICAL_RANK.__getitem__)))
    return play


# ---------------------------------------------------------------------------------------------
# Refereed mode: table steps

SLIP_FAULTS = ("taker", "short")
REVOKE_FOUND = ("affecting_play", "after_trick")
SEVERITIES = ("minor", "serious", "deliberate", "suspension")


def _in(*allowed: Any) -> Any:
    def check(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value not in allowed:
            raise ValueError(f"{type(instance).__name__}.{attribute.name} must be one of {allowed}, got {value!r}")
    return check


def _optional_seat(value: Any) -> int | None:
    return None if value is None else int(value)


@attrs.frozen
class Draw:
    """The draw runs on in order from ``seat`` (the rightful next drawer) to the next
    declaration chance or the end of the draw.

    A miscount slip nobody notices until the hands are counted (``extra_by`` not None): from
    the ``at``-th card from now on, ``extra_by`` takes the next ``count`` cards due to ``of``
    (it ends with ``count`` too many, ``of`` with ``count`` too few). ``fault``: 'taker' (the
    taker's side drew too many) or 'short' (``of``'s side drew too few)."""

    seat: int
    extra_by: int | None = attrs.field(default=None, converter=_optional_seat)
    of: int | None = attrs.field(default=None, converter=_optional_seat)
    count: int = 1
    at: int = 0
    fault: str = attrs.field(default="taker", validator=_in(*SLIP_FAULTS))

    @property
    def flawed(self) -> bool:
        return self.extra_by is not None

    def __str__(self) -> str:
        return f"seat {self.seat} draws on" + (" (with a slip)" if self.flawed else "")


@attrs.frozen
class Choose:
    """Answers the choice the table offers ``seat`` (``option`` is one of those offered)."""

    seat: int
    option: str

    def __str__(self) -> str:
        return f"seat {self.seat} chooses {self.option}"


# ---------------------------------------------------------------------------------------------
# Refereed mode: what only an irregular player does


@attrs.frozen
class DrawOutOfTurn:
    """``seat`` takes the card the rightful drawer should draw ``after`` cards from now
    (noticed at once). ``face_seen``: it saw the card; ``in_hand``: it already put it into
    its hand (implies seen)."""

    seat: int
    after: int = 0
    face_seen: bool = False
    in_hand: bool = False


@attrs.frozen
class DrawKitty:
    """The banker (``seat``) draws on into the kitty at the end of the draw (the kitty is
    left with 7; SJ-1.5)."""

    seat: int


@attrs.frozen
class DeclareAtOnce:
    """``seat`` shows ``cards`` to declare at the same moment as its partner, who is at a
    declaration chance and shows its own first declaration (SJ-1.6). ``chose``: the partners
    settle it themselves, ``seat``'s declaration standing, instead of asking for lots
    (SJ-3.1.4)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)
    chose: bool = False


@attrs.frozen
class DropCard:
    """``seat`` shows ``cards`` of its hand by accident, seen by all four (while drawing,
    playing, burying, or ``sorting`` its hand)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)
    sorting: bool = False


@attrs.frozen
class PlayWithExtra:
    """A lead, throw or follow (``cards``) carrying one ``extra`` card along."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)
    extra: tuple[Card, ...] = attrs.field(converter=_canonical_cards)


@attrs.frozen
class Revoke:
    """跟错 that nobody notices at once: ``cards`` go on the trick as if legal, and the wrong
    follow comes to light ``found`` = 'affecting_play' (after the next seat played, the trick
    still open) or 'after_trick' (once the trick is closed: an established revoke)."""

    seat: int
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)
    found: str = attrs.field(default="affecting_play", validator=_in(*REVOKE_FOUND))


@attrs.frozen
class Incident:
    """A reported incident about ``seat`` (its side for lateness) that no engine can see.
    ``incident``: 'late' (``minutes``), 'prompting', 'prompting_declaration', 'reminding',
    'tempo', 'unreasonable_play', 'signing', 'kitty_inspection', 'old_tricks',
    'tricks_order', 'refusing_ruling', 'exposure_signalling', 'passing_cards',
    'repeated_misdraw', 'declaration_chosen' or 'misconduct'. ``severity`` as the reporter
    judges it ('suspension': a human referee suspends the player); ``damaged``: the other
    side was harmed by it; ``note``: what the reporter saw."""

    seat: int
    incident: str
    severity: str = attrs.field(default="minor", validator=_in(*SEVERITIES))
    minutes: int = 0
    damaged: bool = False
    note: str = ""


Action = (Declare | NoDeclare | Bury | Play | Draw | Choose | DrawOutOfTurn | DrawKitty | DeclareAtOnce
          | DropCard | PlayWithExtra | Revoke | Incident)
ACTION_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    Declare, NoDeclare, Bury, Play, Draw, Choose, DrawOutOfTurn, DrawKitty, DeclareAtOnce, DropCard,
    PlayWithExtra, Revoke, Incident)}


def action_to_data(action: Any) -> tuple[tuple[str, Any], ...]:
    """Plain (name, value) pairs: ``type`` and every field (cards as codes).
    ``action_from_data`` rebuilds the same action."""
    out: list[tuple[str, Any]] = [("type", type(action).__name__)]
    for f in attrs.fields(type(action)):
        value = getattr(action, f.name)
        if isinstance(value, tuple):
            value = codes(value)
        out.append((f.name, value))
    return tuple(out)


def action_from_data(data: Iterable[Iterable[Any]]) -> Any:
    fields = {str(k): v for k, v in data}
    name = fields.pop("type", None)
    cls = ACTION_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise LogError(f"not a 双升 action type: {name!r}")
    try:
        return cls(**{k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()})
    except (TypeError, ValueError) as exc:
        raise LogError(f"bad {name} action data: {exc}") from None


def pick_index(rng: np.random.Generator, n: int) -> int:
    """A uniform index in range(n) from one float draw (``rng.random()`` costs a third of
    ``rng.integers``, and samplers run at every step of a simulation)."""
    return int(rng.random() * n)


class Choices(Sequence):
    """The legal actions of one decision (see the module docstring).

    ``listed`` is built lazily (agents that only ``sample`` never pay for it)."""

    __slots__ = ("_listed", "_make", "_sampler", "_complete")

    def __init__(
        self,
        listed: "Sequence[Any] | Callable[[], Sequence[Any]]",
        *,
        complete: "bool | Callable[[], bool]" = True,
        sampler: "Callable[[np.random.Generator], Any] | None" = None,
    ) -> None:
        if callable(listed):
            self._listed: tuple[Any, ...] | None = None
            self._make: Callable[[], Sequence[Any]] | None = listed
        else:
            self._listed = tuple(listed)
            self._make = None
        self._sampler = sampler
        self._complete = complete

    @property
    def complete(self) -> bool:
        """Whether ``listed`` is every legal action (decided lazily, like ``listed``)."""
        if callable(self._complete):
            self._complete = bool(self._complete())
        return self._complete

    @property
    def listed(self) -> tuple[Any, ...]:
        if self._listed is None:
            assert self._make is not None  # set whenever _listed is not
            self._listed = tuple(self._make())
        return self._listed

    def __len__(self) -> int:
        return len(self.listed)

    def __getitem__(self, index: int):  # type: ignore[override]  # an int or a slice, as the listed tuple takes
        return self.listed[index]

    def __iter__(self):
        return iter(self.listed)

    def __contains__(self, action: object) -> bool:
        return action in self.listed

    def sample(self, rng: np.random.Generator) -> Any:
        """A legal action drawn at random: by the decision's own sampler when it has one
        (bury, leads, follows: every legal action has a positive probability), otherwise
        uniformly from ``listed``."""
        if self._sampler is not None:
            return self._sampler(rng)
        listed = self.listed
        return listed[pick_index(rng, len(listed))]

    def __repr__(self) -> str:
        shown = "…" if self._listed is None else f"{len(self._listed)} listed"
        return f"Choices({shown}, complete={self.complete})"


# ---------------------------------------------------------------------------------------------
# Leads (the lead Choices list the units and sample throws too)


def lead_units(hand: Sequence[Card], ctx: Context) -> list[tuple[Card, ...]]:
    """Every single, pair and tractor the hand can lead (each multiset once). Throws of
    several units are left out: there are exponentially many."""
    cards, tractors = _hand_units(hand, ctx)
    out: list[tuple[Card, ...]] = []
    previous = None
    for c in cards:                                  # a card's second copy stands for the pair
        out.append((c, c) if c == previous else (c,))
        previous = c
    return out + tractors


def _hand_units(hand: Sequence[Card], ctx: Context) -> tuple[list[Card], list[tuple[Card, ...]]]:
    """The hand sorted by card index (copies adjacent) and its tractors in ``lead_units``'
    order: ``lead_units`` is one unit per card of the first list (a second copy: the pair),
    then the tractors."""
    cards = sorted(hand)
    pairs = [c for c, d in zip(cards, cards[1:]) if c == d]
    tractors: list[tuple[Card, ...]] = []
    if len(pairs) < 2:
        return cards, tractors
    suit_of, order_of = ctx.suit_of, ctx.order_of
    held = {(suit_of[c], order_of[c]) for c in pairs}
    if not any((suit, order + 1) in held for suit, order in held):
        return cards, tractors                       # no two pairs in consecutive slots: most hands
    pairs_by_suit: dict[int, dict[int, list[Card]]] = {}
    for c in pairs:
        pairs_by_suit.setdefault(suit_of[c], {}).setdefault(order_of[c], []).append(c)
    for slots in pairs_by_suit.values():
        if len(slots) < 2:
            continue
        for start in slots:                          # tractors: consecutive slots holding pairs
            end = start + 1
            while end in slots:
                for pick in itertools.product(*(slots[i] for i in range(start, end + 1))):
                    tractors.append(tuple(c for c in pick for _ in (0, 1)))
                end += 1
    return cards, tractors


THROW_SAMPLE_SHARE = 0.1
"""Share of random leads that try a throw of random cards of one suit (most fail)."""


def random_lead(hand: Sequence[Card], ctx: Context, rng: np.random.Generator) -> list[Card]:
    """A random lead: usually one of ``lead_units`` (uniform), sometimes
    (THROW_SAMPLE_SHARE) a random subset of two or more cards of one effective suit."""
    if rng.random() < THROW_SAMPLE_SHARE:
        by_suit: dict[int, list[Card]] = {}
        for c in hand:
            by_suit.setdefault(ctx.suit_of[c], []).append(c)
        suits = [cards for cards in by_suit.values() if len(cards) >= 2]
        if suits:
            cards = suits[pick_index(rng, len(suits))]
            size = 2 + pick_index(rng, len(cards) - 1)
            picks = rng.choice(len(cards), size=size, replace=False)
            return [cards[i] for i in sorted(picks)]
    cards, tractors = _hand_units(hand, ctx)      # lead_units(hand, ctx)[k] without the list
    k = pick_index(rng, len(cards) + len(tractors))
    if k >= len(cards):
        return list(tractors[k - len(cards)])
    c = cards[k]
    return [c, c] if k and cards[k - 1] == c else [c]
