"""The training web app under attack (Starlette's test client): only the host names it
serves, only same-origin state changes with JSON bodies, strict bodies (no NaN, Infinity,
huge numbers or deep nesting; each field's type and range), no 500 without the security
headers and no traceback, CSV cells that no spreadsheet runs as a formula, and scenario ids
that answer right after a restart."""

from __future__ import annotations

import csv
import io
import json
import logging
import time

import pytest

pytest.importorskip("starlette", reason="the web extra: pip install 'paiju[web]'")
pytest.importorskip("starlette.testclient", reason="Starlette's test client needs httpx2 (the test extra)")

from paiju.train.web.app import create_app  # noqa: E402
from paiju.train.web.bank import ScenarioBank  # noqa: E402
from paiju.train.web.guard import MAX_BODY, BadJson, json_object, nesting, served_names  # noqa: E402
from paiju.train.web.store import Store  # noqa: E402
from tests.paiju.train.page_client import PAGE_ORIGIN, page_client  # noqa: E402

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def store(tmp_path):
    return Store(str(tmp_path / "progress.sqlite3"))


@pytest.fixture
def app(web_bank, store):
    return create_app(web_bank, store)


@pytest.fixture
def client(app):
    """The trainer's own page (any exception in the app fails the test)."""
    with page_client(app) as c:
        yield c


@pytest.fixture
def script(app):
    """A client that sends no Origin: curl, a script."""
    from starlette.testclient import TestClient

    with TestClient(app, base_url=PAGE_ORIGIN) as c:
        yield c


def _answer(bank, sid, trainee="alice"):
    e = bank.get(sid).expected
    return {"trainee": trainee, "clause": e.clause, "effects": list(e.rectification), "sanctions": list(e.sanctions)}


def _refused(response, status, words):
    assert response.status_code == status, response.text
    assert words in response.json()["error"]
    assert "\n" not in response.json()["error"]
    assert "default-src 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"


# -- Host ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["attacker.example:8765", "attacker.example", "127.0.0.1:9999", "localhost.:8765",
                                  "127.0.0.1:8765@attacker.example", ""])
def test_a_dns_rebinding_page_cannot_read_the_records(client, host):
    """A page whose own name was pointed at 127.0.0.1 sends its own name as the Host."""
    _refused(client.get("/api/export.csv", headers={"Host": host}), 400, "host")
    _refused(client.get("/", headers={"Host": host}), 400, "host")


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765"])
def test_the_names_of_this_machine_are_served(script, host):
    assert script.get("/api/export.csv", headers={"Host": host}).status_code == 200
    origin = {"Origin": f"http://{host.lower()}", "Host": host}
    assert script.post("/api/exam/1/finish", json={}, headers=origin).json()["error_en"] == "no such exam"


def test_a_deliberate_lan_deployment_names_its_hosts(web_bank, store):
    from starlette.testclient import TestClient

    app = create_app(web_bank, store, served_names("0.0.0.0", ["trainer.lan", "fe80::1"]))
    with TestClient(app, base_url=PAGE_ORIGIN) as c:
        for host in ("trainer.lan:8765", "[fe80::1]:8765", "127.0.0.1:8765"):
            assert c.get("/api/games", headers={"Host": host}).status_code == 200, host
        _refused(c.get("/api/games", headers={"Host": "0.0.0.0:8765"}), 400, "host")
        _refused(c.get("/api/games", headers={"Host": "trainer.lan:8766"}), 400, "host")
    with TestClient(create_app(web_bank, store, served_names("mybox.local")), base_url=PAGE_ORIGIN) as c:
        assert c.get("/api/games", headers={"Host": "mybox.local:8765"}).status_code == 200


# -- Origin ----------------------------------------------------------------------------------------


def test_another_site_cannot_post_an_answer(client, web_bank, store):
    """The issue's request: a foreign Origin and a text/plain body — refused, nothing recorded."""
    sid = web_bank.ids("guandan")[0]
    response = client.post(f"/api/scenario/{sid}/answer", content=b'{"trainee":"alice","clause":"GD-2.3.1"}',
                           headers={"Origin": "http://attacker.example", "Content-Type": "text/plain"})
    _refused(response, 403, "cross-origin")
    assert store.attempts() == []


@pytest.mark.parametrize("headers, allowed", [
    ({"Origin": "http://attacker.example"}, False),
    ({"Origin": "null"}, False),                                   # a sandboxed frame, a data: page
    ({"Origin": "http://127.0.0.1:8766"}, False),                  # another port: another origin
    ({"Origin": "https://127.0.0.1:8765"}, False),
    ({"Origin": "http://localhost:8765"}, False),                  # the page was opened as 127.0.0.1
    ({"Origin": PAGE_ORIGIN}, True),
    ({}, False),                                                   # curl, a script: may read, not write
    ({"Sec-Fetch-Site": "same-origin"}, True),
    ({"Sec-Fetch-Site": "cross-site"}, False),
    ({"Sec-Fetch-Site": "same-site"}, False),                      # another port of this machine
    ({"Referer": PAGE_ORIGIN + "/"}, True),
    ({"Referer": "http://attacker.example/page"}, False),
])
def test_state_changes_come_from_this_servers_page_only(script, web_bank, store, headers, allowed):
    sid = web_bank.ids("guandan")[0]
    response = script.post(f"/api/scenario/{sid}/answer", json=_answer(web_bank, sid), headers=headers)
    if allowed:
        assert response.status_code == 200, response.text
        assert len(store.attempts()) == 1
    else:
        _refused(response, 403, "origin" if "Origin" in headers else "this server's page")
        assert store.attempts() == []


def test_a_client_without_origin_may_read(script):
    """Safe methods need no Origin (curl, a script exporting the records)…"""
    assert script.get("/api/export.csv").status_code == 200
    assert script.get("/api/games").status_code == 200
    # … but a foreign Origin is refused on any method: a cross-origin read is never meant
    _refused(script.get("/api/export.csv", headers={"Origin": "http://attacker.example"}), 403, "cross-origin")


# -- Content-Type -----------------------------------------------------------------------------------


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonp", "text/json"])
def test_a_state_change_body_must_be_json(client, web_bank, store, content_type):
    """The content types a cross-site form or a no-CORS fetch can send are refused."""
    sid = web_bank.ids("guandan")[0]
    body = b'{"trainee": "alice", "clause": "GD-2.3.1"}'
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post(f"/api/scenario/{sid}/answer", content=body, headers=headers)
    _refused(response, 415, "application/json")
    assert store.attempts() == []
    assert client.post("/api/exam", content=b"", headers=headers).status_code == 415


def test_json_with_a_charset_is_json(client, web_bank):
    sid = web_bank.ids("guandan")[0]
    response = client.post(f"/api/scenario/{sid}/answer", json=_answer(web_bank, sid),
                           headers={"Content-Type": "Application/JSON; charset=utf-8"})
    assert response.status_code == 200, response.text


def test_a_declared_oversized_body_is_refused_before_it_is_read(client):
    response = client.post("/api/exam", content=b"{}", headers={**JSON, "Content-Length": str(MAX_BODY + 1)})
    _refused(response, 413, "too large")
    assert response.headers["connection"] == "close"


# -- strict bodies ----------------------------------------------------------------------------------


NUMBERS = ["Infinity", "-Infinity", "NaN", "1e400", "-1e400", "1" * 40, "1e308", "-1", "0.5", "true", '"10"', "null"]


@pytest.mark.parametrize("value", NUMBERS)
@pytest.mark.parametrize("field", ["count", "minutes"])
def test_exam_numbers_out_of_type_or_range_are_400(client, field, value):
    body = f'{{"trainee": "a", "game": "guandan", "{field}": {value}}}'.encode()
    _refused(client.post("/api/exam", content=body, headers=JSON), 400, "")


@pytest.mark.parametrize("value", NUMBERS)
def test_a_live_deals_seed_out_of_type_or_range_is_400(client, value):
    body = f'{{"trainee": "a", "game": "guandan", "seed": {value}}}'.encode()
    _refused(client.post("/api/live", content=body, headers=JSON), 400, "")


@pytest.mark.parametrize("field, value", [(f, v) for f in ("exam", "seconds") for v in NUMBERS
                                          if not (v == "null" or (f == "seconds" and v in ("0.5", "1e308")))])
def test_an_answers_exam_and_seconds_out_of_type_or_range_are_400(client, web_bank, store, field, value):
    sid = web_bank.ids("guandan")[0]
    text = json.dumps(_answer(web_bank, sid))[:-1] + f', "{field}": {value}}}'
    _refused(client.post(f"/api/scenario/{sid}/answer", content=text.encode(), headers=JSON), 400, "")
    assert store.attempts() == []


def test_a_day_old_page_records_its_time_as_unknown(client, web_bank, store):
    sid = web_bank.ids("guandan")[0]
    assert client.post(f"/api/scenario/{sid}/answer", json={**_answer(web_bank, sid), "seconds": 1e308}).status_code == 200
    assert store.attempts()[0]["seconds"] is None


@pytest.mark.parametrize("body, words", [
    (b"[" * 60_000, "nested"),
    (b'{"trainee": ' + b"[" * 30_000 + b"]" * 30_000 + b"}", "nested"),
    (b'{"trainee": "a", "effects": [[[["x"]]]]}', "nested"),
    (b'{"trainee": "a", "count": 1' + b"0" * 5000 + b"}", "digits"),
    (b'{"trainee": "\xff"}', "UTF-8"),
    (b'{"trainee": "a", "count": NaN}', "NaN"),
    (b'{"trainee": "a", "count": 1e400}', "out of range"),
    (b'"just a string"', "JSON object"),
])
def test_bodies_that_broke_the_parser_are_400(client, body, words):
    _refused(client.post("/api/exam", content=body, headers=JSON), 400, words)


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = '{"trainee": "[[[[[[[[{{{{\\"]]]]", "effects": ["[["], "x": {"y": [[]]}}'
    assert json_object(text.encode())["trainee"] == '[[[[[[[[{{{{"]]]]'
    assert nesting(json.loads(text)) == 4 and nesting("[") == 0


def test_a_body_of_escapes_is_parsed_in_linear_time():
    """Unclosed escaped quotes, the input that makes string-matching patterns backtrack."""
    started = time.perf_counter()
    for body in (b'{"trainee": "' + b'\\"' * 30_000, b'"\\' * 20_000, b"[" * 65_000, b"{\"a\":" * 10_000):
        with pytest.raises(BadJson):
            json_object(body)
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize("body, words", [
    ({"trainee": 5, "clause": "GD-2.3.1"}, "trainee"),
    ({"trainee": ["a"], "clause": "GD-2.3.1"}, "trainee"),
    ({"trainee": "a", "clause": 2.31}, "clause"),
    ({"trainee": "a", "clause": "GD-2.3.1", "effects": [1]}, "effects"),
    ({"trainee": "a", "clause": "GD-2.3.1", "sanctions": {"Warning": 1}}, "sanctions"),
])
def test_each_field_has_its_type(client, web_bank, body, words):
    sid = web_bank.ids("guandan")[0]
    _refused(client.post(f"/api/scenario/{sid}/answer", json=body), 400, words)


@pytest.mark.parametrize("path", ["/api/exam/1e400", "/api/exam/-1", "/api/exam/99999999999999999999",
                                  "/api/exam/%EF%BC%91", "/exam/1e400/result"])
def test_ids_in_paths_are_whole_numbers(client, path):
    response = client.get(path)
    assert response.status_code in (400, 404), response.text
    assert "error" in response.json()


# -- failures --------------------------------------------------------------------------------------


def test_an_unexpected_failure_is_a_json_500_with_the_headers_and_one_log_line(web_bank, store, caplog, monkeypatch):
    def broken():
        raise RuntimeError("disk on fire\nsecond line")

    monkeypatch.setattr(store, "trainees", broken)
    with page_client(create_app(web_bank, store)) as c, caplog.at_level(logging.ERROR):
        response = c.get("/api/trainees")
    _refused(response, 500, "RuntimeError")
    assert "disk on fire" not in response.text                   # the details stay in the log
    records = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(records) == 1 and records[0].exc_info is None, records
    assert records[0].getMessage().count("\n") == 0
    assert "RuntimeError" in records[0].getMessage() and "/api/trainees" in records[0].getMessage()


# -- CSV export ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x.example")', "+1+1", "-2+3", "@SUM(A1:A9)"])
def test_a_trainee_name_cannot_run_as_a_spreadsheet_formula(client, web_bank, name):
    sid = web_bank.ids("guandan")[0]
    assert client.post(f"/api/scenario/{sid}/answer", json=_answer(web_bank, sid, trainee=name)).status_code == 200
    assert client.post(f"/api/scenario/{sid}/answer", json=_answer(web_bank, sid, trainee="张三")).status_code == 200
    rows = list(csv.DictReader(io.StringIO(client.get("/api/export.csv").text)))
    assert [r["trainee"] for r in rows] == ["'" + name, "张三"]
    assert {t["trainee"] for t in client.get("/api/trainees").json()["trainees"]} == {name, "张三"}   # stored as given


# -- restarts --------------------------------------------------------------------------------------


def test_an_exam_spans_a_restart(tmp_path):
    """Two app instances on one database, as a server stopped and started again: the second
    answers the exam's scenario ids at once, before anything asked for a next scenario."""
    path = str(tmp_path / "class.sqlite3")
    first_bank = ScenarioBank(seed=0, per_clause=1, games=("guandan",))
    with page_client(create_app(first_bank, Store(path))) as first:
        exam = first.post("/api/exam", json={"trainee": "王五", "game": "guandan", "count": 2, "minutes": 5}).json()
    sid = exam["scenarios"][1]
    again_bank = ScenarioBank(seed=0, per_clause=1, games=("guandan",))
    with page_client(create_app(again_bank, Store(path))) as again:
        assert again.get(f"/api/scenario/{sid}").json()["game"] == "guandan"
        assert again.get(f"/scenario/{sid}/table").status_code == 200
        reply = again.post(f"/api/scenario/{sid}/answer",
                           json={**_answer(again_bank, sid, trainee="王五"), "exam": exam["exam"]})
        assert reply.json() == {"recorded": True}
        result = again.post(f"/api/exam/{exam['exam']}/finish", json={}).json()
    assert [r["verdict"] for r in result["results"]] == ["unanswered", "right"]
    assert all(r["explanation"] for r in result["results"])
    assert again_bank.get(sid).expected == first_bank.get(sid).expected
    assert again_bank.get("guandan-999") is None and again_bank.get("chess-1") is None
