"""`paiju replay LOG --html OUT.html`: one self-contained page. The page data (step deltas
that merge back into every table view), its escaping, the atomic write, and — in headless
Chromium, driven by Playwright with Debian's `chromium` — that stepping changes the table
and that "next ruling" shows the ruling's clause id and Chinese text.

The browser test needs `pip install playwright` and `apt-get install chromium` (no
`playwright install`: it uses /usr/bin/chromium); without them it is skipped."""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest

import guandan.events  # noqa: F401  (the event kinds of the golden log)
from tabletop.rulings import RulingEvent as Ruling
from enforcement.rulebook import clause
from paiju.cli import main
from paiju.replay.html import delta, page_data, render_page
from paiju.replay.view import open_log
from paiju.replay.fold import Fold
from tabletop.events import Note
from tabletop.log import encode, encode_event, read_log

GD_LOG = Path(__file__).resolve().parents[2] / "golden" / "replay_guandan_deal_seed3.jsonl"
HOSTILE = "</script><script>window.pwned=1</script><!-- & \u2028"


def ruled_log(tmp_path: Path) -> Path:
    """The golden 掼蛋 deal with a GD-2.3.1 ruling after seq 135 and a note whose text tries
    to break out of the page's script element (seq renumbered, as in a real log)."""
    log = read_log(GD_LOG)
    events = list(log.events)
    index = next(i for i, e in enumerate(events) if e.seq == 135)
    played = events[index]
    events[index + 1:index + 1] = [
        Ruling(deal=played.deal, seq=0, seat=played.seat, clause="GD-2.3.1", offender=played.seat, side=played.seat % 2,
               answers=played.seq, facts=(("next_played", False),), rectification=(), sanctions=(),
               summary=clause("GD-2.3.1").summary),
        Note(deal=played.deal, seq=0, text=HOSTILE),
    ]
    lines = [encode(log.header)]
    for seq, event in enumerate(events):
        lines.append(encode_event(attrs.evolve(event, seq=seq)))
    path = tmp_path / "ruled.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def merge(target, change):
    """The page script's merge, in Python."""
    if not isinstance(change, dict) or not isinstance(target, (dict, list)):
        return change
    out = list(target) if isinstance(target, list) else dict(target)
    for key, value in change.items():
        if isinstance(out, list):
            k = int(key)
            out.extend([None] * (k + 1 - len(out)))   # a JS array grows when assigned past its end
            out[k] = merge(out[k], value)
        else:
            out[key] = merge(out.get(key), value)
    return out


def embedded_data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert match
    return json.loads(match.group(1))


# ---------------------------------------------------------------------------------------------
# The page without a browser


@pytest.mark.parametrize("viewer", [None, 3])
def test_step_deltas_merge_back_into_every_table_view(tmp_path, viewer):
    log = read_log(ruled_log(tmp_path))
    data = page_data(log, viewer)
    fold = Fold(log, viewer)
    state: dict = {}
    for frame, step in zip(data["frames"], fold.steps(), strict=True):
        state = merge(state, frame["x"])
        view = json.loads(json.dumps(fold.table.view(), ensure_ascii=False))
        for ruling in view["rulings"]:      # the page cites each clause's texts once
            assert data["clauses"][ruling["clause"]] == {k: ruling.pop(k) for k in ("title", "text_zh", "summary")}
        assert state == view, step.label
        assert frame["l"] == step.label and frame["t"] == step.text
    assert state["rulings"][0]["clause"] == "GD-2.3.1"


def test_delta_of_lists_of_dicts_is_by_index_and_appends():
    old = {"seats": [{"hand": "SA", "n": 1}, {"hand": "H2", "n": 1}], "notes": ["a"], "gone": 1,
           "rulings": [{"clause": "GD-4.1"}]}
    new = {"seats": [{"hand": "SA", "n": 1}, {"hand": "", "n": 0}], "notes": ["a", "b"],
           "rulings": [{"clause": "GD-4.1"}, {"clause": "GD-2.5"}]}
    change = delta(old, new)
    assert change == {"seats": {"1": {"hand": "", "n": 0}}, "notes": ["a", "b"], "gone": None,
                      "rulings": {"1": {"clause": "GD-2.5"}}}
    merged = merge(old, change)
    assert {k: v for k, v in merged.items() if v is not None} == new
    assert delta(new, old)["rulings"] == [{"clause": "GD-4.1"}]    # shorter: whole


def test_page_is_self_contained_and_escapes_text(tmp_path):
    page = render_page(read_log(ruled_log(tmp_path)), source="ruled.jsonl")
    for outside in ("http:", "https:", "<link", " src=", "@import", "url(", "//cdn"):
        assert outside not in page
    assert page.count("<script") == 2 and "default-src 'none'" in page
    assert "</script><script>window.pwned" not in page
    texts = [f["t"] for f in embedded_data(page)["frames"]]
    assert f"note: {HOSTILE}" in texts


def test_html_option_writes_the_page_atomically(tmp_path, capsys):
    out = tmp_path / "page.html"
    out.write_text("an older page")
    assert main(["replay", str(GD_LOG), "--html", str(out), "--seat", "2", "--at", "135"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"wrote {out} (") and said.count("\n") == 1
    page = out.read_text(encoding="utf-8")
    data = embedded_data(page)
    assert data["viewer"] == 2 and data["frames"][data["start"]]["l"] == "135"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]
    assert main(["replay", str(GD_LOG), "--html", str(tmp_path / "no" / "such" / "dir.html")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_page_of_a_whole_match_stays_small(tmp_path, capsys):
    log = tmp_path / "match.jsonl"
    assert main(["simulate", "guandan", "--matches", "1", "--seed", "1", "--log", str(log), "--quiet"]) == 0
    out = tmp_path / "match.html"
    assert main(["replay", str(log), "--html", str(out)]) == 0
    assert out.stat().st_size < 2_000_000     # ~0.9 MB for 5,000 events; 3 matches ~2 MB


# ---------------------------------------------------------------------------------------------
# In headless Chromium




def table_snapshot(page) -> str:
    return page.inner_text("#table")


def test_stepping_changes_the_table_and_next_ruling_shows_its_clause(tmp_path, browser_page, capsys):
    page, problems = browser_page
    out = tmp_path / "ruled.html"
    assert main(["replay", str(ruled_log(tmp_path)), "--html", str(out)]) == 0
    page.goto(out.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    assert page.get_attribute("#table", "data-seq") == "136"    # opens at the first ruling
    page.keyboard.press("Home")
    assert page.get_attribute("#table", "data-step") == "0"

    # → steps: the table changes at each step that changes it
    page.keyboard.press("PageDown")          # the deal's first step
    page.keyboard.press("ArrowRight")        # shuffle, cut, face-up card, the draw as one step
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    before = table_snapshot(page)
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#table", "data-seq") == "112"
    after_draw = table_snapshot(page)
    assert after_draw != before
    assert page.locator("#seat-0 .hand .card").count() == 27
    assert page.locator("#seat-2 .hand .card").count() == 27
    while page.get_attribute("#table", "data-seq") != "115":
        page.click("#next")
    assert page.locator("#center .slot.top .card").count() > 0   # the first play lies in the middle
    assert page.locator("#seat-1 .hand .card").count() < 27
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#table", "data-seq") == "114"
    assert "seat 1 to lead" in page.inner_text("#center")

    # suits in colour, jokers by name
    heart = page.locator(".card[data-card^='H']").first
    assert "red" in heart.get_attribute("class") and page.locator(".card[data-card^='H'] .suit").first.inner_text() == "♥"
    assert page.locator(".card[data-card='RJ'], .card[data-card='BJ']").first.inner_text().replace("\n", "") in ("大王", "小王")

    # next ruling: the panel shows the clause id, its Chinese text and English summary
    assert page.locator("#ruling-list .ruling").count() == 0
    page.click("#next-ruling")
    assert page.get_attribute("#table", "data-seq") == "136"
    current = page.locator("#ruling-list .ruling.current")
    assert current.locator(".clause-id").inner_text() == "GD-2.3.1"
    text = clause("GD-2.3.1")
    assert current.locator(".clause-zh").inner_text() == text.text_zh
    assert current.locator(".clause-en").inner_text() == text.summary
    assert "RULING GD-2.3.1" in page.inner_text("#event")
    assert page.locator("#timeline .tl-row.current.tl-ruling").count() == 1

    # the hostile note is text, not markup
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#event").startswith("note: </script><script>window.pwned=1")
    assert page.evaluate("window.pwned") is None

    # the timeline is clickable; Home and End go to the ends
    page.click("#timeline .tl-row[data-step='3']")
    assert page.get_attribute("#table", "data-step") == "3"
    page.keyboard.press("End")
    assert "deal over" in page.inner_text("#event") or "finishing order" in page.inner_text("#notes")
    page.click("#next-ruling")
    assert "no further ruling" in page.inner_text("#status")
    assert problems == []


def test_seat_page_holds_nothing_that_seat_may_not_know():
    log = open_log(str(GD_LOG.with_name("replay_shengji_deal_seed4.jsonl")))
    data = page_data(log, viewer=3)
    state: dict = {}
    kitty_seen = []
    for k, frame in enumerate(data["frames"]):
        state = merge(state, frame["x"])
        assert [s["hand"] is None for s in state["seats"]] == [True, True, True, False]
        if state["deal"]:
            assert all(s["count"] is not None for s in state["seats"])    # 双升: hand sizes are public
        if state["kitty"] and state["kitty"]["cards"]:
            kitty_seen.append(k)
        assert not re.search(r"seat [012] draws [♠♥♣♦大小]", frame["t"])
    # seat 3 is not the banker: it sees the kitty once the last trick's play turns it up (a
    # step shows the table after its action: the play's own step, then the kitty's)
    texts = [f["t"] for f in data["frames"]]
    assert kitty_seen and texts[kitty_seen[0]].startswith("seat ") and "kitty turned up" in " ".join(
        texts[kitty_seen[0]:kitty_seen[0] + 3])
    assert not any(t.startswith("seat ") and " follows " in t for t in texts[kitty_seen[0] + 1:])
