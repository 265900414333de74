"""`paiju train`: referee training on scenarios (``paiju.train.scenarios``).

    paiju train [--game G] [--seed S] [--count N] [--clauses LIST] [--from DIR]
                [--answers FILE] [--report OUT.json] [--html-dir DIR]
    paiju train export [--game G] [--seed S] [--count N] [--clauses LIST] [--from DIR] OUT_DIR

Without ``--answers`` the run is interactive: each scenario's table is shown (the replay
viewer's terminal view at the scenario's position; with ``--html-dir`` also one HTML page
per scenario), an answer is read from stdin, graded and explained. With ``--answers`` the
answers come one per line from the file (lines starting with '#' are comments) and only
the verdicts and the score are printed. ``--report`` writes the run as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from paiju.arguments import examples
from paiju.train.grade import (
    VERDICTS, AnswerError, explanation, grade, parse_answer, result_record, unreadable,
)
from paiju.train.scenarios import (
    Scenario, TrainingError, check_writable, scenario_name, scenarios_from_dir, write_pack, write_text,
)
from tabletop.errors import OptionError
from tabletop.games import game_spec

REPORT_FORMAT = "paiju-train-report"
REPORT_VERSION = 1
DEFAULT_COUNT = 5
HELP = ("Answer: CLAUSE [; RECTIFICATION [; SANCTIONS]], e.g. 'GD-2.3.1; expose, bar, lead option; none' "
        "or 'SJ-3.1.3; ; PointPenalty(10)'. Empty line or 'skip': no answer; 'quit': stop.")


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
        parser.add_argument("--from", dest="source", default=default, metavar="DIR",
                            help="scenarios from the logs in DIR (a pack: the scenarios of its key.json)")

    common(train, None)
    train.add_argument("--answers", metavar="FILE", help="answers, one per line: run without asking")
    train.add_argument("--report", metavar="OUT.json", help="write the scenarios, answers and verdicts as JSON")
    train.add_argument("--html-dir", metavar="DIR", help="also write one HTML page per scenario into DIR")
    actions = train.add_subparsers(dest="train_action", metavar="export", parser_class=type(train),
                                   help="optional: export writes a pack instead of training (paiju train export --help)")
    export = actions.add_parser("export", help="write a scenario pack (logs + answer key) for a class",
                                description="Write a scenario pack: one log per scenario and the answer key.",
                                epilog=examples("paiju train export --game guandan --count 10 pack/",
                                                "paiju train export --game shengji --clauses 'SJ-2.*' sj-pack/"))
    common(export, argparse.SUPPRESS)
    export.add_argument("out_dir", metavar="OUT_DIR", help="a new or empty directory")


def train_command(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if getattr(args, "train_action", None) == "export":
        return export_command(args, stdout)
    answers = _read_answers(args.answers) if args.answers else None
    if args.report:
        check_writable(args.report, "--report")
    if args.html_dir:
        _make_dir(args.html_dir, "--html-dir")
    game, scenarios, made = _scenarios(args)
    if answers is None:
        records = _interactive(game, scenarios, stdin, stdout, args.html_dir)
    else:
        if len(answers) > len(scenarios):
            _warn(f"{args.answers} has {len(answers)} answers for {len(scenarios)} scenarios; "
                  f"the last {len(answers) - len(scenarios)} are not used")
        records = _batch(scenarios, answers, stdout, args.html_dir)
    report = _report(game, made, records)
    _print_score(report, stdout)
    if args.report:
        write_text(args.report, json.dumps(report, ensure_ascii=False, indent=1) + "\n")
        print(f"wrote {args.report}", file=stdout)
    return 0


def export_command(args: argparse.Namespace, stdout: TextIO) -> int:
    for name in ("answers", "report", "html_dir"):
        if getattr(args, name, None):
            raise OptionError(f"export writes a pack: --{name.replace('_', '-')} belongs to a training run")
    game, scenarios, made = _scenarios(args)
    written = write_pack(args.out_dir, game, scenarios, made)
    print(f"wrote {len(scenarios)} scenarios ({len(written)} logs and key.json) to {args.out_dir}", file=stdout)
    return 0


# ---------------------------------------------------------------------------------------------


def _scenarios(args: argparse.Namespace) -> tuple[str, list[Scenario], dict[str, Any]]:
    """(game, scenarios, how they were made) from --from or by generation."""
    source = getattr(args, "source", None)
    game = getattr(args, "game", None)
    count = getattr(args, "count", None)
    patterns = getattr(args, "clauses", None)
    if source is not None:
        if getattr(args, "seed", None) is not None:
            raise OptionError("--seed generates scenarios and --from reads them: give one or the other")
        game, scenarios = scenarios_from_dir(source, game)
        if patterns:
            keep = _clause_ids(game, patterns)
            scenarios = [s for s in scenarios if s.expected.clause in keep]
        if not scenarios:
            raise TrainingError(f"--from {source}: no scenario" + (f" for --clauses {patterns}" if patterns else ""))
        if count is not None:
            scenarios = scenarios[:count]
        return game, scenarios, {"from": source, "clauses": patterns, "count": count}
    from paiju.train.generate import generate

    game = game or "guandan"
    seed = getattr(args, "seed", None) or 0
    count = count or DEFAULT_COUNT
    scenarios = generate(game, seed, count, patterns, note=_warn)
    return game, scenarios, {"seed": seed, "count": count, "clauses": patterns}


def _clause_ids(game: str, patterns: str) -> set[str]:
    from enforcement.rulebook import matching

    ids = {c.id for c in matching(patterns) if c.game == game}
    if not ids:
        raise OptionError(f"--clauses {patterns}: no {game} clause")
    return ids


def _read_answers(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise TrainingError(f"--answers {path}: cannot read it: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise TrainingError(f"--answers {path}: not UTF-8 text") from None
    return [line for line in lines if not line.lstrip().startswith("#")]


def _make_dir(path: str, what: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise TrainingError(f"{what} {path}: cannot create it: {exc.strerror or exc}") from None
    if not os.path.isdir(path):
        raise TrainingError(f"{what} {path}: not a directory")


def _warn(text: str) -> None:
    print(f"paiju: note: {text}", file=sys.stderr)


def _write_page(directory: str, number: int, scenario: Scenario) -> str:
    from paiju.replay.html import render_page, write_page

    path = os.path.join(directory, scenario_name(number).replace(".jsonl", ".html"))
    write_page(path, render_page(scenario.view(), None, os.path.basename(scenario.source), scenario.view_index))
    return path


def _batch(scenarios: Sequence[Scenario], answers: Sequence[str], stdout: TextIO,
           html_dir: str | None) -> list[dict[str, Any]]:
    records = []
    for number, scenario in enumerate(scenarios, start=1):
        if html_dir:
            _write_page(html_dir, number, scenario)
        text = answers[number - 1].strip() if number <= len(answers) else None
        try:
            answer = parse_answer(text, lenient=True) if text is not None else None
            graded = grade(scenario.expected, answer)
        except AnswerError as exc:  # no clause at all, or too many parts
            answer, graded = None, unreadable(str(exc))
        records.append(result_record(number, scenario, text or None, answer, graded))
        print(_verdict_line(number, scenario, records[-1]), file=stdout)
    return records


def _verdict_line(number: int, scenario: Scenario, record: dict[str, Any]) -> str:
    given = record["answer"] if record["answer"] else "-"
    return (f"{number:>3}. {os.path.basename(scenario.source)} at {scenario.position}: {record['verdict']}"
            f" (answer {given}; expected {scenario.expected.clause})")


def _interactive(game: str, scenarios: Sequence[Scenario], stdin: TextIO, stdout: TextIO,
                 html_dir: str | None) -> list[dict[str, Any]]:
    from paiju.replay.text import make_console

    console = make_console(stdout)
    echo = not _is_tty(stdin)
    records: list[dict[str, Any]] = []
    total = len(scenarios)
    print(f"{game_spec(game).title} referee training: {total} scenario{'s' if total != 1 else ''}. {HELP}",
          file=stdout)
    stopped = False
    for number, scenario in enumerate(scenarios, start=1):
        if stopped:
            records.append(result_record(number, scenario, None, None, grade(scenario.expected, None)))
            continue
        console.rule(f"scenario {number} of {total} · {os.path.basename(scenario.source)} at {scenario.position}",
                     characters="═", align="left")
        show_table(scenario, console)
        if html_dir:
            print(f"page: {_write_page(html_dir, number, scenario)}", file=stdout)
        text, answer = _ask(stdin, stdout, echo)
        if text is None:
            stopped = True
            records.append(result_record(number, scenario, None, None, grade(scenario.expected, None)))
            continue
        graded = grade(scenario.expected, answer)
        record = result_record(number, scenario, text or None, answer, graded)
        records.append(record)
        print(f"→ {graded.verdict.upper()}", file=stdout)
        for remark in graded.remarks:
            print(f"  {remark}", file=stdout)
        for line in explanation(scenario):
            print(f"  | {line}", file=stdout)
    return records


def show_table(scenario: Scenario, console: Any, context: int = 8) -> None:
    """The replay viewer's table at the scenario's position, the steps just before it (in its
    deal), earlier rulings of the deal in one line each, and which irregularity to rule on."""
    from rich.text import Text

    from paiju.replay.text import step_line, table_panel
    from paiju.replay.fold import Fold

    fold = Fold(scenario.view(), None, scenario.source)
    recent: deque[Any] = deque(maxlen=context + 1)
    for step in fold.steps(until=scenario.view_index):
        if recent and (recent[-1].unit, recent[-1].deal) != (step.unit, step.deal):
            recent.clear()
        recent.append(step)
    for step in recent:
        console.print(step_line(step))
    view = fold.table.view()
    console.print(table_panel(view, f"at {scenario.position} · line {recent[-1].line}"))
    for r in view["rulings"]:
        who = f"seat {r['offender']}" if r["offender"] is not None else "the table"
        console.print(Text(f"earlier ruling: {r['clause']} on {who} (seq {r['seq']})", style="dim"))
    e = scenario.expected
    who = f"seat {e.offender}" if e.offender is not None else "the table"
    what = f"{who}'s {e.irregularity}" if e.irregularity else f"what {who} did"
    console.print(Text(f"Rule on {what}" + (f" (the irregularity at {e.irregular})" if e.irregular else "") + ".",
                       style="bold"))


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _ask(stdin: TextIO, stdout: TextIO, echo: bool) -> tuple[str | None, Any]:
    """(the answer text, the answer read); (None, None) at end of input or 'quit'. ``echo``:
    repeat what was read (input that is not typed does not show by itself)."""
    while True:
        print("Your ruling> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            print(file=stdout)
            return None, None
        text = line.strip()
        if echo:
            print(text, file=stdout)
        if text.lower() in ("quit", "q", "exit"):
            return None, None
        if text in ("?", "help"):
            print(HELP, file=stdout)
            continue
        try:
            return text, parse_answer(text)
        except AnswerError as exc:
            print(f"  cannot read that: {exc}. Try again ('?' for help).", file=stdout)


def _report(game: str, made: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    verdicts = Counter(r["verdict"] for r in records)
    return {
        "format": REPORT_FORMAT, "version": REPORT_VERSION, "game": game, "made": made,
        "scenarios": records,
        "score": sum(1 for r in records if r["clause_right"]),
        "total": len(records),
        "verdicts": {v: verdicts.get(v, 0) for v in VERDICTS},
    }


def _print_score(report: dict[str, Any], stdout: TextIO) -> None:
    counts = report["verdicts"]
    detail = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
    print(f"score: {report['score']} of {report['total']} clauses right ({detail})", file=stdout)
