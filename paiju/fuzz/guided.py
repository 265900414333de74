"""Guided search (`paiju fuzz --guided`): a corpus of the cases that reached interaction pairs
no earlier case had, mutated to reach more — as coverage-guided fuzzers do for programs.

Cases are played in generations of ``BATCH``; generation ``g`` is decided only by the
corpus after generation ``g - 1`` and the seeded stream ``(seed, g, GUIDED)``, so the cases,
and everything they reach, do not depend on how many workers play them. A share
``EXPLORE`` of each generation is drawn fresh (``case.draw_case``), the rest mutates a
corpus case picked with a weight for the rare pairs it reached, divided by its cost
(``COST_REFERENCE``): a new deal, other agents, an
infraction kind added or dropped, a rate scaled, one deal or the first two of a match, or
the agents or some rates of a second corpus case spliced in; three mutants in ten then have
every rate doubled (``HEAT``), and four in ten are aimed (``AIM``): one infraction kind
added whose irregularity a clause rules on that has not yet met a condition the parent case
reached (``aims_for``). A mutated case is a ``Case`` like any other: its log header
holds all of it, so shrinking and ``paiju fuzz --repro`` work on it unchanged."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from enforcement.injector import catalogue_for
from tabletop import rng as streams

from paiju.fuzz.case import AGENT_KINDS, FEW_CHANCES_RATES, MIN_RATE, Case, draw_case

BATCH = 25
"""Cases per generation (fixed, whatever the number of workers)."""
EXPLORE = 0.25
GUIDED = 41
"""Seed-tree stream of a generation's choices (``case.FUZZ`` is 40)."""
HIGH_RATE = 0.6
"""The highest rate a mutation gives a per-decision kind (the draw gives at most 0.3)."""
HEAT = 0.3
"""Share of mutants whose every rate is then doubled (up to the highest): more irregularities
at once put more conditions in force together, where rules meet."""
COST_REFERENCE = 250
"""Decisions of a corpus case above which its pick weight is divided by its cost (decisions /
250): a hot mix can take 2,000 decisions and 1,800 rulings in one deal, and its mutants as
many, while a cheap case reaching the same rare pairs is as good a parent."""


@attrs.define
class Entry:
    """A corpus case: the pairs it reached, and how often it was picked to mutate."""

    case: Case
    pairs: frozenset
    picks: int = 0
    decisions: int = 0
    """What playing it cost (decisions taken, rulings included)."""

    def to_dict(self) -> dict[str, Any]:
        return {"case": case_to_dict(self.case), "pairs": sorted(list(p) for p in self.pairs), "picks": self.picks,
                "decisions": self.decisions}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Entry":
        return cls(case_from_dict(data["case"]), frozenset(tuple(p) for p in data["pairs"]), int(data["picks"]),
                   int(data.get("decisions", 0)))


def case_to_dict(case: Case) -> dict[str, Any]:
    return {"game": case.game, "unit": case.unit, "seed": case.seed, "index": case.index, "agents": list(case.agents),
            "rates": [list(kr) for kr in case.rates], "max_irregularities": case.max_irregularities,
            "max_deals": case.max_deals}


def case_from_dict(data: Mapping[str, Any]) -> Case:
    return Case(data["game"], data["unit"], int(data["seed"]), int(data["index"]), tuple(data["agents"]),
                tuple((k, float(r)) for k, r in data["rates"]), data.get("max_irregularities"), data.get("max_deals"))


def generation(game: str, unit: str, seed: int, number: int, size: int, corpus: Sequence[Entry] | None,
               counts: Mapping[Any, int], aims: Mapping[str, Sequence[str]] | None = None,
               batch: int = BATCH) -> list[Case]:
    """The cases of generation ``number`` (case indices ``number * batch`` on): unguided
    (``corpus`` None) the drawn cases; guided, mostly mutants of the corpus (``counts``: how
    many cases reached each pair so far, for the weights; ``aims``: ``aims_for``, the kinds
    that could still reach a missing pair under each condition). Picks are counted on the
    entries."""
    first = number * batch
    if corpus is None or not corpus:
        return [draw_case(game, unit, seed, first + j) for j in range(size)]
    rng = streams.generator(seed, number, GUIDED)
    weights = [_weight(e, counts) for e in corpus]
    total = sum(weights)
    cases = []
    for j in range(size):
        if rng.random() < EXPLORE:
            cases.append(draw_case(game, unit, seed, first + j))
            continue
        pick = _choose(weights, total, float(rng.random()))
        corpus[pick].picks += 1
        other = corpus[int(rng.integers(len(corpus)))].case
        mutant = mutate(corpus[pick].case, first + j, unit, rng, other)
        if aims and rng.random() < AIM:
            mutant = aim(mutant, corpus[pick].pairs, aims, rng)
        cases.append(mutant)
    return cases


AIM = 0.4
"""Share of mutants then aimed at a pair still missing (``aim``)."""


def aims_for(game: str, possible_unseen: Sequence[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """Condition → the infraction kinds whose irregularities a clause rules on that has not
    yet been seen under the condition (``possible_unseen``: the pairs not yet covered and
    not impossible): what to commit more of in a case that reaches the condition."""
    from enforcement.rulebook import clauses_for
    from paiju.fuzz.interactions import INCIDENT, RULING

    catalogue = catalogue_for(game)
    kinds_of: dict[str, list[str]] = {}
    for kind in catalogue.kinds:
        for committed in catalogue.commits.get(kind, ()):
            kinds_of.setdefault(committed, []).append(kind)
    by_clause: dict[str, set[str]] = {}
    for clause in clauses_for(game):
        kinds: set[str] = set()
        for key in clause.trigger.keys:
            source, _, name = key.partition(":")
            irregularity: str | None = INCIDENT if source == "report" else name.split("/")[0] if source in (
                "irregularity", "unresolved") and name else None
            kinds.update(kinds_of.get(irregularity, ()) if irregularity else ())
        by_clause[RULING + clause.id] = kinds
    out: dict[str, set[str]] = {}
    for condition, happening in possible_unseen:
        needed = by_clause.get(happening)
        if needed:
            out.setdefault(condition, set()).update(needed)
    order = {k: i for i, k in enumerate(catalogue.kinds)}
    return {c: tuple(sorted(ks, key=order.__getitem__)) for c, ks in sorted(out.items())}


def aim(case: Case, pairs: frozenset, aims: Mapping[str, Sequence[str]], rng: Any) -> Case:
    """``case`` with one kind added (or raised to at least a fresh draw's rate) that could
    reach a pair still missing under one of the conditions its parent reached (``pairs``)."""
    conditions = sorted({c for c, _ in pairs if aims.get(c)})
    if not conditions:
        return case
    kinds = aims[conditions[int(rng.integers(len(conditions)))]]
    kind = kinds[int(rng.integers(len(kinds)))]
    catalogue = catalogue_for(case.game)
    rates = dict(case.rates)
    rates[kind] = max(rates.get(kind, 0.0), _fresh_rate(catalogue, kind, rng))
    order = {k: i for i, k in enumerate(catalogue.kinds)}
    return attrs.evolve(case, rates=tuple(sorted(rates.items(), key=lambda kr: order[kr[0]])))


def _weight(entry: Entry, counts: Mapping[Any, int]) -> float:
    rarity = sum(1.0 / max(1, counts.get(p, 1)) for p in entry.pairs)
    cost = max(1.0, entry.decisions / COST_REFERENCE)
    return (1.0 + rarity) / (1.0 + entry.picks) ** 0.5 / cost


def _choose(weights: Sequence[float], total: float, u: float) -> int:
    target = u * total
    for i, w in enumerate(weights):
        target -= w
        if target < 0:
            return i
    return len(weights) - 1


_OPERATIONS = ("deal", "deal", "deal", "agents", "agents", "add", "add", "drop", "scale", "scale", "scale", "unit",
               "splice", "splice")
"""What a mutation does, each as often as it is listed."""


def mutate(case: Case, index: int, unit: str, rng: Any, other: Case | None = None) -> Case:
    """One to three mutations of ``case``; ``index``: the case number it becomes (its deal,
    when the mutation is a new deal); ``other``: a second corpus case to splice with (its
    agents, or some of its infraction kinds and rates)."""
    catalogue = catalogue_for(case.game)
    rates = dict(case.rates)
    agents = list(case.agents)
    new = attrs.evolve(case, max_irregularities=None)
    for _ in range(1 + int(rng.integers(3))):
        what = _OPERATIONS[int(rng.integers(len(_OPERATIONS)))]
        if what == "deal":
            new = attrs.evolve(new, index=index)
        elif what == "agents":
            if rng.random() < 0.5:
                agents = [AGENT_KINDS[int(rng.integers(len(AGENT_KINDS)))] for _ in agents]
            else:
                seat = int(rng.integers(len(agents)))
                agents[seat] = AGENT_KINDS[(AGENT_KINDS.index(agents[seat]) + 1) % len(AGENT_KINDS)]
        elif what == "add":
            missing = [k for k in catalogue.kinds if k not in rates]
            if missing:
                kind = missing[int(rng.integers(len(missing)))]
                rates[kind] = _fresh_rate(catalogue, kind, rng)
        elif what == "drop" and len(rates) > 1:
            del rates[list(rates)[int(rng.integers(len(rates)))]]
        elif what == "scale" and rates:
            kind = list(rates)[int(rng.integers(len(rates)))]
            high = FEW_CHANCES_RATES[1] if kind in catalogue.few_chances else HIGH_RATE
            rates[kind] = round(min(high, max(MIN_RATE, rates[kind] * math.exp(float(rng.uniform(-1.5, 1.5))))), 3)
        elif what == "unit" and unit == "deals":
            new = attrs.evolve(new, unit="deals", max_deals=None) if new.unit == "matches" else \
                attrs.evolve(new, unit="matches", max_deals=2)
        elif what == "splice" and other is not None:
            if rng.random() < 0.5:
                agents = list(other.agents)
            else:
                for kind, rate in other.rates:
                    if rng.random() < 0.5:
                        rates[kind] = rate
    if new.unit == "matches":
        for kind in catalogue.second_deal:
            rates.setdefault(kind, _fresh_rate(catalogue, kind, rng))
    if rng.random() < HEAT:
        rates = {k: round(min(FEW_CHANCES_RATES[1] if k in catalogue.few_chances else HIGH_RATE, r * 2), 3)
                 for k, r in rates.items()}
    if new.index != index and tuple(agents) == case.agents and rates == dict(case.rates) and new.unit == case.unit:
        new = attrs.evolve(new, index=index)  # nothing changed: at least a new deal
    order = {k: i for i, k in enumerate(catalogue.kinds)}
    return attrs.evolve(new, agents=tuple(agents), rates=tuple(sorted(rates.items(), key=lambda kr: order[kr[0]])))


def _fresh_rate(catalogue: Any, kind: str, rng: Any) -> float:
    from paiju.fuzz.case import MAX_RATE

    low, high = FEW_CHANCES_RATES if kind in catalogue.few_chances else (MIN_RATE, MAX_RATE)
    return round(math.exp(float(rng.uniform(math.log(low), math.log(high)))), 3)


__all__ = ["AIM", "BATCH", "Entry", "aim", "aims_for", "case_from_dict", "case_to_dict", "generation", "mutate"]
