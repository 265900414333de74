"""Hypothesis stateful test of the 双升 engine under its referee: arbitrary legal and
irregular actions (tests/enforcement/stateful_table.py), every invariant of
enforcement.invariants checked after each step (cards conserved, the 200 points accounted
for, barred declarations, every irregularity ruled once and in time, points and level
changes consistent with the penalties). Skipped while the 双升 referee is not available."""

import pytest

from enforcement.invariants import shengji_referee_available

if not shengji_referee_available():  # pragma: no cover - until the 双升 referee lands
    pytest.skip("the 双升 referee is not available", allow_module_level=True)

from shengji.deal import Deal  # noqa: E402
from shengji.match import Match  # noqa: E402
from tests.enforcement.stateful_table import RefereedTableMachine, machine_settings  # noqa: E402


class ShengjiTable(RefereedTableMachine):
    GAME = "shengji"

    def new_engine(self, seed: int, match: bool):
        if match:
            return Match(seed, mode="refereed")
        return Deal(seed, mode="refereed")


ShengjiTable.TestCase.settings = machine_settings()
TestShengjiRefereedTable = ShengjiTable.TestCase
