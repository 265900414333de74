"""`paiju tournament`'s argparse part, apart from the command so that building paiju's parser
does not import the tournament runner (every `paiju` process builds the whole parser)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paiju.arguments import agent_list, examples, output_directory


def add_parser(sub: Any, games: tuple[str, ...], positive_int: Callable[[str], int], seed: Callable[[str], int],
               rate: Callable[[str], float]) -> None:
    p = sub.add_parser("tournament", help="a round robin between agents, with intervals, ratings and a report",
                       epilog=examples("paiju tournament guandan --agents heuristic,random --deals 200 --duplicate --out run-gd",
                                       "paiju tournament shengji --agents heuristic,random,random --deals 400 --until-significant",
                                       "paiju tournament guandan --agents ogd:9001,heuristic --deals 20   # two bots connect"))
    p.add_argument("game", choices=games, help="the game")
    p.add_argument("--agents", type=agent_list("--agents"), required=True, metavar="A,B[,C…]",
                   help="two or more agents, comma-separated; each plays every other as a team")
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=positive_int, metavar="N",
                       help="deals per pairing, an even number (default 100)")
    count.add_argument("--matches", type=positive_int, metavar="N", help="whole matches per pairing, an even number")
    p.add_argument("--duplicate", action="store_true",
                   help="play each board twice with the seats swapped; score per duplicate pair")
    p.add_argument("--until-significant", action="store_true",
                   help="stop a pairing once its level-difference interval excludes zero (or at the budget)")
    p.add_argument("--seed", type=seed, default=0, help="root seed (default 0)")
    p.add_argument("--jobs", type=positive_int, metavar="N",
                   help="play on N local processes (default 1); with --cluster as in simulate")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play on the Dask scheduler at ADDRESS, or on a new LocalCluster with 'local' "
                        "(needs pip install 'paiju[cluster]')")
    p.add_argument("--referee", action="store_true", help="referee the deals")
    p.add_argument("--infractions", type=rate, default=0.0, metavar="RATE",
                   help="with --referee: rate of injected irregularities per decision (0-1)")
    p.add_argument("--rules", metavar="K=V", action="append", default=[], help="a rules option (repeatable)")
    p.add_argument("--out", type=output_directory("--out"), metavar="DIR",
                   help="write deals.csv, deals.parquet, summary.json and report.html here")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--bot-wait", type=positive_int, default=60, metavar="SECONDS",
                   help="with an ogd:PORT agent: how long to wait for its two bots to connect (default 60)")
    p.add_argument("--act-timeout", metavar="SECONDS",
                   help="with an ogd:PORT agent: seconds a bot may take per act, or play=S,tribute=S,back=S "
                        "(default 60)")
