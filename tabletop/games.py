"""The registry of games. Each game registers ONE ``GameSpec``: what its own package provides
(rules, deal and match factories, agents, the action codec, its event classes, its seating).
The layers above add their own part of a game (``add_part``: the referee from
``enforcement``, the summaries and replay views from ``paiju``) without the game package
importing upwards. Code outside the game packages asks the registry (``game_spec``) and
never compares a game's name. A game that lives for a while only (a test's) registers with
``registered``, which undoes its registration when the block ends.

The built-in games are registered the first time they are asked for (their packages are
imported then, so `paiju rules` stays quick); any other game registers itself with
``register``."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import Any

import attrs

from tabletop.errors import OptionError
from tabletop.events import Event, EventStream
from tabletop.seats import Seating


@attrs.define
class GameSpec:
    """What one game provides; ``parts``: what the layers above added (by layer name)."""

    name: str
    title: str
    seating: Seating
    rules_from_dict: Callable[[dict[str, Any]], Any]
    new_deal: Callable[..., Any]
    """(root seed, deal index, rules, stream, **engine keywords) → a deal engine."""
    new_match: Callable[..., Any]
    """(root seed, match index, rules, stream, **engine keywords) → a match engine."""
    agents: Mapping[str, Callable[[Any], Any]]
    """Built-in agent name → factory taking the agent's seeded numpy Generator."""
    action_from_event: Callable[[Event], Any]
    events: tuple[type[Event], ...]
    """The game's own event classes (the table's and the referee's are tabletop's)."""
    effects: Callable[[], tuple[Any, ...]] = tuple
    """→ the game's own table effect classes (``tabletop.effects.TableEffect`` kinds only it
    uses), defined on first use: a kind not defined yet is looked for among every registered
    game's (``define_game_effects``), so its logs' rulings decode; a strict run defines none."""
    engine_keywords: frozenset[str] = frozenset({"mode"})
    table_view: Callable[..., Any] | None = None
    """(deal or match engine, viewer seat or None) → the game's typed view of the table
    (``tabletop.view``'s records): what viewers and checkers read instead of a model of their own."""
    engine_from_log: Callable[..., Any] | None = None
    """(a unit's first logged events, rules, **engine keywords) → the engine they say was made
    otherwise than from the seed (given hands), or None: what a replay re-runs such a log on."""
    """The engine keywords the game's factories take (others a header names are left out)."""
    parts: dict[str, Any] = attrs.field(factory=dict)

    def part(self, layer: str) -> Any:
        """The part ``layer`` added for this game (OptionError when it added none)."""
        found = self.parts.get(layer)
        if found is None:
            raise OptionError(f"{self.name}: no {layer} part registered")
        return found

    def new_engine(self, unit: str, seed: int, index: int, rules: Any, stream: EventStream,
                   **engine: Any) -> Any:
        """Unit ``index`` of a run (``unit``: 'deals' or 'matches') with the keywords this
        game takes."""
        make = self.new_match if unit == "matches" else self.new_deal
        return make(seed, index, rules, stream, **{k: v for k, v in engine.items() if k in self.engine_keywords})


_SPECS: dict[str, GameSpec] = {}
_BUILT_IN = {"guandan": "guandan.spec", "shengji": "shengji.spec"}
"""Built-in game → the module whose import registers it."""
_PARTS: dict[str, dict[str, Any]] = {}
"""Layer → game → that layer's part, kept for a game registered later."""


def register(spec: GameSpec) -> GameSpec:
    """Register a game (a second spec under the same name replaces the first)."""
    _SPECS[spec.name] = spec
    for layer, parts in _PARTS.items():
        if spec.name in parts and layer not in spec.parts:
            spec.parts[layer] = parts[spec.name]
    return spec


@contextlib.contextmanager
def registered(spec: GameSpec) -> Iterator[GameSpec]:
    """``spec`` registered for the ``with`` block only: on leaving it, the registry holds
    under ``spec.name`` what it held before (the spec and the layers' parts, those added in the
    block included), so that a test's game is not seen by the next test in the process."""
    name = spec.name
    spec_before = _SPECS.get(name)
    parts_before = {layer: parts[name] for layer, parts in _PARTS.items() if name in parts}
    own_parts_before = dict(spec.parts)
    register(spec)
    try:
        yield spec
    finally:
        for layer, parts in _PARTS.items():
            if layer in parts_before:
                parts[name] = parts_before[layer]
            else:
                parts.pop(name, None)
        spec.parts.clear()
        spec.parts.update(own_parts_before)
        if spec_before is None:
            _SPECS.pop(name, None)
        else:
            _SPECS[name] = spec_before


def game_spec(name: Any) -> GameSpec:
    """The registered game ``name`` (a one-line OptionError naming the known ones)."""
    spec = _SPECS.get(name) if isinstance(name, str) else None
    if spec is None and isinstance(name, str) and name in _BUILT_IN:
        importlib.import_module(_BUILT_IN[name])
        spec = _SPECS.get(name)
    if spec is None:
        raise OptionError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return spec


def game_names() -> tuple[str, ...]:
    """Every game that can be asked for: the built-in ones and those registered since."""
    return tuple(dict.fromkeys([*_BUILT_IN, *_SPECS]))


def add_part(layer: str, game: str, part: Any) -> None:
    """A layer adds its part of ``game`` (kept until the game registers, if it has not)."""
    _PARTS.setdefault(layer, {})[game] = part
    spec = _SPECS.get(game)
    if spec is not None:
        spec.parts[layer] = part


def layer_part(layer: str, game: str, *, load: Mapping[str, str] = {}) -> Any:
    """``game``'s part of ``layer``; ``load``: built-in game → the layer's module whose import
    adds it (imported on first use)."""
    spec = game_spec(game)
    if layer not in spec.parts and game in load:
        importlib.import_module(load[game])
    return spec.part(layer)


def cited_by_referee(game: str, step: str) -> str:
    """The clause ``game``'s referee has the table cite for ``step``, a step the table takes on
    its own, with no ruling at hand to name one (the referee part's ``table_citations``): the
    engine names no clause itself."""
    return str(game_spec(game).part("referee").table_citations[step])


def table_effect_kinds() -> tuple[str, ...]:
    """Every table effect kind: the shared ones (``tabletop.effects``) and each registered
    game's own (its spec's ``effects``; every game loaded)."""
    from tabletop.effects import TableEffect, effect_class, kinds

    shared = [k for k in kinds(TableEffect) if getattr(effect_class(k), "__module__", "") == "tabletop.effects"]
    own = [c.KIND for name in game_names() for c in game_spec(name).effects()]
    return tuple(dict.fromkeys([*shared, *own]))


def define_game_effects() -> None:
    """Every registered game's own table effect classes defined (``GameSpec.effects``)."""
    for spec in list(_SPECS.values()):
        spec.effects()


def events_of(module: Any) -> tuple[type[Event], ...]:
    """The event classes ``module`` defines (a game's events module), for its spec."""
    return tuple(c for c in vars(module).values()
                 if isinstance(c, type) and issubclass(c, Event) and c.__module__ == module.__name__ and c.KIND)


def event_classes(game: Any) -> dict[str, type[Event]]:
    """Every event kind a log of ``game`` may hold → its class: the table's own and the
    referee's (``tabletop``), and the game's (its spec's ``events``). Reading a log needs
    nothing else imported first."""
    from tabletop.events import Note, UnitStarted
    from tabletop.rulings import RulingEvent, UnresolvedEvent
    from tabletop import table_events

    shared: list[type[Event]] = [Note, UnitStarted, RulingEvent, UnresolvedEvent, *events_of(table_events)]
    return {c.KIND: c for c in (*shared, *game_spec(game).events)}


def game_of_kind(kind: str) -> str | None:
    """The game whose own events include ``kind`` (None: no game's), for error messages."""
    for name in game_names():
        if any(c.KIND == kind for c in game_spec(name).events):
            return name
    return None


def features_on_first_use(package: str, features: tuple[str, ...]) -> Callable[[str], ModuleType]:
    """A package's module ``__getattr__`` that imports all its ``features`` the first time any
    is asked for through the package: a game's refereed mode, which a strict deal never reaches,
    so a strict run does not load it."""

    def feature(name: str) -> ModuleType:
        if name not in features:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        for each in features:
            importlib.import_module(f"{package}.{each}")
        module: ModuleType = importlib.import_module(f"{package}.{name}")
        return module
    return feature
