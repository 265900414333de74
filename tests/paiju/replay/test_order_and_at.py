"""The replay's table follows the table, and `--at` says what the log has (issue 14 item 5):

- an out-of-turn play that stands takes its place in the round where it was laid, before the
  play made on it; a pass on it is void and never joins the round;
- after a redeal the table shows only the new face-up card (the spoilt draw's stayed);
- `--at` errors give the bounds of the unit asked about, and a unit the log lacks is named.

The logs are real refereed deals from `paiju simulate` (subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from paiju.replay.fold import Fold
from paiju.replay.view import open_log


def simulate(tmp: Path, name: str, *argv: str) -> Path:
    log = tmp / name
    subprocess.run([sys.executable, "-m", "paiju.cli", "simulate", *argv, "--log", str(log), "--quiet"],
                   check=True, capture_output=True, text=True)
    return log


def replay(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paiju.cli", "replay", *map(str, argv)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("logs")
    return {
        # seed 3: seat 1 bombs out of turn, seat 2 passes on it: taken back (GD-2.3.1); later
        # seat 3 plays out of turn, seat 0 plays on it: both stand (GD-2.3.2)
        "out_of_turn": simulate(tmp, "oot.jsonl", "guandan", "--deals", "1", "--seed", "3", "--referee",
                                "--infractions", "0.05"),
        # seed 7: deal 4 is short a card, redealt from a fresh deck (GD-1.2)
        "redeal": simulate(tmp, "redeal.jsonl", "guandan", "--deals", "5", "--seed", "7", "--referee",
                           "--infractions", "0.1"),
        "three": simulate(tmp, "three.jsonl", "guandan", "--deals", "3", "--seed", "1"),
    }


def test_GD_2_3_2_an_out_of_turn_play_that_stands_comes_before_the_play_made_on_it(logs: dict[str, Path]) -> None:
    log = open_log(str(logs["out_of_turn"]))
    fold = Fold(log)
    events = log.events
    checked = 0
    for step in fold.steps():
        event = events[step.last]
        if event.KIND != "gd.play_stands" or "play on it stands" not in event.reason:
            continue
        attempt = max(e.seq for e in events[:step.last] if e.KIND == "gd.irregular"
                      and e.irregularity == "play_out_of_turn")
        answer = next(e.seq for e in events[:step.last] if e.KIND == "gd.played" and e.seat == event.seat
                      and attempt < e.seq)
        entries = fold.table.pile.entries
        order = [(x.seat, x.seq) for x in entries]
        seqs = [x.seq for x in entries]
        assert attempt in seqs and answer in seqs and seqs.index(attempt) < seqs.index(answer), order
        assert seqs == sorted(seqs)
        checked += 1
    assert checked, "the deal has an out-of-turn play that stands"
    shown = replay(logs["out_of_turn"], "--at", "0:239").stdout
    assert shown.index("3: ♠Q") < shown.index("▶0: ♥K")


def test_GD_2_3_1_the_pass_on_an_out_of_turn_play_is_void_in_the_round(logs: dict[str, Path]) -> None:
    # seed 3: seat 1 bombs out of turn, seat 2 passes on it (seq 134): no 跟牌, the bomb is taken
    # back and the pass never joins the round
    shown = replay(logs["out_of_turn"], "--at", "0:141").stdout
    assert "seat 2 passes on the out-of-turn cards" in shown and "RULING GD-2.3.1" in shown
    fold = Fold(open_log(str(logs["out_of_turn"])))
    for step in fold.steps():
        if step.last >= 141:
            break
    assert 134 not in [x.seq for x in fold.table.pile.entries]


def test_after_a_redeal_only_the_new_face_up_card_is_shown(logs: dict[str, Path]) -> None:
    log = open_log(str(logs["redeal"]))
    fold = Fold(log)
    events = log.events
    redealt = False
    checked = 0
    for step in fold.steps():
        kind = events[step.last].KIND
        if kind == "gd.redeal":
            redealt = True
            assert not any("face-up" in note for note in fold.table.notes)
        if redealt and kind == "gd.face_up":
            face_up = [note for note in fold.table.notes if note.startswith("face-up card")]
            assert len(face_up) == 1, fold.table.notes
            checked += 1
            redealt = False
    assert checked, "the log has a redeal"
    seq = next(e.seq for e in events if e.KIND == "gd.redeal")
    unit = sum(1 for e in events[:next(k for k, e in enumerate(events) if e.KIND == "gd.redeal")]
               if e.KIND == "unit") - 1
    shown = replay(logs["redeal"], "--at", f"{unit}:{seq + 10}").stdout
    assert shown.count("face-up card") == 2  # the step line and the table's note: one card


@pytest.mark.parametrize(("at", "message"), [
    ("9:5", "--at 9:5: no unit 9 (the log has units 0-2)"),
    ("1:99999", "--at 1:99999: no event 99999 in unit 1 (its sequence numbers run 0-"),
    ("99999", "--at 99999: no event with sequence number 99999 in any unit (sequence numbers run 0-"),
    ("5", "--at 5: sequence number 5 occurs in units 0, 1, 2; say which, e.g. --at 0:5"),
])
def test_at_errors_name_the_unit_and_its_bounds(logs: dict[str, Path], at: str, message: str) -> None:
    done = replay(logs["three"], "--at", at)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert message in done.stderr
    if at == "1:99999":
        last = max(e.seq for e in _unit(open_log(str(logs["three"])), 1))
        assert f"run 0-{last})" in done.stderr


def _unit(log, index: int) -> list:  # type: ignore[no-untyped-def]
    unit = None
    out = []
    for e in log.events:
        if e.KIND == "unit":
            unit = e.index
        if unit == index:
            out.append(e)
    return out
