"""Games per second through `paiju ogd serve` with four scripted bots, and the latency the
protocol adds per act, against the same engine driven directly.

    python benchmarks/bench_ogd_server.py [--games 3] [--repeats 3] [--deals 0]

- direct: whole games (matches to passing A; ``--deals N``: N-deal games) played by four
  agents that pick uniformly among the engine's legal actions, no sockets;
- served: the same number of games through an in-process ``OgdServer`` on 127.0.0.1, four
  raw WebSocket bots (in the same process) picking uniformly from each ``actionList``.

    python benchmarks/bench_ogd_server.py --log-games 500 [--deals 1]

- log: ``--log-games N`` games in one room (``round`` N, 1-deal games unless ``--deals``)
  through a server writing ``--log`` (plain and ``.gz``): the time per game and the
  process's memory (RSS) by blocks of 50 games, to show both stay flat as the log grows.

Per act = wall time / decisions; the latency added per act is served minus direct. The
served figure includes everything a round trip costs in one process: building the act
(every legal play with every choice of suits), JSON both ways, the bots' parsing, the
check of the answer, the notify broadcast to four seats, and the log lines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import time

import websockets

from guandan.agents import RandomAgent
from paiju.sim.batch import start_unit
from paiju.games import adapter_for
from paiju.ogd.server import OgdServer, ServeOptions
from tabletop import rng as streams

ANSWER = {"play": "PLAY", "tribute": "TRIBUTE", "back": "PAYTRIBUTE"}


def direct(games: int, rules: dict) -> tuple[float, int]:
    game = adapter_for("guandan")
    parsed = game.rules_from_dict(rules)
    decisions = 0
    start = time.perf_counter()
    for index in range(games):
        engine, _ = start_unit(game, "matches", 0, index, parsed, {})
        agents = [RandomAgent(streams.generator(0, index, streams.AGENT + s)) for s in range(4)]
        engine.take_events()
        while (seat := engine.to_act) is not None:
            engine.take_events()
            engine.apply(agents[seat].act(engine.observe(seat), engine.legal_actions()))
            engine.take_events()
            decisions += 1
    return time.perf_counter() - start, decisions


async def bot(port: int, seat: int, room: asyncio.Future, rounds: int, counter: list[int]) -> None:
    rng = random.Random(seat)
    async with websockets.connect(f"ws://127.0.0.1:{port}/", max_size=2 ** 24, ping_interval=None) as ws:
        if seat == 0:
            await ws.send(json.dumps({"type": "CREATE_ROOM", "data": {"userId": "b0", "round": rounds}}))
        else:
            await ws.send(json.dumps({"type": "JOIN_ROOM", "data": {"userId": f"b{seat}", "roomId": await room}}))
        async for raw in ws:
            m = json.loads(raw)
            if m.get("type") == "CREATE_ROOM":
                room.set_result(m["data"]["roomId"])
            elif m.get("type") == "act":
                counter[0] += 1
                data = {"roomId": 1, "player": seat, "act": rng.choice(m["actionList"])}
                if m["stage"] == "back":
                    data.update(tributePos=m["tributePos"], tribute=m["tribute"])
                await ws.send(json.dumps({"type": ANSWER[m["stage"]], "data": data}))
            elif m.get("stage") == "gameOver":
                return


async def served_async(games: int, rules: dict) -> tuple[float, int]:
    server = OgdServer(ServeOptions(port=0, games=games, rules=rules, start_delay=0.0, quiet=True),
                       say=lambda line: None)
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    task = loop.create_task(server.run(ready.set_result))
    port = await ready
    room = loop.create_future()
    counter = [0]
    start = time.perf_counter()
    await asyncio.gather(*(bot(port, s, room, games, counter) for s in range(4)))
    elapsed = time.perf_counter() - start
    await task
    return elapsed, counter[0]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


async def logged_async(games: int, rules: dict, path: str) -> list[tuple[float, float, float, float]]:
    """(seconds, RSS MB, the event loop's longest stall in ms, CPU seconds of this process and
    its threads) at the end of each game of one room of ``games`` games with --log. A
    stall: how late a 5 ms sleep woke up."""
    marks: list[tuple[float, float, float, float]] = []
    stall = [0.0]

    async def watch() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            stall[0] = max(stall[0], (time.perf_counter() - before - 0.005) * 1000)

    def said(line: str) -> None:
        if line.startswith("game "):
            marks.append((time.perf_counter(), rss_mb(), stall[0], time.process_time()))
            stall[0] = 0.0

    server = OgdServer(ServeOptions(port=0, games=games, rules=rules, start_delay=0.0, log=path), say=said)
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    task = loop.create_task(server.run(ready.set_result))
    port = await ready
    room = loop.create_future()
    marks.append((time.perf_counter(), rss_mb(), 0.0, time.process_time()))
    watcher = loop.create_task(watch())
    await asyncio.gather(*(bot(port, s, room, games, [0]) for s in range(4)))
    await task
    watcher.cancel()
    return marks


def log_run(games: int, deals: int) -> None:
    import tempfile

    rules = {"match_end": "deals", "match_deals": deals}
    print(f"{platform.python_implementation()} {platform.python_version()}, load {os.getloadavg()[0]:.1f}, "
          f"{games} {deals}-deal games in one room, --log")
    for suffix in ("jsonl", "jsonl.gz"):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, f"games.{suffix}")
            marks = asyncio.run(logged_async(games, rules, path))
            size = os.path.getsize(path) / 2 ** 20
        print(f"--log games.{suffix}: {len(marks) - 1} games, final log {size:.1f} MB")
        print("  games      wall ms/game median  CPU ms/game median  loop stall ms max  RSS MB at end")
        for start in range(0, len(marks) - 1, 50):
            block = marks[start: start + 51]
            per_game = [(b[0] - a[0]) * 1000 for a, b in zip(block, block[1:])]
            cpu = [(b[3] - a[3]) * 1000 for a, b in zip(block, block[1:])]
            print(f"  {start + 1:4d}-{start + len(per_game):<4d}  {statistics.median(per_game):19.1f}  "
                  f"{statistics.median(cpu):18.1f}  {max(b[2] for b in block[1:]):17.1f}  {block[-1][1]:13.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--deals", type=int, default=0, help="N-deal games instead of games to passing A")
    parser.add_argument("--log-games", type=int, default=0, metavar="N",
                        help="instead: N games of one room through --log, time and memory per 50 games")
    args = parser.parse_args()
    if args.log_games:
        log_run(args.log_games, args.deals or 1)
        return
    rules = {"match_end": "deals", "match_deals": args.deals} if args.deals else {}
    rows = {"direct": [], "served": []}
    for repeat in range(args.repeats):  # side by side in one run
        rows["direct"].append(direct(args.games, rules))
        rows["served"].append(asyncio.run(served_async(args.games, rules)))
        print(f"repeat {repeat + 1}: direct {rows['direct'][-1][0]:.2f} s, served {rows['served'][-1][0]:.2f} s", flush=True)
    print(f"{platform.python_implementation()} {platform.python_version()}, load {os.getloadavg()[0]:.1f}, "
          f"{args.games} games x {args.repeats} repeats, {'pass A' if not args.deals else f'{args.deals}-deal'} games")
    per_act = {}
    for name, runs in rows.items():
        rates = [args.games / s for s, _ in runs]
        per_act[name] = statistics.median(s / n * 1000 for s, n in runs)
        print(f"{name:7} games/s median {statistics.median(rates):.2f} (runs {min(rates):.2f}-{max(rates):.2f}); "
              f"{statistics.median(n for _, n in runs) / args.games:.0f} decisions per game; "
              f"{per_act[name]:.3f} ms per decision")
    print(f"latency added per act: {per_act['served'] - per_act['direct']:.3f} ms")


if __name__ == "__main__":
    main()
