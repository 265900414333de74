"""Table conditions and happenings of a game, for interaction coverage (`paiju fuzz`).

A *condition* is something in force at the table between two actions (a bar pending,
penalty cards held, the kitty being buried, …), read from a deal's state; a *happening* is
something that occurs (a clause's ruling, or one of the game's own events: a round ending,
接风, a deal ending, …). An interaction is a (condition in force, happening) pair seen in
one deal. Each game lists its own (``guandan.refereed.conditions``,
``shengji.refereed.conditions``: the facts); its referee reads the rules into them (which pairs
are impossible, where each can arise: ``enforcement.guandan_interactions``,
``enforcement.shengji_interactions``) and its referee part carries the whole
(``enforcement.games``), so code above the game packages never compares a game's name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from tabletop.events import Event


@attrs.frozen
class TableCondition:
    name: str
    en: str
    zh: str
    holds: Callable[[Any], bool] = attrs.field(eq=False, repr=False)
    """deal → whether the condition is in force (the deal is refereed: ``deal.table`` is set)."""


@attrs.frozen
class Happening:
    name: str
    en: str
    zh: str


@attrs.frozen
class Interactions:
    """One game's conditions and happenings (its clauses' rulings are added by the fuzzer
    from the rulebook, as ``ruling:CLAUSE``)."""

    conditions: tuple[TableCondition, ...]
    happenings: tuple[Happening, ...]
    """The game's own happenings (not the rulings)."""
    happening_of: Callable[[Event], str | None] = attrs.field(eq=False, repr=False)
    """A game event → the happening it is, or None."""
    deal_of: Callable[[Any], Any] = attrs.field(eq=False, repr=False)
    """A deal or match engine → the deal being played."""
    phase_of: Callable[[Any], str] = attrs.field(eq=False, repr=False)
    """A deal → its phase, in words ('play', 'tribute', …)."""
    irregularities: Mapping[str, Any] = attrs.field(factory=dict)
    """Irregularity id → its record (the referee's ``Irregularity``: ``zh`` and ``en`` words
    for the holes report; ``stages_found(key)``, the only stages the engine can meet it in,
    none: any). A condition and a happening whose stages do not meet are never paired (the
    fuzzer derives the pairs of the rulings from the clauses' triggers:
    ``paiju.fuzz.interactions``)."""
    impossible: Mapping[tuple[str, str], str] = attrs.field(factory=dict)
    """(condition, happening) → why the rules never let the two meet (a happening may be
    ``ruling:CLAUSE``)."""
    stages: Mapping[str, str] = attrs.field(factory=dict)
    """Stage of a deal (a phase, as ``phase_of`` names it) → words for it ('the draw')."""
    condition_stages: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    """Condition → the only stages it can be in force in (absent: any)."""
    happening_stages: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    """The game's own happening → the only stages whose actions can set it off (absent: any)."""
    clauses_by_sanction: Mapping[str, str] = attrs.field(factory=dict)
    """Sanction kind → the clause that fires through what a ruling imposes rather than by
    being cited (a forced place: its clause)."""
    clauses_by_event: Mapping[str, tuple[str, str]] = attrs.field(factory=dict)
    """Event kind → (clause, how) for a clause no ruling cites that fires through a table
    event; how is 'effect' or 'designation' (the clause coverage counts it so)."""

    def in_force(self, engine: Any) -> frozenset[str]:
        """The conditions in force at ``engine``'s deal now (none in strict mode)."""
        deal = self.deal_of(engine)
        if getattr(deal, "table", None) is None:
            return frozenset()
        return frozenset(c.name for c in self.conditions if c.holds(deal))

    def phase(self, engine: Any) -> str:
        return self.phase_of(self.deal_of(engine))


def impossible_with(conditions: tuple[str, ...], happenings: tuple[str, ...], reason: str) -> dict[tuple[str, str], str]:
    """Every (condition, happening) of the two lists marked impossible for ``reason``."""
    return {(c, h): reason for c in conditions for h in happenings}
