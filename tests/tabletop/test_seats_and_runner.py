from typing import ClassVar

import attrs

from tabletop.events import Event, EventStream
from tabletop.runner import run
from tabletop.seats import next_seat, partner, prev_seat, seats_from, team


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
    """A toy engine: seats take turns adding one until 6."""

    phase = "PLAY"

    def __init__(self):
        self.stream = EventStream()
        self.total = 0

    @property
    def to_act(self):
        return None if self.total >= 6 else self.total % 4

    def legal_actions(self):
        return [1]

    def apply(self, action):
        self.total += action
        self.stream.emit(_Counted, seat=self.total % 4, value=self.total)
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


class _Echo:
    """Answers the first event it sees with one event of its own (as a referee would)."""

    def __init__(self):
        self.seen = []

    def on_events(self, engine, events):
        self.seen.extend(e.value for e in events)
        if len(self.seen) == 1:
            return [engine.stream.emit(_Counted, value=100)] and engine.stream.take()
        return None


def test_runner_plays_to_the_end_and_shows_observer_answers_to_everyone():
    engine = _CountTo()
    echo, other = _Echo(), _Echo()
    other.seen.append(-1)  # never answers
    assert run(engine, [_Agent()] * 4, [echo, other]) == 6
    assert echo.seen == [1, 100, 2, 3, 4, 5, 6]
    assert other.seen == [-1, 1, 100, 2, 3, 4, 5, 6]
