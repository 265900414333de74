"""Issue 28, item 1: nothing of the answer is visible before it is earned. Checked in
Chromium by computed visibility (``checkVisibility``: a style rule overriding ``hidden`` is
what once showed the rulebook's ruling under every new question), on the home page, on a
new practice question after an answered one, and on every exam question."""

from __future__ import annotations

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="needs Playwright's Python package").expect

from tests.paiju.train.test_web_browser import Server, _page, _rule

ANSWER_PARTS = ("#verdict", "#compare", "#own-outcome", "#your-outcome", "#apply")
"""What shows the rulebook's ruling or plays it out."""


@pytest.fixture
def bank(web_bank):
    return web_bank


def shown_answer_parts(page) -> list[str]:
    """The answer parts a trainee can see (computed: display, visibility, size)."""
    return page.evaluate("""(ids) => ids.filter((id) => {
        const node = document.querySelector(id);
        return node && node.checkVisibility({ visibilityProperty: true, opacityProperty: true })
               && node.getBoundingClientRect().height > 0; })""", list(ANSWER_PARTS))


def test_the_answer_is_hidden_until_earned_in_practice_and_exam(browser, bank, tmp_path):
    problems: list[str] = []
    with Server(bank, str(tmp_path / "p.sqlite3")) as url:
        page = _page(browser, url, problems)
        assert shown_answer_parts(page) == []                       # the home page
        page.fill("#trainee", "张三")
        page.click("[data-tab=practice]")
        page.click("#next")
        page.wait_for_selector("#ruling:not([hidden])")
        assert shown_answer_parts(page) == []                       # a first question
        sid = page.get_attribute("#where", "data-sid")
        expected = bank.get(sid).expected
        _rule(page, expected.clause, [s.split("(")[0] for s in expected.sanctions])
        for kind in expected.rectification:
            page.check(f"input[name=effect][value={kind}]")
        page.click("#submit")
        page.wait_for_selector("#verdict:not([hidden])")
        page.click("#apply")
        page.wait_for_selector("#own-outcome li")
        assert {"#verdict", "#compare", "#apply"} <= set(shown_answer_parts(page))   # earned: shown
        page.click("#next")
        page.wait_for_function("(sid) => document.querySelector('#where').dataset.sid !== sid", arg=sid)
        assert shown_answer_parts(page) == []                       # the next question: all gone
        page.click("[data-tab=exam]")
        page.fill("#exam-count", "3")
        page.click("#exam-start")
        for number in range(3):
            page.wait_for_selector("#ruling:not([hidden])")
            expect(page.locator("#where")).to_contain_text(f"{number + 1}/3")
            assert shown_answer_parts(page) == [], number           # every exam question
            _rule(page, expected.clause)
            page.click("#submit")
        page.wait_for_selector("#exam-result ol")
        assert shown_answer_parts(page) == []
        page.context.close()
    assert not problems, problems
