"""The OGD card and action codec (as OGD writes cards and actions, and its reading quirks): both ways,
round trips on random hands and plays at every level, the wild named as itself, the
jokers, OGD's two reading quirks, and bad input."""

import json

import pytest
from hypothesis import given, strategies as st

from guandan.actions import GiveTribute, Pass, Play, ReturnCard
from guandan.combos import Kind, readings
from guandan.movegen import legal_plays
from tabletop.cards import CARDS, RANKS, full_deck, parse_cards

from paiju.ogd.codec import (
    OgdCodecError, action_from_ogd, action_to_ogd, card_from_ogd, card_to_ogd, cards_from_ogd, rank_from_ogd,
    rank_to_ogd,
)

DECK = full_deck(2)


def test_every_card_round_trips_and_jokers_are_SB_and_HR():
    for card in CARDS:
        assert card_from_ogd(card_to_ogd(card)) == card
    assert card_to_ogd(parse_cards("BJ")[0]) == "SB"
    assert card_to_ogd(parse_cards("RJ")[0]) == "HR"
    assert card_to_ogd(parse_cards("ST")[0]) == "ST"
    assert {card_to_ogd(c) for c in CARDS} == {s + r for s in "SHCD" for r in RANKS} | {"SB", "HR"}


@pytest.mark.parametrize("bad", ["BJ", "RJ", "XX", "S10", "s2", "", "SBB", 7, None, ["S2"]])
def test_only_OGDs_own_card_spelling_is_accepted(bad):
    with pytest.raises(OgdCodecError):
        card_from_ogd(bad)


def test_level_ranks_round_trip():
    for index, text in enumerate(RANKS):
        assert rank_to_ogd(index) == text and rank_from_ogd(text) == index
    for bad in ("10", "B", 2, ""):
        with pytest.raises(OgdCodecError):
            rank_from_ogd(bad)


hands = st.lists(st.integers(0, len(DECK) - 1), min_size=1, max_size=27, unique=True).map(
    lambda picks: [DECK[i] for i in picks])


@given(hand=hands, level=st.integers(0, 12), seat=st.integers(0, 3))
def test_every_play_of_a_random_hand_round_trips_at_every_level(hand, level, seat):
    plays = legal_plays(hand, None, level, expand_suits=True)
    assert plays  # any card is at least a single
    for move in plays:
        play = Play(seat, move.cards, move.reading)
        wire = json.loads(json.dumps(action_to_ogd(play)))
        assert action_from_ogd(wire, seat, level) == play, wire
    for card in hand:
        assert action_from_ogd(action_to_ogd(GiveTribute(seat, card)), seat, level) == GiveTribute(seat, card)
        assert action_from_ogd(action_to_ogd(ReturnCard(seat, card)), seat, level) == ReturnCard(seat, card)


@given(data=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4)
                         | st.sampled_from(["PASS", "Single", "Bomb", "StraightFlush", "FourKings", "tribute",
                                            "back", "SB", "HR", "S2", "H7", "A", "B", "R"]),
                         lambda inner: st.lists(inner, max_size=6), max_leaves=12))
def test_any_json_decodes_to_an_action_or_a_one_line_codec_error(data):
    try:
        action = action_from_ogd(data, 1, 5)
    except OgdCodecError as exc:
        assert "\n" not in str(exc)
    else:
        assert type(action) in (Play, Pass, GiveTribute, ReturnCard)
        assert action_from_ogd(action_to_ogd(action), 1, 5) == action


def test_wild_is_named_as_itself_inside_an_action():
    # level 7: H7 is wild; S3 S4 S5 S6 + H7 standing for the missing card of a straight
    cards = parse_cards("S3 S4 S5 S6 H7")
    plays = {(m.reading.code) for m in legal_plays(cards, None, "7", expand_suits=True) if len(m.cards) == 5}
    assert {"STRAIGHT 3", "STRAIGHT_FLUSH S3", "STRAIGHT_FLUSH S2"} <= plays
    flush = Play(0, cards, "STRAIGHT_FLUSH S3")
    assert action_to_ogd(flush) == ["StraightFlush", "3", ["S3", "S4", "S5", "S6", "H7"]]
    assert action_from_ogd(["StraightFlush", "3", ["H7", "S3", "S4", "S5", "S6"]], 0, "7") == flush
    assert action_from_ogd(["Straight", "3", ["S3", "S4", "S5", "S6", "H7"]], 0, "7") == Play(0, cards, "STRAIGHT 3")


def test_joker_ranks_are_B_and_R():
    assert action_to_ogd(Play(2, parse_cards("BJ"), "SINGLE BJ")) == ["Single", "B", ["SB"]]
    assert action_to_ogd(Play(2, parse_cards("RJ RJ"), "PAIR RJ")) == ["Pair", "R", ["HR", "HR"]]
    assert action_to_ogd(Play(2, parse_cards("BJ BJ RJ RJ"), "JOKER_BOMB")) == ["FourKings", "B", ["SB", "SB", "HR", "HR"]]
    assert action_to_ogd(Play(2, parse_cards("S9 C9 D9 BJ BJ"), "FULL_HOUSE 9")) == ["ThreeWithTwo", "9", ["S9", "C9", "D9", "SB", "SB"]]


def test_low_A_sequences_are_written_A():
    assert action_to_ogd(Play(0, parse_cards("SA D2 C3 H4 S5"), "STRAIGHT A"))[:2] == ["Straight", "A"]
    assert action_to_ogd(Play(0, parse_cards("SA DA S2 D2 S3 D3"), "TUBE A"))[:2] == ["ThreePair", "A"]
    assert action_from_ogd(["Straight", "T", ["ST", "DJ", "CQ", "HK", "SA"]], 0, "2").reading.code == "STRAIGHT T"


def test_quirk_1_same_suit_natural_run_is_offered_as_straight_and_straight_flush():
    """OGD offers it only as StraightFlush; paiju offers both readings the rules give."""
    cards = parse_cards("S3 S4 S5 S6 S7")
    found = {r.code for r in readings(cards, "2")}
    assert found == {"STRAIGHT 3", "STRAIGHT_FLUSH S3"}
    assert action_to_ogd(Play(0, cards, "STRAIGHT 3"))[0] == "Straight"
    assert action_to_ogd(Play(0, cards, "STRAIGHT_FLUSH S3"))[0] == "StraightFlush"


def test_quirk_2_three_level_cards_and_both_wilds_are_offered_as_bomb_and_full_house():
    """OGD offers them only as a 5-card Bomb; paiju also reads the wilds as the pair."""
    cards = parse_cards("S7 C7 D7 H7 H7")
    found = {r.code for r in readings(cards, "7")}
    assert {"BOMB 5x7", "FULL_HOUSE 7"} <= found
    assert action_to_ogd(Play(0, cards, "BOMB 5x7")) == ["Bomb", "7", ["S7", "H7", "H7", "C7", "D7"]]
    assert action_from_ogd(["ThreeWithTwo", "7", ["S7", "C7", "D7", "H7", "H7"]], 0, "7").reading.code == "FULL_HOUSE 7"


def test_decoding_is_syntax_only_a_well_formed_illegal_play_is_the_attempt_it_declares():
    # a single 2 "on a bomb" decodes fine: whether it may be played is the engine's question
    assert action_from_ogd(["Single", "2", ["S2"]], 3, "5") == Play(3, parse_cards("S2"), "SINGLE 2")
    # cards that are no pair still declare a pair
    play = action_from_ogd(["Pair", "5", ["S5", "H6"]], 3, "2")
    assert play.reading.kind is Kind.PAIR and play.reading not in readings(play.cards, "2")


@pytest.mark.parametrize("bad, says", [
    (["Single", "2"], "[type, rank, cards]"),
    ("PASS", "[type, rank, cards]"),
    (["PASS", "PASS", []], "a pass is"),
    (["Quad", "2", ["S2"]], "unknown action type"),
    (["Single", "2", ["XX"]], "not an OGD card"),
    (["Single", "2", "S2"], "not a card list"),
    (["Single", 2, ["S2"]], "rank field must be a string"),
    (["Straight", "Q", ["SQ", "SK", "SA", "S2", "S3"]], "Straight Q"),
    (["Trips", "B", ["SB", "SB", "SB"]], "not a rank for Trips"),
    (["FourKings", "R", ["SB", "SB", "HR", "HR"]], "FourKings takes rank"),
    (["tribute", "tribute", ["S2", "S3"]], "exactly one card"),
    (["back", "tribute", ["S2"]], "a back is"),
    (["Single", "2", []], "with no cards"),
])
def test_malformed_actions_are_refused_with_a_reason(bad, says):
    with pytest.raises(OgdCodecError, match=None) as caught:
        action_from_ogd(bad, 0, "2")
    assert says in str(caught.value)


def test_card_lists():
    assert cards_from_ogd(["S2", "SB", "HR"]) == parse_cards("S2 BJ RJ")
    with pytest.raises(OgdCodecError):
        cards_from_ogd("S2")
