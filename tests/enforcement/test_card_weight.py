"""双升 heavy (重罚张) and light (轻罚张) penalty cards, SJ-1.3 / SJ-3.1.3."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from enforcement import heavy_cards, is_heavy
from tabletop.cards import CARDS, parse_cards

CONTEXTS = [("2", None), ("2", "H"), ("7", "C"), ("T", "S"), ("A", None)]


@pytest.mark.parametrize("level,trump", CONTEXTS)
@pytest.mark.parametrize("card", ["RJ", "BJ"])
def test_SJ_3_1_3_jokers_are_heavy(card, level, trump):
    assert is_heavy(card, level, trump)


def test_SJ_3_1_3_trump_level_card_and_off_suit_level_cards_are_heavy():
    assert is_heavy("H7", "7", "H")      # 主级牌
    for card in ("S7", "C7", "D7"):       # 副级牌
        assert is_heavy(card, "7", "H")
    assert is_heavy("D7", "7", None)      # no-trump: every level card
    assert is_heavy("S10", "10", "D") and is_heavy("ST", "T", "D")


@pytest.mark.parametrize("level,trump", CONTEXTS)
@pytest.mark.parametrize("rank", ["A", "K", "T", "5"])
def test_SJ_3_1_3_aces_kings_tens_fives_are_heavy_in_every_suit(rank, level, trump):
    for suit in "SHCD":
        assert is_heavy(suit + rank, level, trump)


@pytest.mark.parametrize("level,trump", CONTEXTS)
def test_SJ_3_1_3_QQ_and_JJ_are_heavy_but_single_or_mixed_suit_are_not(level, trump):
    assert is_heavy("SQ SQ", level, trump) and is_heavy("DJ DJ", level, trump)
    assert not is_heavy("SQ", level, trump) and not is_heavy("HJ", level, trump)
    assert not is_heavy("SQ HQ", level, trump) and not is_heavy("SJ CJ", level, trump)


def test_SJ_3_1_3_off_suit_tractor_is_heavy():
    assert is_heavy("S3 S3 S4 S4", "2", "H")
    assert is_heavy("C8 C8 C9 C9 D3", "2", None)
    assert heavy_cards("S3 S3 S4 S4 D3", "2", "H") == parse_cards("S3 S3 S4 S4")


def test_SJ_3_1_3_tractor_skips_the_level_rank():
    # shengji.md §5 examples, L7 trump C
    assert is_heavy("S6 S6 S8 S8", "7", "C")
    assert heavy_cards("S6 S6 S8 S8", "7", "C") == parse_cards("S6 S6 S8 S8")
    assert not is_heavy("S6 S6 S9 S9", "7", "C")


def test_SJ_3_1_3_trump_tractor_of_small_cards_is_heavy():
    assert is_heavy("H3 H3 H4 H4", "2", "H")
    assert not is_heavy("H3 H3 S4 S4", "2", "H")   # different effective suits


def test_two_pairs_not_consecutive_are_light():
    assert not is_heavy("S3 S3 S6 S6", "2", "H")
    assert not is_heavy("S3 S3 H4 H4", "2", "D")


@pytest.mark.parametrize("trump", [None, "S", "H", "C", "D"])
def test_SJ_1_3_seed_example_level_2_exposing_3_4_6_7_8_is_light(trump):
    for suit in "SHCD":
        for rank in "34678":
            assert not is_heavy(suit + rank, "2", trump), suit + rank
    assert not is_heavy("S3 H4 C6 D7 S8", "2", trump)
    assert heavy_cards("S3 H4 C6 D7 S8", "2", trump) == []


def test_light_cards_include_9_Q_J_singles_and_small_pairs():
    for cards in ("S9", "HQ", "CJ", "D9 D9", "S3 S3", "S4 S4 S8 S8"):
        assert not is_heavy(cards, "2", "H"), cards


def test_heavy_cards_picks_out_the_heavy_part():
    assert heavy_cards("S3 SA SQ SQ H4 BJ", "2", "H") == parse_cards("SQ SQ SA BJ")
    assert heavy_cards("S2 H9", "2", "H") == parse_cards("S2")


def test_an_engine_tractor_predicate_is_used_when_given():
    seen = []

    def never(cards):
        seen.append(list(cards))
        return False

    assert not is_heavy("S3 S3 S4 S4", "2", "H", is_tractor=never)
    assert seen == [parse_cards("S3 S3 S4 S4")]
    assert is_heavy("S3 S3 S9 S9", "2", "H", is_tractor=lambda cards: True)


def test_special_small_pairs_only_with_the_option_and_a_void_suit():
    assert not is_heavy("S3 S3", "2", "H", void_suits={"S"})
    assert is_heavy("S3 S3", "2", "H", special_small_pairs=True, void_suits={"S"})
    assert not is_heavy("S3 S3", "2", "H", special_small_pairs=True, void_suits={"D"})
    assert not is_heavy("S3", "2", "H", special_small_pairs=True, void_suits={"S"})
    assert is_heavy("H3 H3", "2", "H", special_small_pairs=True, void_suits={"T"})


def test_level_and_trump_are_checked():
    with pytest.raises(ValueError, match="trump"):
        is_heavy("S3", "2", "X")
    with pytest.raises(ValueError):
        is_heavy("S3", "1", "H")
    assert is_heavy("S5", 0, "H") and not is_heavy("S3", 0, "H")


HEAVY_SINGLE_RANKS = {"A", "K", "T", "5", "BJ", "RJ"}


@settings(max_examples=150, deadline=None)
@given(st.sets(st.sampled_from(CARDS), max_size=12),
       st.sampled_from("23456789TJQKA"), st.sampled_from([None, "S", "H", "C", "D"]))
def test_distinct_cards_are_heavy_exactly_when_one_of_them_is(cards, level, trump):
    expected = any(c.rank in HEAVY_SINGLE_RANKS or c.rank == level for c in cards)
    assert is_heavy(sorted(cards), level, trump) == expected
    assert is_heavy(sorted(cards), level, trump) == bool(heavy_cards(sorted(cards), level, trump))


@pytest.mark.parametrize("level,trump", [("7", "C"), ("2", None), ("A", "H")])
def test_standard_tractor_agrees_with_the_engine(level, trump):
    units = pytest.importorskip("shengji.units")
    context = pytest.importorskip("shengji.context")
    from itertools import combinations
    ctx = context.Context(level, trump)
    for a, b in combinations(CARDS, 2):
        four = [a, a, b, b]
        mine = is_heavy(four, level, trump)
        engine = is_heavy(four, level, trump, is_tractor=lambda cs: units.is_tractor(cs, ctx))
        assert mine == engine, (level, trump, a, b)
