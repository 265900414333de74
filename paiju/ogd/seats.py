"""Connected competition bots as seats at paiju's own tables: the agent ``ogd:PORT`` of
``paiju tournament``.

``BotTeam`` listens on 127.0.0.1:PORT (a thread of its own runs the WebSocket server) and
waits for the team's two bots. They connect as to any OGD server -- ``CREATE_ROOM`` or
``JOIN_ROOM`` (the endpoint has one room, number 1) -- and are the team's members in the
order they joined. Then the caller plays its units as usual (``tabletop.runner.run``) with
``BotTable``: its observer turns each unit's events into the OGD ``notify`` messages of the
bots' seats, and its ``BotSeat`` agents send each decision as an ``act`` and wait for the
answer.

Which seats a bot plays changes with the tournament's seating (its team sits on seats 0&2,
then 1&3): each deal's ``notify beginning`` carries the bot's seat (``myPos``), as in every
OGD game, and an answer must name that seat as ``player``. Answers are checked as
``paiju ogd serve`` checks them (``paiju.ogd.server``): a move that does not decode or is
not legal gets an error reply and the act again, up to ``retries`` bad answers; then, on a
timeout, or when the bot's socket is closed, the seat is ruled against (PASS when it may
pass, else the first legal action). With the referee, a well-formed move the rulebook
covers is played as an irregular attempt. Decisions with no OGD form (a refereed table's
choices) are made by paiju's heuristic agent, seeded from the unit. Given the bots' moves,
a unit is the same every time.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Iterable, Sequence
from concurrent import futures
from typing import Any

from guandan.legal import RECORDED
from tabletop.errors import OptionError
from tabletop.events import Event
from tabletop.seats import NUM_SEATS

from paiju.ogd import messages as msg
from paiju.ogd.codec import OgdCodecError, action_from_ogd
from paiju.ogd.players import stand_in_agent
from paiju.ogd.server import STAGES, Connection, ServeOptions
from paiju.sim.batch import ChunkOutput, ChunkTask, adapter, play_unit

PREFIX = "ogd:"
TEAM = 2
ROOM = 1
_GONE = object()


def bot_port(spec: str) -> int | None:
    """The port of an ``ogd:PORT`` agent spec; None for any other spec (a one-line error for
    ``ogd:`` with no valid port)."""
    if not spec.startswith(PREFIX):
        return None
    text = spec[len(PREFIX):]
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise OptionError(f"agent {spec!r}: ogd:PORT takes a port 1-65535")
    return int(text)


class BotTeam:
    """The endpoint on PORT and the two bots connected to it."""

    def __init__(self, port: int, options: ServeOptions) -> None:
        self.port = port
        self.options = options
        self.members: list[Connection | None] = []
        self.seats: dict[int, int] = {}
        """Member → the seat it plays at the current table."""
        self.answers: list[asyncio.Queue] = []
        self.asked: tuple[int, str] | None = None
        self.user_ids: list[Any] = []
        self.tables = 0
        """Units (deals or matches) the team has sat down to."""
        self._loop = asyncio.new_event_loop()
        self._joined: asyncio.Event | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._serve, name=f"ogd-bots-{port}", daemon=True)
        self._started = threading.Event()
        self._error: BaseException | None = None

    # -- the server thread -------------------------------------------------------------------

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as exc:  # reported to the caller by start()
            self._error = exc
            self._started.set()

    async def _main(self) -> None:
        import websockets

        self._joined, self._stop = asyncio.Event(), asyncio.Event()
        self.answers = [asyncio.Queue() for _ in range(TEAM)]
        async with websockets.serve(self._handle, self.options.host, self.port, max_size=self.options.max_frame,
                                    ping_interval=None, close_timeout=2):
            self._started.set()
            await self._stop.wait()
            for member in self.members:
                if member is not None:
                    await member.send(msg.game_over(self.tables))
                    await member.socket.close()

    async def _handle(self, socket: Any) -> None:
        conn = Connection(socket, self.options)
        try:
            async for raw in conn.messages():
                await self._on_message(conn, raw)
        except Exception:  # a connection closed abruptly ends like a clean close
            pass
        finally:
            if conn in self.members:
                member = self.members.index(conn)
                self.members[member] = None
                if self.asked is not None and self.asked[0] == member:
                    self.answers[member].put_nowait(_GONE)

    async def _on_message(self, conn: Connection, raw: Any) -> None:
        try:
            message = json.loads(raw) if isinstance(raw, str) else None
        except ValueError:
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("data"), dict):
            await conn.send(msg.error("ERROR", 'a message is JSON text {"type": ..., "data": {...}}'))
            return
        kind, data = message.get("type"), message["data"]
        if kind in ("CREATE_ROOM", "JOIN_ROOM"):
            await self._join(conn, str(kind), data)
        elif kind == "GET_ROOMPLAYER":
            users = [{"userNum": self.seats.get(m, m * 2), "userId": c.user_id, "userName": None}
                     for m, c in enumerate(self.members) if c is not None]
            await conn.send(msg.reply(kind, {"users": users}))
        elif kind in ("PLAY", "TRIBUTE", "PAYTRIBUTE"):
            await self._answer(conn, kind, data)
        else:
            await conn.send(msg.error(str(kind)[:40], "unknown message type (CREATE_ROOM, JOIN_ROOM, GET_ROOMPLAYER, "
                                                      "PLAY, TRIBUTE, PAYTRIBUTE)"))

    async def _join(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        if conn in self.members:
            await conn.send(msg.error(kind, f"已在房间中 (already in room {ROOM})"))
            return
        if kind == "JOIN_ROOM" and data.get("roomId") != ROOM:
            await conn.send(msg.error(kind, f"房间不存在 (no such room: this endpoint's room is {ROOM})"))
            return
        if None in self.members:  # a member whose socket closed: the next bot takes its place
            member = self.members.index(None)
            self.members[member] = conn
        elif len(self.members) < TEAM:
            member = len(self.members)
            self.members.append(conn)
            self.user_ids.append(None)
        else:
            await conn.send(msg.error(kind, "房间已满 (the team's two bots are connected)"))
            return
        user = data.get("userId")
        conn.user_id = user if isinstance(user, (str, int)) and not isinstance(user, bool) else f"bot{member}"
        self.user_ids[member] = conn.user_id
        seat = self.seats.get(member, member * 2)
        if data.get("seatNum") not in (None, seat):   # a tournament seats its bots itself: say so, not silently
            print(f"paiju tournament: warning: bot {conn.user_id!r} on port {self.port} asked for seat "
                  f"{data['seatNum']!r}; a tournament seats each team's bots itself (seats 0&2, then 1&3): "
                  f"it plays seat {seat} now, and its seat changes with the seating", file=sys.stderr, flush=True)
        conn.seat = seat
        await conn.send(msg.reply(kind, {"roomId": ROOM, "userNum": seat, "userId": conn.user_id, "userName": None}))
        if len(self.members) == TEAM and None not in self.members:
            assert self._joined is not None
            self._joined.set()

    async def _answer(self, conn: Connection, kind: str, data: dict[str, Any]) -> None:
        if conn not in self.members:
            await conn.send(msg.error(kind, "not in a room: CREATE_ROOM or JOIN_ROOM first"))
            return
        member = self.members.index(conn)
        seat = self.seats.get(member)
        if data.get("player") != seat:
            await conn.send(msg.error(kind, f"player must be your own seat, {seat} (myPos of this deal)"))
            return
        if self.asked is None or self.asked[0] != member:
            await conn.send(msg.error(kind, "not your turn: answer only the act you are sent"))
            return
        expected = msg.ANSWER_TYPE[self.asked[1]]
        if kind != expected:
            await conn.send(msg.error(kind, f"the act is for stage {self.asked[1]!r}: answer with {expected}"))
            return
        self.answers[member].put_nowait(data.get("act"))

    # -- the caller's side (another thread) --------------------------------------------------

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def start(self, wait: float) -> None:
        """Listen, and wait up to ``wait`` seconds for both bots (a one-line error if they do not come)."""
        try:
            import websockets  # noqa: F401
        except ImportError:
            raise OptionError(f"ogd:{self.port} agents need the websockets library: pip install 'paiju[ogd]'") from None
        self._thread.start()
        self._started.wait()
        if self._error is not None:
            if isinstance(self._error, OSError):
                raise OptionError(f"ogd:{self.port}: cannot listen on {self.options.host}:{self.port}: "
                                  f"{self._error.strerror or self._error}") from None
            raise self._error
        try:
            assert self._joined is not None
            self._call(asyncio.wait_for(self._joined.wait(), wait))
        except (asyncio.TimeoutError, TimeoutError):
            self.close()
            raise OptionError(f"ogd:{self.port}: {len([m for m in self.members if m])} of the team's 2 bots "
                              f"connected in {wait:g} s") from None

    def close(self) -> None:
        if self._thread.is_alive() and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(10)

    def seat_members(self, seats: Sequence[int]) -> None:
        """The team plays ``seats`` (member 0 the first, member 1 the second) at the next table."""
        self.seats = dict(enumerate(seats))
        self.tables += 1
        for member, conn in enumerate(self.members):
            if conn is not None:
                conn.seat = self.seats[member]

    def send(self, member: int, message: dict[str, Any]) -> None:
        conn = self.members[member] if member < len(self.members) else None
        if conn is not None:
            self._call(conn.send(message))

    def ask(self, member: int, stage: str, act: dict[str, Any]) -> Any:
        """Send ``act`` to ``member`` and wait for its answer: the answer's ``act`` field, or
        ``_GONE`` (socket closed), or None (timed out)."""
        async def exchange() -> Any:
            queue = self.answers[member]
            while not queue.empty():  # nothing sent before this act answers it
                queue.get_nowait()
            conn = self.members[member]
            if conn is None:
                return _GONE
            self.asked = (member, stage)
            try:
                conn.credit()
                if not await conn.send(act):
                    return _GONE
                return await asyncio.wait_for(queue.get(), self.options.timeouts[stage])
            except asyncio.TimeoutError:
                return None
            finally:
                self.asked = None
        return self._call(exchange())


class BotTable:
    """One unit (a deal or a match) with bot teams on some seats: the observer that narrates
    it to them, and the agents of their seats (``agents``)."""

    def __init__(self, teams: dict[int, tuple[BotTeam, int]], rules: Any, seed: int, index: int, *,
                 refereed: bool) -> None:
        self.teams = teams
        """Seat → (its team, the team member that plays it)."""
        self.rules = rules
        self.refereed = refereed
        self.narrator = msg.Narrator()
        self.engine: Any = None
        self.stand_ins = {seat: stand_in_agent(seed, index, seat) for seat in teams}
        for team in {team for team, _ in teams.values()}:
            team.seat_members(sorted(seat for seat, (t, _) in teams.items() if t is team))

    def agents(self) -> dict[int, Any]:
        return {seat: BotSeat(self, seat) for seat in self.teams}

    def on_events(self, engine: Any, events: list[Event]) -> None:
        self.engine = engine
        for seats, message in self.narrator.on_events(engine, events):
            for seat in seats:
                if seat in self.teams:
                    team, member = self.teams[seat]
                    team.send(member, message)

    def deal(self) -> Any:
        return getattr(self.engine, "current_deal", self.engine)

    def levels(self) -> tuple[int, int]:
        levels = getattr(self.engine, "levels", None)
        if levels is not None:
            return tuple(levels.levels)
        level = self.deal().level
        return (level, level)


class BotSeat:
    """The agent of one bot seat: each decision an ``act``, each answer checked."""

    def __init__(self, table: BotTable, seat: int) -> None:
        self.table, self.seat = table, seat

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        table = self.table
        stage = msg.stage_of(legal)
        if stage is None:  # a refereed table's choice: no OGD form
            return table.stand_ins[self.seat].act(observation, legal)
        team, member = table.teams[self.seat]
        deal = table.deal()
        act = msg.act_message(stage, observation, legal, table.levels(), table.rules,
                              rest=[len(deal.hand(s)) for s in range(NUM_SEATS)], last=table.narrator.last,
                              tribute_from=table.narrator.received.get(self.seat))
        reply_type = msg.ANSWER_TYPE[stage]
        retries = team.options.retries
        for attempt in range(1, retries + 2):
            if stage == "tribute":
                team.send(member, msg.reply("tribute", {"roomId": ROOM, "player": self.seat}))
            answer = team.ask(member, stage, act)
            if answer is None:
                team.send(member, msg.error(reply_type, f"timeout: no answer in {team.options.timeouts[stage]:g} s; "
                                                        "the server moves for you"))
                return legal[0]
            if answer is _GONE:
                return legal[0]
            problem, action = self._check(answer, stage, deal)
            if problem is None:
                return action
            left = retries + 1 - attempt
            note = (f" (act sent again; {left} more bad answer{'s' if left > 1 else ''} allowed)" if left
                    else "; the server moves for you")
            team.send(member, msg.error(reply_type, problem + note))
        return legal[0]  # ruled against: PASS when the seat may pass (listed first), else the first action

    def _check(self, answer: Any, stage: str, deal: Any) -> tuple[str | None, Any]:
        try:
            action = action_from_ogd(answer, self.seat, deal.level)
        except OgdCodecError as exc:
            return f"unparseable act: {exc}", None
        if msg.STAGE_OF_ACTION.get(type(action)) != stage:
            return f"the act is for stage {stage!r}, not {msg.STAGE_OF_ACTION[type(action)]!r}", None
        found = deal.illegality(action)
        if found is None or (self.table.refereed and found.code in RECORDED):
            return None, action
        return f"illegal: {found.message}", None


class BotBackend:
    """Where a tournament with bot teams plays its chunks: this process, one unit at a time
    (the bots are one table at a time), the bots' seats given to ``play_unit``."""

    name = "process"
    workers = 1
    window = 1

    def __init__(self, teams: dict[int, BotTeam]) -> None:
        self.teams = teams
        self.description = f"in process, bots on {', '.join(f'ogd:{port}' for port in sorted(teams))}"

    def submit(self, task: ChunkTask) -> futures.Future:
        future: futures.Future = futures.Future()
        try:
            future.set_result(self.play(task))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def wait_any(self, pending: Sequence[Any]) -> Iterable[Any]:
        return pending  # each was played when submitted

    def close(self) -> None:
        for team in self.teams.values():
            team.close()

    def play(self, task: ChunkTask) -> ChunkOutput:
        batch = task.batch
        game = adapter(batch.game)
        rules = game.rules_from_dict(batch.rules)
        seats: dict[int, tuple[BotTeam, int]] = {}
        for seat, spec in enumerate(batch.agents):
            port = bot_port(spec)
            if port is not None:
                team = self.teams[port]
                seats[seat] = (team, sum(1 for t, _ in seats.values() if t is team))
        results = []
        for index in range(task.chunk.start, task.chunk.stop):
            table = BotTable(seats, rules, batch.seed, index, refereed=batch.refereed)
            results.append(play_unit(game, batch, rules, index, None, observers=[table], given=table.agents()))
        return ChunkOutput(task.chunk, tuple(results), b"", "bots", 0)


def bot_options(act_timeout: str | None = None) -> ServeOptions:
    """The endpoint's limits: those of ``paiju ogd serve``, with ``--act-timeout``'s syntax."""
    from paiju.ogd.server import parse_timeouts

    return ServeOptions(timeouts=parse_timeouts(act_timeout) if act_timeout else {s: 60.0 for s in STAGES})
