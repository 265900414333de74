"""The training web app attacked from a real browser (headless Chromium): another site's
page posts answers to it (a text/plain form, a no-cors fetch, a CORS fetch), and a
DNS-rebinding page (its own name resolved to 127.0.0.1) reads the records. Nothing gets
through, nothing is recorded — while the trainer's own pages work (test_web_browser)."""

from __future__ import annotations

import http.server
import socket
import threading
import time

import pytest

from tests.paiju.chromium import chromium_browser

pytest.importorskip("starlette", reason="the web extra: pip install 'paiju[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra: pip install 'paiju[web]'")

from paiju.train.web.app import create_app  # noqa: E402
from paiju.train.web.server import server_config  # noqa: E402
from paiju.train.web.store import Store  # noqa: E402

REBINDING_NAME = "attacker.example"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def trainer(web_bank, tmp_path):
    """The trainer on 127.0.0.1 (in a thread, as `paiju train serve` runs it) and its store."""
    web_bank.ids("guandan")
    port = _free_port()
    store = Store(str(tmp_path / "class.sqlite3"))
    server = uvicorn.Server(server_config(create_app(web_bank, store), "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started:
        assert time.time() < deadline, "the trainer did not start"
        time.sleep(0.05)
    yield port, store
    server.should_exit = True
    thread.join(10)


def _attacker_page(target: str, answer: str) -> bytes:
    """Another site's page: the three ways a page can send a POST to another origin."""
    name, value = answer[:-2] + ',"x":"', '"}'
    return f"""<!DOCTYPE html><html><body>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="{target}" enctype="text/plain" target="sink">
<input name='{name}' value='{value}'></form>
<script>
const results = [];
fetch("{target}", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}}, body: '{answer}'}})
  .then(() => results.push("no-cors sent"), (e) => results.push("no-cors failed"))
  .then(() => fetch("{target}", {{method: "POST", headers: {{"Content-Type": "application/json"}}, body: '{answer}'}}))
  .then(() => results.push("cors read"), (e) => results.push("cors blocked"))
  .then(() => {{ document.getElementById("form").submit(); results.push("form sent"); document.title = results.join(", "); }});
</script></body></html>""".encode()


@pytest.fixture
def attacker(web_bank):
    """Another origin (another port of this machine) serving the attacker's page."""
    pages: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", pages
    httpd.shutdown()
    httpd.server_close()


def test_another_sites_page_cannot_post_answers(trainer, attacker, web_bank):
    port, store = trainer
    origin, pages = attacker
    sid = web_bank.ids("guandan")[0]
    clause = web_bank.get(sid).expected.clause
    pages["/"] = _attacker_page(f"http://127.0.0.1:{port}/api/scenario/{sid}/answer",
                                f'{{"trainee":"alice","clause":"{clause}"}}')
    seen: list[int] = []
    with chromium_browser() as browser:
        page = browser.new_context().new_page()
        page.on("response", lambda r: seen.append(r.status) if "/api/" in r.url else None)
        page.goto(origin + "/")
        page.wait_for_function("document.title.includes('form sent')", timeout=20_000)
        page.wait_for_timeout(500)
        title = page.title()
    assert "cors blocked" in title, title
    assert store.attempts() == [], "another site's page recorded an answer"
    assert seen and all(status in (403, 415) for status in seen), seen


def test_a_dns_rebinding_page_cannot_read_the_records(trainer):
    """Chromium resolves attacker.example to 127.0.0.1, as a rebinding DNS answer does."""
    port, store = trainer
    store.record(trainee="alice", game="guandan", scenario="guandan-1", clause="GD-2.3.1", given="GD-2.3.1",
                 answer="", verdict="right", seconds=1.0, mode="practice")
    with chromium_browser([f"--host-resolver-rules=MAP {REBINDING_NAME} 127.0.0.1"]) as browser:
        page = browser.new_context().new_page()
        response = page.goto(f"http://{REBINDING_NAME}:{port}/api/trainees")
        assert response is not None and response.status == 400
        assert "alice" not in page.content()
        own = page.goto(f"http://127.0.0.1:{port}/api/trainees")
        assert own is not None and own.status == 200      # the same request, by the trainer's own name
        assert "alice" in page.content()
