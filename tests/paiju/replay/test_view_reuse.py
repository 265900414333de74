"""A 掼蛋 view taken after every batch reuses the parts it built last time whose inputs are
unchanged (``guandan.view``: seat records, exposures, lead options, the set-up, the census):
the view so taken equals the one built afresh, after every batch of refereed runs with many
infractions (exposed and penalty cards, lead options, bars, cards laid on the table), for the
referee and for each seat, with views of another table taken in between."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import guandan.view
from guandan.deal import Deal
from tests.paiju.replay.test_rerun_views import play


class _Afresh:
    """After each batch: the view as taken (its parts reused where unchanged) against the view
    with nothing remembered; then a view of another table, so the next batch's parts are
    compared against that table's."""

    def __init__(self, other: Any) -> None:
        self.other = other
        self.compared = 0
        self.exposed = 0

    def on_events(self, engine: Any, events: list[Any]) -> None:
        for viewer in (None, self.compared % 4):
            taken = guandan.view.table_view(engine, viewer)
            guandan.view._LAST.clear()
            assert taken == guandan.view.table_view(engine, viewer), (viewer, events[-1])
        self.compared += 1
        self.exposed += bool(taken.exposures)
        guandan.view.table_view(self.other)


@pytest.mark.parametrize("seed, unit", [(1, "deals"), (2, "matches"), (3, "matches")])
def test_a_view_reusing_its_parts_equals_one_built_afresh(tmp_path: Path, seed: int, unit: str) -> None:
    afresh = _Afresh(Deal.drawn(seed=seed + 100, mode="refereed"))
    play(tmp_path, "guandan", seed, unit, 0.3, [afresh])
    assert afresh.compared > 100 and afresh.exposed > 10
