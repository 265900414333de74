"""掼蛋 combinations and comparison: docs/rules/guandan.md §2 (rank order, wild card),
§3 (combinations) and §4 (comparison)."""

import copy
import pickle
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings, strategies as st

from guandan.combos import (
    ALL_READINGS, Kind, Reading, beats, readings, why_not_beats, wilds_used,
)
from guandan.rules import GuandanRules
from tabletop.cards import RANKS, parse_cards
from tabletop.errors import CardParseError


def codes_of(cards, level, rules=None):
    return [r.code for r in readings(cards, level, rules)]


def R(code):
    return Reading.from_code(code)


NO_JOKER_PAIR = GuandanRules(joker_pair_in_full_house=False)


# ---------------------------------------------------------------------------------------------
# §2 rank order

def test_rule_2_single_order_big_joker_small_joker_level_card_A_K_down_to_2():
    order = ["SINGLE RJ", "SINGLE BJ", "SINGLE 7", "SINGLE A", "SINGLE K", "SINGLE Q",
             "SINGLE J", "SINGLE T", "SINGLE 9", "SINGLE 8", "SINGLE 6", "SINGLE 5",
             "SINGLE 4", "SINGLE 3", "SINGLE 2"]
    for higher, lower in zip(order, order[1:]):
        assert beats(R(higher), R(lower), "7"), (higher, lower)
        assert not beats(R(lower), R(higher), "7"), (lower, higher)


def test_rule_2_level_rank_leaves_its_natural_place():
    assert beats(R("SINGLE 8"), R("SINGLE 6"), "7")
    assert beats(R("SINGLE 2"), R("SINGLE A"), "2")
    assert not beats(R("SINGLE A"), R("SINGLE 2"), "2")


def test_rule_2_suits_never_break_ties_and_equal_never_beats():
    for cards in ("SA", "HA", "CA", "DA"):
        assert readings(cards, "7") == [R("SINGLE A")]
    assert not beats(R("SINGLE A"), R("SINGLE A"), "7")
    assert not beats(R("PAIR 9"), R("PAIR 9"), "7")


def test_rule_2_level_pair_beats_A_pair():
    assert beats(R("PAIR 7"), R("PAIR A"), "7")
    assert not beats(R("PAIR A"), R("PAIR 7"), "7")


def test_rule_2_level_triple_and_full_house_beat_A():
    assert beats(R("TRIPLE 5"), R("TRIPLE A"), "5")
    assert beats(R("FULL_HOUSE 5"), R("FULL_HOUSE A"), "5")


def test_rule_2_joker_pairs_top_the_pairs():
    assert beats(R("PAIR RJ"), R("PAIR BJ"), "2")
    assert beats(R("PAIR BJ"), R("PAIR 2"), "2")


def test_rule_2_sequences_keep_the_level_rank_in_its_natural_place():
    # At level 7 a straight through 7 is still ordered by its natural lowest rank.
    assert beats(R("STRAIGHT 8"), R("STRAIGHT 7"), "7")
    assert beats(R("STRAIGHT 7"), R("STRAIGHT 3"), "7")
    assert codes_of("S5 C6 D7 S8 S9", "7") == ["STRAIGHT 5"]


def test_rule_2_A_high_straight():
    assert codes_of("ST CJ DQ SK SA", "2") == ["STRAIGHT T"]


def test_rule_2_A_low_straight_is_the_lowest_straight():
    assert codes_of("SA C2 D3 S4 S5", "9") == ["STRAIGHT A"]
    assert beats(R("STRAIGHT 2"), R("STRAIGHT A"), "9")
    assert not beats(R("STRAIGHT A"), R("STRAIGHT 2"), "9")
    assert beats(R("STRAIGHT A"), R("STRAIGHT A"), "9") is False


def test_rule_2_no_wrap_JQKA2():
    assert readings("SJ CQ DK SA S2", "9") == []
    assert readings("SQ CK DA S2 S3", "9") == []


def test_rule_2_A_low_and_high_tubes():
    assert codes_of("SA CA S2 C2 S3 C3", "9") == ["TUBE A"]
    assert codes_of("SQ CQ SK CK SA CA", "9") == ["TUBE Q"]
    assert readings("SK CK SA CA S2 C2", "9") == []


def test_rule_2_A_low_and_high_plates():
    assert codes_of("SA CA DA S2 C2 D2", "9") == ["PLATE A"]
    assert codes_of("SK CK DK SA CA DA", "9") == ["PLATE K"]
    assert readings("SK CK DK S2 C2 D2", "9") == []


def test_rule_2_A_low_sequences_rank_below_the_rest():
    assert beats(R("TUBE 2"), R("TUBE A"), "9")
    assert beats(R("PLATE 2"), R("PLATE A"), "9")
    assert beats(R("PLATE K"), R("PLATE Q"), "9")
    assert beats(R("STRAIGHT_FLUSH S2"), R("STRAIGHT_FLUSH SA"), "9")


# ---------------------------------------------------------------------------------------------
# §2 wild card (逢人配): the two heart level cards

def test_rule_2_only_the_heart_level_card_is_wild():
    assert codes_of("H7 SA", "7") == ["PAIR A"]
    assert readings("S7 SA", "7") == []
    assert readings("H8 SA", "7") == []


def test_rule_2_wild_played_alone_is_a_level_card():
    assert codes_of("H7", "7") == ["SINGLE 7"]
    assert codes_of("H7 H7", "7") == ["PAIR 7"]


def test_rule_2_level_pair_with_a_wild_as_itself():
    assert codes_of("S7 H7", "7") == ["PAIR 7"]
    assert wilds_used("S7 H7", R("PAIR 7"), "7") == 0
    assert wilds_used("H7 H7", R("PAIR 7"), "7") == 0
    assert wilds_used("H7 SA", R("PAIR A"), "7") == 1


def test_rule_2_wild_in_a_pair():
    assert codes_of("H4 SK", "4") == ["PAIR K"]


def test_rule_2_wild_in_a_triple():
    assert codes_of("H4 SK CK", "4") == ["TRIPLE K"]
    assert codes_of("H4 H4 SK", "4") == ["TRIPLE K"]
    assert wilds_used("H4 H4 SK", R("TRIPLE K"), "4") == 2


def test_rule_2_wild_in_the_triple_of_a_full_house():
    assert codes_of("H4 SK CK S3 C3", "4") == ["FULL_HOUSE 3", "FULL_HOUSE K"]


def test_rule_2_wild_in_the_pair_of_a_full_house():
    assert codes_of("SK CK DK H4 S3", "4") == ["FULL_HOUSE K"]
    assert wilds_used("SK CK DK H4 S3", R("FULL_HOUSE K"), "4") == 1


def test_rule_2_two_wilds_as_the_pair_of_a_full_house_stand_as_a_level_pair():
    assert codes_of("SK CK DK H4 H4", "4") == ["FULL_HOUSE K", "BOMB 5xK"]
    assert wilds_used("SK CK DK H4 H4", R("FULL_HOUSE K"), "4") == 0


def test_rule_2_wild_in_a_straight():
    assert codes_of("H4 S6 C7 D8 S9", "4") == ["STRAIGHT 5", "STRAIGHT 6"]
    assert codes_of("H4 H4 S6 C8 DT", "4") == ["STRAIGHT 6"]


def test_rule_2_wild_in_a_tube():
    assert codes_of("H4 S9 C9 ST CT SJ", "4") == ["TUBE 9"]
    assert codes_of("S3 C3 H7 H7 S5 C5", "7") == ["TUBE 3"]
    assert wilds_used("S3 C3 H7 H7 S5 C5", R("TUBE 3"), "7") == 2


def test_rule_2_wild_in_a_plate():
    assert codes_of("H4 S9 C9 ST CT DT", "4") == ["PLATE 9"]
    assert codes_of("H4 H4 S9 C9 ST CT", "4") == ["TUBE 8", "TUBE 9", "PLATE 9"]


def test_rule_2_wild_in_a_bomb():
    assert codes_of("H4 SK CK DK", "4") == ["BOMB 4xK"]
    assert codes_of("H4 H4 SK CK", "4") == ["BOMB 4xK"]


def test_rule_2_nine_card_bomb_with_a_wild():
    cards = "SK SK CK CK DK DK HK HK H4"
    assert codes_of(cards, "4") == ["BOMB 9xK"]


def test_rule_2_ten_card_bomb_with_two_wilds():
    cards = "SK SK CK CK DK DK HK HK H4 H4"
    assert codes_of(cards, "4") == ["BOMB 10xK"]
    assert wilds_used(cards, R("BOMB 10xK"), "4") == 2


def test_rule_2_eight_level_cards_and_two_wilds_make_a_ten_card_level_bomb():
    cards = "S4 S4 C4 C4 D4 D4 H4 H4"
    assert codes_of(cards, "4") == ["BOMB 8x4"]
    assert wilds_used(cards, R("BOMB 8x4"), "4") == 0


def test_rule_2_wild_in_a_straight_flush():
    assert codes_of("H4 S6 S7 S8 S9", "4") == ["STRAIGHT 5", "STRAIGHT 6",
                                               "STRAIGHT_FLUSH S5", "STRAIGHT_FLUSH S6"]
    assert wilds_used("H4 S6 S7 S8 S9", R("STRAIGHT_FLUSH S5"), "4") == 1


def test_rule_2_wild_as_itself_in_a_heart_straight_flush():
    assert codes_of("H2 H3 H4 H5 H6", "4") == ["STRAIGHT 2", "STRAIGHT_FLUSH H2"]
    assert wilds_used("H2 H3 H4 H5 H6", R("STRAIGHT_FLUSH H2"), "4") == 0


def test_rule_2_wild_as_a_level_card_of_another_suit_in_a_straight_flush_counts_as_used():
    assert wilds_used("S2 S3 H4 S5 S6", R("STRAIGHT_FLUSH S2"), "4") == 1
    assert wilds_used("S2 S3 H4 S5 S6", R("STRAIGHT 2"), "4") == 0


@pytest.mark.parametrize("cards", ["H7 BJ", "H7 RJ", "H7 H7 BJ", "H7 BJ RJ RJ", "H7 BJ BJ RJ",
                                   "H7 H7 BJ RJ", "SA CA DA H7 BJ"])
def test_rule_2_wild_never_stands_for_a_joker(cards):
    assert readings(cards, "7") == []


# ---------------------------------------------------------------------------------------------
# §3 combinations

def test_rule_3_single():
    assert codes_of("S9", "2") == ["SINGLE 9"]
    assert codes_of("BJ", "2") == ["SINGLE BJ"]
    assert codes_of("RJ", "2") == ["SINGLE RJ"]


def test_rule_3_pair_of_two_identical_ranks():
    assert codes_of("S9 H9", "2") == ["PAIR 9"]
    assert codes_of("S9 S9", "2") == ["PAIR 9"]
    assert readings("S9 S8", "2") == []


def test_rule_3_joker_pairs_and_never_one_of_each():
    assert codes_of("BJ BJ", "2") == ["PAIR BJ"]
    assert codes_of("RJ RJ", "2") == ["PAIR RJ"]
    assert readings("BJ RJ", "2") == []


def test_rule_3_triple_without_jokers():
    assert codes_of("S9 H9 C9", "2") == ["TRIPLE 9"]
    assert readings("S9 H9 BJ", "2") == []
    assert readings("BJ BJ RJ", "2") == []


def test_rule_3_full_house_triple_plus_pair_of_another_rank():
    assert codes_of("S9 H9 C9 S3 C3", "2") == ["FULL_HOUSE 9"]
    assert readings("S9 H9 C9 S3 C4", "2") == []


def test_rule_3_full_house_with_joker_pair_when_option_on():
    assert codes_of("S9 H9 C9 BJ BJ", "2") == ["FULL_HOUSE 9"]
    assert codes_of("S9 H9 C9 RJ RJ", "2", GuandanRules()) == ["FULL_HOUSE 9"]


def test_rule_3_full_house_with_joker_pair_refused_when_option_off():
    assert readings("S9 H9 C9 BJ BJ", "2", NO_JOKER_PAIR) == []
    assert codes_of("S9 H9 C9 S3 C3", "2", NO_JOKER_PAIR) == ["FULL_HOUSE 9"]


def test_rule_3_full_house_never_with_one_joker_of_each():
    assert readings("S9 H9 C9 BJ RJ", "2") == []


def test_rule_3_straight_exactly_five_consecutive_ranks():
    assert codes_of("S3 C4 D5 S6 H7", "2") == ["STRAIGHT 3"]
    assert readings("S3 C4 D5 S6", "2") == []
    assert readings("S3 C4 D5 S6 H7 S8", "2") == []
    assert readings("S3 C4 D5 S6 H8", "2") == []


def test_rule_3_no_jokers_in_a_straight():
    assert readings("S3 C4 D5 S6 BJ", "2") == []


def test_rule_3_tube_exactly_three_consecutive_pairs():
    assert codes_of("S3 C3 S4 C4 S5 C5", "2") == ["TUBE 3"]
    assert readings("S3 C3 S4 C4", "2") == []
    assert readings("S3 C3 S4 C4 S5 C5 S6 C6", "2") == []
    assert readings("S3 C3 S4 C4 S6 C6", "2") == []


def test_rule_3_plate_exactly_two_consecutive_triples():
    assert codes_of("S3 C3 D3 S4 C4 D4", "2") == ["PLATE 3"]
    assert readings("S3 C3 D3 S5 C5 D5", "2") == []
    assert readings("S3 C3 D3 S4 C4 D4 S5 C5 D5", "2") == []


def test_rule_3_bombs_of_four_to_ten_cards():
    for n in range(4, 11):
        cards = " ".join((["SQ", "HQ", "CQ", "DQ"] * 3)[:n]) if n <= 8 else None
        if cards is None:
            cards = "SQ SQ HQ HQ CQ CQ DQ DQ " + " ".join(["H2"] * (n - 8))
        assert f"BOMB {n}xQ" in codes_of(cards, "2"), n


def test_rule_3_no_jokers_in_a_bomb():
    assert readings("S9 H9 C9 BJ", "2") == []


def test_rule_3_straight_flush():
    assert codes_of("D9 DT DJ DQ DK", "2") == ["STRAIGHT 9", "STRAIGHT_FLUSH D9"]
    assert codes_of("DA D2 D3 D4 D5", "9") == ["STRAIGHT A", "STRAIGHT_FLUSH DA"]
    assert codes_of("DT DJ DQ DK DA", "9") == ["STRAIGHT T", "STRAIGHT_FLUSH DT"]


def test_rule_3_joker_bomb_is_exactly_two_small_two_big():
    assert codes_of("BJ BJ RJ RJ", "2") == ["JOKER_BOMB"]
    assert readings("BJ BJ RJ", "2") == []
    assert readings("BJ RJ RJ", "2") == []


def test_rule_3_five_natural_cards_of_one_rank_are_only_a_bomb():
    assert codes_of("S7 C7 D7 S7 C7", "5") == ["BOMB 5x7"]
    assert codes_of("S7 C7 D7 S7 H5", "5") == ["BOMB 5x7"]


def test_rule_3_three_naturals_and_two_wilds_are_a_full_house_and_a_bomb():
    assert codes_of("S7 C7 D7 H5 H5", "5") == ["FULL_HOUSE 7", "BOMB 5x7"]
    assert wilds_used("S7 C7 D7 H5 H5", R("FULL_HOUSE 7"), "5") == 0
    assert wilds_used("S7 C7 D7 H5 H5", R("BOMB 5x7"), "5") == 2


def test_rule_3_three_level_cards_and_two_wilds_are_a_level_bomb_and_a_full_house():
    # The wilds may stand as themselves (a 5-card bomb of level cards) or as a pair of any
    # other rank (a full house of level cards): both are readings.
    assert codes_of("S7 C7 D7 H7 H7", "7") == ["FULL_HOUSE 7", "BOMB 5x7"]
    assert wilds_used("S7 C7 D7 H7 H7", R("FULL_HOUSE 7"), "7") == 2
    assert wilds_used("S7 C7 D7 H7 H7", R("BOMB 5x7"), "7") == 0


def test_rule_3_spec_example_at_level_5():
    assert codes_of("H5 S7 S8 S9 ST", "5") == [
        "STRAIGHT 6", "STRAIGHT 7", "STRAIGHT_FLUSH S6", "STRAIGHT_FLUSH S7"]


def test_rule_3_a_wild_may_make_several_readings():
    assert codes_of("H4 SK CK S3 C3", "4") == ["FULL_HOUSE 3", "FULL_HOUSE K"]
    assert codes_of("S3 C3 H7 H7 S4 C4", "7") == ["TUBE 2", "TUBE 3", "PLATE 3"]


# ---------------------------------------------------------------------------------------------
# §4 comparison

def test_rule_4_non_bomb_beats_only_its_own_kind():
    assert not beats(R("PAIR 5"), R("STRAIGHT 9"), "2")
    assert not beats(R("TUBE 9"), R("STRAIGHT 3"), "2")
    assert not beats(R("PLATE 9"), R("TUBE 3"), "2")
    assert not beats(R("FULL_HOUSE A"), R("STRAIGHT 3"), "2")
    assert not beats(R("TRIPLE A"), R("PAIR 3"), "2")


def test_rule_4_non_bomb_needs_a_strictly_higher_key():
    assert beats(R("STRAIGHT 6"), R("STRAIGHT 5"), "2")
    assert not beats(R("STRAIGHT 5"), R("STRAIGHT 6"), "2")
    assert beats(R("FULL_HOUSE 3"), R("FULL_HOUSE 2"), "9")


LADDER = ["BOMB 4xA", "BOMB 5x2", "STRAIGHT_FLUSH SA", "BOMB 6x2", "BOMB 7x2", "BOMB 8x2",
          "BOMB 9x2", "BOMB 10x2", "JOKER_BOMB"]


@pytest.mark.parametrize("lower, higher", list(zip(LADDER, LADDER[1:])))
def test_rule_4_bomb_ladder_step(lower, higher):
    assert beats(R(higher), R(lower), "9")
    assert not beats(R(lower), R(higher), "9")


def test_rule_4_straight_flush_between_5_and_6_bombs():
    assert beats(R("STRAIGHT_FLUSH ST"), R("BOMB 5xA"), "2")
    assert beats(R("STRAIGHT_FLUSH SA"), R("BOMB 5x2"), "2")
    assert beats(R("BOMB 6x3"), R("STRAIGHT_FLUSH DT"), "2")
    assert not beats(R("BOMB 5x2"), R("STRAIGHT_FLUSH SA"), "2")


def test_rule_4_same_size_bombs_by_level_aware_rank():
    assert beats(R("BOMB 4x7"), R("BOMB 4xA"), "7")
    assert not beats(R("BOMB 4xA"), R("BOMB 4x7"), "7")
    assert beats(R("BOMB 5x3"), R("BOMB 5x2"), "7")


def test_rule_4_straight_flushes_by_natural_rank_never_by_suit():
    assert beats(R("STRAIGHT_FLUSH S3"), R("STRAIGHT_FLUSH D2"), "3")
    assert not beats(R("STRAIGHT_FLUSH H6"), R("STRAIGHT_FLUSH S6"), "2")
    assert not beats(R("STRAIGHT_FLUSH S6"), R("STRAIGHT_FLUSH H6"), "2")


def test_rule_4_any_bomb_beats_any_non_bomb():
    for bomb in ("BOMB 4x2", "STRAIGHT_FLUSH SA", "JOKER_BOMB"):
        for other in ("SINGLE RJ", "PAIR RJ", "TRIPLE A", "FULL_HOUSE A", "STRAIGHT T",
                      "TUBE Q", "PLATE K"):
            assert beats(R(bomb), R(other), "2")
            assert not beats(R(other), R(bomb), "2")


def test_rule_4_nothing_beats_the_joker_bomb():
    assert not any(beats(r, R("JOKER_BOMB"), "2") for r in ALL_READINGS)
    assert why_not_beats(R("BOMB 10xA"), R("JOKER_BOMB"), "2") == "nothing beats a JOKER_BOMB"


def test_rule_4_reasons():
    assert why_not_beats(R("PAIR 5"), R("STRAIGHT 3"), "2") == "a PAIR cannot beat a STRAIGHT"
    assert why_not_beats(R("PAIR 5"), R("PAIR 9"), "2") == "PAIR 5 does not beat PAIR 9"
    assert why_not_beats(R("PAIR A"), R("BOMB 4x2"), "2") == "a PAIR cannot beat a BOMB"
    assert why_not_beats(R("BOMB 5xA"), R("STRAIGHT_FLUSH S2"), "2") == \
        "BOMB 5xA does not beat STRAIGHT_FLUSH S2"
    assert why_not_beats(R("PAIR 9"), R("PAIR 5"), "2") is None


def test_levels_as_text_or_index():
    assert beats(R("PAIR T"), R("PAIR A"), "10") and beats(R("PAIR T"), R("PAIR A"), "T")
    assert beats(R("PAIR T"), R("PAIR A"), 8)
    assert codes_of("HT SA", "10") == ["PAIR A"]
    with pytest.raises(CardParseError):
        readings("SA", "1")


# ---------------------------------------------------------------------------------------------
# Readings: codes, identity

@pytest.mark.parametrize("code, kind, rank, suit, size", [
    ("SINGLE 7", Kind.SINGLE, "7", None, 1), ("PAIR BJ", Kind.PAIR, "BJ", None, 2),
    ("TRIPLE 9", Kind.TRIPLE, "9", None, 3), ("FULL_HOUSE 9", Kind.FULL_HOUSE, "9", None, 5),
    ("STRAIGHT A", Kind.STRAIGHT, "A", None, 5), ("STRAIGHT T", Kind.STRAIGHT, "T", None, 5),
    ("TUBE 3", Kind.TUBE, "3", None, 6), ("PLATE Q", Kind.PLATE, "Q", None, 6),
    ("BOMB 6x7", Kind.BOMB, "7", None, 6), ("STRAIGHT_FLUSH S6", Kind.STRAIGHT_FLUSH, "6", "S", 5),
    ("JOKER_BOMB", Kind.JOKER_BOMB, None, None, 4),
])
def test_reading_code_fields(code, kind, rank, suit, size):
    r = Reading.from_code(code)
    assert (r.kind, r.rank, r.suit, r.size, r.code) == (kind, rank, suit, size, code)
    assert Reading(kind, rank, suit=suit, size=size) is r


def test_reading_codes_round_trip_for_every_reading():
    assert len(ALL_READINGS) == len({r.code for r in ALL_READINGS}) == 223
    for r in ALL_READINGS:
        assert Reading.from_code(r.code) is r


def test_reading_code_accepts_10_and_lower_case():
    assert Reading.from_code("bomb 10x10").code == "BOMB 10xT"
    assert Reading.from_code("straight_flush h10").code == "STRAIGHT_FLUSH HT"
    assert Reading.from_code("PAIR 10").code == "PAIR T"


@pytest.mark.parametrize("text, words", [
    ("PAIR X", "not a PAIR rank"), ("TRIPLE BJ", "not a TRIPLE rank"), ("FOO 3", "not a combination kind"),
    ("BOMB 3x3", "size 4-10"), ("BOMB 11xK", "size 4-10"), ("STRAIGHT J", "no wrap"),
    ("TUBE K", "no wrap"), ("PLATE A2", "cannot start"), ("STRAIGHT_FLUSH 6", "STRAIGHT_FLUSH <suit>"),
    ("STRAIGHT_FLUSH SJ", "STRAIGHT_FLUSH <suit>"), ("PAIR", "needs a key rank"),
    ("JOKER_BOMB 3", "takes no rank"), ("", "not a combination kind"),
])
def test_bad_reading_codes_say_why(text, words):
    with pytest.raises(CardParseError) as info:
        Reading.from_code(text)
    assert words in str(info.value) and repr(text) in str(info.value)


def test_readings_are_immutable_interned_and_survive_pickle_and_copy():
    r = R("BOMB 6x7")
    with pytest.raises(AttributeError):
        r.rank = "8"
    assert pickle.loads(pickle.dumps(r)) is r
    assert copy.deepcopy(r) is r and copy.copy(r) is r
    assert hash(r) == hash(R("BOMB 6x7")) and {r: 1}[R("BOMB 6x7")] == 1
    with pytest.raises(CardParseError):
        Reading(Kind.BOMB, "7")  # a bomb needs its size


def test_readings_accept_cards_in_any_form():
    assert readings(parse_cards("S9 H9"), "2") == readings("S9 H9", "2") == readings([7, 20], "2")


# ---------------------------------------------------------------------------------------------
# Properties against a naive oracle: substitute each wild by every card, classify plainly.

SUIT_OF = "SHCD"


def _consecutive_start(ranks):
    """Start position (0 = low A) when the distinct ranks are consecutive, else None."""
    for positions in ([r + 1 for r in ranks], [0 if r == 12 else r + 1 for r in ranks]):
        positions = sorted(positions)
        if positions == list(range(positions[0], positions[0] + len(positions))):
            return positions[0]
    return None


def _start_text(position):
    return "A" if position == 0 else RANKS[position - 1]


def _classify(plain, small, big, joker_pair):
    """Codes of concrete cards (no wilds): plain = list of (rank, suit)."""
    n = len(plain) + small + big
    out = set()
    counts = Counter(r for r, _ in plain)
    if n == 1:
        out.add("SINGLE " + (RANKS[plain[0][0]] if plain else ("BJ" if small else "RJ")))
    if n == 2 and (small == 2 or big == 2):
        out.add("PAIR " + ("BJ" if small else "RJ"))
    if small + big == 0 and len(counts) == 1:
        (r, c), = counts.items()
        if n == 2:
            out.add(f"PAIR {RANKS[r]}")
        if n == 3:
            out.add(f"TRIPLE {RANKS[r]}")
        if 4 <= n <= 10:
            out.add(f"BOMB {n}x{RANKS[r]}")
    if n == 4 and small == 2 and big == 2:
        out.add("JOKER_BOMB")
    if n == 5:
        if small + big == 0 and sorted(counts.values()) == [2, 3]:
            t = next(r for r, c in counts.items() if c == 3)
            out.add(f"FULL_HOUSE {RANKS[t]}")
        if joker_pair and (small, big) in ((2, 0), (0, 2)) and list(counts.values()) == [3]:
            out.add(f"FULL_HOUSE {RANKS[next(iter(counts))]}")
    if small + big == 0 and n in (5, 6):
        shape = sorted(counts.values())
        start = _consecutive_start(list(counts))
        if start is not None:
            if shape == [1] * 5:
                out.add(f"STRAIGHT {_start_text(start)}")
                if len({s for _, s in plain}) == 1:
                    out.add(f"STRAIGHT_FLUSH {SUIT_OF[plain[0][1]]}{_start_text(start)}")
            if shape == [2, 2, 2]:
                out.add(f"TUBE {_start_text(start)}")
            if shape == [3, 3]:
                out.add(f"PLATE {_start_text(start)}")
    return out


def naive_readings(cards, level, joker_pair=True):
    """{code: fewest wilds standing for another card} by brute substitution."""
    wild = 13 + level
    wilds = [c for c in cards if c == wild]
    small = sum(1 for c in cards if c == 52)
    big = sum(1 for c in cards if c == 53)
    plain = [(c % 13, c // 13) for c in cards if c < 52 and c != wild]
    if not plain and not small and not big:  # wilds alone are themselves
        return {("SINGLE " if len(wilds) == 1 else "PAIR ") + RANKS[level]: 0}
    found = {}
    for subs in combinations_with_replacement(range(52), len(wilds)):
        concrete = plain + [(c % 13, c // 13) for c in subs]
        for code in _classify(concrete, small, big, joker_pair):
            if code.startswith("STRAIGHT_FLUSH"):
                used = sum(1 for c in subs if c != wild)
            else:
                used = sum(1 for c in subs if c % 13 != level)
            found[code] = min(found.get(code, 99), used)
    return found


@st.composite
def card_sets(draw, max_size=10):
    """Small card sets biased towards combinations: few ranks, few suits, wilds often."""
    level = draw(st.integers(0, 12))
    low = draw(st.integers(0, 12))
    width = draw(st.sampled_from([1, 2, 3, 5, 6]))
    ranks = {(low + i) % 13 for i in range(width)} | ({level} if draw(st.booleans()) else set())
    suits = draw(st.sampled_from(["S", "SH", "SC", "SHCD", "HD"]))
    kinds = sorted({SUIT_OF.index(s) * 13 + r for r in ranks for s in suits} | {13 + level})
    pool = [c for c in kinds for _ in range(2)]  # two decks: at most two of each card
    if draw(st.integers(0, 4)) == 0:
        pool += [52, 52, 53, 53]
    size = draw(st.integers(1, min(max_size, len(pool))))
    positions = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size,
                              unique=True))
    return [pool[i] for i in positions], level


@settings(max_examples=200)
@given(card_sets(), st.booleans())
def test_readings_and_wilds_used_match_a_naive_substitution_oracle(sample, joker_pair):
    cards, level = sample
    rules = GuandanRules(joker_pair_in_full_house=joker_pair)
    expected = naive_readings(cards, level, joker_pair)
    got = readings(cards, level, rules)
    assert {r.code for r in got} == set(expected)
    assert got == sorted(got) and len(set(got)) == len(got)
    for r in got:
        assert wilds_used(cards, r, level, rules) == expected[r.code], r.code


LADDER_TIER = {4: 0, 5: 1, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7}


def _naive_strength(reading, level):
    """(class, value) from the rules text, written independently of combos."""
    def power(rank):
        if rank in ("BJ", "RJ"):
            return 14 if rank == "BJ" else 15
        return 13 if RANKS.index(rank) == level else RANKS.index(rank)

    def position(rank):
        return 0 if rank == "A" else RANKS.index(rank) + 1

    kind = reading.kind
    if kind is Kind.JOKER_BOMB:
        return ("bomb", (9, 0))
    if kind is Kind.BOMB:
        return ("bomb", (LADDER_TIER[reading.size], power(reading.rank)))
    if kind is Kind.STRAIGHT_FLUSH:
        return ("bomb", (2, position(reading.rank)))
    if kind in (Kind.STRAIGHT, Kind.TUBE, Kind.PLATE):
        return (kind.name, position(reading.rank))
    return (kind.name, power(reading.rank))


@settings(max_examples=200)
@given(st.sampled_from(ALL_READINGS), st.sampled_from(ALL_READINGS), st.integers(0, 12))
def test_beats_matches_the_written_order_and_is_irreflexive_and_antisymmetric(a, b, level):
    (ca, va), (cb, vb) = _naive_strength(a, level), _naive_strength(b, level)
    expected = (va > vb) if ca == cb else ca == "bomb"
    assert beats(a, b, level) is expected
    assert not beats(a, a, level)
    assert not (beats(a, b, level) and beats(b, a, level))
    assert (why_not_beats(a, b, level) is None) is expected


def test_beats_is_transitive_over_every_reading_at_one_level():
    level = 5
    above = {r: {s for s in ALL_READINGS if beats(r, s, level)} for r in ALL_READINGS}
    for r, beaten in above.items():
        for s in beaten:
            assert above[s] <= beaten
