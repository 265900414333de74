"""§6 Following: card count, suit, and shape (shengji.follow).

Level 7, trump clubs unless said otherwise. Spade orders: 2…6 = 0…4, 8 = 5, 9 = 6, T = 7,
J = 8, Q = 9, K = 10, A = 11 (S7 is a trump)."""

import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.cards import CARDS, full_deck, parse_cards, sort_cards, to_counts
from shengji.context import Context
from shengji.follow import (
    count_legal_follows, is_legal_follow, legal_follows, sample_follow, why_illegal_follow,
)
from shengji.rules import ShengjiRules
from shengji.units import decompose, is_tractor

L7C = Context("7", "C")


def follows(hand, lead, ctx=L7C):
    return sorted(" ".join(str(c) for c in f) for f in legal_follows(hand, lead, ctx))


def canon(text):
    return " ".join(str(c) for c in sort_cards(parse_cards(text)))


def only(*texts):
    return sorted(canon(t) for t in texts)


# -- count, cards, suit -------------------------------------------------------------------------

def test_rule_6_play_exactly_as_many_cards_as_led():
    assert why_illegal_follow("SA SK S3 H4", "S5", "SA SK", L7C) == "must play 1 card, played 2"
    assert why_illegal_follow("SA SK S3 H4", "S5S5S6", "SA SK", L7C) == "must play 3 cards, played 2"


def test_rule_6_cards_must_come_from_the_hand():
    assert why_illegal_follow("SA SK S3 H4", "S5", "SQ", L7C) == "cards not in hand: SQ"
    assert why_illegal_follow("SA SK S3 H4", "S5S5", "SASA", L7C) == "cards not in hand: SA"


def test_rule_6_must_follow_suit_message_names_holding():
    assert why_illegal_follow("H3 H9 SA SK", "HKHK", "H3 SA", L7C) == (
        "must follow hearts: you hold 2 hearts and played 1")
    assert why_illegal_follow("H3 SA SK", "HK", "SA", L7C) == (
        "must follow hearts: you hold 1 heart and played 0")


def test_rule_6_holding_enough_of_suit_may_not_add_other_cards():
    assert not is_legal_follow("H3 H9 H4 SA", "HKHK", "H3 SA", L7C)
    assert is_legal_follow("H3 H9 H4 SA", "HKHK", "H3 H4", L7C)


def test_rule_6_short_suit_plays_all_of_it_then_anything():
    hand = "H3 H9 SA SK D4 BJ"
    assert is_legal_follow(hand, "HQHQHKHK", "H3 H9 SA BJ", L7C)
    assert not is_legal_follow(hand, "HQHQHKHK", "H3 SA SK BJ", L7C)
    got = follows(hand, "HQHQHKHK")
    assert len(got) == 6 and all("H3" in f and "H9" in f for f in got)


def test_rule_6_void_may_discard_anything_or_trump():
    assert follows("SA C3 BJ D4", "HA") == only("SA", "C3", "BJ", "D4")
    assert is_legal_follow("SA C3 BJ D4", "HAHA", "C3 BJ", L7C)
    assert is_legal_follow("SA C3 BJ D4", "HAHA", "SA D4", L7C)


def test_rule_6_level_card_of_led_suit_is_trump_not_that_suit():
    # H7 is a trump: holding it is being void in hearts.
    assert is_legal_follow("H7 SA", "HA", "SA", L7C)
    assert follows("H7 SA", "HA") == only("H7", "SA")


def test_rule_6_trump_lead_must_be_followed_with_any_trump():
    assert why_illegal_follow("H7 SA", "C3", "SA", L7C) == (
        "must follow trumps: you hold 1 trump and played 0")
    assert follows("H7 BJ C9 SA", "C3") == only("H7", "BJ", "C9")


def test_rule_6_no_trump_trumps_are_level_cards_and_jokers():
    ctx = Context("7", None)
    assert follows("S7 CA BJ", "RJ", ctx) == only("S7", "BJ")
    assert follows("S7 CA BJ", "CK", ctx) == only("CA")


# -- pair leads ---------------------------------------------------------------------------------

def test_rule_6_pair_lead_followed_by_pair_when_holding_one():
    hand = "S9S9 S3 S4 HA"
    assert why_illegal_follow(hand, "SKSK", "S3 S4", L7C) == "must play a pair: you hold S9S9"
    assert follows(hand, "SKSK") == only("S9S9")


def test_rule_6_pair_lead_any_held_pair_will_do():
    assert follows("S9S9 S3S3 S4 HA", "SKSK") == only("S9S9", "S3S3")


def test_rule_6_pair_lead_without_pair_any_two_of_suit():
    assert follows("S3 S4 S9 HA", "SKSK") == only("S3 S4", "S3 S9", "S4 S9")


def test_rule_6_pair_lead_one_card_of_suit_then_anything():
    assert follows("S3 HA HK", "SKSK") == only("S3 HA", "S3 HK")


def test_rule_6_pair_inside_longer_tractor_counts_as_pair():
    assert follows("S5S5S6S6 S9", "SKSK") == only("S5S5", "S6S6")


def test_rule_6_pair_lead_off_suit_level_pairs_in_trumps():
    assert follows("H7H7 D7D7 C5 BJ", "C3C3") == only("H7H7", "D7D7")


def test_rule_6_pair_lead_two_level_cards_of_different_suits_are_not_a_pair():
    assert follows("H7 D7 C5", "C3C3") == only("H7 D7", "H7 C5", "D7 C5")


# -- 2-pair tractor leads ------------------------------------------------------------------------

TRACTOR2 = "SQSQSKSK"


def test_rule_6_tractor_lead_followed_by_tractor_when_holding_one():
    hand = "S5S5S6S6 S9 SJ HA"
    assert follows(hand, TRACTOR2) == only("S5S5S6S6")
    assert why_illegal_follow(hand, TRACTOR2, "S5S5 S9 SJ", L7C) == (
        "must play a tractor of 2 pairs: you hold S5S5S6S6")


def test_rule_6_tractor_lead_held_tractor_across_level_gap():
    assert follows("S6S6S8S8 S3 S4", TRACTOR2) == only("S6S6S8S8")


def test_rule_6_tractor_lead_longer_held_tractor_any_two_pair_part():
    assert follows("S4S4S5S5S6S6 S9", TRACTOR2) == only("S4S4S5S5", "S5S5S6S6")


def test_rule_6_tractor_lead_only_separate_pairs_plays_both():
    hand = "S3S3 S9S9 SJ HA"
    assert follows(hand, TRACTOR2) == only("S3S3S9S9")
    assert why_illegal_follow(hand, TRACTOR2, "S3S3 S9 SJ", L7C) == (
        "must play 2 pairs: you hold S3S3 S9S9")


def test_rule_6_tractor_lead_three_separate_pairs_any_two():
    assert follows("S2S2 S5S5 S9S9 SA", TRACTOR2) == only("S2S2S5S5", "S2S2S9S9", "S5S5S9S9")


def test_rule_6_tractor_lead_one_pair_plus_singles():
    hand = "S3S3 S9 SJ S5 HA"
    assert follows(hand, TRACTOR2) == only("S3S3 S9 SJ", "S3S3 S9 S5", "S3S3 SJ S5")
    assert why_illegal_follow(hand, TRACTOR2, "S3 S9 SJ S5", L7C) == "must play a pair: you hold S3S3"


def test_rule_6_tractor_lead_no_pair_any_cards_of_suit():
    assert len(follows("S3 S9 SJ S5 S6 HA", TRACTOR2)) == 5


def test_rule_6_trump_tractor_lead_two_offsuit_level_pairs_are_two_pairs():
    assert follows("H7H7 S7S7 C3 C4 SA", "CKCKCACA") == only("H7H7S7S7")


def test_rule_6_trump_tractor_lead_offsuit_level_and_trump_level_tractor():
    assert follows("H7H7 C7C7 C3C3 C5", "CKCKCACA") == only("H7H7C7C7")


def test_rule_6_no_trump_level_pair_then_joker_pair_is_a_tractor_to_follow():
    # No-trump with 常主: off-suit 2 → level card → BJ is one chain.
    ctx = Context("7", None, ShengjiRules(permanent_twos=True))
    assert follows("H7H7BJBJ D2D2 C5 SA", "S2S2S7S7", ctx) == only("D2D2H7H7", "H7H7BJBJ")


# -- 3-pair tractor leads ------------------------------------------------------------------------

TRACTOR3 = "S9S9STSTSJSJ"


def test_rule_6_three_pair_tractor_lead_followed_by_three_pair_tractor():
    assert follows("S2S2S3S3S4S4 SQ SK", TRACTOR3) == only("S2S2S3S3S4S4")


def test_rule_6_three_pair_tractor_lead_shorter_tractor_plus_pair_before_separate_pairs():
    hand = "S2S2S3S3 S5S5 SQSQ SA"
    assert follows(hand, TRACTOR3) == only("S2S2S3S3S5S5", "S2S2S3S3SQSQ")
    assert why_illegal_follow(hand, TRACTOR3, "S2S2 S5S5 SQSQ", L7C) == (
        "must play a tractor of 2 pairs: you hold S2S2S3S3")


def test_rule_6_three_pair_tractor_lead_three_separate_pairs():
    assert follows("S2S2 S5S5 SQSQ SA SK", TRACTOR3) == only("S2S2S5S5SQSQ")


def test_rule_6_three_pair_tractor_lead_two_pairs_plus_singles():
    hand = "S2S2 S5S5 SQ SA SK"
    assert follows(hand, TRACTOR3) == only("S2S2S5S5 SQ SA", "S2S2S5S5 SQ SK", "S2S2S5S5 SA SK")
    assert why_illegal_follow(hand, TRACTOR3, "S2S2 S5 SQ SA SK", L7C) == (
        "must play 2 pairs: you hold S2S2 S5S5")


def test_rule_6_three_pair_tractor_lead_two_pair_tractor_plus_singles():
    assert follows("S2S2S3S3 S5 SQ SA", TRACTOR3) == only(
        "S2S2S3S3 S5 SQ", "S2S2S3S3 S5 SA", "S2S2S3S3 SQ SA")


def test_rule_6_three_pair_tractor_lead_one_pair():
    assert all("S5 S5" in f for f in follows("S5S5 S2 S3 SQ SA SK", TRACTOR3))


def test_rule_6_three_pair_tractor_lead_longer_tractor_in_hand():
    assert follows("S2S2S3S3S4S4S5S5 SA", TRACTOR3) == only("S2S2S3S3S4S4", "S3S3S4S4S5S5")


# -- 4- and 5-pair tractor leads (§6, revised 2026-12-05: pairs that stand in tractors, longest first)

TRACTOR4 = "S9S9STSTSJSJSQSQ"          # slots 6-9
TRACTOR5 = "S8S8S9S9STSTSJSJSQSQ"      # slots 5-9


def test_rule_6_four_pair_tractor_lead_followed_by_four_pair_tractor():
    assert follows("S2S2S3S3S4S4S5S5 S8S8 SA", TRACTOR4) == only("S2S2S3S3S4S4S5S5")


def test_rule_6_four_pair_tractor_lead_three_pair_tractor_and_a_pair_before_two_tractors():
    hand = "S2S2S3S3S4S4 S6S6S8S8 SA"                   # a 3-pair and a 2-pair tractor
    assert follows(hand, TRACTOR4) == only("S2S2S3S3S4S4 S6S6", "S2S2S3S3S4S4 S8S8")
    assert why_illegal_follow(hand, TRACTOR4, "S3S3S4S4 S6S6S8S8", L7C) == (
        "must play a tractor of 3 pairs: you hold S2S2S3S3S4S4 S6S6S8S8")


def test_rule_6_four_pair_tractor_lead_a_hand_holding_two_2_pair_tractors_must_play_both():
    hand = "S2S2S3S3 S5S5S6S6 SKSK SA"                  # two 2-pair tractors and a pair
    assert follows(hand, TRACTOR4) == only("S2S2S3S3S5S5S6S6")
    assert why_illegal_follow(hand, TRACTOR4, "S2S2S3S3 S5S5 SKSK", L7C) == (
        "must play tractors of 2 and 2 pairs: you hold S5S5S6S6 S2S2S3S3")
    assert not is_legal_follow(hand, TRACTOR4, "S5S5S6S6 S3S3 SKSK", L7C)


def test_rule_6_four_pair_tractor_lead_one_2_pair_tractor_and_two_pairs():
    assert follows("S2S2S3S3 S6S6 SKSK S5 SA", TRACTOR4) == only("S2S2S3S3 S6S6 SKSK")


def test_rule_6_four_pair_tractor_lead_four_separate_pairs():
    assert follows("S2S2 S4S4 S6S6 SKSK SA", TRACTOR4) == only("S2S2S4S4S6S6SKSK")


def test_rule_6_five_pair_tractor_lead_three_pair_and_two_pair_tractor_both_played():
    hand = "S2S2S3S3S4S4 S6S6 SKSKSASA"                # (3, 2) is the closest to 5
    assert follows(hand, TRACTOR5) == only("S2S2S3S3S4S4SKSKSASA")
    assert "tractors of 3 and 2 pairs" in why_illegal_follow(hand, TRACTOR5, "S2S2S3S3S4S4 S6S6 SKSK", L7C)


def test_rule_6_throw_of_a_four_pair_tractor_and_a_pair_two_tractors_then_the_pair():
    lead = TRACTOR4 + " S3S3"
    hand = "S4S4S5S5 S8S8 SKSKSASA S2S2"
    assert follows(hand, lead) == only("S4S4S5S5 SKSKSASA S8S8", "S4S4S5S5 SKSKSASA S2S2")


def test_rule_6_sample_follow_plays_both_2_pair_tractors_against_a_four_pair_tractor():
    rng = np.random.default_rng(3)
    for _ in range(30):
        f = sample_follow("S2S2S3S3 S5S5S6S6 SKSK SA", TRACTOR4, L7C, rng)
        assert canon(" ".join(map(str, f))) == canon("S2S2S3S3S5S5S6S6")


# -- throws ---------------------------------------------------------------------------------------

THROW = "SJSJSQSQ S9S9 SA"   # 2-pair tractor + pair + single, 7 cards


def test_rule_6_throw_followed_unit_by_unit_tractor_pair_single():
    assert follows("S2S2S3S3 S5S5 S6 S8 HA", THROW) == only(
        "S2S2S3S3S5S5 S6", "S2S2S3S3S5S5 S8")


def test_rule_6_throw_with_only_pairs_plays_all_pairs_then_singles():
    assert len(follows("S2S2 S5S5 S8 ST SK S3", THROW)) == 4
    assert all(f.count("S2") == 2 and f.count("S5") == 2 for f in follows("S2S2 S5S5 S8 ST SK S3", THROW))


def test_rule_6_throw_three_separate_pairs_fill_tractor_and_pair():
    assert follows("S2S2 S5S5 S8S8 ST SK", THROW) == only("S2S2S5S5S8S8 ST", "S2S2S5S5S8S8 SK")


def test_rule_6_throw_longer_tractor_covers_tractor_and_pair():
    assert follows("S2S2S3S3S4S4 ST SK", THROW) == only("S2S2S3S3S4S4 ST", "S2S2S3S3S4S4 SK")


def test_rule_6_throw_short_suit_plays_all_of_it():
    assert follows("S2S2S3 HA HK HQ HJ", THROW) == only(
        "S2S2S3 HA HK HQ HJ")


def test_rule_6_throw_of_singles_any_cards_of_suit():
    assert len(follows("S2S2 S3 S4 HA", "SA SK SQ")) == 3  # 2 S2 S3, 2 S2 S4, S2 S3 S4


def test_rule_6_throw_two_tractors_longest_led_tractor_served_first():
    lead = "S3S3S4S4S5S5 SJSJSQSQ"                       # 3-pair + 2-pair tractor
    hand = "S6S6S8S8S9S9STST S2S2 SKSK SA"               # 4-pair tractor + two lone pairs
    assert follows(hand, lead) == only(
        "S6S6S8S8S9S9STST S2S2", "S6S6S8S8S9S9STST SKSK",
        "S6S6S8S8S9S9 S2S2 SKSK", "S8S8S9S9STST S2S2 SKSK")
    assert "tractor of 3 pairs" in why_illegal_follow(hand, lead, "S6S6 S9S9STST S2S2 SKSK", L7C)


def test_rule_6_throw_two_tractors_both_held_must_both_be_played():
    lead = "S3S3S4S4S5S5 SJSJSQSQ"
    hand = "S8S8S9S9STST SKSKSASA S2 S6"
    assert follows(hand, lead) == only("S8S8S9S9STST SKSKSASA")
    assert "tractors of 3 and 2 pairs" in why_illegal_follow(
        hand, lead, "S8S8S9S9STST SKSK S2 S6", L7C)


# -- input forms, errors ---------------------------------------------------------------------------

def test_follow_accepts_cards_text_and_count_vectors():
    hand = "S5S5S6S6 S9 SJ HA"
    assert is_legal_follow(parse_cards(hand), to_counts(TRACTOR2), [str(c) for c in parse_cards("S5S5S6S6")], L7C)
    assert is_legal_follow(to_counts(hand), TRACTOR2, "S5S5S6S6", L7C)


def test_follow_to_mixed_lead_is_an_error():
    with pytest.raises(ValueError):
        why_illegal_follow("SA", "SA HA", "SA", L7C)
    with pytest.raises(ValueError):
        legal_follows("SA", "", L7C)


def test_sample_follow_matches_forced_shape():
    rng = np.random.default_rng(7)
    for _ in range(50):
        f = sample_follow("S2S2S3S3 S5S5 SQSQ SA", TRACTOR3, L7C, rng)
        assert canon(" ".join(map(str, f))) in only("S2S2S3S3S5S5", "S2S2S3S3SQSQ")


# -- properties -------------------------------------------------------------------------------------

@st.composite
def follow_cases(draw, big=False):
    """A context, a lead of ≤ 4 cards (big: 5–7 cards with a tractor) of one effective suit
    and a hand of ≤ 12 cards, drawn
    from a window of ladder slots of the led suit (so pairs and tractors are common) plus a
    few cards of other suits."""
    ctx = Context(draw(st.integers(0, 12)), draw(st.sampled_from([None, "S", "H", "C", "D"])),
                  ShengjiRules(permanent_twos=draw(st.booleans())))
    suit = draw(st.sampled_from([s for s in range(5) if ctx.kinds[s]]))
    ladder = ctx.slots[suit]
    start = draw(st.integers(0, max(0, len(ladder) - 7)))
    window = [c for rung in ladder[start:start + 7] for c in rung]
    left = {c: 2 for c in window}
    slots = ladder[start:start + 7]
    shapes = ["single", "pair", "tractor", "pair+single", "pairs", "singles"]
    if big:
        shapes = ["tractor+pair", "tractor+single", "tractor+pair+single", "tractor3+single"]
    shape = draw(st.sampled_from(shapes))
    lead: list[int] = []
    if shape.startswith("tractor"):
        length = 3 if shape.startswith("tractor3") else 2
        i = draw(st.integers(0, len(slots) - length))
        lead = [draw(st.sampled_from(rung)) for rung in slots[i:i + length]]
        lead = [c for c in lead for _ in (0, 1)]
        rest = [c for c in window if c not in lead]
        sizes = {"tractor": [], "tractor+pair": [2], "tractor+single": [1],
                 "tractor+pair+single": [2, 1], "tractor3+single": [1]}[shape]
    else:
        rest = window
        sizes = {"single": [1], "pair": [2], "pair+single": [2, 1], "pairs": [2, 2],
                 "singles": [1, 1, 1]}[shape]
    picked = draw(st.lists(st.sampled_from(rest), min_size=len(sizes), max_size=len(sizes),
                           unique=True))
    lead += [c for c, k in zip(picked, sizes) for _ in range(k)]
    for c in lead:
        left[c] -= 1
    hand = []
    for c in window:
        hand += [c] * min(left[c], draw(st.sampled_from([2, 1, 0, 2])))
    hand = hand[:draw(st.sampled_from([12, 12, 12, 3, 1, 0]))]   # sometimes short or void
    others = [c for c in range(54) if ctx.suit_of[c] != suit]
    hand = hand[:12 - 3] + draw(st.lists(st.sampled_from(others), min_size=1, max_size=3))
    return ctx, [CARDS[c] for c in sorted(hand)], [CARDS[c] for c in lead]


def brute_force_follows(hand, lead, ctx):
    counts = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    kinds = sorted(counts)
    out = set()
    for takes in itertools.product(*(range(counts[c] + 1) for c in kinds)):
        if sum(takes) != len(lead):
            continue
        play = [c for c, t in zip(kinds, takes) for _ in range(t)]
        if is_legal_follow(hand, lead, play, ctx):
            out.add(tuple(sort_cards(play)))
    return out


@given(follow_cases())
@settings(max_examples=150)
def test_property_legal_follows_equals_brute_force(case):
    ctx, hand, lead = case
    got = legal_follows(hand, lead, ctx)
    assert len(got) == len(set(got))
    if len(hand) >= len(lead):
        assert set(got) == brute_force_follows(hand, lead, ctx)


@given(follow_cases(), st.integers(0, 2**32 - 1))
@settings(max_examples=100)
def test_property_sample_follow_always_legal_and_varied(case, seed):
    ctx, hand, lead = case
    if len(hand) < len(lead):
        return
    rng = np.random.default_rng(seed)
    legal = set(legal_follows(hand, lead, ctx))
    seen = set()
    for _ in range(60):
        f = sample_follow(hand, lead, ctx, rng)
        assert f in legal
        seen.add(f)
    if len(legal) > 1:
        assert len(seen) > 1


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=40)
def test_property_sampled_follows_from_full_hands_are_legal(seed):
    """25-card hands from a real pack; leads are units or throws from another hand."""
    rng = np.random.default_rng(seed)
    ctx = Context(int(rng.integers(13)), [None, "S", "H", "C", "D"][int(rng.integers(5))],
                  ShengjiRules(permanent_twos=bool(rng.integers(2))))
    deck = full_deck(2)
    order = rng.permutation(len(deck))
    hands = [[deck[i] for i in order[25 * s:25 * s + 25]] for s in range(4)]
    units = decompose([c for c in hands[0] if ctx.suit_of[c] == ctx.suit_of[hands[0][0]]], ctx)
    lead = [c for u in units[: 1 + int(rng.integers(3))] for c in u.cards]
    for hand in hands[1:]:
        f = sample_follow(hand, lead, ctx, rng)
        assert why_illegal_follow(hand, lead, f, ctx) is None
        h = sum(1 for c in hand if ctx.suit_of[c] == ctx.suit_of[lead[0]])
        if h > len(lead):
            assert f in set(legal_follows(hand, lead, ctx))


def reference_score(cards, lead_tractors, pairs_led, ctx):
    """Independent, exhaustive statement of the shape measure (§6, revised 2026-12-05): led
    tractor i, in the lead's order, is matched by a set of disjoint tractors of ``cards``
    (found with is_tractor over every run of pair kinds) of at most ki pairs together, read
    as its lengths longest first, padded to ki // 2 entries; the best assignment is the
    lexicographically largest concatenation. And the pair count capped at the led pairs."""
    kinds = sorted({c for c in cards if cards.count(c) >= 2})
    tractors = []
    for r in range(2, len(kinds) + 1):
        for combo in itertools.combinations(kinds, r):
            if is_tractor([c for c in combo for _ in (0, 1)], ctx):
                tractors.append(frozenset(combo))
    best = ()

    def sets(k, used, start):
        """Every set of disjoint tractors (apart from ``used``) of at most k pairs together."""
        yield used, []
        for i in range(start, len(tractors)):
            t = tractors[i]
            if len(t) <= k and not (t & used):
                for more, lengths in sets(k - len(t), used | t, i + 1):
                    yield more, [len(t), *lengths]

    def assign(i, used, vector):
        nonlocal best
        if i == len(lead_tractors):
            best = max(best, tuple(vector))
            return
        k = lead_tractors[i]
        for now, lengths in sets(k, used, 0):
            lengths = sorted(lengths, reverse=True)
            assign(i + 1, now, vector + lengths + [0] * (k // 2 - len(lengths)))

    assign(0, frozenset(), [])
    return best, min(pairs_led, len(kinds))


def reference_is_legal(hand, lead, play, ctx):
    if len(play) != len(lead) or any(play.count(c) > hand.count(c) for c in play):
        return False
    s = ctx.suit_of[lead[0]]
    suit_hand = [c for c in hand if ctx.suit_of[c] == s]
    n, h = len(lead), len(suit_hand)
    if sum(1 for c in play if ctx.suit_of[c] == s) != min(n, h):
        return False
    if h <= n:
        return True
    units = decompose(lead, ctx)
    tractors = tuple(u.length for u in units if u.length >= 2)
    pairs_led = sum(u.length for u in units)
    return reference_score(list(play), tractors, pairs_led, ctx) == _reference_best(
        tuple(sorted(suit_hand)), n, tractors, pairs_led, ctx)


@functools.lru_cache(maxsize=64)
def _reference_best(suit_hand, n, tractors, pairs_led, ctx):
    return max(reference_score(list(f), tractors, pairs_led, ctx) for f in set(itertools.combinations(suit_hand, n)))


@given(follow_cases())
@settings(max_examples=150)
def test_property_follow_rule_matches_exhaustive_reference(case):
    ctx, hand, lead = case
    if len(hand) < len(lead):
        return
    kinds = sorted(set(hand))
    for takes in itertools.product(*(range(hand.count(c) + 1) for c in kinds)):
        if sum(takes) != len(lead):
            continue
        play = [c for c, t in zip(kinds, takes) for _ in range(t)]
        assert is_legal_follow(hand, lead, play, ctx) == reference_is_legal(hand, lead, play, ctx), play


@given(follow_cases(big=True))
@settings(max_examples=40)
def test_property_throw_follow_rule_matches_exhaustive_reference(case):
    ctx, hand, lead = case
    if len(hand) < len(lead):
        return
    kinds = sorted(set(hand))
    for takes in itertools.product(*(range(hand.count(c) + 1) for c in kinds)):
        if sum(takes) != len(lead):
            continue
        play = [c for c, t in zip(kinds, takes) for _ in range(t)]
        assert is_legal_follow(hand, lead, play, ctx) == reference_is_legal(hand, lead, play, ctx), play
    got = set(legal_follows(hand, lead, ctx))
    assert got == brute_force_follows(hand, lead, ctx)


@st.composite
def four_pair_cases(draw):
    """A context, a lead of a 4-pair tractor (sometimes with a pair or a single: a throw) and
    a hand of up to 11 cards of the led suit, mostly pairs, from a window of 11 slots (so two 2-pair
    tractors, a 3-pair tractor + a pair … are common), plus a card of another suit."""
    ctx = Context(draw(st.integers(0, 12)), draw(st.sampled_from([None, "S", "H", "C", "D"])),
                  ShengjiRules(permanent_twos=draw(st.booleans())))
    suit = draw(st.sampled_from([s for s in range(5) if len(ctx.slots[s]) >= 11]))
    ladder = ctx.slots[suit]
    start = draw(st.integers(0, len(ladder) - 11))
    slots = ladder[start:start + 11]
    window = [c for rung in slots for c in rung]
    i = draw(st.integers(0, len(slots) - 4))
    lead = [c for rung in slots[i:i + 4] for c in [draw(st.sampled_from(rung))] * 2]
    left = {c: 2 for c in window}
    for c in lead:
        left[c] -= 2
    extra = draw(st.sampled_from([0, 0, 1, 2]))
    if extra:
        lead += [draw(st.sampled_from([c for c in window if left[c] >= extra]))] * extra
        left[lead[-1]] -= extra
    hand = []
    for c in window:
        hand += [c] * min(left[c], draw(st.sampled_from([2, 2, 0, 1, 2])))
    hand = hand[:11]
    hand += [draw(st.sampled_from([c for c in range(54) if ctx.suit_of[c] != suit]))]
    return ctx, [CARDS[c] for c in sorted(hand)], [CARDS[c] for c in lead]


@given(four_pair_cases())
@settings(max_examples=40, deadline=None)
def test_property_rule_6_four_pair_tractor_follow_matches_exhaustive_reference(case):
    """§6 revised: the follow of a 4-pair tractor (and of a throw with one), every play of
    the hand checked against the exhaustive reference; the enumeration against brute force."""
    ctx, hand, lead = case
    kinds = sorted(set(hand))
    for takes in itertools.product(*(range(hand.count(c) + 1) for c in kinds)):
        if sum(takes) != len(lead):
            continue
        play = [c for c, t in zip(kinds, takes) for _ in range(t)]
        assert is_legal_follow(hand, lead, play, ctx) == reference_is_legal(hand, lead, play, ctx), play
    assert set(legal_follows(hand, lead, ctx)) == brute_force_follows(hand, lead, ctx)


@given(follow_cases())
@settings(max_examples=60)
def test_property_count_legal_follows_matches_enumeration(case):
    ctx, hand, lead = case
    assert count_legal_follows(hand, lead, ctx) == len(legal_follows(hand, lead, ctx))


def test_count_legal_follows_void_on_long_throw_without_enumerating():
    hand = "H2 H3 H4 H5 H6 H8 H9 HT HJ HQ"     # void in spades, ten distinct cards
    assert count_legal_follows(hand, "SASA SK SQ", L7C) == 210   # C(10, 4)
