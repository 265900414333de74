"""Progress that lasts: every attempt in a SQLite database, per-clause accuracy, the next
clause by spaced repetition, and exams.

Each write is one transaction (``with connection``), so a server killed mid-write loses at
most the attempt being written, never the database; WAL mode lets two trainees' requests
read while one writes. A connection is opened per call: the web server answers requests on
several threads, and sqlite3 connections must not cross threads.

Spaced repetition is a Leitner schedule per (trainee, game, clause): a right answer moves
the clause up a box, anything else back to the first; a clause is due ``INTERVALS[box]``
seconds after its last attempt. The next clause is the due one with the lowest accuracy
(then the longest waiting), else one never tried, else the one due soonest.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

INTERVALS = (0, 10 * 60, 24 * 3600, 3 * 24 * 3600, 7 * 24 * 3600, 21 * 24 * 3600)
"""Seconds a clause waits after an attempt, by Leitner box (0: right away)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY,
    trainee TEXT NOT NULL,
    game TEXT NOT NULL,
    scenario TEXT NOT NULL,
    clause TEXT NOT NULL,
    given TEXT,
    answer TEXT,
    verdict TEXT NOT NULL,
    seconds REAL,
    mode TEXT NOT NULL,
    exam INTEGER,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_trainee ON attempts (trainee, game, clause, at);
CREATE TABLE IF NOT EXISTS exams (
    id INTEGER PRIMARY KEY,
    trainee TEXT NOT NULL,
    game TEXT NOT NULL,
    scenarios TEXT NOT NULL,
    started REAL NOT NULL,
    seconds REAL NOT NULL,
    finished REAL
);
"""

RIGHT = "right"


def default_db_path() -> str:
    """The database in the user's data directory (XDG_DATA_HOME, else ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "paiju", "training.sqlite3")


@attrs.frozen
class ClauseRecord:
    clause: str
    attempts: int
    right: int
    box: int
    last: float
    due: float

    @property
    def accuracy(self) -> float:
        return self.right / self.attempts if self.attempts else 0.0


@attrs.frozen
class Exam:
    id: int
    trainee: str
    game: str
    scenarios: tuple[str, ...]
    started: float
    seconds: float
    finished: float | None

    def remaining(self, now: float) -> float:
        return max(0.0, self.started + self.seconds - now)


class Store:
    """The training database at ``path`` (created on first use, in a directory that exists:
    only ``default_db_path``'s directory is made, by ``paiju train serve``)."""

    def __init__(self, path: str, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10)
        db.row_factory = sqlite3.Row
        return db

    # -- attempts -------------------------------------------------------------------------------

    def record(self, *, trainee: str, game: str, scenario: str, clause: str, given: str | None, answer: str | None,
               verdict: str, seconds: float | None, mode: str, exam: int | None = None) -> int:
        db = self._connect()
        try:
            with db:
                cursor = db.execute(
                    "INSERT INTO attempts (trainee, game, scenario, clause, given, answer, verdict, seconds, mode, exam, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (trainee, game, scenario, clause, given, answer, verdict, seconds, mode, exam, self.clock()))
                return int(cursor.lastrowid or 0)
        finally:
            db.close()

    def attempts(self, trainee: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT * FROM attempts"
        where, args = _filters(trainee=trainee, game=game)
        db = self._connect()
        try:
            return [dict(row) for row in db.execute(query + where + " ORDER BY id", args)]
        finally:
            db.close()

    def clause_records(self, trainee: str, game: str) -> dict[str, ClauseRecord]:
        """Per clause tried: attempts, right answers, Leitner box and when it is due."""
        out: dict[str, ClauseRecord] = {}
        history: dict[str, list[dict[str, Any]]] = {}
        for row in self.attempts(trainee, game):
            history.setdefault(row["clause"], []).append(row)
        for clause, rows in history.items():
            box = 0
            for row in rows:
                box = min(box + 1, len(INTERVALS) - 1) if row["verdict"] == RIGHT else 0
            last = rows[-1]["at"]
            out[clause] = ClauseRecord(clause, len(rows), sum(r["verdict"] == RIGHT for r in rows), box, last,
                                       last + INTERVALS[box])
        return out

    def next_clause(self, trainee: str, game: str, clauses: Sequence[str]) -> str:
        """The clause to practise next (see the module doc); ``clauses`` are the candidates,
        in a fixed order that breaks ties."""
        if not clauses:
            raise ValueError("no clause to practise")
        records = self.clause_records(trainee, game)
        now = self.clock()
        due = [records[c] for c in clauses if c in records and records[c].due <= now]
        if due:
            return min(due, key=lambda r: (r.accuracy, r.last)).clause
        fresh = [c for c in clauses if c not in records]
        if fresh:
            return fresh[0]
        return min((records[c] for c in clauses), key=lambda r: r.due).clause

    def weakest(self, trainee: str, game: str, count: int = 5) -> list[ClauseRecord]:
        records = sorted(self.clause_records(trainee, game).values(), key=lambda r: (r.accuracy, -r.attempts, r.clause))
        return records[:count]

    # -- exams --------------------------------------------------------------------------------

    def start_exam(self, trainee: str, game: str, scenarios: Iterable[str], seconds: float) -> Exam:
        ids = tuple(scenarios)
        db = self._connect()
        try:
            with db:
                cursor = db.execute("INSERT INTO exams (trainee, game, scenarios, started, seconds) VALUES (?, ?, ?, ?, ?)",
                                    (trainee, game, json.dumps(ids), self.clock(), seconds))
                number = int(cursor.lastrowid or 0)
        finally:
            db.close()
        exam = self.exam(number)
        assert exam is not None
        return exam

    def exam(self, number: int) -> Exam | None:
        db = self._connect()
        try:
            row = db.execute("SELECT * FROM exams WHERE id = ?", (number,)).fetchone()
        finally:
            db.close()
        if row is None:
            return None
        return Exam(row["id"], row["trainee"], row["game"], tuple(json.loads(row["scenarios"])), row["started"],
                    row["seconds"], row["finished"])

    def exams(self, game: str | None = None) -> list[Exam]:
        """Every exam (of one game), the latest first."""
        db = self._connect()
        try:
            where, args = _filters(game=game)
            numbers = [row["id"] for row in db.execute("SELECT id FROM exams" + where + " ORDER BY id DESC", args)]
        finally:
            db.close()
        return [e for e in map(self.exam, numbers) if e is not None]

    def open_exams(self, trainee: str) -> list[Exam]:
        """The trainee's exams not handed in (some may have run out of time)."""
        db = self._connect()
        try:
            numbers = [row["id"] for row in db.execute("SELECT id FROM exams WHERE trainee = ? AND finished IS NULL",
                                                         (trainee,))]
        finally:
            db.close()
        return [e for e in map(self.exam, numbers) if e is not None]

    def has_practised(self, trainee: str, scenario: str) -> bool:
        """Whether the trainee has answered the scenario in practice (its answer then shown)."""
        db = self._connect()
        try:
            row = db.execute("SELECT 1 FROM attempts WHERE trainee = ? AND scenario = ? AND mode = 'practice' LIMIT 1",
                             (trainee, scenario)).fetchone()
        finally:
            db.close()
        return row is not None

    def finish_exam(self, number: int) -> None:
        db = self._connect()
        try:
            with db:
                db.execute("UPDATE exams SET finished = ? WHERE id = ? AND finished IS NULL", (self.clock(), number))
        finally:
            db.close()

    def exam_attempts(self, number: int) -> list[dict[str, Any]]:
        db = self._connect()
        try:
            return [dict(row) for row in db.execute("SELECT * FROM attempts WHERE exam = ? ORDER BY id", (number,))]
        finally:
            db.close()

    # -- instructors --------------------------------------------------------------------------

    def trainees(self) -> list[dict[str, Any]]:
        """Each trainee: attempts, right answers, games, last seen."""
        db = self._connect()
        try:
            rows = db.execute("SELECT trainee, COUNT(*) AS attempts, SUM(verdict = ?) AS right, "
                              "GROUP_CONCAT(DISTINCT game) AS games, MAX(at) AS last "
                              "FROM attempts GROUP BY trainee ORDER BY trainee", (RIGHT,))
            return [dict(row) for row in rows]
        finally:
            db.close()

    def export_csv(self, trainee: str | None = None) -> str:
        """Every attempt (of one trainee, or all) as CSV text."""
        rows = self.attempts(trainee)
        out = io.StringIO()
        fields = ("id", "trainee", "game", "scenario", "clause", "given", "verdict", "seconds", "mode", "exam", "at")
        writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            cells = {name: spreadsheet_text(value) for name, value in row.items()}
            writer.writerow({**cells, "at": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(row["at"]))})
        return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula in a CSV cell."""


def spreadsheet_text(value: Any) -> Any:
    """A text cell a spreadsheet shows as text: one that would start a formula (a trainee
    named ``=HYPERLINK(…)``) gets a leading apostrophe; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _filters(**given: Any) -> tuple[str, tuple[Any, ...]]:
    parts = [(f"{name} = ?", value) for name, value in given.items() if value is not None]
    if not parts:
        return "", ()
    return " WHERE " + " AND ".join(p for p, _ in parts), tuple(v for _, v in parts)
