"""The toy game's engine, agents and registration (see the package docstring)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

from enforcement.carried_out import EffectEvents
from enforcement.games import RefereePart, register_referee
from enforcement.invariants import Checker, violated
from tabletop.cards import Card
from tabletop.errors import IllegalAction
from tabletop.events import Event, EventStream
from tabletop.games import GameSpec, registered
from tabletop.seats import Seating
from tabletop.rng import child_seed, generator
from tabletop.rulings import Ruling, RulingPlan, log_ruling
from tests.toygame import effects

SEATING = Seating(seats=3, sides=((0,), (1, 2)))
RANKS = "3456789TJQKA"
DECK = tuple(Card(s + r) for s in "SH" for r in RANKS)
HAND = 8


@attrs.frozen(kw_only=True)
class Dealt(Event):
    KIND: ClassVar[str] = "toy.dealt"
    cards: tuple[str, ...]


@attrs.frozen(kw_only=True)
class Played(Event):
    KIND: ClassVar[str] = "toy.played"
    ACTION: ClassVar[bool] = True
    card: str


@attrs.frozen(kw_only=True)
class Passed(Event):
    KIND: ClassVar[str] = "toy.passed"
    ACTION: ClassVar[bool] = True


@attrs.frozen(kw_only=True)
class Won(Event):
    KIND: ClassVar[str] = "toy.won"
    side: int


@attrs.frozen
class Play:
    seat: int
    card: Card


@attrs.frozen
class Pass:
    seat: int


@attrs.frozen
class ToyRules:
    def to_dict(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ToyRules":
        return cls()


@attrs.frozen
class Result:
    side: int
    first_out: int


def _rank(card: Card) -> int:
    return RANKS.index(str(card)[1])


class Deal:
    """One toy deal (strict mode only)."""

    phase = "PLAY"

    def __init__(self, seed: int, stream: EventStream | None = None, deal_number: int = 1) -> None:
        self.stream = stream if stream is not None else EventStream()
        self.stream.deal = deal_number
        order = generator(seed, 1).permutation(len(DECK))
        cards = [DECK[i] for i in order]
        self.hands = [sorted(cards[s * HAND:(s + 1) * HAND], key=_rank) for s in range(SEATING.seats)]
        for seat, hand in enumerate(self.hands):
            self.stream.emit(Dealt, seat=seat, cards=tuple(str(c) for c in hand))
        self.played: list[Card] = []
        self.turn: int | None = 0
        self.top: tuple[int, Card] | None = None
        self.passes = 0
        self.result: Result | None = None

    @property
    def to_act(self) -> int | None:
        return self.turn

    def legal_actions(self) -> list[Any]:
        seat = self.turn
        if seat is None:
            return []
        plays = [Play(seat, c) for c in self.hands[seat] if self.top is None or _rank(c) > _rank(self.top[1])]
        return plays + ([Pass(seat)] if self.top is not None else [])

    def apply(self, action: Any) -> list[Event]:
        if type(action) is Ruling:       # the referee's seat acts: the ruling is logged, then carried out
            log_ruling(self.stream, action)
            RulingPlan(action.clause, action.effects).carry_out(self, (), effects.EFFECT_HANDLERS, {})
            return self.stream.take()
        if action not in self.legal_actions():
            raise IllegalAction(f"not legal now: {action!r}")
        seat = action.seat
        if type(action) is Pass:
            self.stream.emit(Passed, seat=seat)
            self.passes += 1
            self.turn = SEATING.next(seat)
            if self.passes == SEATING.seats - 1:   # everyone else passed: the last player leads
                self.top, self.passes = None, 0
            return self.stream.take()
        self.hands[seat].remove(action.card)
        self.played.append(action.card)
        self.stream.emit(Played, seat=seat, card=str(action.card))
        self.top, self.passes = (seat, action.card), 0
        if not self.hands[seat]:
            side = SEATING.side(seat)
            self.stream.emit(Won, seat=seat, side=side)
            self.result, self.turn = Result(side, seat), None
        else:
            self.turn = SEATING.next(seat)
        return self.stream.take()

    def observe(self, seat: int) -> dict[str, Any]:
        return {"hand": tuple(self.hands[seat]), "top": None if self.top is None else self.top[1]}

    def take_events(self) -> list[Event]:
        return self.stream.take()


class RandomToyAgent:
    def __init__(self, rng: Any) -> None:
        self.rng = rng

    def act(self, observation: Any, legal: Any) -> Any:
        return legal[int(self.rng.integers(len(legal)))]


def action_from_event(event: Event) -> Any:
    if type(event) is Played:
        return Play(event.seat, Card(event.card))
    if type(event) is Passed:
        return Pass(event.seat)
    raise IllegalAction(f"{event.KIND} is not a toy action")


class ToyChecker(Checker):
    """The invariant checker's generic part, plus the toy game's own: every card is somewhere."""

    game = "toy"
    IRREGULAR = "toy.irregular"
    FOUND = "toy.found"

    def check_state(self, engine: Any) -> None:
        cards = sorted(map(str, [*engine.played, *(c for h in engine.hands for c in h)]))
        if cards != sorted({str(c) for c in engine.played} | {str(c) for h in engine.hands for c in h}) or \
                len(cards) != SEATING.seats * HAND:
            raise violated("cards_conserved", f"{len(cards)} cards in hands and played, or one twice")


def _new_deal(seed: int, index: int, rules: Any, stream: EventStream, **engine: Any) -> Deal:
    return Deal(child_seed(seed, index), stream, deal_number=index + 1)


SPEC = GameSpec(
    name="toy", title="toy (one against two)", seating=SEATING, rules_from_dict=ToyRules.from_dict,
    new_deal=_new_deal, new_match=_new_deal, agents={"random": RandomToyAgent},
    action_from_event=action_from_event, events=(Dealt, Played, Passed, Won, effects.Skipped),
    effects=lambda: effects.EFFECTS, engine_keywords=frozenset(),
)
REFEREE = RefereePart(
    make_referee=None, catalogue=None, checker=ToyChecker,
    effect_events=EffectEvents(frozenset({effects.Skipped.KIND}), effects.skipped_atoms, turn="Turn",
                               replay_per_seat=False, next_deal=False))


@contextlib.contextmanager
def toy_registered() -> Iterator[GameSpec]:
    """The toy game registered (with its referee part) for the ``with`` block only, so that
    the tests after it in the process see only the built-in games."""
    with registered(SPEC):
        register_referee("toy", REFEREE)
        yield SPEC
