"""A refereed 掼蛋 summary says what the table did in the referee's words (issue 26 item 6):
sanctions by their terms (判双下, 扣 2 个级差分 …, from ``paiju.wording``) counted as the log
has them, and the tribute after a 双下 as the table paid it — double after a 1-2 by play,
none after a 判双下 (GD-5.2)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from paiju.cli import main
from paiju.wording import sanction_words
from tabletop.log import read_log

CLASS_NAMES = ("ForcedDoubleLast", "ForcedLast", "LevelDiffPenalty", "Warning ×", "AdjustedScore")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list]:
    log = tmp_path_factory.mktemp("summary") / "gd.jsonl"
    import io
    import contextlib

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["simulate", "guandan", "--matches", "4", "--seed", "7", "--referee", "--infractions", "0.05",
                     "--log", str(log)]) == 0
    return out.getvalue(), list(read_log(log).events)


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_GD_5_sanctions_by_side_in_the_referees_words_as_the_log_counts_them(run) -> None:
    text, events = run
    section = text.split("sanctions by side")[1].split("results changed by rulings")[0]
    for name in CLASS_NAMES:
        assert name not in section
    counts: dict[int, Counter] = {0: Counter(), 1: Counter()}
    for e in events:
        if e.KIND == "ref.ruling":
            for row in e.sanctions:
                counts[e.side][sanction_words(row["sanction"])] += 1
    assert any("判双下" in w for w in counts[1]) and any(w.startswith("扣 2 个级差分") for w in counts[0])
    for side, said in counts.items():
        row = flat(section.split(f"side {side} ")[1].split("side 1 ")[0])
        for words, n in said.items():
            assert flat(f"{words} ×{n}") in row, (side, words, n)


def test_GD_5_2_no_tribute_after_a_forced_double_last_double_tribute_after_a_1_2_by_play(run) -> None:
    text, events = run
    assert "double tribute (after a 1-2 by play: 双下)" in text
    assert flat("waived: no tribute after a 判双下 (a 双下 imposed by a ruling, GD-5.2)") in flat(text)
    deals: list[list] = []
    for e in events:
        if e.KIND in ("unit", "gd.deal_started"):
            deals.append([] if e.KIND == "gd.deal_started" else [e])
        deals[-1].append(e)
    seen = Counter()
    for before, deal in zip(deals, deals[1:]):
        if any(e.KIND == "unit" for e in deal):
            continue                                          # a new match: no tribute in its first deal
        forced_double = any(e.KIND == "ref.ruling" and any(r["sanction"]["kind"] == "ForcedDoubleLast"
                                                           for r in e.sanctions) for e in before)
        due = [e for e in deal if e.KIND == "gd.tribute_due"]
        if forced_double:                                     # 判双下: no tribute at all
            assert not due and any(e.KIND == "gd.tribute_waived" for e in deal)
            seen["forced"] += 1
        elif due and due[0].double:                           # a 1-2 by play: double tribute
            scored = [e for e in before if e.KIND == "gd.scored"][-1]
            assert scored.levels == 3
            seen["double"] += 1
    assert seen["forced"] and seen["double"]
