"""`paiju ogd serve`: an OGD-protocol WebSocket server whose games paiju's 掼蛋 engine plays.

Competition bots connect unchanged (as to OGD's own server): CREATE_ROOM /
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

No room can stall another, and no client its room: a room's task yields to the event loop
after every table step (stand-in moves included), so each room does a bounded amount of
work per turn of the loop; a send that does not complete within the act timeout (a seat
that does not read) drops that seat; keepalive pings close dead sockets; a connection in
no room that stays silent ``idle_timeout`` s, and a room not filled ``room_timeout`` s
after it was created, are closed; a started room whose four players are all gone ends
(abandoned: not counted toward ``games``, not in the log).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import signal
import socket as sockets
import sys
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs

from guandan.legal import RECORDED
from guandan.ranks import level_index
from tabletop.errors import LogError, OptionError
from tabletop.events import Event
from tabletop.rulings import Irregular
from tabletop.log import BlockWriter, encode_block, encode_event, is_compressed, make_header
from tabletop.runner import rule
from tabletop.seats import NUM_SEATS, REFEREE

from paiju.sim.batch import start_unit
from paiju.ogd import messages as msg
from paiju.ogd.codec import PASS_ACTION, OgdCodecError, action_from_ogd, cards_to_ogd, rank_to_ogd
from paiju.ogd.players import GAME, game_adapter, stand_in_agent
from paiju.ogd.trace import Trace, check_writable
from paiju.summary import counted

DEFAULT_PORT = 8181
MAX_ROOMS = 256
STAGES = ("play", "tribute", "back")
UNIT_ORDER = "finished"
"""The log header's ``unit_order``: the games are logged as they finish (rooms play side
by side), each unit naming its own index."""
RECENT_RESULTS = 1000
"""Results kept in memory (``OgdServer.results``): the most recent games only."""


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
    ping_interval: float | None = 20.0
    """Seconds between keepalive pings; a ping unanswered as long closes the socket (None: off)."""
    idle_timeout: float = 300.0
    """A connection in no room, or in a room whose games are over, that sends nothing this
    long is closed."""
    room_timeout: float = 600.0
    """A room whose four seats are not filled this long after it was created is closed."""
    send_buffer: int | None = None
    """Bytes buffered for sending per connection, by the kernel and again by the server
    (None: the system's default and 32 KiB): how much a seat that does not read is sent
    before its sends block and time out."""
    moves: str = "paiju"
    """How acts list the moves (``messages.MOVE_LISTS``): 'paiju' or 'ogd'."""
    trace: str | None = None
    """Write every frame sent and received to this file (``paiju.ogd.trace``)."""

    @property
    def send_timeout(self) -> float:
        """Seconds a send may take before its seat is dropped: the longest act timeout."""
        return max(self.timeouts.values())


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
# The log: every finished game a unit, appended as it finishes


class GameLog:
    """A paiju log of the games played, appended game by game: the header first (options
    ``unit: matches``, ``unit_order: finished``), then each finished game as one block of
    whole lines (one gzip member each for ``.gz``), in the order the games finish; each
    unit opens with its own index, which is what `paiju replay --check` replays. Written
    beside its name and renamed into place when the server stops (``tabletop.files``):
    a run that is killed leaves a valid prefix. A game still in play when the server
    stops, or abandoned, is left out. The encoding and the disk writes run in a thread of
    their own, in order, so the event loop never waits for them; only the game's own
    lines are held in memory."""

    def __init__(self, path: str, seed: int, rules: dict[str, Any], referee: bool) -> None:
        self.path = check_writable(path, "log")
        options = {"unit": "matches", "unit_order": UNIT_ORDER, "agents": ["ogd"] * NUM_SEATS,
                   "referee": referee, "server": "ogd"}
        self.header = make_header(GAME, seed, rules, options)
        self.compressed = is_compressed(self.path)
        self.units = 0
        self._writer: BlockWriter | None = None
        self._pool: ThreadPoolExecutor | None = None

    def open(self) -> None:
        try:
            self._writer = BlockWriter(self.path, self.header)
        except LogError as exc:
            raise OptionError(str(exc)) from None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="ogd-log")

    async def add(self, lines: list[str]) -> None:
        """Append one game (its unit's lines); an OSError is a one-line OptionError."""
        assert self._pool is not None   # opened by the server
        try:
            await asyncio.get_running_loop().run_in_executor(self._pool, self._append, lines)
        except OSError as exc:
            raise OptionError(f"cannot write log {self.path!r}: {exc.strerror or exc}") from None
        self.units += 1

    def _append(self, lines: list[str]) -> None:
        assert self._writer is not None
        self._writer.write_block(encode_block(lines, compress=self.compressed))

    def close(self) -> None:
        """Put the log in place; with no game in it, leave whatever was there before."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        if self._writer is not None:
            if self.units:
                self._writer.close()
            else:
                self._writer.discard()
            self._writer = None


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


class RoomAbandoned(Exception):
    """All four players of a started room are gone: the room ends."""


class Connection:
    def __init__(self, socket: Any, options: ServeOptions, number: int = 0, trace: Trace | None = None) -> None:
        self.socket = socket
        self.number = number
        self.trace = trace
        self.user_id: Any = None
        self.room: "Room | None" = None
        self.seat: int | None = None
        self.options = options
        self.tokens = float(options.burst)
        self.stamp = self.heard = time.monotonic()
        self.refused = 0
        self.dropped: str | None = None
        """Why the server cut this connection (a send that did not complete), or None."""

    async def messages(self) -> AsyncIterator[Any]:
        """The socket's messages that the rate limit lets through; one over it is answered
        with an error, and a flood (five bursts refused in a row) closes the socket."""
        async for raw in self.socket:
            self.heard = time.monotonic()
            if self.trace is not None:
                self.trace.record(self.number, "in", raw)
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
        """Send one message; False when the socket is closed, or when the send did not
        complete within the send timeout (the peer does not read): then the connection
        is cut, so that no seat holds up its room longer than an act may."""
        if self.dropped is not None:
            return False
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        if self.trace is not None:
            self.trace.record(self.number, "out", text)
        timeout = self.options.send_timeout
        try:
            async with asyncio.timeout(timeout):  # unlike wait_for, never loses a cancellation
                await self.socket.send(text)
            return True
        except TimeoutError:
            self.dropped = f"it did not read for {timeout:g} s"
            self.cut()
            return False
        except Exception:  # a closed or broken socket: the seat is gone, which the room handles
            return False

    def cut(self) -> None:
        """Close the connection at once (no closing handshake: the peer is not reading)."""
        transport = getattr(self.socket, "transport", None)
        if transport is not None:
            transport.abort()


class Room:
    def __init__(self, number: int, rounds: int, say: Callable[[str], None] = lambda line: None) -> None:
        self.number = number
        self.rounds = rounds
        self.say = say
        self.seats: list[Connection | None] = [None] * NUM_SEATS
        self.created = time.monotonic()
        self.started = False
        self.over = False
        self.asked: tuple[int, str] | None = None
        """(seat, stage) of the act being waited for."""
        self.act: dict[str, Any] | None = None
        """The act being waited for (what GET_ACTION answers)."""
        self.answers: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.game: "GameRun | None" = None

    def free_seat(self, wanted: Any) -> int | None:
        if wanted is not None:
            return wanted if self.seats[wanted] is None else None
        return next((s for s in range(NUM_SEATS) if self.seats[s] is None), None)

    @property
    def full(self) -> bool:
        return all(c is not None for c in self.seats)

    @property
    def empty(self) -> bool:
        return not any(self.seats)

    async def send(self, seats: tuple[int, ...], message: dict[str, Any]) -> None:
        for seat in seats:
            conn = self.seats[seat]
            if conn is not None and not await conn.send(message):
                if conn.dropped is not None and self.seats[seat] is conn:
                    self.say(f"room {self.number}: seat {seat} dropped ({conn.dropped})")
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
        if options.moves not in msg.MOVE_LISTS:
            raise OptionError(f"--moves must be one of {', '.join(msg.MOVE_LISTS)}, got {options.moves!r}")
        self.options = options
        self.adapter = game_adapter()
        self.rules = self.adapter.rules_from_dict(dict(options.rules))
        self.log = GameLog(options.log, options.seed, self.rules.to_dict(), options.referee) if options.log else None
        if options.trace:
            check_writable(options.trace, "trace")
        self.trace: Trace | None = None
        self.rooms: dict[int, Room] = {}
        self.connections: set[Connection] = set()
        self._closing: set[asyncio.Task] = set()
        self.next_room = 1
        self.next_index = 0
        self.next_connection = 1
        self.games_done = 0
        self.games_in_play = 0
        self.abandoned = 0
        """Games whose room was abandoned while they were played (not counted, not logged)."""
        self.results: collections.deque[dict[str, Any]] = collections.deque(maxlen=RECENT_RESULTS)
        self.finished = asyncio.Event()
        self.port: int | None = None
        self._say = say or (lambda line: None if options.quiet else print(line, flush=True))

    def say(self, line: str) -> None:
        self._say(line)

    # -- networking ------------------------------------------------------------------------

    async def run(self, ready: Callable[[int], None] | None = None) -> None:
        """Serve until ``games`` games are done or the task is cancelled."""
        import websockets

        options = self.options
        if self.log is not None:
            self.log.open()
        try:
            if options.trace:
                self.trace = Trace(options.trace)
            async with websockets.serve(self.handle, options.host, options.port, max_size=options.max_frame,
                                        ping_interval=options.ping_interval, ping_timeout=options.ping_interval,
                                        write_limit=options.send_buffer or 2 ** 15, close_timeout=1) as server:
                self.port = next(iter(server.sockets)).getsockname()[1]
                if ready is not None:
                    ready(self.port)
                janitor = asyncio.get_running_loop().create_task(self.expire())
                try:
                    await self.finished.wait()
                finally:
                    pending = {room.task for room in self.rooms.values() if room.task is not None} | {janitor}
                    while pending:  # cancelled again should a task have caught the first
                        for task in pending:
                            task.cancel()
                        _, pending = await asyncio.wait(pending, timeout=0.5)
                    for conn in list(self.connections):
                        if conn.dropped is None and conn.room is not None and conn.room.started:
                            conn.cut()  # a seat mid-game: no closing handshake to wait for
        finally:
            if self.log is not None:
                self.log.close()
            if self.trace is not None:
                self.trace.close()

    async def expire(self) -> None:
        """Close connections in no room (or in one whose games are over) that stay silent
        ``idle_timeout`` s, and rooms not filled ``room_timeout`` s after they were created."""
        options = self.options
        period = min(1.0, options.idle_timeout / 4, options.room_timeout / 4)
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            for room in list(self.rooms.values()):
                if not room.started and now - room.created > options.room_timeout:
                    self.rooms.pop(room.number, None)
                    room.over = True
                    self.say(f"room {room.number}: closed, its seats not filled in {options.room_timeout:g} s")
                    for conn in room.seats:
                        if conn is not None:
                            conn.room = None
                            self._close(conn, "room closed", f"房间已关闭 (room {room.number} closed: its four "
                                                             f"seats were not filled in {options.room_timeout:g} s)")
            for conn in list(self.connections):
                if (conn.room is None or conn.room.over) and now - conn.heard > options.idle_timeout:
                    self._close(conn, "idle", f"idle for {options.idle_timeout:g} s: the connection is closed")

    def _close(self, conn: Connection, reason: str, why: str) -> None:
        """Tell ``conn`` why and close it, in the background (a peer that does not read
        holds up only that task)."""
        self.connections.discard(conn)

        async def close() -> None:
            await conn.send(msg.error("ERROR", why))
            await conn.socket.close(1000, reason)

        task = asyncio.get_running_loop().create_task(close())
        self._closing.add(task)  # a reference until it is done (the loop keeps only a weak one)
        task.add_done_callback(self._closing.discard)

    async def handle(self, socket: Any) -> None:
        if self.options.send_buffer is not None:
            raw = socket.transport.get_extra_info("socket")
            if raw is not None:
                raw.setsockopt(sockets.SOL_SOCKET, sockets.SO_SNDBUF, self.options.send_buffer)
        conn = Connection(socket, self.options, self.next_connection, self.trace)
        self.next_connection += 1
        self.connections.add(conn)
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
            self.connections.discard(conn)
            if conn.room is not None:
                room = conn.room
                room.leave(conn)
                if (not room.started or room.over) and room.empty:
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
                   "GET_ROOMPLAYER": self.room_players, "GET_ACTION": self.get_action, "PLAY": self.answer,
                   "TRIBUTE": self.answer, "PAYTRIBUTE": self.answer}.get(kind)
        if handler is None:
            await conn.send(msg.error(kind, f"unknown message type {kind[:40]!r} (CREATE_ROOM, JOIN_ROOM, "
                                            "GET_ROOMPLAYER, GET_ACTION, PLAY, TRIBUTE, PAYTRIBUTE)"))
            return
        await handler(conn, kind, data)

    # -- rooms -----------------------------------------------------------------------------

    async def create_room(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        if conn.room is not None:
            await conn.send(msg.error(kind, f"已在房间中 (already in room {conn.room.number})"))
            return
        rounds = _whole(data.get("round", 1))
        if rounds is None or not 1 <= rounds <= 1000:
            await conn.send(msg.error(kind, f"round must be a whole number 1-1000, got {str(data.get('round'))[:20]!r}"))
            return
        seat = _seat_field(data)
        if seat is False:
            await conn.send(msg.error(kind, "seatNum must be 0-3"))
            return
        if len(self.rooms) >= MAX_ROOMS:
            await conn.send(msg.error(kind, f"too many rooms open ({MAX_ROOMS}): try again later"))
            return
        room = Room(self.next_room, rounds, self.say)
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
        room = self._room(data)
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
        rejoined = room.started
        if room.full and not room.started:  # decided before any send: a send lets other joins in
            room.started = True
            room.task = asyncio.get_running_loop().create_task(self.play_room(room))
        picture = room.game.picture(seat) if rejoined and room.game is not None else []
        await conn.send(msg.reply(kind, {"roomId": room.number, "userNum": seat}))
        for other in range(NUM_SEATS):
            if other != seat:
                await room.send((other,), msg.reply("JOIN", {"roomId": room.number}))
        if rejoined:
            self.say(f"room {room.number}: seat {seat} ({conn.user_id}) rejoined")
            for message in picture:
                await room.send((seat,), message)

    def _room(self, data: dict[str, Any]) -> Room | None:
        """The room ``roomId`` names (a number, or its digits as a string)."""
        number = _whole(data.get("roomId"))
        return None if number is None else self.rooms.get(number)

    def _seat(self, conn: Connection, room: Room, seat: int, data: dict[str, Any]) -> None:
        conn.room, conn.seat = room, seat
        user = data.get("userId")
        conn.user_id = user if isinstance(user, (str, int)) and not isinstance(user, bool) else f"seat{seat}"
        room.seats[seat] = conn

    async def room_players(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        room = self._room(data)
        if room is None:
            await conn.send(msg.error(kind, "房间不存在 (no such room)"))
            return
        users = [{"userNum": s, "userId": c.user_id, "userName": None} for s, c in enumerate(room.seats) if c]
        await conn.send(msg.reply(kind, {"users": users}))

    async def get_action(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        """GET_ACTION: the move list of the act this seat is being asked (sent again as
        data ``{stage, actionList, indexRange}``), or an error when none is open."""
        room = conn.room
        if room is None:
            await conn.send(msg.error(kind, "not in a room: CREATE_ROOM or JOIN_ROOM first"))
            return
        act = room.act
        if room.asked is None or room.asked[0] != conn.seat or act is None:
            await conn.send(msg.error(kind, f"no act is open for seat {conn.seat}: wait for your act"))
            return
        await conn.send(msg.reply(kind, {"roomId": room.number, "player": conn.seat, "stage": act["stage"],
                                         "actionList": act["actionList"], "indexRange": act["indexRange"]}))

    async def answer(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        """A PLAY / TRIBUTE / PAYTRIBUTE: handed to the room's game if it answers the act
        being waited for; otherwise an error reply (OGD drops such messages silently)."""
        room = conn.room
        if room is None:
            await conn.send(msg.error(kind, "not in a room: CREATE_ROOM or JOIN_ROOM first"))
            return
        if _whole(data.get("roomId")) != room.number:
            await conn.send(msg.error(kind, f"roomId must be your room, {room.number}"))
            return
        if _whole(data.get("player")) != conn.seat:
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

    def may_start_game(self) -> bool:
        """Whether another game fits in ``games`` (the games finished and those in play)."""
        limit = self.options.games
        return limit is None or self.games_done + self.games_in_play < limit

    async def play_room(self, room: Room) -> None:
        index = None
        try:
            await asyncio.sleep(self.options.start_delay)
            narrator = msg.Narrator()
            won = [0, 0]
            last = None
            played = 0
            for game in range(room.rounds):
                if room.empty:
                    raise RoomAbandoned()
                if not self.may_start_game():
                    break
                index = self.next_index
                self.next_index += 1
                self.games_in_play += 1
                try:
                    run = room.game = GameRun(self, room, index, narrator)
                    result = await run.play()
                    if self.log is not None:
                        await self.log.add(run.lines)
                finally:
                    self.games_in_play -= 1
                    room.game = None
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
        except RoomAbandoned:
            self.abandoned += 1
            where = f" in game {index}" if index is not None else ""
            self.say(f"room {room.number}: abandoned{where} (all four players gone): not counted, not logged")
        except OptionError as exc:  # the log cannot be written: stop serving, say why
            self.say(f"paiju ogd serve: {exc}; stopping")
            self.finished.set()
        except Exception as exc:  # an engine or server bug: stop this room, tell its seats, keep serving
            self.say(f"room {room.number}: stopped by an internal error: {type(exc).__name__}: {exc}")
            await room.send(tuple(range(NUM_SEATS)), msg.error("ERROR", "internal error: the room is closed"))
        finally:
            room.over = True
            if room.empty:
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
        """Play the game to its end, one table step per turn of the event loop (so that no
        room, not even one played by stand-ins, holds up the others); RoomAbandoned when
        all four players are gone."""
        engine = self.engine
        room = self.room
        await self.deliver(table_step(engine, None, None, self.referee))
        offender = None
        while True:
            await asyncio.sleep(0)
            if room.empty:
                raise RoomAbandoned()
            seat = engine.to_act
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
        return engine.result

    async def deliver(self, events: list[Event]) -> None:
        self.lines.extend(encode_event(e) for e in events)
        for seats, message in self.narrator.on_events(self.engine, events):
            await self.room.send(seats, message)

    def picture(self, seat: int) -> list[dict[str, Any]]:
        """What a seat that rejoins mid-deal is sent: the deal in progress as the messages
        of OGD -- ``beginning`` with the hand it holds now, this deal's tribute and return,
        and the trick's top play as a ``notify play`` (the acts carry every seat's count)."""
        engine = self.engine
        deal = getattr(engine, "current_deal", None)
        if deal is None:
            return []
        out = [msg.notify("beginning", handCards=cards_to_ogd(deal.hand(seat)), myPos=seat,
                          levelCard=rank_to_ogd(deal.level))]
        narrator = self.narrator
        if narrator.tributes:
            out.append(msg.notify("tribute", result=narrator.tributes))
        if narrator.returns:
            out.append(msg.notify("back", result=narrator.returns, count=msg.HAND_SIZE))
        top_seat, top_action = narrator.top
        if top_seat != -1:
            out.append(msg.notify("play", curPos=top_seat, curAction=top_action, greaterPos=-1,
                                  greaterAction=list(PASS_ACTION)))
        return out

    async def decide(self, seat: int) -> tuple[Any, bool]:
        """The action for ``seat``, and whether it is an irregular attempt (refereed)."""
        engine = self.engine
        legal = engine.legal_actions()
        stage = msg.stage_of(legal)
        observation = engine.observe(seat)
        if stage is None:  # a refereed table's choice or step: no OGD form
            return self.stand_ins[seat].act(observation, legal), False
        room = self.room
        if room.seats[seat] is None:
            return self.ruled_against(seat, legal, "the seat is empty (its connection closed)"), False
        options = self.server.options
        act = msg.act_message(stage, observation, legal, engine.levels.levels, self.server.rules,
                              rest=[len(engine.current_deal.hand(s)) for s in range(NUM_SEATS)],
                              last=self.narrator.last, tribute_from=self.narrator.received.get(seat),
                              moves=options.moves)
        reply_type = msg.ANSWER_TYPE[stage]
        while not room.answers.empty():  # nothing sent before this act answers it
            room.answers.get_nowait()
        room.asked, room.act = (seat, stage), act
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
                    async with asyncio.timeout(options.timeouts[stage]):
                        _, answer = await room.answers.get()
                except TimeoutError:
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
            room.asked = room.act = None

    def check(self, seat: int, answer: Any, stage: str) -> tuple[str | None, Any, bool]:
        """(why the answer is refused or None, the action, whether it is irregular)."""
        engine = self.engine
        deal = engine.current_deal
        try:
            action = action_from_ogd(answer, seat, deal.level)
        except OgdCodecError as exc:
            return f"unparseable act: {exc}", None, False
        if msg.STAGE_OF_ACTION.get(type(action)) != stage:
            return f"the act is for stage {stage!r}, not {msg.STAGE_OF_ACTION[type(action)]!r}", None, False
        found = deal.illegality(action)
        if found is None:
            return None, action, False
        if self.referee is not None and found.code in RECORDED:
            return None, action, True
        return f"illegal: {msg.explain(found, action, deal, self.server.rules)}", None, False

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


def _whole(value: Any) -> int | None:
    """A whole number as OGD takes it: an int, or its digits as a string ('1'); else None."""
    if type(value) is int:
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value) <= 9:
        return int(value)
    return None


def _seat_field(data: dict[str, Any]) -> Any:
    """``seatNum``: None when absent, the seat when valid, False when invalid."""
    if data.get("seatNum") is None:
        return None
    seat = _whole(data.get("seatNum"))
    if seat is not None and 0 <= seat < NUM_SEATS:
        return seat
    return False


# ---------------------------------------------------------------------------------------------
# The command


def serve(options: ServeOptions) -> int:
    """Run the server in this thread until ``games`` games are done or it is interrupted."""
    server = OgdServer(options)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):   # each ends the serving the same way (no SIGHUP on Windows)
            sig = getattr(signal, name, None)
            if sig is None:
                continue
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
    abandoned = f"; {server.abandoned} abandoned (not counted)" if server.abandoned else ""
    where = f"; log {options.log}" if options.log and done else ""
    print(f"paiju ogd serve: {counted(done, 'game')} played{abandoned}{where}", file=sys.stderr if options.quiet else sys.stdout)
    return 0

__all__ = ["GameLog", "OgdServer", "ServeOptions", "parse_timeouts", "serve", "table_step"]
