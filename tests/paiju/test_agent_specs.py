"""Plug-in agents (`--agents module.path:Name` / `path/to/file.py:Name`): loaded in every
worker, seeded like the built-in agents, one-line errors for every bad spec, and in
refereed play an illegal action is an irregularity the referee rules on."""

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from paiju.agent_specs import AgentSpecError, agent_factory, parse_agents
from paiju.cli import main
from tabletop.log import read_log

ROOT = Path(__file__).resolve().parents[2]

AGENTS = textwrap.dedent('''
    import numpy as np

    class Uniform:
        def __init__(self, rng):
            self.rng = rng

        def act(self, observation, legal_actions):
            return legal_actions[int(self.rng.integers(len(legal_actions)))]

    class Sloppy(Uniform):
        """Now and then answers a 掼蛋 combination of several cards with a single card
        (wrong_kind: an irregular play the referee rules on)."""

        def act(self, observation, legal_actions):
            from guandan.actions import Pass, Play
            top = observation.top
            if (type(legal_actions[0]) is Pass and top is not None and len(top.cards) > 1
                    and observation.hand and self.rng.random() < 0.3):
                card = observation.hand[0]
                return Play(observation.seat, (card,), f"SINGLE {str(card)[1:] if len(str(card)) == 2 and not card.is_joker else card}")
            return super().act(observation, legal_actions)

    class NotHeld(Uniform):
        """Now and then plays a card it does not hold."""

        def act(self, observation, legal_actions):
            from guandan.actions import Play
            from tabletop.cards import Card
            if type(legal_actions[-1]) is Play and self.rng.random() < 0.3:
                missing = next(c for c in ("SA", "HA", "CA", "DA") if Card(c) not in observation.hand)
                return Play(observation.seat, (Card(missing),), None)
            return super().act(observation, legal_actions)

    class NoRng:
        def __init__(self):
            pass

    class NoAct:
        def __init__(self, rng):
            pass

    class Raises(Uniform):
        def act(self, observation, legal_actions):
            raise KeyError("lost\\nits way")

    class Blind(Uniform):
        """Says it never observes: it must be given None, and fails loudly otherwise."""

        observes = False

        def act(self, observation, legal_actions):
            if observation is not None:
                raise ValueError("was given an observation")
            return super().act(observation, legal_actions)

    class FailsToBuild:
        def __init__(self, rng):
            raise RuntimeError("no model file")

    NUMBER = 7
''')


@pytest.fixture
def agents_file(tmp_path):
    path = tmp_path / "plug_agents.py"
    path.write_text(AGENTS, encoding="utf-8")
    return path


def _simulate(capsys, *args):
    code = main(["simulate", *args, "--quiet"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _paiju(*args, cwd):
    """The real command in a subprocess: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "paiju.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)
    return done.returncode, done.stdout, done.stderr


def test_plugin_agent_plays_a_refereed_match_through_the_cli_and_its_irregularities_are_ruled(
        tmp_path, agents_file):
    log, summary = tmp_path / "match.jsonl", tmp_path / "summary.json"
    code, _, err = _paiju("simulate", "guandan", "--matches", "1", "--seed", "4", "--referee", "--quiet",
                          "--agents", f"{agents_file.name}:Sloppy,heuristic", "--rules", "match_end=deals",
                          "--rules", "match_deals=2", "--log", str(log), "--summary", str(summary), cwd=tmp_path)
    assert code == 0, err
    referee = json.loads(summary.read_text())["results"]["referee"]
    assert referee["irregular"] > 0 and referee["rulings"] > 0    # no injector: all from the plug-in
    assert referee["unresolved"] < referee["irregular"]
    events = read_log(log).events
    assert any(e.KIND == "gd.irregular" and e.irregularity == "wrong_kind" and e.seat in (0, 2) for e in events)
    assert _paiju("replay", str(log), "--check", cwd=tmp_path)[0] == 0


def test_in_refereed_play_an_action_no_table_allows_is_a_one_line_error_through_the_cli(tmp_path, agents_file):
    """Cards the seat does not hold cannot be played at any table: not an irregularity to
    rule on, the run stops with a line naming the seat and the spec (exit 2, no traceback)."""
    code, out, err = _paiju("simulate", "guandan", "--deals", "3", "--referee", "--quiet",
                            "--agents", f"{agents_file}:NotHeld,heuristic", cwd=tmp_path)
    assert code == 2 and out == ""
    assert re.fullmatch(rf"paiju: error: deal \d of seed 0 failed: seat [02]'s agent {re.escape(str(agents_file))}:NotHeld "
                        r"chose an illegal action: cards not in hand: \S+\n", err), err


def test_plugin_agents_give_the_same_results_on_any_number_of_workers(tmp_path, capsys, agents_file, monkeypatch):
    monkeypatch.chdir(tmp_path)       # module specs import from the working directory
    runs = []
    for jobs in ("1", "2"):
        summary = tmp_path / f"s{jobs}.json"
        code, _, err = _simulate(capsys, "shengji", "--deals", "6", "--seed", "2", "--jobs", jobs,
                                 "--agents", "plug_agents:Uniform,plug_agents.py:Uniform", "--summary", str(summary))
        assert code == 0, err
        runs.append(json.loads(summary.read_text())["results"])
    assert runs[0] == runs[1] and runs[0]["deals"] == 6


@pytest.mark.parametrize("spec, message", [
    ("nobody", "unknown agent 'nobody' (built in: heuristic, random; or module.path:Name, path/to/file.py:Name)"),
    ("no_such_module_here:Agent", "no module named 'no_such_module_here'"),
    ("{dir}/absent.py:Agent", "no such file '{dir}/absent.py'"),
    ("{file}:Missing", "{file} has no 'Missing'"),
    ("{file}:NUMBER", "NUMBER is not a class or function (it is int 7)"),
    ("{file}:NoRng", "cannot be made as NoRng(rng): TypeError: NoRng.__init__() takes 1 positional argument but 2 were given"),
    ("{file}:NoAct", "NoRng(rng)".replace("NoRng", "NoAct") + " gave a NoAct, which has no act(observation, legal_actions) method"),
    ("{file}:FailsToBuild", "FailsToBuild(rng) raised RuntimeError: no model file"),
    (":Agent", "write module.path:Name or path/to/file.py:Name"),
])
def test_a_bad_spec_is_one_line_and_exit_2(tmp_path, capsys, agents_file, spec, message):
    spec = spec.format(dir=tmp_path, file=agents_file)
    code, _, err = _simulate(capsys, "guandan", "--deals", "2", "--agents", f"heuristic,{spec}")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("paiju: error: ")
    assert message.format(dir=tmp_path, file=agents_file) in err


def test_a_file_that_does_not_load_is_one_line(tmp_path, capsys):
    broken = tmp_path / "broken.py"
    broken.write_text("def oops(:\n", encoding="utf-8")
    code, _, err = _simulate(capsys, "shengji", "--deals", "1", "--agents", f"{broken}:Agent")
    assert code == 2 and err.count("\n") == 1
    assert f"loading {broken} raised SyntaxError" in err


def test_an_illegal_action_in_strict_play_names_the_seat_and_the_spec(capsys, agents_file):
    code, _, err = _simulate(capsys, "guandan", "--deals", "3", "--agents", f"heuristic,{agents_file}:Sloppy")
    assert code == 2
    assert re.fullmatch(rf"paiju: error: deal \d of seed 0 failed: seat [13]'s agent {re.escape(str(agents_file))}:Sloppy "
                        r"chose an illegal action: .*\n", err), err


def test_an_exception_in_a_plugin_agent_is_one_line(capsys, agents_file):
    code, _, err = _simulate(capsys, "shengji", "--deals", "1", "--agents", f"{agents_file}:Raises")
    assert code == 2
    assert re.fullmatch(rf"paiju: error: deal 0 of seed 0 failed: agent {re.escape(str(agents_file))}:Raises "
                        r"\(seat \d\) raised KeyError: 'lost\\nits way'\n", err), err


def test_fuzz_takes_plugin_agents(tmp_path, capsys, agents_file):
    code = main(["fuzz", "--game", "guandan", "--deals", "3", "--agents", f"{agents_file}:Uniform",
                 "--out", str(tmp_path / "out"), "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and "violations: none" in out
    assert main(["fuzz", "--game", "guandan", "--deals", "1", "--agents", "nobody", "--quiet"]) == 2


def test_factory_seeds_agents_from_an_int_a_seed_sequence_or_a_generator(agents_file):
    import numpy as np

    make = agent_factory(f"{agents_file}:Uniform", "guandan")
    draws = [make(seed, 0).agent.rng.integers(1 << 30) for seed in (3, np.random.SeedSequence(3))]
    assert draws[0] == draws[1]
    generator = np.random.default_rng(1)
    assert make(generator, 2).agent.rng is generator and make(generator, 2).seat == 2
    with pytest.raises(AgentSpecError):
        parse_agents("random,nobody", "shengji")
    assert parse_agents("random,heuristic", "shengji") == ("random", "heuristic", "random", "heuristic")


def test_the_guide_agent_runs_as_its_commands_say(tmp_path, capsys, monkeypatch):
    readme = (ROOT / "docs" / "guides" / "agents.md").read_text(encoding="utf-8")
    section = readme.split("## Your own agents", 1)[1].split("\n## ", 1)[0]
    source = next(b for b in re.findall(r"```python\n(.*?)```", section, flags=re.S) if b.startswith("# my_agents.py"))
    (tmp_path / "my_agents.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    commands = [line.split() for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S)
                for line in block.splitlines() if line.startswith("paiju simulate")]
    assert len(commands) == 2
    for command in commands:
        assert main([*command[1:], "--quiet"]) == 0, capsys.readouterr().err


def test_a_relative_file_spec_is_read_from_the_working_directory_of_each_call(tmp_path, monkeypatch):
    game = "guandan"
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "same.py").write_text(
            f"class Agent:\n    WHO = {name!r}\n    def __init__(self, rng):\n        pass\n"
            "    def act(self, observation, legal_actions):\n        return legal_actions[0]\n", encoding="utf-8")
    seen = []
    for name in ("a", "b"):
        monkeypatch.chdir(tmp_path / name)
        seen.append(agent_factory("same.py:Agent", game)(0, 0).agent.WHO)
    assert seen == ["a", "b"]


def test_a_plugin_agent_that_does_not_observe_is_given_none_and_plays_as_it_would(capsys, agents_file):
    """``observes = False`` reaches the runner through the plug-in wrapper; the deals are the
    ones the same picks give with observations."""
    code, blind, err = _simulate(capsys, "guandan", "--deals", "2", "--agents", f"{agents_file}:Blind")
    assert code == 0, err
    code, seeing, err = _simulate(capsys, "guandan", "--deals", "2", "--agents", f"{agents_file}:Uniform")
    assert code == 0, err
    assert blind.split("2 deals in")[0] == seeing.split("2 deals in")[0]
