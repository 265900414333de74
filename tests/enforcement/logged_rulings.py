"""Replaying a log with its rulings carried out from their logged data alone (both games):
``check_with_logged_rulings`` runs ``paiju replay --check`` with ``LoggedRulings`` in the
referee's place and returns the effect and sanction kinds it carried out."""

from __future__ import annotations

from typing import Any

import attrs

import paiju.replay as replay_module
from enforcement.ledger import Imposed
from enforcement.referee import Ruling
from enforcement.sanctions import TableEffect
from enforcement.setup import make_referee
from paiju.replay import check_log


class LoggedRulings:
    """Fills the referee's place from a log: each irregularity gets the ruling the log holds,
    re-emitted as logged and carried out by the engine from its data alone. An
    irregularity the log left unresolved goes to a rulebook referee (its fallback is not a
    ruling)."""

    def __init__(self, events: Any, game: str) -> None:
        self.logged = {(e.deal, e.answers): e for e in events if e.KIND == "ref.ruling"}
        self.fallback = make_referee(game)
        self.carried: list[str] = []

    def on_events(self, engine: Any, events: list) -> None:
        for e in events:
            if e.KIND.endswith(".irregular") and not e.latent:
                answers = e.seq
            elif e.KIND.endswith(".found"):
                answers = e.answers
            else:
                continue
            logged = self.logged.get((e.deal, answers))
            if logged is None:
                self.fallback.on_events(engine, [e])
                continue
            fields = {f.name: getattr(logged, f.name) for f in attrs.fields(Ruling) if f.name not in ("deal", "seq")}
            engine.stream.emit(Ruling, **fields)
            effects = tuple(TableEffect.from_dict(dict(d)) for d in logged.rectification)
            imposed = [Imposed.from_dict(dict(d)) for d in logged.sanctions]
            engine.carry_out(effects, imposed, reason=logged.clause, answers=logged.answers)
            self.carried += [d["kind"] for d in logged.rectification] or ["(none)"]
            self.carried += [d["sanction"]["kind"] for d in logged.sanctions]


def check_with_logged_rulings(log: Any, monkeypatch: Any) -> list[str]:
    """``replay --check`` of ``log`` with every ruling carried out from the log; asserts
    the log is reproduced and returns what was carried out."""
    referees: list[LoggedRulings] = []

    def make(game: str) -> LoggedRulings:
        referees.append(LoggedRulings(log.events, game))
        return referees[-1]

    monkeypatch.setattr(replay_module, "make_referee", make)
    result = check_log(log)
    assert result.ok, result.message
    return [k for r in referees for k in r.carried]
