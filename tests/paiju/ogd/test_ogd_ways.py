"""Playing OGD's way when asked: move lists exactly as OGD's server makes them (its two
reading quirks, return cards twice), refusals in OGD's own names, GET_ACTION, a string
roomId, and a seat that rejoins mid-deal getting the deal in progress."""

import json
from collections import Counter

from guandan.actions import Play, ReturnCard
from guandan.deal import Deal
from tabletop.cards import parse_cards

from paiju.ogd import messages as msg
from paiju.ogd.server import ServeOptions
from tests.paiju.ogd.ogd_bots import RawBot, play_table, run


def lead_lists(hand, level):
    deal = Deal.from_hands([hand, "C2 C3", "C4 C5", "C6 C7"], level, leader=0)
    observation, legal = deal.observe(0), deal.legal_actions()
    return (msg.action_list("play", observation, legal, None),
            msg.action_list("play", observation, legal, None, moves="ogd"))


def test_ogd_moves_list_a_same_suit_natural_run_only_as_StraightFlush():
    paiju, ogd = lead_lists("S3 S4 S5 S6 S7 D9", "2")
    run_cards = ["S3", "S4", "S5", "S6", "S7"]
    assert ["Straight", "3", run_cards] in paiju and ["StraightFlush", "3", run_cards] in paiju
    assert ["Straight", "3", run_cards] not in ogd and ["StraightFlush", "3", run_cards] in ogd
    assert [e for e in paiju if e != ["Straight", "3", run_cards]] == ogd  # nothing else differs


def test_ogd_moves_keep_both_readings_of_a_run_with_the_wild_unless_all_five_are_hearts():
    paiju, ogd = lead_lists("H5 S3 S4 S6 S7 D9", "5")  # H5 is the wild: it stands for S5
    mixed = [e for e in ogd if e[0] in ("Straight", "StraightFlush") and sorted(e[2]) == sorted("H5 S3 S4 S6 S7".split())]
    assert sorted(e[0] for e in mixed) == ["Straight", "StraightFlush"]
    paiju, ogd = lead_lists("H5 H7 H8 HJ HT D2", "5")  # all hearts (the reference's own example)
    hearts = sorted("H5 H7 H8 HJ HT".split())
    assert {e[0] for e in paiju if sorted(e[2]) == hearts} == {"Straight", "StraightFlush"}
    assert {e[0] for e in ogd if sorted(e[2]) == hearts} == {"StraightFlush"}


def test_ogd_moves_list_three_level_cards_and_both_wilds_only_as_a_Bomb():
    paiju, ogd = lead_lists("H5 H5 S5 C5 D5 D9", "5")
    five = sorted("H5 H5 S5 C5 D5".split())
    assert {e[0] for e in paiju if sorted(e[2]) == five} == {"Bomb", "ThreeWithTwo"}
    assert {e[0] for e in ogd if sorted(e[2]) == five} == {"Bomb"}


def test_ogd_moves_list_every_return_card_twice():
    legal = [ReturnCard(0, "S3"), ReturnCard(0, "D4")]
    deal = Deal.from_hands(["S3 D4", "C2", "C4", "C6"], "2", leader=0)
    assert msg.action_list("back", deal.observe(0), legal, None, moves="ogd") == [
        ["back", "back", ["S3"]], ["back", "back", ["S3"]], ["back", "back", ["D4"]], ["back", "back", ["D4"]]]
    assert msg.action_list("back", deal.observe(0), legal, None) == [["back", "back", ["S3"]], ["back", "back", ["D4"]]]


def test_a_refused_move_is_explained_in_OGDs_names():
    deal = Deal.from_hands(["RJ S3", "BJ C3 C4", "C5 C6", "C7 C8"], "2", leader=0)
    deal.apply(Play(0, parse_cards("RJ"), "SINGLE RJ"))

    def why(cards, reading):
        action = Play(1, parse_cards(cards), reading)
        return msg.explain(deal.illegality(action), action, deal, None)

    assert why("BJ", "SINGLE BJ") == "Single B does not beat Single R (seat 0)"
    assert why("RJ", "SINGLE RJ") == "cards not in hand: HR"
    assert why("C3 C4", "PAIR 3") == "not a combination: C3 C4"


def test_GET_ACTION_sends_the_open_acts_list_again_and_a_string_roomId_is_a_room():
    def ask_first(bot, act):
        if bot.acts == 1:
            return [json.dumps({"type": "GET_ACTION", "data": {"roomId": str(bot.room), "player": bot.seat}}),
                    bot.answer(act)]
        return None

    seats = [RawBot(0), RawBot(1, misbehave=ask_first), RawBot(2), RawBot(3)]
    options = ServeOptions(port=0, games=1, start_delay=0.0, rules={"match_end": "deals", "match_deals": 1})
    run(play_table(options, seats))
    got = [m for m in seats[1].received if m.get("type") == "GET_ACTION"]
    first_act = next(m for m in seats[1].received if m.get("type") == "act")
    assert got == [{"type": "GET_ACTION", "code": 200,
                    "data": {"roomId": 1, "player": 1, "stage": first_act["stage"],
                             "actionList": first_act["actionList"], "indexRange": first_act["indexRange"]}}]
    assert seats[1].notifies("gameOver") and not seats[1].errors()


def test_a_seat_that_rejoins_mid_deal_is_sent_the_deal_in_progress():
    import asyncio

    left = asyncio.Event()

    def leave(bot, act):
        if bot.acts == 4:
            left.set()
            return "close"
        return None

    comeback = RawBot(2, seed=9)

    async def rejoin(port, room):
        await left.wait()
        await asyncio.sleep(0.05)
        comeback.room = None
        await comeback.run(port, room)

    # the others think a little, so the deal is still going when seat 2 is back (an empty
    # seat's moves are made at once; on a loaded machine the deal could end first)
    seats = [RawBot(0, delay=0.02), RawBot(1, delay=0.02), RawBot(2, misbehave=leave), RawBot(3, delay=0.02)]
    options = ServeOptions(port=0, games=1, start_delay=0.0, rules={"match_end": "deals", "match_deals": 1},
                           room_timeout=30.0)
    run(play_table(options, seats, also=rejoin))
    reply, picture = comeback.received[0], comeback.received[1]
    assert reply["data"] == {"roomId": 1, "userNum": 2}
    assert picture["stage"] == "beginning" and picture["myPos"] == 2 and picture["levelCard"] == "2"
    assert len(picture["handCards"]) < 27  # it has played since the deal began
    first_act = next(m for m in comeback.received if m.get("type") == "act")
    assert not Counter(first_act["handCards"]) - Counter(picture["handCards"])  # the hand it holds
    assert comeback.notifies("gameOver")


def test_rules_preset_ogd_on_the_server_seat_0_leads_each_games_first_deal():
    seats = [RawBot(s) for s in range(4)]
    options = ServeOptions(port=0, games=2, start_delay=0.0,
                           rules={"preset": "ogd", "match_end": "deals", "match_deals": 1})
    run(play_table(options, seats, rounds=2))
    firsts = []
    for message in seats[1].received:
        if message.get("stage") == "beginning":
            firsts.append(None)
        elif message.get("stage") == "play" and firsts and firsts[-1] is None:
            firsts[-1] = message["curPos"]
    assert firsts == [0, 0]
