"""§6 Tribute, return and resisting, as decisions inside a deal."""

import pytest

from guandan import events as ev
from guandan.actions import GiveTribute, Pass, Play, ReturnCard
from guandan.agents import RandomAgent
from guandan.deal import Deal, Phase
from tabletop import rng as streams
from tabletop.cards import Card, parse_cards
from tabletop.errors import IllegalAction


def of(events, cls):
    return [e for e in events if type(e) is cls]


def cards(text):
    return tuple(parse_cards(text))


SINGLE = ["S3 S4 SK", "S5", "S6", "D9 DA SA C7"]


def test_single_tribute_xiayou_pays_shangyou_who_returns_to_the_payer_and_payer_leads():
    deal = Deal.from_hands(SINGLE, "2", None, previous_order=(0, 1, 2, 3))
    events = deal.take_events()
    assert of(events, ev.TributeDue)[0].payments == ((3, 0),)
    assert deal.phase is Phase.TRIBUTE and deal.to_act == 3
    assert list(deal.legal_actions()) == [GiveTribute(3, Card("SA")), GiveTribute(3, Card("DA"))]
    events = deal.apply(GiveTribute(3, Card("DA")))  # the payer chooses the copy
    assert (events[0].seat, events[0].card, events[0].receiver) == (3, "DA", 0)
    assert deal.hand(0) == cards("S3 S4 SK DA") and deal.hand(3) == cards("C7 D9 SA")
    assert deal.phase is Phase.RETURN and deal.to_act == 0
    assert list(deal.legal_actions()) == [ReturnCard(0, Card("S3")), ReturnCard(0, Card("S4"))]
    events = deal.apply(ReturnCard(0, Card("S4")))
    assert (events[0].seat, events[0].card, events[0].payer) == (0, "S4", 3)
    assert deal.hand(0) == cards("S3 SK DA") and deal.hand(3) == cards("S4 C7 D9 SA")
    started = of(events, ev.PlayStarted)[0]
    assert (started.seat, started.reason) == (3, "tribute")
    assert deal.phase is Phase.PLAY and deal.to_act == 3
    obs = deal.observe(1)  # tribute and return cards are public
    assert [(r.kind, r.giver, r.taker, str(r.card)) for r in obs.tributes] == [
        ("tribute", 3, 0, "DA"), ("return", 0, 3, "S4")]


def test_illegal_tribute_and_return_reasons():
    deal = Deal.from_hands(SINGLE, "2", None, previous_order=(0, 1, 2, 3))
    with pytest.raises(IllegalAction, match=r"^C7 is not a legal tribute \(give one of: SA DA\)$"):
        deal.apply(GiveTribute(3, Card("C7")))
    with pytest.raises(IllegalAction, match="^cards not in hand: HA$"):
        deal.apply(GiveTribute(3, Card("HA")))
    with pytest.raises(IllegalAction, match=r"^not seat 1's turn \(seat 3 is to act\)$"):
        deal.apply(GiveTribute(1, Card("S5")))
    with pytest.raises(IllegalAction, match="^seat 3 must give tribute now$"):
        deal.apply(Play(3, cards("SA"), "SINGLE A"))
    deal.apply(GiveTribute(3, Card("SA")))
    with pytest.raises(IllegalAction, match=r"^SK is not a legal return \(return one of: S3 S4\)$"):
        deal.apply(ReturnCard(0, Card("SK")))
    with pytest.raises(IllegalAction, match="^seat 0 must return a card now$"):
        deal.apply(Pass(0))


def test_tribute_excludes_the_heart_level_card_and_a_level_card_ranks_top():
    deal = Deal.from_hands(["S3", "S5", "S6", "H7 SA C7 D4"], "7", None, previous_order=(0, 1, 2, 3))
    assert list(deal.legal_actions()) == [GiveTribute(3, Card("C7"))]


def test_double_tribute_higher_card_pays_shangyou_each_returns_to_own_payer():
    hands = ["S5 S6", "SK S3", "S7 S8", "SA S4"]
    deal = Deal.from_hands(hands, "2", None, previous_order=(0, 2, 1, 3))
    events = deal.take_events()
    due = of(events, ev.TributeDue)[0]
    assert due.double and due.payments == ((3, 0), (1, 2))
    deal.apply(GiveTribute(3, Card("SA")))
    deal.apply(GiveTribute(1, Card("SK")))
    assert deal.phase is Phase.RETURN and deal.to_act == 0
    deal.apply(ReturnCard(0, Card("S5")))
    assert deal.to_act == 2
    events = deal.apply(ReturnCard(2, Card("S7")))
    assert deal.hand(3) == cards("S4 S5") and deal.hand(1) == cards("S3 S7")
    assert deal.hand(0) == cards("S6 SA") and deal.hand(2) == cards("S8 SK")
    assert of(events, ev.PlayStarted)[0].seat == 3  # the player who paid the 上游 leads
    assert deal.to_act == 3


def test_double_tribute_equal_cards_shangyou_xiajia_pays_shangyou_and_leads():
    hands = ["S5 S6", "SA S3", "S7 S8", "DA S4"]
    deal = Deal.from_hands(hands, "2", None, previous_order=(0, 2, 1, 3))
    assert deal.tribute_plan.payments == ((1, 0), (3, 2))
    deal.apply(GiveTribute(1, Card("SA")))
    deal.apply(GiveTribute(3, Card("DA")))
    deal.apply(ReturnCard(0, Card("S5")))
    deal.apply(ReturnCard(2, Card("S7")))
    assert deal.to_act == 1 and deal.first_leader == 1


def test_kanggong_single_payer_with_both_big_jokers_pays_nothing_and_shangyou_leads():
    deal = Deal.from_hands(["S3", "S5", "S6", "RJ RJ S4"], "2", None, previous_order=(0, 1, 2, 3))
    events = deal.take_events()
    assert of(events, ev.TributeResisted)[0].payers == (3,)
    assert not of(events, ev.TributeGiven) and not of(events, ev.TributeDue)
    assert (of(events, ev.PlayStarted)[0].seat, of(events, ev.PlayStarted)[0].reason) == (0, "resisted")
    assert deal.phase is Phase.PLAY and deal.to_act == 0
    assert deal.hand(3) == cards("S4 RJ RJ")
    assert deal.observe(2).tribute_resisted


def test_kanggong_double_payers_holding_the_big_jokers_between_them():
    deal = Deal.from_hands(["S5", "RJ S3", "S7", "RJ S4"], "2", None, previous_order=(0, 2, 1, 3))
    events = deal.take_events()
    assert of(events, ev.TributeResisted)[0].payers == (1, 3)
    assert deal.to_act == 0 and deal.phase is Phase.PLAY


def test_GD_5_1_excused_payer_gives_no_tribute():
    deal = Deal.from_hands(SINGLE, "2", None, previous_order=(0, 1, 2, 3), no_tribute_seats={3})
    events = deal.take_events()
    assert of(events, ev.TributeWaived) and not of(events, ev.TributeDue)
    assert deal.to_act == 0 and deal.phase is Phase.PLAY


def test_cards_are_conserved_through_tribute_and_return():
    for seed in range(6):
        deal = Deal.drawn(seed, "5", shuffler=1, previous_order=(2, 1, 0, 3))
        players = [RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]
        while deal.phase in (Phase.TRIBUTE, Phase.RETURN):
            deal.apply(players[deal.to_act].act(deal.observe(deal.to_act), deal.legal_actions()))
            assert deal.card_counts() == [2] * 54
            assert sorted(deal.sizes) in ([26, 27, 27, 28], [27, 27, 27, 27])
        assert deal.sizes == [27] * 4 and deal.phase is Phase.PLAY
