"""Refereed units, built from what a log header says.

A header's ``options`` with ``referee`` / ``infractions`` (``enforcement.setup``) ask for
the engine in refereed mode, a fresh rulebook referee in the referee's seat and, with
infractions, the agents wrapped in seeded infraction injectors. A unit is laid out as `paiju simulate` lays
one out (``paiju.sim.batch``): its engine from the seed-tree node ``(seed, index)``, its agents
from ``(seed, index, AGENT + seat)``, the injectors from ``(seed, index, INJECTOR + seat)``,
on a fresh stream opened by ``UnitStarted(index)``. So a refereed unit's log lines depend
only on (game, unit, seed, index, rules, options).

Used by `paiju train` (scenarios are refereed units), by ``paiju.replay.check.check_log`` (a
refereed log is re-run with a fresh referee ruling again) and by the
golden playthroughs (tests/golden/golden_*.jsonl).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tabletop.events import Event, UnitStarted
from tabletop.log import encode, encode_event, make_header

from paiju.sim import batch
from paiju.games import adapter_for


def refereed(options: Mapping[str, Any]) -> bool:
    """Whether a header's options ask for a referee (infractions imply one)."""
    from enforcement.setup import referee_on

    return referee_on(options)


def start_unit(game: str, unit: str, seed: int, index: int, rules: Any,
               options: Mapping[str, Any]) -> tuple[Any, UnitStarted]:
    """``paiju.sim.batch.start_unit`` for a game named by text."""
    return batch.start_unit(adapter_for(game), unit, seed, index, rules, dict(options))


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
    (``options``: unit, agents, referee, infractions) — exactly as `paiju simulate` plays it."""
    adapter = adapter_for(game)
    options = dict(options)
    run = batch.Batch(game=game, unit=options.get("unit", "deals"), count=options.get("count", 1), seed=seed,
                      rules=rules.to_dict(), agents=tuple(options["agents"]),
                      options={k: v for k, v in options.items() if k in ("referee", "infractions", "report_step")})
    events: list[Event] = []
    result = batch.play_unit(adapter, run, rules, index, None, observers=[_Keep(events)], max_steps=max_steps)
    events.insert(0, UnitStarted(deal=0, seq=0, index=index))
    header = make_header(game, seed, rules.to_dict(), options)
    return PlayedUnit(header, tuple(events), tuple(encode_event(e) for e in events),
                      result.result if isinstance(result, batch.RefereedResult) else result)
