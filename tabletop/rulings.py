"""What every engine checks before it carries a ruling out (the ruling is data; the engine's
own handler tables, keyed by effect and sanction kind, do the carrying out)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tabletop.errors import RulingRefused


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

    def take(self, kind: str, **fields: Any) -> Any:
        """The first effect of ``kind`` with these ``fields`` later in the list (it is then
        carried out with the current one), or None."""
        for j in range(self.index + 1, len(self.effects)):
            e = self.effects[j]
            if j not in self.done and e.KIND == kind and all(getattr(e, k) == v for k, v in fields.items()):
                self.done.add(j)
                return e
        return None


def refuse(effect: Any, why: str) -> RulingRefused:
    """The refusal of one effect (or sanction) a table cannot carry out, saying why."""
    return RulingRefused(f"{effect}: {why}")
