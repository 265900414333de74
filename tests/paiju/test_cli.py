"""The command line as a newcomer meets it (issue 14, item 8), through the real `paiju` in
subprocesses: --version, bare `paiju`, every command's --help (each argument described, an
example), one-line errors naming the right (nested) command, `rules GAME CLAUSE`, `rules GAME
--options`, and gzip logs known by their bytes whatever their name."""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from enforcement.rulebook import GAMES, clause, clauses_for
from paiju.cli import build_parser
from paiju.sim.command import parse_rule_overrides
from tabletop.games import game_spec
from tabletop.log import holds_gzip
from tabletop.options import describe_options

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GD_LOG = GOLDEN / "replay_guandan_deal_seed3.jsonl"


def paiju(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paiju.cli", *args], capture_output=True, text=True, **kwargs)


def run_all(argvs: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """Run several `paiju` invocations at once (each its own process)."""
    started = [(argv, subprocess.Popen([sys.executable, "-m", "paiju.cli", *argv], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)) for argv in argvs]
    done = []
    for argv, process in started:
        out, err = process.communicate(timeout=300)
        done.append(subprocess.CompletedProcess(argv, process.returncode, out, err))
    return done


def test_version_prints_the_installed_version_and_the_build():
    from paiju.build import description

    done = paiju("--version")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"paiju {metadata.version('paiju')} ({description()})\n"


def test_bare_paiju_prints_the_usage_and_every_command_and_exits_2():
    done = paiju()
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: paiju")
    commands = _subparsers(build_parser())[0].choices
    assert set(commands) == {"simulate", "rules", "replay", "train", "fuzz", "tournament", "ogd"}
    for name in commands:
        assert re.search(rf"^\s+{name}\s+\S", done.stderr, flags=re.M), name   # listed with its help
    assert "paiju COMMAND --help" in done.stderr


# --- --help of every command ------------------------------------------------------------------

def _subparsers(parser: argparse.ArgumentParser) -> list[argparse._SubParsersAction]:
    return [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]


def _commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every (sub)command, nested ones too: (its words, its parser)."""
    out = [(words, parser)]
    for action in _subparsers(parser):
        for name, sub in action.choices.items():
            out += _commands(sub, (*words, name))
    return out


COMMANDS = _commands(build_parser())


def test_the_walk_reaches_every_command_and_the_nested_one():
    assert {words for words, _ in COMMANDS} >= {(), ("simulate",), ("rules",), ("replay",), ("train",),
                                                  ("train", "export"), ("fuzz",)}


def test_every_command_describes_each_argument_and_ends_with_examples():
    helps = run_all([[*words, "--help"] for words, _ in COMMANDS])
    for (words, parser), done in zip(COMMANDS, helps):
        name = " ".join(("paiju", *words))
        assert done.returncode == 0 and done.stderr == "", name
        text = done.stdout
        for action in parser._actions:
            assert action.help and action.help.strip() and action.help != argparse.SUPPRESS, \
                f"{name}: {action.option_strings or action.dest} has no help text"
            for option in action.option_strings:
                assert option in text, f"{name} --help does not show {option}"
        examples = text.split("\nexamples:\n", 1)
        assert len(examples) == 2, f"{name} --help has no examples"
        lines = [line.strip() for line in examples[1].splitlines() if line.strip()]
        assert lines and all(line.startswith("paiju ") for line in lines), f"{name}: {lines}"
        if words:   # a command's examples run that command
            assert any(line.startswith(f"{name} ") for line in lines), f"{name}: {lines}"


# --- usage errors -------------------------------------------------------------------------------

ERRORS = [
    (["simulate", "guandan", "--bogus"], "simulate: unrecognized arguments: --bogus"),
    (["simulate"], "simulate: the following arguments are required: game"),
    (["rules"], "rules: the following arguments are required: game"),
    (["rules", "guandan", "--bogus"], "rules: unrecognized arguments: --bogus"),
    (["replay"], "replay: the following arguments are required: LOG"),
    (["train", "export"], "train export: the following arguments are required: OUT_DIR"),
    (["train", "export", "--bogus", "out"], "train export: unrecognized arguments: --bogus"),
    (["train", "export", "--count", "x", "out"], "train export: argument --count: not a whole number: 'x'"),
    (["fuzz", "--deals", "-1"], "fuzz: argument --deals: must be at least 1, got -1"),
    (["bogus"], "argument COMMAND: invalid choice: 'bogus'"),
]


def test_usage_errors_are_one_line_naming_the_command_they_were_given_to():
    for (argv, expected), done in zip(ERRORS, run_all([argv for argv, _ in ERRORS])):
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stdout == "", argv
        assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"paiju: error: {expected}"), \
            (argv, done.stderr)
        assert done.stderr.count("paiju") == 1, (argv, done.stderr)   # no doubled prefix


# --- rules GAME CLAUSE, rules GAME --options ------------------------------------------------------

def test_rules_clause_shows_one_clause_in_full():
    out_of_turn, lots = run_all([["rules", "guandan", "GD-2.3.1"], ["rules", "shengji", "--clause", "SJ-1.6"]])
    assert out_of_turn.returncode == 0 and out_of_turn.stderr == ""
    text = out_of_turn.stdout
    c = clause("GD-2.3.1")
    flat = re.sub(r"\s+", "", text)   # the columns wrap the long texts
    for label in ("clause:", "中文:", "summary:", "trigger:", "rectification:", "allowed effects:", "sanction:"):
        assert re.search(rf"^{label}", text, flags=re.M), label
    assert re.sub(r"\s+", "", c.text_zh) in flat
    assert re.sub(r"\s+", "", c.summary) in flat
    assert c.trigger.key in text and re.sub(r"\s+", "", c.rectification.text) in flat
    assert lots.returncode == 0
    ladder = lots.stdout.split("sanction:", 1)[1].splitlines()
    assert [line.strip() for line in ladder[:3]] == ["1st: none", "2nd and later: 警告 warning",
                                                      "occurrences counted per side, per match"]
    assert "（六）同伴之间同时亮主" in lots.stdout


def test_rules_clause_errors_are_one_line():
    cases = [(["rules", "guandan", "GD-99"], "no clause 'GD-99'"),
             (["rules", "guandan", "SJ-1.6"], "clause SJ-1.6 is a shengji clause, not guandan"),
             (["rules", "shengji", "GD-2.3.1"], "clause GD-2.3.1 is a guandan clause, not shengji"),
             (["rules", "guandan", "GD-2.1", "--options"], "rules: a CLAUSE or --options, not both")]
    for (argv, expected), done in zip(cases, run_all([argv for argv, _ in cases])):
        assert done.returncode == 2 and done.stdout == "", argv
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("paiju: error: ") and expected in done.stderr, \
            (argv, done.stderr)


def test_rules_options_lists_every_option_with_type_default_and_allowed_values():
    games = list(GAMES)   # the built-in games (a test may have registered a toy one in this process)
    for game, done in zip(games, run_all([["rules", game, "--options"] for game in games])):
        assert done.returncode == 0 and done.stderr == "", game
        rules = game_spec(game).rules_from_dict({})
        options = describe_options(rules)
        assert f"{len(options)} rules options" in done.stdout
        blocks = done.stdout.split("\n\n", 1)[1]
        assert [line for line in blocks.splitlines() if not line.startswith(" ")] == [o.name for o in options]
        for option in options:
            assert f"type: {option.type}; default: {option.default}; allowed: {option.allowed}" in done.stdout
            assert option.help, f"{game}.{option.name} has no help"
            assert option.allowed != "any", f"{game}.{option.name}: its validator names no allowed values"


@pytest.mark.parametrize("game", GAMES)
def test_each_listed_default_reads_back_as_the_default(game):
    """What --options shows is what --rules takes: NAME=DEFAULT gives the default rules."""
    spec = game_spec(game)
    rules = spec.rules_from_dict({})
    items = [f"{o.name}={o.default}" for o in describe_options(rules)]
    assert spec.rules_from_dict(parse_rule_overrides(items, rules.to_dict())) == rules


def test_every_clause_of_each_game_shows_in_full():
    """No clause breaks the full view (in process: 100 clauses)."""
    from paiju.rules_cmd import clause_text

    for game in GAMES:
        for c in clauses_for(game):
            text = clause_text(game, c.id, width=80)
            assert text.startswith(f"clause:          {c.id} ") and "sanction:" in text


# --- gzip logs by their bytes --------------------------------------------------------------------

def test_a_log_is_read_as_gzip_by_its_bytes_whatever_its_name(tmp_path):
    plain = GD_LOG.read_bytes()
    disguised = tmp_path / "compressed-but-named.jsonl"
    disguised.write_bytes(gzip.compress(plain))
    misnamed = tmp_path / "plain-but-named.jsonl.gz"
    misnamed.write_bytes(plain)
    assert holds_gzip(disguised) and not holds_gzip(misnamed)
    checks = run_all([["replay", str(GD_LOG), "--check"], ["replay", str(disguised), "--check"],
                      ["replay", str(misnamed), "--check"], ["replay", str(GD_LOG), "--at", "40"],
                      ["replay", str(disguised), "--at", "40"], ["replay", str(misnamed), "--at", "40"]])
    for done in checks:
        assert done.returncode == 0, (done.args, done.stderr)
        assert done.stderr == "", done.args
    assert checks[0].stdout == checks[1].stdout == checks[2].stdout
    assert checks[3].stdout == checks[4].stdout == checks[5].stdout and "seat" in checks[3].stdout


def test_train_from_reads_a_gzip_log_by_its_bytes(tmp_path):
    pack = tmp_path / "pack"
    made = paiju("train", "export", "--game", "guandan", "--count", "2", "--clauses", "GD-2.3.1", str(pack))
    assert made.returncode == 0, made.stderr
    logs = sorted(pack.glob("*.jsonl"))
    assert logs
    for log in logs:   # compress each log under its own .jsonl name
        log.write_bytes(gzip.compress(log.read_bytes()))
    answers = tmp_path / "answers.txt"
    answers.write_text("GD-2.3.1\n" * len(logs), encoding="utf-8")
    done = paiju("train", "--from", str(pack), "--answers", str(answers))
    assert done.returncode == 0, done.stderr
    assert f"score: {len(logs)} of {len(logs)} clauses right" in done.stdout, done.stdout


class _InterruptedImport:
    """A finder that raises KeyboardInterrupt when one module is imported (Ctrl-C while loading)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, name, path=None, target=None):
        if name == self.name:
            raise KeyboardInterrupt
        return None


def test_ctrl_c_while_the_program_loads_is_one_line_and_exit_130(monkeypatch, capsys):
    import paiju.__main__ as entry
    import paiju.cli as cli

    monkeypatch.delitem(sys.modules, "paiju.cli")
    monkeypatch.setattr(sys, "meta_path", [_InterruptedImport("paiju.cli"), *sys.meta_path])
    assert entry.main() == 130
    assert capsys.readouterr().err == "paiju: interrupted\n"

    monkeypatch.setattr(sys, "meta_path", [m for m in sys.meta_path if not isinstance(m, _InterruptedImport)])
    def interrupted(only: object = None) -> None:
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "build_parser", interrupted)   # while the commands' modules load
    assert cli.main(["simulate", "guandan"]) == 130
    assert capsys.readouterr().err == "paiju: interrupted\n"


def test_the_paiju_command_and_python_m_paiju_run_the_same_entry():
    scripts = metadata.distribution("paiju").entry_points.select(group="console_scripts")
    assert [e.value for e in scripts if e.name == "paiju"] == ["paiju.__main__:main"]
    done = subprocess.run([sys.executable, "-m", "paiju", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("paiju "), done.stdout + done.stderr
