"""`paiju ogd serve`: an OGD-protocol WebSocket server whose games paiju's 掼蛋 engine plays.

Competition bots connect unchanged (shared/protocols/ogd-websocket.md): CREATE_ROOM /
JOIN_ROOM, then ``notify``/``act`` for a game of ``round`` games. Unlike OGD, every move
is checked, and each game is a paiju log unit that ``paiju replay --check`` reproduces.

A bad answer to an ``act`` -- an action that does not decode, a move that is not legal --
gets an error reply (``code -1`` and ``data.msg``) and the act is sent again, up to
``retries`` bad answers per act (a frame that is not JSON, or not an answer to the act
waited for, gets an error reply and leaves the act open). Then, or when the act times out, or
when the seat's socket is closed, the seat is **ruled against** for that act: the server
makes the move for it -- PASS when it may pass, else the first action of its list (when
leading, the lowest single; the first tribute or return card listed). A seat whose
socket closed keeps being played so until someone joins its seat again; no game hangs.

With ``referee``, a well-formed move that breaks a rule the rulebook covers (does not
beat, wrong combination, pass on the lead, wrong tribute or return card) is applied as an
irregular attempt, the referee rules on it like any other (the offender is told the
clause), and the game goes on from the ruling. Moves the engine refuses outright (cards
not held, a reading the cards cannot have) are bad answers as above. Decisions that have no
OGD form (a refereed table's choices) are made for the seat by paiju's heuristic agent.

Safety: binds 127.0.0.1 unless told otherwise; frames over ``max_frame`` bytes close the
connection (1009); more than ``rate`` messages a second (``burst`` at once) are refused
with an error reply, and a connection that keeps flooding is closed (1008) -- the answer to
an act is always let through (each act sent credits one message), so a fast bot is never
cut off; no request data ever becomes a file path.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import attrs

from guandan.legal import RECORDED
from guandan.ranks import level_index
from tabletop.errors import OptionError
from tabletop.events import Event
from tabletop.irregular import Irregular
from tabletop.log import encode, encode_block, encode_event, is_compressed, make_header
from tabletop.runner import rule
from tabletop.seats import NUM_SEATS, REFEREE

from paiju.sim.batch import start_unit
from paiju.ogd import messages as msg
from paiju.ogd.codec import OgdCodecError, action_from_ogd
from paiju.ogd.players import GAME, game_adapter, stand_in_agent
from paiju.summary import counted

DEFAULT_PORT = 8181
MAX_ROOMS = 256
STAGES = ("play", "tribute", "back")


@attrs.frozen
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    games: int | None = None
    """Stop after this many games (None: run until interrupted)."""
    referee: bool = False
    log: str | None = None
    seed: int = 0
    rules: dict[str, Any] = attrs.field(factory=dict)
    retries: int = 3
    """Bad answers allowed per act before the seat is ruled against."""
    timeouts: dict[str, float] = attrs.field(factory=lambda: {s: 60.0 for s in STAGES})
    """Seconds per act, by stage."""
    start_delay: float = 1.0
    """Seconds between the fourth join and the first deal (OGD: about 1 s)."""
    max_frame: int = 64 * 1024
    rate: float = 50.0
    burst: int = 100
    quiet: bool = False


def parse_timeouts(text: str) -> dict[str, float]:
    """'30' (every act) or 'play=10,tribute=30,back=30' (stages left out keep 60)."""
    def seconds(value: str, what: str) -> float:
        try:
            number = float(value)
        except ValueError:
            raise OptionError(f"--act-timeout: {what} is not a number of seconds: {value!r}") from None
        if not 0 < number <= 86400:
            raise OptionError(f"--act-timeout: {what} must be more than 0 and at most 86400 s, got {value}")
        return number

    if "=" not in text:
        return {s: seconds(text, "the timeout") for s in STAGES}
    out = {s: 60.0 for s in STAGES}
    for item in text.split(","):
        stage, _, value = item.partition("=")
        stage = stage.strip()
        if stage not in STAGES:
            raise OptionError(f"--act-timeout: unknown stage {stage!r} (play, tribute, back)")
        out[stage] = seconds(value.strip(), stage)
    return out


# ---------------------------------------------------------------------------------------------
# The log: every finished game a unit, the file rewritten whole (atomically) after each


class GameLog:
    """A paiju log of the games played: header options ``unit: matches``, ``count`` and
    ``index_ranges`` of the games finished (a game still in play when the server stops is
    left out). Rewritten through a temporary file and a rename after every game, so the
    file is always a complete log."""

    def __init__(self, path: str, seed: int, rules: dict[str, Any], referee: bool) -> None:
        self.path = os.path.abspath(path)
        self.seed, self.rules, self.referee = seed, rules, referee
        self.units: dict[int, list[str]] = {}
        directory = os.path.dirname(self.path)
        if os.path.isdir(self.path):
            raise OptionError(f"cannot write log {path!r}: it is a directory")
        if not os.path.isdir(directory):
            raise OptionError(f"cannot write log {path!r}: no such directory {directory!r}")
        if not os.access(directory, os.W_OK):
            raise OptionError(f"cannot write log {path!r}: permission denied")

    def add(self, index: int, lines: list[str]) -> None:
        self.units[index] = lines
        indices = sorted(self.units)
        options = {"unit": "matches", "count": indices[-1] + 1, "agents": ["ogd"] * NUM_SEATS,
                   "referee": self.referee, "index_ranges": _ranges(indices), "server": "ogd"}
        header = make_header(GAME, self.seed, self.rules, options)
        body = [encode(header)] + [line for i in indices for line in self.units[i]]
        directory, name = os.path.split(self.path)
        temporary = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
        try:
            with open(temporary, "wb") as f:
                f.write(encode_block(body, compress=is_compressed(self.path)))
            os.replace(temporary, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.remove(temporary)
            raise OptionError(f"cannot write log {self.path!r}: {exc.strerror or exc}") from None


def _ranges(indices: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for i in indices:
        if out and out[-1][1] == i:
            out[-1][1] = i + 1
        else:
            out.append([i, i + 1])
    return out


def header_options(referee: bool) -> dict[str, Any]:
    """What the engine is built from (the same as ``paiju replay`` reads from the header)."""
    return {"referee": referee}


# ---------------------------------------------------------------------------------------------
# The one place the server steps the engine


def table_step(engine: Any, seat: Any, action: Any, referee: Any) -> list[Event]:
    """Apply what ``seat`` does -- ``action``, or when the referee's seat is to act the
    referee's ruling -- and return the events (``action`` None: only the events waiting).
    The order is the one ``paiju replay --check`` re-creates."""
    if seat is REFEREE:
        action = rule(engine, referee)
    events = [] if action is None else engine.apply(action)
    events.extend(engine.take_events())
    return events


# ---------------------------------------------------------------------------------------------
# Connections and rooms

_GONE = object()


class Connection:
    def __init__(self, socket: Any, options: ServeOptions) -> None:
        self.socket = socket
        self.user_id: Any = None
        self.room: "Room | None" = None
        self.seat: int | None = None
        self.options = options
        self.tokens = float(options.burst)
        self.stamp = time.monotonic()
        self.refused = 0

    async def messages(self) -> AsyncIterator[Any]:
        """The socket's messages that the rate limit lets through; one over it is answered
        with an error, and a flood (five bursts refused in a row) closes the socket."""
        async for raw in self.socket:
            if self.allow():
                yield raw
                continue
            await self.send(msg.error("ERROR", "too many messages: slow down"))
            if self.refused > 5 * self.options.burst:
                await self.socket.close(1008, "message flood")
                return

    def allow(self) -> bool:
        """Token bucket: ``rate`` messages a second, ``burst`` at once."""
        now = time.monotonic()
        self.tokens = min(self.options.burst, self.tokens + (now - self.stamp) * self.options.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False

    def credit(self) -> None:
        """An act sent to this seat allows one more message (its answer) whatever the rate."""
        self.tokens = min(self.options.burst, self.tokens + 1)

    async def send(self, message: dict[str, Any]) -> bool:
        try:
            await self.socket.send(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
            return True
        except Exception:  # a closed or broken socket: the seat is gone, which the room handles
            return False


class Room:
    def __init__(self, number: int, rounds: int) -> None:
        self.number = number
        self.rounds = rounds
        self.seats: list[Connection | None] = [None] * NUM_SEATS
        self.started = False
        self.over = False
        self.asked: tuple[int, str] | None = None
        """(seat, stage) of the act being waited for."""
        self.answers: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None

    def free_seat(self, wanted: Any) -> int | None:
        if wanted is not None:
            return wanted if self.seats[wanted] is None else None
        return next((s for s in range(NUM_SEATS) if self.seats[s] is None), None)

    @property
    def full(self) -> bool:
        return all(c is not None for c in self.seats)

    async def send(self, seats: tuple[int, ...], message: dict[str, Any]) -> None:
        for seat in seats:
            conn = self.seats[seat]
            if conn is not None and not await conn.send(message):
                self.leave(conn)

    def leave(self, conn: Connection) -> None:
        if conn.seat is not None and self.seats[conn.seat] is conn:
            self.seats[conn.seat] = None
            if self.asked is not None and self.asked[0] == conn.seat:
                self.answers.put_nowait((conn.seat, _GONE))


# ---------------------------------------------------------------------------------------------
# The server


class OgdServer:
    def __init__(self, options: ServeOptions, say: Callable[[str], None] | None = None) -> None:
        self.options = options
        self.adapter = game_adapter()
        self.rules = self.adapter.rules_from_dict(dict(options.rules))
        self.log = GameLog(options.log, options.seed, self.rules.to_dict(), options.referee) if options.log else None
        self.rooms: dict[int, Room] = {}
        self.next_room = 1
        self.next_index = 0
        self.games_done = 0
        self.results: list[dict[str, Any]] = []
        self.finished = asyncio.Event()
        self.port: int | None = None
        self._say = say or (lambda line: None if options.quiet else print(line, flush=True))

    def say(self, line: str) -> None:
        self._say(line)

    # -- networking ------------------------------------------------------------------------

    async def run(self, ready: Callable[[int], None] | None = None) -> None:
        """Serve until ``games`` games are done or the task is cancelled."""
        import websockets

        async with websockets.serve(self.handle, self.options.host, self.options.port,
                                    max_size=self.options.max_frame, ping_interval=None,
                                    close_timeout=2) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            if ready is not None:
                ready(self.port)
            try:
                await self.finished.wait()
            finally:
                for room in self.rooms.values():
                    if room.task is not None:
                        room.task.cancel()

    async def handle(self, socket: Any) -> None:
        conn = Connection(socket, self.options)
        try:
            async for raw in conn.messages():
                try:
                    await self.on_message(conn, raw)
                except Exception as exc:  # a bug must not take the connection or the server down
                    self.say(f"internal error on a {str(raw)[:40]!r} message: {type(exc).__name__}: {exc}")
                    await conn.send(msg.error("ERROR", "internal error: the message was not handled"))
        except Exception:  # a connection closed abruptly ends here like a clean close
            pass
        finally:
            if conn.room is not None:
                room = conn.room
                room.leave(conn)
                if (not room.started or room.over) and not any(room.seats):
                    self.rooms.pop(room.number, None)

    async def on_message(self, conn: Connection, raw: Any) -> None:
        if not isinstance(raw, str):
            await conn.send(msg.error("ERROR", "binary frames are not part of the protocol: send JSON text"))
            return
        try:
            message = json.loads(raw)
        except ValueError as exc:
            await conn.send(msg.error("ERROR", f"not JSON: {exc}"))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await conn.send(msg.error("ERROR", 'a message is {"type": ..., "data": {...}}'))
            return
        kind, data = message["type"], message.get("data")
        if not isinstance(data, dict):
            await conn.send(msg.error(kind, "data must be an object"))
            return
        handler = {"CREATE_ROOM": self.create_room, "JOIN_ROOM": self.join_room,
                   "GET_ROOMPLAYER": self.room_players, "PLAY": self.answer, "TRIBUTE": self.answer,
                   "PAYTRIBUTE": self.answer}.get(kind)
        if handler is None:
            await conn.send(msg.error(kind, f"unknown message type {kind[:40]!r} (CREATE_ROOM, JOIN_ROOM, "
                                            "GET_ROOMPLAYER, PLAY, TRIBUTE, PAYTRIBUTE)"))
            return
        await handler(conn, kind, data)

    # -- rooms -----------------------------------------------------------------------------

    async def create_room(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        if conn.room is not None:
            await conn.send(msg.error(kind, f"已在房间中 (already in room {conn.room.number})"))
            return
        rounds = data.get("round", 1)
        if type(rounds) is not int or not 1 <= rounds <= 1000:
            await conn.send(msg.error(kind, f"round must be a whole number 1-1000, got {str(rounds)[:20]!r}"))
            return
        seat = _seat_field(data)
        if seat is False:
            await conn.send(msg.error(kind, "seatNum must be 0-3"))
            return
        if len(self.rooms) >= MAX_ROOMS:
            await conn.send(msg.error(kind, f"too many rooms open ({MAX_ROOMS}): try again later"))
            return
        room = Room(self.next_room, rounds)
        self.next_room += 1
        self.rooms[room.number] = room
        free = room.free_seat(seat)
        assert free is not None   # a new room has every seat free
        self._seat(conn, room, free, data)
        await conn.send(msg.reply(kind, {"roomId": room.number, "userNum": free, "userId": conn.user_id,
                                         "userName": None}))

    async def join_room(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        if conn.room is not None:
            await conn.send(msg.error(kind, f"已在房间中 (already in room {conn.room.number})"))
            return
        room_id = data.get("roomId")
        room = self.rooms.get(room_id) if type(room_id) is int else None
        if room is None or room.over:
            await conn.send(msg.error(kind, "房间不存在 (no such room)"))
            return
        wanted = _seat_field(data)
        if wanted is False:
            await conn.send(msg.error(kind, "seatNum must be 0-3"))
            return
        seat = room.free_seat(wanted)
        if seat is None:
            await conn.send(msg.error(kind, "房间已满 (the room is full)" if wanted is None
                                      else f"座位已占 (seat {wanted} is taken)"))
            return
        self._seat(conn, room, seat, data)
        await conn.send(msg.reply(kind, {"roomId": room.number, "userNum": seat}))
        for other in range(NUM_SEATS):
            if other != seat:
                await room.send((other,), msg.reply("JOIN", {"roomId": room.number}))
        if room.full and not room.started:
            room.started = True
            room.task = asyncio.get_running_loop().create_task(self.play_room(room))
        elif room.started:
            self.say(f"room {room.number}: seat {seat} ({conn.user_id}) rejoined")

    def _seat(self, conn: Connection, room: Room, seat: int, data: dict[str, Any]) -> None:
        conn.room, conn.seat = room, seat
        user = data.get("userId")
        conn.user_id = user if isinstance(user, (str, int)) and not isinstance(user, bool) else f"seat{seat}"
        room.seats[seat] = conn

    async def room_players(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        room_id = data.get("roomId")
        room = self.rooms.get(room_id) if type(room_id) is int else None
        if room is None:
            await conn.send(msg.error(kind, "房间不存在 (no such room)"))
            return
        users = [{"userNum": s, "userId": c.user_id, "userName": None} for s, c in enumerate(room.seats) if c]
        await conn.send(msg.reply(kind, {"users": users}))

    async def answer(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        """A PLAY / TRIBUTE / PAYTRIBUTE: handed to the room's game if it answers the act
        being waited for; otherwise an error reply (OGD drops such messages silently)."""
        room = conn.room
        if room is None:
            await conn.send(msg.error(kind, "not in a room: CREATE_ROOM or JOIN_ROOM first"))
            return
        if data.get("roomId") != room.number:
            await conn.send(msg.error(kind, f"roomId must be your room, {room.number}"))
            return
        if data.get("player") != conn.seat:
            await conn.send(msg.error(kind, f"player must be your own seat, {conn.seat}"))
            return
        asked = room.asked
        if asked is None or asked[0] != conn.seat:
            await conn.send(msg.error(kind, "not your turn: answer only the act you are sent"))
            return
        expected = msg.ANSWER_TYPE[asked[1]]
        if kind != expected:
            await conn.send(msg.error(kind, f"the act is for stage {asked[1]!r}: answer with {expected}"))
            return
        room.answers.put_nowait((conn.seat, data.get("act")))

    # -- games -----------------------------------------------------------------------------

    async def play_room(self, room: Room) -> None:
        try:
            await asyncio.sleep(self.options.start_delay)
            narrator = msg.Narrator()
            won = [0, 0]
            last = None
            played = 0
            for game in range(room.rounds):
                if self.options.games is not None and self.next_index >= self.options.games:
                    break
                index = self.next_index
                self.next_index += 1
                result = await GameRun(self, room, index, narrator).play()
                last = result
                played += 1
                if result.winner is not None:
                    won[result.winner] += 1
                self.game_done(room, index, game, result)
            if last is not None:
                levels = [level_index(v) for v in last.levels]
                await room.send(tuple(range(NUM_SEATS)), narrator.game_result(won, levels, last.winner, played))
                await room.send(tuple(range(NUM_SEATS)), msg.game_over(played))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an engine or server bug: stop this room, tell its seats, keep serving
            self.say(f"room {room.number}: stopped by an internal error: {type(exc).__name__}: {exc}")
            await room.send(tuple(range(NUM_SEATS)), msg.error("ERROR", "internal error: the room is closed"))
        finally:
            room.over = True
            if not any(room.seats):
                self.rooms.pop(room.number, None)
            if self.options.games is not None and self.games_done >= self.options.games:
                self.finished.set()

    def game_done(self, room: Room, index: int, game: int, result: Any) -> None:
        self.games_done += 1
        users = [c.user_id if c else None for c in room.seats]
        self.results.append({"room": room.number, "game": game, "index": index, "winner": result.winner,
                             "levels": list(result.levels), "deals": len(result.deals), "ended": result.ended,
                             "users": users})
        side = "no side" if result.winner is None else f"side {result.winner} (seats {result.winner}&{result.winner + 2})"
        self.say(f"game {index} (room {room.number}): {side} won, levels {'/'.join(result.levels)}, "
                 f"{counted(len(result.deals), 'deal')}")


class GameRun:
    """One game of a room: the engine, its referee (with --referee), the log lines."""

    def __init__(self, server: OgdServer, room: Room, index: int, narrator: msg.Narrator) -> None:
        self.server, self.room, self.index, self.narrator = server, room, index, narrator
        options = server.options
        self.engine, started = start_unit(server.adapter, "matches", options.seed, index, server.rules,
                                          header_options(options.referee))
        self.lines = [encode_event(started)]
        self.referee = None
        if options.referee:
            from enforcement.setup import make_referee

            self.referee = make_referee(GAME)
        self.stand_ins = [stand_in_agent(options.seed, index, seat) for seat in range(NUM_SEATS)]

    async def play(self) -> Any:
        engine = self.engine
        await self.deliver(table_step(engine, None, None, self.referee))
        offender = None
        while True:
            seat = engine.to_act
            await self.deliver(table_step(engine, None, None, self.referee))  # a match draws its next deal when asked
            if seat is None:
                break
            if seat is REFEREE:
                events = table_step(engine, seat, None, self.referee)
                await self.deliver(events)
                if offender is not None:
                    await self.tell_ruling(offender, events)
                    offender = None
                continue
            action, irregular = await self.decide(seat)
            events = table_step(engine, seat, action, self.referee)
            await self.deliver(events)
            offender = (seat, [e.irregularity for e in events if isinstance(e, Irregular)]) if irregular else None
        if self.server.log is not None:
            self.server.log.add(self.index, self.lines)
        return engine.result

    async def deliver(self, events: list[Event]) -> None:
        self.lines.extend(encode_event(e) for e in events)
        for seats, message in self.narrator.on_events(self.engine, events):
            await self.room.send(seats, message)

    async def decide(self, seat: int) -> tuple[Any, bool]:
        """The action for ``seat``, and whether it is an irregular attempt (refereed)."""
        engine = self.engine
        legal = engine.legal_actions()
        stage = msg.stage_of(legal)
        observation = engine.observe(seat)
        if stage is None:  # a refereed table's choice or step: no OGD form
            return self.stand_ins[seat].act(observation, legal), False
        act = msg.act_message(stage, observation, legal, engine.levels.levels, self.server.rules,
                              rest=[len(engine.current_deal.hand(s)) for s in range(NUM_SEATS)],
                              last=self.narrator.last, tribute_from=self.narrator.received.get(seat))
        reply_type = msg.ANSWER_TYPE[stage]
        options = self.server.options
        room = self.room
        while not room.answers.empty():  # nothing sent before this act answers it
            room.answers.get_nowait()
        room.asked = (seat, stage)
        try:
            for attempt in range(1, options.retries + 2):
                conn = room.seats[seat]
                if conn is None:
                    return self.ruled_against(seat, legal, "the seat is empty (its connection closed)"), False
                if stage == "tribute":
                    await conn.send(msg.reply("tribute", {"roomId": room.number, "player": seat}))
                conn.credit()
                await room.send((seat,), act)
                try:
                    _, answer = await asyncio.wait_for(room.answers.get(), options.timeouts[stage])
                except asyncio.TimeoutError:
                    await room.send((seat,), msg.error(reply_type, f"timeout: no answer in {options.timeouts[stage]:g} s; "
                                                                   "the server moves for you"))
                    return self.ruled_against(seat, legal, "timeout"), False
                if answer is _GONE:
                    return self.ruled_against(seat, legal, "its connection closed"), False
                problem, action, irregular = self.check(seat, answer, stage)
                if problem is None:
                    return action, irregular
                left = options.retries + 1 - attempt
                self.server.say(f"room {room.number} game {self.index} seat {seat}: bad answer ({problem}); "
                                f"{'asked again' if left else 'ruled against'}")
                if left:
                    note = f" (act sent again; {left} more bad answer{'s' if left > 1 else ''} allowed)"
                else:
                    note = "; the server moves for you"
                await room.send((seat,), msg.error(reply_type, problem + note))
            return self.ruled_against(seat, legal, "too many bad answers"), False
        finally:
            room.asked = None

    def check(self, seat: int, answer: Any, stage: str) -> tuple[str | None, Any, bool]:
        """(why the answer is refused or None, the action, whether it is irregular)."""
        engine = self.engine
        try:
            action = action_from_ogd(answer, seat, engine.current_deal.level)
        except OgdCodecError as exc:
            return f"unparseable act: {exc}", None, False
        if msg.STAGE_OF_ACTION.get(type(action)) != stage:
            return f"the act is for stage {stage!r}, not {msg.STAGE_OF_ACTION[type(action)]!r}", None, False
        found = engine.current_deal.illegality(action)
        if found is None:
            return None, action, False
        if self.referee is not None and found.code in RECORDED:
            return None, action, True
        return f"illegal: {found.message}", None, False

    def ruled_against(self, seat: int, legal: Any, why: str) -> Any:
        action = legal[0]  # PASS when the seat may pass (listed first), else the first legal action
        self.server.say(f"room {self.room.number} game {self.index} seat {seat}: ruled against ({why}): "
                        f"the server plays {action}")
        return action

    async def tell_ruling(self, offender: tuple[int, list[str]], events: list[Event]) -> None:
        """Tell the seat whose irregular move the referee just ruled on what was ruled."""
        seat, found = offender
        clauses = [str(getattr(e, "clause", "")) for e in events if e.KIND in ("ref.ruling", "ref.unresolved")]
        what = f"irregular move recorded ({', '.join(found) or 'irregularity'})"
        ruling = f"; the referee rules under {', '.join(c for c in clauses if c)}" if any(clauses) else ""
        self.server.say(f"room {self.room.number} game {self.index} seat {seat}: {what}{ruling}")
        await self.room.send((seat,), msg.error("PLAY", what + ruling))


def _seat_field(data: dict[str, Any]) -> Any:
    """``seatNum``: None when absent, the seat when valid, False when invalid."""
    seat = data.get("seatNum")
    if seat is None:
        return None
    if type(seat) is int and 0 <= seat < NUM_SEATS:
        return seat
    return False


# ---------------------------------------------------------------------------------------------
# The command


def serve(options: ServeOptions) -> int:
    """Run the server in this thread until ``games`` games are done or it is interrupted."""
    server = OgdServer(options)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, server.finished.set)

        def ready(port: int) -> None:
            mode = "refereed" if options.referee else "strict"
            print(f"paiju ogd serve: listening on ws://{options.host}:{port}/ ({mode}; "
                  f"{'until interrupted' if options.games is None else counted(options.games, 'game')})", flush=True)

        await server.run(ready)

    try:
        asyncio.run(main())
    except OSError as exc:
        raise OptionError(f"cannot listen on {options.host}:{options.port}: {exc.strerror or exc}") from None
    done = server.games_done
    where = f"; log {options.log}" if options.log and done else ""
    print(f"paiju ogd serve: {counted(done, 'game')} played{where}", file=sys.stderr if options.quiet else sys.stdout)
    return 0



__all__ = ["GameLog", "OgdServer", "ServeOptions", "parse_timeouts", "serve", "table_step"]
