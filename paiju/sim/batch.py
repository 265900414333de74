"""The work of `paiju simulate`, cut into chunks of consecutive unit indices.

A unit is one deal or one whole match: number ``index`` of the run. Unit ``i`` is always
played the same way — its engine from the seed-tree node ``(seed, i)``, its agents from
``(seed, i, AGENT + seat)``, a fresh event stream opened by ``UnitStarted(index=i)`` — so
its result and its log lines do not depend on the process that plays it, on how the run
is chunked, or on the units around it. That is what makes a run independent of
``--jobs`` and of the Dask cluster.

Everything a worker receives or returns here is plain picklable data (the game is named,
the rules are their dict), so the same ``play_chunk`` runs in this process, in a local
process pool and on Dask workers.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

import attrs

from tabletop import rng as streams
from tabletop.errors import PaijuError
from tabletop.events import Event, EventStream, UnitStarted
from tabletop.log import encode_block, encode_event
from tabletop.runner import run

from paiju.agent_specs import agent_factory, make_agents, plugin_blame
from paiju.games import GameAdapter, adapter_for

UNITS = ("deals", "matches")
MAX_CHUNK = {"deals": 20, "matches": 1}
"""Units per chunk at most: a chunk is about a second of work, so progress stays live and
a slow chunk does not hold up the ordered log writer for long."""
CHUNKS_PER_WORKER = 8
"""At least this many chunks per worker when the run is big enough (load balance)."""


class UnitFailed(PaijuError):
    """A unit raised an error; the message names the unit so that it can be re-run alone."""


@attrs.frozen
class Batch:
    """What to play: ``count`` units of ``game`` from ``seed``. ``rules`` is the rules
    dict (as in the log header) and ``agents`` one agent spec per seat (a built-in name or
    a plug-in: ``paiju.agent_specs``, loaded again in each worker)."""

    game: str
    unit: str
    count: int
    seed: int
    rules: dict[str, Any] = attrs.field(hash=False)
    agents: tuple[str, ...]
    options: dict[str, Any] = attrs.field(factory=dict, hash=False)
    """Header options beyond unit/count/agents: ``referee`` and ``infractions``."""

    @property
    def refereed(self) -> bool:
        return bool(self.options.get("referee") or self.options.get("infractions"))

    def header_options(self) -> dict[str, Any]:
        return {"unit": self.unit, "count": self.count, "agents": list(self.agents),
                "referee": self.refereed, **{k: v for k, v in self.options.items() if k != "referee"}}


@attrs.frozen
class Chunk:
    """Units ``start`` … ``stop - 1``; ``number`` is the chunk's place in the run."""

    number: int
    start: int
    stop: int

    def __len__(self) -> int:
        return self.stop - self.start


@attrs.frozen
class ChunkTask:
    """Play ``chunk`` of ``batch``; with ``log``, also return its log bytes, each unit
    gzip-compressed on its own when ``compress`` (the worker compresses, not the writer)."""

    batch: Batch
    chunk: Chunk
    log: bool = False
    compress: bool = False


@attrs.frozen
class ChunkOutput:
    """A chunk's results in unit order, its log bytes (``tabletop.log.encode_block`` of
    each unit in turn; empty without a log), and who played it: ``worker`` is
    ``host:pid`` and ``peak_rss_kb`` that process's peak so far."""

    chunk: Chunk
    results: tuple[Any, ...]
    log: bytes
    worker: str
    peak_rss_kb: int


def chunk_size(unit: str, count: int, workers: int) -> int:
    return max(1, min(MAX_CHUNK[unit], count // (workers * CHUNKS_PER_WORKER)))


class ChunkPlan(Sequence[Chunk]):
    """The chunks of ``count`` units, ``size`` at a time, made when asked for: a plan of
    10⁹ deals costs no more memory than one of ten (slicing gives another plan)."""

    def __init__(self, count: int, size: int, numbers: range | None = None) -> None:
        self._units, self._size = count, size
        self._numbers = range(-(-count // size)) if numbers is None else numbers

    def __len__(self) -> int:
        return len(self._numbers)

    @property
    def consecutive(self) -> bool:
        """Whether its chunks follow one another (a plan or a slice of it with step 1)."""
        return self._numbers.step == 1

    @overload
    def __getitem__(self, at: int) -> Chunk: ...
    @overload
    def __getitem__(self, at: slice) -> ChunkPlan: ...

    def __getitem__(self, at: int | slice) -> Chunk | ChunkPlan:
        if isinstance(at, slice):
            return ChunkPlan(self._units, self._size, self._numbers[at])
        number = self._numbers[at]
        start = number * self._size
        return Chunk(number, start, min(start + self._size, self._units))

    def __iter__(self) -> Iterator[Chunk]:
        return (self[i] for i in range(len(self)))


def plan_chunks(count: int, size: int) -> ChunkPlan:
    return ChunkPlan(count, size)


def start_unit(game: GameAdapter, unit: str, seed: int, index: int, rules: Any,
               options: dict[str, Any] | None = None) -> tuple[Any, UnitStarted]:
    """Unit ``index``'s engine on a fresh stream, in the mode the header options ask for,
    and the ``UnitStarted`` event that opens the unit in a log (already taken from the
    stream: the engine's events follow it)."""
    stream = EventStream()
    started = stream.emit(UnitStarted, index=index)
    stream.take()
    return game.new_engine(unit, seed, index, rules, stream, options), started


@attrs.frozen
class RefereedResult:
    """A refereed unit's result and what the referee did in it (plain data, picklable):
    ``rulings`` as (clause, side, sanction kinds) per ruling, ``irregular`` the number of
    irregular attempts, ``unresolved`` those the rulebook did not cover."""

    result: Any
    rulings: tuple[tuple[str, int | None, tuple[str, ...]], ...]
    irregular: int
    unresolved: int
    sanctions: tuple[tuple[int | None, tuple[tuple[str, Any], ...]], ...] = ()
    """(side, the sanction as sorted (field, value) pairs) for each sanction imposed: the
    summary says each in the referee's words (扣 1 个级差分, not only its kind)."""


class _Lines:
    """An observer that keeps the encoded log lines of everything it is shown."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def on_events(self, engine: Any, events: list[Event]) -> None:
        self.lines.extend(encode_event(event) for event in events)


def unit_players(game: GameAdapter, batch: Batch, index: int,
                 given: Mapping[int, Any] | None = None) -> tuple[list[Any], Any]:
    """Unit ``index``'s agents (wrapped in seeded infraction injectors when the options ask
    for infractions; ``given`` as in ``make_agents``) and who fills its referee's seat (None:
    a strict unit)."""
    if given:
        agents = [given[seat] if seat in given else agent_factory(spec, game)(
                      streams.generator(batch.seed, index, streams.AGENT + seat), seat)
                  for seat, spec in enumerate(batch.agents)]
    else:
        agents = make_agents(game, batch.agents, batch.seed, index)
    if not batch.refereed:
        return agents, None
    from enforcement.setup import inject, infraction_rates, make_referee

    agents = inject(agents, infraction_rates(batch.options), batch.seed, index, game.name)
    return agents, make_referee(game.name)


def play_unit(game: GameAdapter, batch: Batch, rules: Any, index: int, lines: list[str] | None,
              observers: Sequence[Any] = (), max_steps: int = 100_000, given: Mapping[int, Any] | None = None) -> Any:
    """Play unit ``index`` to the end; append its log lines to ``lines`` if given. A
    refereed unit returns a ``RefereedResult``. ``given``: seats whose agents the caller has."""
    engine, started = start_unit(game, batch.unit, batch.seed, index, rules, batch.options)
    agents, referee = unit_players(game, batch, index, given)
    watchers: list[Any] = []
    if lines is not None:
        lines.append(encode_event(started))
        watchers.append(_Lines(lines))
    watchers.extend(observers)
    try:
        result = run(engine, agents, watchers, referee=referee, max_steps=max_steps)
        if referee is None:
            return result
        rulings = tuple((r.clause, r.side, tuple(s["sanction"]["kind"] for s in r.sanctions))
                        for r in referee.rulings_made)
        sanctions = tuple((s["side"], tuple(sorted(s["sanction"].items())))
                          for r in referee.rulings_made for s in r.sanctions)
        return RefereedResult(result, rulings, referee.irregular_attempts, len(referee.unresolved), sanctions)
    except PaijuError as exc:
        raise UnitFailed(f"{batch.unit[:-1]} {index} of seed {batch.seed} failed: "
                         f"{plugin_blame(exc, engine, agents)}{exc}") from None
    except Exception as exc:
        exc.add_note(f"while playing {batch.unit[:-1]} {index} of seed {batch.seed}")
        raise


@functools.lru_cache(maxsize=None)
def adapter(game: str) -> GameAdapter:
    """The game's adapter, built once per process."""
    return adapter_for(game)


def play_chunk(task: ChunkTask) -> ChunkOutput:
    """The worker's whole job: play the chunk's units in order."""
    game = adapter(task.batch.game)
    rules = game.rules_from_dict(task.batch.rules)
    results = []
    blocks = []
    gc.freeze()   # what is loaded (modules, classes, tables) lives on: the chunk's collections skip it
    try:
        for index in range(task.chunk.start, task.chunk.stop):
            lines: list[str] | None = [] if task.log else None
            results.append(play_unit(game, task.batch, rules, index, lines))
            if lines is not None:
                blocks.append(encode_block(lines, compress=task.compress))
    finally:
        gc.unfreeze()   # collectable again, as before the chunk
    return ChunkOutput(task.chunk, tuple(results), b"".join(blocks), f"{host_name()}:{os.getpid()}",
                       peak_rss_kb())


def host_name() -> str:
    """This machine's name as ``socket.gethostname`` gives it: uname's node name (the same call
    underneath), without importing ``socket`` into every run (≈2 ms)."""
    try:
        return os.uname().nodename
    except AttributeError:   # no uname (Windows)
        import socket

        return socket.gethostname()


def peak_rss_kb() -> int:
    """This process's peak resident set size in KiB (0 where the OS does not say)."""
    try:
        import resource
    except ImportError:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak
