"""A campaign interrupted (a real SIGINT) at any moment resumes and ends as an uninterrupted
one, and what the interrupted run says it kept is what it saved (issue 17, campaigns).

Cases are played once and then reused (the evaluation is a pure function of the case), and
generations are of four cases, so that the signal can land at every line of the campaign
code in turn within seconds."""

from __future__ import annotations

import json
import os
import re
import signal
import sys


import paiju.fuzz.campaign as campaign
from paiju.cli import main

CODE = os.path.abspath(campaign.__file__)
PLAYED: dict = {}


def _played_once(case, replay_rate=0.0, coverage=None):
    if case not in PLAYED:
        PLAYED[case] = _EVALUATE(case, replay_rate, coverage)
    return PLAYED[case]


_EVALUATE = campaign.evaluate


def _argv(directory):
    return ["fuzz", "--game", "shengji", "--deals", "10", "--seed", "3", "--guided", "--campaign", str(directory),
            "--quiet"]


class _SignalAt:
    """A trace that counts the lines run in ``paiju.fuzz.campaign`` (where generations are
    played, taken and saved) and sends this process SIGINT
    at line ``at`` (``at`` 0: never)."""

    def __init__(self, at: int) -> None:
        self.at, self.lines = at, 0

    def __enter__(self):
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc):
        sys.settrace(None)

    def _call(self, frame, event, arg):
        return self._line if frame.f_code.co_filename == CODE else None

    def _line(self, frame, event, arg):
        if event == "line":
            self.lines += 1
            if self.lines == self.at:
                signal.raise_signal(signal.SIGINT)
        return self._line


def _state(directory):
    path = directory / "state.json"
    if not path.exists():
        return None
    state = json.loads(path.read_text(encoding="utf-8"))
    state.pop("seconds")
    return state


def test_a_campaign_interrupted_at_any_line_resumes_to_the_same_end(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(campaign, "BATCH", 4)
    monkeypatch.setattr(campaign, "evaluate", _played_once)
    with _SignalAt(0) as counted:
        assert main(_argv(tmp_path / "whole")) == 0
    whole = _state(tmp_path / "whole")
    assert whole["cases"] == 10 and whole["generation"] == 3
    capsys.readouterr()
    step = max(1, counted.lines // 30)
    interrupted = 0
    for at in range(1, counted.lines + 1, step):
        cut = tmp_path / f"cut{at}"
        with _SignalAt(at):
            code = main(_argv(cut))
        err = capsys.readouterr().err
        saved = _state(cut)
        said = re.search(r"interrupted after (\d+) of 10 cases", err)
        if said:   # the run says what it kept: the cases of the generations it saved
            interrupted += 1
            assert code == 130 and int(said.group(1)) == (saved["cases"] if saved else 0), (at, err)
        assert main(_argv(cut)) == 0, (at, capsys.readouterr().err)
        capsys.readouterr()
        assert _state(cut) == whole, at
    assert interrupted >= 25
