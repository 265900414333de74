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
from collections.abc import Sequence
from typing import Any, TextIO

from paiju.stopping import exit_status
from paiju.files import check_writable
from paiju.train.parser import DEFAULT_COUNT
from paiju.train.grade import (
    VERDICTS, AnswerError, explanation, grade, parse_answer, result_record, unreadable, why,
)
from paiju.train.scenarios import (
    Scenario, TrainingError, scenario_name, scenarios_from_dir, write_pack, write_text,
)
from tabletop.errors import OptionError
from tabletop.games import game_spec
from paiju.summary import counted

REPORT_FORMAT = "paiju-train-report"
REPORT_VERSION = 1
EXIT_INTERRUPTED = 130
"""Like any command stopped by SIGINT (128 + 2)."""
HELP = ("Answer: CLAUSE [; RECTIFICATION [; SANCTIONS]], e.g. 'GD-2.3.1; expose, bar, lead option; none' "
        "or 'SJ-3.1.3; ; PointPenalty(10)'. Empty line or 'skip': no answer; 'quit': stop; '?': commands.")
COMMANDS = """Commands (anything else is read as your ruling):
  ?, help          this list
  deal             every step of the deal so far (the table shows only the last few)
  table            the table again
  rules WORDS|ID   look the rulebook up: a clause id (GD-2.3.1) shows the clause, a section
                   id (GD-2.3) its clauses, words (out of turn, 提前) the clauses that say them
  skip, or empty   no answer to this one
  quit             stop here (the rest count as unanswered)
""" + HELP.split(". Empty line")[0] + "."
LONG_COUNT = 50
"""Making this many scenarios takes over a second: their making shows its progress."""
LOOKUP_LIMIT = 12
"""At most this many clauses listed for a word search."""



def train_command(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if getattr(args, "train_action", None) == "export":
        return export_command(args, stdout)
    if getattr(args, "train_action", None) == "serve":
        from paiju.train.web.command import serve_command

        return serve_command(args)
    answers = _read_answers(args.answers) if args.answers else None
    if args.report:
        check_writable(args.report, "--report", error=TrainingError)
    if args.html_dir:
        _make_dir(args.html_dir, "--html-dir")
    game, scenarios, made = _scenarios(args)
    records: list[dict[str, Any]] = []   # filled as answers come: what Ctrl-C leaves is reported
    interrupted = False
    try:
        if answers is None:
            _interactive(game, scenarios, stdin, stdout, args.html_dir, records)
        else:
            if len(answers) > len(scenarios):
                _warn(f"{args.answers} has {counted(len(answers), 'answer')} for {counted(len(scenarios), 'scenario')}; "
                      f"the last {len(answers) - len(scenarios)} are not used")
            _batch(scenarios, answers, stdout, args.html_dir, records)
    except KeyboardInterrupt as exc:   # Ctrl-C, SIGTERM, SIGHUP
        interrupted = True
        interrupted_status = exit_status(exc)
        print(file=stdout)
    report = _report(game, made, records, of=len(scenarios), interrupted=interrupted)
    _print_score(report, stdout)
    if args.report:
        write_text(args.report, json.dumps(report, ensure_ascii=False, indent=1) + "\n")
        print(f"wrote {args.report}", file=stdout)
        if "logs" in report:
            print(f"the scenarios' logs are not written: {export_hint(game, made)} writes them", file=stdout)
    if interrupted:
        print(f"paiju: interrupted: {_answered(records)} of {counted(len(scenarios), 'scenario')} answered"
              + (f", reported in {args.report}" if args.report else ""), file=sys.stderr)
        return interrupted_status
    return 0


def _answered(records: Sequence[dict[str, Any]]) -> int:
    return sum(1 for r in records if r["answer"])


def export_command(args: argparse.Namespace, stdout: TextIO) -> int:
    for name in ("answers", "report", "html_dir"):
        if getattr(args, name, None):
            raise OptionError(f"export writes a pack: --{name.replace('_', '-')} belongs to a training run")
    game, scenarios, made = _scenarios(args)
    written = write_pack(args.out_dir, game, scenarios, made)
    print(f"wrote {counted(len(scenarios), 'scenario')} ({counted(len(written), 'log')} and key.json) to {args.out_dir}", file=stdout)
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
    from paiju.progress import start_progress
    from paiju.train.generate import generate

    game = game or "guandan"
    seed = getattr(args, "seed", None) or 0
    count = count or DEFAULT_COUNT
    # about 30 ms a scenario: a long count shows its progress (stderr), a short one is done first
    progress = start_progress("scenarios", count, quiet=count < LONG_COUNT, description=f"train: making {game} scenarios")
    try:
        scenarios = generate(game, seed, count, patterns, note=_warn, made=progress.advance)
    finally:
        progress.close()
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
           html_dir: str | None, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
    reason = "; ".join(r for r in record["remarks"] if not r.endswith(": right")) if record["verdict"] not in (
        "right", "unanswered") else ""
    return (f"{number:>3}. {os.path.basename(scenario.source)} at {scenario.position}: {record['verdict']}"
            f" (answer {given}; expected {scenario.expected.clause})" + (f": {reason}" if reason else ""))


def _interactive(game: str, scenarios: Sequence[Scenario], stdin: TextIO, stdout: TextIO,
                 html_dir: str | None, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ask for a ruling on each scenario; ``records`` gets one record per scenario as it
    is answered (or passed over after 'quit')."""
    from paiju.replay.text import make_console

    console = make_console(stdout)
    echo = not _is_tty(stdin)
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
        text, answer = _ask(stdin, stdout, echo, scenario, console)
        if text is None:
            stopped = True
            records.append(result_record(number, scenario, None, None, grade(scenario.expected, None)))
            continue
        graded = grade(scenario.expected, answer)
        record = result_record(number, scenario, text or None, answer, graded)
        records.append(record)
        reason = why(graded)
        print(f"→ {graded.verdict.upper()}" + (f": {reason}" if reason else ""), file=stdout)
        for remark in graded.remarks:
            if not reason or remark.endswith(": right"):  # the others are on the verdict line
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

    from paiju.wording import irregularity_words

    fold = Fold(scenario.view(), None, scenario.source)
    fold.table.hide_judgement = True  # the referee's findings would give the ruling away
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
    what = (f"what {who} did: {irregularity_words(scenario.game, e.irregularity)}" if e.irregularity
            else f"what {who} did")
    console.print(Text(f"Rule on {what}" + (f" (the irregularity at {e.irregular})" if e.irregular else "") + ".",
                       style="bold"))


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def show_deal(scenario: Scenario, console: Any) -> None:
    """Every step of the scenario's deal up to its position (the trainer's ``deal``)."""
    from paiju.replay.fold import Fold
    from paiju.replay.text import step_line

    fold = Fold(scenario.view(), None, scenario.source)
    fold.table.hide_judgement = True
    steps: list[Any] = []
    for step in fold.steps(until=scenario.view_index):
        if steps and (steps[-1].unit, steps[-1].deal) != (step.unit, step.deal):
            steps.clear()
        steps.append(step)
    for step in steps:
        console.print(step_line(step))


def lookup(game: str, query: str) -> list[str]:
    """The trainer's ``rules`` command: a clause by id (in full), a section's clauses, or the
    clauses of ``game`` whose title, summary or Chinese text hold every word of ``query``, or
    a word people also say for it (``paiju.rules_search``: 提前 finds 越序)."""
    from enforcement.rulebook import UnknownClause, children, clause
    from paiju.rules_search import search

    text = query.strip()
    if not text:
        return ["rules WORDS|ID: give a clause id (GD-2.3.1) or words to search for"]
    try:
        found = clause(text)
    except UnknownClause:
        found = None
    if found is not None:
        lines = [f"{found.id} {found.title}" + ("" if found.game == game else
                                                  f" (a {game_spec(found.game).title} clause)"),
                 found.text_zh, found.summary]
        if found.rectification.text:
            lines.append(f"rectification 纠正: {found.rectification.text}")
        if found.sanction.text:
            lines.append(f"sanctions 处罚: {found.sanction.text}")
        below = children(found.id)
        lines.extend(f"  {c.id} {c.title}" for c in below)
        return [line for line in lines if line]
    hits = search(game, text)
    if not hits:
        return [f"no {game_spec(game).title} clause says {text!r}"]
    shown = [f"  {c.id} {c.title}" for c in hits[:LOOKUP_LIMIT]]
    more = [f"  … {len(hits) - LOOKUP_LIMIT} more: add words to narrow it"] if len(hits) > LOOKUP_LIMIT else []
    return [f"{len(hits)} clause{'s' if len(hits) != 1 else ''} say {text!r}:"] + shown + more


def _ask(stdin: TextIO, stdout: TextIO, echo: bool, scenario: Scenario | None = None,
         console: Any = None) -> tuple[str | None, Any]:
    """(the answer text, the answer read); (None, None) at end of input or 'quit'. ``echo``:
    repeat what was read (input that is not typed does not show by itself). Commands
    (``COMMANDS``) are answered and the question asked again."""
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
        command, _, rest = text.partition(" ")
        if text in ("?", "help"):
            print(COMMANDS, file=stdout)
            continue
        if scenario is not None and command.lower() in ("rules", "rule", "r") and not _looks_like_answer(text):
            for line in lookup(scenario.game, rest):
                print(f"  {line}", file=stdout)
            continue
        if scenario is not None and console is not None and text.lower() in ("deal", "history"):
            show_deal(scenario, console)
            continue
        if scenario is not None and console is not None and text.lower() == "table":
            show_table(scenario, console)
            continue
        try:
            return text, parse_answer(text)
        except AnswerError as exc:
            print(f"  cannot read that: {exc}. Try again ('?' for help).", file=stdout)


def _looks_like_answer(text: str) -> bool:
    """'r' and 'rules' are commands; an answer starts with a clause id."""
    return ";" in text


def _report(game: str, made: dict[str, Any], records: list[dict[str, Any]], *, of: int,
            interrupted: bool = False) -> dict[str, Any]:
    """The run as JSON. ``total`` is the scenarios graded (``records``); a run stopped by
    Ctrl-C adds ``interrupted``: how many scenarios the run had and how many were answered."""
    verdicts = Counter(r["verdict"] for r in records)
    extra: dict[str, Any] = {}
    if "seed" in made:  # generated: no log on disk until exported
        export = export_hint(game, made)
        records = [{**r, "log": None, "log_in_export": r["log"]} for r in records]
        extra["logs"] = f"generated, not written; {export} writes them (log_in_export) with key.json"
    report = {
        "format": REPORT_FORMAT, "version": REPORT_VERSION, "game": game, "made": made, **extra,
        "scenarios": records,
        "score": sum(1 for r in records if r["clause_right"]),
        "total": len(records),
        "verdicts": {v: verdicts.get(v, 0) for v in VERDICTS},
    }
    if interrupted:
        report["interrupted"] = {"scenarios_in_run": of, "answered": _answered(records)}
    return report


def export_hint(game: str, made: dict[str, Any]) -> str:
    """The command that writes a generated run's scenarios as logs."""
    clauses = f" --clauses {made['clauses']}" if made.get("clauses") else ""
    return f"`paiju train export --game {game} --seed {made['seed']} --count {made['count']}{clauses} DIR`"


def _print_score(report: dict[str, Any], stdout: TextIO) -> None:
    counts = report["verdicts"]
    detail = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
    stopped = (f" (interrupted: {report['total']} of {counted(report['interrupted']['scenarios_in_run'], 'scenario')} reached)"
               if "interrupted" in report else "")
    print(f"score: {report['score']} of {report['total']} clauses right ({detail or 'nothing graded'}){stopped}", file=stdout)
