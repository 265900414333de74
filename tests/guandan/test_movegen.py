"""掼蛋 move generation (docs/rules/guandan.md §3–§5): legal plays at the lead and in
reply, the default (one card choice per reading and wilds used) and expanded modes, and
the reason an illegal play is refused."""

from collections import Counter, defaultdict
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from guandan.combos import ALL_READINGS, Kind, Reading, beats, readings, wilds_used
from guandan.movegen import Move, analysed_hand, clear_cache, is_legal_play, legal_plays, plays, why_illegal_play
from guandan.rules import GuandanRules
from tabletop.cards import CARDS, Card, full_deck, parse_cards, sort_cards, to_counts


def R(code):
    return Reading.from_code(code)


def shown(moves):
    return [str(m) for m in moves]


def keys(moves):
    return {(tuple(m.cards), m.reading) for m in moves}


# ---------------------------------------------------------------------------------------------
# Leading

def test_rule_3_spec_example_every_reading_is_a_distinct_play():
    plays = [m for m in legal_plays("H5 S7 S8 S9 ST", None, "5") if m.reading.size == 5]
    assert shown(plays) == [
        "H5 S7 S8 S9 ST as STRAIGHT 6", "H5 S7 S8 S9 ST as STRAIGHT 7",
        "H5 S7 S8 S9 ST as STRAIGHT_FLUSH S6", "H5 S7 S8 S9 ST as STRAIGHT_FLUSH S7"]


def test_lead_lists_every_kind_in_order_weakest_first_then_the_bomb_ladder():
    hand = "S3 C3 D3 S4 C4 D4 S5 C5 S6 S7 D8 D9 DT DJ DQ SA CA DA HA BJ BJ RJ RJ SK CK DK HK"
    plays = legal_plays(hand, None, "2")
    kinds = [m.reading.kind for m in plays]
    assert kinds == sorted(kinds, key=lambda k: k.value if k.value < 7 else 7)
    bombs = [m.reading.code for m in plays if m.reading.is_bomb]
    assert bombs == ["BOMB 4xK", "BOMB 4xA", "STRAIGHT_FLUSH S3", "STRAIGHT_FLUSH D8", "STRAIGHT_FLUSH D9",
                     "STRAIGHT_FLUSH DT", "JOKER_BOMB"]
    assert "S3 C3 D3 S4 C4 D4 as PLATE 3" in shown(plays)
    assert "S3 C3 S4 C4 S5 C5 as TUBE 3" in shown(plays)
    assert "S3 C3 D3 BJ BJ as FULL_HOUSE 3" not in shown(plays)  # a natural pair is lower
    assert "S3 C3 D3 S4 C4 as FULL_HOUSE 3" in shown(plays)


def test_cards_of_a_move_are_in_canonical_order():
    for move in legal_plays("SA HA H2 S3 C4 D5 RJ BJ", None, "2"):
        assert list(move.cards) == sort_cards(move.cards)
        assert all(type(c) is Card for c in move.cards)


def test_moves_are_immutable_and_hashable():
    move = legal_plays("SA", None, "2")[0]
    assert move == Move((Card("SA"),), R("SINGLE A")) and hash(move) == hash(Move((Card("SA"),), R("SINGLE A")))
    with pytest.raises(AttributeError):
        move.reading = R("SINGLE K")


def test_default_mode_one_play_per_reading_and_wilds_used():
    plays = legal_plays("S9 C9 D9 H7", None, "7")
    assert [s for s in shown(plays) if "TRIPLE" in s] == ["S9 C9 D9 as TRIPLE 9", "H7 S9 C9 as TRIPLE 9"]
    assert [s for s in shown(plays) if "BOMB" in s] == ["H7 S9 C9 D9 as BOMB 4x9"]


def test_default_mode_never_spends_a_wild_where_a_natural_card_serves():
    assert [s for s in shown(legal_plays("S7 H7 C7", None, "7")) if "PAIR" in s] == ["S7 C7 as PAIR 7"]
    assert [s for s in shown(legal_plays("H7 S7 S8 S9 ST SJ", None, "7")) if "STRAIGHT 7" in s] == [
        "S7 S8 S9 ST SJ as STRAIGHT 7", "S7 H7 S8 S9 ST as STRAIGHT 7"]
    # The joker pair spends no wild; the level pair H7 H7 would spend two.
    plays = legal_plays("S9 C9 D9 H7 H7 BJ BJ", None, "7")
    assert [s for s in shown(plays) if "FULL_HOUSE" in s][0] == "S9 C9 D9 BJ BJ as FULL_HOUSE 9"


def test_default_mode_wild_as_a_level_card_only_when_no_natural_level_card():
    plays = legal_plays("H7 S5 S6 C8 D9", None, "7")
    assert shown(plays)[-1] == "S5 S6 H7 C8 D9 as STRAIGHT 5"
    assert wilds_used(plays[-1].cards, plays[-1].reading, "7") == 0


def test_default_mode_extra_wilds_replace_the_highest_naturals():
    plays = [m for m in legal_plays("H2 S3 C4 D5 S6 C7", None, "2") if m.reading.kind is Kind.STRAIGHT]
    assert shown(plays) == [
        "H2 S3 C4 D5 S6 as STRAIGHT 2", "S3 C4 D5 S6 C7 as STRAIGHT 3",
        "H2 S3 C4 D5 S6 as STRAIGHT 3", "H2 C4 D5 S6 C7 as STRAIGHT 4"]
    wilds = [wilds_used(m.cards, m.reading, "2") for m in plays]
    assert wilds == [0, 0, 1, 1]


def test_full_house_with_joker_pair_follows_the_option():
    hand = "S9 C9 D9 BJ BJ"
    assert "S9 C9 D9 BJ BJ as FULL_HOUSE 9" in shown(legal_plays(hand, None, "2"))
    off = GuandanRules(joker_pair_in_full_house=False)
    assert not [m for m in legal_plays(hand, None, "2", rules=off) if m.reading.kind is Kind.FULL_HOUSE]
    assert not [m for m in legal_plays(hand, None, "2", rules=off, expand_suits=True)
                if m.reading.kind is Kind.FULL_HOUSE]


def test_full_house_of_the_level_rank_with_both_wilds_as_its_pair():
    plays = legal_plays("S7 C7 D7 H7 H7", None, "7")
    assert [s for s in shown(plays) if "FULL_HOUSE" in s or "BOMB" in s] == [
        "S7 H7 H7 C7 D7 as FULL_HOUSE 7", "S7 H7 C7 D7 as BOMB 4x7", "S7 H7 H7 C7 D7 as BOMB 5x7"]


def test_wild_bombs_of_nine_and_ten_cards_are_generated():
    hand = "SK SK CK CK DK DK HK HK H4 H4"
    codes = {m.reading.code for m in legal_plays(hand, None, "4")}
    assert {"BOMB 9xK", "BOMB 10xK"} <= codes


def test_expand_suits_lists_every_choice_of_cards():
    plays = legal_plays("S7 C7 D7 H7", None, "7", expand_suits=True)
    pairs = [s for s in shown(plays) if "PAIR" in s]
    assert pairs == ["S7 H7 as PAIR 7", "S7 C7 as PAIR 7", "S7 D7 as PAIR 7", "H7 C7 as PAIR 7",
                     "H7 D7 as PAIR 7", "C7 D7 as PAIR 7"]


def test_hand_and_level_forms():
    text = "S9 C9 D9 H7 SA"
    expected = legal_plays(text, None, "7")
    assert legal_plays(parse_cards(text), None, 5) == expected
    assert legal_plays(to_counts(text), None, "7") == expected
    assert legal_plays([int(c) for c in parse_cards(text)], None, "7") == expected
    assert legal_plays("HT ST", None, "10") == legal_plays("HT ST", None, "T")


def test_returned_lists_are_the_callers_own():
    plays = legal_plays("S9 C9", None, "2")
    plays.clear()
    assert legal_plays("S9 C9", None, "2")


# ---------------------------------------------------------------------------------------------
# Following

def test_rule_4_follow_only_same_kind_higher_plus_bombs():
    hand = "S3 C3 S9 C9 SA H2 S5 C5 D5 S6 C6 D6 BJ BJ"
    plays = legal_plays(hand, R("PAIR 9"), "2")
    assert shown(plays) == ["H2 SA as PAIR A", "BJ BJ as PAIR BJ",
                            "H2 S5 C5 D5 as BOMB 4x5", "H2 S6 C6 D6 as BOMB 4x6"]


def test_rule_4_level_pair_beats_A_pair_in_reply():
    plays = legal_plays("S7 C7 SK CK", R("PAIR A"), "7")
    assert shown(plays) == ["S7 C7 as PAIR 7"]


def test_rule_4_follow_a_bomb_only_with_higher_bombs():
    hand = "S5 C5 D5 S5 C5 D6 D7 D8 D9 DT S4 C4 D4 H4 S4 C4"
    plays = legal_plays(hand, R("BOMB 5x9"), "2")
    assert [m.reading.code for m in plays] == ["STRAIGHT_FLUSH D4", "STRAIGHT_FLUSH D5",
                                                "STRAIGHT_FLUSH D6", "BOMB 6x4"]
    assert [m.reading.code for m in legal_plays(hand, R("STRAIGHT_FLUSH D6"), "2")] == ["BOMB 6x4"]


def test_rule_4_straight_flush_is_not_beaten_by_a_5_bomb():
    assert legal_plays("S9 C9 D9 H9 S9", R("STRAIGHT_FLUSH S2"), "2") == []
    assert shown(legal_plays("S9 C9 D9 H9 S9 C9", R("STRAIGHT_FLUSH SA"), "2")) == \
        ["S9 S9 H9 C9 C9 D9 as BOMB 6x9"]


def test_rule_4_nothing_beats_the_joker_bomb():
    hand = "S9 S9 C9 C9 D9 D9 H9 H9 H2 H2"
    assert legal_plays(hand, R("JOKER_BOMB"), "2") == []
    assert legal_plays(hand, R("JOKER_BOMB"), "2", expand_suits=True) == []


def test_top_may_be_a_code_or_a_move():
    hand = "S3 C3 S9 C9"
    top = legal_plays("S5 C5", None, "2")[-1]
    assert legal_plays(hand, top, "2") == legal_plays(hand, "PAIR 5", "2") == \
        legal_plays(hand, R("PAIR 5"), "2")


# ---------------------------------------------------------------------------------------------
# Why a play is illegal

HAND = "S5 C5 S7 D7 C8 S9 CT DJ SQ H2 BJ BJ RJ RJ"


def test_legal_play_has_no_reason():
    assert why_illegal_play(HAND, "S5 C5", R("PAIR 5"), None, "2") is None
    assert is_legal_play(HAND, "S5 C5", "PAIR 5", R("PAIR 3"), "2")
    assert is_legal_play(HAND, "BJ BJ RJ RJ", "JOKER_BOMB", R("BOMB 10xA"), "2")


@pytest.mark.parametrize("cards, reading, top, reason", [
    ("SA", "SINGLE A", None, "cards not in hand: SA"),
    ("S5 S5", "PAIR 5", None, "cards not in hand: S5"),
    ("", "PAIR 5", None, "no cards (a pass is not a play)"),
    ("S5 S7", "PAIR 5", None, "not a combination: S5 S7"),
    ("S7 D7 C8", "PAIR 7", None, "not a combination: S7 D7 C8"),
    ("S7 D7", "PAIR 8", None, "S7 D7 cannot be read as PAIR 8 (it reads as PAIR 7)"),
    ("H2 S9 CT DJ SQ", "STRAIGHT_FLUSH S8", None,
     "H2 S9 CT DJ SQ cannot be read as STRAIGHT_FLUSH S8 (it reads as STRAIGHT 8, STRAIGHT 9)"),
    ("S5 C5", "PAIR 5", "STRAIGHT 3", "a PAIR cannot beat a STRAIGHT"),
    ("S5 C5", "PAIR 5", "PAIR 9", "PAIR 5 does not beat PAIR 9"),
    ("S5 C5", "PAIR 5", "PAIR 5", "PAIR 5 does not beat PAIR 5"),
    ("BJ BJ", "PAIR BJ", "BOMB 4x3", "a PAIR cannot beat a BOMB"),
    ("BJ BJ RJ RJ", "JOKER_BOMB", "JOKER_BOMB", "nothing beats a JOKER_BOMB"),
    ("S5 C5", "PAIR Z", None, "bad reading 'PAIR Z': 'Z' is not a PAIR rank (2-A, BJ or RJ)"),
])
def test_why_illegal_play_says_exactly_why(cards, reading, top, reason):
    assert why_illegal_play(HAND, cards, reading, top, "2") == reason
    assert not is_legal_play(HAND, cards, reading, top, "2")


# ---------------------------------------------------------------------------------------------
# Properties

SUITS = "SHCD"


@st.composite
def small_hands(draw, max_size=8):
    """Hands from a two-deck pool biased towards combinations (few ranks, wilds often)."""
    level = draw(st.integers(0, 12))
    low = draw(st.integers(0, 12))
    width = draw(st.sampled_from([1, 2, 3, 5, 6]))
    ranks = {(low + i) % 13 for i in range(width)} | ({level} if draw(st.booleans()) else set())
    suits = draw(st.sampled_from(["S", "SH", "SC", "SHCD", "HD"]))
    kinds = sorted({SUITS.index(s) * 13 + r for r in ranks for s in suits} | {13 + level})
    pool = [c for c in kinds for _ in range(2)]
    if draw(st.integers(0, 3)) == 0:
        pool += [52, 52, 53, 53]
    size = draw(st.integers(1, min(max_size, len(pool))))
    positions = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size,
                              unique=True))
    return [CARDS[pool[i]] for i in positions], level


tops = st.one_of(st.none(), st.sampled_from(ALL_READINGS))
rules_options = st.sampled_from([None, GuandanRules(joker_pair_in_full_house=False)])


def brute_force(hand, top, level, rules):
    """Every (cards, reading) of every sub-multiset of the hand that may be played on top."""
    counts = Counter(int(c) for c in hand)
    kinds = sorted(counts)
    out = set()
    for take in product(*(range(counts[k] + 1) for k in kinds)):
        cards = [CARDS[k] for k, n in zip(kinds, take) for _ in range(n)]
        if not cards:
            continue
        cards = tuple(sort_cards(cards))
        for r in readings(cards, level, rules):
            if top is None or beats(r, top, level):
                out.add((cards, r))
    return out


@settings(max_examples=150)
@given(small_hands(), tops, rules_options)
def test_expand_mode_equals_brute_force_over_all_sub_multisets(sample, top, rules):
    hand, level = sample
    plays = legal_plays(hand, top, level, expand_suits=True, rules=rules)
    assert len(keys(plays)) == len(plays)
    assert keys(plays) == brute_force(hand, top, level, rules)


@settings(max_examples=150)
@given(small_hands(), tops, rules_options)
def test_default_mode_is_expand_mode_collapsed_by_reading_and_wilds_used(sample, top, rules):
    hand, level = sample
    wild = CARDS[13 + level]
    groups = defaultdict(list)
    for cards, reading in brute_force(hand, top, level, rules):
        groups[(reading, wilds_used(cards, reading, level, rules))].append(cards)
    plays = legal_plays(hand, top, level, rules=rules)
    got = {}
    for move in plays:
        key = (move.reading, wilds_used(move.cards, move.reading, level, rules))
        assert key not in got, f"two plays for {key}"
        got[key] = move.cards
    assert set(got) == set(groups)
    for key, cards in got.items():
        assert cards in groups[key]
        fewest = min(c.count(wild) for c in groups[key])
        assert cards.count(wild) == fewest, f"{key}: spends a wild where a natural card serves"


@settings(max_examples=100)
@given(small_hands(max_size=14), tops, rules_options)
def test_every_generated_play_is_legal_and_reads_as_declared(sample, top, rules):
    hand, level = sample
    for move in legal_plays(hand, top, level, rules=rules):
        assert why_illegal_play(hand, move.cards, move.reading, top, level, rules) is None
        assert move.reading in readings(move.cards, level, rules)
        assert list(move.cards) == sort_cards(move.cards)


@st.composite
def dealt_hands(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    deck = np.array(full_deck(2))
    size = draw(st.sampled_from([27, 27, 20, 13]))
    hand = [CARDS[int(i)] for i in rng.choice(deck, size, replace=False)]
    return hand, draw(st.integers(0, 12))


@settings(max_examples=60)
@given(dealt_hands(), st.data())
def test_following_on_dealt_hands_is_the_lead_filtered_by_beats(sample, data):
    hand, level = sample
    lead = legal_plays(hand, None, level)
    assert len({(m.reading, wilds_used(m.cards, m.reading, level)) for m in lead}) == len(lead)
    top = data.draw(st.sampled_from(ALL_READINGS))
    assert legal_plays(hand, top, level) == [m for m in lead if beats(m.reading, top, level)]
    for move in lead[::7]:
        assert is_legal_play(hand, move.cards, move.reading, None, level)


# ---------------------------------------------------------------------------------------------
# The lazy listing engines use (movegen.plays)

@settings(max_examples=80)
@given(dealt_hands(), st.data(), rules_options)
def test_lazy_plays_list_the_same_moves_as_legal_plays(sample, data, rules):
    hand, level = sample
    top = data.draw(st.sampled_from([None, *ALL_READINGS]))
    counts = [0] * 54
    for c in hand:
        counts[c] += 1
    expected = legal_plays(hand, top, level, rules=rules)
    listing = plays(counts, top, level, rules)
    assert len(listing) == len(expected)
    assert [listing[i] for i in range(len(listing))] == expected  # each move made on its own
    assert list(listing) == expected  # all of them at once
    if expected:
        assert listing[-1] == expected[-1] and listing[::3] == expected[::3]
    with pytest.raises(IndexError):
        listing[len(expected)]


@settings(max_examples=80)
@given(dealt_hands(), st.data(), rules_options)
def test_a_hand_analysed_after_the_hand_it_shrank_from_lists_the_same_plays(sample, data, rules):
    # An engine hands the hand a seat held before its plays (shrunk_from): the classes that
    # hand had no play of are not looked for again, and the listing must not change.
    hand, level = sample
    kept = data.draw(st.lists(st.booleans(), min_size=len(hand), max_size=len(hand)))
    smaller = [c for c, keep in zip(hand, kept) if keep] or hand[:1]
    tops_asked = data.draw(st.lists(st.sampled_from([None, *ALL_READINGS]), min_size=1, max_size=4))
    larger_counts, smaller_counts = [0] * 54, [0] * 54
    for c in hand:
        larger_counts[c] += 1
    for c in smaller:
        smaller_counts[c] += 1
    clear_cache()
    expected = [legal_plays(smaller, top, level, rules=rules) for top in [None, *tops_asked]]
    clear_cache()
    larger = analysed_hand(larger_counts, level, rules)
    for top in tops_asked:  # the classes the larger hand listed (some empty, most often bombs)
        list(larger.plays(top))
    clear_cache()  # (so the smaller hand is analysed anew, from the larger one)
    inherited = analysed_hand(smaller_counts, level, rules, larger)
    assert [list(inherited.plays(top)) for top in [None, *tops_asked]] == expected


def test_a_hand_beyond_two_decks_lists_like_eight_natural_cards():
    hand = "S9 S9 S9 H9 H9 H9 C9 C9 C9 D9 D9 D9"
    assert shown(legal_plays(hand, None, "2"))[:3] == ["S9 as SINGLE 9", "S9 S9 as PAIR 9", "S9 S9 S9 as TRIPLE 9"]
