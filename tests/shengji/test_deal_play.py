"""shengji.md §3, §5–7 through the engine: the kitty, leads and follows, failed throws,
trick points, the kitty bonus on the last trick, the result table and the next banker."""

import pytest

from shengji.actions import Bury, Declare, NoDeclare, Play
from shengji.deal import Deal, Phase
from shengji.events import (
    Buried, CardsPlayed, DealScored, KittyRevealed, ThrowFailed, ThrowPenalty, TrickWon,
)
from shengji.rules import ShengjiRules
from tabletop.cards import parse_cards
from tabletop.errors import IllegalAction


def fresh(*args, **kwargs):
    """Deal.from_hands with its set-up events taken."""
    deal = Deal.from_hands(*args, **kwargs)
    deal.take_events()
    return deal


def play(deal, seat, text):
    return deal.apply(Play(seat, parse_cards(text)))


# ---------------------------------------------------------------------------------------------
# Kitty


def test_banker_has_33_then_25_after_burying_8():
    deal = Deal(4, banker=2, rules=ShengjiRules(no_bid="no_trump"))
    deal.take_events()
    while deal.phase is not Phase.KITTY:
        deal.apply(NoDeclare(deal.to_act))
    assert deal.to_act == 2 and deal.hand_size == [25, 25, 33, 25]
    hand = deal.hand(2)
    events = deal.apply(Bury(2, hand[:8]))
    assert isinstance(events[0], Buried) and events[0].cards == tuple(str(c) for c in hand[:8])
    assert deal.hand_size == [25, 25, 25, 25]
    assert deal.phase is Phase.PLAY and deal.to_act == 2          # the banker leads


def test_bury_must_be_8_cards():
    deal = fresh(["S2 S3", "S4 S5", "S6 S7", "S8 S9"], "2", "H", 0,
                           kitty=parse_cards("HA HK HQ HJ HT H9 H8 H7"), at="kitty")
    assert deal.hand_size[0] == 10
    with pytest.raises(IllegalAction, match="kitty must be 8 cards"):
        deal.apply(Bury(0, parse_cards("S2 S3 HA HK HQ HJ HT")))
    with pytest.raises(IllegalAction, match="cards not in hand"):
        deal.apply(Bury(0, parse_cards("S4 S3 HA HK HQ HJ HT H9")))
    deal.apply(Bury(0, parse_cards("S2 S3 HA HK HQ HJ HT H9")))      # points may be buried
    assert deal.hand(0) == tuple(parse_cards("H7 H8"))


def test_buried_cards_only_visible_to_the_banker():
    deal = fresh(["S2 S3", "S4 S5", "S6 S7", "S8 S9"], "2", "H", 0,
                           kitty=parse_cards("HA HK HQ HJ HT H9 H8 H7"), at="kitty")
    assert deal.observe(0).kitty is None                             # not buried yet: in its hand
    deal.apply(Bury(0, parse_cards("S2 S3 HA HK HQ HJ HT H9")))
    assert deal.observe(0).kitty == tuple(parse_cards("S2 S3 H9 HT HJ HQ HK HA"))
    for seat in (1, 2, 3):
        assert deal.observe(seat).kitty is None


def test_kitty_is_turned_up_for_all_at_the_end():
    deal = fresh(["S2", "S4", "S6", "S8"], "2", "H", 0, kitty=parse_cards("C5"))
    for seat, card in enumerate(["S2", "S4", "S6", "S8"]):
        play(deal, seat, card)
    assert deal.phase is Phase.SCORED
    assert all(deal.observe(s).kitty == tuple(parse_cards("C5")) for s in range(4))


def test_declaring_in_the_kitty_phase_is_refused():
    deal = fresh(["S2", "S4", "S6", "S8"], "2", "H", 0, kitty=parse_cards("H2"), at="kitty")
    with pytest.raises(IllegalAction, match="not possible now"):
        deal.apply(Declare(0, parse_cards("H2")))


# ---------------------------------------------------------------------------------------------
# Leads and follows (level 2, hearts trump; D2 is a trump)

HANDS = ["S3 S3 S4 SA SK H5", "S5 S5 S6 D2 C3 C4", "S9 S8 H9 H8 C5 C6", "D3 D4 D5 D6 D7 HA"]


def test_lead_must_be_one_suit():
    deal = fresh(HANDS, "2", "H", 0)
    with pytest.raises(IllegalAction, match="a lead must be one suit"):
        play(deal, 0, "S3 H5")


def test_not_your_turn():
    deal = fresh(HANDS, "2", "H", 0)
    with pytest.raises(IllegalAction, match=r"not your turn \(seat 0 is to act\)"):
        play(deal, 1, "S5")


def test_cards_not_in_hand():
    deal = fresh(HANDS, "2", "H", 0)
    with pytest.raises(IllegalAction, match="cards not in hand"):
        play(deal, 0, "SQ")
    play(deal, 0, "S4")
    with pytest.raises(IllegalAction, match="cards not in hand"):
        play(deal, 1, "S7")


def test_follow_must_follow_suit():
    deal = fresh(HANDS, "2", "H", 0)
    play(deal, 0, "S4")
    with pytest.raises(IllegalAction, match="must follow"):
        play(deal, 1, "C3")
    with pytest.raises(IllegalAction, match="must follow"):
        play(deal, 1, "D2")                                         # a trump is not a spade


def test_follow_must_play_as_many_cards():
    deal = fresh(HANDS, "2", "H", 0)
    play(deal, 0, "S3 S3")
    with pytest.raises(IllegalAction, match="must play 2 cards"):
        play(deal, 1, "S5")


def test_follow_pair_with_pair():
    deal = fresh(HANDS, "2", "H", 0)
    play(deal, 0, "S3 S3")
    with pytest.raises(IllegalAction, match="must play a pair"):
        play(deal, 1, "S5 S6")
    play(deal, 1, "S5 S5")
    play(deal, 2, "S8 S9")                                          # no pair in spades: any two
    play(deal, 3, "D3 HA")                                          # void: anything


def test_follows_are_listed_when_few():
    deal = fresh(HANDS, "2", "H", 0)
    play(deal, 0, "S3 S3")
    choices = deal.legal_actions()
    assert choices.complete and list(choices) == [Play(1, parse_cards("S5 S5"))]


def test_void_follows_are_sampled_not_listed():
    deal = fresh(["S3 S4 S5 S6 S7 S8 S9 ST", "H3 H4 H5 H6 H7 H8 H9 HT",
                            "C3 C4 C5 C6 C7 C8 C9 CT", "D3 D4 D5 D6 D7 D8 D9 DT"], "2", "H", 0)
    play(deal, 0, "S3 S4 S5 S6")                                    # a throw that stands
    choices = deal.legal_actions()
    assert not choices.complete
    import numpy as np
    rng = np.random.default_rng(1)
    for _ in range(20):
        assert deal.why_illegal(choices.sample(rng)) is None


def test_trump_wins_and_points_go_to_the_attackers():
    deal = fresh(HANDS, "2", "H", 0)
    play(deal, 0, "S4")
    play(deal, 1, "S5")
    play(deal, 2, "S9")
    events = play(deal, 3, "HA")                                    # void in spades: trumps
    won = [e for e in events if isinstance(e, TrickWon)][0]
    assert (won.seat, won.points, won.attackers_points) == (3, 5, 5)
    assert deal.to_act == 3 and deal.leader == 3                    # the winner leads next


def test_banker_side_points_are_kept_apart():
    deal = fresh(HANDS, "2", "H", 0)
    play(deal, 0, "SK")
    play(deal, 1, "S5")
    play(deal, 2, "S9")
    play(deal, 3, "D3")
    assert deal.attackers_points == 0 and deal.banker_points == 15


def test_throw_that_stands():
    deal = fresh(HANDS, "2", "H", 0)
    events = play(deal, 0, "SA SK")
    assert not any(isinstance(e, ThrowFailed) for e in events)
    assert deal.trick == [(0, tuple(parse_cards("SK SA")))]


def test_failed_throw_plays_the_smallest_beatable_unit_and_pays():
    deal = fresh(HANDS, "2", "H", 0)
    events = play(deal, 0, "S4 SK")
    assert isinstance(events[0], CardsPlayed) and events[0].cards == ("S4", "SK")
    failed = [e for e in events if isinstance(e, ThrowFailed)][0]
    assert failed.forced == ("S4",) and failed.returned == ("SK",)
    penalty = [e for e in events if isinstance(e, ThrowPenalty)][0]
    assert penalty.seat == 0 and penalty.points == 10 and penalty.attackers_delta == 10
    assert deal.trick == [(0, tuple(parse_cards("S4")))]
    assert deal.hand(0) == tuple(parse_cards("S3 S3 H5 SK SA"))     # SK taken back
    assert deal.adjustments == (("failed throw", 10),)
    play(deal, 1, "S6")                                             # the follow is to the forced S4


def test_failed_throw_pair_is_forced_before_a_bigger_unit():
    deal = fresh(HANDS, "2", "H", 0)
    events = play(deal, 0, "S3 S3 SA")
    failed = [e for e in events if isinstance(e, ThrowFailed)][0]
    assert failed.forced == ("S3", "S3") and failed.returned == ("SA",)


def test_failed_throw_by_an_attacker_lowers_its_points():
    hands = ["D3 S5 S5 S6", "HA S4 SK SA", "D4 S8 S9 C3", "D5 C4 C5 C6"]
    deal = fresh(hands, "2", "H", 0)
    finish(deal, [(0, "D3"), (1, "HA"), (2, "D4"), (3, "D5")])      # seat 1 trumps and leads
    events = play(deal, 1, "S4 SA")
    assert [e.attackers_delta for e in events if isinstance(e, ThrowPenalty)] == [-10]
    finish(deal, [(2, "S8"), (3, "C4"), (0, "S5")])
    while deal.to_act is not None:
        deal.apply(deal.legal_actions()[0])
    assert deal.result.raw_points == 5 + 5 + 10 or deal.result.raw_points >= 5
    assert deal.result.points == max(0, deal.result.raw_points - 10)


def test_throw_penalty_option_zero():
    deal = fresh(HANDS, "2", "H", 0, rules=ShengjiRules(throw_penalty=0))
    events = play(deal, 0, "S4 SK")
    assert any(isinstance(e, ThrowFailed) for e in events)
    assert not any(isinstance(e, ThrowPenalty) for e in events) and deal.adjustments == ()


# ---------------------------------------------------------------------------------------------
# The last trick and the kitty (level 2, hearts trump, banker 0)


def finish(deal, plays):
    events = []
    for seat, text in plays:
        events += play(deal, seat, text)
    return events


@pytest.mark.parametrize("rule, hands, plays, multiplier", [
    ("times", ["S3", "H4", "S5", "S7"], [(0, "S3"), (1, "H4"), (2, "S5"), (3, "S7")], 2),
    ("times", ["S3 S3", "H4 H4", "S6 S7", "S8 S9"],
     [(0, "S3 S3"), (1, "H4 H4"), (2, "S6 S7"), (3, "S8 S9")], 4),
    ("times", ["S3 S3 S4 S4", "H4 H4 H5 H5", "S6 S7 S8 S9", "SJ SQ C6 C7"],
     [(0, "S3 S3 S4 S4"), (1, "H4 H4 H5 H5"), (2, "S6 S7 S8 S9"), (3, "SJ SQ C6 C7")], 8),
    ("power", ["S3 S3 S4 S4", "H4 H4 H5 H5", "S6 S7 S8 S9", "SJ SQ C6 C7"],
     [(0, "S3 S3 S4 S4"), (1, "H4 H4 H5 H5"), (2, "S6 S7 S8 S9"), (3, "SJ SQ C6 C7")], 16),
])
def test_kitty_bonus_when_attackers_win_the_last_trick(rule, hands, plays, multiplier):
    kitty = parse_cards("SK C5 D2 D3 D4 D6 D7 D8")                  # 15 points
    deal = fresh(hands, "2", "H", 0, kitty=kitty, rules=ShengjiRules(kitty_multiplier=rule))
    events = finish(deal, plays)
    revealed = [e for e in events if isinstance(e, KittyRevealed)][0]
    assert (revealed.points, revealed.multiplier, revealed.bonus) == (15, multiplier, 15 * multiplier)
    trick_points = sum(e.points for e in events if isinstance(e, TrickWon))
    assert deal.result.raw_points == trick_points + 15 * multiplier
    assert deal.result.kitty_bonus == 15 * multiplier and deal.result.last_trick_winner == 1


def test_no_kitty_bonus_when_the_banker_side_wins_the_last_trick():
    kitty = parse_cards("SK C5 D2 D3 D4 D6 D7 D8")
    deal = fresh(["SA", "S3", "S5", "S7"], "2", "H", 0, kitty=kitty)
    events = finish(deal, [(0, "SA"), (1, "S3"), (2, "S5"), (3, "S7")])
    revealed = [e for e in events if isinstance(e, KittyRevealed)][0]
    assert revealed.bonus == 0 and deal.result.raw_points == 0
    assert deal.result.banker_points == 5


# ---------------------------------------------------------------------------------------------
# Result


def test_result_banker_holds_with_0_points_plus_3_partner_banks_next():
    deal = fresh(["SA", "S3", "S4", "S6"], "2", "H", 1)
    events = finish(deal, [(1, "S3"), (2, "S4"), (3, "S6"), (0, "SA")])  # banker 1 leads
    # seat 0 (attacker) wins with SA, but no points: 0
    assert deal.result.points == 0 and deal.result.side == "banker" and deal.result.levels == 3
    assert deal.result.team == 1 and deal.result.next_banker == 3
    scored = events[-1]
    assert isinstance(scored, DealScored) and scored.next_banker == 3 and scored.seat == 1


@pytest.mark.parametrize("kitty, points, levels", [
    ("ST ST D2 D3 D4 D6 D7 D8", 80, 0),
    ("SK SK ST D2 D3 D4 D6 D7", 120, 1),
    ("SK SK ST ST D2 D3 D4 D6", 160, 2),
    ("SK SK ST ST HK HT D3 D4", 240, 4),
])
def test_result_attackers_win_next_banker_is_the_banker_next_seat(kitty, points, levels):
    # the attackers win the last trick, a pair lead: the kitty counts ×4
    deal = fresh(["S3 S3", "H4 H4", "S6 S7", "S8 S9"], "2", "H", 0, kitty=parse_cards(kitty))
    finish(deal, [(0, "S3 S3"), (1, "H4 H4"), (2, "S6 S7"), (3, "S8 S9")])
    r = deal.result
    assert r.raw_points == points
    assert (r.side, r.levels, r.team, r.next_banker) == ("attackers", levels, 1, 1)


def test_penalties_adjust_the_points_before_the_table():
    deal = fresh(HANDS, "2", "H", 0)
    play(deal, 0, "S4 SK")                                          # banker side fails: +10
    deal.adjust_points(1, 10, "PointPenalty SJ-3.1.3")              # attacker offends: -10
    deal.adjust_points(0, 30, "PointPenalty")                       # banker side: +30
    while deal.to_act is not None:
        deal.apply(deal.legal_actions()[0])
    r = deal.result
    assert r.adjustments == (("failed throw", 10), ("PointPenalty SJ-3.1.3", -10), ("PointPenalty", 30))
    assert r.points == max(0, r.raw_points + 30)


def test_adjusted_points_never_below_zero():
    deal = fresh(["SA", "S3", "S4", "S6"], "2", "H", 0)
    deal.adjust_points(1, 10, "PointPenalty")
    finish(deal, [(0, "SA"), (1, "S3"), (2, "S4"), (3, "S6")])
    assert deal.result.raw_points == 0 and deal.result.points == 0 and deal.result.levels == 3


def test_follow_tractor_with_tractor():
    hands = ["S3 S3 S4 S4 H6 H7", "S6 S6 S7 S7 S9 C3", "S8 S9 SJ SQ C4 C5", "D3 D4 D5 D6 D7 D8"]
    deal = fresh(hands, "2", "H", 0)
    play(deal, 0, "S3 S3 S4 S4")
    with pytest.raises(IllegalAction, match="tractor"):
        play(deal, 1, "S6 S6 S7 S9")
    play(deal, 1, "S6 S6 S7 S7")


def test_from_hands_checks_its_input():
    with pytest.raises(ValueError, match="equal size"):
        Deal.from_hands(["S2", "S3", "S4"], "2", "H", 0)
    with pytest.raises(ValueError, match="two copies"):
        Deal.from_hands(["S2", "S2", "S2", "S4"], "2", "H", 0)
    with pytest.raises(ValueError, match="trump"):
        Deal.from_hands(["S2", "S3", "S4", "S5"], "2", "X", 0)


def test_not_an_action_is_refused():
    deal = fresh(HANDS, "2", "H", 0)
    with pytest.raises(IllegalAction, match="not a 双升 action"):
        deal.apply("S3")
    with pytest.raises(IllegalAction, match="not possible now"):
        deal.apply(NoDeclare(0))


def test_illegality_ids_for_a_referee():
    deal = fresh(HANDS, "2", "H", 0)
    assert deal.illegality(Play(1, parse_cards("S5")))[0] == "lead_out_of_turn"
    assert deal.illegality(Play(0, parse_cards("S3 H5")))[0] == "lead_mixed_suits"
    play(deal, 0, "S3 S3")
    assert deal.illegality(Play(2, parse_cards("S8 S9")))[0] == "play_before_turn"
    assert deal.illegality(Play(1, parse_cards("S5 S6")))[0] == "wrong_follow"
    assert deal.illegality(Play(1, parse_cards("S5 S5 S6")))[0] == "extra_card"
    assert deal.illegality(Play(1, parse_cards("S5 S5"))) is None
    kitty_deal = fresh(["S2", "S4", "S6", "S8"], "2", "H", 0, kitty=parse_cards("H3"), at="kitty")
    assert kitty_deal.illegality(Play(0, parse_cards("S2")))[0] == "lead_before_burial"
    assert kitty_deal.illegality(Bury(0, parse_cards("S2 H3")))[0] == "wrong_bury_count"
