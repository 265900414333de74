"""`paiju ogd play`: a paiju agent plays one seat on an OGD-protocol server (OGD itself or
`paiju ogd serve`).

``OgdPlayer`` is the protocol without the socket: it is given each message received and
answers with the messages to send -- it creates or joins the room, follows the table
(``SeatView``), turns each ``act`` into the agent's observation and legal actions, and
answers with the ``actionList`` entry of the agent's choice (copied, as the protocol
asks). ``play`` runs it over a WebSocket until ``gameOver``, until the server has sent
nothing for ``idle_timeout`` seconds (OGD's server waits for a dead bot forever), or until
SIGINT or SIGTERM; then it prints one line for the whole room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
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
EXIT_INTERRUPTED = 130
IDLE_TIMEOUT = 600.0


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
    stopped: str | None = None
    """Why the client stopped before gameOver (idle, interrupted), or None."""


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


async def play_over_socket(url: str, player: OgdPlayer, *, say: Callable[[str], None] = lambda s: None,
                           idle_timeout: float | None = None, trace: Any = None) -> Outcome:
    """Play until gameOver, or until the server sends nothing for ``idle_timeout`` s
    (``outcome.stopped`` says so); ``trace``: a ``paiju.ogd.trace.Trace`` of every frame."""
    import websockets

    def send_text(message: dict[str, Any]) -> str:
        text = json.dumps(message, ensure_ascii=False)
        if trace is not None:
            trace.record(1, "out", text)
        return text

    try:
        async with websockets.connect(url, max_size=MAX_MESSAGE, ping_interval=None, open_timeout=10) as socket:
            for message in player.start():
                await socket.send(send_text(message))
            while not player.done:
                try:
                    async with asyncio.timeout(idle_timeout):
                        raw = await socket.recv()
                except TimeoutError:
                    player.outcome.stopped = f"no message from the server in {idle_timeout:g} s: gave up"
                    break
                except websockets.ConnectionClosed:
                    break
                if trace is not None:
                    trace.record(1, "in", raw)
                try:
                    message = json.loads(raw)
                except ValueError:
                    say(f"paiju ogd play: ignored a message that is not JSON: {str(raw)[:60]!r}")
                    continue
                try:
                    replies = player.on_message(message)
                except (OgdCodecError, KeyError, TypeError) as exc:
                    what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
                    say(f"paiju ogd play: could not read a {message.get('stage') or message.get('type')} "
                        f"message: {what}")
                    continue
                for reply in replies:
                    await socket.send(send_text(reply))
    except (OSError, asyncio.TimeoutError) as exc:
        raise ProtocolFailure(f"cannot connect to {url}: {getattr(exc, 'strerror', None) or exc}") from None
    except Exception as exc:
        if type(exc).__module__.startswith("websockets"):
            raise ProtocolFailure(f"connection to {url} failed: {exc}") from None
        raise
    return player.outcome


def default_user(agent_spec: str, seat: int | None) -> str:
    """A userId no other seat of the room sends (OGD requires them unique): the agent and
    the seat asked for, else the agent and a random tag."""
    name = agent_spec.rsplit(":", 1)[-1].rsplit("/", 1)[-1][:24] or "agent"
    return f"paiju-{name}-{seat}" if seat is not None else f"paiju-{name}-{os.urandom(3).hex()}"


def room_line(player: OgdPlayer) -> str:
    """The whole room in one line: games won by each side, the last levels."""
    outcome = player.outcome
    result = outcome.game_result or {}
    seat = player.view.seat
    mine = (seat or 0) % 2
    counts = f"{counted(outcome.deals, 'deal')}, {counted(outcome.acts, 'act')}"
    totals = result.get("gameResult")
    levels = result.get("victoryRank")
    if not (isinstance(totals, list) and len(totals) == 4 and isinstance(levels, list) and len(levels) == 2):
        return f"game over ({counts})"
    won = [totals[2], totals[3]]
    games = (outcome.game_over or {}).get("curTimes", sum(w for w in won if isinstance(w, int)))
    sides = {0: "seats 0&2", 1: "seats 1&3"}
    verdict = ("our side won the room" if won[mine] > won[1 - mine]
               else "our side lost the room" if won[mine] < won[1 - mine] else "the room is drawn")
    return (f"{counted(games, 'game') if isinstance(games, int) else f'{games} games'}: {verdict}, games won {won[mine]}-{won[1 - mine]} "
            f"(ours {sides[mine]}, theirs {sides[1 - mine]}); last levels ours {levels[mine]}, "
            f"theirs {levels[1 - mine]}; {counts}")


def play(url: str, agent: Any, *, user: Any, room: int | None, seat: int | None, rounds: int,
         idle_timeout: float | None = IDLE_TIMEOUT, trace: str | None = None) -> int:
    if not url.startswith(("ws://", "wss://")):
        raise OptionError(f"not a WebSocket address: {url!r} (ws://HOST:PORT)")
    from paiju.ogd.trace import Trace

    player = OgdPlayer(agent, user=user, room=room, seat=seat, rounds=rounds,
                       say=lambda line: print(line, flush=True))
    tracer = Trace(trace) if trace else None

    async def main() -> Outcome:
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):  # both end the client the same way
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, task.cancel)
        try:
            return await play_over_socket(url, player, say=lambda line: print(line, file=sys.stderr),
                                          idle_timeout=idle_timeout, trace=tracer)
        except asyncio.CancelledError:
            player.outcome.stopped = "interrupted"
            return player.outcome

    try:
        outcome = asyncio.run(main())
    finally:
        if tracer is not None:
            tracer.close()
    for line in outcome.errors:
        print(f"paiju ogd play: server said: {line}", file=sys.stderr)
    where = f"room {player.room}, seat {player.view.seat}"
    if outcome.game_over is None:
        why = outcome.stopped or "the server closed the connection before gameOver"
        print(f"paiju ogd play: {where}: {why} ({counted(outcome.deals, 'deal')}, {counted(outcome.acts, 'act')})", flush=True)
        if outcome.stopped == "interrupted":
            print("paiju: interrupted", file=sys.stderr)
            return EXIT_INTERRUPTED
        return 1
    print(f"paiju ogd play: {where}: {room_line(player)}")
    return 0
