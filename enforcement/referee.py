"""The rulebook referee: fills the referee's seat (``tabletop.seats.REFEREE``) with the
rulings of the penalty codes.

One mechanism for both games. When the table awaits a ruling, ``Referee.rule(engine)`` takes
the first irregularity awaited, asks the game's rulings (``enforcement.guandan_rulings`` /
``shengji_rulings``) what the clause makes of it (a ``Decision``), records the sanctions in the
match ledger (escalations included) and answers with a ``tabletop.rulings.Ruling``: data that
the engine applies like any action — it logs ONE ``ref.ruling`` line and carries out exactly
the listed effects and sanctions through its own handler tables. The referee never writes
into the engine's stream and never calls an engine mutator.

A situation the rulebook does not cover gets an ``Unresolved`` answer with its facts and the
configured fallback (default: the game's fallback clause, GD-2.5 / SJ-3.0, recording an
``AdjustedScore`` that changes nothing, and saying so). Every irregular attempt gets exactly
one ruling or one unresolved answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from tabletop.errors import RulingRefused
from tabletop.events import Event
from tabletop.games import game_spec
from tabletop.rulings import Discovered, Facts, Irregular, Ruling, RulingEvent, Unresolved, UnresolvedEvent

if TYPE_CHECKING:   # the ledger, the rulebook and the effects load with the first ruling: a clean run makes none
    from enforcement.ledger import Ledger
    from tabletop.effects import Sanction, TableEffect


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
    on_top: tuple[str, ...] = ()
    """Further clauses the same ruling penalises under their own ladders (双升: the exposed
    heavy cards of SJ-3.1.10.4 / SJ-3.1.11.3 as SJ-3.1.3), each booked under its own id."""


def decision(event: Any, answers: int, clause: str, effects: Sequence[TableEffect] = (), *,
             offender: Any = "event", side: int | None = None, sanctions: Sequence[Sanction] | None = None,
             extra_facts: Sequence[tuple[str, Any]] = (), on_top: Sequence[str] = ()) -> Decision:
    """A ruling under ``clause`` on the irregularity ``event`` (attempt ``answers``): data
    only. ``offender`` defaults to the event's seat; ``sanctions`` None: the clause's own
    ladder; ``on_top``: further clauses whose ladders the ruling imposes too. The engine
    carries out ``effects`` and the imposed sanctions itself."""
    seat = event.seat if offender == "event" else offender
    return Decision(clause, answers, offender=seat, side=side, facts=tuple(event.facts) + tuple(extra_facts),
                    effects=tuple(effects), sanctions=None if sanctions is None else tuple(sanctions),
                    irregularity=event.irregularity, on_top=tuple(on_top))


def uncovered(event: Any, answers: int, why: str, effects: Sequence[TableEffect] = (),
              extra_facts: Sequence[tuple[str, Any]] = ()) -> Decision:
    """The rulebook does not cover ``event`` (→ the fallback): ``why``, and ``effects`` that
    put the table back in order (often none)."""
    return Decision(None, answers, offender=event.seat, side=None,
                    facts=tuple(event.facts) + tuple(extra_facts) + (("why_unresolved", why),),
                    effects=tuple(effects), irregularity=event.irregularity)


class GameRulings(Protocol):
    game: str

    def decide(self, engine: Any, event: Irregular | Discovered) -> Decision:
        """What the clause makes of the irregularity ``event`` calls a ruling on."""


class RulingsOnFirstUse:
    """A game's rulings (``GameRulings``), made by ``make`` when the first ruling is asked for:
    they import the game's table effects, which a clean refereed run never needs."""

    def __init__(self, game: str, make: Callable[[], GameRulings]) -> None:
        self.game = game
        self._make = make
        self._rulings: GameRulings | None = None

    def decide(self, engine: Any, event: Irregular | Discovered) -> Decision:
        if self._rulings is None:
            self._rulings = self._make()
        return self._rulings.decide(engine, event)


Fallback = Callable[[Any, Decision], Sequence["Sanction"]]


def record_only_fallback(engine: Any, decision: Decision) -> Sequence[Sanction]:
    """PD fallback: an AdjustedScore that changes nothing, recorded as such."""
    from tabletop.effects import AdjustedScore   # here: only an unresolved irregularity needs it

    return (AdjustedScore(note="fallback: recorded, result unchanged"),)


def _nobody_at_fault(decision: Decision, clause_id: str) -> bool:
    """No seat and no side named, the clause is not one for both sides, and no sanction."""
    if decision.offender is not None or decision.side is not None or decision.sanctions != ():
        return False
    from enforcement.rulebook import clause as lookup_clause   # here: a clean run never rules

    return lookup_clause(clause_id).sanction.to != "both_sides"


_KEEPS_NOTHING: set[type] = set()
"""Event classes seen that are no ruling, no unresolved answer and no irregular attempt."""


class Referee:
    """Fills the referee's seat with the rulebook's rulings (``rule``); as an observer of the
    table (``on_events``) it keeps the rulings and unresolved answers logged, whoever made
    them, and counts the irregular attempts (``irregular_attempts``)."""

    def __init__(self, rulings: GameRulings, ledger: Ledger | None = None, fallback: Fallback = record_only_fallback) -> None:
        self.rulings = rulings
        self._ledger = ledger
        self.fallback = fallback
        self.seating = game_spec(rulings.game).seating
        self.rulings_made: list[RulingEvent] = []
        self.unresolved: list[UnresolvedEvent] = []
        self.irregular_attempts = 0

    @property
    def ledger(self) -> Ledger:
        """The match's sanctions ledger, made with the first ruling that needs it (a clean run never does)."""
        if self._ledger is None:
            from enforcement.ledger import Ledger

            self._ledger = Ledger(self.rulings.game)
        return self._ledger

    def rule(self, engine: Any) -> Ruling | Unresolved:
        """The ruling on the first irregularity ``engine`` awaits a ruling on."""
        awaited = engine.awaiting_ruling
        if not awaited:
            raise RulingRefused("no ruling is awaited")
        decision = self.rulings.decide(engine, awaited[0].event)
        if decision.clause is None:
            return self._unresolved(engine, decision)
        return self._ruling(engine, decision)

    def on_events(self, engine: Any, events: list[Event]) -> None:
        # One pass over every event of a refereed run (the batch's tally of irregular attempts
        # used to make a second). Most are plays and passes it keeps nothing of: their classes
        # are remembered (_KEEPS_NOTHING) and skipped with one set lookup.
        keeps_nothing = _KEEPS_NOTHING
        for event in events:
            kind = type(event)
            if kind in keeps_nothing:
                continue
            if type(event) is RulingEvent:
                self.rulings_made.append(event)
            elif type(event) is UnresolvedEvent:
                self.unresolved.append(event)
            elif isinstance(event, Irregular):
                self.irregular_attempts += 1
            else:
                keeps_nothing.add(kind)

    def _ruling(self, engine: Any, decision: Decision) -> Ruling:
        clause_id = decision.clause
        assert clause_id is not None  # rule() answers a decision without a clause with _unresolved
        if _nobody_at_fault(decision, clause_id):
            imposed = []  # e.g. a short deck: nobody to record it against, nothing to impose
        else:
            imposed = self.ledger.record(clause_id, decision.offender, deal=engine.stream.deal,
                                         side=decision.side, sanctions=decision.sanctions)
            for also in decision.on_top:
                imposed += self.ledger.record(also, decision.offender, deal=engine.stream.deal, side=decision.side)
        side = decision.side if decision.side is not None else (
            self.seating.side(decision.offender) if decision.offender is not None else None)
        from enforcement.rulebook import clause as lookup_clause

        return Ruling(clause=clause_id, answers=decision.answers, offender=decision.offender, side=side,
                      facts=decision.facts, effects=decision.effects, sanctions=tuple(imposed),
                      summary=lookup_clause(clause_id).summary)

    def _unresolved(self, engine: Any, decision: Decision) -> Unresolved:
        from enforcement.rulebook import fallback_clause

        fallback = fallback_clause(self.rulings.game)
        sanctions = tuple(self.fallback(engine, decision))
        if decision.offender is not None or decision.side is not None:
            self.ledger.record(fallback.id, decision.offender, deal=engine.stream.deal, side=decision.side,
                               sanctions=sanctions)
        return Unresolved(irregularity=decision.irregularity, answers=decision.answers, offender=decision.offender,
                          facts=decision.facts, effects=decision.effects, fallback=fallback.id,
                          note="not covered by the rulebook; fallback " + fallback.id + ": "
                               + ", ".join(str(s) for s in sanctions))
