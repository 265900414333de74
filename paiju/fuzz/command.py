"""`paiju fuzz`: rule-interaction fuzzing of an engine and its referee.

    paiju fuzz --game G [--deals N | --matches N] [--seed S] [--time-budget SECONDS]
               [--out DIR] [--replay-sample RATE] [--keep-going] [--quiet]
               [--guided] [--campaign DIR] [--jobs N | --cluster ADDRESS]
               [--holes OUT.md] [--report OUT.html] [--matrix OUT.json]
    paiju fuzz --repro LOG

Case ``i`` (a deal, or a match with ``--matches``) is played by random and heuristic agents
wrapped in infraction injectors with a randomly drawn mix of kinds and rates
(``paiju.fuzz.case``); ``enforcement.invariants`` checks the table after every event batch,
before every decision and at the end. A sample of the logs is re-checked with
``replay --check``. A violation (an exception counts as one) is shrunk, its log written to
``--out`` (default ./fuzz-failures) and the one command that reproduces it printed; the exit
status is then 1. At the end: clause coverage — how often each clause of the game's
rulebook (every clause `paiju rules GAME` lists) fired, and which never did, with why: the
rulebook's reason for a clause that cannot fire automatically, or "not in this run"; and the
interaction coverage (``interactions``). Progress shows on stderr as for ``simulate`` (``paiju.progress``). Any of the options of the
second line runs the cases in generations instead (``run``, ``campaign``, ``guided``,
``holes``, ``report``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

import attrs
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from enforcement.games import referee_part
from enforcement.invariants import INVARIANTS
from enforcement.rulebook import clauses_for
from tabletop.errors import OptionError

from paiju.stopping import exit_status
from paiju.agent_specs import parse_agents
from paiju.fuzz.parser import DEFAULT_CASES, DEFAULT_OUT, add_parser
from paiju.files import check_writable, write_lines
from paiju.fuzz.interactions import Matrix, Recorder
from paiju.fuzz.run import SEARCH_OPTIONS, Plain, search_command, uses_search
from paiju.progress import start_progress
from paiju.summary import counted, unit_noun
from paiju.fuzz.case import Case, Finding, Outcome, draw_case, irregularities, replay_finding, run_case, \
    sampled_for_replay, shrink

SHRINK_SECONDS = 120.0
EXIT_INTERRUPTED = 130
"""Like any command stopped by SIGINT (128 + 2)."""

# how a clause fired: cited, escalated to, added to another clause's ruling (双升 SJ-3.1.3 on top
# with SJ-3.1.10.4), the fallback, through what a ruling imposed or a table event
_WAYS = ("ruling", "escalation", "addition", "fallback", "effect", "designation")
NOT_IN_RUN = "not in this run"
"""Why a clause that can fire automatically did not (a longer run may fire it)."""



# ---------------------------------------------------------------------------------------------
# Clause coverage


class Coverage:
    """How often each clause of a game's rulebook fired in the events seen: every clause
    `paiju rules GAME` lists, a clause with sub-clauses (a section heading too) counting
    theirs."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.clauses = clauses_for(game)
        self.by_id = {c.id: c for c in self.clauses}
        self.ids = set(self.by_id)
        listed = referee_part(game).interactions   # the game's clauses that fire without being cited
        self.by_sanction = listed.clauses_by_sanction if listed is not None else {}
        self.by_event = listed.clauses_by_event if listed is not None else {}
        self.counts: Counter[tuple[str, str]] = Counter()
        """(clause, how): how is one of ``_WAYS``."""

    def add(self, events: Iterable[Any]) -> None:
        for e in events:
            kind = e.KIND
            if kind == "ref.ruling":
                self.counts[(e.clause, "ruling")] += 1
                for row in e.sanctions:
                    if row["clause"] != e.clause:      # an escalation names its cause
                        self.counts[(row["clause"], "escalation" if row.get("cause") else "addition")] += 1
                    clause = self.by_sanction.get(row["sanction"]["kind"])
                    if clause in self.ids:
                        self.counts[(clause, "effect")] += 1
            elif kind == "ref.unresolved":
                self.counts[(e.fallback, "fallback")] += 1
            elif kind in self.by_event:
                clause, way = self.by_event[kind]
                if clause in self.ids:
                    self.counts[(clause, way)] += 1

    def _children(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for c in self.clauses:
            if c.parent is not None:
                out.setdefault(c.parent, []).append(c.id)
        return out

    def rows(self) -> list[tuple[str, int, str]]:
        """(clause id, times fired, how) for every clause, in rulebook order; a clause with
        sub-clauses also counts theirs. How, for a clause that never fired: why not."""
        own: Counter[str] = Counter()
        how: dict[str, Counter[str]] = {}
        for (clause, way), n in self.counts.items():
            own[clause] += n
            how.setdefault(clause, Counter())[way] += n
        children = self._children()

        def total(clause: str) -> int:
            return own[clause] + sum(total(child) for child in children.get(clause, ()))

        reasons = dict(self.never())
        out = []
        for c in self.clauses:
            ways = how.get(c.id, Counter())
            parts = [f"{ways[w]} {w}{'s' if ways[w] > 1 else ''}" for w in _WAYS if ways[w]]
            sub = total(c.id) - own[c.id]
            if sub:
                parts.append(f"{sub} by sub-clauses")
            out.append((c.id, total(c.id), ", ".join(parts) or reasons.get(c.id, "")))
        return out

    def never(self) -> list[tuple[str, str]]:
        """(clause id, why it did not fire) for every clause that never fired, in rulebook
        order: the rulebook's reason when it cannot fire automatically (``not_automatic``;
        a heading: when none of its sub-clauses can), else ``NOT_IN_RUN``."""
        children = self._children()
        fired: set[str] = {clause for (clause, _), n in self.counts.items() if n}

        def any_fired(cid: str) -> bool:
            return cid in fired or any(any_fired(child) for child in children.get(cid, ()))

        def why_not(cid: str) -> str | None:
            """The reason no machine-played deal fires ``cid``, or None if one can."""
            c = self.by_id[cid]
            if c.not_automatic is not None:
                return c.not_automatic
            below = children.get(cid, ())
            if c.heading and below and all(why_not(child) is not None for child in below):
                return "none of its sub-clauses can"
            return None

        out = []
        for c in self.clauses:
            if any_fired(c.id):
                continue
            reason = why_not(c.id)
            out.append((c.id, NOT_IN_RUN if reason is None else f"cannot fire automatically: {reason}"))
        return out


# ---------------------------------------------------------------------------------------------
# The command


@attrs.define
class _Run:
    game: str
    unit: str
    cases: int = 0
    deals: int = 0
    decisions: int = 0
    irregular: Counter = attrs.field(factory=Counter)
    replayed: int = 0
    findings: list = attrs.field(factory=list)
    repeats: int = 0
    stopped_by_budget: bool = False
    interrupted: bool = False
    """Stopped by Ctrl-C (SIGINT)."""


def fuzz_command(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Progress goes to stderr (``paiju.progress``, as for every long command)."""
    stdout = stdout if stdout is not None else sys.stdout
    if args.out is None:   # the default is checked only where it is written (not with --repro or --campaign)
        args.out = DEFAULT_OUT
    if args.repro:
        given = [f"--{n.replace('_', '-')}" for n in ("game", "deals", "matches", "time_budget", "agents", *SEARCH_OPTIONS)
                 if getattr(args, n, None)]
        if given:
            raise OptionError(f"--repro re-runs the case its log holds: leave out {' '.join(given)}")
        return repro_command(args.repro, stdout)
    if args.game is None:
        raise OptionError("--game is required (guandan or shengji), or --repro LOG")
    if uses_search(args):
        return search_command(args, Plain(Coverage, _Run, _summary, _check, _write, _unit_text, _check_out_dir,
                                          DEFAULT_CASES, SHRINK_SECONDS), stdout)
    _check_out_dir(args.out)
    agents = parse_agents(args.agents, args.game) if args.agents else None
    unit = "matches" if args.matches else "deals"
    total = args.matches or args.deals or DEFAULT_CASES
    run = _Run(args.game, unit)
    coverage = Coverage(args.game)
    interactions = Matrix(args.game)
    started = time.monotonic()
    deadline = None if args.time_budget is None else started + args.time_budget
    progress = start_progress(unit, total, quiet=args.quiet, description=f"fuzz {args.game}")
    seen: set[str] = set()
    try:
        for index in range(total):
            if deadline is not None and time.monotonic() >= deadline:
                run.stopped_by_budget = True
                break
            case = draw_case(args.game, unit, args.seed, index)
            if agents is not None:
                case = attrs.evolve(case, agents=agents)
            replay = sampled_for_replay(case, args.replay_sample)
            recorder = Recorder(args.game)
            outcome = _check(case, replay, [recorder])
            interactions.add(recorder.pairs)
            run.cases += 1
            run.deals += outcome.deals
            run.decisions += outcome.decisions
            run.irregular.update(irregularities(outcome.events))
            run.replayed += replay
            coverage.add(outcome.events)
            if outcome.finding is not None:
                if outcome.finding.signature in seen:
                    run.repeats += 1
                else:
                    seen.add(outcome.finding.signature)
                    run.findings.append(outcome.finding)
                    _report(outcome, replay, args, stdout, started)
                if not args.keep_going:
                    break
            progress.advance(1, note=_violations(run))
    except KeyboardInterrupt as exc:   # Ctrl-C, SIGTERM, SIGHUP: the cases finished so far are the run
        run.interrupted = True
        stopped = exit_status(exc)
    progress.close()
    _summary(run, coverage, time.monotonic() - started, args, stdout)
    print(interactions.summary(), file=stdout)
    if run.interrupted:
        print("paiju: interrupted: the coverage above is of the cases finished before Ctrl-C", file=sys.stderr)
        return stopped
    return 1 if run.findings else 0


def _violations(run: _Run) -> str:
    found = len(run.findings)
    return f"{found} violation{'s' if found != 1 else ''}"


def _check(case: Case, replay: bool, observers: Sequence[Any] = ()) -> Outcome:
    outcome = run_case(case, observers)
    if outcome.finding is None and replay:
        finding = replay_finding(outcome)
        if finding is not None:
            outcome = attrs.evolve(outcome, finding=finding)
    return outcome


def _check_out_dir(path: str) -> None:
    check_writable(path, "--out", directory=True)


def _report(outcome: Outcome, replay: bool, args: argparse.Namespace, out: TextIO, started: float) -> None:
    finding = outcome.finding
    assert finding is not None  # only a case that failed is reported
    case = outcome.case
    print(f"VIOLATION in case {case.index} (seed {case.seed}, {_unit_text(case)}): {finding.message}", file=out)
    budget = SHRINK_SECONDS if args.time_budget is None else max(10.0, args.time_budget / 4)
    rerun = (lambda c: _check(c, True)) if finding.invariant == "replay_exact" else run_case
    try:
        shrunk = shrink(outcome, deadline=time.monotonic() + budget, rerun=rerun)
    except KeyboardInterrupt:   # keep the case as found, then stop
        path = _write(outcome, args.out)
        print(f"  interrupted while shrinking; the case as found: {path}", file=out)
        print(f"  reproduce: paiju fuzz --repro {path}", file=out)
        raise
    small = shrunk.outcome
    path = _write(small, args.out)
    kinds = ", ".join(f"{k} {r}" for k, r in small.case.rates) or "none"
    print(f"  shrunk in {shrunk.runs} runs: {_shrink_text(case, small.case, outcome, small)}", file=out)
    print(f"  case: agents {','.join(small.case.agents)}; infractions {kinds}; "
          f"{small.committed} irregular attempts, {counted(small.deals, 'deal')}, {counted(len(small.events), 'event')}", file=out)
    if small.finding is not None and small.finding.message != finding.message:
        print(f"  now: {small.finding.message}", file=out)
    if small.finding is not None and small.finding.detail:
        print("  " + small.finding.detail.rstrip().replace("\n", "\n  "), file=out)
    print(f"  log: {path}", file=out)
    print(f"  reproduce: paiju fuzz --repro {path}", file=out)


def _unit_text(case: Case) -> str:
    if case.unit == "deals":
        return "one deal"
    return f"a match of at most {counted(case.max_deals, 'deal')}" if case.max_deals is not None else "a match"


def _shrink_text(before: Case, after: Case, first: Outcome, last: Outcome) -> str:
    """What shrinking changed, in a line."""
    was = dict(before.rates)
    now = dict(after.rates)
    parts = []
    if first.deals != last.deals:
        parts.append(f"deals {first.deals} → {last.deals}")
    dropped = [k for k in was if k not in now]
    if dropped:
        parts.append(f"kinds dropped: {', '.join(dropped)}")
    lowered = [k for k in now if now[k] < was[k]]
    if lowered:
        parts.append(f"rates lowered: {', '.join(lowered)}")
    if first.committed != last.committed:
        parts.append(f"irregularities {first.committed} → {last.committed}")
    if len(first.events) != len(last.events):
        parts.append(f"events {len(first.events)} → {len(last.events)}")
    return "; ".join(parts) or "nothing smaller fails the same way"


def _write(outcome: Outcome, directory: str) -> str:
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise OptionError(f"--out {directory!r}: cannot create it: {exc.strerror or exc}") from None
    case = outcome.case
    finding = outcome.finding
    assert finding is not None  # only a case that failed is written
    name = f"{case.game}-s{case.seed}-case{case.index}-{finding.invariant}.jsonl"
    path = os.path.join(directory, name)
    header = case.header()
    header["options"]["fuzz"]["finding"] = finding.message
    from tabletop.log import encode

    write_lines(path, [encode(header), *outcome.lines], what="failure log", error=OptionError)
    return path


def _summary(run: _Run, coverage: Coverage, seconds: float, args: argparse.Namespace, out: TextIO) -> None:
    console = Console(file=out, highlight=False, width=max(100, Console(file=out).width))
    what = f"{counted(run.cases, 'case')} of {counted(args.matches or args.deals or DEFAULT_CASES, unit_noun(run.unit))}" \
        f" ({counted(run.deals, 'deal')} played)"
    status = "budget reached, " if run.stopped_by_budget else "interrupted, " if run.interrupted else ""
    console.print(f"paiju fuzz {run.game}: {what} from seed {args.seed} in {seconds:.1f} s ({status}"
                  f"{counted(run.decisions, 'decision')}, {sum(run.irregular.values())} irregular attempts, "
                  f"{counted(run.replayed, 'log')} replayed)")
    if run.findings:
        more = f" (+{run.repeats} more cases breaking the same)" if run.repeats else ""
        console.print(f"violations: {', '.join(f.invariant for f in run.findings)}{more}")
    else:
        console.print(f"violations: none ({len(INVARIANTS)} invariants checked)")
    table = Table(title=f"clause coverage ({run.game})", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("clause", style="cyan", no_wrap=True)
    table.add_column("fired", justify="right")
    table.add_column("how")
    rows = coverage.rows()
    for clause, n, how in rows:
        table.add_row(clause, str(n), escape(how))
    console.print(table)
    never = coverage.never()
    manual = sum(1 for _, why in never if why != NOT_IN_RUN)
    note = f" ({manual} cannot fire automatically)" if manual else ""
    console.print(f"clauses fired: {len(rows) - len(never)} of {len(rows)}{note}")
    if not never:
        console.print("never fired: none")
        return
    console.print(f"never fired: {counted(len(never), 'clause')}")
    unlucky = [clause for clause, why in never if why == NOT_IN_RUN]
    if unlucky:
        console.print(f"  {NOT_IN_RUN} (each can fire: more --{run.unit} may reach it): {', '.join(unlucky)}")
    for clause, why in never:
        if why != NOT_IN_RUN:
            console.print(f"  {clause}: {why}", markup=False)

# ---------------------------------------------------------------------------------------------
# --repro


def repro_command(path: str, out: TextIO) -> int:
    """Re-run the case a fuzz log holds (its header says everything) with the invariants
    checked; exit 1 when one breaks."""
    from paiju.replay.check import load_log

    log, _game = load_log(path, allow_truncated=True)
    case = Case.from_header(log.header)
    outcome = _check(case, replay=True)
    kinds = ", ".join(f"{k} {r}" for k, r in case.rates) or "none"
    print(f"{case.game} case {case.index} of seed {case.seed} ({_unit_text(case)}): agents {','.join(case.agents)}; "
          f"infractions {kinds}"
          + ("" if case.max_irregularities is None else f"; at most {case.max_irregularities} irregularities"),
          file=out)
    same = outcome.lines == list(log.lines)
    print(f"re-run: {counted(len(outcome.events), 'event')}, "
          + ("the same as the log" if same else "NOT the same as the log (the code changed since it was written?)"),
          file=out)
    if outcome.finding is None:
        print("no invariant broken", file=out)
        return 0
    print(f"VIOLATION: {outcome.finding.message}", file=out)
    if outcome.finding.detail:
        print(outcome.finding.detail.rstrip(), file=out)
    return 1


__all__ = ["NOT_IN_RUN", "Coverage", "Finding", "add_parser", "fuzz_command", "repro_command"]
