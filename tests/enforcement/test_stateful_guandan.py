"""Hypothesis stateful test of the 掼蛋 engine under its referee: arbitrary legal and
irregular actions (tests/enforcement/stateful_table.py), every invariant of
enforcement.invariants checked after each step (cards conserved, barred seats silent,
restrictions and penalty cards in legal_actions(), lead options asked first, every
irregularity ruled once and in time, scoring and sanctions consistent, the next deal's
procedure after 单下/双下, every ruling's listed effects carried out)."""

from guandan.deal import Deal
from guandan.match import Match
from tests.enforcement.stateful_table import RefereedTableMachine, machine_settings


class GuandanTable(RefereedTableMachine):
    GAME = "guandan"

    def new_engine(self, seed: int, match: bool):
        if match:
            return Match(seed, mode="refereed", report_step=True)
        return Deal.drawn(seed, mode="refereed", report_step=True)


GuandanTable.TestCase.settings = machine_settings()
TestGuandanRefereedTable = GuandanTable.TestCase
