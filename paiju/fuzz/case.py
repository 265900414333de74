"""One fuzz case of `paiju fuzz`: a refereed unit (deal or match) played by random and
heuristic agents wrapped in infraction injectors, with the invariant checker watching
(``enforcement.invariants``); and the shrinking of a failing case.

A case is laid out as `paiju simulate --referee` lays out unit ``index`` of a run with root
seed ``seed`` (``paiju.sim.refereed``): the engine from the seed-tree node ``(seed, index)``,
agent ``s`` from ``(seed, index, AGENT + s)``, its injector from ``(seed, index,
INJECTOR + s)``. What the fuzzer draws for the case (which infraction kinds, at which
rates, which agents) comes from ``(seed, index, FUZZ)``. Everything that decides the case
is in its log header (``Case.options``), so the log alone reproduces it
(`paiju fuzz --repro LOG`), and `paiju replay LOG --check` re-applies its actions.

Shrinking a failing case keeps what still fails with the same invariant and is no bigger
(deals, then kinds, then irregularities, then events): (1) fewest deals —
the failing unit alone (units are seeded independently) and, in a match, the deals up to
the failing one (``rules.max_deals``); (2) fewest irregularity kinds — each kind dropped in
turn; (3) lowest rates — each rate halved while it still fails; (4) fewest irregularities
— the smallest number of irregular actions the injectors may commit (``max_irregularities``,
found by bisection). The log then stops at the event batch that broke the invariant.
"""

from __future__ import annotations

import json
import math
import time
import traceback
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from enforcement.injector import Injector, catalogue_for
from enforcement.invariants import InvariantViolation, checker_for
from tabletop import rng as streams
from tabletop.errors import OptionError
from tabletop.events import Event
from tabletop.rulings import Irregular
from tabletop.log import Log, encode, encode_event, make_header
from tabletop.runner import RunawayError, run

FUZZ = 40
"""Seed-tree stream (last path element) of a case's draw: kinds, rates, agents."""
MIN_RATE = 0.005
MAX_RATE = 0.3
# A catalogue's ``few_chances`` kinds (one or a few chances per deal: the draw, the burial,
# tribute, a declaration) would hardly ever be committed at a per-decision rate of 0.005, so
# they get ``FEW_CHANCES_RATES`` (their clauses fire within a few hundred deals). Below 1: a
# burial or tribute is redone after its ruling and may be got wrong again, so near 1 it would
# repeat hundreds of times and run the deal out of decisions (at 0.9, ten times on average).
FEW_CHANCES_RATES = (0.2, 0.9)
AGENT_KINDS = ("random", "heuristic")
DEAL_DECISIONS = 5_000
MATCH_DEAL_GUARD = 200


@attrs.frozen
class Case:
    """Everything that decides one fuzz case (and nothing else)."""

    game: str
    unit: str
    """'deals' (one deal) or 'matches' (one match)."""
    seed: int
    index: int
    agents: tuple[str, ...]
    rates: tuple[tuple[str, float], ...]
    """(infraction kind, rate per decision), kinds in catalogue order; absent kinds: 0."""
    max_irregularities: int | None = None
    """The injectors commit at most this many irregular actions in all (shrinking)."""
    max_deals: int | None = None
    """A match stops after this many deals (shrinking; rules.max_deals)."""

    @property
    def rate_map(self) -> dict[str, float]:
        return dict(self.rates)

    def rules(self) -> Any:
        from paiju.games import adapter_for

        rules = adapter_for(self.game).rules_from_dict({})
        if self.max_deals is not None:
            rules = attrs.evolve(rules, max_deals=self.max_deals)
        return rules

    def options(self) -> dict[str, Any]:
        """The log header's options: `paiju replay --check` and `paiju fuzz --repro` read them."""
        fuzz: dict[str, Any] = {"index": self.index}
        if self.max_irregularities is not None:
            fuzz["max_irregularities"] = self.max_irregularities
        return {"unit": self.unit, "count": self.index + 1, "index_ranges": [[self.index, self.index + 1]],
                "agents": list(self.agents), "referee": True, "infractions": dict(self.rates), "fuzz": fuzz}

    def header(self) -> dict[str, Any]:
        return make_header(self.game, self.seed, self.rules().to_dict(), self.options())

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> "Case":
        """The case a fuzz log's header describes (LogError-free: OptionError if it is none)."""
        options = header.get("options") or {}
        fuzz = options.get("fuzz")
        if not isinstance(fuzz, dict) or not isinstance(fuzz.get("index"), int):
            raise OptionError("not a `paiju fuzz` log (its header has no options.fuzz)")
        rules = header.get("rules") or {}
        infractions = options.get("infractions") or {}
        if not isinstance(infractions, dict):
            raise OptionError("options.infractions of a fuzz log is a dict of rates")
        catalogue = catalogue_for(header["game"])
        order = {k: i for i, k in enumerate(catalogue.kinds)}
        unknown = sorted(set(infractions) - set(order))
        if unknown:
            raise OptionError(f"unknown infraction kind{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
        max_deals = rules.get("max_deals")
        return cls(game=header["game"], unit=options.get("unit", "deals"), seed=int(header["seed"]),
                   index=fuzz["index"], agents=tuple(options.get("agents") or ("random",) * 4),
                   rates=tuple(sorted(((k, float(v)) for k, v in infractions.items()), key=lambda kv: order[kv[0]])),
                   max_irregularities=fuzz.get("max_irregularities"),
                   max_deals=max_deals if max_deals != _default_max_deals(header["game"]) else None)


def _default_max_deals(game: str) -> int:
    from paiju.games import adapter_for

    return adapter_for(game).rules_from_dict({}).max_deals


def draw_case(game: str, unit: str, seed: int, index: int) -> Case:
    """Case ``index`` of a fuzz run: a random non-empty subset of the game's infraction
    kinds, each at a rate drawn log-uniformly from 0.005-0.3 (a kind with few chances per
    deal, the catalogue's ``few_chances``: from 0.2-1), and a random or heuristic agent per seat. With
    ``unit`` 'deals' one case in three is the first two deals of a match, so that later
    deals (tribute and return, a banker known from the start, the next-deal procedure after
    单下/双下) are fuzzed too. A match case always includes the kinds only a later deal gives
    a chance to (the catalogue's ``second_deal``)."""
    rng = streams.generator(seed, index, FUZZ)
    catalogue = catalogue_for(game)
    kinds = catalogue.kinds
    chosen = set(rng.choice(len(kinds), size=int(rng.integers(1, len(kinds) + 1)), replace=False).tolist())
    rates = {kinds[i]: _rate(catalogue, kinds[i], rng) for i in range(len(kinds)) if i in chosen}
    agents = tuple(AGENT_KINDS[int(rng.integers(len(AGENT_KINDS)))] for _ in range(4))
    two_deals = unit == "deals" and rng.random() < 1 / 3
    if unit == "matches" or two_deals:
        for kind in catalogue.second_deal:
            if kind not in rates:
                rates[kind] = _rate(catalogue, kind, rng)
    if two_deals:
        return Case(game, "matches", seed, index, agents, _in_order(rates, kinds), max_deals=2)
    return Case(game, unit, seed, index, agents, _in_order(rates, kinds))


def _rate(catalogue: Any, kind: str, rng: Any) -> float:
    low, high = (FEW_CHANCES_RATES if kind in catalogue.few_chances else (MIN_RATE, MAX_RATE))
    return round(math.exp(float(rng.uniform(math.log(low), math.log(high)))), 3)


def _in_order(rates: Mapping[str, float], kinds: Sequence[str]) -> tuple[tuple[str, float], ...]:
    return tuple((k, rates[k]) for k in kinds if k in rates)


def sampled_for_replay(case: Case, rate: float) -> bool:
    """Whether this case's log is re-checked with `replay --check` (a seeded coin)."""
    return rate > 0 and float(streams.generator(case.seed, case.index, FUZZ, 1).random()) < rate


# ---------------------------------------------------------------------------------------------
# Running a case


@attrs.frozen
class Finding:
    """A broken invariant (``invariant`` names one of enforcement.invariants.INVARIANTS)."""

    invariant: str
    message: str
    detail: str = ""
    """A crash's traceback."""

    @property
    def signature(self) -> str:
        """What must stay the same while shrinking: the invariant (a crash: its exception type)."""
        if self.invariant == "crash":
            return "crash:" + self.message.split(":", 1)[0]
        return self.invariant


@attrs.frozen
class Outcome:
    case: Case
    finding: Finding | None
    events: tuple[Event, ...]
    result: Any
    committed: int
    """Irregular actions the injectors committed."""
    decisions: int
    kinds_committed: tuple[str, ...] = ()
    """The infraction kinds committed, most often first."""

    @property
    def lines(self) -> list[str]:
        return [encode_event(e) for e in self.events]

    def log_text(self) -> str:
        return "".join(line + "\n" for line in [encode(self.case.header()), *self.lines])

    @property
    def deals(self) -> int:
        return len({e.deal for e in self.events if e.KIND.endswith(".deal_started")})


class _Budget:
    """At most ``left`` more irregular actions, over all seats."""

    def __init__(self, left: int) -> None:
        self.left = left


class _Limited:
    """An infraction catalogue that stops committing once the shared budget is spent."""

    def __init__(self, inner: Any, budget: _Budget) -> None:
        self.inner, self.budget = inner, budget
        self.game, self.kinds = inner.game, inner.kinds

    def in_turn(self, observation: Any, legal: Sequence[Any]) -> list[str]:
        return self.inner.in_turn(observation, legal) if self.budget.left > 0 else []

    def out_of_turn(self, observation: Any, seat: int) -> list[str]:
        return self.inner.out_of_turn(observation, seat) if self.budget.left > 0 else []

    def may_interject(self, observation: Any, seat: int) -> bool:
        return self.budget.left > 0 and self.inner.may_interject(observation, seat)

    def could_interject(self, seat: int) -> bool:
        return self.budget.left > 0 and self.inner.could_interject(seat)

    def commit(self, kind: str, observation: Any, legal: Any, seat: int, rng: Any) -> Any:
        action = self.inner.commit(kind, observation, legal, seat, rng)
        if action is not None:
            self.budget.left -= 1
        return action


class _Keep:
    def __init__(self, events: list[Event]) -> None:
        self.events = events

    def on_events(self, engine: Any, events: list[Event]) -> None:
        self.events.extend(events)


def players_for(case: Case) -> list[Any]:
    """The case's agents, wrapped in injectors when any rate is positive (as
    ``enforcement.setup.inject`` does, plus the shrinker's budget)."""
    from paiju.agent_specs import make_agents
    from paiju.games import adapter_for

    agents = make_agents(adapter_for(case.game), case.agents, case.seed, case.index)
    rates = {k: v for k, v in case.rates if v > 0}
    if not rates:
        return agents
    catalogue: Any = catalogue_for(case.game)
    if case.max_irregularities is not None:
        catalogue = _Limited(catalogue, _Budget(case.max_irregularities))
    return [Injector(agent, streams.generator(case.seed, case.index, streams.INJECTOR + seat), rates, catalogue,
                     seat=seat) for seat, agent in enumerate(agents)]


def run_case(case: Case, observers: Sequence[Any] = (), *, checked: bool = True) -> Outcome:
    """Play the case with the invariant checker; a broken invariant or an exception from
    the engine, the referee or an agent is the finding. ``observers`` watch the table too
    (``on_events(engine, events)``: interaction coverage). Not ``checked``: the same play
    and log without the checker (it only watches), about twice as fast — for re-running a
    case only to see where it goes (the holes report)."""
    from enforcement.setup import make_referee
    from paiju.sim.refereed import start_unit

    rules = case.rules()
    events: list[Event] = []
    players: list[Any] = []
    checker = checker_for(case.game)
    finding = None
    result = None
    try:
        engine, started = start_unit(case.game, case.unit, case.seed, case.index, rules, case.options())
        events.append(started)
        players = players_for(case)
        deals = 1 if case.unit == "deals" else min(rules.max_deals, MATCH_DEAL_GUARD)
        watchers = [_Keep(events), checker, *observers] if checked else [_Keep(events), *observers]
        result = run(engine, checker.watch(engine, players) if checked else players, watchers,
                     referee=make_referee(case.game), max_steps=DEAL_DECISIONS * (deals + 1))
        if checked:
            checker.finish(engine, result)
    except InvariantViolation as v:
        finding = Finding(v.invariant, str(v))
    except RunawayError as exc:
        finding = Finding("bounded", f"[bounded] {exc}")
    except Exception as exc:  # a crash of the engine, the referee or an agent is a finding
        finding = Finding("crash", f"{type(exc).__name__}: {exc}", traceback.format_exc(limit=-6))
    kinds = Counter(k for p in players for k in getattr(p, "committed", ()))
    return Outcome(case, finding, tuple(events), result, sum(kinds.values()), checker.decisions,
                   tuple(k for k, _ in kinds.most_common()))


def replay_finding(outcome: Outcome) -> Finding | None:
    """`paiju replay --check` on the case's log (in memory): a mismatch is a finding."""
    from paiju.replay.check import check_log

    lines = outcome.lines
    log = Log(header=json.loads(encode(outcome.case.header())), lines=tuple(lines),
              events=tuple(Event.from_dict(json.loads(line)) for line in lines))
    try:
        checked = check_log(log)
    except Exception as exc:
        return Finding("replay_exact", f"[replay_exact] replay --check failed: {type(exc).__name__}: {exc}",
                       traceback.format_exc(limit=-6))
    if not checked.ok:
        return Finding("replay_exact", f"[replay_exact] {checked.message}")
    return None


# ---------------------------------------------------------------------------------------------
# Shrinking


@attrs.frozen
class Shrunk:
    outcome: Outcome
    runs: int
    steps: tuple[str, ...]
    """What each accepted shrinking step did."""


def shrink(outcome: Outcome, *, max_runs: int = 80, deadline: float | None = None,
           rerun: Callable[[Case], Outcome] = run_case) -> Shrunk:
    """The smallest case found that still fails with the same invariant (see the module
    doc). ``deadline`` (time.monotonic) and ``max_runs`` bound the effort."""
    assert outcome.finding is not None
    want = outcome.finding.signature
    best = outcome
    runs = 0
    steps: list[str] = []

    def attempt(case: Case, what: str) -> bool:
        nonlocal best, runs
        if runs >= max_runs or (deadline is not None and time.monotonic() > deadline):
            return False
        runs += 1
        tried = rerun(case)
        if tried.finding is not None and tried.finding.signature == want and _size(tried) <= _size(best):
            best = tried
            steps.append(what)
            return True
        return False

    case = best.case
    if case.unit == "matches" and best.deals > 0 and (case.max_deals is None or best.deals < case.max_deals):
        attempt(attrs.evolve(case, max_deals=best.deals), f"only the first {best.deals} deal{'s' if best.deals != 1 else ''}")
    if len(best.case.rates) > 2:  # one kind alone, or two together, often do it
        drawn = dict(best.case.rates)
        order = {k: i for i, (k, _) in enumerate(best.case.rates)}
        used = [k for k in best.kinds_committed if k in drawn]
        ranked = used + [k for k in drawn if k not in used]
        groups: list[tuple[str, ...]] = [(k,) for k in ranked] + [tuple(sorted(pair, key=order.__getitem__))
                                          for i, a in enumerate(used[:6]) for pair in ((a, b) for b in used[i + 1:6])]
        for group in groups:
            for boost in (False, True):
                rates = tuple((k, MAX_RATE if boost else drawn[k]) for k in group)
                if boost and all(drawn[k] >= MAX_RATE for k in group):
                    continue
                if attempt(attrs.evolve(best.case, rates=rates), f"only {', '.join(group)}"):
                    break
            else:
                continue
            break
    for kind, _ in best.case.rates:
        if len(best.case.rates) > 1:
            fewer = tuple(kr for kr in best.case.rates if kr[0] != kind)
            attempt(attrs.evolve(best.case, rates=fewer), f"without {kind}")
    for _ in range(3):
        lowered = False
        for kind, rate in best.case.rates:
            lower = round(rate / 2, 4)
            if lower < 0.001:
                continue
            rates = tuple((k, lower if k == kind else r) for k, r in best.case.rates)
            lowered |= attempt(attrs.evolve(best.case, rates=rates), f"{kind} at {lower}")
        if not lowered:
            break
    committed = best.committed
    if committed > 0:
        low, high = 0, committed  # fails with `high` irregularities allowed
        while low < high:
            mid = (low + high) // 2
            if attempt(attrs.evolve(best.case, max_irregularities=mid), f"at most {mid} irregularities"):
                high = min(mid, best.committed)
            else:
                low = mid + 1
            if runs >= max_runs or (deadline is not None and time.monotonic() > deadline):
                break
        if best.case.max_irregularities is None or best.case.max_irregularities > best.committed:
            attempt(attrs.evolve(best.case, max_irregularities=best.committed), f"at most {best.committed} irregularities")
    return Shrunk(best, runs, tuple(steps))


def _size(outcome: Outcome) -> tuple[int, int, int, int]:
    """What shrinking makes smaller, most important first: deals, infraction kinds,
    irregularities committed, events."""
    return (outcome.deals, len(outcome.case.rates), outcome.committed, len(outcome.events))


def irregularities(events: Sequence[Event]) -> Counter[str]:
    return Counter(e.irregularity for e in events if isinstance(e, Irregular))
