"""§5 Throws (甩牌): a throw stands only if no other player can beat one of its units; a failed
throw plays its smallest beatable unit (shengji.throws). Level 7, trump clubs."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tabletop.cards import full_deck, parse_cards
from shengji.context import Context, count_vector
from shengji.throws import failed_throw_units, first_failed_unit, throw_outcome

L7C = Context("7", "C")


def outcome(lead, *others):
    return "".join(str(c) for c in throw_outcome(lead, list(others), L7C))


def test_rule_5_throw_stands_when_nobody_holds_a_higher_unit():
    assert outcome("SASA SK", "S2 S3 HA", "SQSQ", "D4") == "SASASK"


def test_rule_5_throw_fails_on_higher_single():
    assert outcome("SA SQ", "SK", "S2", "HA") == "SQ"


def test_rule_5_throw_fails_on_higher_pair():
    assert outcome("SASA SQSQ", "SKSK", "", "") == "SQSQ"


def test_rule_5_throw_pair_not_beaten_by_two_higher_single_cards():
    assert outcome("SASA SQSQ", "SK", "SK", "") == "SASASQSQ"


def test_rule_5_throw_tractor_fails_on_higher_tractor():
    assert outcome("S3S3S4S4 SA", "S8S8S9S9", "", "") == "S3S3S4S4"


def test_rule_5_throw_tractor_fails_on_longer_higher_tractor():
    assert outcome("S3S3S4S4 SA", "S8S8S9S9STST", "", "") == "S3S3S4S4"


def test_rule_5_throw_tractor_stands_against_longer_lower_tractor():
    assert outcome("S5S5S6S6 SA", "S2S2S3S3S4S4", "", "") == "S5S5S6S6SA"


def test_rule_5_throw_tractor_stands_against_shorter_higher_tractor():
    assert outcome("S3S3S4S4S5S5 SA", "SJSJSQSQ", "", "") == "S3S3S4S4S5S5SA"


def test_rule_5_throw_tractor_stands_against_higher_pairs_that_are_not_a_tractor():
    assert outcome("S5S5S6S6 SA", "S9S9 SJSJ", "", "") == "S5S5S6S6SA"


def test_rule_5_throw_units_of_different_players_never_combine():
    assert outcome("S9S9STST SA", "SJSJ", "SQSQ", "") == "S9S9STSTSA"


def test_rule_5_failed_throw_plays_fewest_cards_then_lowest():
    assert outcome("SKSK S9 S3", "SASA", "", "") == "S3"
    assert outcome("S3S3S4S4 S9S9", "STSTSJSJ", "", "") == "S9S9"


def test_rule_5_equal_rank_unit_does_not_beat():
    assert outcome("H7H7 BJ", "D7D7 C2", "", "") == "H7H7BJ"


def test_rule_5_trump_throw_fails_against_joker_pair():
    assert outcome("CACA CK", "BJBJ", "", "") == "CK"
    units = failed_throw_units("CACA CK", ["BJBJ"], L7C)
    assert [str(u) for u in units] == ["CK", "CACA"]


def test_rule_5_partner_hand_counts_like_any_other():
    # The caller passes all three other hands, partner included.
    assert outcome("SA SQ", "", "SK", "") == "SQ"


def test_single_unit_lead_is_not_a_throw():
    assert outcome("S3", "SA", "", "") == "S3"
    assert outcome("S3S3S4S4", "SASASKSK", "", "") == "S3S3S4S4"
    assert failed_throw_units("S3S3", ["SASA"], L7C) == []


def test_throw_outcome_returns_the_lead_as_given():
    lead = parse_cards("SK SASA")
    assert throw_outcome(lead, ["", "", ""], L7C) == lead


def test_throw_must_lie_in_one_effective_suit():
    with pytest.raises(ValueError):
        throw_outcome("SA HA", ["", "", ""], L7C)
    with pytest.raises(ValueError):
        throw_outcome("", ["", "", ""], L7C)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.sampled_from(["S", "H", "C", "D", None]),
       level=st.sampled_from(["2", "7", "A"]))
def test_rule_5_a_deals_throw_check_plays_the_smallest_beatable_unit(seed, trump, level):
    """``first_failed_unit`` (what a deal asks, from the other hands' counts, units tried
    smallest first) is ``failed_throw_units``' first unit on random throws of one suit."""
    ctx = Context(level, trump)
    rng = np.random.default_rng(seed)
    deck = full_deck(2)
    order = rng.permutation(len(deck))
    hands = [[deck[i] for i in order[25 * s:25 * s + 25]] for s in range(4)]
    by_suit: dict[int, list] = {}
    for c in hands[0]:
        by_suit.setdefault(ctx.suit_of[c], []).append(c)
    suits = [cards for cards in by_suit.values() if len(cards) >= 2]
    assume(suits)
    cards = suits[int(rng.integers(len(suits)))]
    lead = [cards[i] for i in sorted(rng.choice(len(cards), size=int(rng.integers(2, len(cards) + 1)), replace=False))]
    failed = failed_throw_units(lead, hands[1:], ctx)
    got = first_failed_unit(lead, [count_vector(h) for h in hands[1:]], ctx)
    assert got == (failed[0] if failed else None)
