"""The replay page's layout (issue 14 item 11), in headless Chromium at a phone's width (390
px), a small laptop's (1024) and a wide screen's (1600), for both games: no horizontal
overflow, the step toolbar in view however far the page is scrolled, the legend of card
marks, the rank and suit of every fanned card uncovered, the tribute at the table, and a
first screen that is the deal's first interesting moment. Screenshots go to a temporary
directory (they are compared for overflow, not pixels).

Without a browser: the first screen chosen, the tribute as table data (进贡, 还贡, 抗贡, waived),
the page loading nothing from the network and its font stacks' CJK fallbacks.

The browser tests need `pip install playwright` (the `test` extra) and Debian's Chromium
(`apt-get install chromium`, or PAIJU_CHROMIUM=/path/to/chromium); without them they are
skipped with that reason."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from tests.paiju.chromium import chromium_browser

import guandan.events as gd
from paiju.cli import main
from paiju.replay.fold import handlers_for
from paiju.replay.html import page_data, render_page
from paiju.replay.page import CSS
from paiju.replay.table import Table
from paiju.replay.view import open_log

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
GUANDAN_MATCH = GOLDEN / "golden_guandan_match_refereed_seed48.jsonl"    # a double tribute in deal 2, rulings
SHENGJI_DEAL = GOLDEN / "golden_shengji_deal_refereed_seed12.jsonl"     # rulings
GUANDAN_PLAIN = GOLDEN / "replay_guandan_deal_seed3.jsonl"               # no referee
SHENGJI_PLAIN = GOLDEN / "replay_shengji_deal_seed4.jsonl"
WIDTHS = (390, 1024, 1600)
CJK_FAMILIES = ('"Noto Sans CJK SC"', '"PingFang SC"', '"Microsoft YaHei"')


def merge(target, change):
    """The page script's merge: objects by key, an object into an array by index."""
    if not isinstance(change, dict) or not isinstance(target, (dict, list)):
        return change
    out = list(target) if isinstance(target, list) else dict(target)
    for key, value in change.items():
        if isinstance(out, list):
            k = int(key)
            out.extend([None] * (k + 1 - len(out)))
            out[k] = merge(out[k], value)
        else:
            out[key] = merge(out.get(key), value)
    return out


def merged_states(data: dict) -> list[dict]:
    """Every step's table, as the page rebuilds it."""
    states, state = [], {}
    for frame in data["frames"]:
        state = merge(state, frame["x"])
        states.append(state)
    return states


# ---------------------------------------------------------------------------------------------
# Without a browser


def test_first_screen_is_the_first_play_of_a_plain_deal():
    for path in (GUANDAN_PLAIN, SHENGJI_PLAIN):
        data = page_data(open_log(str(path)))
        states = merged_states(data)
        start = data["start"]
        played = [k for k, s in enumerate(states) if s["phase"] == "play" and any(p[1] for p in s["pile"]["plays"])]
        assert start == played[0], path.name
        assert all(seat["hand"] for seat in states[start]["seats"])          # the hands are dealt
        assert data["frames"][0]["t"] == "unit 0 starts" and start > 0


def test_first_screen_of_a_refereed_log_is_its_first_irregularity_once_cards_are_out():
    for path in (GUANDAN_MATCH, SHENGJI_DEAL):
        data = page_data(open_log(str(path)))
        states = merged_states(data)
        start = data["start"]
        assert data["frames"][start]["g"] in ("irregular", "ruling"), path.name
        assert any(seat["hand"] for seat in states[start]["seats"])
        earlier = [k for k in range(start) if data["frames"][k]["g"]]
        assert all(not any(seat["hand"] for seat in states[k]["seats"]) for k in earlier)
    # 双升 seed 12: a miscount made with the draw: its step shows the table after the draw (the
    # engine's, after the action whose line it is), so it is the first screen
    data = page_data(open_log(str(SHENGJI_DEAL)))
    assert data["frames"][data["start"]]["k"] == "sj.irregular" and "wrong hand sizes after the draw" in data["frames"][data["start"]]["t"]
    assert not any(f["g"] for f in data["frames"][:data["start"]])


def test_at_still_chooses_the_first_screen(tmp_path, capsys):
    out = tmp_path / "at.html"
    assert main(["replay", str(GUANDAN_PLAIN), "--html", str(out), "--at", "3"]) == 0
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', out.read_text(encoding="utf-8"), re.S).group(1))
    assert data["frames"][data["start"]]["l"] == "3"


def test_the_tribute_of_a_match_deal_is_table_data():
    log = open_log(str(GUANDAN_MATCH))
    given = {(e.seat, e.receiver): e.card for e in log.events if e.KIND == "gd.tribute_given"}
    returned = {(e.payer, e.seat): e.card for e in log.events if e.KIND == "gd.return_given"}
    data = page_data(log)
    states = merged_states(data)
    play = next(k for k, f in enumerate(data["frames"]) if f["k"] == "gd.play_started" and f["d"] == 2)
    tribute = states[play]["tribute"]
    assert tribute["how"] == "due" and tribute["double"] and len(returned) == 2
    # (seat 1's tribute is a wrong one, latent until after the first play: no card shown as given)
    assert {(p, r): (t, b) for p, r, t, b in tribute["payments"]} == {
        key: (given.get(key), card) for key, card in returned.items()}
    assert all(s["tribute"] is None for s, f in zip(states, data["frames"]) if f["d"] == 1)


def event(cls, **fields):
    return cls(deal=2, seq=0, **fields)


def table_after(*events) -> dict:
    """The tribute on a 掼蛋 table after ``events`` (the replay's own handlers)."""
    handlers = handlers_for("guandan")
    table = Table("guandan")
    table.new_deal(2, "3")
    for e in events:
        handlers[e.KIND](table, e)
    return table.view()["tribute"]


def test_resisted_waived_and_excused_tribute():
    assert table_after(event(gd.TributeResisted, payers=(1, 3))) == {
        "how": "resisted", "double": False, "payments": [], "seats": [1, 3], "head": ""}
    assert table_after(event(gd.TributeWaived, double=True)) == {
        "how": "waived", "double": True, "payments": [], "seats": [], "head": "double tribute waived by a ruling"}
    due = event(gd.TributeDue, payments=((1, 0),), double=False, excused=(3,))
    paid = event(gd.TributeGiven, seat=1, card="SA", receiver=0)
    back = event(gd.ReturnGiven, seat=0, card="C4", payer=1)
    assert table_after(due) == {"how": "due", "double": False, "payments": [[1, 0, None, None]], "seats": [3],
                                "head": ""}
    assert table_after(due, paid, back)["payments"] == [[1, 0, "SA", "C4"]]


def test_page_fetches_nothing_and_every_font_stack_has_cjk_fallbacks():
    for path in (GUANDAN_MATCH, SHENGJI_DEAL):
        page = render_page(open_log(str(path)), source=path.name)
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", page, re.I)
        assert not re.search(r"<(link|img|iframe|object|embed)\b|@import|url\(|@font-face|\bsrc=|fetch\(|XMLHttpRequest", page)
    stacks = dict(re.findall(r"--(sans|mono):\s*([^;]+);", CSS))
    assert set(stacks) == {"sans", "mono"}
    for name, stack in stacks.items():
        families = [f.strip() for f in stack.split(",")]
        for family in CJK_FAMILIES[1:]:
            assert family in families, (name, family)
        assert families[-1] in ("sans-serif", "monospace")      # a generic family last
    assert '"Noto Sans CJK SC"' in stacks["sans"]
    # every other font declaration takes one of the stacks (or inherits)
    for value in re.findall(r"font(?:-family)?:\s*([^;}]+)", CSS):
        assert "var(--sans)" in value or "var(--mono)" in value or value.strip() == "inherit", value


# ---------------------------------------------------------------------------------------------
# In headless Chromium


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The pages under test, written by the CLI."""
    out = tmp_path_factory.mktemp("pages")
    written = {}
    for name, log in (("guandan", GUANDAN_MATCH), ("shengji", SHENGJI_DEAL)):
        path = out / f"{name}.html"
        assert main(["replay", str(log), "--html", str(path)]) == 0
        written[name] = path
    return written


@pytest.fixture(scope="module")
def browser():
    with chromium_browser() as browser:
        yield browser


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return tmp_path_factory.mktemp("screenshots")


@functools.cache
def page_data_of(path: Path) -> dict:
    return page_data(open_log(str(path)))


OVERFLOW = "[document.documentElement.scrollWidth, window.innerWidth]"

UNCOVERED_CORNERS = """() => {
  // Each fanned card's rank and suit, and whether a later card of its group covers them.
  var bad = [], seen = 0;
  document.querySelectorAll('#table .group, #table .played').forEach(function (group) {
    var cards = Array.prototype.slice.call(group.querySelectorAll(':scope > .card'));
    cards.forEach(function (card, i) {
      var marks = [card.querySelector('.rank'), card.querySelector('.suit')];
      marks.forEach(function (mark) {
        var r = mark.getBoundingClientRect();
        seen++;
        if (r.width === 0 || r.right > card.getBoundingClientRect().right + 0.5) bad.push(card.dataset.card + ' outside');
        cards.slice(i + 1).forEach(function (other) {
          var o = other.getBoundingClientRect();
          if (o.left < r.right - 0.5 && o.right > r.left + 0.5 && o.top < r.bottom - 0.5 && o.bottom > r.top + 0.5)
            bad.push(card.dataset.card + ' under ' + other.dataset.card);
        });
      });
    });
  });
  return [seen, bad];
}"""


def open_page(browser, path: Path, width: int):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("request", lambda request: problems.append(f"request: {request.url}")
            if request.url != path.as_uri() else None)
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    return context, page, problems


def assert_fits(page, shots: Path | None = None, name: str = "") -> None:
    """No horizontal overflow; with ``shots``, a full-page screenshot saved there too."""
    if shots is not None:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    scroll_width, inner_width = page.evaluate(OVERFLOW)
    assert scroll_width <= inner_width, f"{name}: {scroll_width}px of content in a {inner_width}px window"


def assert_toolbar_in_view_at_the_bottom(page) -> None:
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 100
    top, bottom, height = page.evaluate(
        "(() => { var r = document.getElementById('controls').getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; })()")
    assert top == 0 and bottom < height / 2
    hit = page.evaluate("""(() => { var r = document.getElementById('scrub').getBoundingClientRect();
        var e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return e && e.id; })()""")
    assert hit == "scrub"      # the controls are on top there, not under the table
    step = int(page.get_attribute("#table", "data-step"))
    page.click("#prev")        # a step from down here leaves the page down here, the toolbar on top
    assert page.get_attribute("#table", "data-step") == str(step - 1)
    assert page.evaluate("window.scrollY") > 100
    assert page.evaluate("document.getElementById('controls').getBoundingClientRect().top") == 0


def goto_step(page, step: int) -> None:
    page.evaluate(f"document.querySelector(\"#timeline .tl-row[data-step='{step}']\").click()")
    assert page.get_attribute("#table", "data-step") == str(step)


def test_guandan_page_layout(browser, pages, shots):
    """One load at a phone's width, then the same page at each width (resized)."""
    context, page, problems = open_page(browser, pages["guandan"], WIDTHS[0])
    try:
        data = page_data_of(GUANDAN_MATCH)
        # the first screen: the first irregularity, hands on the table, not "unit 0 starts"
        assert page.get_attribute("#table", "data-step") == str(data["start"]) != "0"
        assert "unit 0 starts" not in page.inner_text("#event")
        assert "ev-irregular" in page.get_attribute("#event", "class") or "ev-ruling" in page.get_attribute("#event", "class")
        assert page.locator("#seat-0 .hand .card").count() > 0
        # the legend: level card, wild card (逢人配), jokers, the referee's marks
        marks = page.eval_on_selector_all("#legend .item", "items => items.map(i => i.dataset.mark)")
        assert marks[:3] == ["level", "wild", "joker"] and "penalty" in marks
        assert "wild" in page.get_attribute("#legend [data-mark='wild'] .card", "class")
        assert "逢人配" in page.inner_text("#legend")
        assert not page.is_visible("#tribute")
        for selector in ("body", "#legend .item > span:last-child", ".card.joker .rank", "#event"):
            family = page.eval_on_selector(selector, "e => getComputedStyle(e).fontFamily")
            assert all(cjk in family for cjk in CJK_FAMILIES), (selector, family)
        returned = max(k for k, f in enumerate(data["frames"]) if f["k"] == "gd.return_given")
        events = open_log(str(GUANDAN_MATCH)).events
        last_deal_rulings = sum(e.KIND in ("ref.ruling", "ref.unresolved") and e.deal == events[-1].deal
                                for e in events)

        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            goto_step(page, data["start"])
            seen, covered = page.evaluate(UNCOVERED_CORNERS)
            assert seen > 100 and covered == [], width
            assert_fits(page)
            # the tribute at the table: the payments and both returns, as cards
            goto_step(page, returned)
            assert page.is_visible("#tribute")
            assert "双贡" in page.inner_text("#tribute") and "还贡" in page.inner_text("#tribute")
            cards = page.eval_on_selector_all("#tribute .payment .card", "cs => cs.map(c => c.dataset.card)")
            assert cards == ["RJ", "S6", "S9"]   # seat 1's tribute is a wrong one, found after the first play
            assert_fits(page)
            # the last step: every ruling listed; scrolled to the bottom, the toolbar still there
            page.click("#last")
            assert page.locator("#ruling-list .ruling").count() == last_deal_rulings > 0
            assert_fits(page, shots, f"guandan-{width}-last")
            assert_toolbar_in_view_at_the_bottom(page)
            page.evaluate("window.scrollTo(0, 0)")
        assert problems == []
    finally:
        context.close()


def test_shengji_page_layout(browser, pages, shots):
    context, page, problems = open_page(browser, pages["shengji"], WIDTHS[0])
    try:
        data = page_data_of(SHENGJI_DEAL)
        assert page.get_attribute("#table", "data-step") == str(data["start"]) != "0"
        assert page.locator("#table .hand .card").count() > 0
        # the legend: the level card and jokers at once; the trump suit once it is set
        marks = page.eval_on_selector_all("#legend .item", "items => items.map(i => i.dataset.mark)")
        assert "level" in marks and "joker" in marks and "wild" not in marks
        play = next(k for k, f in enumerate(data["frames"]) if f["k"] == "sj.played")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            goto_step(page, data["start"])
            assert_fits(page)
            goto_step(page, play)
            assert page.locator("#legend [data-mark='trump']").count() == 1
            trump = page.locator(".card.trump").first.get_attribute("data-card")[0]
            assert {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}[trump] in page.inner_text("#legend [data-mark='trump']")
            seen, covered = page.evaluate(UNCOVERED_CORNERS)
            assert seen > 100 and covered == [], width
            page.click("#last")
            assert_fits(page, shots, f"shengji-{width}-last")
            assert_toolbar_in_view_at_the_bottom(page)
            page.evaluate("window.scrollTo(0, 0)")
        assert problems == []
    finally:
        context.close()
