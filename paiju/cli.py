"""The `paiju` command. Every error is one line on stderr and a non-zero exit."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from paiju.arguments import positive_int, rate, seat_number, seed
from tabletop.errors import PaijuError
from tabletop.games import game_names

EXIT_USAGE = 2
EXIT_FAILED_CHECK = 1
EXIT_INTERNAL = 70


class UsageError(PaijuError):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line (no usage dump) and raise instead of exiting."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("paiju").strip()   # 'paiju: error:' is said once, by main
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser() -> argparse.ArgumentParser:
    games = game_names()   # the built-in games and any registered before the parser is built
    parser = _Parser(prog="paiju", description="Refereed simulation of 掼蛋 (Guandan) and 双升 (Shengji).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sim = sub.add_parser("simulate", help="play simulated deals or matches and print a summary")
    sim.add_argument("game", choices=games)
    count = sim.add_mutually_exclusive_group()
    count.add_argument("--deals", type=positive_int, help="independent deals (the default: 100 deals)")
    count.add_argument("--matches", type=positive_int, help="whole matches")
    sim.add_argument("--seed", type=seed, default=0, help="root seed (default 0)")
    sim.add_argument("--agents", default="random",
                     help="agent kinds: one for all seats, two for teams 0/1, or four per seat "
                          "(random, heuristic), comma-separated (default random)")
    sim.add_argument("--log", metavar="FILE", help="write the JSONL event log here (.gz compresses)")
    sim.add_argument("--log-layout", choices=("merged", "workers"), default="merged",
                     help="merged (default): one file, units in index order, the same bytes for any --jobs; "
                          "workers: one file per worker, FILE-w0, FILE-w1, … (before the extension)")
    sim.add_argument("--jobs", type=positive_int, metavar="N",
                     help="play on N local processes (default 1); with --cluster local: N Dask workers "
                          "(default 2); with --cluster ADDRESS: N chunks at a time (default: the cluster's threads)")
    sim.add_argument("--cluster", metavar="ADDRESS",
                     help="play on the Dask scheduler at ADDRESS, or on a new LocalCluster with 'local' "
                          "(needs pip install 'paiju[cluster]')")
    sim.add_argument("--summary", metavar="FILE", help="also write the summary as JSON (results, then timing)")
    sim.add_argument("--quiet", action="store_true", help="no progress display (the summary is still printed)")
    sim.add_argument("--rules", metavar="K=V", action="append", default=[],
                     help="a rules option, e.g. --rules a_failures_reset=none (repeatable)")
    sim.add_argument("--referee", action="store_true", help="referee the deals (enforcement layer)")
    sim.add_argument("--infractions", type=rate, default=0.0, metavar="RATE",
                     help="with --referee: rate of injected irregularities per decision (0-1)")

    rules = sub.add_parser("rules", help="list the referee's clauses for a game")
    rules.add_argument("game", choices=games)
    rules.add_argument("--clause", metavar="ID",
                       help="one clause in full: its trigger keys (the engines' irregularity ids), the table "
                            "effects its rulings may list, the sanction")

    replay = sub.add_parser("replay", help="show a log step by step, as a table or an HTML page; or check it")
    replay.add_argument("log", metavar="LOG")
    replay.add_argument("--check", action="store_true", help="re-apply every action; exit 0 only if every event matches")
    replay.add_argument("--logged-rulings", action="store_true",
                        help="with --check: re-apply the logged rulings instead of ruling again with the rulebook")
    replay.add_argument("--at", metavar="N",
                        help="the table after the event with sequence number N (UNIT:N in a log of several units)")
    replay.add_argument("--seat", type=seat_number, metavar="N", help="only what seat N (0-3) may know")
    replay.add_argument("--html", metavar="OUT.html", help="write one self-contained page to step through the log")
    replay.add_argument("--game", choices=games, help="the game the log must be of")

    from paiju.train.command import add_parser as add_train_parser  # `paiju train` (referee training)
    add_train_parser(sub, games, positive_int, seed)
    from paiju.fuzz.command import add_parser as add_fuzz_parser  # `paiju fuzz` (rule-interaction fuzzing)
    add_fuzz_parser(sub, games, positive_int, seed)
    from paiju.tournament.command import add_parser as add_tournament_parser  # `paiju tournament`
    add_tournament_parser(sub, games, positive_int, seed, rate)
    from paiju.ogd.command import add_parser as add_ogd_parser  # `paiju ogd` (the OGD competition protocol)
    add_ogd_parser(sub, positive_int, seed, seat_number)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:   # named with the subcommand they were given to
            raise UsageError(f"{args.command}: unrecognized arguments: {' '.join(extra)}")
        return _dispatch(args)
    except PaijuError as exc:
        print(f"paiju: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("paiju: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # never a traceback for the user; PAIJU_DEBUG=1 shows it
        if os.environ.get("PAIJU_DEBUG"):
            raise
        print(f"paiju: internal error: {type(exc).__name__}: {exc} (set PAIJU_DEBUG=1 for details)", file=sys.stderr)
        return EXIT_INTERNAL


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "simulate":
        from paiju.sim.command import simulate_command
        return simulate_command(args)
    if args.command == "rules":
        from paiju.rules_cmd import rules_command
        return rules_command(args)
    if args.command == "replay":
        from paiju.replay.command import replay_command
        return replay_command(args)
    if args.command == "train":
        from paiju.train.command import train_command
        return train_command(args)
    if args.command == "tournament":
        from paiju.tournament.command import tournament_command
        return tournament_command(args)
    if args.command == "fuzz":
        from paiju.fuzz.command import fuzz_command
        return fuzz_command(args)
    if args.command == "ogd":
        from paiju.ogd.command import ogd_command
        return ogd_command(args)
    raise UsageError(f"unknown command {args.command!r}")


if __name__ == "__main__":
    sys.exit(main())
