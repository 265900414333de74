"""Interaction coverage: which (table condition in force, happening) pairs the fuzzed deals
reached.

A game's conditions and its own happenings come from its referee part
(``enforcement.games.RefereePart.interactions``, a ``tabletop.conditions.Interactions``);
every clause of its rulebook that a ruling can cite adds the happening ``ruling:CLAUSE``.
A ``Recorder`` watches one case: before each event batch it knows the conditions in force
(read after the previous batch), and pairs each happening of the batch with them; a new deal
starts with none in force. It also notes, for every ``ref.unresolved``, the situation it
arose in (irregularity, conditions, phase): the raw material of the holes report."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from enforcement.games import referee_part
from enforcement.rulebook import clauses_for
from tabletop.errors import OptionError

RULING = "ruling:"
NOT_IN_RUN = "not in this run"

Pair = tuple[str, str]


def interactions_of(game: str) -> Any:
    """``game``'s ``Interactions`` (a one-line OptionError when it lists none)."""
    found = referee_part(game).interactions
    if found is None:
        raise OptionError(f"{game}: no table conditions registered for interaction coverage")
    return found


@attrs.frozen
class Situation:
    """Where a ``ref.unresolved`` arose: what the rulebook was asked to decide, and when."""

    irregularity: str
    conditions: tuple[str, ...]
    phase: str

    @property
    def key(self) -> str:
        return f"{self.irregularity}|{self.phase}|{'+'.join(self.conditions) or '-'}"

    @classmethod
    def from_key(cls, key: str) -> "Situation":
        irregularity, phase, conditions = key.split("|")
        return cls(irregularity, () if conditions == "-" else tuple(conditions.split("+")), phase)


@attrs.frozen
class Unresolved:
    situation: Situation
    fallback: str
    note: str
    seq: int


class Recorder:
    """Observer of one case (``run_case(case, observers=[recorder])``)."""

    def __init__(self, game: str) -> None:
        self.spec = interactions_of(game)
        self.pairs: set[Pair] = set()
        self.unresolved: list[Unresolved] = []
        self._in_force: frozenset[str] = frozenset()
        self._phase = ""

    def on_events(self, engine: Any, events: Sequence[Any]) -> None:
        spec = self.spec
        in_force = self._in_force
        for e in events:
            kind = e.KIND
            if kind.endswith(".deal_started"):
                in_force = frozenset()
                continue
            if kind == "ref.ruling":
                happening: str | None = RULING + e.clause
            else:
                happening = spec.happening_of(e)
            if happening is None:
                continue
            for condition in in_force:
                self.pairs.add((condition, happening))
            if kind == "ref.unresolved":
                self.unresolved.append(Unresolved(Situation(e.irregularity, tuple(sorted(in_force)), self._phase),
                                                  e.fallback, e.note, e.seq))
        self._in_force = spec.in_force(engine)
        self._phase = spec.phase(engine)


class Matrix:
    """The interaction matrix of a game: how many cases reached each pair."""

    def __init__(self, game: str) -> None:
        self.game = game
        spec = interactions_of(game)
        self.spec = spec
        self.conditions = tuple(c.name for c in spec.conditions)
        clauses = [c for c in clauses_for(game) if not c.heading]
        self.not_automatic = {RULING + c.id: c.not_automatic for c in clauses if c.not_automatic}
        self.happenings = tuple(h.name for h in spec.happenings) + tuple(RULING + c.id for c in clauses)
        self.impossible: dict[Pair, str] = {pair: why for pair, why in spec.impossible.items()
                                            if pair[0] in self.conditions and pair[1] in self.happenings}
        self.counts: Counter[Pair] = Counter()

    def add(self, pairs: Iterable[Pair]) -> set[Pair]:
        """Count one case's pairs; the ones never seen before."""
        new = set()
        for pair in pairs:
            if not self.counts[pair]:
                new.add(pair)
            self.counts[pair] += 1
        return new

    @property
    def possible(self) -> int:
        return len(self.conditions) * len(self.happenings) - len(self.impossible)

    @property
    def covered(self) -> int:
        return sum(1 for pair, n in self.counts.items() if n and pair not in self.impossible)

    def summary(self) -> str:
        return (f"interaction pairs covered: {self.covered} of {self.possible} "
                f"({len(self.impossible)} more impossible by the rules)")

    def never(self) -> list[tuple[str, str, str]]:
        """(condition, happening, why) for every pair never seen: impossible by the rules
        (and why), a clause that cannot fire automatically, or ``NOT_IN_RUN``."""
        out = []
        for c in self.conditions:
            for h in self.happenings:
                if self.counts[(c, h)]:
                    continue
                if (c, h) in self.impossible:
                    why = f"impossible: {self.impossible[(c, h)]}"
                elif h in self.not_automatic:
                    why = f"cannot fire automatically: {self.not_automatic[h]}"
                else:
                    why = NOT_IN_RUN
                out.append((c, h, why))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "conditions": list(self.conditions), "happenings": list(self.happenings),
                "covered": self.covered, "possible": self.possible,
                "counts": [[c, h, n] for (c, h), n in sorted(self.counts.items()) if n],
                "never": [[c, h, why] for c, h, why in self.never()]}

    def load(self, data: dict[str, Any]) -> None:
        """Add the counts of a ``to_dict`` (a campaign's saved coverage)."""
        for c, h, n in data.get("counts", ()):
            self.counts[(c, h)] += int(n)

    def write(self, path: str) -> None:
        from paiju.files import write_whole

        write_whole(path, json.dumps(self.to_dict(), ensure_ascii=False, indent=1) + "\n")


__all__ = ["NOT_IN_RUN", "RULING", "Matrix", "Recorder", "Situation", "Unresolved", "interactions_of"]
