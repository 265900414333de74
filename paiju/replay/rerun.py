"""A log re-run through its engine, for looking at: every unit rebuilt from the header, the
logged actions and the logged rulings applied again, and after each batch of events the
engine at that point. The viewer draws each step from the engine's view
(``GameSpec``'s ``table_view``), so the replay has no model of the table of its own.

``--check`` (``paiju.replay.check``) compares the lines byte for byte; here the engine must
only give events of the kinds and seats the log holds at that place. A line the engine does
not give and that is no input to it (a note, a kind of a later version, a ruling where none
is awaited) is stepped over: it leaves the table as it was. A log that parts from what its
engine gives is shown up to where it parts (the rest of its steps keep the last table the
engine reached).

``CheckedRerun`` is what a view draws from: one run for both the drawing and the check that
says whether the log reproduces (``--check --logged-rulings``). While every line reproduces
byte for byte it is ``check_log``'s own pass (``CheckRun``); only a log that does not
reproduce is re-run from its start the lenient way above, to be shown past where the check
stopped."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import Any

import attrs

from paiju.games import GameAdapter, adapter_for
from paiju.replay.check import CheckResult, CheckRun, Point
from paiju.sim.batch import start_unit
from tabletop.errors import PaijuError
from tabletop.events import EventStream, UnitStarted
from tabletop.games import game_spec
from tabletop.log import Log
from tabletop.rulings import RulingEvent, UnresolvedEvent, ruling_from_event
from tabletop.seats import REFEREE


@attrs.frozen
class Parted:
    """Where the log parts from its engine: the index of the first event it does not give."""

    index: int
    why: str


def rerun(log: Log, game: GameAdapter | None = None) -> Iterator[Point | Parted]:
    """Points in log order; a ``Parted`` last when the log leaves what its engine gives."""
    from paiju.replay.check import log_unit_indices
    from paiju.sim.refereed import refereed

    game = game or adapter_for(log.game)
    options = log.header.get("options", {})
    unit = options.get("unit", "deals")
    rules = game.rules_from_dict(log.header.get("rules", {}))
    if refereed(options):
        from enforcement.games import referee_part

        referee_part(log.game)
    events = log.events
    position = 0
    in_units = bool(events) and isinstance(events[0], UnitStarted)
    shared = EventStream()

    def take(produced: list[Any]) -> str | None:
        nonlocal position
        for event in produced:
            while position < len(events) and not _same(events[position], event) and _foreign(events[position], None):
                position += 1
            if position >= len(events):
                return "the log ends here"
            logged = events[position]
            if not _same(logged, event):
                return f"the log has {logged.KIND!r}, the engine gives {event.KIND!r}"
            position += 1
        return None

    given = game_spec(log.game).engine_from_log
    for index in log_unit_indices(log):
        if position >= len(events):
            return
        first = position
        made = given(events[position:], rules, **game.engine_options(options)) if given is not None and unit == "deals" \
            else None
        if made is not None:
            engine = made
            why = take(([events[position]] if in_units else []) + engine.take_events())
        elif in_units:
            engine, started = start_unit(game, unit, log.seed, index, rules, options)
            why = take([started, *engine.take_events()])
        else:
            engine = game.new_engine(unit, log.seed, index, rules, shared, options)
            why = take(engine.take_events())
        if why is not None:
            yield Parted(first, why)
            return
        yield Point(first, position - 1, engine)
        while (seat := engine.to_act) is not None and position < len(events):
            first = position
            while position < len(events) and _foreign(events[position], seat):
                position += 1
            if position > first:      # stepped over: the table as it was
                yield Point(first, position - 1, engine)
                first = position
                if position >= len(events):
                    return
            try:
                action = _action(game, seat, events[position])
                produced = engine.apply(action)
            except PaijuError as exc:
                yield Parted(first, str(exc))
                return
            produced.extend(engine.take_events())
            why = take(produced)
            if why is not None:
                yield Parted(first, why)
                return
            yield Point(first, position - 1, engine)
    if position < len(events):
        yield Parted(position, "events after the last unit")


class CheckedRerun:
    """The log re-run once for a view: the points to draw (as ``rerun`` gives them) and the
    verdict of ``check_log(log, logged_rulings=True)`` from the same run.

    The points come from the check's pass as long as it goes: up to where a log first fails
    to reproduce, its lines are the engine's own, so ``rerun`` would give the same batches.
    A log that reproduces (or is the clean prefix of an interrupted run) is run once; one
    that does not (or a log held without its lines, which the check cannot read) is run
    again from its start by ``rerun``, whose points past the last one drawn carry on."""

    def __init__(self, log: Log, game: GameAdapter | None = None,
                 progress: Callable[[int], None] | None = None) -> None:
        self.log = log
        self.game = game
        self._check = CheckRun(log, game, logged_rulings=True, progress=progress)
        self._checking = iter(self._check)
        self._error: Exception | None = None
        self._points = self._run()

    def __iter__(self) -> Iterator[Point | Parted]:
        return self._points

    def _run(self) -> Generator[Point | Parted, None, None]:
        drawn = -1
        try:
            for checked in self._checking:
                drawn = checked.last
                yield checked
        except Exception as exc:   # the check's to report (verdict); the lenient run may still draw
            self._error = exc
        result = self._check.result
        if result is not None and result.ok and result.events_checked == len(self.log.events):
            return   # the whole log reproduced, or ended where its run went on: all drawn
        for point in rerun(self.log, self.game):
            if isinstance(point, Point) and point.last <= drawn:
                continue
            yield point

    def verdict(self) -> CheckResult:
        """The check's result, the rest of the log checked (no longer drawn: the points stop
        here). Raises what the check raises (a header its engine does not take)."""
        if self._error is None and self._check.result is None:
            try:
                for _ in self._checking:
                    pass
            except Exception as exc:
                self._error = exc
        self._points.close()
        if self._error is not None:
            raise self._error
        assert self._check.result is not None
        return self._check.result


def _same(logged: Any, produced: Any) -> bool:
    return bool(logged.KIND == produced.KIND and logged.seat == produced.seat)


def _foreign(logged: Any, seat: Any) -> bool:
    """Whether a logged line is no input to the engine when ``seat`` is to act (None: while
    the engine gives its events): an action or a ruling is one where the engine waits for it."""
    if isinstance(logged, UnitStarted):
        return False
    if seat is REFEREE:
        return not isinstance(logged, (RulingEvent, UnresolvedEvent))
    return not logged.ACTION or isinstance(logged, (RulingEvent, UnresolvedEvent))


def _action(game: GameAdapter, seat: Any, event: Any) -> Any:
    if seat is REFEREE:
        if not isinstance(event, (RulingEvent, UnresolvedEvent)):
            raise PaijuError(f"expected a ruling, the log has {event.KIND!r}")
        return ruling_from_event(event)
    if not event.ACTION:
        raise PaijuError(f"expected an action by seat {seat}, the log has {event.KIND!r}")
    return game.action_from_event(event)


def views(log: Log, viewer: int | None, view: Callable[[Any, int | None], Any]) -> list[Any]:
    """The view after each event of the log: an event inside a batch shows the table after
    its batch; events past where the log parts from its engine show the last table."""
    out: list[Any] = []
    last = None
    for point in rerun(log):
        if isinstance(point, Parted):
            break
        last = view(point.engine, viewer)
        out.extend([last] * (point.last + 1 - len(out)))
    out.extend([last] * (len(log.events) - len(out)))
    return out
