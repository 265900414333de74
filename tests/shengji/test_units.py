"""§5 Combinations: pairs, tractors, decomposition of leads (shengji.units)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.cards import count_list, parse_cards, to_counts
from shengji.context import Context
from shengji.rules import ShengjiRules
from shengji.units import (
    Unit, decompose, is_pair, is_tractor, is_valid_lead, shape, shape_of, suit_units,
)

L7C = Context("7", "C")
TWOS = ShengjiRules(permanent_twos=True)


# -- §5 examples (level 7, trump clubs) -------------------------------------------------------

def test_rule_5_example_S6S6S8S8_is_tractor_across_level_gap():
    assert is_tractor("S6S6S8S8", L7C)


def test_rule_5_example_C7C7C8C8_is_not_tractor():
    assert not is_tractor("C7C7C8C8", L7C)


def test_rule_5_example_H7H7C7C7_is_tractor_offsuit_level_to_trump_level():
    assert is_tractor("H7H7C7C7", L7C)


def test_rule_5_example_H7H7D7D7_is_not_tractor_two_offsuit_level_pairs():
    assert not is_tractor("H7H7D7D7", L7C)


def test_rule_5_example_CACAH7H7C7C7_is_tractor_of_three():
    assert is_tractor("CACAH7H7C7C7", L7C)
    (unit,) = decompose("CACAH7H7C7C7", L7C)
    assert unit.kind == "tractor" and unit.length == 3


def test_rule_5_example_C7C7BJBJ_is_tractor():
    assert is_tractor("C7C7BJBJ", L7C)


def test_rule_5_example_BJBJRJRJ_is_tractor():
    assert is_tractor("BJBJRJRJ", L7C)


# -- pairs ---------------------------------------------------------------------------------------

def test_rule_5_pair_is_two_identical_cards():
    assert is_pair("H9H9", L7C)
    assert is_pair("BJBJ")
    assert not is_pair("H7D7", L7C)      # equal rank, different suits
    assert not is_pair("BJRJ", L7C)
    assert not is_pair("H9H9H9", L7C)


# -- tractors ------------------------------------------------------------------------------------

def test_tractor_runs_whole_trump_chain_ace_offlevel_trumplevel_jokers():
    assert is_tractor("CKCKCACAS7S7C7C7BJBJRJRJ", L7C)
    assert is_tractor("CACAD7D7", L7C)
    assert is_tractor("CQCQCKCKCACA", L7C)


def test_tractor_trump_suit_skips_level_rank():
    assert is_tractor("C6C6C8C8", L7C)


def test_not_tractor_offsuit_level_pair_skipping_trump_level_to_joker():
    assert not is_tractor("H7H7BJBJ", L7C)


def test_not_tractor_trump_ace_to_trump_level_skipping_offsuit_level():
    assert not is_tractor("CACAC7C7", L7C)


def test_not_tractor_three_pairs_with_two_offsuit_level_pairs():
    assert not is_tractor("CACAH7H7D7D7", L7C)


def test_not_tractor_ace_two_wrap():
    ctx = Context("7", "D")
    assert not is_tractor("SASAS2S2", ctx)
    assert not is_tractor("SKSKSASAS2S2", ctx)


def test_not_tractor_pairs_of_different_suits():
    assert not is_tractor("S5S5H6H6", L7C)


def test_not_tractor_side_pair_with_trump_pair():
    assert not is_tractor("SASAH7H7", L7C)   # SA is spades, H7 is trump


def test_not_tractor_single_pair_or_gap_or_odd_cards():
    assert not is_tractor("S5S5", L7C)
    assert not is_tractor("S5S5S8S8", L7C)
    assert not is_tractor("S5S5S6S6S6", L7C)
    assert not is_tractor("S5S5S6", L7C)


def test_tractor_at_level_ace_king_meets_offsuit_ace():
    ctx = Context("A", "S")
    assert is_tractor("SQSQSKSK", ctx)
    assert is_tractor("SKSKHAHA", ctx)
    assert not is_tractor("HKHKHAHA", ctx)   # HA is trump, HK is hearts


def test_no_trump_level_pair_then_small_joker_pair_is_tractor():
    ctx = Context("7", None)
    assert is_tractor("H7H7BJBJ", ctx)
    assert is_tractor("H7H7BJBJRJRJ", ctx)
    assert not is_tractor("H7H7S7S7", ctx)


def test_permanent_twos_tractor_chain():
    ctx = Context("7", "C", TWOS)
    assert is_tractor("CACAS2S2C2C2H7H7C7C7", ctx)
    assert is_tractor("C2C2D7D7", ctx)
    assert not is_tractor("S2S2H2H2", ctx)
    assert not is_tractor("CACAC2C2", ctx)   # the off-suit 2 slot lies between
    assert not is_tractor("S2S2H7H7", ctx)   # the trump-suit 2 slot lies between
    assert not is_tractor("S2S2S3S3", ctx)   # side-suit 2s are trumps


def test_permanent_twos_no_trump_two_then_level_then_joker():
    ctx = Context("7", None, TWOS)
    assert is_tractor("S2S2H7H7BJBJ", ctx)


# -- decomposition ------------------------------------------------------------------------------

def test_decompose_single_pair_tractor_units():
    (single,) = decompose("SA", L7C)
    assert (single.kind, single.length, single.size, single.suit) == ("single", 0, 1, "S")
    (pair,) = decompose("SASA", L7C)
    assert (pair.kind, pair.length, pair.size) == ("pair", 1, 2)
    (tractor,) = decompose("S5S5S6S6", L7C)
    assert (tractor.kind, tractor.length, tractor.size, tractor.top) == ("tractor", 2, 4, 4)
    assert isinstance(tractor, Unit) and str(tractor) == "S5S5S6S6"


def test_decompose_throw_longest_tractor_then_pairs_then_singles():
    units = decompose("S3S3S4S4S5S5 S9S9 SJ SA", L7C)
    assert [(u.kind, str(u)) for u in units] == [
        ("tractor", "S3S3S4S4S5S5"), ("pair", "S9S9"), ("single", "SA"), ("single", "SJ")]


def test_decompose_tractors_sorted_by_length_then_rank():
    units = decompose("S2S2S3S3 S9S9STST SQSQSKSKSASA", L7C)
    assert [str(u) for u in units] == ["SQSQSKSKSASA", "S9S9STST", "S2S2S3S3"]


def test_decompose_takes_the_whole_run_as_one_tractor():
    assert shape("S2S2S3S3S4S4S5S5", L7C) == (4,)
    assert shape("S5S5S6S6S8S8S9S9", L7C) == (4,)


def test_decompose_offsuit_level_slot_serves_one_tractor_rest_is_pair():
    units = decompose("CACAH7H7S7S7C7C7", L7C)
    assert [u.length for u in units] == [3, 1]
    assert units[1].kind == "pair" and units[1].cards[0].rank == "7"


def test_decompose_trump_throw_across_physical_suits():
    units = decompose("C2 H7H7 BJ", L7C)
    assert [(u.kind, u.suit) for u in units] == [("pair", "T"), ("single", "T"), ("single", "T")]
    assert str(units[1]) == "BJ"


def test_decompose_no_trump_twos_double_slot_two_tractors():
    ctx = Context("7", None, TWOS)
    assert shape("S2S2H2H2S7S7H7H7BJBJ", ctx) == (3, 2)


def test_decompose_mixed_follow_lists_trumps_first():
    units = decompose("SA H5 C2", L7C)
    assert units[0].suit == "T"


def test_valid_lead_is_one_effective_suit():
    assert is_valid_lead("SA", L7C)
    assert is_valid_lead("SASKSK", L7C)
    assert is_valid_lead("C2 H7 BJ", L7C)      # all trumps
    assert not is_valid_lead("", L7C)
    assert not is_valid_lead("SA S7", L7C)     # S7 is trump
    assert not is_valid_lead("SA HA", L7C)


@pytest.mark.parametrize("text,expected", [
    ("SA", (0,)), ("SASA", (1,)), ("SKSKSASA", (2,)), ("SKSKSASA SQ", (2, 0)),
    ("SKSK SJSJ", (1, 1)), ("S2 S3 S4", (0, 0, 0)),
])
def test_shape_lengths(text, expected):
    assert shape(text, L7C) == expected


def test_decompose_accepts_card_lists_and_count_vectors():
    text = "S5S5S6S6SA"
    assert decompose(parse_cards(text), L7C) == decompose(to_counts(text), L7C) == decompose(text, L7C)


# -- properties -------------------------------------------------------------------------------------


@st.composite
def one_suit_cards(draw):
    ctx = Context(draw(st.integers(0, 12)), draw(st.sampled_from([None, "S", "H", "C", "D"])),
                  ShengjiRules(permanent_twos=draw(st.booleans())))
    suit = draw(st.sampled_from([s for s in range(5) if ctx.kinds[s]]))
    kinds = ctx.kinds[suit]
    cards = [c for c in kinds for _ in range(draw(st.sampled_from([0, 0, 1, 2])))]
    return ctx, suit, cards


@given(one_suit_cards())
@settings(max_examples=200)
def test_property_fast_shape_agrees_with_decomposition(case):
    ctx, suit, cards = case
    units = suit_units(count_list(cards), ctx, suit)
    assert shape_of(cards, ctx) == (tuple(u[0] for u in units), tuple(u[1] for u in units))
    assert sum(2 * u[0] if u[0] else 1 for u in units) == len(cards)


@given(one_suit_cards())
@settings(max_examples=200)
def test_property_decomposition_units_are_what_they_say(case):
    ctx, suit, cards = case
    if not cards:
        return
    for u in decompose(cards, ctx):
        if u.kind == "tractor":
            assert is_tractor(u.cards, ctx) and u.length == len(u.cards) // 2 >= 2
        elif u.kind == "pair":
            assert is_pair(u.cards, ctx) and u.length == 1
        else:
            assert len(u.cards) == 1 and u.length == 0
        assert u.top == max(ctx.order(c) for c in u.cards)
    # Lengths never increase along the decomposition.
    lengths = [u.length for u in decompose(cards, ctx)]
    assert lengths == sorted(lengths, reverse=True)
