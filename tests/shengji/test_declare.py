"""shengji.md §2, declaring trump, as pure functions (shengji.declare)."""

import pytest

from shengji.declare import (
    BIG_JOKER_PAIR, LEVEL_PAIR, SINGLE, SMALL_JOKER_PAIR, Declaration, can_declare,
    declaration_options, flip_kitty, strength, why_not_overcall,
)
from tabletop.cards import count_list, parse_cards

L7 = 5  # level 7


def cards(text):
    return parse_cards(text)


def test_single_level_card_declares_its_suit():
    assert strength(cards("H7"), L7) == SINGLE
    assert Declaration(0, "H7").trump == "H"
    assert why_not_overcall(0, cards("H7"), L7, None) is None


def test_non_level_card_cannot_declare():
    assert strength(cards("H8"), L7) == 0
    assert why_not_overcall(0, cards("H8"), L7, None) is not None


def test_single_joker_never_declares():
    assert strength(cards("BJ"), L7) == 0
    assert strength(cards("RJ"), L7) == 0
    assert "declaration" in why_not_overcall(0, cards("RJ"), L7, None)


def test_two_level_cards_of_different_suits_are_not_a_declaration():
    assert strength(cards("H7 S7"), L7) == 0


def test_strength_order_single_pair_small_jokers_big_jokers():
    assert strength(cards("S7 S7"), L7) == LEVEL_PAIR
    assert strength(cards("BJ BJ"), L7) == SMALL_JOKER_PAIR
    assert strength(cards("RJ RJ"), L7) == BIG_JOKER_PAIR
    assert Declaration(1, "BJ BJ").trump is None


def test_pair_overrides_single():
    standing = Declaration(0, "H7")
    assert why_not_overcall(1, cards("S7 S7"), L7, standing) is None
    assert why_not_overcall(1, cards("D7 D7"), L7, standing) is None


def test_single_does_not_override_single():
    assert why_not_overcall(1, cards("S7"), L7, Declaration(0, "H7")) == "a single does not override a single"


@pytest.mark.parametrize("new", ["S7 S7", "D7 D7"])
def test_pair_vs_pair_different_suit_no(new):
    standing = Declaration(0, "H7 H7")
    assert why_not_overcall(1, cards(new), L7, standing, "no") == "a pair does not override another pair"


def test_pair_vs_pair_higher_suit_overrides_lower_only():
    standing = Declaration(0, "H7 H7")
    assert why_not_overcall(1, cards("S7 S7"), L7, standing, "higher_suit") is None
    assert "lower suit" in why_not_overcall(1, cards("C7 C7"), L7, standing, "higher_suit")


def test_joker_pairs_override_any_level_pair_and_big_beats_small():
    assert why_not_overcall(1, cards("BJ BJ"), L7, Declaration(0, "S7 S7")) is None
    assert why_not_overcall(1, cards("RJ RJ"), L7, Declaration(0, "S7 S7")) is None
    assert why_not_overcall(1, cards("RJ RJ"), L7, Declaration(0, "BJ BJ")) is None
    assert why_not_overcall(1, cards("BJ BJ"), L7, Declaration(0, "RJ RJ")) is not None


def test_reinforce_own_single_into_pair():
    standing = Declaration(2, "C7")
    assert why_not_overcall(2, cards("C7 C7"), L7, standing) is None
    assert declaration_options(count_list(cards("C7 C7 S7 S7 BJ BJ")), L7, 2, standing) == [tuple(cards("C7 C7"))]


def test_seat_may_not_overcall_itself_with_another_suit():
    standing = Declaration(2, "C7")
    assert "reinforce" in why_not_overcall(2, cards("S7 S7"), L7, standing)
    assert "reinforce" in why_not_overcall(2, cards("BJ BJ"), L7, standing)


def test_partner_may_overcall():
    assert why_not_overcall(2, cards("S7 S7"), L7, Declaration(0, "H7")) is None


def test_options_with_nothing_standing():
    hand = count_list(cards("S7 H7 H7 BJ RJ RJ D2"))
    opts = declaration_options(hand, L7, 0, None)
    assert opts == [tuple(cards(t)) for t in ("S7", "H7", "H7 H7", "RJ RJ")]
    assert can_declare(hand, L7, 0, None)


def test_options_over_a_pair_higher_suit():
    hand = count_list(cards("S7 S7 C7 C7"))
    standing = Declaration(1, "H7 H7")
    assert declaration_options(hand, L7, 0, standing, "no") == []
    assert declaration_options(hand, L7, 0, standing, "higher_suit") == [tuple(cards("S7 S7"))]
    assert not can_declare(hand, L7, 0, standing, "no")


def test_nothing_overrides_big_joker_pair():
    hand = count_list(cards("S7 S7 BJ BJ"))
    assert declaration_options(hand, L7, 0, Declaration(1, "RJ RJ")) == []


def test_can_declare_needs_level_card_or_joker_pair():
    assert not can_declare(count_list(cards("S8 BJ RJ")), L7, 0, None)
    assert can_declare(count_list(cards("BJ BJ")), L7, 0, None)


def test_flip_kitty_first_level_card_sets_trump():
    assert flip_kitty(cards("SA HK D7 C7 S2 S3 S4 S5"), L7) == ("D", 3)


def test_flip_kitty_highest_card_sets_trump_ties_to_first_turned():
    assert flip_kitty(cards("S2 HK DA CA S3 S4 S5 S6"), L7) == ("D", 8)


def test_flip_kitty_joker_highest_means_no_trump():
    assert flip_kitty(cards("S2 HK DA BJ S3 S4 S5 S6"), L7) == (None, 8)
