"""The `paiju train` command line (its argparse subcommand), apart from the command so that
building paiju's parser does not import the training machinery."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from paiju.arguments import examples, input_path, output_directory, output_path

DEFAULT_COUNT = 5


def add_parser(sub: Any, games: Sequence[str], positive_int: Callable[[str], int], seed: Callable[[str], int]) -> None:
    """The `train` subcommand and its `export` action (called by ``paiju.cli``)."""
    train = sub.add_parser(
        "train", help="referee training: rule on irregularities, graded against the referee",
        description="Referee training: each scenario stops at an irregularity; answer with the clause, the "
                    "rectification and the sanctions, and the answer is graded against the rulebook referee.",
        epilog=examples("paiju train --game guandan --count 3",
                        "paiju train --game shengji --clauses 'SJ-3.*' --answers answers.txt --report report.json",
                        "paiju train export --game guandan --count 10 pack/      # a pack for a class",
                        "paiju train --from pack/"))

    def common(parser: argparse.ArgumentParser, default: Any) -> None:
        parser.add_argument("--game", choices=games, default=default,
                            help="the game (default guandan; with --from, the logs' game)")
        parser.add_argument("--seed", type=seed, default=default, metavar="S",
                            help="generate scenarios from this seed (default 0)")
        parser.add_argument("--count", type=positive_int, default=default, metavar="N",
                            help=f"number of scenarios (default {DEFAULT_COUNT}; with --from, all)")
        parser.add_argument("--clauses", default=default, metavar="LIST",
                            help="only these clauses: ids or globs, comma-separated (GD-2.3.1,GD-4.2.*)")
        parser.add_argument("--from", dest="source", type=input_path("--from"), default=default, metavar="DIR",
                            help="scenarios from the logs in DIR (a pack: the scenarios of its key.json)")

    common(train, None)
    train.add_argument("--answers", type=input_path("--answers"), metavar="FILE", help="answers, one per line: run without asking")
    train.add_argument("--report", type=output_path("--report"), metavar="OUT.json", help="write the scenarios, answers and verdicts as JSON")
    train.add_argument("--html-dir", type=output_directory("--html-dir"), metavar="DIR", help="also write one HTML page per scenario into DIR")
    actions = train.add_subparsers(dest="train_action", metavar="export|serve", parser_class=type(train),
                                   help="optional: export writes a pack, serve runs the trainer in the browser "
                                        "(paiju train serve --help)")
    export = actions.add_parser("export", help="write a scenario pack (logs + answer key) for a class",
                                description="Write a scenario pack: one log per scenario and the answer key.",
                                epilog=examples("paiju train export --game guandan --count 10 pack/",
                                                "paiju train export --game shengji --clauses 'SJ-2.*' sj-pack/"))
    common(export, argparse.SUPPRESS)
    export.add_argument("out_dir", type=output_directory("OUT_DIR"), metavar="OUT_DIR", help="a new or empty directory")
    from paiju.train.web.command import add_parser as add_serve_parser   # argparse only: the app loads on use

    add_serve_parser(actions, seed)
