"""What every game's refereed mode shares: the irregular-attempt event base type and
the engine-side wait for a ruling.

In refereed mode an engine does not refuse an action that breaks a rule the penalty code
covers: it records the attempt as an event derived from ``Irregular`` (its own ``KIND``,
e.g. ``gd.irregular``; ``ACTION = True`` so a replay re-applies it) and waits for the
referee. ``irregularity`` is a stable id (``play_out_of_turn``, ``wrong_follow`` …);
``facts`` are (name, value) pairs a referee or trainee needs: whose turn it was, the top
play, counts, the stage at which it was discovered."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from tabletop.events import Event

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
