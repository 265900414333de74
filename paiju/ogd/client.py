"""`paiju ogd play`: a paiju agent plays one seat on an OGD-protocol server (OGD itself or
`paiju ogd serve`).

``OgdPlayer`` is the protocol without the socket: it is given each message received and
answers with the messages to send -- it creates or joins the room, follows the table
(``SeatView``), turns each ``act`` into the agent's observation and legal actions, and
answers with the ``actionList`` entry of the agent's choice (copied, as the protocol
asks). ``play`` runs it over a WebSocket until ``gameOver``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from typing import Any

import attrs

from tabletop.errors import OptionError, PaijuError

from paiju.ogd.codec import OgdCodecError
from paiju.ogd.messages import ANSWER_TYPE
from paiju.ogd.table import SeatView
from paiju.summary import counted

MAX_MESSAGE = 16 * 1024 * 1024
"""An act lists every legal play with every choice of suits: a few hundred KB at most."""


class ProtocolFailure(PaijuError):
    """The server refused the room request, or the connection failed."""


@attrs.define
class Outcome:
    """What the client saw: games over, the final ``gameResult``, errors the server sent."""

    game_result: dict[str, Any] | None = None
    game_over: dict[str, Any] | None = None
    errors: list[str] = attrs.field(factory=list)
    acts: int = 0
    deals: int = 0


class OgdPlayer:
    def __init__(self, agent: Any, *, user: Any = "paiju", room: int | None = None, seat: int | None = None,
                 rounds: int = 1, say: Callable[[str], None] = lambda line: None) -> None:
        self.agent = agent
        self.say = say
        self.user, self.room, self.wanted_seat, self.rounds = user, room, seat, rounds
        self.view = SeatView(seat)
        self.outcome = Outcome()
        self.done = False

    def start(self) -> list[dict[str, Any]]:
        data: dict[str, Any] = {"userId": self.user}
        if self.wanted_seat is not None:
            data["seatNum"] = self.wanted_seat
        if self.room is None:
            return [{"type": "CREATE_ROOM", "data": {**data, "round": self.rounds}}]
        return [{"type": "JOIN_ROOM", "data": {**data, "roomId": self.room}}]

    def on_message(self, message: Any) -> list[dict[str, Any]]:
        if not isinstance(message, dict):
            return []
        kind = message.get("type")
        if kind in ("CREATE_ROOM", "JOIN_ROOM"):
            data = message.get("data") or {}
            if message.get("code") != 200:
                raise ProtocolFailure(f"{kind} refused: {data.get('msg', message)}")
            self.room, self.view.seat = data["roomId"], data["userNum"]
            self.say(f"paiju ogd play: {'created' if kind == 'CREATE_ROOM' else 'joined'} room {self.room}, "
                     f"seat {self.view.seat}")
            if self.wanted_seat is not None and self.view.seat != self.wanted_seat:
                self.say(f"paiju ogd play: warning: asked for seat {self.wanted_seat}, the server gave seat "
                         f"{self.view.seat} (--seat is a request; a paiju tournament seats its bots itself)")
            return []
        if message.get("code") == -1:
            self.outcome.errors.append(f"{kind}: {(message.get('data') or {}).get('msg', '')}")
            return []
        if kind == "notify":
            stage = message.get("stage")
            if stage == "gameResult":
                self.outcome.game_result = message
            elif stage == "gameOver":
                self.outcome.game_over = message
                self.done = True
            elif stage == "episodeOver":
                self.outcome.deals += 1
            else:
                self.view.on_notify(message)
            return []
        if kind == "act":
            return [self.answer(message)]
        return []

    def answer(self, act: dict[str, Any]) -> dict[str, Any]:
        stage = act["stage"]
        observation, legal, entries = self.view.on_act(act)
        self.outcome.acts += 1
        if legal:
            choice = self.agent.act(observation, legal)
            entry = entries[legal.index(choice)] if choice in legal else entries[0]
        else:  # nothing decodes: copy the first entry rather than stall the table
            entry = (act.get("actionList") or [["PASS", "PASS", "PASS"]])[0]
        data: dict[str, Any] = {"roomId": self.room, "player": self.view.seat, "act": entry}
        if stage == "back":
            data["tributePos"], data["tribute"] = act.get("tributePos"), act.get("tribute")
        return {"type": ANSWER_TYPE[stage], "data": data}


async def play_over_socket(url: str, player: OgdPlayer, *, say: Callable[[str], None] = lambda s: None) -> Outcome:
    import websockets

    try:
        async with websockets.connect(url, max_size=MAX_MESSAGE, ping_interval=None, open_timeout=10) as socket:
            for message in player.start():
                await socket.send(json.dumps(message))
            async for raw in socket:
                try:
                    message = json.loads(raw)
                except ValueError:
                    say(f"paiju ogd play: ignored a message that is not JSON: {str(raw)[:60]!r}")
                    continue
                try:
                    replies = player.on_message(message)
                except (OgdCodecError, KeyError, TypeError) as exc:
                    say(f"paiju ogd play: could not read a {message.get('stage') or message.get('type')} "
                        f"message: {exc}")
                    continue
                for reply in replies:
                    await socket.send(json.dumps(reply))
                if player.done:
                    break
    except (OSError, asyncio.TimeoutError) as exc:
        raise ProtocolFailure(f"cannot connect to {url}: {getattr(exc, 'strerror', None) or exc}") from None
    except Exception as exc:
        if type(exc).__module__.startswith("websockets"):
            raise ProtocolFailure(f"connection to {url} failed: {exc}") from None
        raise
    return player.outcome


def play(url: str, agent: Any, *, user: Any, room: int | None, seat: int | None, rounds: int) -> int:
    if not url.startswith(("ws://", "wss://")):
        raise OptionError(f"not a WebSocket address: {url!r} (ws://HOST:PORT)")
    player = OgdPlayer(agent, user=user, room=room, seat=seat, rounds=rounds,
                       say=lambda line: print(line, flush=True))
    outcome = asyncio.run(play_over_socket(url, player, say=lambda line: print(line, file=sys.stderr)))
    for line in outcome.errors:
        print(f"paiju ogd play: server said: {line}", file=sys.stderr)
    result = outcome.game_result
    where = f"room {player.room}, seat {player.view.seat}"
    if outcome.game_over is None:
        print(f"paiju ogd play: {where}: the server closed the connection before gameOver "
              f"({counted(outcome.deals, 'deal')}, {counted(outcome.acts, 'act')})")
        return 1
    if result is None:
        print(f"paiju ogd play: {where}: game over ({counted(outcome.deals, 'deal')}, {counted(outcome.acts, 'act')})")
        return 0
    mine = (player.view.seat or 0) % 2
    verdict = "won" if result.get("victory") == mine else "lost" if result.get("victory") in (0, 1) else "no winner"
    print(f"paiju ogd play: {where}: our side {verdict}; levels {'/'.join(map(str, result.get('victoryRank', [])))}; "
          f"{counted(outcome.deals, 'deal')}, {counted(outcome.acts, 'act')}")
    return 0
