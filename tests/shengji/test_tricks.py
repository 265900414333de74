"""§6 Winning tricks (shengji.tricks). Level 7, trump clubs unless said otherwise."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.cards import full_deck, parse_cards
from shengji.context import TRUMP, Context
from shengji.follow import sample_follow
from shengji.rules import ShengjiRules
from shengji.tricks import throw_cover, trick_winner
from shengji.units import decompose, shape

L7C = Context("7", "C")
ALL_UNITS = ShengjiRules(throw_compare="all_units")


def winner(*plays, ctx=L7C, rules=None):
    return trick_winner(list(plays), ctx, rules)


# -- singles -----------------------------------------------------------------------------------

def test_rule_6_higher_single_of_led_suit_wins():
    assert winner("S9", "SK", "S3", "SQ") == 1


def test_rule_6_off_suit_discard_never_wins():
    assert winner("S9", "HA", "DA", "S3") == 0


def test_rule_6_trump_beats_led_suit():
    assert winner("SA", "C2", "SK", "S3") == 1


def test_rule_6_over_trump_with_higher_trump():
    assert winner("SA", "C2", "BJ", "C3") == 2


def test_rule_4_equal_cards_first_played_wins():
    assert winner("S9", "SA", "SA", "S3") == 1


def test_rule_4_equal_offsuit_level_cards_first_played_wins():
    assert winner("C3", "H7", "D7", "S7") == 1


def test_rule_4_trump_order_in_play():
    assert winner("H7", "C7", "CA", "BJ") == 3
    assert winner("CA", "H7", "C7", "D7") == 2
    assert winner("BJ", "RJ", "C7", "CA") == 1


def test_rule_4_no_trump_level_card_trumps_side_ace():
    ctx = Context("7", None)
    assert winner("SA", "S7", "SK", "BJ", ctx=ctx) == 3
    assert winner("SA", "S7", "SK", "H7", ctx=ctx) == 1


def test_rule_4_permanent_twos_trump_side_cards():
    ctx = Context("7", "C", ShengjiRules(permanent_twos=True))
    assert winner("SA", "S2", "C2", "CA", ctx=ctx) == 2


# -- pairs and tractors --------------------------------------------------------------------------

def test_rule_6_pair_beaten_only_by_higher_pair():
    assert winner("S9S9", "SKSK", "SA S3", "SQSQ") == 1


def test_rule_6_two_trumps_that_are_not_a_pair_cannot_beat_a_pair():
    assert winner("S9S9", "C2 C3", "S3 S4", "H7 D7") == 0


def test_rule_6_trump_pair_beats_side_pair_and_higher_trump_pair_over_trumps():
    assert winner("SASA", "C2C2", "S3S4", "C3C3") == 3


def test_rule_6_mixed_follow_never_wins():
    assert winner("S9S9", "C2 SA", "CA SK", "S3 S4") == 0


def test_rule_6_tractor_beaten_by_higher_tractor_of_same_length():
    assert winner("S3S3S4S4", "S5S5S6S6", "S9S9SJSJ", "S2 S8 SQ SK") == 1


def test_rule_6_tractor_not_beaten_by_separate_pairs():
    assert winner("S3S3S4S4", "S9S9SJSJ", "C2C2C5C5", "S2 S8 SQ SK") == 0


def test_rule_6_trump_tractor_beats_side_tractor_and_is_over_trumped():
    assert winner("S3S3S4S4", "C2C2C3C3", "H7H7C7C7", "BJBJRJRJ") == 3
    assert winner("S3S3S4S4", "C2C2C3C3", "H7H7C7C7", "CQCQCKCK") == 2


def test_rule_6_equal_tractors_first_played_wins():
    # No-trump 常主: S2S2S7S7 and H2H2H7H7 are tractors of equal rank.
    ctx = Context("7", None, ShengjiRules(permanent_twos=True))
    assert winner("S3S3S4S4", "S2S2S7S7", "H2H2H7H7", "D2 D3 D4 D5", ctx=ctx) == 1


# -- throws ------------------------------------------------------------------------------------

def test_rule_6_throw_beaten_by_all_trump_play_of_same_shape():
    assert winner("SASA SK", "C2C2 C3", "S3 S4 S5", "D2D2 D3") == 1


def test_rule_6_throw_not_beaten_by_led_suit_play_of_same_shape():
    assert winner("SKSK SQ", "SASA S3", "S4 S5 S6", "D2D2 D3") == 0


def test_rule_6_throw_not_beaten_by_trumps_that_do_not_cover_it():
    assert winner("SASA SK", "C2 C3 C4", "S3 S4 S5", "C5 C6 C8") == 0
    # a led tractor needs a trump tractor: two separate trump pairs do not cover it
    assert winner("S3S3S4S4 SK", "C2C2C5C5 C9", "S5 S6 S8 S9 SA", "H2 H3 H4 H5 H6") == 0


def test_rule_6_throw_of_two_pairs_beaten_by_two_trump_pairs():
    assert winner("SASA SQSQ", "C2C2C4C4", "S3 S4 S5 S6", "H2 H3 H4 H5") == 1


def test_rule_6_throw_over_trumped_by_higher_largest_unit():
    assert winner("SASA SK", "C2C2 C3", "C5C5 C4", "S3 S4 S5") == 2
    assert winner("SASA SK", "C5C5 C3", "C2C2 CA", "S3 S4 S5") == 1


def test_rule_6_throw_compare_all_units_option():
    plays = ["SASA SK", "C2C2 C3", "C5C5 C2", "S3 S4 S5"]
    assert trick_winner(plays, L7C) == 2
    assert trick_winner(plays, L7C, ALL_UNITS) == 1
    assert trick_winner(plays, Context("7", "C", ALL_UNITS)) == 1
    assert trick_winner(["SASA SK", "C2C2 C3", "C5C5 C4", "S3 S4 S5"], L7C, ALL_UNITS) == 2


def test_rule_6_trump_throw_over_trumped_by_higher_trumps():
    assert winner("CACA CK", "BJBJ C2", "C3 C4 C5", "RJ C6 C8") == 1


def test_trick_winner_accepts_card_lists_and_any_number_of_plays():
    assert trick_winner([parse_cards("S9"), parse_cards("SK")], L7C) == 1
    assert trick_winner(["S9"], L7C) == 0


def test_rule_6_wrong_sized_play_never_wins():
    assert winner("S9", "SA SK", "S3", "S4") == 0


# -- properties -----------------------------------------------------------------------------------

def random_trick(seed):
    rng = np.random.default_rng(seed)
    ctx = Context(int(rng.integers(13)), [None, "S", "H", "C", "D"][int(rng.integers(5))],
                  ShengjiRules(permanent_twos=bool(rng.integers(2)),
                               throw_compare=["largest_unit", "all_units"][int(rng.integers(2))]))
    deck = full_deck(2)
    order = rng.permutation(len(deck))
    hands = [[deck[i] for i in order[25 * s:25 * s + 25]] for s in range(4)]
    first = hands[0][int(rng.integers(25))]
    units = decompose([c for c in hands[0] if ctx.suit_of[c] == ctx.suit_of[first]], ctx)
    pick = rng.permutation(len(units))[: 1 + int(rng.integers(min(3, len(units))))]
    lead = [c for i in sorted(pick) for c in units[i].cards]
    plays = [lead] + [list(sample_follow(h, lead, ctx, rng)) for h in hands[1:]]
    return ctx, plays


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=200)
def test_property_winner_is_lead_or_same_shape_in_led_suit_or_trumps_or_a_trump_cover(seed):
    ctx, plays = random_trick(seed)
    w = trick_winner(plays, ctx)
    assert 0 <= w < len(plays)
    throw = len(decompose(plays[0], ctx)) > 1
    if w:
        suits = {ctx.suit_of[c] for c in plays[w]}
        led = ctx.suit_of[plays[0][0]]
        assert suits in ({led}, {TRUMP})
        if throw:
            assert suits == {TRUMP} and throw_cover(plays[w], plays[0], ctx) is not None
        else:
            assert shape(plays[w], ctx) == shape(plays[0], ctx)
    if not throw:
        # Nothing after the winner beats it, and the winner beats what it took over from.
        assert trick_winner(plays[w:], ctx) == 0


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=100)
def test_property_single_trick_winner_is_highest_eligible_card_earliest(seed):
    rng = np.random.default_rng(seed)
    ctx = Context(int(rng.integers(13)), [None, "S", "H", "C", "D"][int(rng.integers(5))])
    cards = [full_deck(2)[i] for i in rng.choice(108, size=4, replace=False)]
    led = ctx.suit_of[cards[0]]

    def strength(c):
        s = ctx.suit_of[c]
        if s == TRUMP:
            return 100 + ctx.order_of[c]
        return ctx.order_of[c] if s == led else -1

    best = max(range(4), key=lambda i: (strength(cards[i]), -i))
    assert trick_winner([[c] for c in cards], ctx) == best
