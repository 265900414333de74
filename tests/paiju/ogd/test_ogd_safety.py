"""`paiju ogd serve` is safe as a server: malformed JSON, unknown types, rooms that do not
exist or are full, moves out of turn, oversized frames and floods each get a clear error
reply or a documented close, and the server keeps serving."""

import asyncio
import contextlib
import json

import websockets

from paiju.ogd.server import OgdServer, ServeOptions
from tests.paiju.ogd.ogd_bots import RawBot, play_table, run


@contextlib.asynccontextmanager
async def serving(**changes):
    options = ServeOptions(**{"port": 0, "start_delay": 30.0, **changes})
    server = OgdServer(options, say=lambda line: None)
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    task = loop.create_task(server.run(ready.set_result))
    port = await asyncio.wait_for(ready, 5)
    try:
        yield server, port
    finally:
        server.finished.set()
        await asyncio.wait_for(task, 5)


async def ask(socket, frame):
    await socket.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))
    return json.loads(await asyncio.wait_for(socket.recv(), 5))


def test_bad_messages_get_one_error_reply_each_and_the_connection_stays_usable():
    async def scenario():
        async with serving() as (_, port), websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            replies = [await ask(ws, frame) for frame in (
                "{not json",
                "[1, 2]",
                {"type": "SHOUT", "data": {}},
                {"type": "JOIN_ROOM", "data": "room 1"},
                {"type": "PLAY", "data": {"roomId": 1, "player": 0, "act": ["PASS"] * 3}},
                {"type": "JOIN_ROOM", "data": {"userId": "u", "roomId": 99}},
                {"type": "CREATE_ROOM", "data": {"userId": "u", "round": "two"}},
                {"type": "CREATE_ROOM", "data": {"userId": "u", "seatNum": 7}},
                b"\x00\x01",
            )]
            created = await ask(ws, {"type": "CREATE_ROOM", "data": {"userId": "u0", "round": 1}})
            return replies, created
    replies, created = run(scenario())
    assert all(r["code"] == -1 and "\n" not in r["data"]["msg"] for r in replies)
    says = [r["data"]["msg"] for r in replies]
    assert says[0].startswith("not JSON")
    assert says[1].startswith('a message is {"type"')
    assert says[2].startswith("unknown message type 'SHOUT'")
    assert says[3] == "data must be an object"
    assert says[4].startswith("not in a room")
    assert says[5].startswith("房间不存在")
    assert says[6].startswith("round must be a whole number")
    assert says[7] == "seatNum must be 0-3"
    assert says[8].startswith("binary frames")
    assert created == {"type": "CREATE_ROOM", "code": 200,
                       "data": {"roomId": 1, "userNum": 0, "userId": "u0", "userName": None}}


def test_rooms_seats_full_rooms_and_moves_out_of_turn():
    async def scenario():
        async with serving() as (server, port):
            sockets = [await websockets.connect(f"ws://127.0.0.1:{port}/") for _ in range(6)]
            out = {"create": await ask(sockets[0], {"type": "CREATE_ROOM", "data": {"userId": 5, "seatNum": 2}})}
            out["join"] = await ask(sockets[1], {"type": "JOIN_ROOM", "data": {"userId": "b", "roomId": 1}})
            out["taken"] = await ask(sockets[2], {"type": "JOIN_ROOM", "data": {"roomId": 1, "seatNum": 2}})
            out["early"] = await ask(sockets[1], {"type": "PLAY", "data": {"roomId": 1, "player": 0,
                                                                           "act": ["PASS"] * 3}})
            out["other_room"] = await ask(sockets[1], {"type": "PLAY", "data": {"roomId": 7, "player": 0,
                                                                                "act": ["PASS"] * 3}})
            for s in (2, 3):
                await ask(sockets[s], {"type": "JOIN_ROOM", "data": {"roomId": 1}})
            out["full"] = await ask(sockets[4], {"type": "JOIN_ROOM", "data": {"roomId": 1}})
            out["players"] = await ask(sockets[5], {"type": "GET_ROOMPLAYER", "data": {"roomId": 1}})
            out["started"] = server.rooms[1].started
            for s in sockets:
                await s.close()
            return out
    out = run(scenario())
    assert out["create"]["data"]["userNum"] == 2 and out["create"]["data"]["userId"] == 5
    assert out["join"]["data"] == {"roomId": 1, "userNum": 0}
    assert out["taken"]["data"]["msg"].startswith("座位已占")
    assert out["early"]["data"]["msg"].startswith("not your turn")
    assert out["other_room"]["data"]["msg"] == "roomId must be your room, 1"
    assert out["full"]["data"]["msg"].startswith("房间已满")
    assert sorted(u["userNum"] for u in out["players"]["data"]["users"]) == [0, 1, 2, 3]
    assert out["started"]


def test_an_oversized_frame_closes_that_connection_1009_and_a_flood_is_refused_then_closed_1008():
    async def scenario():
        async with serving(max_frame=1024, rate=1.0, burst=3) as (_, port):
            big = await websockets.connect(f"ws://127.0.0.1:{port}/")
            await big.send("x" * 5000)
            with contextlib.suppress(websockets.ConnectionClosed):
                await asyncio.wait_for(big.recv(), 5)
            flood = await websockets.connect(f"ws://127.0.0.1:{port}/", max_queue=None)
            replies = []
            try:
                for _ in range(40):
                    await flood.send(json.dumps({"type": "GET_ROOMPLAYER", "data": {"roomId": 1}}))
                while True:
                    replies.append(json.loads(await asyncio.wait_for(flood.recv(), 5)))
            except websockets.ConnectionClosed:
                pass
            still = await websockets.connect(f"ws://127.0.0.1:{port}/")
            alive = await ask(still, {"type": "GET_ROOMPLAYER", "data": {"roomId": 1}})
            await still.close()
            return big.close_code, flood.close_code, replies, alive
    big_code, flood_code, replies, alive = run(scenario())
    assert big_code == 1009
    assert flood_code == 1008
    assert sum(1 for r in replies if r["data"].get("msg") == "too many messages: slow down") >= 16
    assert alive["data"]["msg"].startswith("房间不存在")  # the server still answers


def test_a_room_of_two_games_sends_gameResult_and_gameOver_once_after_the_last(tmp_path):
    seats = [RawBot(s) for s in range(4)]
    options = ServeOptions(port=0, games=2, start_delay=0.0, log=str(tmp_path / "two.jsonl"),
                           rules={"match_end": "deals", "match_deals": 1})
    server = run(play_table(options, seats, rounds=2))
    stages = [m["stage"] for m in seats[0].received if m["type"] == "notify"]
    assert stages.count("gameResult") == stages.count("gameOver") == 1
    assert stages[-2:] == ["gameResult", "gameOver"]
    assert [b["levelCard"] for b in seats[0].notifies("beginning")] == ["2", "2"]  # each game starts at 2
    assert seats[0].notifies("gameOver")[0] == {"type": "notify", "stage": "gameOver", "curTimes": 2,
                                                "settingTimes": 2, "gameRound": 2}
    assert [r["index"] for r in server.results] == [0, 1]
    from paiju.replay.check import check_log
    from tabletop.log import read_log

    result = check_log(read_log(tmp_path / "two.jsonl"))
    assert result.ok and result.units == 2, result.message


def test_the_rate_limit_never_refuses_the_answer_to_an_act(tmp_path):
    """A bot answering at full speed under a tight limit: each act credits its answer."""
    from paiju.ogd.server import parse_timeouts

    seats = [RawBot(s) for s in range(4)]
    options = ServeOptions(port=0, games=1, start_delay=0.0, rate=1.0, burst=1, timeouts=parse_timeouts("2"),
                           rules={"match_end": "deals", "match_deals": 1})
    server = run(play_table(options, seats))
    assert not [e for bot in seats for e in bot.errors()]
    assert not [line for line in server.said if "ruled against" in line]
    assert all(bot.notifies("gameOver") for bot in seats)
