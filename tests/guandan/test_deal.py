"""The 掼蛋 deal: the physical draw (§1) and the play (§5), named after the rules."""

import re

import pytest

from guandan import events as ev
from guandan.actions import GiveTribute, Pass, Play
from guandan.deal import Deal, Phase
from tabletop.cards import Card, full_deck, parse_cards, sort_cards
from tabletop.errors import IllegalAction
from tabletop.seats import next_seat, prev_seat


def of(events, cls):
    return [e for e in events if type(e) is cls]


def play(deal, seat, cards, reading):
    return deal.apply(Play(seat, parse_cards(cards), reading))


# ---------------------------------------------------------------------------------------------
# §1 The draw


def test_draw_gives_27_cards_to_each_seat():
    deal = Deal.drawn(7)
    events = deal.take_events()
    assert deal.sizes == [27, 27, 27, 27]
    assert sorted(c for s in range(4) for c in deal.hand(s)) == full_deck(2)
    assert of(events, ev.HandsComplete)[0].sizes == (27, 27, 27, 27)
    assert len(of(events, ev.CardDrawn)) == 108
    assert deal.stock == []


def test_draw_order_starts_with_the_shufflers_xiajia_one_card_at_a_time():
    for seed in range(4):
        deal = Deal.drawn(seed)
        events = deal.take_events()
        shuffler = of(events, ev.DealStarted)[0].shuffler
        assert of(events, ev.DeckShuffled)[0].seat == shuffler
        drawn = of(events, ev.CardDrawn)
        assert [e.seat for e in drawn] == [(shuffler + 1 + i) % 4 for i in range(108)]
        hands = [sort_cards(Card(e.card) for e in drawn if e.seat == s) for s in range(4)]
        assert [list(deal.hand(s)) for s in range(4)] == hands


def test_cutter_is_the_shufflers_shangjia_and_the_cut_deck_is_drawn():
    deal = Deal.drawn(11)
    events = deal.take_events()
    shuffler = of(events, ev.DealStarted)[0].shuffler
    cut = of(events, ev.DeckCut)[0]
    assert cut.seat == prev_seat(shuffler)
    deck = of(events, ev.DeckShuffled)[0].deck
    assert 1 <= cut.position < 108
    assert tuple(e.card for e in of(events, ev.CardDrawn)) == deck[cut.position:] + deck[:cut.position]


def test_first_deal_face_up_card_drawer_leads():
    for seed in range(6):
        deal = Deal.drawn(seed)
        events = deal.take_events()
        face = of(events, ev.CardFacedUp)[0]
        drawn = of(events, ev.CardDrawn)[face.position]
        assert (drawn.card, drawn.seat) == (face.card, face.seat)
        started = of(events, ev.PlayStarted)[0]
        assert (started.seat, started.reason) == (face.seat, "face_up")
        assert deal.to_act == face.seat and deal.phase is Phase.PLAY
        assert deal.observe((face.seat + 1) % 4).face_up == (face.seat, Card(face.card))
        # the face-up card is announced before the first card is drawn
        assert events.index(of(events, ev.CardFacedUp)[0]) < events.index(of(events, ev.CardDrawn)[0])


def test_shuffler_is_seeded_and_the_same_seed_gives_the_same_draw():
    a, b = Deal.drawn(5), Deal.drawn(5)
    assert a.take_events() == b.take_events()
    shufflers = {of(Deal.drawn(s).take_events(), ev.DealStarted)[0].shuffler for s in range(20)}
    assert len(shufflers) > 1


def test_GD_5_2_explicit_shuffler_cutter_first_drawer_and_leader():
    deal = Deal.drawn(3, "5", shuffler=1, cutter=2, first_drawer=3, leader=0)
    events = deal.take_events()
    started = of(events, ev.DealStarted)[0]
    assert (started.shuffler, started.cutter, started.first_drawer, started.level) == (1, 2, 3, "5")
    assert of(events, ev.DeckCut)[0].seat == 2
    assert of(events, ev.CardDrawn)[0].seat == 3
    assert not of(events, ev.CardFacedUp)
    assert of(events, ev.PlayStarted)[0].seat == 0 and deal.to_act == 0


def test_later_deal_defaults_cutter_and_first_drawer_from_the_shuffler():
    deal = Deal.drawn(3, shuffler=2, face_up=False, leader=1)
    events = deal.take_events()
    assert of(events, ev.DeckCut)[0].seat == prev_seat(2)
    assert of(events, ev.CardDrawn)[0].seat == next_seat(2)


def test_a_first_deal_needs_a_leader():
    with pytest.raises(ValueError, match="needs a leader"):
        Deal.drawn(1, face_up=False)


# ---------------------------------------------------------------------------------------------
# §5 Play

FOUR_HANDS = ["S3 S4 SK C8", "S5 SA C9 D9", "S7 D7 CT DT", "S8 SQ CJ DJ"]


def test_leader_must_play():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=0)
    assert Pass(0) not in list(deal.legal_actions())
    assert all(type(a) is Play for a in deal.legal_actions())
    with pytest.raises(IllegalAction, match="^the leader may not pass$"):
        deal.apply(Pass(0))


def test_follower_may_pass_or_play_only_what_beats():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=0)
    play(deal, 0, "SK", "SINGLE K")
    legal = list(deal.legal_actions())
    assert legal[0] == Pass(1)
    assert {a.reading.code for a in legal[1:]} == {"SINGLE A"}


def test_pass_then_play_again_in_the_same_round():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=0)
    play(deal, 0, "S3", "SINGLE 3")
    deal.apply(Pass(1))
    play(deal, 2, "S7", "SINGLE 7")
    play(deal, 3, "S8", "SINGLE 8")
    deal.apply(Pass(0))
    assert deal.to_act == 1 and deal.passed == [0]
    events = play(deal, 1, "SA", "SINGLE A")  # seat 1 passed earlier in this round
    assert of(events, ev.CardsPlayed)[0].seat == 1
    assert deal.top.seat == 1 and deal.passed == []


def test_round_ends_when_all_others_pass_and_the_top_player_leads():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=0)
    play(deal, 0, "S4", "SINGLE 4")
    play(deal, 1, "S5", "SINGLE 5")
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    events = deal.apply(Pass(0))
    ended = of(events, ev.RoundEnded)[0]
    assert (ended.seat, ended.leader, ended.partner_leads) == (1, 1, False)
    assert deal.to_act == 1 and deal.top is None and deal.leader == 1
    with pytest.raises(IllegalAction, match="leader may not pass"):
        deal.apply(Pass(1))


def test_jiefeng_partner_leads_after_the_last_play_of_a_finished_player():
    deal = Deal.from_hands(["S3 S4 S5", "SA", "S6 S7 S8", "S9 ST SJ"], "2", leader=0)
    play(deal, 0, "S3", "SINGLE 3")
    events = play(deal, 1, "SA", "SINGLE A")
    assert of(events, ev.PlayerFinished)[0].place == 1
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    events = deal.apply(Pass(0))
    ended = of(events, ev.RoundEnded)[0]
    assert (ended.seat, ended.leader, ended.partner_leads) == (1, 3, True)
    assert deal.to_act == 3


def test_finished_players_are_skipped_not_counted_as_passing():
    deal = Deal.from_hands(["S3 S4 S5", "SA", "S6 S7 S8", "S9 ST SJ"], "2", leader=0)
    play(deal, 0, "S3", "SINGLE 3")
    play(deal, 1, "SA", "SINGLE A")
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    deal.apply(Pass(0))
    play(deal, 3, "S9", "SINGLE 9")
    events = deal.apply(Pass(0))
    assert deal.to_act == 2  # seat 1 is out: skipped
    assert all(e.seat != 1 for e in events)
    deal.apply(Pass(2))
    assert deal.to_act == 3 and deal.top is None  # round over without seat 1 passing


def test_partners_finishing_first_and_second_end_the_deal():
    deal = Deal.from_hands(["SA", "S3 S4", "SK", "S5 S6"], "2", leader=0)
    play(deal, 0, "SA", "SINGLE A")
    deal.apply(Pass(1))
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    assert deal.to_act == 2  # 接风
    events = play(deal, 2, "SK", "SINGLE K")
    assert deal.phase is Phase.SCORED and deal.to_act is None
    assert deal.finish_order == [0, 2, 1, 3]  # the two left: the 上游's 下家, then 上家
    scored = of(events, ev.DealScored)[0]
    assert (scored.finish_order, scored.team, scored.levels, scored.plays) == ((0, 2, 1, 3), 0, 3, 2)
    assert deal.result.finish_order == (0, 2, 1, 3)
    assert (deal.result.team, deal.result.levels) == (0, 3)


def test_the_third_player_going_out_ends_the_deal():
    deal = Deal.from_hands(["SA", "SK", "S3 S4", "S5 S6"], "2", leader=0)
    play(deal, 0, "SA", "SINGLE A")
    for seat in (1, 2, 3):
        deal.apply(Pass(seat))
    play(deal, 2, "S3", "SINGLE 3")
    play(deal, 3, "S5", "SINGLE 5")
    events = play(deal, 1, "SK", "SINGLE K")
    assert [e.place for e in of(events, ev.PlayerFinished)] == [2]
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    assert deal.to_act == 3  # 接风: seat 1 went out, its partner leads
    events = play(deal, 3, "S6", "SINGLE 6")
    assert deal.phase is Phase.SCORED
    assert deal.result.finish_order == (0, 1, 3, 2)
    assert (deal.result.team, deal.result.levels) == (0, 1)
    assert of(events, ev.DealScored)[0].finish_order == (0, 1, 3, 2)


REPORT_HANDS = ["S3 S4 S5 S6 S7 S8 S9 ST SJ SQ D3 D3", "H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK C3 C4",
                "C5 C6 C7 C8 C9 CT CJ CQ CK", "D4 D5 D6 D7 D8 D9 DT DJ DQ DK"]


def test_bao_pai_report_at_ten_or_fewer_cards_after_each_play():
    deal = Deal.from_hands(REPORT_HANDS, "A", leader=0)
    events = play(deal, 0, "D3 D3", "PAIR 3")  # 12 → 10
    assert [(e.seat, e.count) for e in of(events, ev.CardsReported)] == [(0, 10)]
    for seat in (1, 2, 3):
        deal.apply(Pass(seat))
    events = play(deal, 0, "S3", "SINGLE 3")  # reported again after each play
    assert [(e.seat, e.count) for e in of(events, ev.CardsReported)] == [(0, 9)]
    events = play(deal, 1, "HK", "SINGLE K")  # 13 → 12: nothing to report
    assert not of(events, ev.CardsReported)


def test_bao_pai_observation_shows_counts_only_as_announced():
    deal = Deal.from_hands(REPORT_HANDS, "A", leader=0)
    # seats 2 and 3 hold 9 and 10 but have not played: the table only knows "more than 10"
    assert deal.observe(1).announced == (None, None, None, None)
    play(deal, 0, "D3 D3", "PAIR 3")
    assert deal.observe(1).announced == (10, None, None, None)
    deal.apply(Pass(1))
    assert deal.observe(3).announced == (10, None, None, None)
    assert len(deal.observe(3).hand) == 10  # one's own hand is always known


def test_the_event_of_each_play_is_followed_by_its_report():
    deal = Deal.from_hands(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], "2", leader=0)
    deal.take_events()
    events = play(deal, 0, "S3", "SINGLE 3")
    assert [type(e) for e in events] == [ev.CardsPlayed, ev.CardsReported]


def test_going_out_is_not_reported_as_a_count():
    deal = Deal.from_hands(["S3", "S5 S6", "S7 S8", "S9 ST"], "2", leader=0)
    deal.take_events()
    events = play(deal, 0, "S3", "SINGLE 3")
    assert [type(e) for e in events] == [ev.CardsPlayed, ev.PlayerFinished]
    assert deal.observe(1).announced[0] == 0


# ---------------------------------------------------------------------------------------------
# Illegal actions: the exact reasons


def test_illegal_out_of_turn():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=1)
    with pytest.raises(IllegalAction, match=r"^not seat 2's turn \(seat 1 is to act\)$"):
        deal.apply(Pass(2))


def test_illegal_cards_not_in_hand():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=0)
    with pytest.raises(IllegalAction, match="^cards not in hand: SA$"):
        play(deal, 0, "SA", "SINGLE A")
    with pytest.raises(IllegalAction, match="^cards not in hand: S3 SK$"):
        play(deal, 0, "S3 S3 SK SK", "BOMB 4x3")


def test_illegal_not_a_combination():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=0)
    with pytest.raises(IllegalAction, match="^not a combination: S3 S4$"):
        play(deal, 0, "S3 S4", "PAIR 3")


def test_illegal_does_not_beat():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=1)
    play(deal, 1, "C9 D9", "PAIR 9")
    with pytest.raises(IllegalAction, match="^PAIR 7 does not beat PAIR 9$"):
        play(deal, 2, "S7 D7", "PAIR 7")


def test_illegal_leader_pass():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=3)
    with pytest.raises(IllegalAction, match="^the leader may not pass$"):
        deal.apply(Pass(3))


def test_illegal_after_the_deal_is_over():
    deal = Deal.from_hands(["SA", "S3 S4", "SK", "S5 S6"], "2", leader=0)
    deal.force_result((0, 2, 1, 3))
    with pytest.raises(IllegalAction, match="^the deal is over$"):
        deal.apply(Pass(1))


def test_illegal_tribute_while_in_play():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=0)
    with pytest.raises(IllegalAction, match="^no tribute now: the deal is in play$"):
        deal.apply(GiveTribute(0, Card("SK")))


def test_illegal_action_changes_nothing():
    deal = Deal.from_hands(FOUR_HANDS, "2", leader=0)
    before = ([list(h) for h in deal.hands], deal.turn, deal.stream.next_seq)
    with pytest.raises(IllegalAction):
        play(deal, 0, "SA", "SINGLE A")
    assert ([list(h) for h in deal.hands], deal.turn, deal.stream.next_seq) == before


@pytest.mark.parametrize("leader, prior, action, code, message", [
    (0, None, Play(0, parse_cards("S3 S4"), "PAIR 3"), "wrong_kind", "not a combination: S3 S4"),
    (1, ("C9 D9", "PAIR 9"), Play(2, parse_cards("S7 D7"), "PAIR 7"), "does_not_beat",
     "PAIR 7 does not beat PAIR 9"),
    (1, ("C9 D9", "PAIR 9"), Play(2, parse_cards("S7"), "SINGLE 7"), "wrong_kind",
     "a SINGLE cannot beat a PAIR"),
    (3, None, Pass(3), "pass_on_lead", "the leader may not pass"),
    (1, None, Play(2, parse_cards("S7"), "SINGLE 7"), "play_out_of_turn",
     "not seat 2's turn (seat 1 is to act)"),
    (1, None, Pass(2), "announce_out_of_turn", "not seat 2's turn (seat 1 is to act)"),
])
def test_one_illegality_feeds_both_modes(leader, prior, action, code, message):
    """Strict mode raises the message of the very classification that refereed mode
    records as an irregular attempt (one rule path: the mode decides what happens)."""
    deals = [Deal.from_hands(FOUR_HANDS, "2", leader=leader, mode=m, report_step=False)
             for m in ("strict", "refereed")]
    for deal in deals:
        if prior is not None:
            play(deal, leader, *prior)
        found = deal.illegality(action)
        assert (found.code, found.message) == (code, message)
    strict, refereed = deals
    with pytest.raises(IllegalAction, match=f"^{re.escape(message)}$"):
        strict.apply(action)
    refereed.take_events()
    events = refereed.apply(action)
    attempt = of(events, ev.IrregularAttempt)
    if code == "play_out_of_turn":  # latent until the 下家 answers
        assert attempt[0].irregularity == code and refereed.to_act == next_seat(action.seat)
    else:
        assert attempt[0].irregularity == code and refereed.phase is Phase.AWAITING_RULING


def test_illegality_refused_in_both_modes():
    for mode in ("strict", "refereed"):
        deal = Deal.from_hands(FOUR_HANDS, "2", leader=0, mode=mode)
        found = deal.illegality(Play(0, parse_cards("S3"), "SINGLE 4"))
        assert found.code == "unreadable"
        with pytest.raises(IllegalAction, match="^S3 cannot be read as SINGLE 4"):
            play(deal, 0, "S3", "SINGLE 4")


def test_legal_play_with_any_concrete_cards_of_a_legal_reading():
    # the two copies are interchangeable; a wild (heart level card) may fill in
    deal = Deal.from_hands(["H2 S5 S5 D5 C8", "S6", "S7", "S8"], "2", leader=0)
    assert deal.why_illegal(Play(0, parse_cards("S5 D5 H2"), "TRIPLE 5")) is None
    assert deal.why_illegal(Play(0, parse_cards("S5 S5 D5"), "TRIPLE 5")) is None


# ---------------------------------------------------------------------------------------------
# Explicit hands, forced results


def test_from_hands_with_small_hands_and_text_or_card_lists():
    deal = Deal.from_hands(["S3", parse_cards("S4 S5"), "BJ RJ", "D2 D2 D3"], "7", leader=2)
    events = deal.take_events()
    assert deal.sizes == [1, 2, 2, 3] and deal.level_text == "7"
    assert of(events, ev.HandsSet)[0].hands == (("S3",), ("S4", "S5"), ("BJ", "RJ"), ("D2", "D2", "D3"))
    assert deal.to_act == 2 and deal.phase is Phase.PLAY


def test_from_hands_refuses_a_third_copy():
    with pytest.raises(ValueError, match="more than two copies of: SA"):
        Deal.from_hands(["SA SA", "SA", "S3", "S4"], "2", leader=0)


def test_from_hands_with_a_seat_already_out():
    deal = Deal.from_hands(["", "S5", "S7 S8", "S9"], "2", leader=2, finished=[0])
    assert deal.finish_order == [0]
    play(deal, 2, "S7", "SINGLE 7")
    assert deal.to_act == 3
    with pytest.raises(ValueError, match="holds no cards"):
        Deal.from_hands(["", "S5", "S7", "S9"], "2", leader=2)


def test_force_result_ends_the_deal_with_the_given_order():
    deal = Deal.drawn(4)
    deal.take_events()
    events = deal.force_result((1, 3, 0, 2), reason="GD-5.2")
    assert [type(e) for e in events] == [ev.ResultForced, ev.DealScored]
    assert deal.phase is Phase.SCORED and deal.to_act is None
    assert deal.result.finish_order == (1, 3, 0, 2) and deal.result.forced
    assert (deal.result.team, deal.result.levels) == (1, 3)
    assert deal.card_counts() == [2] * 54
    with pytest.raises(ValueError):
        deal.force_result((0, 0, 1, 2))


def test_card_locations_account_for_all_108_cards():
    deal = Deal.drawn(9)
    locations = deal.card_locations()
    assert sum(len(v) for v in locations.values()) == 108
    assert deal.card_counts() == [2] * 54
