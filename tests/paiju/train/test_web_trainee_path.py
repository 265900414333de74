"""Issue 28: a first-time trainee's path in Chromium, at 1280 and 390 px wide — the home page,
a chapter, an exam and a live deal — in Chinese without meeting an English code name (the
visible text is scanned at every step), never seeing the answer before submitting, finding
the progress after a server restart, and the instructor's cohort view behind the key.
Screenshots of the main pages go to $PAIJU_SCREENSHOTS (else the test's tmp dir)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from tests.paiju.train.test_web_browser import Server, _page, _rule
from tests.paiju.train.test_web_no_leak import shown_answer_parts

CODE_NAMES = re.compile(
    r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b"             # class names: BarOnePlay, PlayStands
    r"|\b[a-z]+_[a-z_]+\b"                          # ids: play_out_of_turn, partly_right
    r"|\b(?:guandan|shengji|right|wrong|partly|unanswered|clause)\b"   # game ids, English verdicts
)
CLASS_NAMES = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b|\b[a-z]+_[a-z_]+\b")
ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'’]*(?:[\s,;:.()/-]+[A-Za-z][A-Za-z'’]*){2,}")
"""Three or more English words in a row: an English sentence or phrase."""
NOT_ENGLISH = re.compile(r"a/b/c|\bPgUp\b|\bPgDn\b")
"""What ``ENGLISH_RUN`` or ``CLASS_NAMES`` would take for words but is none: the lead option's
letters, the replay page's key names."""
KEY = "test-key"


@pytest.fixture
def bank(web_bank):
    return web_bank


def code_names(page) -> list[str]:
    """English code names in the page's visible text (``innerText``: what is rendered). The
    replay's own texts (the pages in the frames, a live deal's steps) are the replay's words:
    only class names and ids are looked for there."""
    steps = page.inner_text("#live-steps") if page.locator("#live-steps").is_visible() else ""
    shown = page.inner_text("body").replace(steps, "") if steps else page.inner_text("body")
    return CODE_NAMES.findall(shown) + CLASS_NAMES.findall(steps)


def english_in_steps(page) -> list[str]:
    """English code names and runs of three or more English words in what a Chinese-mode page
    shows of the table: the live deal's steps and every replay frame shown, whole (its step
    line, timeline, seats, pile, rulings, notes, legend, buttons; cards, clause ids and the
    like are no words)."""
    texts = [page.inner_text("#live-steps")] if page.locator("#live-steps").is_visible() else []
    for frame in page.frames[1:]:
        if frame.url.startswith("http") and frame.locator("#timeline .tl-row").count():
            texts.append(frame.inner_text("body"))
    found = []
    for text in texts:
        text = NOT_ENGLISH.sub(" ", text)
        found += CLASS_NAMES.findall(text) + ENGLISH_RUN.findall(text)
    return found


def overlaps(page, selectors: list[str]) -> list[str]:
    """Pairs of the visible elements that overlap on screen, and any wider than the page."""
    return page.evaluate("""(selectors) => {
        const boxes = selectors.map((s) => [s, document.querySelector(s)])
            .filter(([, n]) => n && n.checkVisibility()).map(([s, n]) => [s, n.getBoundingClientRect()]);
        const out = [];
        const width = document.documentElement.clientWidth;
        for (const [s, b] of boxes) if (b.right > width + 1) out.push(`${s} wider than the page`);
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const [a, p] = boxes[i], [c, q] = boxes[j];
            if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1)
                out.push(`${a} over ${c}`);
        }
        return out; }""", selectors)


def frame_cut(page, selector: str) -> int:
    """How many pixels of the replay page in the frame do not fit (0: the whole table shows)."""
    page.wait_for_function("(s) => { const f = document.querySelector(s); return f.contentDocument"
                           " && f.contentDocument.readyState === 'complete' && f.style.height; }", arg=selector)
    return page.evaluate("(s) => { const f = document.querySelector(s);"
                         " return Math.max(0, f.contentDocument.documentElement.scrollHeight - f.clientHeight); }",
                         selector)


def shots_dir(tmp_path: Path) -> Path:
    out = Path(os.environ.get("PAIJU_SCREENSHOTS") or tmp_path / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    return out


LAYOUT = ["header", "#tabs", "#where", "#table", "#ruling", "#verdict"]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_first_time_trainee_learns_in_chinese_from_the_home_page(browser, bank, tmp_path, width):
    problems: list[str] = []
    shots = shots_dir(tmp_path)
    db = str(tmp_path / "p.sqlite3")

    def shot(name: str) -> None:
        page.screenshot(path=str(shots / f"{width}-{name}.png"), full_page=True)
        assert code_names(page) == [], name
        assert shown_answer_parts(page) == [] or name.startswith("answered"), name

    with Server(bank, db, instructor_key=KEY) as url:
        page = _page(browser, url, problems, width)
        assert page.inner_text("h1") == "裁判培训"
        assert page.locator("#home").is_visible() and "违例判罚细则" in page.inner_text("#home")
        chapters = page.locator("#chapters li")
        assert chapters.count() == 7 and "二、 出牌" in page.inner_text("#chapters")
        shot("home")
        page.fill("#trainee", "王芳")
        page.press("#trainee", "Tab")
        page.wait_for_selector("#chapters li button")
        # the chapter 出牌 (二、), its first scenario
        page.locator("#chapters li", has_text="二、 出牌").locator("button").click()
        page.wait_for_selector("#ruling:not([hidden])")
        assert "二、 出牌" in page.inner_text("#where")
        assert frame_cut(page, "#table") == 0                     # every hand of the table shows
        assert overlaps(page, LAYOUT) == []
        assert english_in_steps(page) == []                       # the table's steps in Chinese
        shot("question")
        page.click("#lang")                                        # English: the table's words too
        page.wait_for_function("() => /lang=en$/.test(document.querySelector('#table').src)")
        page.frame_locator("#table").locator("#pos", has_text="step ").wait_for()
        page.click("#lang")
        page.wait_for_function("() => /lang=zh$/.test(document.querySelector('#table').src)")
        page.frame_locator("#table").locator("#pos", has_text="步").wait_for()
        assert english_in_steps(page) == []
        sid = page.get_attribute("#where", "data-sid")
        expected = bank.get(sid).expected
        assert expected.clause.startswith("GD-2.")
        _rule(page, expected.clause, [s.split("(")[0] for s in expected.sanctions])
        for kind in expected.rectification:
            page.check(f"input[name=effect][value={kind}]")
        page.click("#submit")
        page.wait_for_selector("#verdict:not([hidden])")
        verdict = page.inner_text("#verdict")
        assert verdict.startswith("正确") and "依据" in verdict and "纠正措施" in verdict, verdict
        assert overlaps(page, LAYOUT) == []
        shot("answered")
        page.click("#next")                                         # the next one: nothing of the last
        page.wait_for_function("(sid) => document.querySelector('#where').dataset.sid !== sid", arg=sid)
        assert shown_answer_parts(page) == []
        # an exam of two questions
        page.click("[data-tab=exam]")
        page.fill("#exam-count", "2")
        page.click("#exam-start")
        for number in (1, 2):
            page.wait_for_selector("#ruling:not([hidden])")
            page.wait_for_function("(n) => document.querySelector('#where').textContent.includes(n + '/2')", arg=number)
            if number == 1:
                shot("exam")
            assert shown_answer_parts(page) == [] and code_names(page) == []
            _rule(page, expected.clause)
            page.click("#submit")
        page.wait_for_selector("#exam-result ol")
        shot("exam-result")
        # a live deal, ruled with a warning at each stop, to its end
        page.click("[data-tab=live]")
        page.select_option("#pace", "0")
        page.click("#live-start")
        deadline = time.time() + 90
        while not page.locator("#live-summary ol").count() and time.time() < deadline:
            if page.locator("#ruling").is_visible():
                assert shown_answer_parts(page) == []
                _rule(page, "GD-2.5", ["Warning"])
                page.click("#submit")
                time.sleep(0.3)
                assert not page.inner_text("#error"), page.inner_text("#error")
            time.sleep(0.1)
        assert page.locator("#live-summary ol").count(), "the live deal did not end"
        steps = page.inner_text("#live-steps")
        assert "出牌" in steps and "裁决" in steps, steps[:400]
        assert english_in_steps(page) == []
        shot("live")
        page.context.close()
    with Server(bank, db, instructor_key=KEY) as url:             # restarted: the progress is there
        page = _page(browser, url, problems, width)
        assert page.input_value("#trainee") == "王芳" or page.fill("#trainee", "王芳") is None
        page.click("[data-tab=home]")
        page.wait_for_selector("#chapters li .meter")
        assert "已练条款 1/" in page.inner_text("#chapters"), page.inner_text("#chapters")
        page.click("[data-tab=progress]")
        page.click("#progress-load")
        page.wait_for_selector("#progress-table tbody tr")
        shot("progress")
        page.click("[data-tab=instructor]")
        page.click("#trainees-load")
        page.wait_for_selector("#error:not([hidden])")
        assert "教练口令" in page.inner_text("#error")              # no key: refused
        refused = [p for p in problems if "403" in p]
        assert len(refused) == 1
        problems.remove(refused[0])
        page.fill("#instructor-key", KEY)
        page.click("#trainees-load")
        page.wait_for_selector("#cohort-table tbody tr")
        assert "王芳" in page.inner_text("#cohort-table") and page.locator("#exam-list a").count() == 1
        shot("instructor")
        page.context.close()
    assert not problems, problems
