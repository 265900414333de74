"""`paiju fuzz` in generations (``campaign``): taken when any of --guided, --campaign,
--jobs, --cluster, --holes, --report or --matrix is given. Prints what the plain run prints
(violations, clause coverage) and the interaction coverage, the corpus and the holes; writes
the matrix, the holes report and the coverage report asked for."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import attrs

from tabletop.errors import OptionError

from paiju.stopping import exit_status
from paiju.progress import start_progress
from paiju.fuzz.campaign import CaseResult, Pool, Search, open_campaign, run_search, save_campaign
from paiju.fuzz.case import Finding, run_case, shrink
from paiju.fuzz.guided import case_to_dict
from paiju.summary import counted

SEARCH_OPTIONS = ("guided", "campaign", "jobs", "cluster", "holes", "report", "matrix")


@attrs.frozen
class Plain:
    """What the plain command (``paiju.fuzz.command``, which imports this module) lends the
    run in generations, so that both print and write alike."""

    coverage: Any
    """The clause-coverage class."""
    record: Any
    """The run record ``summary`` prints."""
    summary: Callable[..., None]
    check: Callable[..., Any]
    """(case, replay) → the outcome, replayed with ``replay --check`` when asked."""
    write: Callable[[Any, str], str]
    unit_text: Callable[[Any], str]
    check_out_dir: Callable[[str], None]
    default_cases: int
    shrink_seconds: float


def uses_search(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) for name in SEARCH_OPTIONS)


def search_command(args: argparse.Namespace, plain: Plain, stdout: TextIO | None = None,
                   stderr: TextIO | None = None) -> int:
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    unit = "matches" if args.matches else "deals"
    asked = args.matches or args.deals
    for option in ("holes", "report", "matrix"):
        path = getattr(args, option)
        if path is not None:
            _check_file(option, path, args.campaign)
    if args.campaign:
        search, resumed = open_campaign(args.campaign, args.game, unit, args.seed, asked, args.guided, plain.default_cases,
                                        plain.coverage)
        out_dir = os.path.join(args.campaign, "findings")
        if resumed:
            print(f"resuming the campaign in {args.campaign}: {search.cases} of {counted(search.total, 'case')} done", file=stderr)
    else:
        search = Search(args.game, unit, args.seed, asked or plain.default_cases, args.guided, plain.coverage)
        plain.check_out_dir(args.out)
        out_dir = args.out
    started = time.monotonic()
    deadline = None if args.time_budget is None else started + args.time_budget
    pool = Pool(args.game, args.jobs, args.cluster)
    progress = start_progress("cases", search.total, quiet=args.quiet, description=f"fuzz {args.game}")
    shown = [0]
    if search.cases:
        progress.advance(search.cases)
        shown[0] = search.cases

    def on_finding(result: CaseResult) -> dict[str, Any]:
        return _finding(result, out_dir, args, plain, stdout)

    def after_generation(s: Search) -> None:
        if args.campaign:
            save_campaign(args.campaign, s)
        found = len(s.findings)
        progress.advance(s.cases - shown[0], note=f"{s.matrix.covered} pairs"
                         + (f", corpus {len(s.corpus)}" if s.guided else "")
                         + f", {found} violation{'s' if found != 1 else ''}")
        shown[0] = s.cases

    status = "done"
    try:
        status = run_search(search, pool, replay_rate=args.replay_sample, deadline=deadline, on_finding=on_finding,
                            keep_going=args.keep_going or bool(args.campaign), after_generation=after_generation)
    except KeyboardInterrupt as exc:
        status = "interrupted"
        stopped = exit_status(exc)
    finally:
        pool.close()
        progress.close()
    if args.campaign and search.generation == 0 and status != "interrupted":
        save_campaign(args.campaign, search)
    _print(search, status, time.monotonic() - started, args, pool.description, plain, stdout)
    _write_outputs(search, args, out_dir, stdout)
    if status == "interrupted":
        again = f" (resume: the same command with --campaign {args.campaign})" if args.campaign else ""
        print(f"interrupted after {search.cases} of {counted(search.total, 'case')}{again}", file=stderr)
        return stopped
    return 1 if search.findings else 0


def _check_file(option: str, path: str, campaign: str | None) -> None:
    """A file to write: not a directory, in one that exists (or is the campaign's)."""
    if os.path.isdir(path):
        raise OptionError(f"--{option} {path!r} is a directory")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent) and (campaign is None or parent != os.path.abspath(campaign)):
        raise OptionError(f"--{option} {path!r}: no directory {parent!r}")


def _finding(result: CaseResult, out_dir: str, args: argparse.Namespace, plain: Plain, out: TextIO) -> dict[str, Any]:
    """Re-play the failing case here, shrink it, write its log; what the run keeps of it."""
    finding = result.finding
    assert finding is not None   # called for the cases that found a violation
    case = result.case
    print(f"VIOLATION in case {case.index} (seed {case.seed}, {plain.unit_text(case)}): {finding.message}", file=out)
    replay = finding.invariant == "replay_exact"
    rerun = (lambda c: plain.check(c, True)) if replay else run_case
    outcome = rerun(case)
    if outcome.finding is None or outcome.finding.signature != finding.signature:
        print("  not reproduced when played again here (a worker-only failure?)", file=out)
        return {"signature": finding.signature, "message": finding.message, "case": case_to_dict(case),
                "log": None, "command": None}
    budget = plain.shrink_seconds if args.time_budget is None else max(10.0, args.time_budget / 4)
    small = shrink(outcome, deadline=time.monotonic() + budget, rerun=rerun).outcome
    path = plain.write(small, out_dir)
    print(f"  log: {path}", file=out)
    print(f"  reproduce: paiju fuzz --repro {path}", file=out)
    return {"signature": finding.signature, "message": finding.message, "case": case_to_dict(small.case), "log": path,
            "command": f"paiju fuzz --repro {path}"}


def _print(search: Search, status: str, seconds: float, args: argparse.Namespace, where: str, plain: Plain,
           out: TextIO) -> None:
    run = plain.record(search.game, search.unit, cases=search.cases, deals=search.deals, decisions=search.decisions,
                     irregular=search.irregular, replayed=search.replayed,
                     findings=[Finding(f["signature"], f["message"]) for f in search.findings], repeats=search.repeats,
                     stopped_by_budget=status == "budget")
    plain.summary(run, search.clauses, seconds, args, out)
    matrix = search.matrix
    print(matrix.summary(), file=out)
    reasons: dict[str, int] = {}
    for _, _, why in matrix.never():
        head = why.split(":")[0]
        reasons[head] = reasons.get(head, 0) + 1
    if reasons:
        print("pairs never seen: " + ", ".join(f"{n} {k}" for k, n in sorted(reasons.items())), file=out)
    if search.guided:
        print(f"guided: corpus of {counted(len(search.corpus), 'case')} that reached new pairs", file=out)
    holes = search.holes.ordered()
    print(f"rulebook holes: {counted(len(holes), 'unresolved situation')}, {counted(sum(c.count for c in holes), 'time')}", file=out)
    print(f"played {where}: {search.cases / search.seconds if search.seconds else 0:.1f} cases/s, "
          f"{search.deals / search.seconds if search.seconds else 0:.1f} deals/s", file=out)


def _write_outputs(search: Search, args: argparse.Namespace, out_dir: str, out: TextIO) -> None:
    from paiju.fuzz.holes import holes_seconds, report_rows, write_report
    from paiju.fuzz.report import write_report as write_coverage

    if args.matrix:
        search.matrix.write(args.matrix)
        print(f"matrix: {args.matrix}", file=out)
    rows: list[dict[str, Any]] = []
    if args.holes or args.report:
        logs = os.path.join(args.campaign, "holes") if args.campaign else os.path.join(out_dir, "holes")
        clusters = len(search.holes.clusters)
        progress = start_progress("steps", 2 * clusters, quiet=args.quiet or not clusters,
                                  description="holes: replay and shrink each situation")
        try:
            rows = report_rows(search.holes, logs=logs, seconds=holes_seconds(search.seconds), progress=progress)
        finally:
            progress.close()
    if args.holes:
        write_report(search.game, rows, args.holes)
        print(f"holes: {args.holes} ({counted(len(rows), 'situation')})", file=out)
    if args.report:
        write_coverage(search, rows, args.report)
        print(f"report: {args.report}", file=out)


__all__ = ["SEARCH_OPTIONS", "Plain", "search_command", "uses_search"]
