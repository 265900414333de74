"""A view taken after every batch reuses the parts it built last time whose inputs are
unchanged (``guandan.view``: seat records, exposures, lead options, the set-up, the census;
``shengji.view``: seat records, the count of the tricks played): the view so taken equals the
one built afresh, after every batch of refereed runs with many infractions (exposed and
penalty cards, lead options, bars, cards laid on the table), for the referee and for each
seat, with views of another table taken in between."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from tests.paiju.replay.test_rerun_views import play


class _Last:
    """Keeps the engine of a run (another table to look at)."""

    engine: Any = None

    def on_events(self, engine: Any, events: list[Any]) -> None:
        self.engine = engine


class _Afresh:
    """After each batch: the view as taken (its parts reused where unchanged) against the view
    with nothing remembered; then a view of another table, so the next batch's parts are
    compared against that table's."""

    def __init__(self, view: Any, other: Any) -> None:
        self.view = view
        self.other = other
        self.compared = 0
        self.exposed = 0

    def on_events(self, engine: Any, events: list[Any]) -> None:
        for viewer in (None, self.compared % 4):
            taken = self.view.table_view(engine, viewer)
            self.view._LAST.clear()
            assert taken == self.view.table_view(engine, viewer), (viewer, events[-1])
        self.compared += 1
        self.exposed += any(seat.exposed for seat in taken.seats)
        self.view.table_view(self.other)


@pytest.mark.parametrize("game, seed, unit", [("guandan", 1, "deals"), ("guandan", 2, "matches"),
                                              ("guandan", 3, "matches"), ("shengji", 1, "deals"),
                                              ("shengji", 2, "matches")])
def test_a_view_reusing_its_parts_equals_one_built_afresh(tmp_path: Path, game: str, seed: int, unit: str) -> None:
    other = _Last()
    play(tmp_path, game, seed + 50, "deals", 0.3, [other])
    afresh = _Afresh(importlib.import_module(f"{game}.view"), other.engine)
    play(tmp_path, game, seed, unit, 0.3, [afresh])
    assert afresh.compared > 100 and afresh.exposed > 10
