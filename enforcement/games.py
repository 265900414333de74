"""The referee's part of each game, added to the game registry (``tabletop.games``): how to
make its rulebook referee, its infraction catalogue (for injecting irregularities) and its
invariant checker. Code in ``enforcement`` and above asks ``referee_part(game)`` and never
compares a game's name.

A built-in game's part is added when its referee module is first imported (``_BUILT_IN``); any
other game adds its own with ``register_referee``. What only a ruling, an injector or a tool
reads (the infraction catalogue, the invariant checker, the effect events, irregularities,
interactions) may be given as ``OnFirstUse``: a clean refereed run never rules, injects or
checks, so it never imports them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import attrs

from tabletop.errors import OptionError
from tabletop.games import add_part, layer_part

LAYER = "referee"
_BUILT_IN = {"guandan": "enforcement.guandan_referee", "shengji": "enforcement.shengji_referee"}
"""Built-in game → the module whose import adds its referee part."""


@attrs.frozen
class OnFirstUse:
    """A part's value that is ``module``'s ``name``, imported when first read."""

    module: str
    name: str

    def load(self) -> Any:
        return getattr(importlib.import_module(self.module), self.name)


@attrs.frozen
class RefereePart:
    make_referee: Callable[..., Any]
    """(rules=None, fallback=record_only_fallback) → a fresh ``enforcement.referee.Referee``
    (one per match or lone deal: it keeps the match's ledger)."""
    _catalogue: Any
    """→ the game's ``InfractionCatalogue`` (what an injector may commit, and how)."""
    _checker: Any
    """(**options) → the game's invariant ``Checker``."""
    _effect_events: Any
    """How the table shows a ruling's effects carried out (``carried_out.EffectEvents``)."""
    _irregularities: Any = attrs.field(factory=dict)
    """Engine irregularity id → its record (``enforcement.irregularities.Irregularity``: its
    words, stages and the clauses it can be ruled under)."""
    _interactions: Any = None
    """The game's table conditions and happenings (``tabletop.conditions.Interactions``), for
    the fuzzer's interaction coverage; None: the game lists none."""
    table_citations: Any = attrs.field(factory=dict)
    """Step → the clause the table cites when it takes that step on its own, no ruling at hand
    (``tabletop.games.cited_by_referee``): the engine knows what it did, the referee which
    clause that falls under."""

    @property
    def catalogue(self) -> Callable[[], Any]:
        return self._loaded("_catalogue")

    @property
    def checker(self) -> Callable[..., Any]:
        return self._loaded("_checker")

    @property
    def effect_events(self) -> Any:
        return self._loaded("_effect_events")

    @property
    def irregularities(self) -> Any:
        return self._loaded("_irregularities")

    @property
    def interactions(self) -> Any:
        return self._loaded("_interactions")

    def _loaded(self, field: str) -> Any:
        value = getattr(self, field)
        if isinstance(value, OnFirstUse):
            value = value.load()
            object.__setattr__(self, field, value)   # frozen, but loading once is no change of value
        return value


def register_referee(game: str, part: RefereePart) -> None:
    add_part(LAYER, game, part)


def referee_part(game: Any) -> RefereePart:
    """``game``'s referee part (a one-line OptionError when the game has none)."""
    try:
        return layer_part(LAYER, game, load=_BUILT_IN)
    except OptionError as exc:
        raise OptionError(f"no referee for {game!r}: {exc}") from None
