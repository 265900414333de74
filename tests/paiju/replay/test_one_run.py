"""A view of a log (`paiju replay LOG`, ``--at``, ``--html``) runs the log through its engine
once: the run that draws it is ``check_log``'s own pass (``paiju.replay.check.CheckRun``),
which also gives the view's warning when the log does not ``--check --logged-rulings``. A log
that does not reproduce is still drawn past the difference (run again from its start the
lenient way, ``paiju.replay.rerun.rerun``), and warned of in the check's own words."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest

from paiju.cli import main
from paiju.replay import check, rerun
from paiju.replay.check import check_log, log_unit_indices
from tabletop.log import read_log

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
LOGS = ["golden_guandan_match_refereed_seed48.jsonl", "golden_shengji_match_refereed_seed10.jsonl"]
MODES = [[], ["--at", "MIDDLE"], ["--html", "PAGE"], ["--seat", "1", "--at", "MIDDLE"]]


@pytest.fixture
def engine_runs(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts the units started and the actions applied by any engine the replay makes."""
    counts = {"units": 0, "applied": 0}

    def counting(real: Any) -> Any:
        def start_unit(*args: Any, **kwargs: Any) -> Any:
            engine, started = real(*args, **kwargs)
            apply = engine.apply

            def applied(action: Any) -> Any:
                counts["applied"] += 1
                return apply(action)

            engine.apply = applied
            counts["units"] += 1
            return engine, started
        return start_unit

    for module in (check, rerun):
        monkeypatch.setattr(module, "start_unit", counting(module.start_unit))
    return counts


def _one_check(path: Path, engine_runs: dict[str, int]) -> dict[str, int]:
    """What one ``check_log`` pass over the log counts (then the counts start again)."""
    log = read_log(path, allow_truncated=True)
    check_log(log, logged_rulings=True)
    once = dict(engine_runs)
    engine_runs.update(units=0, applied=0)
    assert once["units"] == len(log_unit_indices(log)) and once["applied"] > 100
    return once


def _args(mode: list[str], path: Path, tmp_path: Path) -> list[str]:
    events = read_log(path, allow_truncated=True).events
    middle = str(events[len(events) // 2].seq)
    return [a.replace("MIDDLE", middle).replace("PAGE", str(tmp_path / "page.html")) for a in mode]


def _late_edit(tmp_path: Path, name: str) -> tuple[Path, int]:
    """The log with one drawn card changed past its middle, and that line's number."""
    lines = (GOLDEN / name).read_text().splitlines(keepends=True)
    at = next(i for i in range(len(lines) // 2, len(lines)) if '"card":"' in lines[i])
    card = lines[at].split('"card":"')[1][:2]
    lines[at] = lines[at].replace(f'"card":"{card}"', f'"card":"{"S2" if card != "S2" else "S3"}"')
    edited = tmp_path / f"edited-{name}"
    edited.write_text("".join(lines))
    return edited, at + 1


@pytest.mark.parametrize("mode", MODES, ids=["listing", "at", "html", "seat-at"])
@pytest.mark.parametrize("name", LOGS)
def test_a_log_that_reproduces_goes_through_its_engine_once(name, mode, engine_runs, tmp_path, capsys):
    path = GOLDEN / name
    once = _one_check(path, engine_runs)
    assert main(["replay", str(path), *_args(mode, path, tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out
    assert engine_runs == once   # the same units and actions as the check alone: one run


@pytest.mark.parametrize("mode", MODES[:3], ids=["listing", "at", "html"])
def test_the_prefix_of_an_interrupted_run_goes_through_its_engine_once(mode, engine_runs, tmp_path, capsys):
    lines = (GOLDEN / LOGS[0]).read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:len(lines) * 2 // 3]))
    once = _one_check(cut, engine_runs)
    assert main(["replay", str(cut), *_args(mode, cut, tmp_path)]) == 0
    assert capsys.readouterr().err == ""   # the prefix checks: no warning
    assert engine_runs == once


@pytest.mark.parametrize("name", LOGS)
def test_a_log_that_does_not_reproduce_is_warned_of_in_every_view_and_drawn_past_the_difference(
        name, engine_runs, tmp_path, capsys):
    edited, line = _late_edit(tmp_path, name)
    said = check_log(read_log(edited), logged_rulings=True).message.splitlines()[0]
    assert said == f"line {line} differs:"
    warning = (f"{edited} does not --check --logged-rulings (line {line} differs): "
               "the view shows what the log says, not what the game gives")
    original = GOLDEN / name
    past = ["--at", str(read_log(edited).events[line - 2 + 3].seq)]   # a step just past the difference

    for mode in ([], past, ["--seat", "2"]):
        assert main(["replay", str(original), *mode]) == 0
        shown, _ = capsys.readouterr()
        engine_runs.update(units=0)
        assert main(["replay", str(edited), *mode]) == 0
        out, err = capsys.readouterr()
        assert err == f"paiju: warning: {warning}\n"
        # a drawn card is one of a run of them: the steps and tables past it are the engine's, as before
        assert out == shown
        assert engine_runs["units"] > 1   # the check stopped at the difference; the drawing went on

    page = tmp_path / "edited.html"
    assert main(["replay", str(edited), "--html", str(page)]) == 0
    out, err = capsys.readouterr()
    assert err == f"paiju: warning: {warning}\n" and out.startswith(f"wrote {page} ")
    assert f'<p id="log-warning" role="alert">{html.escape(warning)}</p>' in page.read_text()


def test_a_header_the_engine_does_not_take_is_warned_of_once_the_view_is_drawn(tmp_path, capsys):
    lines = (GOLDEN / LOGS[0]).read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0].replace('"rules":{', '"rules":{"no_such_rule":1,', 1) + "".join(lines[1:]))
    for mode in ([], ["--at", "40"], ["--html", str(tmp_path / "bad.html")]):
        assert main(["replay", str(bad), *mode]) == 0
        out, err = capsys.readouterr()
        assert err.startswith(f"paiju: warning: {bad} does not --check --logged-rulings: unknown GuandanRules option")
        assert err.count("\n") == 1 and out
