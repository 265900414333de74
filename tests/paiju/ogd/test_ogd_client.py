"""`paiju ogd play`'s protocol side (``OgdPlayer``, ``SeatView``) fed recorded message
sequences of the reference (the recorded samples of OGD's server, hands completed where the
reference trims them): the table it tracks, the observation and legal actions it gives the
agent, and the answers it sends."""

import pytest

from guandan.actions import Pass, Play, ReturnCard
from guandan.agents import HeuristicAgent
from guandan.observation import Phase
from tabletop.cards import parse_cards
from tabletop.rng import generator

from paiju.ogd.client import OgdPlayer, ProtocolFailure, default_user, room_line

HAND_1 = ["S2", "D3", "H4", "D4", "C5", "H6", "D6", "S7", "C8", "C9", "DT", "SJ", "HQ", "CK", "DA", "SA",
          "H2", "C3", "S5", "S6", "H8", "D9", "HT", "CJ", "DQ", "HK", "SB"]
STRAIGHT_3 = ["Straight", "3", ["S3", "S4", "S5", "C6", "D7"]]


class Recorder:
    """An agent that remembers what it was given and picks ``pick(legal)``."""

    def __init__(self, pick=lambda legal: legal[-1]):
        self.pick, self.seen = pick, []

    def act(self, observation, legal):
        self.seen.append((observation, list(legal)))
        return self.pick(legal)


def seated(agent, seat=1):
    client = OgdPlayer(agent, user="u1", room=1, seat=seat)
    assert client.start() == [{"type": "JOIN_ROOM", "data": {"userId": "u1", "seatNum": seat, "roomId": 1}}]
    client.on_message({"code": 200, "data": {"roomId": 1, "userNum": seat}, "type": "JOIN_ROOM"})
    client.on_message({"myPos": seat, "stage": "beginning", "levelCard": "2", "handCards": HAND_1, "type": "notify"})
    return client


def test_a_recorded_follow_act_becomes_the_agents_observation_and_the_answer_is_copied_from_actionList():
    agent = Recorder()
    client = seated(agent)
    client.on_message({"type": "notify", "stage": "play", "curPos": 3, "curAction": STRAIGHT_3,
                       "greaterPos": -1, "greaterAction": ["PASS", "PASS", "PASS"]})
    client.on_message({"type": "notify", "stage": "play", "curPos": 0, "curAction": ["PASS", "PASS", "PASS"],
                       "greaterPos": 3, "greaterAction": STRAIGHT_3})
    offered = [["PASS", "PASS", "PASS"], ["Straight", "4", ["D4", "C5", "D6", "S7", "C8"]],
               ["Straight", "4", ["D4", "C5", "H6", "S7", "C8"]]]
    act = {"type": "act", "stage": "play", "curPos": 0, "curAction": None, "greaterPos": 3,
           "greaterAction": STRAIGHT_3, "publicInfo": [{"rest": 22}, {"rest": 27}, {"rest": 22}, {"rest": 9}],
           "curRank": "2", "selfRank": "2", "oppoRank": "2", "actionList": offered, "indexRange": 2,
           "handCards": HAND_1}
    [answer] = client.on_message(act)

    assert answer == {"type": "PLAY", "data": {"roomId": 1, "player": 1, "act": offered[2]}}
    observation, legal = agent.seen[0]
    assert legal == [Pass(1), Play(1, parse_cards("D4 C5 D6 S7 C8"), "STRAIGHT 4"),
                     Play(1, parse_cards("D4 C5 H6 S7 C8"), "STRAIGHT 4")]
    assert observation.seat == 1 and observation.phase is Phase.PLAY and observation.level == 0
    assert observation.top.seat == 3 and observation.top.reading.code == "STRAIGHT 3"
    assert observation.top.cards == tuple(parse_cards("S3 S4 S5 C6 D7"))
    assert observation.leader == 3 and observation.passed == (0,)
    assert observation.announced == (None, None, None, 9)  # exact counts of 10 or fewer only
    assert observation.played[3] == tuple(parse_cards("S3 S4 S5 C6 D7"))
    assert len(observation.hand) == 27


def test_a_recorded_return_act_lists_every_card_twice_the_agent_sees_each_once_and_the_answer_copies_the_tribute():
    agent = Recorder(pick=lambda legal: legal[1])
    client = seated(agent, seat=0)
    client.on_message({"type": "notify", "stage": "tribute", "result": [[3, 0, "HR"]]})
    offered = [["back", "back", ["H2"]], ["back", "back", ["H2"]], ["back", "back", ["S2"]],
               ["back", "back", ["S2"]], ["back", "back", ["D3"]], ["back", "back", ["D3"]]]
    [answer] = client.on_message({"type": "act", "stage": "back", "tributePos": 3, "tribute": "HR", "curRank": "5",
                                  "selfRank": "5", "oppoRank": "2", "actionList": offered, "indexRange": 5,
                                  "handCards": HAND_1})
    assert answer == {"type": "PAYTRIBUTE", "data": {"roomId": 1, "player": 0, "tributePos": 3, "tribute": "HR",
                                                     "act": ["back", "back", ["S2"]]}}
    observation, legal = agent.seen[0]
    assert legal == [ReturnCard(0, "H2"), ReturnCard(0, "S2"), ReturnCard(0, "D3")]
    assert observation.phase is Phase.RETURN and observation.level == 3
    assert [(t.kind, t.giver, t.taker, str(t.card)) for t in observation.tributes] == [("tribute", 3, 0, "RJ")]


def test_the_heuristic_agent_plays_a_recorded_lead_and_the_end_messages_finish_the_client():
    client = seated(HeuristicAgent(generator(1, 0, 10)), seat=2)
    lead = [["Single", "2", ["S2"]], ["Pair", "A", ["DA", "SA"]], ["Single", "B", ["SB"]]]
    [answer] = client.on_message({"type": "act", "stage": "play", "curPos": -1, "curAction": None, "greaterPos": -1,
                                  "greaterAction": None, "publicInfo": [{"rest": 27}] * 4, "curRank": "2",
                                  "selfRank": "2", "oppoRank": "2", "actionList": lead, "indexRange": 2,
                                  "handCards": HAND_1})
    assert answer["type"] == "PLAY" and answer["data"]["act"] in lead and answer["data"]["player"] == 2
    client.on_message({"antiNums": 2, "stage": "anti-tribute", "antiPos": [2, 0], "type": "notify"})
    assert client.view.resisted
    client.on_message({"curRank": "A", "restCards": [[1, ["S4", "D8"]], [3, ["D3", "D6"]]], "stage": "episodeOver",
                       "type": "notify", "order": [2, 0, 1, 3]})
    client.on_message({"stage": "gameResult", "victory": 1, "victoryRank": ["A", "A"], "gameResult": [25, 27, 0, 2],
                       "victoryNum": [6, 9, 7, 6], "gameRound": 1, "type": "notify"})
    assert not client.done
    client.on_message({"curTimes": 2, "stage": "gameOver", "settingTimes": 2, "gameRound": 2, "type": "notify"})
    assert client.done and client.outcome.deals == 1 and client.outcome.game_result["victory"] == 1


def test_a_refused_room_request_is_a_protocol_failure_with_the_servers_message():
    client = OgdPlayer(Recorder(), room=9)
    with pytest.raises(ProtocolFailure, match="房间不存在"):
        client.on_message({"type": "JOIN_ROOM", "code": -1, "data": {"msg": "房间不存在"}})


def test_error_replies_are_kept_and_creating_a_room_asks_for_the_rounds():
    client = OgdPlayer(Recorder(), user="me", rounds=3)
    assert client.start() == [{"type": "CREATE_ROOM", "data": {"userId": "me", "round": 3}}]
    client.on_message({"type": "PLAY", "code": -1, "data": {"msg": "illegal: no"}})
    assert client.outcome.errors == ["PLAY: illegal: no"]


def test_the_room_line_counts_the_games_each_side_won_not_only_the_last():
    client = seated(Recorder(), seat=1)
    client.on_message({"stage": "gameResult", "victory": 1, "victoryRank": ["A", "5"], "gameResult": [25, 27, 3, 1],
                       "victoryNum": [6, 9, 7, 6], "gameRound": 1, "type": "notify"})
    client.on_message({"curTimes": 4, "stage": "gameOver", "settingTimes": 4, "gameRound": 4, "type": "notify"})
    # the last game went to seat 1's side, the room to the other
    assert room_line(client) == ("4 games: our side lost the room, games won 1-3 (ours seats 1&3, theirs seats "
                                 "0&2); last levels ours 5, theirs A; 0 deals, 0 acts")


def test_default_user_ids_differ_for_seats_with_the_same_agent():
    assert default_user("heuristic", 0) == "paiju-heuristic-0" != default_user("heuristic", 2)
    assert default_user("bots/my.py:Clever", 1) == "paiju-Clever-1"
    assert default_user("random", None) != default_user("random", None)
