"""`paiju simulate`: play independent deals or whole matches and summarise them.

Deal (or match) i always gets the seed-tree node (seed, i, …) — its shuffle, cut and
agent streams never depend on how many deals run or in which order — so a run is
reproducible deal by deal. The run is cut into chunks of consecutive indices
(`paiju.sim.batch`) played here, on ``--jobs N`` local processes or on a Dask cluster
(`paiju.sim.backends`); results are put back in index order before anything is summed or
logged, so the summary and the merged log are the same bytes for any N and on Dask.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import attrs
from rich.console import Console

from tabletop.errors import OptionError
from tabletop.log import make_header

from paiju.agent_specs import parse_agents
from paiju.sim.backends import Backend, completed, open_backend
from paiju.sim.batch import Batch, ChunkOutput, ChunkTask, chunk_size, make_agents, peak_rss_kb, plan_chunks
from paiju.sim.referee_summary import with_referee
from paiju.files import check_writable, write_whole
from tabletop.files import remove_quietly
from paiju.games import adapter_for
from paiju.summary import Summary, counted, print_tables, unit_noun
from paiju.sim.logs import RunLogs
from paiju.progress import Reporter, start_progress
from paiju.stopping import interrupts_deferred

__all__ = ["make_agents", "parse_agents", "parse_rule_overrides", "simulate_command"]


def parse_rule_overrides(items: list[str], defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """'key=value' pairs. With the game's ``defaults`` (its rules' ``to_dict()``) a value is
    read as its option's type: text stays text (``pair_vs_pair=no`` is the word "no"); an
    option that is not text reads none, true/false, integers, comma lists, else text."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise OptionError(f"--rules takes key=value, got {item!r}")
        key, raw = key.strip(), raw.strip()
        default = (defaults or {}).get(key)
        out[key] = raw if isinstance(default, str) else _parse_value(raw)
    return out


def _parse_value(raw: str) -> Any:
    low = raw.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(raw)
    except ValueError:
        pass
    if "," in raw:
        return [_parse_value(part) for part in raw.split(",") if part]
    return raw


def simulate_command(args: argparse.Namespace) -> int:
    game = adapter_for(args.game)
    rules = game.rules_from_dict(parse_rule_overrides(args.rules, game.rules_from_dict({}).to_dict()))
    kinds = parse_agents(args.agents, game)
    unit = "matches" if args.matches else "deals"
    count = args.matches or args.deals or 100
    options: dict[str, Any] = {}
    if args.referee or args.infractions:
        options = {"referee": True, "infractions": args.infractions}
    layout = args.log_layout
    if layout != "merged" and not args.log:
        raise OptionError(f"--log-layout {layout} needs --log FILE")
    check_outputs(args.log, layout, args.summary)
    batch = Batch(game=game.name, unit=unit, count=count, seed=args.seed, rules=rules.to_dict(), agents=kinds,
                  options=options)

    begun = time.perf_counter()
    backend = open_backend(args.cluster, args.jobs, count, game.name)
    try:
        startup = time.perf_counter() - begun
        run = run_batch(batch, backend, log=args.log, layout=layout, quiet=args.quiet, keep_on_interrupt=True,
                        summary=args.summary)
    finally:
        backend.close()
    played = len(run.results)
    # an interrupted run is summarised like a finished one, over the units it played (those its log
    # holds); its summary file is written exactly when its log is: both are replaced, or neither
    with interrupts_deferred():
        if played:
            if batch.refereed:
                summary = with_referee(game.summarize(unit, [r.result for r in run.results], kinds), game.name, unit,
                                       run.results)
            else:
                summary = game.summarize(unit, run.results, kinds)
            if args.summary:
                write_summary(args.summary, summary_document(batch, summary, run, backend, startup))
            print_summary(summary, played, unit, run.seconds, backend.description,
                          of=count if run.interrupted else None)
        else:
            print(f"no {unit_noun(unit)} finished: nothing to summarise", file=sys.stderr)
    if run.interrupted is not None:
        raise run.interrupted
    return 0


@attrs.frozen
class BatchRun:
    """Results in unit order, and how the run went (timing only, never in results)."""

    results: tuple[Any, ...]
    seconds: float
    chunk_size: int
    chunks: int
    peak_rss_kb: dict[str, int]
    """Per worker (``host:pid``): the highest peak it reported."""
    interrupted: KeyboardInterrupt | None = None
    """What stopped the run before its last unit (Ctrl-C, SIGTERM, SIGHUP), if anything did."""


def run_batch(batch: Batch, backend: Backend, *, log: str | None = None, layout: str = "merged",
              quiet: bool = True, keep_on_interrupt: bool = False, summary: str | None = None) -> BatchRun:
    """Play the batch; with ``keep_on_interrupt``, an interrupt ends the run with the units
    put in order so far (``BatchRun.interrupted`` says what stopped it) instead of raising.
    ``summary``: the summary file of the log, removed when the log is replaced (it told of
    the old log; the caller writes the new one), so the two never disagree."""
    size = chunk_size(batch.unit, batch.count, backend.workers)
    chunks = plan_chunks(batch.count, size)
    results: list[Any] = []
    waiting: dict[int, ChunkOutput] = {}   # finished chunks that earlier chunks still hold up
    next_chunk = 0
    peaks: dict[str, int] = {}
    start = time.perf_counter()
    logs: RunLogs | None = None
    progress: Reporter | None = None
    interrupted: KeyboardInterrupt | None = None
    # everything from the log's creation on is inside the try: an interrupt at any point
    # (even right after the progress line) puts the log in place or discards it
    try:
        if log:
            logs = RunLogs(log, layout, make_header(batch.game, batch.seed, batch.rules, batch.header_options()),
                           chunks, backend.workers)
        tasks = (ChunkTask(batch, chunk, log=logs is not None, compress=logs is not None and logs.compressed)
                 for chunk in chunks)
        progress = start_progress(batch.unit, batch.count, quiet=quiet)
        for output in completed(backend, tasks):
            progress.advance(len(output.chunk))
            peaks[output.worker] = max(peaks.get(output.worker, 0), output.peak_rss_kb)
            waiting[output.chunk.number] = output
            while next_chunk in waiting:
                ready = waiting.pop(next_chunk)
                next_chunk += 1
                if logs is not None:
                    logs.write(ready)
                results.extend(ready.results)
    except KeyboardInterrupt as exc:
        if not keep_on_interrupt:
            raise
        interrupted = exc
    finally:
        if progress is not None:
            progress.close()
        if logs is not None and logs.close() and summary:
            remove_quietly(summary)
    return BatchRun(tuple(results), time.perf_counter() - start, size, len(chunks), peaks, interrupted)


# ---------------------------------------------------------------------------------------------
# Output files

def check_outputs(log: str | None, layout: str, summary: str | None) -> None:
    """Refuse unwritable targets before any work starts (one-line errors)."""
    if log:
        check_writable(log, "--log", error=OptionError)
    if summary:
        check_writable(summary, "--summary", error=OptionError)


def summary_document(batch: Batch, summary: Summary, run: BatchRun, backend: Backend, startup: float) -> dict[str, Any]:
    """The ``--summary`` JSON: what was run, ``results`` (the same for any --jobs or
    cluster), then ``timing`` (everything that is not a result)."""
    peaks_mb = sorted((kb / 1024 for kb in run.peak_rss_kb.values()), reverse=True)
    return {
        "game": batch.game,
        "unit": batch.unit,
        "count": len(run.results),
        **({"interrupted": True, "planned": batch.count} if run.interrupted else {}),
        "seed": batch.seed,
        "agents": list(batch.agents),
        "rules": batch.rules,
        "results": summary.data,
        "timing": {
            "seconds": round(run.seconds, 3),
            "per_second": round(len(run.results) / run.seconds, 3) if run.seconds > 0 else None,
            "startup_seconds": round(startup, 3),
            "backend": backend.name,
            "workers": backend.workers,
            "chunk_size": run.chunk_size,
            "chunks": run.chunks,
            "peak_rss_mb": {"max": round(peaks_mb[0], 1) if peaks_mb else None,
                            "per_worker": [round(mb, 1) for mb in peaks_mb],
                            "main": round(peak_rss_kb() / 1024, 1)},
        },
    }


def write_summary(path: str, document: dict[str, Any]) -> None:
    """Write the summary whole (``paiju.files.write_whole``): never a half-written summary."""
    write_whole(path, json.dumps(document, ensure_ascii=False, indent=2) + "\n", what="summary", error=OptionError)


def print_summary(summary: Summary, count: int, unit: str, elapsed: float, where: str = "",
                  of: int | None = None) -> None:
    """The summary's tables (``paiju.summary.print_tables``: the same rows as the JSON
    results), then the run's count and speed; ``of``: the count planned, for a run stopped early."""
    console = Console(highlight=False)
    print_tables(summary, console)
    rate = count / elapsed if elapsed > 0 else float("inf")
    stopped = f" of {of}, interrupted" if of is not None else ""
    console.print(f"{counted(count, unit_noun(unit))}{stopped} in {elapsed:.2f} s "
                  f"({rate:.1f} {unit}/s{', ' + where if where else ''})")
