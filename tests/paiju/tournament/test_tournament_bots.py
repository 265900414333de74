"""Competition bots in a tournament (issue 20 item 3): `paiju tournament guandan --agents
ogd:PORT,…` in a real process, two scripted bots (tests/paiju/ogd/ogd_bots.py) connecting
to it as to any OGD server and playing their team's seats, moved between seats 0&2 and 1&3
by the seating; the results are the same for the same bots' moves."""

import asyncio
import csv
import json
import socket
import subprocess
import sys
from typing import Any

from paiju.cli import main
from tests.paiju.ogd.ogd_bots import RawBot

PAIJU = [sys.executable, "-m", "paiju.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def team_of_bots(port: int, seed: int, seats: tuple[int, int] = (0, 2)) -> list[RawBot]:
    """Two bots: the first creates the room, the second joins it (retrying until paiju listens)."""
    def one_bad_answer(bot: RawBot, act: dict) -> Any:  # its first answer does not decode: asked again
        if bot.acts == 1:
            return [json.dumps({"type": "PLAY", "data": {"roomId": bot.room, "player": bot.seat,
                                                         "act": ["Single", "2", ["XX"]]}})]
        return None

    bots = [RawBot(seats[0], seed, misbehave=one_bad_answer), RawBot(seats[1], seed)]
    room: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def connect(bot: RawBot) -> None:
        for _ in range(200):
            try:
                if bot is bots[1]:
                    await room
                await bot.run(port, room)
                return
            except OSError:
                await asyncio.sleep(0.05)
        raise AssertionError("paiju tournament never listened")

    await asyncio.wait_for(asyncio.gather(*(connect(b) for b in bots)), 60)
    return bots


def tournament_with_bots(tmp_path, name: str, port: int, seed: int, *extra: str,
                         seats: tuple[int, int] = (0, 2), stderr_seen: list[str] | None = None) -> tuple[list[RawBot], str]:
    out = tmp_path / name
    process = subprocess.Popen([*PAIJU, "tournament", "guandan", "--agents", f"ogd:{port},random", "--deals", "4",
                                "--duplicate", "--seed", "3", "--quiet", "--bot-wait", "30", "--out", str(out),
                                *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        bots = asyncio.run(team_of_bots(port, seed, seats))
        stdout, stderr = process.communicate(timeout=60)
        if stderr_seen is not None:
            stderr_seen.append(stderr)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, stderr
    return bots, str(out)


def test_bots_play_their_teams_seats_and_are_rated_the_same_way(tmp_path):
    port = free_port()
    bots, out = tournament_with_bots(tmp_path, "first", port, seed=5)
    summary = json.load(open(f"{out}/summary.json", encoding="utf-8"))
    (pairing,) = summary["pairings"]
    assert pairing["pairing"] == f"ogd:{port} vs random" and pairing["pairs"] == 2
    assert {row["agent"] for row in summary["ratings"]} == {f"ogd:{port}", "random"}
    rows = list(csv.DictReader(open(f"{out}/deals.csv", encoding="utf-8")))
    assert len(rows) == 4
    for row in rows:  # seating 0: the bots on seats 0&2; seating 1: on 1&3
        bot_seats = {int(s) for s in range(4) if row[f"seat{s}"] == f"ogd:{port}"}
        assert bot_seats == ({0, 2} if row["seating"] == "0" else {1, 3})
    for bot in bots:
        positions = {m["myPos"] for m in bot.notifies("beginning")}
        assert len(bot.notifies("beginning")) == 4 and len(positions) == 2, positions
        assert bot.acts > 0
    assert len(bots[0].errors()) == 1 and bots[0].errors()[0].startswith("unparseable act"), bots[0].errors()
    assert bots[1].errors() == []
    # the same bots' moves: the same results (the bots are seeded; paiju's side is seeded by --seed)
    again, out2 = tournament_with_bots(tmp_path, "second", port, seed=5)
    assert open(f"{out}/deals.csv").read() == open(f"{out2}/deals.csv").read()


def test_a_bot_asking_for_a_seat_the_tournament_does_not_give_is_warned(tmp_path):
    """`--seat` (OGD's seatNum) means nothing to a tournament, which seats each team's bots
    itself (issue 29, item 7): the bot that asked for seat 1 is told on stderr, not ignored."""
    port = free_port()
    seen: list[str] = []
    tournament_with_bots(tmp_path, "seat", port, 5, seats=(0, 1), stderr_seen=seen)
    warnings = [line for line in seen[0].splitlines() if "warning" in line]
    assert len(warnings) == 1 and "'bot1'" in warnings[0] and "asked for seat 1" in warnings[0]
    assert "plays seat 2 now" in warnings[0]


def test_bad_bot_agents_are_one_line_errors(capsys):
    def error(argv, says):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err, err

    error(["tournament", "guandan", "--agents", "ogd:0,random", "--deals", "2"], "port 1-65535")
    error(["tournament", "guandan", "--agents", "ogd:x,random", "--deals", "2"], "port 1-65535")
    error(["tournament", "shengji", "--agents", "ogd:8181,random", "--deals", "2"], "OGD protocol")
    error(["tournament", "guandan", "--agents", "ogd:8181,ogd:8181", "--deals", "2"], "entered twice")
    error(["tournament", "guandan", "--agents", "ogd:8181,random", "--deals", "2", "--jobs", "2"], "--jobs")
    port = free_port()
    error(["tournament", "guandan", "--agents", f"ogd:{port},random", "--deals", "2", "--quiet", "--bot-wait", "1"],
          "0 of the team's 2 bots connected in 1 s")


def test_bots_without_the_websockets_library_are_a_one_line_error(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "websockets", None)   # import websockets raises ImportError
    assert main(["tournament", "guandan", "--agents", f"ogd:{free_port()},random", "--deals", "2", "--quiet"]) == 2
    assert capsys.readouterr().err.endswith("need the websockets library: pip install 'paiju[ogd]'\n")
