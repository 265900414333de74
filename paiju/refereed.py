"""Refereed units, built from what a log header says.

A header's ``options`` with ``referee`` / ``infractions`` (``enforcement.setup``) ask for
the engine in refereed mode, a fresh referee observing it first and, with infractions, the
agents wrapped in seeded infraction injectors. A unit is laid out as `paiju simulate` lays
one out (``paiju.batch``): its engine from the seed-tree node ``(seed, index)``, its agents
from ``(seed, index, AGENT + seat)``, the injectors from ``(seed, index, INJECTOR + seat)``,
on a fresh stream opened by ``UnitStarted(index)``. So a refereed unit's log lines depend
only on (game, unit, seed, index, rules, options).

Used by `paiju train` (scenarios are refereed units), by ``paiju.replay.check_log`` (a
refereed log is re-run with a fresh referee and ``enforcement.setup.answer``) and by the
golden playthroughs (tests/golden/golden_*.jsonl).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

import enforcement.referee  # noqa: F401  (registers ref.ruling / ref.unresolved: refereed logs can be read)
from tabletop import rng as streams
from tabletop.events import Event, EventStream, UnitStarted
from tabletop.log import encode, encode_event, make_header

from paiju.games import adapter_for


def refereed(options: Mapping[str, Any]) -> bool:
    """Whether a header's options ask for a referee (infractions imply one)."""
    from enforcement.setup import referee_on

    return referee_on(options)


def engine_keywords(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The engine keywords for the header's options (``enforcement.setup.engine_options``);
    a 双升 engine has no 报牌 step, so it only takes the mode."""
    from enforcement.setup import engine_options

    kw = engine_options(options)
    if game == "shengji":
        kw.pop("report_step", None)
    return kw


def new_engine(game: str, unit: str, seed: int, index: int, rules: Any, stream: EventStream,
               options: Mapping[str, Any]) -> Any:
    """Unit ``index``'s engine (a deal or a match) as ``paiju.games`` builds it, in the mode
    the options ask for."""
    from tabletop.rng import child_seed

    kw = engine_keywords(game, options)
    if game == "guandan":
        from guandan.deal import Deal
        from guandan.match import Match

        if unit == "matches":
            return Match(child_seed(seed, index), rules, stream=stream, **kw)
        return Deal.drawn(seed, "2", deal_number=index + 1, rules=rules, stream=stream, **kw)
    from shengji.deal import Deal as SjDeal
    from shengji.match import Match as SjMatch

    if unit == "matches":
        return SjMatch(child_seed(seed, index), rules, stream=stream, **kw)
    return SjDeal(child_seed(seed, index), rules=rules, stream=stream, deal_number=index + 1, **kw)


def start_unit(game: str, unit: str, seed: int, index: int, rules: Any,
               options: Mapping[str, Any]) -> tuple[Any, UnitStarted]:
    """``paiju.batch.start_unit`` for a refereed unit: the engine on a fresh stream and the
    ``UnitStarted`` event that opens the unit (already taken from the stream)."""
    stream = EventStream()
    started = stream.emit(UnitStarted, index=index)
    stream.take()
    return new_engine(game, unit, seed, index, rules, stream, options), started


def make_referee(game: str) -> Any:
    from enforcement.setup import make_referee as make

    return make(game)


@attrs.frozen
class PlayedUnit:
    """A refereed unit played to its end: its log (header line, then one line per event)
    and the events themselves, in log order."""

    header: dict[str, Any]
    events: tuple[Event, ...]
    lines: tuple[str, ...]
    result: Any

    def text(self) -> str:
        """The whole log file's text."""
        return "".join(line + "\n" for line in (encode(self.header), *self.lines))


class _Keep:
    def __init__(self, events: list[Event]) -> None:
        self.events = events

    def on_events(self, engine: Any, events: list[Event]) -> None:
        self.events.extend(events)


def unit_options(unit: str, agents: Sequence[str], infractions: "float | Mapping[str, float]",
                 **extra: Any) -> dict[str, Any]:
    """The header options of a log holding one refereed unit (index 0)."""
    rates: Any = dict(sorted(infractions.items())) if isinstance(infractions, Mapping) else float(infractions)
    return {"unit": unit, "count": 1, "agents": list(agents), "referee": True, "infractions": rates, **extra}


def play_unit(game: str, seed: int, rules: Any, options: Mapping[str, Any], index: int = 0,
              max_steps: int = 50_000) -> PlayedUnit:
    """Play unit ``index`` of a refereed run to its end, as its header describes it
    (``options``: unit, agents, referee, infractions)."""
    from enforcement.setup import infraction_rates, inject
    from tabletop.runner import run

    adapter = adapter_for(game)
    unit = options.get("unit", "deals")
    engine, started = start_unit(game, unit, seed, index, rules, options)
    agents = [adapter.agent_factories[kind](streams.generator(seed, index, streams.AGENT + seat))
              for seat, kind in enumerate(options["agents"])]
    players = inject(agents, infraction_rates(options), seed, index, game)
    events: list[Event] = [started]
    result = run(engine, players, [make_referee(game), _Keep(events)], max_steps=max_steps)
    header = make_header(game, seed, rules.to_dict(), dict(options))
    return PlayedUnit(header, tuple(events), tuple(encode_event(e) for e in events), result)
