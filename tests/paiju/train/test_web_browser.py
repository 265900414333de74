"""The training web app in headless Chromium (Playwright with the system browser): a trainee
answers a scenario and sees the grade, applies a different ruling and sees both
continuations, rules a live deal, finds their progress after a restart; two trainees at
once. Needs the web extra, Playwright's Python package and Chromium (apt-get install
chromium), as the replay page's browser test does."""

from __future__ import annotations

import socket
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web extra: pip install 'paiju[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra: pip install 'paiju[web]'")

from paiju.train.web.app import create_app  # noqa: E402
from paiju.train.web.bank import ScenarioBank  # noqa: E402
from paiju.train.web.server import server_config  # noqa: E402
from paiju.train.web.store import Store  # noqa: E402
from paiju.train.web.terms import seed_number  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The app on 127.0.0.1 in a thread, as `paiju train serve` runs it."""

    def __init__(self, bank: ScenarioBank, db: str, instructor_key: str | None = None) -> None:
        self.port = _free_port()
        app = create_app(bank, Store(db), instructor_key=instructor_key)
        self.server = uvicorn.Server(server_config(app, "127.0.0.1", self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def bank(web_bank):
    return web_bank


def _page(browser, url, problems, width=1280):
    page = browser.new_context(viewport={"width": width, "height": 900 if width > 600 else 800}).new_page()
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("request", lambda r: problems.append(f"request elsewhere: {r.url}") if not r.url.startswith(url) else None)
    page.goto(url)
    page.wait_for_selector("#game option", state="attached")
    return page


def _rule(page, clause, sanctions=()):
    page.fill("#clause-search", clause)
    page.select_option("#clause", clause)
    for kind in sanctions:
        page.check(f"input[name=sanction][value={kind}]")


def test_a_trainee_answers_applies_a_ruling_and_finds_progress_after_a_restart(browser, bank, tmp_path):
    problems: list[str] = []
    db = str(tmp_path / "progress.sqlite3")
    with Server(bank, db) as url:
        page = _page(browser, url, problems)
        assert page.inner_text("h1") == "裁判培训"            # Chinese first
        page.fill("#trainee", "张三")
        page.click("[data-tab=practice]")
        page.click("#next")
        page.wait_for_selector("#ruling:not([hidden])")
        frame = page.frame_locator("#table")
        frame.locator("#controls").wait_for(state="attached")   # the replay page's table, in its frame
        sid = page.get_attribute("#where", "data-sid")
        expected = bank.get(sid).expected
        _rule(page, expected.clause, [s.split("(")[0] for s in expected.sanctions])
        for kind in expected.rectification:
            page.check(f"input[name=effect][value={kind}]")
        page.click("#submit")
        page.wait_for_selector("#verdict:not([hidden])")
        assert page.inner_text("#verdict .line").startswith("正确"), page.inner_text("#verdict")
        # a different ruling, carried out
        page.click("input[name=sanction][value=ForcedDoubleLast]")
        page.click("#apply")
        page.wait_for_selector("#compare:not([hidden])")
        page.wait_for_selector("#own-outcome li")
        own = page.inner_text("#own-outcome")
        yours = page.inner_text("#your-outcome") or page.inner_text("#your-reason")
        assert own and yours and own != yours
        page.click("#lang")
        assert page.inner_text("h1") == "Referee training"
        page.click("[data-tab=progress]")
        page.click("#progress-load")
        page.wait_for_selector("#progress-table tbody tr")
        page.context.close()
    with Server(bank, db) as url:                       # restarted: the progress is still there
        page = _page(browser, url, problems)
        page.fill("#trainee", "张三")
        page.click("[data-tab=progress]")
        page.click("#progress-load")
        page.wait_for_selector("#progress-table tbody tr")
        assert seed_number(expected.clause) in page.inner_text("#progress-table")     # 四、2（1） for GD-4.2.1
        page.context.close()
    assert not problems, problems


def test_a_live_deal_stops_for_a_ruling_and_two_trainees_use_one_server(browser, bank, tmp_path):
    problems: list[str] = []
    with Server(bank, str(tmp_path / "p.sqlite3")) as url:
        pages = [_page(browser, url, problems) for _ in range(2)]
        for page, name in zip(pages, ("甲", "乙")):
            page.fill("#trainee", name)
            page.click("[data-tab=live]")
            page.select_option("#pace", "0")
            page.click("#live-start")
        deadline = time.time() + 90
        done = [False, False]
        while not all(done) and time.time() < deadline:   # rule whenever a deal stops, until both are over
            for i, page in enumerate(pages):
                if done[i]:
                    continue
                if page.locator("#live-summary ol").count():
                    done[i] = True
                elif page.locator("#ruling").is_visible():
                    _rule(page, "GD-2.5", ["Warning"])
                    page.click("#submit")
                    time.sleep(0.3)
                    assert not page.inner_text("#error"), page.inner_text("#error")
            time.sleep(0.1)
        assert all(done)
        summaries = [p.inner_text("#live-summary") for p in pages]
        assert all("二、5" in s for s in summaries), summaries                       # GD-2.5, as the seed numbers it
        for page in pages:
            page.context.close()
    assert not problems, problems
