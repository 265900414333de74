"""The trainee in the referee's seat: a ruling built from a trainee's answer, and the deal
played on under it ("apply my ruling").

A trainee answers with a clause, the table effects they would order (kinds, ticked from
the game's list) and the sanctions. The table needs more than kinds to carry an effect
out (which cards go back, which seat is barred): those details are taken from the
rulebook's own ruling on the same irregularity, so an effect the rulebook referee did
not order has no details and cannot be carried out — the trainee is told so, the deal
is not crashed. Taking the irregular attempt back and restoring the order (``Return``,
``RestoreOrder``, ``PlayStands``) are implied, as `paiju train` grades them. The
sanctions are imposed on the offender the rulebook names.

A scenario's unit is played again from its log header (``paiju.sim``: the same seeds,
agents and infractions give the same events), with the referee's seat filled by
``SubstituteSeat``: the rulebook referee rules everywhere except at the scenario's
ruling, where the trainee's ruling is carried out. The deal then plays on to its end
under the same agents, so the two endings differ only by the ruling.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from paiju.sim import batch
from paiju.train.grade import IMPLIED_EFFECTS
from paiju.sim.batch import Batch
from paiju.train.scenarios import Scenario
from tabletop.effects import Imposed, Sanction
from tabletop.games import table_effect_kinds
from tabletop.errors import PaijuError
from tabletop.events import Event, UnitStarted
from tabletop.games import game_spec
from tabletop.log import Log, encode_event
from tabletop.rulings import Ruling, RulingEvent, RulingRefused, Unresolved, UnresolvedEvent
from tabletop.runner import run

RULING_EVENTS = (RulingEvent, UnresolvedEvent)


class CannotApply(PaijuError):
    """A trainee's ruling the table cannot carry out, with the reason in words."""


STUCK_REPEATS = 8
"""Rulings on the same irregularity (the same seat, the same facts) in one deal after which
the table is found stuck: a ruling left out what puts the table right (a miscount after the
draw with no remedy leaves hands of the wrong size; the banker then buries the wrong count
after every ruling on it: SJ-3.1.10.1 over and over). More than the injector's irregular
attempts in a row (``enforcement.injector.MAX_IRREGULAR_IN_A_ROW``), which may repeat one."""


class TableStuck(CannotApply):
    """The table rules on the same irregularity again and again without getting anywhere."""

    def __init__(self, game: str, irregularity: str, seat: int | None, times: int) -> None:
        from enforcement.irregularities import irregularity_of

        record = irregularity_of(game, irregularity)
        en, zh = (record.en, record.zh) if record is not None else (irregularity.replace("_", " "), irregularity)
        who = f"seat {seat}" if seat is not None else "the table"
        super().__init__(f"the table cannot go on under this ruling: {who} {en} again and again (ruled {times} "
                         f"times, nothing changes): the ruling leaves out what would put the table right")
        self.zh = (f"牌桌无法按这项裁决继续：{f'{seat}号位' if seat is not None else '牌桌'}「{zh}」一再出现"
                   f"（已裁决 {times} 次，牌局毫无进展）：这项裁决漏掉了让牌局恢复正常的措施")


class Repeats:
    """Counts the irregularities a referee's seat is asked to rule on in one deal and raises
    ``TableStuck`` when one comes back a ``STUCK_REPEATS``-th time unchanged."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.seen: Counter[tuple[int, str, int | None, str]] = Counter()

    def see(self, engine: Any) -> None:
        awaited = engine.awaiting_ruling[0]
        key = (awaited.event.deal, awaited.irregularity, awaited.seat, repr(getattr(awaited.event, "facts", ())))
        self.seen[key] += 1
        if self.seen[key] >= STUCK_REPEATS:
            raise TableStuck(self.game, awaited.irregularity, awaited.seat, self.seen[key])


@attrs.frozen
class TraineeAnswer:
    """A trainee's ruling as the browser sends it (already checked: see ``read_answer``)."""

    clause: str
    effects: tuple[str, ...] = ()
    """Table-effect kinds, as in ``tabletop.effects``."""
    sanctions: tuple[str, ...] = ()
    """Sanction keys: 'Warning', 'PointPenalty(10)', 'LevelDiffPenalty(1)', 'ForcedLast' …"""

    def answer_line(self) -> str:
        """The answer in `paiju train`'s one-line form, graded by the same code."""
        return f"{self.clause}; {', '.join(self.effects) or 'none'}; {', '.join(self.sanctions) or 'none'}"


def sanction_from_key(key: str) -> Sanction:
    """'PointPenalty(10)' → PointPenalty(n=10); 'Warning' → WarningSanction()."""
    kind, _, rest = key.partition("(")
    data: dict[str, Any] = {"kind": kind}
    if rest:
        try:
            data["n"] = int(rest.rstrip(")"))
        except ValueError:
            raise CannotApply(f"sanction {key!r}: the count must be a whole number") from None
    try:
        return Sanction.from_dict(data)
    except ValueError as exc:
        raise CannotApply(f"sanction {key!r}: {exc}") from None


def trainee_ruling(answer: TraineeAnswer, rulebook: Ruling | Unresolved, deal: int, seating: Any) -> Ruling:
    """The ruling the trainee's answer gives, with the details of each effect taken from
    the rulebook's ruling on the same irregularity (see the module doc)."""
    present = {effect.KIND for effect in rulebook.effects}
    for kind in answer.effects:
        if kind not in table_effect_kinds():
            raise CannotApply(f"{kind!r} is not a table effect")
        if kind not in present:
            raise CannotApply(f"the table cannot carry out {kind} here: the rulebook's ruling orders no {kind}, "
                              f"so nothing says which cards or seats it would concern")
    # Taking the attempt back and restoring the order are implied by any ruling (the grading
    # treats them so too); the effects keep the rulebook's order, which the table relies on.
    wanted = set(answer.effects) | IMPLIED_EFFECTS
    effects = [effect for effect in rulebook.effects if effect.KIND in wanted]
    offender = rulebook.offender
    side = rulebook.side if isinstance(rulebook, Ruling) else None
    if side is None and offender is not None:
        side = seating.side(offender)
    imposed = []
    for number, key in enumerate(answer.sanctions):
        sanction = sanction_from_key(key)
        if side is None:
            raise CannotApply(f"the ruling names no offending side to impose {key} on")
        imposed.append(Imposed(incident=-1 - number, deal=deal, clause=answer.clause, seat=offender, side=side,
                               sanction=sanction, cause="trainee"))
    return Ruling(clause=answer.clause, answers=rulebook.answers, offender=offender, side=side,
                  facts=rulebook.facts, effects=tuple(effects), sanctions=tuple(imposed),
                  summary="the trainee's ruling")


class SubstituteSeat:
    """Fills the referee's seat: the rulebook referee's rulings, except the ``at``-th (from
    1), which is ``replace(engine, rulebook_ruling)``'s."""

    def __init__(self, rulebook: Any, at: int, replace: Any, game: str) -> None:
        self.rulebook = rulebook
        self.at = at
        self.replace = replace
        self.asked = 0
        self.replaced: Ruling | None = None
        self.repeats = Repeats(game)

    def rule(self, engine: Any) -> Ruling | Unresolved:
        self.asked += 1
        if self.replaced is not None:   # after the trainee's ruling: is the table getting anywhere?
            self.repeats.see(engine)
        own = self.rulebook.rule(engine)
        if self.asked != self.at:
            return own
        self.replaced = self.replace(engine, own)
        return self.replaced

    def on_events(self, engine: Any, events: list[Event]) -> None:
        self.rulebook.on_events(engine, events)


APPLY_SECONDS = 20.0
"""How long the deal may take to play on under a trainee's ruling: a ruling that leaves the
table ruling on and on without progress is reported, not left to hold a server thread."""
APPLY_EVENTS = 20_000
"""Events the rest of a deal may take at most (a whole deal takes a few hundred)."""


class _TooLong(Exception):
    """Raised by ``_Keep`` when the deal does not end within the budget."""


class _Keep:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.deadline = time.monotonic() + APPLY_SECONDS

    def on_events(self, engine: Any, events: list[Event]) -> None:
        self.events.extend(events)
        if len(self.events) > APPLY_EVENTS or time.monotonic() > self.deadline:
            raise _TooLong


@attrs.frozen
class Continuation:
    """A scenario's unit played to the end of the scenario's deal under one ruling."""

    log: Log
    """The unit's log from its start to the end of the scenario's deal."""
    ruling_index: int
    """Index in ``log.events`` of the ruling that was carried out."""
    outcome: tuple[str, ...]
    """The deal's result in words (its last steps)."""


def ruling_number(scenario: Scenario) -> tuple[int, int]:
    """(the unit index, which ruling of its unit the scenario's is, from 1)."""
    events = scenario.log.events
    start = max((i for i in range(scenario.ruling_index + 1) if isinstance(events[i], UnitStarted)), default=None)
    index = events[start].index if start is not None else 0   # type: ignore[attr-defined]
    first = start + 1 if start is not None else 0
    number = sum(1 for e in events[first:scenario.ruling_index + 1] if isinstance(e, RULING_EVENTS))
    return index, number


def rulebook_continuation(scenario: Scenario) -> Continuation:
    """What the log itself holds: the deal under the rulebook's ruling."""
    log = scenario.log
    start = max((i for i in range(scenario.ruling_index + 1) if isinstance(log.events[i], UnitStarted)), default=0)
    cut = _deal_end(log.events, scenario.ruling_index)
    part = Log(header=log.header, events=log.events[start:cut], lines=log.lines[start:cut])
    return Continuation(part, scenario.ruling_index - start, outcome_lines(part))


def apply_trainee_ruling(scenario: Scenario, answer: TraineeAnswer) -> Continuation:
    """The scenario's deal played on with the trainee's ruling carried out (``CannotApply``
    with the reason when the table cannot carry it out)."""
    from paiju.games import adapter_for

    log = scenario.log
    options = log.header.get("options") or {}
    adapter = adapter_for(log.game)
    seating = game_spec(log.game).seating
    rules = adapter.rules_from_dict(log.header.get("rules") or {})
    unit_index, number = ruling_number(scenario)
    run_batch = Batch(game=log.game, unit=options.get("unit", "deals"), count=options.get("count", 1),
                      seed=log.seed, rules=rules.to_dict(), agents=tuple(options["agents"]),
                      options={k: v for k, v in options.items() if k in ("referee", "infractions", "report_step")})
    engine, started = batch.start_unit(adapter, run_batch.unit, run_batch.seed, unit_index, rules, run_batch.options)
    agents, rulebook = batch.unit_players(adapter, run_batch, unit_index)
    if rulebook is None:
        raise CannotApply("this scenario's log is not refereed")
    seat = SubstituteSeat(rulebook, number, lambda engine, own: trainee_ruling(answer, own, engine.stream.deal, seating),
                          log.game)
    keep = _Keep()
    target_deal = scenario.log.events[scenario.ruling_index].deal
    try:
        run(engine, agents, [keep, _StopAfterDeal(target_deal)], referee=seat, max_steps=100_000)
    except _DealOver:
        pass
    except _TooLong:
        if seat.replaced is None:
            raise CannotApply("the deal could not be played again up to the ruling in time") from None
        raise CannotApply("the deal does not go on under this ruling: the table keeps ruling without getting "
                          "anywhere (no end in sight)") from None
    except TableStuck:
        raise
    except RulingRefused as exc:
        raise CannotApply(f"the table refused the ruling: {exc}") from None
    except Exception as exc:
        # Only what follows the trainee's ruling is the ruling's doing; before it the unit
        # replays its own log, and a failure there is a bug to report, not to explain.
        if seat.replaced is None:
            raise
        reason = str(exc) if isinstance(exc, PaijuError) else f"the table is left with no way to go on ({type(exc).__name__})"
        raise CannotApply(f"the deal cannot go on under this ruling: {reason}") from None
    events = [started, *keep.events]
    at = next((i for i, e in enumerate(events) if isinstance(e, RULING_EVENTS)
               and getattr(e, "summary", "") == "the trainee's ruling"), None)
    if at is None:
        raise CannotApply("the deal never reached the scenario's ruling when played again")
    cut = _deal_end(events, at)
    events = events[:cut]
    part = Log(header=log.header, events=tuple(events), lines=tuple(encode_event(e) for e in events))
    return Continuation(part, at, outcome_lines(part))


class _DealOver(Exception):
    """Raised by ``_StopAfterDeal`` once the scenario's deal has ended."""


class _StopAfterDeal:
    """Stops the run at the first event of the deal after ``deal`` (a match plays on)."""

    def __init__(self, deal: int) -> None:
        self.deal = deal

    def on_events(self, engine: Any, events: list[Event]) -> None:
        if any(e.deal > self.deal for e in events):
            raise _DealOver


def _deal_end(events: Sequence[Event], at: int) -> int:
    """The index just past the last event of the deal that event ``at`` belongs to."""
    deal = events[at].deal
    end = at
    while end < len(events) and events[end].deal == deal and not (end > at and isinstance(events[end], UnitStarted)):
        end += 1
    return end


def outcome_lines(log: Log, last: int = 4) -> tuple[str, ...]:
    """The deal's result in words: the texts of the replay's last steps."""
    from paiju.replay.fold import Fold

    fold = Fold(log, None, "continuation")
    texts = [step.text for step in fold.steps()]
    return tuple(texts[-last:])
