"""Rules options are checked when they are parsed — on the command line, in a log header, in
the library — with one line naming the option, the value and what is allowed (issue 14,
item 1)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from guandan.rules import GuandanRules
from shengji.rules import ShengjiRules
from tabletop.errors import OptionError


@pytest.mark.parametrize("game, option, message", [
    ("guandan", "a_failures_reset=banana", "a_failures_reset must be a whole number of at least 1 (or none), got 'banana'"),
    ("guandan", "match_deals=0", "match_deals must be a whole number of at least 1, got 0"),
    ("guandan", "match_deals=-3", "match_deals must be a whole number of at least 1, got -3"),
    ("guandan", "max_deals=0", "max_deals must be a whole number of at least 1, got 0"),
    ("guandan", "joker_pair_in_full_house=3", "joker_pair_in_full_house must be true or false, got 3"),
    ("shengji", "max_deals=0", "max_deals must be a whole number of at least 1, got 0"),
])
def test_a_bad_rules_option_is_a_one_line_error_and_nothing_is_written(tmp_path, game, option, message):
    log = tmp_path / "run.jsonl"
    done = subprocess.run([sys.executable, "-m", "paiju.cli", "simulate", game, "--deals", "2", "--rules", option,
                           "--log", str(log), "--quiet"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert not log.exists()


def test_the_library_checks_the_same():
    with pytest.raises(OptionError, match="match_deals must be a whole number of at least 1, got 0"):
        GuandanRules(match_deals=0)
    with pytest.raises(OptionError, match="a_failures_reset"):
        GuandanRules.from_dict({"a_failures_reset": "3"})
    assert GuandanRules(a_failures_reset=None).a_failures_reset is None
    with pytest.raises(OptionError, match="max_deals"):
        ShengjiRules.from_dict({"max_deals": True})


def test_a_forged_rules_header_is_a_one_line_error(tmp_path):
    log = tmp_path / "run.jsonl"
    subprocess.run([sys.executable, "-m", "paiju.cli", "simulate", "guandan", "--deals", "1", "--log", str(log),
                    "--quiet"], check=True, capture_output=True)
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["rules"]["max_deals"] = -1
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "paiju.cli", "replay", str(log), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "max_deals must be a whole number of at least 1, got -1" in done.stderr, done.stderr


def test_a_text_option_keeps_its_word():
    """``no`` is a word for 双升's pair_vs_pair, not false (each value is read as its option's type)."""
    from paiju.sim.command import parse_rule_overrides

    defaults = ShengjiRules().to_dict()
    assert parse_rule_overrides(["pair_vs_pair=no", "permanent_twos=yes", "max_deals=9"], defaults) == \
        {"pair_vs_pair": "no", "permanent_twos": True, "max_deals": 9}
    assert ShengjiRules.from_dict(parse_rule_overrides(["pair_vs_pair=no"], defaults)).pair_vs_pair == "no"


@pytest.mark.parametrize("argv, line", [
    (["simulate", "guandan", "--bogus"], "paiju: error: simulate: unrecognized arguments: --bogus\n"),
    (["simulate"], "paiju: error: simulate: the following arguments are required: game\n"),
    (["fuzz", "--game", "guandan", "--bogus"], "paiju: error: fuzz: unrecognized arguments: --bogus\n"),
])
def test_usage_errors_name_the_subcommand_once(argv, line):
    done = subprocess.run([sys.executable, "-m", "paiju.cli", *argv], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr == line


def test_counts_in_summaries_agree_with_their_noun():
    from paiju.games import counted, unit_noun

    assert [counted(n, unit_noun("matches")) for n in (0, 1, 2)] == ["0 matches", "1 match", "2 matches"]
    assert [counted(n, unit_noun("deals")) for n in (1, 3)] == ["1 deal", "3 deals"]
    assert counted(1, "level") == "1 level"
    done = subprocess.run([sys.executable, "-m", "paiju.cli", "simulate", "guandan", "--deals", "1", "--quiet"],
                          capture_output=True, text=True)
    assert "掼蛋: 1 deal at level 2" in done.stdout and "1 deal in " in done.stdout, done.stdout
