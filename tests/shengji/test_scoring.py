"""§6 points and kitty, §7 level result (shengji.scoring)."""

import numpy as np
import pytest

from tabletop.cards import full_deck, to_counts
from shengji.context import Context
from shengji.rules import ShengjiRules
from shengji.scoring import PACK_POINTS, card_points, kitty_multiplier, level_result

L7C = Context("7", "C")
POWER = ShengjiRules(kitty_multiplier="power")


def test_rule_6_points_five_ten_king():
    assert card_points("S5") == 5
    assert card_points("HT") == 10
    assert card_points("DK") == 10
    assert card_points("SA SQ SJ S9 BJ RJ") == 0
    assert card_points("S5 H5 CT DK") == 30


def test_rule_6_two_hundred_points_in_the_pack():
    assert card_points(full_deck(2)) == PACK_POINTS == 200


def test_card_points_accepts_count_vectors():
    assert card_points(to_counts("S5 S5 SK")) == 20


# -- kitty multiplier (§6) ---------------------------------------------------------------------

def test_rule_6_kitty_single_lead_times_two():
    assert kitty_multiplier("SA", L7C) == 2


def test_rule_6_kitty_pair_lead_times_four():
    assert kitty_multiplier("SASA", L7C) == 4


def test_rule_6_kitty_two_pair_tractor_lead_times_eight():
    assert kitty_multiplier("S5S5S6S6", L7C) == 8


def test_rule_6_kitty_three_pair_tractor_lead_times_twelve():
    assert kitty_multiplier("S5S5S6S6S8S8", L7C) == 12


def test_rule_6_kitty_throw_counts_its_largest_unit():
    assert kitty_multiplier("SASA SK SQ", L7C) == 4
    assert kitty_multiplier("S2S2S3S3 SASA SK", L7C) == 8
    assert kitty_multiplier("SA SK SQ", L7C) == 2


def test_rule_6_kitty_power_option_two_to_the_size():
    assert [kitty_multiplier(lead, L7C, POWER) for lead in
            ("SA", "SASA", "S5S5S6S6", "S5S5S6S6S8S8")] == [2, 4, 16, 64]
    assert kitty_multiplier("S5S5S6S6", Context("7", "C", POWER)) == 16


# -- level result (§7) ----------------------------------------------------------------------------

@pytest.mark.parametrize("points,result", [
    (0, ("banker", 3)),
    (5, ("banker", 2)), (35, ("banker", 2)),
    (40, ("banker", 1)), (75, ("banker", 1)),
    (80, ("attackers", 0)), (115, ("attackers", 0)),
    (120, ("attackers", 1)), (155, ("attackers", 1)),
    (160, ("attackers", 2)), (195, ("attackers", 2)),
    (200, ("attackers", 3)), (235, ("attackers", 3)),
    (240, ("attackers", 4)), (275, ("attackers", 4)),
    (280, ("attackers", 5)), (400, ("attackers", 8)),
])
def test_rule_7_score_table(points, result):
    assert level_result(points) == result


def test_rule_7_totals_between_table_rows_belong_to_the_lower_band():
    assert level_result(39) == ("banker", 2)
    assert level_result(79) == ("banker", 1)
    assert level_result(1) == ("banker", 2)


def test_rule_7_negative_total_after_penalties_reads_as_zero():
    assert level_result(-10) == ("banker", 3)


def test_level_result_accepts_numpy_integers_and_rejects_others():
    assert level_result(np.int64(120)) == ("attackers", 1)
    with pytest.raises(TypeError):
        level_result(80.0)
    with pytest.raises(TypeError):
        level_result(True)
