"""The `paiju ogd` command: ``serve`` (competition bots play paiju games) and ``play`` (a
paiju agent plays on an OGD-protocol server)."""

from __future__ import annotations

import argparse
from typing import Any

from tabletop.errors import OptionError

from paiju.arguments import examples, output_path, port_or_any, seconds_in, whole_number_in



def add_parser(sub: Any, positive_int: Any, seed: Any, seat: Any) -> None:
    ogd = sub.add_parser("ogd", help="speak the OpenGuanDan (NJUPT competition) WebSocket protocol",
                         epilog=examples("paiju ogd serve --games 2 --log ogd.jsonl",
                                         "paiju ogd play ws://127.0.0.1:8181 --agent heuristic --seat 0"))
    verbs = ogd.add_subparsers(dest="ogd_command", required=True, parser_class=type(ogd), metavar="serve|play",
                               help="serve: bots connect to paiju; play: a paiju agent joins a server")

    serve = verbs.add_parser("serve", help="a server competition bots connect to unchanged; paiju plays the games",
                             epilog=examples("paiju ogd serve --games 2 --log ogd.jsonl",
                                             "paiju ogd serve --referee --act-timeout play=10,tribute=30,back=30"))
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=port_or_any, default=8181, help="port (default 8181, OGD's; 0: any free port)")
    serve.add_argument("--games", type=positive_int, metavar="N", help="stop after N games (default: run until interrupted)")
    serve.add_argument("--referee", action="store_true",
                       help="illegal moves are irregularities the referee rules on (default: strict, refused)")
    serve.add_argument("--log", type=output_path("--log"), metavar="FILE", help="write every finished game to this paiju log (.gz compresses)")
    serve.add_argument("--seed", type=seed, default=0, help="root seed of the deals (default 0)")
    serve.add_argument("--rules", metavar="K=V", action="append", default=[],
                       help="a 掼蛋 rules option, e.g. --rules match_end=deals --rules match_deals=4 (repeatable)")
    serve.add_argument("--act-timeout", default="60", metavar="SECONDS",
                       help="seconds a seat has to answer an act: one number, or per stage "
                            "'play=10,tribute=30,back=30' (default 60; OGD has none)")
    serve.add_argument("--retries", type=whole_number_in(0, 100), default=3, metavar="N",
                       help="bad answers allowed per act before the seat is ruled against (default 3)")
    serve.add_argument("--start-delay", type=seconds_in(0, 3600), default=1.0, metavar="SECONDS",
                       help="pause between the fourth join and the first deal (default 1, as OGD)")
    serve.add_argument("--moves", choices=("paiju", "ogd"), default="paiju",
                       help="how acts list the moves: paiju (every reading the rules give; default) or ogd "
                            "(as OGD's server lists them: its two reading quirks, return cards twice)")
    serve.add_argument("--trace", metavar="FILE", help="write every frame sent and received to FILE (JSON lines)")
    serve.add_argument("--quiet", action="store_true", help="print only the final line")

    client = verbs.add_parser("play", help="let a paiju agent play one seat on an OGD-protocol server",
                              epilog=examples("paiju ogd play ws://127.0.0.1:8181 --agent heuristic --seat 0 --rounds 2",
                                              "paiju ogd play ws://127.0.0.1:8181 --agent random --room 1 --seat 1"))
    client.add_argument("url", metavar="ws://HOST:PORT", help="the server's address")
    client.add_argument("--agent", required=True, metavar="SPEC",
                        help="the agent: built-in (random, heuristic) or a plug-in (module:Name, file.py:Name)")
    client.add_argument("--room", type=positive_int, metavar="N", help="join room N (default: create a room)")
    client.add_argument("--seat", type=seat, metavar="S", help="ask for seat S (0-3)")
    client.add_argument("--rounds", type=positive_int, default=1, metavar="N",
                        help="games in a room this client creates (OGD's 'round'; default 1)")
    client.add_argument("--user", metavar="ID",
                        help="the userId to send, unique in the room (default paiju-AGENT-SEAT, or a random tag)")
    client.add_argument("--seed", type=seed, default=0, help="the agent's seed (default 0)")
    client.add_argument("--idle-timeout", type=seconds_in(0.1, 86400), default=600.0, metavar="SECONDS",
                        help="give up when the server sends nothing for this long (default 600; OGD's server "
                             "waits for a dead bot forever)")
    client.add_argument("--trace", metavar="FILE", help="write every frame sent and received to FILE (JSON lines)")


def ogd_command(args: argparse.Namespace) -> int:
    if args.ogd_command == "serve":
        from paiju.ogd.players import game_adapter
        from paiju.ogd.server import ServeOptions, parse_timeouts, serve
        from paiju.sim.command import parse_rule_overrides

        defaults = game_adapter().rules_from_dict({}).to_dict()
        options = ServeOptions(host=args.host, port=args.port, games=args.games, referee=args.referee,
                               log=args.log, seed=args.seed, rules=parse_rule_overrides(args.rules, defaults),
                               retries=args.retries, timeouts=parse_timeouts(args.act_timeout),
                               start_delay=args.start_delay, quiet=args.quiet, moves=args.moves,
                               trace=args.trace)
        _needs_websockets()
        return serve(options)
    from paiju.ogd.client import default_user, play
    from paiju.ogd.players import resolve_agent

    agent = resolve_agent(args.agent, args.seed, 0, args.seat or 0)
    _needs_websockets()
    return play(args.url, agent, user=args.user or default_user(args.agent, args.seat), room=args.room,
                seat=args.seat, rounds=args.rounds, idle_timeout=args.idle_timeout, trace=args.trace)


def _needs_websockets() -> None:
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise OptionError("paiju ogd needs the websockets library: pip install 'paiju[ogd]'") from None
