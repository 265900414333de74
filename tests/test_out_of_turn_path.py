"""How many package files one refereed 掼蛋 out-of-turn play enters (issue 27: at most 20):
seat 2 plays out of turn, its 下家 calls the referee, the rulebook referee rules GD-2.3.1 and
the table carries the ruling out (through the runner's deliver and settle, as a refereed run
does). Counted as every Python function entered in the project's packages, traced with
``sys.settrace`` after the same scenario ran once (imports and first-use caches left out)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from guandan.actions import CallReferee, Play
from tabletop.cards import parse_cards
from tests.enforcement.conftest import RefTable

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tabletop", "guandan", "shengji", "enforcement", "paiju")
MOST_FILES = 20
HANDS = ["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"]


def out_of_turn_play(trace: Any = None) -> RefTable:
    table = RefTable(HANDS)
    table.play(0, "S3", "SINGLE 3")
    sys.settrace(trace)
    try:
        table.do(Play(2, parse_cards("H9 C9"), "PAIR 9"))   # seat 1 was to play
        table.do(CallReferee(3))                              # the offender's 下家 calls the referee
    finally:
        sys.settrace(None)
    return table


def files_entered() -> tuple[set[str], RefTable]:
    out_of_turn_play()   # warm: imports and caches made on first use are not the path
    roots = tuple(str(ROOT / p) + "/" for p in PACKAGES)
    files: set[str] = set()

    def tracer(frame: Any, event: str, arg: Any) -> None:
        name = frame.f_code.co_filename
        if event == "call" and name.startswith(roots):
            files.add(str(Path(name).relative_to(ROOT)))

    return files, out_of_turn_play(tracer)


def test_GD_2_3_1_out_of_turn_play_enters_at_most_20_package_files():
    files, table = files_entered()
    ruling = table.rulings()[-1]
    assert ruling.clause == "GD-2.3.1"
    assert [e["kind"] for e in ruling.rectification] == ["Return", "RestoreOrder", "BarOnePlay", "Expose",
                                                          "LeadOption"]
    assert len(files) <= MOST_FILES, f"{len(files)} package files:\n" + "\n".join(sorted(files))
