"""The exchange between the table and the referee, every game's: the irregular attempt the
table records and the wait for a ruling, and the ruling that answers it.

In refereed mode (``REFEREED``; ``STRICT``: no referee, an action that breaks a rule is
refused) an engine does not refuse an action that breaks a rule the penalty code covers: it
records the attempt as an event derived from ``Irregular`` (its own ``KIND``, e.g.
``gd.irregular``; ``ACTION = True`` so a replay re-applies it) and waits for the referee
(``Awaited``). ``irregularity`` is a stable id (``play_out_of_turn``, ``wrong_follow`` …);
``facts`` are (name, value) pairs a referee or trainee needs: whose turn it was, the top
play, counts, the stage at which it was discovered. A latent attempt is followed by a
``Discovered`` event when the table reaches the stage where it comes to light.

While an irregularity awaits a ruling, ``to_act`` is the referee's seat
(``tabletop.seats.REFEREE``); whoever fills it answers with a ``Ruling`` (the clause, the
offender, the facts, the table effects and the imposed sanctions) or, where the rulebook is
silent, an ``Unresolved``. The engine applies it like any action: it checks that it can carry
it out, logs it (``ref.ruling`` / ``ref.unresolved``, action events: a replay re-applies them
with no referee) and carries out exactly the effects it lists, through its own handler tables
keyed by effect and sanction kind."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop.errors import LogError, RulingRefused
from tabletop.events import Event

if TYPE_CHECKING:   # read back from a log only (ruling_from_event): a strict run never defines the ~35 effect classes
    from tabletop.effects import Imposed, TableEffect


STRICT = "strict"
REFEREED = "refereed"
MODES = (STRICT, REFEREED)

Facts = tuple[tuple[str, Any], ...]


def facts(**values: Any) -> Facts:
    """Facts as sorted (name, value) pairs: plain data, stable order."""
    return tuple(sorted(values.items()))


def fact(pairs: Facts, name: str, default: Any = None) -> Any:
    """The value of one fact, or ``default``."""
    for key, value in pairs:
        if key == name:
            return value
    return default


@attrs.frozen(kw_only=True)
class Irregular(Event):
    """Base of every game's irregular-attempt event (abstract: no KIND; each game names its
    own, e.g. ``gd.irregular``). ``action`` rebuilds the attempted action (the game's
    ``action_from_data``). ``latent``: nobody noticed yet; a discovery (``Discovered``)
    follows when the table reaches the stage where it comes to light, and the referee rules
    then."""

    ACTION: ClassVar[bool] = True
    irregularity: str
    facts: Facts = ()
    action: tuple[tuple[str, Any], ...] = ()
    latent: bool = False

    def fact(self, name: str, default: Any = None) -> Any:
        return fact(self.facts, name, default)


@attrs.frozen(kw_only=True)
class Discovered(Event):
    """Base of events that make a latent irregularity known at a later stage (a wrong
    tribute found after the first play, a missing 报牌 found when the next player has
    played…). Not an action: the engine emits it when the state reaches that stage."""

    irregularity: str
    answers: int
    """Sequence number of the irregular attempt this discovery is about."""
    facts: Facts = ()

    def fact(self, name: str, default: Any = None) -> Any:
        return fact(self.facts, name, default)


def irregularity_events(prefix: str, module: str) -> tuple[type[Irregular], type[Discovered]]:
    """A game's two refereed-mode event classes, ``IrregularAttempt`` (``PREFIX.irregular``)
    and ``IrregularityFound`` (``PREFIX.found``), declared in ``module`` (so that they pickle
    and print under the game's name)."""

    def make(name: str, base: type, kind: str, doc: str) -> Any:
        cls = type(name, (base,), {"KIND": kind, "__module__": module, "__doc__": doc,
                                   "__annotations__": {}})
        return attrs.frozen(kw_only=True)(cls)

    attempt = make("IrregularAttempt", Irregular, f"{prefix}.irregular",
                   "An action that breaks a rule, recorded instead of refused.")
    found = make("IrregularityFound", Discovered, f"{prefix}.found",
                 "A latent irregular attempt (``answers``) comes to light; the referee rules on it.")
    return attempt, found


@attrs.frozen(kw_only=True)
class Ruling:
    """The referee's answer to one irregularity (the attempt ``answers``): an action of the
    referee's seat."""

    clause: str
    answers: int
    """Sequence number of the irregular event ruled on."""
    offender: int | None = None
    side: int | None = None
    """The offending side (the offender's, unless a side or both sides are at fault)."""
    facts: Facts = ()
    effects: tuple[TableEffect, ...] = ()
    sanctions: tuple[Imposed, ...] = ()
    """The sanctions imposed (escalations included), as the ledger recorded them."""
    summary: str = ""


@attrs.frozen(kw_only=True)
class Unresolved:
    """The referee's answer where the rulebook is silent: the fallback clause, what the
    table does to put itself back in order (``effects``; their events give
    ``unresolved_reason`` as the reason), and a note of the fallback's sanctions (they change
    nothing on the table)."""

    irregularity: str
    answers: int
    offender: int | None = None
    facts: Facts = ()
    effects: tuple[TableEffect, ...] = ()
    fallback: str
    note: str = ""


@attrs.frozen(kw_only=True)
class RulingEvent(Event):
    KIND: ClassVar[str] = "ref.ruling"
    ACTION: ClassVar[bool] = True
    clause: str
    offender: int | None
    side: int | None
    answers: int
    facts: Facts
    rectification: tuple[dict, ...]
    sanctions: tuple[dict, ...]
    """Each: {"incident", "deal", "clause", "seat", "side", "sanction": {...}, "cause"}."""
    summary: str


@attrs.frozen(kw_only=True)
class UnresolvedEvent(Event):
    KIND: ClassVar[str] = "ref.unresolved"
    ACTION: ClassVar[bool] = True
    irregularity: str
    answers: int
    facts: Facts
    rectification: tuple[dict, ...] = ()
    """What the table does to put itself back in order (e.g. cards laid on the table go back),
    carried out exactly as listed, as a ruling's."""
    fallback: str
    note: str


@attrs.frozen
class Awaited:
    """An irregularity waiting for its ruling: the attempt's sequence number, its id, the
    seat it concerns and the event that calls for the ruling (the attempt, or its discovery)."""

    answers: int
    irregularity: str
    seat: int | None
    event: Irregular | Discovered


def log_ruling(stream: Any, ruling: "Ruling | Unresolved") -> Event:
    """Emit the log line of ``ruling`` (before anything it changes: the log reads "ruling,
    then its effects")."""
    if isinstance(ruling, Ruling):
        return stream.emit(RulingEvent, seat=ruling.offender, clause=ruling.clause, offender=ruling.offender,
                           side=ruling.side, answers=ruling.answers, facts=ruling.facts,
                           rectification=tuple(e.to_dict() for e in ruling.effects),
                           sanctions=tuple(i.to_dict() for i in ruling.sanctions), summary=ruling.summary)
    return stream.emit(UnresolvedEvent, seat=ruling.offender, irregularity=ruling.irregularity,
                       answers=ruling.answers, facts=ruling.facts,
                       rectification=tuple(e.to_dict() for e in ruling.effects), fallback=ruling.fallback,
                       note=ruling.note)


def ruling_from_event(event: Event) -> "Ruling | Unresolved":
    """The referee's action a ``ref.ruling`` / ``ref.unresolved`` line records (a replay
    without a referee re-applies it)."""
    from tabletop.effects import Imposed, TableEffect

    try:
        if isinstance(event, RulingEvent):
            return Ruling(clause=event.clause, answers=event.answers, offender=event.offender, side=event.side,
                          facts=event.facts, effects=tuple(TableEffect.from_dict(dict(d)) for d in event.rectification),
                          sanctions=tuple(Imposed.from_dict(dict(d)) for d in event.sanctions), summary=event.summary)
        if isinstance(event, UnresolvedEvent):
            effects = tuple(TableEffect.from_dict(dict(d)) for d in event.rectification)
            return Unresolved(irregularity=event.irregularity, answers=event.answers, offender=event.seat,
                              facts=event.facts, effects=effects, fallback=event.fallback, note=event.note)
    except (ValueError, TypeError, KeyError) as exc:
        raise LogError(f"event {event.seq} ({event.KIND}): {exc}") from None
    raise LogError(f"event {event.seq} ({event.KIND}) is not a ruling")


def unresolved_reason(fallback: str, effects: Sequence[TableEffect]) -> str:
    """What the table's events give as the reason for an unresolved irregularity's effects."""
    if not effects:
        return fallback
    return f"{fallback}: unresolved, " + ", ".join(e.KIND for e in effects)


def refuse_what_cannot_be_carried_out(game: str, effects: Sequence[Any], sanctions: Sequence[Any],
                                      effect_handlers: Mapping[str, Any], sanction_handlers: Mapping[str, Any],
                                      awaiting: Iterable[int], answers: int | None, *,
                                      effects_need_an_attempt: bool = False) -> None:
    """Raise ``RulingRefused`` before anything changes when a listed effect or an imposed
    sanction is of a kind ``game`` does not carry out, or when the ruling answers an
    attempt (``answers``) that is not among those ``awaiting`` a ruling. With
    ``effects_need_an_attempt``, a ruling that changes nothing on the table may answer an
    attempt that already stood (e.g. a play that stands as if in turn)."""
    for effect in effects:
        if effect_handlers.get(effect.KIND) is None:
            raise RulingRefused(f"{effect.KIND}: not a table effect {game} carries out "
                                f"(known: {', '.join(effect_handlers)})")
    for row in sanctions:
        if row.sanction.KIND not in sanction_handlers:
            raise RulingRefused(f"{row.sanction.KIND}: not a sanction {game} carries out "
                                f"(known: {', '.join(sanction_handlers)})")
    if answers is None or (effects_need_an_attempt and not effects):
        return
    if answers not in set(awaiting):
        raise RulingRefused(f"no ruling is awaited on event {answers}: nothing to put right")


class RulingPlan:
    """One ruling being carried out: its reason (the clause), its effect list, the attempt it
    answers, and where in the list the handlers are. Where one table primitive carries out
    several listed effects at once (a return made face up is a Return and an Expose), the
    handler ``take``s the later effects and the engine's ``carry_out`` skips those in
    ``done``."""

    __slots__ = ("reason", "effects", "answers", "index", "done")

    def __init__(self, reason: str, effects: Sequence[Any], answers: int | None = None) -> None:
        self.reason, self.effects, self.answers, self.index = reason, effects, answers, 0
        self.done: set[int] = set()

    def carry_out(self, table: Any, sanctions: Sequence[Any], effect_handlers: Mapping[str, Any],
                  sanction_handlers: Mapping[str, Any]) -> None:
        """The one order a ruling is carried out in, in every game: the imposed sanctions'
        consequences at the table first (``handler(table, row, plan)``, in the order imposed;
        a None handler: recorded in the ledger only), then the listed effects in the order
        the ruling lists them (``carry_out_effects``). The referee decides the order; the
        table follows it."""
        for row in sanctions:
            handler = sanction_handlers[row.sanction.KIND]
            if handler is not None:
                handler(table, row, self)
        self.carry_out_effects(table, effect_handlers)

    def carry_out_effects(self, table: Any, handlers: Mapping[str, Any]) -> None:
        """Each listed effect through its kind's handler ``handler(table, effect, plan)``,
        in list order, skipping those an earlier handler has taken (``take``)."""
        for index, effect in enumerate(self.effects):
            if index in self.done:
                continue                     # carried out together with an earlier effect
            self.index = index
            handlers[effect.KIND](table, effect, self)

    def take(self, kind: str, **fields: Any) -> Any:
        """The first effect of ``kind`` with these ``fields`` later in the list (it is then
        carried out with the current one), or None."""
        for j in range(self.index + 1, len(self.effects)):
            e = self.effects[j]
            if j not in self.done and e.KIND == kind and all(getattr(e, k) == v for k, v in fields.items()):
                self.done.add(j)
                return e
        return None


def admit_ruling(game: str, table: Any, awaiting: Iterable[Awaited], ruling: "Ruling | Unresolved",
                 effect_handlers: Mapping[str, Any], sanction_handlers: Mapping[str, Any],
                 stream: Any) -> tuple[tuple[Any, ...], str]:
    """The first half of applying the referee seat's action, the same for every game:
    refuse before anything changes a ruling on nothing awaited or with a kind ``game``
    does not carry out, then log it. Returns what the engine carries out next: the imposed
    sanctions and the reason its primitive events give."""
    if table is None:
        raise RulingRefused("the deal is not refereed: no ruling to carry out")
    if not any(w.answers == ruling.answers for w in awaiting):
        raise RulingRefused(f"no ruling is awaited on event {ruling.answers}")
    sanctions = ruling.sanctions if isinstance(ruling, Ruling) else ()
    refuse_what_cannot_be_carried_out(game, ruling.effects, sanctions, effect_handlers, sanction_handlers, (), None)
    log_ruling(stream, ruling)
    if isinstance(ruling, Ruling):
        return sanctions, ruling.clause
    return sanctions, unresolved_reason(ruling.fallback, ruling.effects)


def refuse(effect: Any, why: str) -> RulingRefused:
    """The refusal of one effect (or sanction) a table cannot carry out, saying why."""
    return RulingRefused(f"{effect}: {why}")
