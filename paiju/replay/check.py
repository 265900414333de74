"""`paiju replay LOG --check`: rebuild every engine from the log header, re-apply the
actions recorded in the log, and compare every produced event with the logged line,
byte for byte. Exit 0 only if all match; otherwise print the first difference.

``CheckRun`` is that pass batch by batch: a view of the log (``paiju.replay.rerun``) draws
from the engine it gives after each batch, so the view and its check are one run.

Layouts (see `paiju.sim.logs`): a batch log opens each unit with a ``unit`` event and
plays it on a fresh stream; its units are 0 … count-1, or those of the header's
``options.index_ranges`` (a per-worker file), or -- ``options.unit_order: finished``, a
server's log of games that finish in any order -- those its unit events name, as logged.
A log without ``unit`` events is one stream shared by all its units (the layout of a
single engine's log)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs

from tabletop.errors import LogError, OptionError, PaijuError
from tabletop.events import EventStream, UnitStarted
from tabletop.log import Log, encode_event, peek_header, read_log
from tabletop.rulings import RulingEvent, UnresolvedEvent, ruling_from_event
from tabletop.seats import REFEREE

from paiju.sim.batch import start_unit
from paiju.games import GameAdapter, adapter_for
from paiju.summary import counted, unit_noun
from paiju.sim.refereed import make_referee, refereed


@attrs.frozen
class CheckResult:
    ok: bool
    events_checked: int
    units: int
    message: str
    complete: bool = True
    """False: the log is a clean prefix of the run (an interrupted run) — every unit it holds
    in full was verified, and the last one may have been cut short."""


class _Mismatch(Exception):
    pass


class _CutShort(Exception):
    """The log ends where the run goes on: an interrupted run, not a mismatch."""


@attrs.frozen
class Point:
    """The engine after the events ``[first, last]`` of the log (one batch: one action's)."""

    first: int
    last: int
    engine: Any


def check_log(log: Log, game: GameAdapter | None = None, *, logged_rulings: bool = False,
              progress: Callable[[int], None] | None = None) -> CheckResult:
    """Re-run the log and compare. Never raises for a mismatch: it is the result.

    Whenever the referee's seat is to act, a fresh rulebook referee (one per unit) rules
    again and its ruling must give the logged lines; with ``logged_rulings`` the logged
    ruling itself is re-applied instead (no referee: a log whose rulings were made by hand
    is checked for what its rulings did, not for agreeing with the rulebook). ``progress``
    is told of each unit verified."""
    run = CheckRun(log, game, logged_rulings=logged_rulings, progress=progress)
    for _ in run:
        pass
    assert run.result is not None
    return run.result


class CheckRun:
    """``check_log``'s one pass, batch by batch: iterating it gives the engine after each batch
    of lines that reproduced exactly (a ``Point``: whoever draws the log draws from the same
    run), and sets ``result`` when the pass is over. A header the engine does not take raises
    (a PaijuError) from the iteration, as from ``check_log``."""

    def __init__(self, log: Log, game: GameAdapter | None = None, *, logged_rulings: bool = False,
                 progress: Callable[[int], None] | None = None) -> None:
        self.log = log
        self.game = game
        self.logged_rulings = logged_rulings
        self.progress = progress
        self.result: CheckResult | None = None

    def __iter__(self) -> Iterator[Point]:
        log, logged_rulings, progress = self.log, self.logged_rulings, self.progress
        game = self.game or adapter_for(log.game)
        options = log.header.get("options", {})
        unit = options.get("unit", "deals")
        if unit not in ("deals", "matches"):
            raise LogError("log header: options.unit missing or invalid")
        indices = log_unit_indices(log)
        noun = unit_noun(unit)
        rules = game.rules_from_dict(log.header.get("rules", {}))
        cursor = _Cursor(log)
        in_units = isinstance(cursor.peek(), UnitStarted)
        shared = EventStream()
        rederive = refereed(options) and not logged_rulings
        if refereed(options):
            # the table cites the clauses its referee names for the steps it takes on its own
            # (tabletop.games.cited_by_referee), with the logged rulings as with re-derived ones
            from enforcement.games import referee_part

            referee_part(log.game)
        verified = 0
        try:
            for index in indices:
                if in_units and cursor.peek() is None:
                    raise _CutShort(f"the log ends after {verified} of {counted(len(indices), noun)}")
                first = cursor.position
                if in_units:
                    engine, started = start_unit(game, unit, log.seed, index, rules, options)
                    cursor.expect([started])
                else:
                    engine = game.new_engine(unit, log.seed, index, rules, shared, options)
                referee = make_referee(log.game) if rederive else None
                cursor.expect(engine.take_events())
                yield Point(first, cursor.position - 1, engine)
                while True:
                    seat = engine.to_act
                    if seat is None:
                        break
                    event = cursor.peek()
                    if event is None:
                        who = "a ruling" if seat is REFEREE else f"an action from seat {seat}"
                        raise _CutShort(f"{noun} {index} is cut short (it still expects {who})")
                    action = _next_action(game, engine, seat, event, referee, cursor.line_number)
                    try:
                        produced = engine.apply(action)
                    except PaijuError as exc:
                        what = "the referee's ruling" if referee is not None and seat is REFEREE else "the logged action"
                        raise _Mismatch(f"line {cursor.line_number}: {what} is refused: {exc}") from None
                    produced.extend(engine.take_events())
                    first = cursor.position
                    cursor.expect(produced)
                    yield Point(first, cursor.position - 1, engine)
                verified += 1
                if progress is not None:
                    progress(1)
            if cursor.peek() is not None:
                raise _Mismatch(f"line {cursor.line_number}: log has events after the last {noun}")
        except _Mismatch as exc:
            self.result = CheckResult(False, cursor.position, len(indices), str(exc))
            return
        except _CutShort as exc:
            if log.truncated:
                exc = _CutShort(f"{exc}; its last line is cut off")
            self.result = CheckResult(
                True, cursor.position, verified,
                f"ok: {counted(cursor.position, 'event')} in {counted(verified, 'whole ' + noun)} reproduced exactly; "
                f"incomplete: {exc} (an interrupted run)", complete=False)
            return
        rulings = " (rulings as logged)" if logged_rulings and refereed(options) else ""
        self.result = CheckResult(True, cursor.position, len(indices),
                                  f"ok: {counted(cursor.position, 'event')} in {counted(len(indices), noun)} "
                                  f"reproduced exactly{rulings}")


def _next_action(game: GameAdapter, engine: Any, seat: Any, event: Any, referee: Any, line: int) -> Any:
    """What the seat to act does next: the logged action, or — the referee's seat with a
    referee to re-derive it — the referee's ruling now."""
    ruling = isinstance(event, (RulingEvent, UnresolvedEvent))
    if seat is REFEREE:
        if referee is not None:
            try:
                return referee.rule(engine)
            except PaijuError as exc:
                raise _Mismatch(f"line {line}: the referee cannot rule: {exc}") from None
        if not ruling:
            raise _Mismatch(f"line {line}: expected a ruling, log has {event.KIND!r}")
        try:
            return ruling_from_event(event)
        except PaijuError as exc:
            raise _Mismatch(f"line {line}: {exc}") from None
    if not event.ACTION or ruling:
        raise _Mismatch(f"line {line}: expected an action by seat {seat}, log has {event.KIND!r}")
    try:
        return game.action_from_event(event)
    except PaijuError as exc:
        raise _Mismatch(f"line {line}: the logged action is refused: {exc}") from None


def log_unit_indices(log: Log) -> range | list[int]:
    """The unit indices ``log`` holds, in the order it holds them: by its header's
    ``count`` and ``index_ranges``, or with ``unit_order: finished`` by its unit events."""
    options = log.header.get("options")
    options = options if isinstance(options, dict) else {}
    if options.get("unit_order") == "finished":
        indices = [event.index for event in log.events if isinstance(event, UnitStarted)]
        if len(set(indices)) != len(indices):
            raise LogError("log: a unit index occurs twice (unit_order: finished logs each unit once)")
        return indices
    count = options.get("count")
    if not isinstance(count, int):
        raise LogError("log header: options.count missing or invalid")
    return unit_indices(options, count)


def unit_indices(options: dict[str, Any], count: int) -> range | list[int]:
    """The unit indices a log holds: ``options.index_ranges`` (half-open [start, stop)
    ranges, ascending) when the header has them, else all of 0 … count-1."""
    ranges = options.get("index_ranges")
    if ranges is None:
        return range(count)
    if not isinstance(ranges, list):
        raise LogError("log header: options.index_ranges is not a list")
    indices: list[int] = []
    previous_stop = 0
    for item in ranges:
        well_formed = isinstance(item, list) and len(item) == 2 and all(type(v) is int for v in item)
        if not well_formed or not previous_stop <= item[0] < item[1] <= count:
            raise LogError(f"log header: options.index_ranges: bad range {item!r} "
                           f"(want ascending [start, stop) ranges within 0-{count})")
        indices.extend(range(item[0], item[1]))
        previous_stop = item[1]
    return indices


class _Cursor:
    def __init__(self, log: Log) -> None:
        self.log = log
        self.position = 0

    @property
    def line_number(self) -> int:
        return self.position + 2  # line 1 is the header

    def peek(self) -> Any:
        return self.log.events[self.position] if self.position < len(self.log.events) else None

    def expect(self, produced: list[Any]) -> None:
        for event in produced:
            if self.position >= len(self.log.lines):
                raise _CutShort(f"the log ends at line {self.line_number} inside a unit")
            line = encode_event(event)
            logged = self.log.lines[self.position]
            if line != logged:
                raise _Mismatch(f"line {self.line_number} differs:\n  log:    {logged}\n  replay: {line}")
            self.position += 1


def load_log(path: str, *, allow_truncated: bool = False,
             read: Callable[[int], None] | None = None) -> tuple[Log, GameAdapter]:
    """The log and its game's adapter; the game is loaded first, so that its event kinds
    are known when the events are read (``read``: told the bytes read, for a progress display)."""
    try:
        game = adapter_for(peek_header(path).get("game"))
    except OptionError as exc:
        raise LogError(f"{path}: line 1: {exc}") from None
    return read_log(path, allow_truncated=allow_truncated, read=read), game


def units_of(log: Log) -> tuple[str, int]:
    """What the log holds, for the progress display: ('deals', 2000); a header that does not
    say is check_log's to report."""
    options = log.header.get("options")
    if not isinstance(options, dict):
        return "units", 0
    try:
        return str(options["unit"]), len(log_unit_indices(log))
    except (LogError, KeyError, TypeError):
        return "units", 0
