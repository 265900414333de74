"""guandan.md §6: tribute (进贡), return (还贡), 抗贡; enforcement.md GD-5 (no tribute after a
forced result). Hands are full-size (27 cards; 28 for a receiver holding the tribute)."""

from collections import Counter

import pytest
from hypothesis import given, strategies as st

from guandan.ranks import level_index, power_of_card, wild_card
from guandan.tribute import (
    TributePlan, finishing_order, level_gain, plan_tribute, return_choices, tribute_choices,
    why_illegal_return, why_illegal_tribute,
)
from tabletop.cards import Card, full_deck, parse_cards, to_counts
from tabletop.seats import next_seat, partner, prev_seat, team


def hand(text: str, size: int = 27) -> list[Card]:
    """A realistic hand: ``size`` cards, at most two copies of each."""
    cards = parse_cards(text)
    assert len(cards) == size, f"{len(cards)} cards in {text!r}"
    assert max(Counter(cards).values()) <= 2
    return cards


def table(**seat_hands: str) -> list[list[Card]]:
    """Four 27-card hands: the seats given (s0=…, s1=…) explicitly, the others dealt the
    rest of the two-deck pack in index order."""
    hands: list[list[Card] | None] = [None] * 4
    rest = Counter(full_deck(2))
    for key, text in seat_hands.items():
        cards = hand(text)
        hands[int(key[1])] = cards
        rest.subtract(cards)
    assert min(rest.values()) >= 0, "the explicit hands use a card more than twice"
    pool = sorted(rest.elements())
    for seat in range(4):
        if hands[seat] is None:
            hands[seat], pool = pool[:27], pool[27:]
    return hands  # type: ignore[return-value]


def codes(cards) -> list[str]:
    return [str(c) for c in cards]


# Top card A (two copies), no jokers, no 5s, no level cards at level 5.
ACES_AT_5 = "S2 H2 S3 D3 C4 D4 S6 H6 C7 D7 S8 H8 C9 D9 ST HT CJ DJ SQ HQ CK DK C6 C8 DT SA DA"
# Top card K, plus both heart 5s (the wilds at level 5).
KINGS_AND_WILDS_AT_5 = "S2 H2 S3 D3 C4 D4 S6 H6 C7 D7 S8 H8 C9 D9 ST HT CJ DJ SQ HQ CK DK H5 H5 DT C6 C8"
# Top card A, one big joker held by nobody here, two small jokers.
SMALL_JOKERS = "S2 H2 S3 D3 C4 D4 S6 H6 C7 D7 S8 H8 C9 D9 ST HT CJ DJ SQ HQ CK DK BJ BJ DT SA DA"
ONE_BIG_JOKER = "S2 H2 S3 D3 C4 D4 S6 H6 C7 D7 S8 H8 C9 D9 ST HT CJ DJ SQ HQ CK DK BJ RJ DT SA DA"
TWO_BIG_JOKERS = "S2 H2 S3 D3 C4 D4 S6 H6 C7 D7 S8 H8 C9 D9 ST HT CJ DJ SQ HQ CK DK RJ RJ DT SA DA"
# Top card K for the double-tribute comparisons (no A, no jokers, no 5s).
KINGS_AT_5 = "S2 H2 S3 D3 C4 D4 S6 H6 C7 D7 S8 H8 C9 D9 ST HT CJ DJ SQ HQ CK DK SK C6 C8 DT C3"


# ---------------------------------------------------------------------------------------------
# §6 tribute card: the highest card at the new level, heart level card excluded

def test_rule_6_tribute_is_the_highest_card_any_copy_of_that_rank():
    assert codes(tribute_choices(hand(ACES_AT_5), "5")) == ["SA", "DA"]


def test_rule_6_heart_level_card_is_never_tributed():
    cards = hand(KINGS_AND_WILDS_AT_5)
    assert wild_card(level_index("5")) == Card("H5")
    assert codes(tribute_choices(cards, "5")) == ["CK", "DK"]


def test_rule_6_heart_level_card_never_tributed_even_as_the_only_level_card_above_A():
    cards = hand(ACES_AT_5.replace("C6 C8", "H5 S5"))
    assert codes(tribute_choices(cards, "5")) == ["S5"]
    cards = hand(ACES_AT_5.replace("C6 C8", "H5 H5"))
    assert codes(tribute_choices(cards, "5")) == ["SA", "DA"]


def test_rule_6_non_heart_level_card_counts_as_the_top_rank_above_A():
    cards = hand(ACES_AT_5.replace("C6 C8", "C5 D5"))
    assert codes(tribute_choices(cards, "5")) == ["C5", "D5"]


def test_rule_6_level_2_card_ranks_above_A():
    cards = hand(ACES_AT_5.replace("C6 C8", "D2 C5"))
    assert codes(tribute_choices(cards, "2")) == ["S2", "D2"]  # H2 is the wild at level 2


def test_rule_6_at_level_A_the_heart_A_is_wild_and_the_other_aces_top():
    cards = hand(ACES_AT_5.replace("SA DA", "HA DA"))
    assert codes(tribute_choices(cards, "A")) == ["DA"]
    cards = hand(ACES_AT_5.replace("SA DA", "HA HA"))
    assert codes(tribute_choices(cards, "A")) == ["CK", "DK"]


def test_rule_6_big_joker_must_be_given_if_held():
    assert codes(tribute_choices(hand(ONE_BIG_JOKER), "5")) == ["RJ"]
    assert codes(tribute_choices(hand(ONE_BIG_JOKER.replace("DT", "H5")), "5")) == ["RJ"]


def test_rule_6_small_joker_when_no_big_joker():
    assert codes(tribute_choices(hand(SMALL_JOKERS), "5")) == ["BJ"]


def test_tribute_choices_accept_text_count_vectors_and_any_level_form():
    text = ACES_AT_5.replace("C6 C8", "ST CT")
    for level in ("T", "10", 8):
        assert codes(tribute_choices(text, level)) == ["ST", "CT", "DT"]
        assert codes(tribute_choices(to_counts(text), level)) == ["ST", "CT", "DT"]


def test_why_illegal_tribute_names_the_reason():
    cards = hand(KINGS_AND_WILDS_AT_5)
    assert why_illegal_tribute(cards, "CK", "5") is None
    assert "wild" in why_illegal_tribute(cards, "H5", "5")
    assert "CK DK" in why_illegal_tribute(cards, "SQ", "5")
    assert "not in the payer's hand" in why_illegal_tribute(cards, "SA", "5")


# ---------------------------------------------------------------------------------------------
# §6 return card: natural 2–10, no level cards (at level 10: 2–9), else the lowest card

# 28 cards: a receiver's hand after the tribute, one or two of every rank.
RECEIVER = "S2 S3 H3 S4 S5 H5 C5 S6 S7 S8 S9 ST HT DT SJ DJ SQ SK DK SA CA BJ RJ C7 D9 H2 C4 D6"


def test_rule_6_return_limit_at_level_5_excludes_the_5s_and_the_court_cards():
    cards = hand(RECEIVER, 28)
    assert codes(return_choices(cards, "5")) == [
        "S2", "H2", "S3", "H3", "S4", "C4", "S6", "D6", "S7", "C7", "S8", "S9", "D9", "ST", "HT", "DT"]


def test_rule_6_return_limit_at_level_10_is_9():
    cards = hand(RECEIVER, 28)
    choices = codes(return_choices(cards, "10"))
    assert choices[-1] == "D9" and not any(c.endswith("T") for c in choices)
    assert "S5" in choices and "H5" in choices


def test_rule_6_return_at_level_A_allows_2_to_10():
    cards = hand(RECEIVER, 28)
    choices = return_choices(cards, "A")
    assert {c.rank for c in choices} == set("23456789T")


def test_rule_6_return_excludes_the_level_card_in_any_suit():
    cards = hand(RECEIVER, 28)
    assert not any(c.rank == "7" for c in return_choices(cards, "7"))
    assert not any(c.rank == "2" for c in return_choices(cards, "2"))


# 28 cards with nothing of rank 2–10: J Q K A, jokers.
NO_LOW_CARDS = "SJ HJ CJ DJ SJ SQ HQ CQ DQ SQ HQ SK HK CK DK SK HK SA HA CA DA SA HA BJ BJ RJ CA DJ"


def test_rule_6_return_falls_back_to_the_lowest_card():
    cards = hand(NO_LOW_CARDS, 28)
    assert codes(return_choices(cards, "5")) == ["SJ", "HJ", "CJ", "DJ"]


def test_rule_6_return_fallback_is_level_aware():
    cards = hand(NO_LOW_CARDS, 28)
    assert codes(return_choices(cards, "J")) == ["SQ", "HQ", "CQ", "DQ"]  # J is above A now


def test_return_fallback_with_only_level_cards_and_jokers_returns_a_level_card():
    assert codes(return_choices("H5 C5 BJ RJ", "5")) == ["H5", "C5"]
    assert return_choices("", "5") == []


def test_why_illegal_return_names_the_reason():
    cards = hand(RECEIVER, 28)
    assert why_illegal_return(cards, "D9", "10") is None
    assert "rank 2-10" in why_illegal_return(cards, "ST", "10")
    assert "rank 2-10" in why_illegal_return(cards, "SJ", "5")
    assert "not in the receiver's hand" in why_illegal_return(cards, "D2", "5")


# ---------------------------------------------------------------------------------------------
# §6 who pays whom, who leads

def test_rule_6_single_tribute_last_pays_first_and_leads():
    hands = table(s2=ACES_AT_5)
    plan = plan_tribute([1, 0, 3, 2], hands, "5")  # 1-3 finish for team 1
    assert plan == TributePlan(payments=((2, 1),), leader=2)
    assert plan.returns == ((1, 2),)
    assert not plan.double and not plan.resisted and not plan.waived


def test_rule_6_single_tribute_after_a_1_4_finish_the_partner_pays():
    hands = table(s2=ACES_AT_5)
    plan = plan_tribute([0, 1, 3, 2], hands, "5")  # 下游 2 is the 上游's partner
    assert plan.payments == ((2, 0),) and plan.leader == 2


def test_rule_6_double_tribute_larger_card_goes_to_the_upstream():
    hands = table(s1=ONE_BIG_JOKER, s3=ACES_AT_5)  # 上游 0, 二游 2
    plan = plan_tribute([0, 2, 3, 1], hands, "5")
    assert plan.double and plan.payments == ((1, 0), (3, 2)) and plan.leader == 1
    assert plan.returns == ((0, 1), (2, 3))


def test_rule_6_double_tribute_upstream_of_the_shangyou_can_pay_the_shangyou():
    hands = table(s1=KINGS_AT_5, s3=ACES_AT_5)
    plan = plan_tribute([0, 2, 1, 3], hands, "5")
    assert plan.payments == ((3, 0), (1, 2)) and plan.leader == 3


def test_rule_6_double_tribute_level_card_beats_an_ace():
    hands = table(s0=ACES_AT_5, s2=ACES_AT_5.replace("C6 C8", "S5 C5"))  # 上游 1, 二游 3
    plan = plan_tribute([1, 3, 0, 2], hands, "5")
    assert plan.payments == ((2, 1), (0, 3)) and plan.leader == 2


def test_rule_6_double_tribute_equal_cards_shangyou_xiajia_pays_shangyou_and_leads():
    hands = table(s0=ACES_AT_5, s2=ACES_AT_5.replace("SA DA", "CA HA"))  # 上游 3
    plan = plan_tribute([3, 1, 2, 0], hands, "5")
    assert next_seat(3) == 0 and prev_seat(3) == 2
    assert plan.payments == ((0, 3), (2, 1)) and plan.leader == 0


def test_rule_6_double_tribute_level_cards_of_different_suits_are_equal():
    hands = table(s1=ACES_AT_5.replace("C6 C8", "S5 S5"), s3=ACES_AT_5.replace("C6 C8", "D5 C5"))
    plan = plan_tribute([2, 0, 3, 1], hands, "5")  # 上游 2: 下家 3, 上家 1
    assert plan.payments == ((3, 2), (1, 0)) and plan.leader == 3


def test_rule_6_double_tribute_order_of_the_losers_does_not_matter():
    hands = table(s1=KINGS_AT_5, s3=ACES_AT_5)
    assert plan_tribute([0, 2, 1, 3], hands, "5") == plan_tribute([0, 2, 3, 1], hands, "5")
    assert plan_tribute([0, 2], hands, "5") == plan_tribute([0, 2, 3, 1], hands, "5")


def test_rule_6_kanggong_single_payer_with_both_big_jokers():
    hands = table(s3=TWO_BIG_JOKERS)
    plan = plan_tribute([0, 1, 2, 3], hands, "5")
    assert plan == TributePlan(payments=(), leader=0, resisted=True)
    assert plan.returns == ()


def test_rule_6_kanggong_double_payers_one_big_joker_each():
    hands = table(s1=ONE_BIG_JOKER, s3=ONE_BIG_JOKER.replace("BJ", "SK"))
    plan = plan_tribute([2, 0, 1, 3], hands, "5")
    assert plan == TributePlan(payments=(), leader=2, resisted=True, double=True)


def test_rule_6_kanggong_double_payers_both_big_jokers_in_one_hand():
    hands = table(s1=TWO_BIG_JOKERS, s3=ACES_AT_5)
    plan = plan_tribute([0, 2, 3, 1], hands, "5")
    assert plan.resisted and plan.payments == () and plan.leader == 0


def test_rule_6_one_big_joker_does_not_resist_it_is_given():
    hands = table(s3=ONE_BIG_JOKER)
    plan = plan_tribute([0, 1, 2, 3], hands, "5")
    assert not plan.resisted and plan.payments == ((3, 0),)
    assert codes(tribute_choices(hands[3], "5")) == ["RJ"]


def test_rule_6_big_jokers_of_the_single_payers_partner_do_not_resist():
    hands = table(s1=TWO_BIG_JOKERS, s3=ACES_AT_5)
    plan = plan_tribute([0, 2, 1, 3], hands, "5")
    assert plan.double and plan.resisted  # double: both losers count
    plan = plan_tribute([0, 1, 2, 3], hands, "5")
    assert not plan.resisted and plan.payments == ((3, 0),)  # single: only the 下游 counts


# ---------------------------------------------------------------------------------------------
# GD-5: referee rulings that waive the tribute

def test_GD_5_1_the_excused_single_payer_gives_no_tribute_and_the_shangyou_leads():
    hands = table(s3=ACES_AT_5)
    plan = plan_tribute([0, 1, 2, 3], hands, "5", no_tribute_seats={3})
    assert plan == TributePlan(payments=(), leader=0, waived=True, excused=(3,))


def test_GD_5_1_excusing_a_seat_that_does_not_pay_changes_nothing():
    hands = table(s3=ACES_AT_5)
    for seat in (0, 1, 2):
        assert plan_tribute([0, 1, 2, 3], hands, "5", no_tribute_seats={seat}) == plan_tribute(
            [0, 1, 2, 3], hands, "5")


def test_GD_5_1_one_double_payer_excused_the_other_pays_a_single_tribute_to_the_shangyou():
    hands = table(s1=ONE_BIG_JOKER, s3=ACES_AT_5)
    for excused, payer in ((1, 3), (3, 1)):
        plan = plan_tribute([0, 2, 1, 3], hands, "5", no_tribute_seats={excused})
        assert plan.payments == ((payer, 0),) and plan.leader == payer     # the payer leads
        assert plan.double and plan.excused == (excused,) and not plan.waived


def test_GD_5_1_kanggong_counts_only_the_big_jokers_of_the_seat_still_paying():
    hands = table(s1=ONE_BIG_JOKER, s3=ONE_BIG_JOKER)
    assert plan_tribute([0, 2, 1, 3], hands, "5").resisted              # one each: 抗贡
    plan = plan_tribute([0, 2, 1, 3], hands, "5", no_tribute_seats={3})
    assert not plan.resisted and plan.payments == ((1, 0),)
    both = table(s1=TWO_BIG_JOKERS, s3=ACES_AT_5)
    plan = plan_tribute([0, 2, 1, 3], both, "5", no_tribute_seats={3})
    assert plan.resisted and plan.liable == (1,) and plan.leader == 0    # its own two: 抗贡


def test_GD_5_2_no_tribute_and_the_referee_fixes_the_leader():
    hands = table(s1=ONE_BIG_JOKER, s3=ACES_AT_5)
    plan = plan_tribute([0, 2, 1, 3], hands, "5", no_tribute=True, leader=2)
    assert plan == TributePlan(payments=(), leader=2, double=True, waived=True)
    plan = plan_tribute([0, 2, 1, 3], hands, "5", no_tribute_seats=frozenset({1, 3}), leader=1)
    assert plan.waived and plan.leader == 1


def test_a_leader_cannot_be_imposed_on_a_tribute_that_is_due():
    hands = table(s3=ACES_AT_5)
    with pytest.raises(ValueError, match="waived"):
        plan_tribute([0, 1, 2, 3], hands, "5", leader=1)


def test_no_tribute_seats_are_seats():
    with pytest.raises(ValueError, match="seat"):
        plan_tribute([0, 1, 2, 3], table(), "5", no_tribute_seats={4})


# ---------------------------------------------------------------------------------------------
# finishing order and level gain

@pytest.mark.parametrize("order, expected", [
    ([0, 2, 1, 3], (0, 3)), ([1, 3], (1, 3)), ([3, 1, 0, 2], (1, 3)),
    ([0, 1, 2, 3], (0, 2)), ([3, 2, 1], (1, 2)),
    ([0, 1, 3, 2], (0, 1)), ([1, 2, 0, 3], (1, 1)),
])
def test_rule_7_level_gain_3_for_1_2_then_2_for_1_3_then_1_for_1_4(order, expected):
    assert level_gain(order) == expected


def test_finishing_order_completes_a_known_result():
    assert finishing_order([0, 2]) == (0, 2, 1, 3)
    assert finishing_order([1, 0, 2]) == (1, 0, 2, 3)
    assert finishing_order((3, 0, 1, 2)) == (3, 0, 1, 2)


@pytest.mark.parametrize("order", [[0, 1], [0, 0, 1, 2], [0, 1, 2, 4], [0], [0, 1, 2, 3, 0]])
def test_finishing_order_rejects_what_is_not_a_finished_deal(order):
    with pytest.raises(ValueError):
        finishing_order(order)


# ---------------------------------------------------------------------------------------------
# properties on random deals

LEVELS = st.integers(0, 12)


@st.composite
def deals(draw):
    deck = draw(st.permutations(full_deck(2)))
    return [deck[i * 27:(i + 1) * 27] for i in range(4)]


@given(deals(), st.permutations(range(4)), LEVELS)
def test_property_plan_tribute_is_consistent(hands, order, level):
    plan = plan_tribute(order, hands, level)
    top, second = order[0], order[1]
    double = second == partner(top)
    assert plan.double == double
    assert plan.leader in plan.payers or (plan.leader == top and not plan.payments)
    big_jokers = lambda seats: sum(hands[s].count(Card("RJ")) for s in seats)  # noqa: E731
    if double:
        losers = {next_seat(top), prev_seat(top)}
        assert plan.resisted == (big_jokers(losers) == 2)
        if not plan.resisted:
            assert set(plan.payers) == losers and plan.receivers == (top, second)
            assert all(team(p) != team(top) for p in plan.payers)
            first, other = (power_of_card(tribute_choices(hands[p], level)[0], level) for p in plan.payers)
            assert first >= other
            assert plan.leader == plan.payers[0]
    else:
        assert plan.resisted == (big_jokers([order[3]]) == 2)
        if not plan.resisted:
            assert plan.payments == ((order[3], top),) and plan.leader == order[3]


@given(deals(), st.integers(0, 3), LEVELS)
def test_property_tribute_choices_are_the_top_power_of_the_hand(hands, seat, level):
    cards = hands[seat]
    choices = tribute_choices(cards, level)
    wild = wild_card(level)
    powers = {power_of_card(c, level) for c in choices}
    assert len(powers) == 1 and wild not in choices and set(choices) <= set(cards)
    top = powers.pop()
    assert all(power_of_card(c, level) <= top for c in cards if c != wild)
    assert {c for c in cards if c != wild and power_of_card(c, level) == top} == set(choices)
    assert choices == sorted(set(choices), key=lambda c: (c.rank_index, c.suit_index))


@given(deals(), st.integers(0, 3), LEVELS)
def test_property_return_choices_are_low_natural_non_level_cards(hands, seat, level):
    cards = hands[seat]
    choices = return_choices(cards, level)
    assert choices and set(choices) <= set(cards)
    low = {c for c in cards if not c.is_joker and c.rank_index <= 8 and c.rank_index != level}
    if low:
        assert set(choices) == low
    else:
        lowest = min(power_of_card(c, level) for c in cards)
        assert {power_of_card(c, level) for c in choices} == {lowest}


@given(deals(), st.permutations(range(4)), LEVELS, st.sets(st.integers(0, 3)))
def test_property_GD_5_1_excused_seats_never_pay_and_the_others_still_owe(hands, order, level, excused):
    plan = plan_tribute(order, hands, level, no_tribute_seats=excused)
    usual = plan_tribute(order, hands, level)
    due = {next_seat(order[0]), prev_seat(order[0])} if usual.double else {order[3]}
    assert not set(plan.payers) & excused
    assert set(plan.excused) == due & excused
    still = due - excused
    if not still:
        assert plan.waived and not plan.payments and plan.leader == order[0]
    elif not plan.resisted:
        assert set(plan.payers) == still and plan.leader in plan.payers
        assert all(receiver == order[0] for _, receiver in plan.payments) or len(still) == 2
    if not excused & due:
        assert plan == usual
