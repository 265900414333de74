"""The `paiju ogd` command line: a real `paiju ogd serve` process with four `paiju ogd play`
clients playing a game whose log `paiju replay --check` reproduces; bad options and
unreachable servers are one-line errors with a non-zero exit."""

import asyncio
import json
import signal
import socket
import subprocess
import sys

import pytest

from paiju.cli import main

PAIJU = [sys.executable, "-m", "paiju.cli"]


def one_line_error(capsys, argv, says):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("paiju: error: ") and says in err, err
    return err


def test_serve_and_play_commands_play_a_game_and_the_log_replays(tmp_path):
    log = tmp_path / "ogd.jsonl"
    server = subprocess.Popen([*PAIJU, "ogd", "serve", "--port", "0", "--games", "1", "--start-delay", "0",
                               "--rules", "match_end=deals", "--rules", "match_deals=1", "--log", str(log),
                               "--trace", str(tmp_path / "serve.trace")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    clients = []
    try:
        first = server.stdout.readline()
        assert first.startswith("paiju ogd serve: listening on ws://127.0.0.1:"), first
        url = first.split()[5].rstrip("/")
        creator = subprocess.Popen([*PAIJU, "ogd", "play", url, "--agent", "heuristic", "--seat", "0",
                                    "--trace", str(tmp_path / "play.trace")],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        clients.append(creator)
        created = creator.stdout.readline()
        assert created.startswith("paiju ogd play: created room 1, seat 0"), created + creator.stderr.read()
        for seat, agent in ((1, "random"), (2, "heuristic"), (3, "random")):
            clients.append(subprocess.Popen([*PAIJU, "ogd", "play", url, "--agent", agent, "--room", "1",
                                             "--seat", str(seat), "--seed", str(seat)],
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        outputs = [c.communicate(timeout=40) for c in clients]
        rest, _ = server.communicate(timeout=20)
    finally:
        for process in (server, *clients):
            if process.poll() is None:
                process.kill()
    for client, (out, err) in zip(clients, outputs):
        assert client.returncode == 0, err
        assert "room 1, seat" in out and "1 game: our side " in out and "1 deal," in out, out
        assert "games won 1-0" in out or "games won 0-1" in out, out
    assert server.returncode == 0 and "1 game played" in rest
    assert main(["replay", str(log), "--check"]) == 0
    served = [json.loads(line) for line in (tmp_path / "serve.trace").read_text().splitlines()]
    played = [json.loads(line) for line in (tmp_path / "play.trace").read_text().splitlines()]
    # the creator's frames, both ways, are the same frames in both traces
    assert [(e["dir"], json.loads(e["frame"])) for e in played] == \
        [("in" if e["dir"] == "out" else "out", json.loads(e["frame"])) for e in served if e["conn"] == 1]
    assert json.loads(played[0]["frame"]) == {"type": "CREATE_ROOM", "data": {"userId": "paiju-heuristic-0",
                                                                            "seatNum": 0, "round": 1}}
    assert json.loads(played[-1]["frame"])["stage"] == "gameOver"
    assert {e["conn"] for e in served} == {1, 2, 3, 4}


def test_SIGTERM_ends_a_waiting_client_like_ctrl_c_with_its_line(tmp_path):
    server = subprocess.Popen([*PAIJU, "ogd", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    client = None
    try:
        url = server.stdout.readline().split()[5]
        client = subprocess.Popen([*PAIJU, "ogd", "play", url, "--agent", "random"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        assert client.stdout.readline().startswith("paiju ogd play: created room 1, seat 0")
        client.send_signal(signal.SIGTERM)
        out, err = client.communicate(timeout=10)
    finally:
        for process in (server, client):
            if process is not None and process.poll() is None:
                process.kill()
    assert client.returncode == 130
    assert out == "paiju ogd play: room 1, seat 0: interrupted (0 deals, 0 acts)\n"
    assert err.endswith("paiju: interrupted\n")


def test_bad_serve_options_are_one_line_errors(capsys, tmp_path):
    one_line_error(capsys, ["ogd", "serve", "--act-timeout", "soon"], "not a number of seconds")
    one_line_error(capsys, ["ogd", "serve", "--act-timeout", "deal=3"], "unknown stage 'deal'")
    one_line_error(capsys, ["ogd", "serve", "--port", "70000"], "not a port")
    one_line_error(capsys, ["ogd", "serve", "--log", str(tmp_path / "nowhere" / "x.jsonl")], "no such directory")
    one_line_error(capsys, ["ogd", "serve", "--rules", "match_end=sometimes"], "match_end")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        one_line_error(capsys, ["ogd", "serve", "--port", str(port), "--games", "1"], f"cannot listen on 127.0.0.1:{port}")


def test_bad_play_options_and_an_unreachable_server_are_one_line_errors(capsys):
    one_line_error(capsys, ["ogd", "play", "http://127.0.0.1:1", "--agent", "random"], "not a WebSocket address")
    one_line_error(capsys, ["ogd", "play", "ws://127.0.0.1:1", "--agent", "genius"], "unknown agent 'genius'")
    one_line_error(capsys, ["ogd", "play", "ws://127.0.0.1:1", "--agent", "random", "--seat", "4"], "not a seat")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: connections are refused
        one_line_error(capsys, ["ogd", "play", f"ws://127.0.0.1:{port}", "--agent", "random"], "cannot connect")


def test_play_says_when_the_room_is_refused(capsys):
    from paiju.ogd.server import OgdServer, ServeOptions

    async def scenario():
        server = OgdServer(ServeOptions(port=0), say=lambda line: None)
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        task = loop.create_task(server.run(ready.set_result))
        port = await ready
        code = await asyncio.to_thread(main, ["ogd", "play", f"ws://127.0.0.1:{port}", "--agent", "random",
                                              "--room", "4"])
        server.finished.set()
        await task
        return code

    assert asyncio.run(scenario()) == 2
    assert "JOIN_ROOM refused: 房间不存在" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["ogd"], ["ogd", "serve", "--games", "0"]])
def test_usage_errors(capsys, argv):
    assert main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1
