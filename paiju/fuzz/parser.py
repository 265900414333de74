"""The `paiju fuzz` command line (its argparse subcommand), apart from the command so that
building paiju's parser does not import the fuzzer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from paiju.arguments import agent_list, examples, input_path, output_directory, output_path, rate, seconds

DEFAULT_CASES = 100
DEFAULT_OUT = "fuzz-failures"
DEFAULT_REPLAY_SAMPLE = 0.05


def add_parser(sub: Any, games: Sequence[str], positive_int: Callable[[str], int], seed: Callable[[str], int]) -> None:
    """The `fuzz` subcommand (called by ``paiju.cli``)."""
    fuzz = sub.add_parser("fuzz", help="fuzz an engine and its referee with injected irregularities; "
                                       "check the invariants, shrink and save what breaks them",
                          description="Play cases with injected irregularities under the invariant checker; "
                                      "shrink and save what breaks one; print the clause coverage.",
                          epilog=examples("paiju fuzz --game guandan --deals 200",
                                          "paiju fuzz --game shengji --matches 5 --time-budget 60 --out failures/",
                                          "paiju fuzz --repro fuzz-failures/FILE.jsonl   # a saved case, re-run"))
    fuzz.add_argument("--game", choices=games, help="the game to fuzz (required unless --repro)")
    count = fuzz.add_mutually_exclusive_group()
    count.add_argument("--deals", type=positive_int, metavar="N", help=f"fuzz N deals, one case each (one in three: a match's first two deals, "
                            f"for tribute) (default {DEFAULT_CASES})")
    count.add_argument("--matches", type=positive_int, metavar="N", help="fuzz N whole matches instead")
    fuzz.add_argument("--seed", type=seed, default=0, metavar="S", help="root seed (default 0)")
    fuzz.add_argument("--agents", type=agent_list("--agents"), metavar="SPEC",
                      help="the agents of every case, as for simulate: built-in names, module.path:Name or "
                           "file.py:Name; 1, 2 (per team) or 4 (per seat) (default: drawn per case, random or heuristic)")
    fuzz.add_argument("--time-budget", type=seconds, metavar="SECONDS",
                      help="start no new case after this many seconds (shrinking gets a quarter more)")
    fuzz.add_argument("--out", type=output_directory("--out"), metavar="DIR",
                      help=f"where failing cases' logs go (default ./{DEFAULT_OUT})")
    fuzz.add_argument("--replay-sample", type=rate, default=DEFAULT_REPLAY_SAMPLE, metavar="RATE",
                      help=f"share of clean cases re-checked with replay --check (default {DEFAULT_REPLAY_SAMPLE})")
    fuzz.add_argument("--keep-going", action="store_true",
                      help="after a violation, go on (each broken invariant is shrunk and saved once)")
    fuzz.add_argument("--quiet", action="store_true", help="no progress display on stderr")
    fuzz.add_argument("--repro", type=input_path("--repro"), metavar="LOG", help="re-run the case a fuzz log holds and report what breaks")
    fuzz.add_argument("--guided", action="store_true",
                      help="coverage-guided: mutate the cases that reached new interaction pairs to reach more")
    fuzz.add_argument("--campaign", type=output_directory("--campaign"), metavar="DIR",
                      help="keep the corpus, coverage and findings in DIR; an interrupted campaign resumes there")
    fuzz.add_argument("--jobs", type=positive_int, metavar="N", help="play the cases on N local processes")
    fuzz.add_argument("--cluster", metavar="ADDRESS",
                      help="play the cases on the Dask scheduler at ADDRESS ('local': a LocalCluster of --jobs workers)")
    fuzz.add_argument("--holes", type=output_path("--holes"), metavar="OUT.md",
                      help="write the rulebook holes (unresolved situations, with reproducing logs) to OUT.md or OUT.html")
    fuzz.add_argument("--report", type=output_path("--report"), metavar="OUT.html",
                      help="write the coverage report (heat map of the interaction matrix, clauses, holes, findings)")
    fuzz.add_argument("--matrix", type=output_path("--matrix"), metavar="OUT.json", help="write the interaction matrix and the pairs never seen")
