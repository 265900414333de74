"""`paiju train serve`: the referee-training web app (Starlette, an ASGI framework).

Every page is static (``paiju/train/web/static``) and talks to a JSON API; the table is the
replay page (``paiju.replay.html``) of the log cut before the ruling, shown in a frame.
Untrusted input stays data: scenario, exam and live ids are looked up in dicts, trainee
names and answers are checked and stored as values and drawn with ``textContent``; no
request ever names a file. Every response carries a strict Content-Security-Policy (the
replay frames allow exactly their own inline script and style, by hash). Which requests are
answered at all (Host, Origin, Content-Type, size) and how failures are answered is
``paiju.train.web.guard``'s; each field of a body is checked for its type and range here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import re
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from paiju import wording
from paiju.train.grade import IMPLIED_EFFECTS, RIGHT, explanation, grade, parse_answer
from paiju.train.scenarios import Scenario
from paiju.train.web import terms
from paiju.train.web.bank import ScenarioBank
from paiju.train.web.guard import REFUSED_ZH, BadJson, RequestGuard, SecurityHeaders, json_object
from paiju.train.web.live import LiveSession
from paiju.train.web.ruling import (
    CannotApply, TableStuck, TraineeAnswer, apply_trainee_ruling, rulebook_continuation,
)
from paiju.train.web.store import Store
from tabletop.effects import Sanction, kinds
from tabletop.games import table_effect_kinds

MAX_NAME = 40
MAX_LIVE = 16
MAX_KEPT = 64
"""Continuation pages kept for viewing (the oldest go first)."""
EXAM_MAX = 30
ASSETS = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}

MAX_SECONDS = 86_400
"""Time taken on one answer; longer (a page left open) is recorded as unknown."""
_SANCTION_KEY = re.compile(r"^[A-Za-z]+(\(\d{1,4}\))?$")
_CLAUSE_ID = re.compile(r"^[A-Za-z]{2}-[0-9A-Za-z.\-]{1,20}$")


class BadRequest(HTTPException):
    """A request refused with its reason, in Chinese first (``zh``) and in English (``detail``)."""

    def __init__(self, detail: str, status: int = 400, zh: str = "") -> None:
        super().__init__(status_code=status, detail=detail)
        self.zh = zh or REFUSED_ZH.get(status, "请求有误")


def _asset(name: str) -> str:
    return resources.files("paiju.train.web").joinpath("static", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def framed_page(page: str) -> HTMLResponse:
    """A replay page served in a frame: its inline script and style allowed by hash only."""
    styles = re.findall(r"<style>(.*?)</style>", page, flags=re.S)
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    csp = ("default-src 'none'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; "
           f"style-src {' '.join(map(_hash, styles)) or chr(39) + 'none' + chr(39)}; "
           f"script-src {' '.join(map(_hash, scripts)) or chr(39) + 'none' + chr(39)}")
    return HTMLResponse(page, headers={"Content-Security-Policy": csp})


# ---------------------------------------------------------------------------------------------
# Reading requests


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object (its size is bounded by ``RequestGuard`` as it streams)."""
    try:
        return json_object(await request.body())
    except BadJson as exc:
        raise BadRequest(str(exc), zh="请求内容不是有效的 JSON 对象") from None


def trainee_name(value: Any) -> str:
    """A trainee's name: 1 to 40 printable characters."""
    if not isinstance(value, str):
        raise BadRequest("trainee: a name is needed", zh="请填写学员姓名")
    name = unicodedata.normalize("NFC", value).strip()
    if not name or len(name) > MAX_NAME or any(unicodedata.category(c).startswith("C") for c in name):
        raise BadRequest(f"trainee: 1 to {MAX_NAME} printable characters", zh=f"学员姓名须为 1 至 {MAX_NAME} 个可显示的字符")
    return name


def read_answer(data: dict[str, Any], game: str) -> TraineeAnswer:
    """The ruling a request carries: a clause of ``game``, table-effect kinds, sanction keys."""
    from enforcement.rulebook import UnknownClause, clause

    cited = data.get("clause")
    if not isinstance(cited, str) or not _CLAUSE_ID.match(cited.strip()):
        raise BadRequest("clause: a clause id such as GD-2.3.1 is needed", zh="请选择条款（如 GD-2.3.1）")
    try:
        entry = clause(cited.strip())
    except UnknownClause as exc:
        raise BadRequest(f"clause: {exc}", zh=f"没有条款 {cited.strip()[:24]}") from None
    if entry.game != game:
        raise BadRequest(f"clause {entry.id} is a rule of {entry.game}, and this scenario is {game}",
                         zh=f"条款 {entry.id} 属于{wording.GAME_NAMES.get(entry.game, (entry.game,))[0]}，"
                            f"这道题是{wording.GAME_NAMES.get(game, (game,))[0]}")
    effects = _string_list(data.get("effects", []), "effects")
    unknown = [e for e in effects if e not in table_effect_kinds()]
    if unknown:
        raise BadRequest(f"effects: not table effects: {', '.join(unknown)}", zh="纠正措施中有不认识的项目")
    sanctions = _string_list(data.get("sanctions", []), "sanctions")
    for key in sanctions:
        if not _SANCTION_KEY.match(key) or key.split("(")[0] not in kinds(Sanction):
            raise BadRequest(f"sanctions: {key!r} is not a sanction (e.g. Warning, PointPenalty(10))",
                             zh="处罚中有不认识的项目")
    return TraineeAnswer(entry.id, tuple(dict.fromkeys(effects)), tuple(dict.fromkeys(sanctions)))


def _string_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or len(value) > 32 or not all(isinstance(v, str) and len(v) <= 40 for v in value):
        raise BadRequest(f"{what}: a list of at most 32 short names", zh="所选项目过多或名称过长")
    return [v.strip() for v in value]


def _seconds(value: Any) -> float | None:
    """Seconds taken on an answer: absent, or a number from 0 on (over a day: unknown)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise BadRequest("seconds: a number of seconds from 0 on", zh="用时须为不小于 0 的秒数")
    return float(value) if value < MAX_SECONDS else None


def _int(value: Any, what: str, low: int, high: int) -> int:
    """A whole number of a JSON body (not a string, a fraction or true/false) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{what}: a whole number is needed", zh=f"{what} 须为整数")
    if not low <= value <= high:
        raise BadRequest(f"{what}: between {low} and {high}", zh=f"{what} 须在 {low} 与 {high} 之间")
    return value


def _int_text(value: str | None, what: str, low: int, high: int) -> int:
    """A whole number written in a path or query (decimal digits only) in [low, high]."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > len(str(high)):
        raise BadRequest(f"{what}: a whole number is needed", zh=f"{what} 须为整数")
    return _int(int(value), what, low, high)


# ---------------------------------------------------------------------------------------------
# The app


class Trainer:
    """The server's state: the scenario bank, the database, live sessions, continuations."""

    def __init__(self, bank: ScenarioBank, store: Store, instructor_key: str | None = None) -> None:
        self.bank = bank
        self.store = store
        self.instructor_key = instructor_key
        self.live: OrderedDict[str, LiveSession] = OrderedDict()
        self.kept: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._next = 0

    def _token(self, prefix: str) -> str:
        """A new id nobody can guess: a kept page shows a ruling, a live deal takes rulings,
        and neither may be reached by counting (another trainee's, before one's own answer)."""
        with self._lock:
            self._next += 1
            return f"{prefix}{self._next}-{secrets.token_urlsafe(12)}"

    def keep_page(self, page: str) -> str:
        token = self._token("c")
        with self._lock:
            self.kept[token] = page
            while len(self.kept) > MAX_KEPT:
                self.kept.popitem(last=False)
        return token

    async def scenario(self, sid: str) -> Scenario:
        """The scenario ``sid`` names (a game's scenarios are made on first use, in a thread:
        that takes seconds)."""
        scenario = await run_in_threadpool(self.bank.get, sid)
        if scenario is None:
            raise BadRequest(f"no scenario {sid!r}", 404, zh="没有这道题")
        return scenario

    def game(self, value: Any) -> str:
        if value not in self.bank.games:
            raise BadRequest(f"game: one of {', '.join(self.bank.games)}",
                             zh="项目须为：" + "、".join(wording.GAME_NAMES.get(g, (g,))[0] for g in self.bank.games))
        return str(value)

    # -- pages --------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        return HTMLResponse(_asset("index.html"))

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            raise BadRequest("no such file", 404, zh="没有这个文件")
        return Response(_asset(name), media_type=ASSETS[name])

    async def scenario_table(self, request: Request) -> Response:
        from paiju.replay.html import render_page

        scenario = await self.scenario(request.path_params["sid"])
        view = scenario.view()
        return framed_page(await run_in_threadpool(
            lambda: render_page(view, None, "scenario", len(view.events) - 1, hide_judgement=True, chinese=True)))

    async def kept_page(self, request: Request) -> Response:
        page = self.kept.get(request.path_params["token"])
        if page is None:
            raise BadRequest("that page is no longer kept: apply the ruling again", 404, zh="这一页已不再保留：请重新执行裁决")
        return framed_page(page)

    async def live_table(self, request: Request) -> Response:
        from paiju.replay.html import render_page

        session = self._live(request.path_params["lid"])
        log = session.log()
        return framed_page(await run_in_threadpool(
            lambda: render_page(log, None, "live deal", len(log.events) - 1, hide_judgement=True, chinese=True)))

    async def exam_page(self, request: Request) -> Response:
        exam = self._exam_at(request.path_params["eid"])
        if exam.finished is None and exam.remaining(time.time()) > 0:
            raise BadRequest("the exam is still running: its results are shown once it is handed in", 409,
                             zh="考试尚未结束：交卷后才显示成绩")
        if request.query_params.get("trainee") != exam.trainee and not self._instructor(request):
            raise BadRequest("an exam's result is its trainee's and the instructor's", 403, zh="考试成绩只有本人和教练能看")
        rows = self.store.exam_attempts(exam.id)
        return HTMLResponse(await run_in_threadpool(_exam_result_page, exam, rows, self.bank))

    # -- the API ------------------------------------------------------------------------------

    async def games(self, request: Request) -> Response:
        from enforcement.rulebook import clauses_for
        from paiju.rules_search import haystack

        out = []
        for game in self.bank.games:
            clauses = [c for c in clauses_for(game) if not c.heading]
            effects = sorted({k for c in clauses for k in c.allowed_effects})
            zh, en = wording.GAME_NAMES.get(game, (game, game))
            chapters = [{"id": cid, "zh": czh, "en": cen, "number": wording.seed_number(cid)}
                        for cid, czh, cen in terms.CHAPTERS.get(game, ())]
            out.append({"game": game, "zh": zh, "en": en, "chapters": chapters,
                        # ``search``: what the clause search reads (its words, and what people also say for them)
                        "clauses": [{"id": c.id, **terms.clause_words(c), "search": haystack(c.id)} for c in clauses],
                        "effects": [{"kind": k, "zh": wording.EFFECT_TERMS.get(k, (k, k))[0], "en": wording.EFFECT_TERMS.get(k, (k, k))[1]}
                                    for k in effects]})
        sanctions = [{"kind": k, "zh": wording.SANCTION_TERMS.get(k, (k, k))[0], "en": wording.SANCTION_TERMS.get(k, (k, k))[1]}
                     for k in kinds(Sanction)]
        return JSONResponse({"games": out, "sanctions": sanctions})

    def _chapter_clauses(self, game: str, chapter: str | None) -> list[str]:
        """The practisable clauses of a chapter (all the game's without one), the easiest
        scenario's clause first."""
        clauses = self.bank.clauses(game)
        if chapter is not None:
            if chapter not in {c for c, _, _ in terms.CHAPTERS.get(game, ())}:
                raise BadRequest(f"chapter: one of {', '.join(c for c, _, _ in terms.CHAPTERS.get(game, ()))}",
                                 zh="没有这个章节")
            clauses = [c for c in clauses if terms.chapter_of(c) == chapter]
            clauses.sort(key=lambda c: self.bank.difficulty(self.bank.for_clause(game, c)[0]))
        return clauses

    async def next_scenario(self, request: Request) -> Response:
        game = self.game(request.query_params.get("game"))
        trainee = trainee_name(request.query_params.get("trainee"))
        chapter = request.query_params.get("chapter") or None
        clauses = await run_in_threadpool(self._chapter_clauses, game, chapter)
        if not clauses:
            raise BadRequest("this chapter has no scenario to practise", 404, zh="这个章节暂无练习题")
        clause = self.store.next_clause(trainee, game, clauses)
        choices = self.bank.for_clause(game, clause)
        tried = {row["scenario"] for row in self.store.attempts(trainee, game)}
        sid = next((s for s in choices if s not in tried), choices[len(tried) % len(choices)])
        return JSONResponse({"scenario": sid})

    async def scenario_info(self, request: Request) -> Response:
        scenario = await self.scenario(request.path_params["sid"])
        return JSONResponse({"scenario": request.path_params["sid"], "game": scenario.game,
                             "position": scenario.position, "events": len(scenario.view().events)})

    async def answer(self, request: Request) -> Response:
        sid = request.path_params["sid"]
        scenario = await self.scenario(sid)
        data = await _body(request)
        trainee = trainee_name(data.get("trainee"))
        exam = self._exam(_int(data["exam"], "exam", 1, 2**31 - 1)) if data.get("exam") is not None else None
        if exam is not None:
            if exam.trainee != trainee or sid not in exam.scenarios:
                raise BadRequest("this scenario is not part of your exam", zh="这道题不在你的考试中")
            if exam.finished is not None or exam.remaining(time.time()) <= 0:
                raise BadRequest("the exam is over", 409, zh="考试已经结束")
        elif self._in_open_exam(trainee, sid):
            # Practising a scenario of one's own running exam would show its answer.
            raise BadRequest("this scenario is part of your exam that is still running: answer it there", 409,
                                 zh="这道题属于你正在进行的考试：请在考试中作答")
        given = read_answer(data, scenario.game)
        seconds = _seconds(data.get("seconds"))
        graded = grade(scenario.expected, parse_answer(given.answer_line(), lenient=True))
        await run_in_threadpool(lambda: self.store.record(
            trainee=trainee, game=scenario.game, scenario=sid, clause=scenario.expected.clause, given=given.clause,
            answer=given.answer_line(), verdict=graded.verdict, seconds=seconds,
            mode="exam" if exam else "practice", exam=exam.id if exam else None))
        if exam is not None:
            return JSONResponse({"recorded": True})
        missed = [k for k in scenario.expected.rectification if k not in given.effects and k not in IMPLIED_EFFECTS]
        replay = await run_in_threadpool(self._replay_from_before, scenario)
        return JSONResponse({"verdict": graded.verdict, "right": graded.verdict == RIGHT,
                             "verdict_zh": terms.VERDICTS.get(graded.verdict, (graded.verdict,))[0],
                             "remarks_zh": terms.remarks_zh(scenario.expected, given.clause, given.effects,
                                                            given.sanctions),
                             "explanation_zh": terms.explanation_zh(scenario, missed), "replay": replay,
                             "remarks": list(graded.remarks), "explanation": explanation(scenario),
                             "expected": {"clause": scenario.expected.clause,
                                          "rectification": list(scenario.expected.rectification),
                                          "sanctions": list(scenario.expected.sanctions)}})

    def _in_open_exam(self, trainee: str, sid: str) -> bool:
        now = time.time()
        return any(sid in e.scenarios for e in self.store.open_exams(trainee) if e.remaining(now) > 0)

    def _replay_from_before(self, scenario: Scenario) -> str:
        """A page of the scenario's deal under the rulebook's ruling, opened one step before
        the ruling (kept like a continuation)."""
        from paiju.replay.html import render_page

        own = rulebook_continuation(scenario)
        page = render_page(own.log, None, "replay", start_index=max(0, own.ruling_index - 1), chinese=True)
        return f"/kept/{self.keep_page(page)}"

    async def apply(self, request: Request) -> Response:
        sid = request.path_params["sid"]
        scenario = await self.scenario(sid)
        data = await _body(request)
        trainee = trainee_name(data.get("trainee"))
        given = read_answer(data, scenario.game)
        # The rulebook's continuation shows its ruling: only after the trainee has answered.
        if not self.store.has_practised(trainee, sid) or self._in_open_exam(trainee, sid):
            raise BadRequest("submit your ruling first: the rulebook's ruling is shown after an answer", 409,
                             zh="请先提交你的裁决：作答后才显示规则的裁决")
        return JSONResponse(await run_in_threadpool(self._both_continuations, scenario, given))

    def _both_continuations(self, scenario: Scenario, given: TraineeAnswer) -> dict[str, Any]:
        from paiju.replay.html import render_page

        own = _continuation(self, rulebook_continuation(scenario), render_page)
        started = time.perf_counter()
        try:
            mine = apply_trainee_ruling(scenario, given)
        except CannotApply as exc:
            reason_zh = exc.zh if isinstance(exc, TableStuck) else terms.cannot_apply_zh(str(exc))
            return {"applied": False, "reason": str(exc), "reason_zh": reason_zh, "rulebook": own}
        seconds = time.perf_counter() - started
        return {"applied": True, "seconds": round(seconds, 3), "rulebook": own,
                "yours": _continuation(self, mine, render_page)}

    async def progress(self, request: Request) -> Response:
        game = self.game(request.query_params.get("game"))
        trainee = trainee_name(request.query_params.get("trainee"))
        records = self.store.clause_records(trainee, game)
        now = time.time()
        rows = [{"clause": r.clause, "label": terms.clause_label(r.clause), "attempts": r.attempts, "right": r.right, "accuracy": round(r.accuracy, 3),
                 "box": r.box, "due_in": max(0, round(r.due - now))} for r in records.values()]
        rows.sort(key=lambda r: (r["accuracy"], r["clause"]))
        return JSONResponse({"trainee": trainee, "game": game, "clauses": rows,
                             "weakest": [r.clause for r in self.store.weakest(trainee, game)],
                             "attempts": sum(r.attempts for r in records.values())})

    async def overview(self, request: Request) -> Response:
        """The home page's path: each chapter of the game's code with the trainee's progress,
        what is due for review, and the chapter to continue."""
        game = self.game(request.query_params.get("game"))
        trainee = trainee_name(request.query_params.get("trainee"))
        clauses = await run_in_threadpool(self.bank.clauses, game)
        records = self.store.clause_records(trainee, game)
        now = time.time()
        chapters: list[dict[str, Any]] = []
        for cid, zh, en in terms.CHAPTERS.get(game, ()):
            own = [c for c in clauses if terms.chapter_of(c) == cid]
            tried = [records[c] for c in own if c in records]
            attempts = sum(r.attempts for r in tried)
            right = sum(r.right for r in tried)
            chapters.append({"id": cid, "zh": zh, "en": en, "number": wording.seed_number(cid), "clauses": len(own),
                             "scenarios": sum(len(self.bank.for_clause(game, c)) for c in own),
                             "tried": len(tried), "mastered": sum(1 for r in tried if r.box >= 2),
                             "attempts": attempts, "accuracy": round(right / attempts, 3) if attempts else None,
                             "due": sum(1 for r in tried if r.due <= now)})
        due = [{"clause": r.clause, "label": terms.clause_label(r.clause)} for r in records.values() if r.due <= now]
        practisable = [c for c in chapters if c["clauses"]]
        going = next((c["id"] for c in practisable if c["due"]), None) or \
            next((c["id"] for c in practisable if c["tried"] < c["clauses"]), None) or \
            (practisable[0]["id"] if practisable else None)
        last = max((r.last for r in records.values()), default=None)
        return JSONResponse({"trainee": trainee, "game": game, "chapters": chapters, "due": due, "continue": going,
                             "attempts": sum(r.attempts for r in records.values()), "last_seen": last})

    async def start_exam(self, request: Request) -> Response:
        data = await _body(request)
        game = self.game(data.get("game"))
        trainee = trainee_name(data.get("trainee"))
        count = _int(data.get("count", 10), "count", 1, EXAM_MAX)
        minutes = _int(data.get("minutes", 20), "minutes", 1, 240)
        ids = await run_in_threadpool(self.bank.ids, game)
        step = max(1, len(ids) // count)
        chosen = [ids[(i * step) % len(ids)] for i in range(count)]
        exam = self.store.start_exam(trainee, game, chosen, minutes * 60)
        return JSONResponse({"exam": exam.id, "scenarios": list(exam.scenarios), "seconds": exam.seconds})

    async def exam_state(self, request: Request) -> Response:
        exam = self._exam_at(request.path_params["eid"])
        return JSONResponse({"exam": exam.id, "trainee": exam.trainee, "game": exam.game,
                             "scenarios": list(exam.scenarios), "remaining": round(exam.remaining(time.time())),
                             "finished": exam.finished is not None,
                             "answered": [r["scenario"] for r in self.store.exam_attempts(exam.id)]})

    async def finish_exam(self, request: Request) -> Response:
        exam = self._exam_at(request.path_params["eid"])
        self.store.finish_exam(exam.id)
        rows = self.store.exam_attempts(exam.id)
        results = []
        for sid in exam.scenarios:
            row = next((r for r in rows if r["scenario"] == sid), None)
            scenario = await run_in_threadpool(self.bank.get, sid)
            verdict = row["verdict"] if row else "unanswered"
            results.append({"scenario": sid, "verdict": verdict, "answer": row["answer"] if row else None,
                            "verdict_zh": terms.VERDICTS.get(verdict, (verdict,))[0],
                            "given_zh": terms.clause_label(row["given"]) if row and row["given"] else "",
                            "explanation": explanation(scenario) if scenario else [],
                            "explanation_zh": terms.explanation_zh(scenario) if scenario else []})
        right = sum(r["verdict"] == RIGHT for r in results)
        return JSONResponse({"exam": exam.id, "right": right, "count": len(results), "results": results})

    def _instructor(self, request: Request) -> bool:
        """Whether the request carries the instructor's key (always, when the app has none)."""
        if self.instructor_key is None:
            return True
        given = request.query_params.get("key") or request.headers.get("x-instructor-key") or ""
        return hmac.compare_digest(given.encode("utf-8"), self.instructor_key.encode("utf-8"))

    def _require_instructor(self, request: Request) -> None:
        if not self._instructor(request):
            raise BadRequest("the instructor's key is needed (`paiju train serve` printed it)", 403,
                             zh="需要教练口令（启动 paiju train serve 时显示）")

    async def trainees(self, request: Request) -> Response:
        self._require_instructor(request)
        return JSONResponse({"trainees": self.store.trainees()})

    async def cohort(self, request: Request) -> Response:
        """The instructor's view: trainees × chapters (accuracy, attempts), last seen, exams."""
        self._require_instructor(request)
        game = self.game(request.query_params.get("game"))
        chapters = [{"id": cid, "zh": zh, "en": en, "number": wording.seed_number(cid)}
                    for cid, zh, en in terms.CHAPTERS.get(game, ())]
        by_trainee: dict[str, dict[str, list[int]]] = {}
        last: dict[str, float] = {}
        for row in self.store.attempts(game=game):
            counts = by_trainee.setdefault(row["trainee"], {}).setdefault(terms.chapter_of(row["clause"]), [0, 0])
            counts[0] += 1
            counts[1] += row["verdict"] == RIGHT
            last[row["trainee"]] = max(last.get(row["trainee"], 0.0), row["at"])
        rows = []
        for name in sorted(by_trainee):
            cells = [by_trainee[name].get(c["id"], [0, 0]) for c in chapters]
            attempts, right = sum(c[0] for c in cells), sum(c[1] for c in cells)
            rows.append({"trainee": name, "attempts": attempts, "accuracy": round(right / attempts, 3) if attempts else None,
                         "last_seen": last[name],
                         "chapters": [{"attempts": a, "accuracy": round(r / a, 3) if a else None} for a, r in cells]})
        exams = [{"exam": e.id, "trainee": e.trainee, "started": e.started, "count": len(e.scenarios),
                  "right": sum(r["verdict"] == RIGHT for r in self.store.exam_attempts(e.id))}
                 for e in self.store.exams(game) if e.finished is not None]
        return JSONResponse({"game": game, "chapters": chapters, "trainees": rows, "exams": exams})

    async def export(self, request: Request) -> Response:
        self._require_instructor(request)
        trainee = request.query_params.get("trainee")
        text = self.store.export_csv(trainee_name(trainee) if trainee is not None else None)
        return PlainTextResponse(text, media_type="text/csv; charset=utf-8",
                                 headers={"Content-Disposition": 'attachment; filename="paiju-training.csv"'})

    async def start_live(self, request: Request) -> Response:
        data = await _body(request)
        game = self.game(data.get("game"))
        trainee = trainee_name(data.get("trainee"))
        seed = _int(data.get("seed", int(time.time()) % 100_000), "seed", 0, 2**31 - 1)
        session = LiveSession(game, seed, trainee)
        lid = self._token("live")
        with self._lock:
            while len(self.live) >= MAX_LIVE:
                _, old = self.live.popitem(last=False)
                old.close()
            self.live[lid] = session
        session.start()
        return JSONResponse({"live": lid, "seed": seed})

    async def live_state(self, request: Request) -> Response:
        from paiju.replay.fold import Fold

        session = self._live(request.path_params["lid"])
        since = _int_text(request.query_params.get("since", "0"), "since", 0, 1_000_000)
        state = session.state()
        def fold() -> list[Any]:
            folding = Fold(session.log(), None, "live")
            folding.table.hide_judgement = True   # the referee's findings would give the ruling away
            return list(folding.steps())

        folded = await run_in_threadpool(fold)
        state["steps"] = [{"text": s.text, "zh": s.zh, "tags": s.tags, "last": s.last} for s in folded if s.last >= since]
        if state["failed"] and not state["failed_zh"]:
            state["failed_zh"] = "这副牌无法继续打下去（牌桌出错，技术细节见英文界面）"
        for answered in state["answered"]:
            answered["verdict_zh"] = terms.VERDICTS.get(answered["verdict"], (answered["verdict"],))[0]
            answered["expected_zh"] = terms.clause_label(answered["expected_clause"])
            answered["given_zh"] = terms.clause_label(answered["answer"].split(";")[0]) if answered["answer"] else "—"
            answered["carried_zh"] = "按你的裁决执行" if answered["carried_out"] == "trainee" else "按规则的裁决执行"
        return JSONResponse(state)

    async def live_rule(self, request: Request) -> Response:
        session = self._live(request.path_params["lid"])
        given = read_answer(await _body(request), session.game)
        try:
            session.give_answer(given)
        except LookupError as exc:
            raise BadRequest(str(exc), 409, zh="现在没有等待裁决的违例") from None
        return JSONResponse({"accepted": True})

    def _live(self, lid: str) -> LiveSession:
        session = self.live.get(lid)
        if session is None:
            raise BadRequest(f"no live deal {lid!r}", 404, zh="没有这副现场牌局（可能已结束）")
        return session

    def _exam_at(self, eid: str) -> Any:
        return self._exam(_int_text(eid, "exam", 1, 2**31 - 1))

    def _exam(self, number: int) -> Any:
        exam = self.store.exam(number)
        if exam is None:
            raise BadRequest("no such exam", 404, zh="没有这场考试")
        return exam


def _continuation(trainer: Trainer, continuation: Any, render_page: Any) -> dict[str, Any]:
    page = render_page(continuation.log, None, "continuation", start_index=continuation.ruling_index, chinese=True)
    return {"outcome": list(continuation.outcome), "page": f"/kept/{trainer.keep_page(page)}"}


def _exam_result_page(exam: Any, rows: list[dict[str, Any]], bank: ScenarioBank) -> str:
    """The printable result of a handed-in exam: Chinese first, English beneath."""
    import html

    right = sum(r["verdict"] == RIGHT for r in rows)
    items = []
    for sid in exam.scenarios:
        row = next((r for r in rows if r["scenario"] == sid), None)
        scenario = bank.get(sid)
        verdict = row["verdict"] if row else "unanswered"
        zh, en = terms.VERDICTS.get(verdict, (verdict, verdict))
        given = terms.clause_label(row["given"]) if row and row["given"] else "—"
        lines = terms.explanation_zh(scenario) if scenario else []
        english = explanation(scenario) if scenario else []
        items.append(f"<li><b>{html.escape(zh)}</b> <span class=\"en\">{html.escape(en)}</span> · "
                     f"你的条款：{html.escape(given)}"
                     f"<div class=\"why\">{'<br>'.join(html.escape(x) for x in lines)}</div>"
                     f"<div class=\"why en\">{'<br>'.join(html.escape(x) for x in english)}</div></li>")
    when = time.strftime("%Y年%m月%d日 %H:%M UTC", time.gmtime(exam.started))
    game = wording.GAME_NAMES.get(exam.game, (exam.game, exam.game))[0]
    return ("<!DOCTYPE html><html lang=\"zh\"><head><meta charset=\"utf-8\"><title>考试成绩 · Exam result</title>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<link rel=\"stylesheet\" href=\"/static/style.css\"></head><body class=\"print\"><main>"
            f"<h1>考试成绩 <span class=\"en\">Exam result</span></h1>"
            f"<p>学员：{html.escape(exam.trainee)} · {html.escape(game)} · 第 {exam.id} 场 · {when}</p>"
            f"<p class=\"score\">得分 {right} / {len(exam.scenarios)}</p><ol>{''.join(items)}</ol></main></body></html>")


async def _no_icon(request: Request) -> Response:
    return Response(status_code=204)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    zh = exc.zh if isinstance(exc, BadRequest) else REFUSED_ZH.get(exc.status_code, "请求有误")
    return JSONResponse({"error": f"{zh}（{exc.detail}）", "error_zh": zh, "error_en": exc.detail},
                        status_code=exc.status_code, headers=exc.headers)


def create_app(bank: ScenarioBank, store: Store, hosts: frozenset[str] = frozenset(),
               instructor_key: str | None = None) -> Starlette:
    """The trainer's app; ``hosts``: the Host names it answers besides the loopback ones and
    the address a connection arrives on (``guard.served_names``); ``instructor_key``: what
    the instructor's views (every trainee's records) ask for (None: they are open)."""
    t = Trainer(bank, store, instructor_key)
    routes = [
        Route("/", t.index), Route("/static/{name}", t.asset), Route("/favicon.ico", _no_icon),
        Route("/scenario/{sid}/table", t.scenario_table), Route("/kept/{token}", t.kept_page),
        Route("/live/{lid}/table", t.live_table), Route("/exam/{eid}/result", t.exam_page),
        Route("/api/games", t.games), Route("/api/next", t.next_scenario),
        Route("/api/scenario/{sid}", t.scenario_info),
        Route("/api/scenario/{sid}/answer", t.answer, methods=["POST"]),
        Route("/api/scenario/{sid}/apply", t.apply, methods=["POST"]),
        Route("/api/progress", t.progress), Route("/api/overview", t.overview),
        Route("/api/exam", t.start_exam, methods=["POST"]), Route("/api/exam/{eid}", t.exam_state),
        Route("/api/exam/{eid}/finish", t.finish_exam, methods=["POST"]),
        Route("/api/trainees", t.trainees), Route("/api/cohort", t.cohort), Route("/api/export.csv", t.export),
        Route("/api/live", t.start_live, methods=["POST"]), Route("/api/live/{lid}", t.live_state),
        Route("/api/live/{lid}/rule", t.live_rule, methods=["POST"]),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error},
                    middleware=[Middleware(SecurityHeaders), Middleware(RequestGuard, names=hosts)])
    app.state.trainer = t
    return app
