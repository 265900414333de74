from typing import ClassVar

import attrs

from tabletop.events import Event, EventStream
import pytest

from tabletop.runner import NoRefereeError, run
from tabletop.seats import REFEREE, next_seat, partner, prev_seat, seats_from, team


def test_seat_relations():
    assert [next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert [prev_seat(s) for s in range(4)] == [3, 0, 1, 2]
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [team(s) for s in range(4)] == [0, 1, 0, 1]
    assert seats_from(3) == (3, 0, 1, 2)


@attrs.frozen(kw_only=True)
class _Counted(Event):
    KIND: ClassVar[str] = "test.counted"
    value: int


class _CountTo:
    """A toy engine: seats take turns adding one until 6; reaching 3 is an irregularity the
    referee's seat must answer (its ruling is added as it is)."""

    phase = "PLAY"

    def __init__(self):
        self.stream = EventStream()
        self.total = 0
        self.awaiting_ruling = ()

    @property
    def to_act(self):
        if self.awaiting_ruling:
            return REFEREE
        return None if self.total >= 6 else self.total % 4

    def legal_actions(self):
        return [] if self.awaiting_ruling else [1]

    def apply(self, action):
        if self.awaiting_ruling:
            self.awaiting_ruling = ()
            self.stream.emit(_Counted, value=action)   # the ruling, logged like any action
            return self.stream.take()
        self.total += action
        self.stream.emit(_Counted, seat=self.total % 4, value=self.total)
        if self.total == 3:
            self.awaiting_ruling = ("three",)
        return self.stream.take()

    def observe(self, seat):
        return self.total

    def take_events(self):
        return self.stream.take()

    @property
    def result(self):
        return self.total


class _Agent:
    def act(self, observation, legal):
        return legal[0]


class _Seen:
    def __init__(self):
        self.seen = []

    def on_events(self, engine, events):
        self.seen.extend(e.value for e in events)


class _Referee(_Seen):
    """Fills the referee's seat (and observes, so it is shown every event first)."""

    def __init__(self, shown_to):
        super().__init__()
        self.shown_to = shown_to

    def rule(self, engine):
        self.shown_to.append(("rule", engine.total))
        return 100


def test_the_runner_asks_the_referee_seat_when_a_ruling_is_awaited_and_shows_every_event():
    asked = []
    referee, watcher = _Referee(asked), _Seen()
    assert run(_CountTo(), [_Agent()] * 4, [watcher], referee=referee) == 6
    assert asked == [("rule", 3)]
    assert referee.seen == watcher.seen == [1, 2, 3, 100, 4, 5, 6]


def test_a_ruling_awaited_with_nobody_in_the_referee_seat_is_a_clear_error():
    with pytest.raises(NoRefereeError, match="awaits a ruling"):
        run(_CountTo(), [_Agent()] * 4)


class _Observing:
    """Records what it is given to observe; ``observes`` as the class says."""

    def __init__(self, observes):
        self.observes = observes
        self.given = []

    def act(self, observation, legal):
        self.given.append(observation)
        return legal[0]


class _ObservedCount(_CountTo):
    def __init__(self):
        super().__init__()
        self.observed = []

    def observe(self, seat):
        self.observed.append(seat)
        return ("seen", seat, self.total)


def test_an_agent_that_does_not_observe_is_given_none_and_the_engine_is_not_asked_for_its_view():
    engine = _ObservedCount()
    blind, seeing = _Observing(False), _Observing(True)
    plain = _Agent()   # no observes attribute: observes, as every agent did before
    agents = [blind, seeing, plain, blind]
    assert run(engine, agents, referee=_Referee([])) == 6
    assert blind.given == [None, None, None] and seeing.given == [("seen", 1, 1), ("seen", 1, 5)]
    assert engine.observed == [1, 2, 1]   # seats 1 and 2 only, at each of their turns
