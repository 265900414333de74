"""Building the referee layer from plain options, so the CLI, batch workers and replay make
the same objects from a log header (``options``: ``{"referee": true, "infractions": RATE}``).

    engine_options(options)               Deal.drawn / Match keywords: mode, report_step
    engine_mode(options)                  'refereed' or 'strict' 
    make_referee(game, rules=None)        a rulebook referee for one match or lone deal
    inject(agents, rates, seed, index)    the agents wrapped in seeded Injectors
    refereed_run(engine, agents, options, seed, index, observers)   all of it, one unit

A referee keeps a ledger per match: build a new one for every unit (deal or match) played.
Replay (``paiju replay --check``) rebuilds the engine with the same ``engine_options``; each
logged action (irregular attempts included) is re-applied as it is, so no injector is
needed, and whenever the referee's seat is to act a fresh referee (``make_referee``) rules
again and its ruling is compared with the logged one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from enforcement.games import referee_part
from enforcement.referee import Fallback, Referee, record_only_fallback
from tabletop import rng as streams
from tabletop.errors import OptionError
from tabletop.rulings import REFEREED, STRICT


def referee_on(options: Mapping[str, Any]) -> bool:
    """Whether a header's options ask for a referee (infractions imply one)."""
    return bool(options.get("referee")) or bool(options.get("infractions"))


def engine_mode(options: Mapping[str, Any]) -> str:
    return REFEREED if referee_on(options) else STRICT


def engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``Deal.drawn`` / ``Match``: the mode, and whether 报牌 is a
    seat's decision (``report_step``): it is when infractions are injected (an agent may
    get it wrong); in a clean refereed run the engine reports, which plays identically and
    costs less. ``options["report_step"]`` overrides."""
    mode = engine_mode(options)
    if mode == STRICT:
        return {"mode": STRICT}
    step = options.get("report_step")
    if step is None:
        rates = infraction_rates(options)
        step = any(rates.values()) if isinstance(rates, dict) else rates > 0
    return {"mode": mode, "report_step": bool(step)}


def infraction_rates(options: Mapping[str, Any]) -> "float | dict[str, float]":
    """The header's ``infractions``: a rate (0-1) or a dict of rates per kind (0 when absent)."""
    value = options.get("infractions") or 0.0
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OptionError(f"options.infractions must be a rate 0-1 or a dict of rates, got {value!r}")
    return float(value)


def make_referee(game: str, rules: Any = None, fallback: Fallback = record_only_fallback) -> Referee:
    """A fresh rulebook referee for ``game`` (one per match or lone deal). ``fallback``
    decides the sanctions of an unresolved irregularity (default: an AdjustedScore that
    changes nothing, recorded as such)."""
    return referee_part(game).make_referee(rules, fallback)


def inject(agents: Sequence[Any], rates: "float | Mapping[str, float]", seed: int, index: int,
           game: str = "guandan") -> list[Any]:
    """Wrap each agent in an ``Injector`` seeded from ``(seed, index, INJECTOR + seat)`` (the
    same seed-tree node as the unit's agents). A zero rate returns the agents unwrapped."""
    if not isinstance(rates, Mapping) and not isinstance(rates, bool) and rates == 0:
        return list(agents)   # a clean run: the injector and the game's catalogue are never imported
    from enforcement.injector import Injector, catalogue_for, normalise_rates

    catalogue = catalogue_for(game)
    rates = normalise_rates(rates, catalogue.kinds)
    if not rates:
        return list(agents)
    return [Injector(agent, streams.generator(seed, index, streams.INJECTOR + seat), rates, catalogue, seat=seat)
            for seat, agent in enumerate(agents)]


def refereed_run(engine: Any, agents: Sequence[Any], options: Mapping[str, Any], seed: int, index: int,
                 observers: Sequence[Any] = (), game: str = "guandan", rules: Any = None) -> tuple[Any, Referee]:
    """Play one unit refereed: the rulebook referee fills the referee's seat, the agents
    wrapped by ``inject``. Returns (result, referee)."""
    from tabletop.runner import run

    referee = make_referee(game, rules)
    players = inject(agents, infraction_rates(options), seed, index, game)
    result = run(engine, players, observers, referee=referee)
    return result, referee


def __getattr__(name: str) -> Any:
    """``make_guandan_referee`` stays importable from here (the README's entry point)
    without loading 掼蛋's rulings, and with them the 掼蛋 engine, for a 双升 run."""
    if name == "make_guandan_referee":
        from enforcement.guandan_referee import make_guandan_referee

        return make_guandan_referee
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
