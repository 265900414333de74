"""Replaying a log with its rulings carried out from their logged data alone (both games):
``check_with_logged_rulings`` runs ``paiju replay --check --logged-rulings`` (no rulebook
referee: each logged ruling is the referee's seat's action, re-applied as logged) and
returns the effect and sanction kinds the log's rulings carried out."""

from __future__ import annotations

from typing import Any

from paiju.replay.check import check_log


def check_with_logged_rulings(log: Any) -> list[str]:
    """Asserts the log is reproduced with its own rulings; returns what they carried out."""
    result = check_log(log, logged_rulings=True)
    assert result.ok, result.message
    carried: list[str] = []
    for e in log.events:
        if e.KIND == "ref.ruling":
            carried += [d["kind"] for d in e.rectification] or ["(none)"]
            carried += [d["sanction"]["kind"] for d in e.sanctions]
    return carried
