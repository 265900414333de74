"""Interaction coverage: which (table condition in force, happening) pairs the fuzzed deals
reached.

A game's conditions and its own happenings come from its referee part
(``enforcement.games.RefereePart.interactions``, a ``tabletop.conditions.Interactions``);
every clause of its rulebook adds the happening ``ruling:CLAUSE``: a ruling citing it, an
escalation or a sanction imposed under it, or the fallback applied under it to an unresolved
irregularity. Pairs whose condition and happening arise in stages that never meet are
impossible (``stage_impossible``), as are those the game's own list marks.
A ``Recorder`` watches one case: before each event batch it knows the conditions in force
(read after the previous batch), and pairs each happening of the batch with them; a new deal
starts with none in force. It also notes, for every ``ref.unresolved``, the situation it
arose in (irregularity, conditions, phase): the raw material of the holes report."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from enforcement.games import referee_part
from enforcement.rulebook import INCIDENT, clauses_for
from tabletop.errors import OptionError

RULING = "ruling:"
NOT_IN_RUN = "not in this run"

Pair = tuple[str, str]



def sanction_clauses(ruling: Any, by_sanction: Mapping[str, str]) -> list[str]:
    """The clauses a ruling event sets off besides its own: the ledger's escalations (SJ-2.1:
    a sanction row under another clause) and the clauses of what it imposes (the
    game's ``Interactions.clauses_by_sanction``)."""
    out = []
    for row in ruling.sanctions:
        out.append(row["clause"])
        by_kind = by_sanction.get(row["sanction"]["kind"])
        if by_kind is not None:
            out.append(by_kind)
    return out


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
        clause_ids = {c.id for c in clauses_for(game)}
        self._event_clauses = {kind: RULING + clause for kind, (clause, _how) in self.spec.clauses_by_event.items()
                               if clause in clause_ids}

    def on_events(self, engine: Any, events: Sequence[Any]) -> None:
        spec = self.spec
        in_force = self._in_force
        for e in events:
            kind = e.KIND
            if kind.endswith(".deal_started"):
                in_force = frozenset()
                continue
            if kind == "ref.ruling":
                happenings = [RULING + e.clause] + [RULING + c for c in sanction_clauses(e, spec.clauses_by_sanction) if c != e.clause]
            elif kind == "ref.unresolved":
                happenings = [spec.happening_of(e), RULING + e.fallback]
            else:
                happenings = [spec.happening_of(e), self._event_clauses.get(kind)]
            for happening in happenings:
                if happening is not None:
                    self.pairs.update((condition, happening) for condition in in_force)
            if kind == "ref.unresolved":
                self.unresolved.append(Unresolved(Situation(e.irregularity, tuple(sorted(in_force)), self._phase),
                                                  e.fallback, e.note, e.seq))
        self._in_force = spec.in_force(engine)
        self._phase = spec.phase(engine)




def ruling_stages(spec: Any, clause: Any) -> tuple[str, ...] | None:
    """The stages a ruling under ``clause`` can follow an action in: those of the
    irregularities its triggers name (a report: a reported incident's; a variant such as
    ``wrong_tribute/after_first_play``: its own stages when the game gives them, else its
    irregularity's), or None (any stage: an escalation by the ledger, the fallback, a rule
    that holds throughout, or an irregularity the game gives no stages for)."""
    stages: set[str] = set()
    for key in clause.trigger.keys:
        source, _, name = key.partition(":")
        if source == "irregularity" or (source == "unresolved" and name):
            irregularity = name
        elif source == "report":
            irregularity = INCIDENT
        else:
            return None
        record = spec.irregularities.get(irregularity.split("/")[0])
        found = record.stages_found(irregularity) if record is not None else ()
        if not found:
            return None
        stages.update(found)
    return tuple(sorted(stages)) if stages else None


def stage_impossible(spec: Any, clauses: Sequence[Any]) -> dict[Pair, str]:
    """The (condition, happening) pairs whose stages never meet (``tabletop.conditions``:
    ``condition_stages``, ``happening_stages``, and for a ruling its clause's
    irregularities' stages), each with the reason in words."""
    words = spec.stages

    def said(stages: Sequence[str]) -> str:
        return " or ".join(words.get(s, s) for s in stages)

    occurs: dict[str, tuple[tuple[str, ...], str]] = {}
    for h in spec.happenings:
        if h.name in spec.happening_stages:
            occurs[h.name] = (tuple(spec.happening_stages[h.name]), f"{h.en}: only")
    for clause in clauses:
        stages = ruling_stages(spec, clause)
        if stages is not None:
            occurs[RULING + clause.id] = (stages, f"{clause.id} rules only on what arises")
    out: dict[Pair, str] = {}
    for condition in spec.conditions:
        held = spec.condition_stages.get(condition.name)
        if held is None:
            continue
        for happening, (stages, what) in occurs.items():
            if not set(held) & set(stages):
                out[(condition.name, happening)] = f"{what} {said(stages)}; {condition.en}: only {said(held)}"
    return out


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
        marked = {**stage_impossible(spec, clauses), **spec.impossible}
        self.impossible: dict[Pair, str] = {pair: why for pair, why in marked.items()
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

    def unseen(self) -> list[Pair]:
        """The pairs not yet covered and not impossible, in matrix order."""
        return [(c, h) for c in self.conditions for h in self.happenings
                if not self.counts[(c, h)] and (c, h) not in self.impossible]

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
