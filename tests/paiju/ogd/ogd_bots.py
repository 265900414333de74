"""Test tables for `paiju ogd`: a server on 127.0.0.1 with an ephemeral port, and clients --
paiju's own ``OgdPlayer`` and a minimal scripted bot that speaks the raw protocol the way a
competition bot does (pick an entry of ``actionList``, copy it back), with hooks to
misbehave."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from typing import Any

import websockets

from paiju.ogd.client import OgdPlayer, play_over_socket
from paiju.ogd.server import OgdServer, ServeOptions

ANSWER = {"play": "PLAY", "tribute": "TRIBUTE", "back": "PAYTRIBUTE"}
LIMIT = 40.0
"""Seconds a whole test table may take before the test fails (never a hung suite)."""


class RawBot:
    """Joins a room (or creates it) and answers each act with a seeded random entry of
    ``actionList``. ``misbehave(bot, act)`` may return raw frames to send first (each
    answered by the server with an error and the act again), or the string 'silent' to
    not answer this act, 'close' to close the socket, or 'crash' to drop the connection as a
    crashed process does (no closing handshake). ``delay``: seconds to think before each
    answer. ``times``: when each message arrived."""

    def __init__(self, seat: int, seed: int = 0, misbehave: Callable[["RawBot", dict], Any] | None = None,
                 delay: float = 0.0) -> None:
        self.seat = seat
        self.delay = delay
        self.times: list[float] = []
        self.rng = random.Random(seed * 10 + seat)
        self.misbehave = misbehave
        self.room: int | None = None
        self.received: list[dict[str, Any]] = []
        self.acts = 0
        self.socket: Any = None

    def errors(self) -> list[str]:
        return [m["data"]["msg"] for m in self.received if m.get("code") == -1]

    def notifies(self, stage: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == "notify" and m.get("stage") == stage]

    def answer(self, act: dict[str, Any]) -> str:
        entry = self.rng.choice(act["actionList"])
        data = {"roomId": self.room, "player": self.seat, "act": entry}
        if act["stage"] == "back":
            data.update(tributePos=act["tributePos"], tribute=act["tribute"])
        return json.dumps({"type": ANSWER[act["stage"]], "data": data})

    async def run(self, port: int, room: "asyncio.Future[int] | None", rounds: int = 1) -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port}/", max_size=2 ** 24, ping_interval=None) as socket:
            self.socket = socket
            if room is None or not room.done():
                await socket.send(json.dumps({"type": "CREATE_ROOM",
                                              "data": {"userId": f"bot{self.seat}", "round": rounds,
                                                       "seatNum": self.seat}}))
            else:
                self.room = room.result()
                await socket.send(json.dumps({"type": "JOIN_ROOM", "data": {"userId": f"bot{self.seat}",
                                                                            "roomId": self.room,
                                                                            "seatNum": self.seat}}))
            async for raw in socket:
                self.times.append(time.monotonic())
                message = json.loads(raw)
                self.received.append(message)
                if message.get("type") == "CREATE_ROOM":
                    self.room = message["data"]["roomId"]
                    if room is not None:
                        room.set_result(self.room)
                if message.get("type") == "notify" and message.get("stage") == "beginning":
                    self.seat = message["myPos"]  # as competition bots do: a tournament moves them between deals
                if message.get("type") == "notify" and message.get("stage") == "gameOver":
                    return
                if message.get("type") != "act":
                    continue
                self.acts += 1
                extra = self.misbehave(self, message) if self.misbehave else None
                if extra == "silent":
                    continue
                if extra == "close":
                    await socket.close()
                    return
                if extra == "crash":
                    socket.transport.abort()
                    return
                if self.delay:
                    await asyncio.sleep(self.delay)
                for frame in extra or ():
                    await socket.send(frame)
                if not extra:
                    await socket.send(self.answer(message))


async def play_table(options: ServeOptions, seats: list[Any], rounds: int = 1, also: Any = None) -> OgdServer:
    """Serve ``options`` and let ``seats`` (RawBot or OgdPlayer, seat 0 creates the room) play
    until the server is done; ``also(port, room)``: one more coroutine to run beside them."""
    said: list[str] = []
    server = OgdServer(options, say=said.append)
    server.said = said  # type: ignore[attr-defined]
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[int] = loop.create_future()
    serving = loop.create_task(server.run(ready.set_result))
    port = await asyncio.wait_for(ready, 5)
    room: asyncio.Future[int] = loop.create_future()

    async def seat_task(index: int, who: Any) -> None:
        if index:
            await room
        if isinstance(who, RawBot):
            await who.run(port, room if index == 0 else room, rounds)
        else:
            if index == 0:
                who.rounds = rounds
                task = loop.create_task(play_over_socket(f"ws://127.0.0.1:{port}/", who))
                while who.room is None and not task.done():
                    await asyncio.sleep(0.005)
                room.set_result(who.room)
                await task
            else:
                who.room = room.result()
                await play_over_socket(f"ws://127.0.0.1:{port}/", who)

    async def everything() -> None:
        extra = [also(port, room)] if also is not None else []
        await asyncio.gather(*(seat_task(i, who) for i, who in enumerate(seats)), *extra)
        await serving

    try:
        await asyncio.wait_for(everything(), LIMIT)
    finally:
        serving.cancel()
    return server


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def player(agent_name: str, seat: int, seed: int = 0) -> OgdPlayer:
    from paiju.ogd.players import resolve_agent

    return OgdPlayer(resolve_agent(agent_name, seed, 0, seat), user=f"paiju{seat}", seat=seat)
