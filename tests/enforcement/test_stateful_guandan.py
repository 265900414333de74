"""Hypothesis stateful test of the 掼蛋 engine under its referee: arbitrary legal and
irregular actions (tests/enforcement/stateful_table.py), every invariant of
enforcement.invariants checked after each step (cards conserved, barred seats silent,
restrictions and penalty cards in legal_actions(), lead options asked first, every
irregularity ruled once and in time, scoring and sanctions consistent, the next deal's
procedure after 单下/双下). ``effects_carried_out`` runs in its own machine, expected to fail
until the 掼蛋 rulings list what the table does (issue 11, mismatch (a))."""

import pytest
from hypothesis import Phase, settings

from guandan.deal import Deal
from guandan.match import Match
from tests.enforcement.stateful_table import RefereedTableMachine, machine_settings
from tests.enforcement.test_effects_carried_out import GUANDAN_MISMATCHES


class GuandanTable(RefereedTableMachine):
    GAME = "guandan"

    def new_engine(self, seed: int, match: bool):
        if match:
            return Match(seed, mode="refereed", report_step=True)
        return Deal.drawn(seed, mode="refereed", report_step=True)


GuandanTable.TestCase.settings = machine_settings()
TestGuandanRefereedTable = GuandanTable.TestCase


class GuandanTableEffects(GuandanTable):
    """The same machine with every ruling's listed effects checked against the table."""

    EFFECTS = True


GuandanTableEffects.TestCase.settings = settings(machine_settings(), phases=[Phase.explicit, Phase.reuse,
                                                                            Phase.generate])  # xfail: no shrinking
TestGuandanRulingsCarriedOut = pytest.mark.xfail(
    strict=False, reason=GUANDAN_MISMATCHES)(GuandanTableEffects.TestCase)
