"""The `paiju` command. Every error is one line on stderr and a non-zero exit."""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

# Before numpy loads: the engines do no linear algebra and parallel runs are processes, so
# numpy's BLAS thread pool would only cost each paiju process its start (about 60 ms of CPU)
# and spin beside the deals. A user's own setting stands.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from paiju.files import check_command_paths
from paiju.stopping import Stopped, exit_status, signal_name, stopping_signals_as_interrupts
from paiju.arguments import agent_list, examples, input_path, output_path, positive_int, rate, seat_number, seed
from tabletop.errors import PaijuError
from tabletop.games import game_names

EXIT_USAGE = 2
EXIT_FAILED_CHECK = 1
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130


class UsageError(PaijuError):
    pass


class _HelpFormatter(argparse.HelpFormatter):
    """Descriptions are filled to the terminal; the examples epilog keeps its lines."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line (no usage dump) and raise instead of exiting."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(_named(self.prog, message))

    # typeshed overloads parse_known_args by the namespace's type; this override keeps both
    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:  # type: ignore[override]
        parsed, extra = super().parse_known_args(args, namespace)
        if not hasattr(parsed, PARSER_PROG):   # the innermost parser finishes first: it names the command
            setattr(parsed, PARSER_PROG, self.prog)
        return parsed, extra


class _VersionAction(argparse.Action):
    """argparse's "version" action, but the version is looked up only when asked for:
    ``importlib.metadata`` costs every other `paiju` process ≈ 25 ms of start-up."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> NoReturn:
        from paiju.build import description

        parser._print_message(f"paiju {_version()} ({description()})\n", sys.stdout)
        parser.exit()


PARSER_PROG = "_parser_prog"
"""The namespace attribute naming the (sub)command whose parser took the last words."""


def _named(prog: str, message: str) -> str:
    """``message`` led by the subcommand (``train export: …``); 'paiju: error:' is said once, by main."""
    command = prog.removeprefix("paiju").strip()
    return f"{command}: {message}" if command else message


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """paiju's parser; ``only``: build that command's subparser alone (a run of one command
    neither builds the others' arguments nor imports their modules)."""
    games = game_names()   # the built-in games and any registered before the parser is built
    parser = _Parser(prog="paiju", description="Refereed simulation of 掼蛋 (Guandan) and 双升 (Shengji).",
                     epilog=examples("paiju simulate guandan --matches 3 --referee --infractions 0.01",
                                     "paiju rules guandan GD-2.3.1",
                                     "paiju COMMAND --help      # each command's options and examples"))
    parser.add_argument("--version", action=_VersionAction, help="print paiju's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands", parser_class=_Parser,
                                help="one of these; paiju COMMAND --help shows its options and examples")
    for name, add_parser in _COMMAND_PARSERS.items():
        if only is None or only == name:
            add_parser(sub, games)
    return parser


def _add_simulate(sub: Any, games: tuple[str, ...]) -> None:
    sim = sub.add_parser("simulate", help="play simulated deals or matches and print a summary",
                         description="Play simulated deals or whole matches and print a summary.",
                         epilog=examples(
                             "paiju simulate guandan --deals 1000 --jobs 2",
                             "paiju simulate shengji --matches 5 --agents heuristic,random --log sj.jsonl.gz",
                             "paiju simulate guandan --matches 3 --referee --infractions 0.01 --summary summary.json",
                             "paiju simulate guandan --matches 10 --rules match_end=deals --rules match_deals=4"))
    sim.add_argument("game", choices=games, help="the game")
    count = sim.add_mutually_exclusive_group()
    count.add_argument("--deals", type=positive_int, help="independent deals (the default: 100 deals)")
    count.add_argument("--matches", type=positive_int, help="whole matches")
    sim.add_argument("--seed", type=seed, default=0, help="root seed (default 0)")
    sim.add_argument("--agents", type=agent_list("--agents"), default="random",
                     help="agents: one for all seats, two for teams 0/1, or four per seat, comma-separated: "
                          "random, heuristic, module.path:Name or path/to/file.py:Name (default random)")
    sim.add_argument("--log", type=output_path("--log"), metavar="FILE", help="write the JSONL event log here (.gz compresses)")
    sim.add_argument("--log-layout", choices=("merged", "workers"), default="merged",
                     help="merged (default): one file, units in index order, the same bytes for any --jobs; "
                          "workers: one file per worker, FILE-w0, FILE-w1, … (before the extension)")
    sim.add_argument("--jobs", type=positive_int, metavar="N",
                     help="play on N local processes (default 1); with --cluster local: N Dask workers "
                          "(default 2); with --cluster ADDRESS: N chunks at a time (default: the cluster's threads)")
    sim.add_argument("--cluster", metavar="ADDRESS",
                     help="play on the Dask scheduler at ADDRESS, or on a new LocalCluster with 'local' "
                          "(needs pip install 'paiju[cluster]')")
    sim.add_argument("--summary", type=output_path("--summary"), metavar="FILE", help="also write the summary as JSON (results, then timing)")
    sim.add_argument("--quiet", action="store_true", help="no progress display (the summary is still printed)")
    sim.add_argument("--rules", metavar="K=V", action="append", default=[],
                     help="a rules option, e.g. --rules a_failures_reset=none (repeatable; paiju rules GAME --options lists them)")
    sim.add_argument("--referee", action="store_true", help="referee the deals (enforcement layer)")
    sim.add_argument("--infractions", type=rate, default=0.0, metavar="RATE",
                     help="with --referee: rate of injected irregularities per decision (0-1)")


def _add_rules(sub: Any, games: tuple[str, ...]) -> None:
    rules = sub.add_parser("rules", help="the referee's clauses of a game, one clause in full, or the rules options",
                           description="List the referee's clauses of a game (id, summary, sanction); with "
                                       "CLAUSE, that clause in full; with WORDS, the clauses that say them (or "
                                       "what people also say for them: 提前 finds 越序); with --options, the "
                                       "game's rules options.",
                           epilog=examples("paiju rules guandan",
                                           "paiju rules guandan GD-2.3.1",
                                           "paiju rules guandan 提前出牌",
                                           "paiju rules shengji --options"))
    rules.add_argument("game", choices=games, help="the game")
    rules.add_argument("clause_id", nargs="*", metavar="CLAUSE|WORDS",
                       help="a clause id (GD-2.3.1): its Chinese text, English summary, trigger, rectification "
                            "and sanction ladder; or words to search the clauses for")
    rules.add_argument("--clause", metavar="ID", help="the same as CLAUSE")
    rules.add_argument("--options", action="store_true",
                       help="list the rules options (for simulate --rules): type, default, allowed values")


def _add_replay(sub: Any, games: tuple[str, ...]) -> None:
    replay = sub.add_parser("replay", help="show a log step by step, as a table or an HTML page; or check it",
                            description="Show an event log step by step (terminal or one HTML page), or re-run "
                                        "it with --check and compare every event byte for byte.",
                            epilog=examples("paiju simulate guandan --deals 3 --referee --infractions 0.02 --log gd.jsonl",
                                            "paiju replay gd.jsonl",
                                            "paiju replay gd.jsonl --at 1:40 --seat 0",
                                            "paiju replay gd.jsonl --html gd.html",
                                            "paiju replay gd.jsonl --check"))
    replay.add_argument("log", type=input_path("LOG"), metavar="LOG", help="an event log written by simulate --log (plain or gzip)")
    replay.add_argument("--check", action="store_true", help="re-apply every action; exit 0 only if every event matches")
    replay.add_argument("--quiet", action="store_true", help="no progress display on stderr (a long replay shows one after half a second)")
    replay.add_argument("--logged-rulings", action="store_true",
                        help="with --check: re-apply the logged rulings instead of ruling again with the rulebook")
    replay.add_argument("--at", metavar="N",
                        help="the table after the event with sequence number N (UNIT:N in a log of several units)")
    replay.add_argument("--seat", type=seat_number, metavar="N", help="only what seat N (0-3) may know")
    replay.add_argument("--html", type=output_path("--html"), metavar="OUT.html", help="write one self-contained page to step through the log")
    replay.add_argument("--game", choices=games, help="the game the log must be of")


def _add_train(sub: Any, games: tuple[str, ...]) -> None:
    from paiju.train.parser import add_parser  # `paiju train` (referee training)

    add_parser(sub, games, positive_int, seed)


def _add_fuzz(sub: Any, games: tuple[str, ...]) -> None:
    from paiju.fuzz.parser import add_parser  # `paiju fuzz` (rule-interaction fuzzing)

    add_parser(sub, games, positive_int, seed)


def _add_tournament(sub: Any, games: tuple[str, ...]) -> None:
    from paiju.tournament.parser import add_parser  # `paiju tournament`

    add_parser(sub, games, positive_int, seed, rate)


def _add_ogd(sub: Any, games: tuple[str, ...]) -> None:
    from paiju.ogd.command import add_parser  # `paiju ogd` (the OGD competition protocol)

    add_parser(sub, positive_int, seed, seat_number)


_COMMAND_PARSERS: dict[str, Callable[[Any, tuple[str, ...]], None]] = {
    "simulate": _add_simulate, "rules": _add_rules, "replay": _add_replay, "train": _add_train,
    "fuzz": _add_fuzz, "tournament": _add_tournament, "ogd": _add_ogd,
}
"""Each command → what adds its subparser, in the order the help lists them."""


def _command_named_first(argv: Sequence[str] | None) -> str | None:
    """The command when the command line starts with one (its parser alone is built), else None."""
    words = sys.argv[1:] if argv is None else argv
    return words[0] if words and words[0] in _COMMAND_PARSERS else None


def main(argv: Sequence[str] | None = None) -> int:
    # At exit the interpreter collects the whole heap (every module, class and table loaded): a
    # frozen heap is left to the OS instead, ≈10 % of a short run. Nothing here needs a finalizer.
    atexit.unregister(gc.freeze)   # once, however often main runs in one process
    atexit.register(gc.freeze)
    with stopping_signals_as_interrupts():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    try:
        parser = build_parser(_command_named_first(argv))   # in the try: it imports the commands' modules, a Ctrl-C may land there
        args, extra = parser.parse_known_args(argv)
        if extra:   # named with the (sub)command they were given to
            raise UsageError(_named(getattr(args, PARSER_PROG), f"unrecognized arguments: {' '.join(extra)}"))
        if args.command is None:   # bare `paiju`: nothing asked for, so a usage error (exit 2) that shows the commands
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        check_command_paths(args)
        return _dispatch(args)
    except PaijuError as exc:
        print(f"paiju: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Stopped as exc:
        print(f"paiju: stopped by {signal_name(exc)}", file=sys.stderr)
        return exit_status(exc)
    except KeyboardInterrupt:
        print("paiju: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except OSError as exc:   # a file or the system refused: the reason in words, never "[Errno 21] …"
        if os.environ.get("PAIJU_DEBUG"):
            raise
        where = f" {exc.filename!r}" if exc.filename else ""
        print(f"paiju: error: cannot use{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # never a traceback for the user; PAIJU_DEBUG=1 shows it
        if os.environ.get("PAIJU_DEBUG"):
            raise
        print(f"paiju: internal error: {type(exc).__name__}: {exc} (set PAIJU_DEBUG=1 for details)", file=sys.stderr)
        return EXIT_INTERNAL


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("paiju")
    except metadata.PackageNotFoundError:   # run from a checkout that was never installed
        return "unknown (not installed)"


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
