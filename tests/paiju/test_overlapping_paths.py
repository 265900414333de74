"""No command writes an output onto one of its inputs, or two outputs onto one file
(issue 29, item 1): the command line's paths are compared (resolved, and by inode when
both exist) before anything runs — a one-line error, exit 2, every file as it was."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.paiju.interrupt import PAIJU


def _paiju(*argv: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([*PAIJU, *argv], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    directory = tmp_path_factory.mktemp("overlap")
    path = directory / "gd.jsonl"
    subprocess.run([*PAIJU, "simulate", "guandan", "--deals", "1", "--log", str(path), "--quiet"],
                   check=True, capture_output=True)
    return path


def _refused(done: subprocess.CompletedProcess, words: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_replay_html_onto_its_own_log_is_refused_and_the_log_stays(log):
    before = log.read_bytes()
    _refused(_paiju("replay", log.name, "--html", log.name, cwd=log.parent), "--html 'gd.jsonl' is the input LOG")
    assert log.read_bytes() == before


def test_a_link_to_the_input_is_the_input(log, tmp_path):
    before = log.read_bytes()
    os.symlink(log, tmp_path / "soft.jsonl")
    os.link(log, tmp_path / "hard.jsonl")
    for name in ("soft.jsonl", "hard.jsonl", f"../{tmp_path.name}/hard.jsonl"):
        _refused(_paiju("replay", str(log), "--html", name, cwd=tmp_path), "is the input LOG")
    assert log.read_bytes() == before


@pytest.mark.parametrize("argv, words", [
    (["simulate", "guandan", "--deals", "2", "--log", "x.jsonl.gz", "--summary", "./x.jsonl.gz"],
     "--log and --summary are the same file"),
    (["fuzz", "--repro", "gd.jsonl", "--out", "gd.jsonl"], "--out 'gd.jsonl' is the input --repro"),
    (["simulate", "guandan", "--deals", "1", "--agents", "random,./gd.jsonl:Bot", "--summary", "gd.jsonl"],
     "--summary 'gd.jsonl' is the input --agents"),   # an agent's file is read too
    (["fuzz", "--game", "guandan", "--deals", "2", "--holes", "h.md", "--report", "./h.md"],
     "--holes and --report are the same file"),
    (["fuzz", "--game", "guandan", "--deals", "2", "--campaign", "c", "--out", "c/"],
     "--out and --campaign are the same file"),
    (["train", "--count", "1", "--answers", "gd.jsonl", "--report", "gd.jsonl"], "is the input --answers"),
    (["train", "export", "--from", ".", "."], "OUT_DIR '.' is the input --from"),
    (["train", "serve", "--from", ".", "--db", "."], "--db '.' is the input --from"),
])
def test_every_command_refuses_an_output_on_an_input_or_on_another_output(log, tmp_path, argv, words):
    os.link(log, tmp_path / "gd.jsonl")
    before = sorted(os.listdir(tmp_path))
    _refused(_paiju(*argv, cwd=tmp_path), words)
    assert sorted(os.listdir(tmp_path)) == before
