"""A replay, step by step: the log re-run through its engine (``paiju.replay.rerun``), each
event handed with the engine's view of the table to a handler keyed by event KIND
(``paiju.replay.guandan``, ``paiju.replay.shengji``, ``paiju.replay.shared``). Each handler
returns the event as one readable line, written for the viewer, and keeps the record the
words need (``paiju.replay.table``); the table itself is the engine's. A run of drawn cards
is one step.

A payload that does not fit (a bad card code, a seat out of range, another game's event) is
a LogError naming the log line; a kind without a handler is never an error."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from paiju.games import paiju_part
from paiju.replay.chinese import draw_run_zh, step_zh
from paiju.replay.check import CheckResult
from paiju.replay.rerun import CheckedRerun, Parted, Point
from paiju.replay.shared import GENERIC_HANDLERS, by_convention
from paiju.replay.table import NUM_SEATS, Handler, Table, no_seats, seat_of
from tabletop.games import game_spec
from tabletop.errors import LogError, OptionError, PaijuError
from tabletop.events import Event, UnitStarted
from tabletop.rulings import Discovered, Irregular
from tabletop.log import Log

DRAW_KINDS = frozenset({"gd.drawn", "sj.drawn"})
"""One card drawn: a run of them is one step of the listing and of the page."""



@attrs.frozen
class Step:
    """One step of a replay: one event, or a run of drawn cards (``first`` … ``last``,
    indices into the log's events)."""

    first: int
    last: int
    label: str
    """The step's address: the event's seq, or UNIT:SEQ in a log of several units."""
    line: int
    """Line number of the last event (the header is line 1)."""
    kind: str
    text: str
    tags: str
    """'ruling', 'irregular' or ''."""
    deal: int
    unit: int | None
    zh: str = ""
    """The step in Chinese alone, the referee's terms first (``paiju.replay.chinese``)."""


def handlers_for(game: str) -> dict[str, Handler]:
    """The replay table's handlers: the generic ones and the game's own (its paiju part)."""
    try:
        own = paiju_part(game).replay_handlers()
    except OptionError as exc:
        raise LogError(str(exc)) from None
    return {**GENERIC_HANDLERS, **own}


class Fold:
    """Re-runs a log through its engine and folds its events into a ``Table``'s record, one
    event at a time. ``engine=False``: the record only (the payloads checked, no table).
    The same run checks the log (``checked``); ``progress`` is told of each unit it checks."""

    def __init__(self, log: Log, viewer: int | None = None, source: str = "log", engine: bool = True,
                 progress: Callable[[int], None] | None = None) -> None:
        self.log = log
        self.source = source
        self.handlers = handlers_for(log.game)
        options = log.header.get("options")
        options = options if isinstance(options, dict) else {}
        rules = log.header.get("rules")
        try:
            part = paiju_part(log.game)
            self.view_of = game_spec(log.game).table_view
        except OptionError as exc:
            raise LogError(str(exc)) from None
        seats = part.replay_seats() if part.replay_seats is not None and self.view_of is not None else no_seats
        self.table = Table(log.game, viewer, match=options.get("unit") == "matches",
                           rules=rules if isinstance(rules, dict) else {}, seats=seats)
        self.several_units = sum(1 for e in log.events if isinstance(e, UnitStarted)) > 1
        self.rerun = CheckedRerun(log, progress=progress) if engine else None
        self._points: Iterator[Point | Parted] | None = \
            iter(self.rerun) if self.rerun is not None and self.view_of is not None else None
        self._reached = -1
        """The last event the engine has reached."""
        self._engine: object = None
        self._previous: object = None
        """The engine's view after the batch before the current one."""

    def _engine_at(self, index: int) -> None:
        """Run the engine on to the action that gave event ``index``; hand the table its
        views (before and after that action, of the deal the event belongs to)."""
        while self._points is not None and self._reached < index:
            try:
                point = next(self._points, None)
            except (PaijuError, TypeError, ValueError, AttributeError, IndexError, KeyError):
                point = None   # a log its engine cannot even start (a header it does not take)
            if point is None or isinstance(point, Parted):
                self._points = None   # the log parts from its engine here: the last table stays
                break
            self._previous = self.table.facts
            self.table.facts = self._view(point.engine, None)
            self._engine, self._reached = point.engine, point.last
        event = self.log.events[index]
        if self._engine is not None and self.view_of is not None and self.table.facts is not None \
                and event.deal != self.table.facts.deal and not isinstance(event, UnitStarted):
            self.table.facts = self._view(self._engine, event.deal)   # the deal just over, in a match
        self.table.before = self._previous

    def _view(self, engine: object, deal: int | None) -> object:
        assert self.view_of is not None
        return self.view_of(engine, self.table.viewer, deal) if deal is not None else self.view_of(engine, self.table.viewer)

    def checked(self) -> CheckResult:
        """Whether the log reproduces (``check_log`` with its logged rulings), from the run that
        draws it: the rest of the log is checked, and the fold's table moves no more. Raises
        what ``check_log`` raises (a header its engine does not take)."""
        if self.rerun is None:
            self.rerun = CheckedRerun(self.log)
        self._points = None
        return self.rerun.verdict()

    def label(self, event: Event) -> str:
        unit = self.table.unit
        return f"{unit}:{event.seq}" if self.several_units and unit is not None else str(event.seq)

    def line(self, index: int) -> int:
        return index + 2

    def apply(self, index: int) -> tuple[str, str]:
        """Apply event ``index``: (its text, its tags). A payload that does not fit is a
        LogError naming the line."""
        event = self.log.events[index]
        kind = event.KIND
        self._engine_at(index)
        try:
            if event.seat is not None:
                seat_of(event.seat)
            if isinstance(event, UnitStarted):
                facts, before = self.table.facts, self.table.before
                self.table.new_unit(event.index)
                self.table.facts, self.table.before = facts, before
                return f"unit {event.index} starts", ""
            handler = self.handlers.get(kind, by_convention)
            try:
                text = handler(self.table, event)
            except AttributeError:  # a handler older than its event class: the generic way
                text = by_convention(self.table, event)
        except LogError as exc:
            raise LogError(f"{self.source}: line {self.line(index)}: corrupt event ({exc})") from None
        except (TypeError, ValueError, AttributeError, IndexError, KeyError) as exc:
            raise LogError(f"{self.source}: line {self.line(index)}: corrupt event ({kind}: {exc})") from None
        if kind.startswith("ref."):
            tags = "ruling"
        elif isinstance(event, (Irregular, Discovered)) or "irregular" in kind:
            tags = "irregular"
        else:
            tags = ""
        return text, tags

    def steps(self, until: int | None = None) -> Iterator[Step]:
        """Every step, the table updated to it when it is yielded (take what you need
        before asking for the next). A run of drawn cards is one step. ``until``: stop
        after that event (a run of drawn cards is cut there)."""
        events = self.log.events
        end = len(events) if until is None else min(until + 1, len(events))
        run_start: int | None = None
        run_text = ""
        for index in range(end):
            event = events[index]
            text, tags = self.apply(index)
            if event.KIND in DRAW_KINDS:
                if run_start is None:
                    run_start, run_text = index, text
                if index + 1 < end and events[index + 1].KIND in DRAW_KINDS:
                    continue
                run_zh = step_zh(self.log.game, event)
                if index > run_start:
                    run_text = self._draw_run_text(run_start, index)
                    run_zh = draw_run_zh(self._draw_counts(run_start, index))
                yield Step(run_start, index, self.label(event), self.line(index), event.KIND, run_text, "",
                           event.deal, self.table.unit, run_zh)
                run_start = None
                continue
            zh = step_zh(self.log.game, event, self.table.hide_judgement)
            if self.table.chinese:   # a note is often the step's own line (a handler's own words first)
                self.table.zh.setdefault(text, zh)
            yield Step(index, index, self.label(event), self.line(index), event.KIND, text, tags,
                       event.deal, self.table.unit, zh)

    def _draw_counts(self, first: int, last: int) -> list[int]:
        counts = [0] * NUM_SEATS
        for e in self.log.events[first:last + 1]:
            counts[seat_of(e.seat)] += 1
        return counts

    def _draw_run_text(self, first: int, last: int) -> str:
        events = self.log.events[first:last + 1]
        counts = self._draw_counts(first, last)
        each = ", ".join(f"seat {s} {n}" for s, n in enumerate(counts) if n)
        return f"{len(events)} cards drawn (seq {events[0].seq}-{events[-1].seq}: {each})"


def find_step(fold: Fold, label: str) -> int:
    """The index of the event whose address (seq, or UNIT:SEQ) is ``label``. A plain seq
    that occurs in several units is ambiguous."""
    events = fold.log.events
    unit: int | None = None
    matches: list[tuple[int | None, int]] = []
    want_unit: int | None = None
    text = label.strip()
    try:
        if ":" in text:
            u, s = text.split(":", 1)
            want_unit, want_seq = int(u), int(s)
        else:
            want_seq = int(text)
    except ValueError:
        raise LogError(f"--at {label!r}: not a sequence number (N, or UNIT:N in a log of several units)") from None
    seqs: dict[int | None, list[int]] = {}
    # per unit (None: before any unit event), the sequence numbers it has
    for index, event in enumerate(events):
        if isinstance(event, UnitStarted):
            unit = event.index
        seqs.setdefault(unit, []).append(event.seq)
        if event.seq == want_seq and (want_unit is None or unit == want_unit):
            matches.append((unit, index))
    if not matches:
        raise LogError(f"--at {label}: " + _nothing_at(seqs, want_unit, want_seq))
    if len(matches) > 1:
        units = ", ".join(str(u) for u, _ in matches[:6])
        raise LogError(f"--at {label}: sequence number {want_seq} occurs in units {units}; "
                       f"say which, e.g. --at {matches[0][0]}:{want_seq}")
    return matches[0][1]


def _span(values: list[int]) -> str:
    return f"{min(values)}-{max(values)}" if values else "none"


def _nothing_at(seqs: dict[int | None, list[int]], want_unit: int | None, want_seq: int) -> str:
    """Why no event has that address, with the bounds of the unit asked about (or of the
    units there are)."""
    units = sorted(u for u in seqs if u is not None)
    if want_unit is not None:
        if want_unit not in seqs:
            have = f"units {_span(units)}" if units else "no units (give a plain sequence number)"
            return f"no unit {want_unit} (the log has {have})"
        return f"no event {want_seq} in unit {want_unit} (its sequence numbers run {_span(seqs[want_unit])})"
    every = [s for values in seqs.values() for s in values]
    if len(units) > 1:
        return (f"no event with sequence number {want_seq} in any unit (sequence numbers run "
                f"{_span(every)}; units {_span(units)})")
    return f"no event with sequence number {want_seq} (the log's sequence numbers run {_span(every)})"
