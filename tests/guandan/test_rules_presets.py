"""The rules options a preset sets (``--rules preset=ogd``: the OpenGuanDan competition
server's table): seat 0 leads a first deal with no face-up card; which payer of an equal
double tribute pays the 上游 (and leads) is a seeded draw. Real deals, the table after."""

import pytest

from guandan import events as ev
from guandan.actions import GiveTribute
from guandan.deal import Deal, Phase
from guandan.match import Match
from guandan.rules import GuandanRules
from guandan.tribute import plan_tribute
from tabletop.cards import Card
from tabletop.errors import OptionError

OGD = GuandanRules.from_dict({"preset": "ogd"})
EQUAL = ["S3 S4 SK", "D9 SA C7", "S6 S7", "DA C5 C8"]
"""上游 seat 0, 二游 its partner seat 2 (a 1-2 finish): seats 1 and 3 both owe their A."""


def of(events, cls):
    return [e for e in events if type(e) is cls]


def test_preset_ogd_sets_its_options_and_the_keys_given_beside_it_win():
    assert (OGD.first_deal_lead, OGD.equal_double_tribute) == ("seat_0", "random")
    assert OGD.joker_pair_in_full_house is True and OGD.match_end == "pass_a"  # the rest is the default
    mixed = GuandanRules.from_dict({"preset": "ogd", "first_deal_lead": "face_up", "match_deals": 4})
    assert (mixed.first_deal_lead, mixed.equal_double_tribute, mixed.match_deals) == ("face_up", "random", 4)
    assert "preset" not in OGD.to_dict()  # a log header holds the options themselves
    with pytest.raises(OptionError, match="unknown 掼蛋 rules preset 'jar' \\(known: ogd\\)"):
        GuandanRules.from_dict({"preset": "jar"})
    with pytest.raises(OptionError, match="first_deal_lead"):
        GuandanRules.from_dict({"first_deal_lead": "seat_2"})


@pytest.mark.parametrize("seed", range(4))
def test_first_deal_lead_seat_0_seat_0_leads_each_first_deal_and_no_card_is_turned_up(seed):
    match = Match(seed, rules=OGD)
    events = match.take_events()
    assert not of(events, ev.CardFacedUp) and match.deal.face_up is None
    started = of(events, ev.PlayStarted)[0]
    assert (started.seat, started.reason) == (0, "given") and match.to_act == 0
    default = Match(seed)
    faced = of(default.take_events(), ev.CardFacedUp)[0]
    assert default.to_act == faced.seat  # the rule: the drawer of the face-up card leads


def test_equal_double_tribute_next_seat_the_shangyous_xiajia_always_pays_the_shangyou_and_leads():
    for number in range(1, 9):
        deal = Deal.from_hands(EQUAL, "2", None, previous_order=(0, 2, 1, 3), deal_number=number)
        assert of(deal.take_events(), ev.TributeDue)[0].payments == ((1, 0), (3, 2))


def test_equal_double_tribute_random_a_seeded_draw_picks_the_payer_of_the_shangyou_who_then_leads():
    seen = {}
    for number in range(1, 13):
        deal = Deal.from_hands(EQUAL, "2", None, previous_order=(0, 2, 1, 3), deal_number=number, rules=OGD)
        payments = of(deal.take_events(), ev.TributeDue)[0].payments
        again = Deal.from_hands(EQUAL, "2", None, previous_order=(0, 2, 1, 3), deal_number=number, rules=OGD)
        assert of(again.take_events(), ev.TributeDue)[0].payments == payments  # the same deal, the same draw
        seen[payments] = number
    assert set(seen) == {((1, 0), (3, 2)), ((3, 0), (1, 2))}  # both payers pay the 上游 in some deal
    number = seen[((3, 0), (1, 2))]
    deal = Deal.from_hands(EQUAL, "2", None, previous_order=(0, 2, 1, 3), deal_number=number, rules=OGD)
    deal.take_events()
    deal.apply(GiveTribute(3, Card("DA")))
    deal.apply(GiveTribute(1, Card("SA")))
    assert deal.phase is Phase.RETURN and deal.hand(0).count(Card("DA")) == 1 and Card("SA") in deal.hand(2)
    for seat in (0, 2):
        deal.apply(deal.legal_actions()[0])
    assert deal.phase is Phase.PLAY and deal.to_act == 3  # the seat that paid the 上游 leads


def test_unequal_double_tribute_is_the_rule_under_either_option():
    hands = ["S3 S4 SK", "D9 SK C7", "S6 S7", "DA C5 C8"]  # seat 3's A beats seat 1's K
    for number in range(1, 7):
        deal = Deal.from_hands(hands, "2", None, previous_order=(0, 2, 1, 3), deal_number=number, rules=OGD)
        assert of(deal.take_events(), ev.TributeDue)[0].payments == ((3, 0), (1, 2))
    plan = plan_tribute((0, 2, 1, 3), {1: "SA", 3: "DA"}, "2", tie_to_top="prev_seat")
    assert plan.payments == ((3, 0), (1, 2)) and plan.leader == 3
