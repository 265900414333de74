"""The referee: follows an engine's event stream and answers irregularities with rulings.

One mechanism for both games. The generic part here turns a per-game ``Decision`` into
(1) sanctions recorded in the match ledger (escalations included), (2) ONE ``ref.ruling``
event in the engine's own stream — emitted before anything the ruling changes, so the log
reads "ruling, then its effects" — and (3) the table effects and sanctions carried out by the
engine from the decision's data alone (``engine.carry_out``: one handler per effect kind,
``guandan.table`` / ``shengji.table`` ``EFFECT_HANDLERS``). What the clause *is* for a given situation
lives in the per-game rulings (``enforcement.guandan_rulings`` / ``shengji_rulings``).

A situation the rulebook does not cover gets a ``ref.unresolved`` event with its facts and
the configured fallback (default: the game's fallback clause, GD-2.5 / SJ-3.0, recording an
``AdjustedScore`` that changes nothing, and saying so). Every irregular attempt gets exactly
one ruling or one unresolved event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

import attrs

from enforcement.ledger import Ledger
from enforcement.rulebook import clause as lookup_clause
from enforcement.rulebook import fallback_clause
from enforcement.sanctions import AdjustedScore, Sanction, TableEffect
from tabletop.events import Event
from tabletop.irregular import Facts


@attrs.frozen(kw_only=True)
class Ruling(Event):
    KIND: ClassVar[str] = "ref.ruling"
    clause: str
    offender: int | None
    """The offending seat (None when a side or both sides are at fault)."""
    side: int | None
    answers: int
    """Sequence number of the irregular event ruled on (-1 for a reported incident ruled at once)."""
    facts: Facts
    rectification: tuple[dict, ...]
    sanctions: tuple[dict, ...]
    """Each: {"clause", "side", "seat", "sanction": {...}, "cause"} — escalations included."""
    summary: str


@attrs.frozen(kw_only=True)
class Unresolved(Event):
    KIND: ClassVar[str] = "ref.unresolved"
    irregularity: str
    answers: int
    facts: Facts
    rectification: tuple[dict, ...] = ()
    """What the table does to put itself back in order (e.g. cards laid on the table go back),
    carried out exactly as listed, as a ruling's."""
    fallback: str
    """The clause the fallback ruled under (GD-2.5 / SJ-3.0)."""
    note: str


@attrs.frozen
class Decision:
    """What a game's rulings decided about one irregularity."""

    clause: str | None
    """None: the rulebook does not cover it (→ unresolved + fallback)."""
    answers: int
    offender: int | None = None
    side: int | None = None
    facts: Facts = ()
    effects: tuple[TableEffect, ...] = ()
    sanctions: tuple[Sanction, ...] | None = None
    """None: the clause's own ladder from the rulebook (escalation by occurrence)."""
    irregularity: str = ""


class GameRulings(Protocol):
    game: str
    # Optionally ``kinds``: the event kinds ``decide`` can answer (the referee skips others).

    def decide(self, engine: Any, event: Event) -> Sequence[Decision]:
        """Decisions this event calls for (usually none)."""

    def unresolved(self, engine: Any, decision: Decision) -> None:
        """Put the table back in order after an unresolved irregularity (fallback)."""


Fallback = Callable[[Any, Decision], Sequence[Sanction]]


def record_only_fallback(engine: Any, decision: Decision) -> Sequence[Sanction]:
    """PD fallback: an AdjustedScore that changes nothing, recorded as such."""
    return (AdjustedScore(note="fallback: recorded, result unchanged"),)


def _nobody_at_fault(decision: Decision) -> bool:
    """No seat and no side named, the clause is not one for both sides, and no sanction."""
    if decision.offender is not None or decision.side is not None or decision.sanctions != ():
        return False
    return lookup_clause(decision.clause).sanction.to != "both_sides"


class Referee:
    """An observer (tabletop.protocol.Observer) that rules on irregularities."""

    def __init__(self, rulings: GameRulings, ledger: Ledger | None = None, fallback: Fallback = record_only_fallback) -> None:
        self.rulings = rulings
        self.ledger = ledger if ledger is not None else Ledger(rulings.game)
        self.fallback = fallback
        self.rulings_made: list[Ruling] = []
        self.unresolved: list[Unresolved] = []
        kinds = getattr(rulings, "kinds", None)
        self._watch: frozenset[str] | None = None if kinds is None else frozenset(kinds)
        """The event kinds the game's rulings decide on (None: every event)."""

    def on_events(self, engine: Any, events: list[Event]) -> None:
        watch = self._watch
        for event in events:
            if watch is not None and event.KIND not in watch:
                continue
            for decision in self.rulings.decide(engine, event):
                if decision.clause is None:
                    self._unresolved(engine, decision)
                else:
                    self._rule(engine, decision)
        return None

    def _stream(self, engine: Any) -> Any:
        return engine.stream

    def _rule(self, engine: Any, decision: Decision) -> None:
        stream = self._stream(engine)
        if _nobody_at_fault(decision):
            imposed = []  # e.g. a short deck: nobody to record it against, nothing to impose
        else:
            imposed = self.ledger.record(decision.clause, decision.offender, deal=stream.deal,
                                         side=decision.side, sanctions=decision.sanctions)
        ruling = stream.emit(
            Ruling, seat=decision.offender, clause=decision.clause, offender=decision.offender,
            side=decision.side if decision.side is not None else (
                decision.offender % 2 if decision.offender is not None else None),
            answers=decision.answers, facts=decision.facts,
            rectification=tuple(e.to_dict() for e in decision.effects),
            sanctions=tuple(i.to_dict() for i in imposed),
            summary=lookup_clause(decision.clause).summary)
        self.rulings_made.append(ruling)
        # The ruling is data: the engine carries out exactly its effects and sanctions.
        engine.carry_out(decision.effects, imposed, reason=decision.clause, answers=decision.answers)

    def _unresolved(self, engine: Any, decision: Decision) -> None:
        stream = self._stream(engine)
        fallback = fallback_clause(self.rulings.game)
        sanctions = tuple(self.fallback(engine, decision))
        if decision.offender is not None or decision.side is not None:
            self.ledger.record(fallback.id, decision.offender, deal=stream.deal, side=decision.side,
                               sanctions=sanctions)
        event = stream.emit(
            Unresolved, seat=decision.offender, irregularity=decision.irregularity, answers=decision.answers,
            facts=decision.facts, rectification=tuple(e.to_dict() for e in decision.effects), fallback=fallback.id,
            note="not covered by the rulebook; fallback " + fallback.id + ": " + ", ".join(str(s) for s in sanctions))
        self.unresolved.append(event)
        self.rulings.unresolved(engine, decision)
