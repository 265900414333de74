"""`paiju ogd serve` with real sockets on 127.0.0.1 (ephemeral ports): whole games played by
paiju's client and by raw scripted bots (one of which sends malformed, unparseable and
illegal moves, one that goes silent, one that disconnects), in strict and refereed mode;
each game's log reproduces with `paiju replay --check`."""

import asyncio
import json

import pytest

from tabletop.log import read_log

from paiju.ogd.server import ServeOptions, parse_timeouts
from paiju.replay.check import check_log
from tests.paiju.ogd.ogd_bots import RawBot, play_table, player, run

SHORT = {"match_end": "deals", "match_deals": 3}
ANTI_TRIBUTE_SEED = 11
"""A seed whose short game (the seats below) has an anti-tribute (抗贡) deal as well as
tribute and return deals: found by trying seeds 0, 1, 2 …"""


def options(tmp_path, **changes):
    base = dict(port=0, games=1, log=str(tmp_path / "games.jsonl"), rules=SHORT, start_delay=0.0,
                seed=ANTI_TRIBUTE_SEED)
    base.update(changes)
    return ServeOptions(**base)


def replays(path):
    result = check_log(read_log(path))
    assert result.ok, result.message
    return read_log(path)


def _single_not_offered(act):
    """A well-formed single the act does not offer (does not beat, or the wrong kind)."""
    for card in act["handCards"]:
        entry = ["Single", "B" if card == "SB" else "R" if card == "HR" else card[1], [card]]
        if entry not in act["actionList"]:
            return entry
    return None


def troublemaker(bot, act):
    """Seat 1's script: on its first act a frame that is not JSON, an answer for another
    seat and an unparseable move; on its first follow an illegal single; on a later act
    nothing but bad answers until it is ruled against."""
    state = bot.__dict__.setdefault("state", {"step": 0, "illegal": False, "flood": 0})
    state["step"] += 1
    data = {"roomId": bot.room, "player": 1}
    if state["step"] == 1:
        return ["{not json", json.dumps({"type": "PLAY", "data": {**data, "player": 3, "act": ["PASS"] * 3}}),
                json.dumps({"type": "TRIBUTE", "data": {**data, "act": ["tribute", "tribute", ["S2"]]}}),
                json.dumps({"type": "PLAY", "data": {**data, "act": ["tribute", "tribute", ["S2"]]}}),
                json.dumps({"type": "PLAY", "data": {**data, "act": ["Single", "2", ["XX"]]}})]
    if act["stage"] == "play" and not state["illegal"] and act["actionList"][0] == ["PASS", "PASS", "PASS"]:
        entry = _single_not_offered(act)
        if entry is not None:
            state["illegal"] = True
            return [json.dumps({"type": "PLAY", "data": {**data, "act": entry}})]
    if act["stage"] == "play" and state["illegal"] and state["flood"] < 4:
        state["flood"] += 1
        return [json.dumps({"type": "PLAY", "data": {**data, "act": ["Pair", "9", ["S9"]]}})]
    return None


def test_a_whole_game_with_our_client_and_raw_bots_one_misbehaving_replays_exactly(tmp_path):
    seats = [player("heuristic", 0), RawBot(1, misbehave=troublemaker), player("random", 2, seed=3), RawBot(3)]
    server = run(play_table(options(tmp_path), seats))

    assert [r["deals"] for r in server.results] == [3]
    for who in seats:
        got = who.outcome.game_over if hasattr(who, "outcome") else who.notifies("gameOver")
        assert got, f"seat {who} did not see gameOver"
    errors = seats[1].errors()
    assert any(e.startswith("not JSON") for e in errors)
    assert any("player must be your own seat, 1" in e for e in errors)
    assert any(e.startswith("unparseable act: not an OGD card: 'XX'") for e in errors)
    assert "the act is for stage 'play': answer with PLAY" in errors
    assert any(e.startswith("the act is for stage 'play', not 'tribute'") for e in errors)
    assert any(e.startswith("illegal: ") for e in errors)
    assert any("the server moves for you" in e for e in errors)
    assert any("ruled against (too many bad answers)" in line for line in server.said)
    assert not seats[0].outcome.errors and not seats[2].outcome.errors and not seats[3].errors()

    watcher = seats[3]
    stages = [m["stage"] for m in watcher.received if m["type"] == "notify"]
    assert stages[0] == "beginning" and stages[-2:] == ["gameResult", "gameOver"]
    assert {"tribute", "back", "anti-tribute", "play", "episodeOver"} <= set(stages)
    for begin in watcher.notifies("beginning"):
        assert begin["myPos"] == 3 and len(begin["handCards"]) == 27 and begin["levelCard"] in "23456789TJQKA"
    result = watcher.notifies("gameResult")[0]
    assert sum(result["victoryNum"]) == 3 and result["gameRound"] == 1
    log = replays(tmp_path / "games.jsonl")
    assert log.header["options"]["unit_order"] == "finished"
    assert [e.index for e in log.events if e.KIND == "unit"] == [0]


def test_notify_play_reports_the_top_play_before_the_action_and_acts_have_OGDs_fields(tmp_path):
    seats = [RawBot(0), RawBot(1), RawBot(2), RawBot(3)]
    run(play_table(options(tmp_path, rules={"match_end": "deals", "match_deals": 2}, log=None), seats))
    top = (-1, ["PASS", "PASS", "PASS"])
    for message in seats[0].received:
        if message.get("stage") in ("beginning", "episodeOver"):
            top = (-1, ["PASS", "PASS", "PASS"])
        if message.get("type") == "notify" and message["stage"] == "play":
            if message["greaterPos"] != -1:  # within a trick: the top before this action
                assert (message["greaterPos"], message["greaterAction"]) == top
            if message["curAction"][0] != "PASS":
                top = (message["curPos"], message["curAction"])
            elif message["greaterPos"] == -1:
                raise AssertionError("a lead cannot be a pass")
        if message.get("type") == "act":
            assert message["indexRange"] == len(message["actionList"]) - 1
            assert {"handCards", "selfRank", "oppoRank", "curRank"} <= set(message)
            if message["stage"] == "play":
                assert [p["rest"] for p in message["publicInfo"]][0] == len(message["handCards"])
                follows = message["greaterPos"] != -1
                assert (message["actionList"][0] == ["PASS", "PASS", "PASS"]) == follows
            if message["stage"] == "back":
                assert message["tributePos"] in range(4) and isinstance(message["tribute"], str)


def test_referee_rules_on_an_illegal_move_and_the_refereed_log_replays(tmp_path):
    def one_illegal(bot, act):
        if act["stage"] == "play" and not getattr(bot, "done", False) and act["actionList"][0][0] == "PASS":
            entry = _single_not_offered(act)
            if entry is not None:
                bot.done = True
                return [json.dumps({"type": "PLAY", "data": {"roomId": bot.room, "player": bot.seat, "act": entry}})]
        return None

    seats = [RawBot(0), RawBot(1), RawBot(2, misbehave=one_illegal), RawBot(3)]
    run(play_table(options(tmp_path, referee=True, rules={"match_end": "deals", "match_deals": 1}), seats))
    told = [e for e in seats[2].errors() if e.startswith("irregular move recorded")]
    assert told and "the referee rules under GD-" in told[0], told
    assert told[0].startswith(("irregular move recorded (does_not_beat)", "irregular move recorded (wrong_kind)"))
    log = replays(tmp_path / "games.jsonl")
    kinds = [e.KIND for e in log.events]
    assert "gd.irregular" in kinds and "ref.ruling" in kinds
    assert log.header["options"]["referee"] is True


def test_a_silent_seat_times_out_and_is_ruled_against_the_game_goes_on(tmp_path):
    def silent_once(bot, act):
        if act["stage"] == "play" and not getattr(bot, "waited", False):
            bot.waited = True
            return "silent"
        return None

    seats = [RawBot(0), RawBot(1, misbehave=silent_once), RawBot(2), RawBot(3)]
    server = run(play_table(options(tmp_path, rules={"match_end": "deals", "match_deals": 1},
                                    timeouts=parse_timeouts("play=0.2")), seats))
    assert any(e.startswith("timeout: no answer in 0.2 s") for e in seats[1].errors())
    assert any("seat 1: ruled against (timeout)" in line for line in server.said)
    assert seats[1].notifies("gameOver")
    replays(tmp_path / "games.jsonl")


def test_a_seat_that_disconnects_is_played_by_the_server_to_the_end(tmp_path):
    def leave(bot, act):
        return "close" if bot.acts == 3 else None

    seats = [RawBot(0), RawBot(1), RawBot(2, misbehave=leave), RawBot(3)]
    server = run(play_table(options(tmp_path, rules={"match_end": "deals", "match_deals": 1}), seats))
    assert any("seat 2: ruled against" in line and "closed" in line for line in server.said)
    assert all(seats[s].notifies("gameOver") for s in (0, 1, 3))
    assert not seats[2].notifies("gameOver")
    replays(tmp_path / "games.jsonl")


def test_a_bot_that_joins_an_emptied_seat_plays_on_from_there(tmp_path):
    left = asyncio.Event()

    def leave(bot, act):
        if bot.acts == 2:
            left.set()
            return "close"
        return None

    comeback = RawBot(2, seed=9)

    async def rejoin(port, room):
        await left.wait()
        await asyncio.sleep(0.05)  # the server sees the close first
        await comeback.run(port, room)

    # the others think a little, so the deal is still going when seat 2 is back (an empty
    # seat's moves are made at once; on a loaded machine the deal could end first)
    seats = [RawBot(0, delay=0.02), RawBot(1, delay=0.02), RawBot(2, misbehave=leave), RawBot(3, delay=0.02)]
    run(play_table(options(tmp_path, rules={"match_end": "deals", "match_deals": 1}), seats, also=rejoin))
    assert comeback.received[0]["data"] == {"roomId": 1, "userNum": 2}
    assert comeback.acts > 0 and comeback.notifies("gameOver")
    replays(tmp_path / "games.jsonl")


def test_parse_timeouts():
    assert parse_timeouts("5") == {"play": 5.0, "tribute": 5.0, "back": 5.0}
    assert parse_timeouts("play=2,back=9") == {"play": 2.0, "tribute": 60.0, "back": 9.0}
    from tabletop.errors import OptionError

    for bad in ("x", "0", "deal=3", "play=-1"):
        with pytest.raises(OptionError):
            parse_timeouts(bad)
