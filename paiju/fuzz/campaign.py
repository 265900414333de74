"""Fuzzing in generations, on one process, local processes or a Dask cluster, optionally as a
campaign kept in a directory (`paiju fuzz --campaign DIR`).

``evaluate`` plays one case (``case.run_case``) with the interaction recorder and the clause
coverage, and returns what the run keeps (``CaseResult``: small, picklable). ``Search`` is
the whole state of a run: the interaction matrix, the clause counts, the corpus (guided),
the holes, the findings, the counters. It advances one generation at a time
(``guided.generation``): the generation's cases are decided before any is played and their
results are taken in case order, so what a run reaches does not depend on ``--jobs`` or
``--cluster``.

A campaign directory holds ``state.json`` (everything to resume, rewritten whole after
each generation), and, for people, ``coverage.json`` (the matrix), ``corpus.json``,
``holes.json`` and ``findings/`` (the shrunk logs). Interrupted (SIGINT), a run keeps the
last finished generation (a generation is taken and saved whole, Ctrl-C held back for that
moment); the same command resumes from there and ends where an uninterrupted run would."""

from __future__ import annotations

import functools
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from tabletop.errors import OptionError

from paiju.fuzz.case import Case, Finding, irregularities, replay_finding, run_case, sampled_for_replay
from paiju.fuzz.guided import BATCH, Entry, aims_for, case_from_dict, case_to_dict, generation
from paiju.fuzz.holes import Holes
from paiju.fuzz.interactions import Matrix, Recorder, Unresolved
from paiju.stopping import interrupts_deferred

STATE = "state.json"
FORMAT = 1


@attrs.frozen
class CaseResult:
    """What a run keeps of one case."""

    case: Case
    pairs: frozenset
    clauses: tuple[tuple[tuple[str, str], int], ...]
    unresolved: tuple[Unresolved, ...]
    finding: Finding | None
    deals: int
    decisions: int
    irregular: tuple[tuple[str, int], ...]
    replayed: bool


def evaluate(case: Case, replay_rate: float = 0.0, coverage: Any = None) -> CaseResult:
    """Play ``case`` (in a worker): its interaction pairs, clause counts (``coverage``: the
    clause-coverage class of `paiju fuzz`, which lends it: it imports this module), unresolved
    situations and finding."""
    recorder = Recorder(case.game)
    outcome = run_case(case, [recorder])
    replay = outcome.finding is None and sampled_for_replay(case, replay_rate)
    finding = outcome.finding
    if replay:
        finding = replay_finding(outcome)
    clauses = ()
    if coverage is not None:
        counted = coverage(case.game)
        counted.add(outcome.events)
        clauses = tuple(sorted(counted.counts.items()))
    return CaseResult(case, frozenset(recorder.pairs), clauses, tuple(recorder.unresolved),
                      finding, outcome.deals, outcome.decisions, tuple(sorted(irregularities(outcome.events).items())),
                      replay)


# ---------------------------------------------------------------------------------------------
# Where the cases are played


class Pool:
    """Plays a generation's cases in order: here, on ``jobs`` local processes, or on a Dask
    cluster (``cluster``: an address or 'local'), as `paiju simulate` does."""

    def __init__(self, game: str, jobs: int | None, cluster: str | None) -> None:
        self.jobs = jobs or 1
        self._executor: Any = None
        self._client: Any = None
        self._cluster: Any = None
        if cluster is not None:
            from paiju.sim.backends import NO_DASHBOARD, import_distributed

            distributed = import_distributed()
            if cluster == "local":
                self._cluster = distributed.LocalCluster(n_workers=jobs or 2, threads_per_worker=1, processes=True,
                                                         **NO_DASHBOARD)
                self._client = distributed.Client(self._cluster)
                self.description = "on a Dask LocalCluster"
            else:
                try:
                    self._client = distributed.Client(cluster, timeout=10)
                except Exception as exc:
                    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                    raise OptionError(f"--cluster: cannot reach a Dask scheduler at {cluster!r}: {message}") from None
                self.description = f"on the Dask scheduler at {cluster}"
        elif self.jobs > 1:
            from concurrent import futures

            from paiju.sim.backends import _context, _start_worker

            self._executor = futures.ProcessPoolExecutor(self.jobs, mp_context=_context(), initializer=_start_worker,
                                                         initargs=(game,))
            self.description = f"on {self.jobs} local processes"
        else:
            self.description = "in one process"

    def map(self, fn: Callable[[Case], CaseResult], cases: Sequence[Case]) -> list[CaseResult]:
        if self._client is not None:
            return self._client.gather(self._client.map(fn, list(cases), pure=False))
        if self._executor is not None:
            return list(self._executor.map(fn, cases, chunksize=max(1, len(cases) // (self.jobs * 4))))
        return [fn(case) for case in cases]

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()


# ---------------------------------------------------------------------------------------------
# The state of a run


class Search:
    """Everything a run (or a campaign) has reached so far."""

    def __init__(self, game: str, unit: str, seed: int, total: int, guided: bool, coverage: Any) -> None:
        """``coverage``: the clause-coverage class (``paiju.fuzz.command.Coverage``)."""
        self.coverage = coverage
        self.game, self.unit, self.seed, self.total, self.guided = game, unit, seed, total, guided
        self.generation = 0
        self.cases = self.deals = self.decisions = self.replayed = 0
        self.irregular: Counter[str] = Counter()
        self.matrix = Matrix(game)
        self.clauses = coverage(game)
        self.corpus: list[Entry] = []
        self.holes = Holes(game)
        self.findings: list[dict[str, Any]] = []
        self.signatures: set[str] = set()
        self.repeats = 0
        self.curve: list[tuple[int, int]] = []
        """(cases played, pairs covered) after each generation."""
        self.seconds = 0.0
        self.batch = BATCH
        """Cases per generation (``guided.BATCH``; a benchmark may vary it)."""

    def next_cases(self) -> list[Case]:
        """The next generation's cases (the search is left as it is)."""
        return self.next_generation()[0]

    def next_generation(self) -> tuple[list[Case], list[Entry]]:
        """The next generation's cases, and the corpus with the picks that chose them counted:
        on a copy, taken with the generation's results (``take``), so that a run interrupted
        while the cases are played is left as it was."""
        size = min(self.batch, self.total - self.generation * self.batch)
        aims = aims_for(self.game, self.matrix.unseen()) if self.guided and self.corpus else None
        corpus = [attrs.evolve(e) for e in self.corpus]
        cases = generation(self.game, self.unit, self.seed, self.generation, size,
                           corpus if self.guided else None, self.matrix.counts, aims, self.batch)
        return cases, corpus

    def new_findings(self, results: Sequence[CaseResult]) -> list[CaseResult]:
        """The results that break an invariant not broken before (the first of each), in order."""
        seen = set(self.signatures)
        out = []
        for result in results:
            if result.finding is not None and result.finding.signature not in seen:
                seen.add(result.finding.signature)
                out.append(result)
        return out

    def take(self, corpus: list[Entry], results: Sequence[CaseResult], kept: Sequence[dict[str, Any]],
             seconds: float) -> bool:
        """Take a whole generation: its corpus (``next_generation``), its results in case order,
        what the run keeps of its new findings (``kept``, one per ``new_findings``); True when
        it found any."""
        self.corpus = corpus
        found = iter(kept)
        new = False
        for result in results:
            if self.absorb(result):
                self.findings.append(next(found))
                new = True
        self.generation += 1
        self.curve.append((self.cases, self.matrix.covered))
        self.seconds += seconds
        return new

    def absorb(self, result: CaseResult) -> bool:
        """Count one case; True when it broke an invariant not broken before."""
        self.cases += 1
        self.deals += result.deals
        self.decisions += result.decisions
        self.replayed += result.replayed
        self.irregular.update(dict(result.irregular))
        for key, n in result.clauses:
            self.clauses.counts[key] += n
        new = self.matrix.add(result.pairs)
        if self.guided and new:
            self.corpus.append(Entry(result.case, result.pairs, decisions=result.decisions))
        self.holes.add(result.case, result.unresolved)
        if result.finding is None:
            return False
        if result.finding.signature in self.signatures:
            self.repeats += 1
            return False
        self.signatures.add(result.finding.signature)
        return True

    @property
    def done(self) -> bool:
        return self.generation * self.batch >= self.total

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "unit": self.unit, "seed": self.seed, "total": self.total,
                "guided": self.guided, "generation": self.generation, "cases": self.cases, "deals": self.deals,
                "decisions": self.decisions, "replayed": self.replayed, "irregular": dict(sorted(self.irregular.items())),
                "matrix": self.matrix.to_dict(), "clauses": [[c, w, n] for (c, w), n in sorted(self.clauses.counts.items())],
                "corpus": [e.to_dict() for e in self.corpus], "holes": self.holes.to_dict(),
                "findings": self.findings, "repeats": self.repeats, "curve": self.curve, "seconds": round(self.seconds, 3)}

    @classmethod
    def from_dict(cls, data: dict[str, Any], coverage: Any) -> "Search":
        search = cls(data["game"], data["unit"], int(data["seed"]), int(data["total"]), bool(data["guided"]), coverage)
        search.generation = int(data["generation"])
        search.cases, search.deals = int(data["cases"]), int(data["deals"])
        search.decisions, search.replayed = int(data["decisions"]), int(data["replayed"])
        search.irregular.update(data["irregular"])
        search.matrix.load(data["matrix"])
        for c, w, n in data["clauses"]:
            search.clauses.counts[(c, w)] += int(n)
        search.corpus = [Entry.from_dict(e) for e in data["corpus"]]
        search.holes.load(data["holes"])
        search.findings = list(data["findings"])
        search.signatures = {f["signature"] for f in search.findings}
        search.repeats = int(data["repeats"])
        search.curve = [tuple(p) for p in data["curve"]]
        search.seconds = float(data["seconds"])
        return search

    def results(self) -> dict[str, Any]:
        """What the run reached (the same for any --jobs): the state without the timing."""
        out = self.to_dict()
        out.pop("seconds")
        return out


def run_search(search: Search, pool: Pool, *, replay_rate: float, deadline: float | None,
               on_finding: Callable[[CaseResult], dict[str, Any]], keep_going: bool,
               after_generation: Callable[[Search], None] = lambda s: None,
               evaluator: Callable[..., CaseResult] | None = None) -> str:
    """Play generations until the total is reached ('done'), the deadline passes ('budget')
    or a new violation stops the run ('violation'). ``on_finding`` reports a new violation
    and returns what the run keeps of it; ``after_generation`` saves (a campaign);
    ``evaluator`` plays a case (``evaluate``; a test's stand-in must be picklable for workers).
    A generation changes the search only once all its cases are played and its new violations
    reported, then at once with ``after_generation`` (Ctrl-C held back meanwhile): interrupted
    anywhere, the search is the one of the last whole generation, which a campaign saved."""
    fn = functools.partial(evaluator or evaluate, replay_rate=replay_rate, coverage=search.coverage)
    while not search.done:
        if deadline is not None and time.monotonic() >= deadline:
            return "budget"
        started = time.monotonic()
        cases, corpus = search.next_generation()
        results = pool.map(fn, cases)
        kept = [on_finding(result) for result in search.new_findings(results)]
        with interrupts_deferred():
            found = search.take(corpus, results, kept, time.monotonic() - started)
            after_generation(search)
        if found and not keep_going:
            return "violation"
    return "done"


# ---------------------------------------------------------------------------------------------
# The campaign directory


def open_campaign(directory: str, game: str, unit: str, seed: int, total: int | None, guided: bool,
                  default_total: int, coverage: Any) -> tuple[Search, bool]:
    """The campaign in ``directory`` (resumed when it has a state), and whether it was resumed.
    A campaign resumes only with the game, unit, seed and search it was started with."""
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise OptionError(f"--campaign {directory!r} is not a directory")
    path = os.path.join(directory, STATE)
    if not os.path.exists(path):
        os.makedirs(directory, exist_ok=True)
        return Search(game, unit, seed, total or default_total, guided, coverage), False
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}")
        search = Search.from_dict(data, coverage)
    except OSError as exc:
        raise OptionError(f"--campaign {directory!r}: cannot read its {STATE}: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise OptionError(f"--campaign {directory!r}: cannot read its {STATE}: {exc}") from None
    asked = {"game": game, "unit": unit, "seed": seed, "guided": guided}
    kept = {"game": search.game, "unit": search.unit, "seed": search.seed, "guided": search.guided}
    differ = [f"{k} {kept[k]!r} (asked {asked[k]!r})" for k in asked if asked[k] != kept[k]]
    if differ:
        raise OptionError(f"--campaign {directory!r} was started with other settings: {', '.join(differ)}")
    if total is not None:
        search.total = total
    return search, True


def save_campaign(directory: str, search: Search) -> None:
    """Rewrite the campaign's files (each whole: an interruption leaves the previous one)."""
    from paiju.files import write_whole

    def dump(name: str, data: Any) -> None:
        write_whole(os.path.join(directory, name), json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                    what="the campaign's")

    dump(STATE, search.to_dict())
    dump("coverage.json", search.matrix.to_dict())
    dump("corpus.json", [e.to_dict() for e in search.corpus])
    dump("holes.json", search.holes.to_dict())


__all__ = ["CaseResult", "Pool", "Search", "evaluate", "open_campaign", "run_search", "save_campaign",
           "case_from_dict", "case_to_dict"]
