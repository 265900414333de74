"""Training scenarios generated on the fly, seeded, by the infraction injector.

Every clause a ruling can cite can be practised (``clause_kinds``); the rest of the
rulebook — section headings, clauses cited through their sub-clauses, effects carried out
under other clauses' rulings (GD-5.1, GD-5.2, GD-6) and the ledger's escalation SJ-2.1 — is
not a ruling's answer, and ``not_offered`` says why for each. The clauses wanted
(``--clauses``, or all of the game's) are taken in an order shuffled by the seed, one per
scenario, cycling. For each, refereed units are played (``paiju.sim.refereed.play_unit``) with
the injector's rates set on the infraction kinds that lead to that clause, until a ruling
cites it; the first such ruling is the scenario. A clause not produced within
``MAX_ATTEMPTS`` units is skipped with a one-line note and the next clause takes the
scenario's place.

Which kinds lead to a clause: the injector's kinds commit the engine's irregularities (the
catalogue's ``commits``, in the engines' ids: ``guandan.table.IRREGULARITIES``,
``shengji.table.IRREGULARITIES``), and each game's referee part says which clauses an
irregularity can be ruled under (``irregularity_clauses``, derived from the rulebook's
triggers). The fallback clause (GD-2.5 / SJ-3.0) also answers what the rulebook does not
cover (the catalogue's ``uncovered`` kinds).

Determinism: unit ``attempt`` of scenario ``number`` is played from the seed-tree node
``(seed, TRAINING, number, attempt)``; the clause order from ``(seed, TRAINING)``. The same
seed, count and clauses give the same scenarios, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tabletop import rng as streams
from tabletop.errors import OptionError
from tabletop.games import game_spec
from tabletop.log import Log

from paiju.train.scenarios import Scenario, TrainingError, scenario_name, scenarios_in_log

TRAINING = 0x7472
"""The seed-tree branch of training units (below the training seed)."""
MAX_ATTEMPTS = 80
"""Units played at most for one clause before it is skipped (the rarest, SJ-1.6, takes up to
~30 at some seeds)."""
AGENTS = ("heuristic", "random", "heuristic", "random")
"""One side plays sensibly, the other at random (so both answers to an out-of-turn play,
calling the referee and playing on, come up)."""

# What each infraction kind commits, the kinds the rulebook does not cover, the rates that
# practise rare clauses and the short matches that give later-deal kinds their chance are the
# game's infraction catalogue's (``enforcement.injector.InfractionCatalogue``); every kind
# the catalogue gives no practice rate gets ``DEFAULT_RATE`` (a chance at every decision).
DEFAULT_RATE = 0.03

def irregularity_clauses(game: str) -> dict[str, tuple[str, ...]]:
    """The game's map: irregularity id → the clauses it can be ruled under (its record's,
    ``enforcement.irregularities``)."""
    from enforcement.irregularities import irregularities_of

    return {i: record.clauses for i, record in irregularities_of(game).items()}


def clause_kinds(game: str) -> dict[str, tuple[str, ...]]:
    """Clause id → the injector kinds that can lead to it, for every clause a ruling can cite
    (in catalogue order)."""
    from enforcement.injector import catalogue_for
    from enforcement.rulebook import clauses_for, fallback_clause

    by_irregularity = irregularity_clauses(game)
    catalogue = catalogue_for(game)
    kinds = catalogue.kinds
    out: dict[str, list[str]] = {}
    for kind in kinds:
        for irregularity in catalogue.commits.get(kind, ()):
            for cid in by_irregularity.get(irregularity, ()):
                if kind not in out.setdefault(cid, []):
                    out[cid].append(kind)
    fallback = fallback_clause(game).id
    for kind in catalogue.uncovered:
        if kind in kinds and kind not in out.setdefault(fallback, []):
            out[fallback].append(kind)
    return {c.id: tuple(out[c.id]) for c in clauses_for(game) if c.id in out}


def not_offered(game: str) -> dict[str, str]:
    """Clause id → why it is not a scenario's answer, for every clause of ``game`` that no
    ruling cites (in catalogue order): with ``clause_kinds`` that is the whole rulebook."""
    from enforcement.rulebook import children, clauses_for

    offered = clause_kinds(game)
    out: dict[str, str] = {}
    for c in clauses_for(game):
        if c.id in offered:
            continue
        if c.heading:
            why = "a section heading, which only groups its sub-clauses"
        elif c.trigger.source == "ruling":
            why = "an effect of other clauses' rulings, which cite those clauses"
        elif c.trigger.source == "ledger":
            why = "an escalation the ledger adds to another clause's ruling, in its sanctions"
        elif children(c.id):
            why = "rulings cite its sub-clauses"
        else:
            why = "no ruling cites it"
        out[c.id] = why
    return out


def wanted_clauses(game: str, patterns: str | None, note: Callable[[str], None]) -> list[str]:
    """The practisable clauses ``patterns`` (comma-separated globs, 'GD-2.3.1,GD-4.2.*') ask
    for, in catalogue order; all of the game's without patterns. A pattern that names no
    clause is an error (the rulebook's message); one that names only clauses no ruling
    cites, or another game's, is noted and left out."""
    from enforcement.rulebook import matching

    practisable = clause_kinds(game)
    if not patterns:
        return list(practisable)
    chosen: list[str] = []
    unused: list[str] = []
    for raw in patterns.split(","):
        pattern = raw.strip()
        if not pattern:
            continue
        hits = matching([pattern])
        ours = [c.id for c in hits if c.game == game]
        if not ours:
            raise OptionError(f"--clauses {pattern}: {', '.join(c.id for c in hits[:3])} "
                              f"{'is' if len(hits) == 1 else 'are'} not a {game} clause")
        usable = [cid for cid in ours if cid in practisable]
        if not usable:
            why = not_offered(game)
            unused.append("not a ruling's answer: " + "; ".join(f"{cid}, {why[cid]}" for cid in ours))
        chosen.extend(usable)
    if not chosen:
        raise OptionError(f"--clauses {patterns}: nothing to practise: {'; '.join(unused)}")
    for text in unused:
        note(f"--clauses: {text}; left out")
    keep = set(chosen)
    return [cid for cid in practisable if cid in keep]


def rates_for(game: str, kinds: Iterable[str]) -> dict[str, float]:
    from enforcement.injector import catalogue_for

    table = catalogue_for(game).practice_rates
    return {kind: table.get(kind, DEFAULT_RATE) for kind in kinds}


def unit_plan(game: str, kinds: Sequence[str]) -> tuple[str, Any]:
    """(unit, rules) for units practising these kinds: a lone deal, or a short match when a
    kind needs a second deal."""
    from enforcement.injector import catalogue_for

    catalogue = catalogue_for(game)
    rules_from_dict = game_spec(game).rules_from_dict
    if set(catalogue.second_deal) & set(kinds):
        return "matches", rules_from_dict(dict(catalogue.short_match))
    return "deals", rules_from_dict({})


def require_referee(game: str) -> None:
    """A clear error when the game's referee is not there yet."""
    try:
        from enforcement.setup import make_referee

        make_referee(game)
        irregularity_clauses(game)
    except (ImportError, OptionError, AttributeError) as exc:
        raise TrainingError(f"{game} training needs the {game} referee, which this version does not have "
                            f"yet ({type(exc).__name__}: {exc})") from None


def generate(game: str, seed: int, count: int, patterns: str | None = None,
             note: Callable[[str], None] = lambda text: None, max_attempts: int = MAX_ATTEMPTS,
             made: Callable[[int], None] = lambda done: None,
             found_at: Callable[[int, int, Scenario], None] | None = None) -> list[Scenario]:
    """``count`` scenarios (see the module doc); ``made(1)`` is called as each is found
    (progress), and ``found_at(number, attempt, scenario)`` hears which unit each came from
    (``scenario_at`` plays it again)."""
    from paiju.sim.refereed import play_unit, unit_options

    require_referee(game)
    wanted = wanted_clauses(game, patterns, note)
    kinds_of = clause_kinds(game)
    order = list(wanted)
    streams.generator(seed, TRAINING).shuffle(order)
    skipped: set[str] = set()
    cursor = 0
    out: list[Scenario] = []
    for number in range(1, count + 1):
        attempt = 0
        while True:
            target = order[cursor % len(order)]
            cursor += 1
            if target in skipped:
                continue
            kinds = kinds_of[target]
            unit, rules = unit_plan(game, kinds)
            options = unit_options(unit, AGENTS, rates_for(game, kinds))
            found = None
            for _ in range(max_attempts):
                unit_seed = streams.child_seed(seed, TRAINING, number, attempt)
                attempt += 1
                played = play_unit(game, unit_seed, rules, options)
                log = Log(header=played.header, events=played.events, lines=played.lines)
                found = next((s for s in scenarios_in_log(log, scenario_name(number))
                              if s.expected.clause == target), None)
                if found is not None:
                    break
            if found is not None:
                out.append(found)
                made(1)
                if found_at is not None:
                    found_at(number, attempt - 1, found)
                break
            skipped.add(target)
            if len(skipped) == len(order):
                raise TrainingError(f"no ruling cited {', '.join(order)} in {max_attempts} units each: "
                                    f"no scenario can be made")
            note(f"{target}: no ruling cited it in {max_attempts} {unit}; left out")
    return out



def scenario_at(game: str, seed: int, number: int, attempt: int, clause: str) -> Scenario | None:
    """The scenario ``generate`` made as its ``number``-th from unit ``attempt``, citing
    ``clause``: that one unit played again (None if its rulings no longer cite the clause)."""
    from paiju.sim.refereed import play_unit, unit_options

    kinds = clause_kinds(game).get(clause)
    if kinds is None:
        return None
    unit, rules = unit_plan(game, kinds)
    played = play_unit(game, streams.child_seed(seed, TRAINING, number, attempt), rules,
                      unit_options(unit, AGENTS, rates_for(game, kinds)))
    log = Log(header=played.header, events=played.events, lines=played.lines)
    return next((s for s in scenarios_in_log(log, scenario_name(number)) if s.expected.clause == clause), None)
