"""Hypothesis stateful test of the 双升 engine under its referee: arbitrary legal and
irregular actions (tests/enforcement/stateful_table.py), every invariant of
enforcement.invariants checked after each step (cards conserved, the 200 points accounted
for, barred declarations, every irregularity ruled once and in time, points and level
changes consistent with the penalties)."""

from shengji.deal import Deal
from shengji.match import Match
from tests.enforcement.stateful_table import RefereedTableMachine, machine_settings


class ShengjiTable(RefereedTableMachine):
    GAME = "shengji"

    def new_engine(self, seed: int, match: bool):
        if match:
            return Match(seed, mode="refereed")
        return Deal(seed, mode="refereed")


ShengjiTable.TestCase.settings = machine_settings()
TestShengjiRefereedTable = ShengjiTable.TestCase
