import numpy as np
import pytest
from hypothesis import given, strategies as st

from tabletop.cards import (
    CARDS, Card, CardParseError, as_cards, codes, count_list, format_cards, from_counts, full_deck,
    parse_card, parse_cards, sort_cards, to_counts,
)


def test_notation_round_trips_for_every_card():
    for card in CARDS:
        assert parse_card(str(card)) is card
        assert Card(str(card)) is card


def test_index_layout_suit_major_then_rank_jokers_last():
    assert int(Card("S2")) == 0 and int(Card("SA")) == 12
    assert int(Card("H2")) == 13 and int(Card("DA")) == 51
    assert int(Card("BJ")) == 52 and int(Card("RJ")) == 53


def test_card_properties():
    assert (Card("HT").suit, Card("HT").rank, Card("HT").rank_index) == ("H", "T", 8)
    assert Card("BJ").suit is None and Card("BJ").rank == "BJ" and Card("BJ").is_joker
    assert Card("RJ").rank_index == 14 and Card("RJ").suit_index == 4


def test_two_copies_are_equal_values():
    a, b = parse_cards("SA SA")
    assert a == b and a is b and hash(a) == hash(b)


@pytest.mark.parametrize("text, expected", [
    ("S10", ["ST"]), ("10S", ["ST"]), ("♠A ♥K ♣2 ♦T", ["SA", "HK", "C2", "DT"]),
    ("A♠", ["SA"]), ("小王 大王", ["BJ", "RJ"]), ("sa,hk;bj", ["SA", "HK", "BJ"]),
    ("SAHKBJ", ["SA", "HK", "BJ"]), ("", []), ("  ", []),
])
def test_parser_accepts_every_notation(text, expected):
    assert [str(c) for c in parse_cards(text)] == expected


@pytest.mark.parametrize("text, bad", [
    ("SA X1 BJ", "X1"), ("S1", "S1"), ("SA 11H", "11H"), ("ZZ", "ZZ"), ("SA,B", "B"),
])
def test_parser_names_the_bad_token(text, bad):
    with pytest.raises(CardParseError) as err:
        parse_cards(text)
    assert repr(bad) in str(err.value)
    assert "\n" not in str(err.value)


def test_card_rejects_out_of_range_index():
    with pytest.raises(CardParseError):
        Card(54)


def test_full_deck_has_108_cards_two_of_each():
    deck = full_deck(2)
    assert len(deck) == 108
    assert (to_counts(deck) == 2).all()


@given(st.lists(st.integers(0, 53), max_size=60))
def test_count_vector_round_trip(indices):
    cards = [CARDS[i] for i in indices]
    vec = to_counts(cards)
    assert vec.dtype == np.int8 and vec.sum() == len(cards)
    assert from_counts(vec) == sort_cards(cards)
    assert count_list(cards) == vec.tolist()
    assert as_cards(vec) == sort_cards(cards)
    assert parse_cards(format_cards(cards)) == cards
    assert codes(cards) == tuple(str(c) for c in cards)


def test_sort_order_is_rank_then_suit():
    assert format_cards(sort_cards(parse_cards("RJ DA S2 BJ SA H2"))) == "S2 H2 SA DA BJ RJ"
