"""Rulebook holes (`paiju fuzz … --holes OUT.md|OUT.html`): every ``ref.unresolved`` is a
situation the rulebook does not decide. They are clustered by situation — the
irregularity, the table conditions in force, the phase (``interactions.Situation``) — and
reported for a rulebook author: the situation in words (Chinese and English), how often it
arose, the fallback applied, the smallest reproducing log (the case shrunk by
``case.shrink`` while it still meets the situation) and the one command that replays it."""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from enforcement.rulebook import clauses_for
from tabletop.errors import OptionError

from paiju.fuzz.case import Case, Finding, Outcome, run_case, shrink
from paiju.fuzz.guided import case_from_dict, case_to_dict
from paiju.fuzz.interactions import Recorder, Situation, Unresolved, interactions_of
from paiju.progress import Reporter
from paiju.summary import counted

PHASE_WORDS = {"draw": ("the draw", "抓牌"), "declare": ("the declaration", "亮主"), "kitty": ("the burial", "扣底"),
               "tribute": ("tribute", "进贡"), "return": ("the return", "还贡"), "play": ("the play", "出牌"),
               "scored": ("the end of the deal", "计分")}
HOLE = "hole"
SHRINK_RUNS = 40


@attrs.define
class Cluster:
    situation: Situation
    count: int = 0
    cases: int = 0
    fallbacks: Counter = attrs.field(factory=Counter)
    note: str = ""
    example: Case | None = None
    """The smallest case met so far that reached the situation."""


def _size(case: Case) -> tuple[int, int, float]:
    return (1 if case.unit == "deals" else (case.max_deals or 99), len(case.rates), sum(r for _, r in case.rates))


class Holes:
    """The unresolved situations of a run, by situation."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.clusters: dict[str, Cluster] = {}

    def add(self, case: Case, unresolved: Iterable[Unresolved]) -> None:
        seen: set[str] = set()
        for u in unresolved:
            key = u.situation.key
            cluster = self.clusters.get(key)
            if cluster is None:
                cluster = self.clusters[key] = Cluster(u.situation, note=u.note)
            cluster.count += 1
            cluster.fallbacks[u.fallback] += 1
            if key not in seen:
                seen.add(key)
                cluster.cases += 1
                if cluster.example is None or _size(case) < _size(cluster.example):
                    cluster.example = case

    def ordered(self) -> list[Cluster]:
        return sorted(self.clusters.values(), key=lambda c: (-c.count, c.situation.key))

    def to_dict(self) -> list[dict[str, Any]]:
        return [{"situation": c.situation.key, "count": c.count, "cases": c.cases, "fallbacks": dict(c.fallbacks),
                 "note": c.note, "example": None if c.example is None else case_to_dict(c.example)}
                for c in self.ordered()]

    def load(self, data: Iterable[Mapping[str, Any]]) -> None:
        for row in data:
            self.clusters[row["situation"]] = Cluster(
                Situation.from_key(row["situation"]), int(row["count"]), int(row["cases"]), Counter(row["fallbacks"]),
                row.get("note", ""), None if row.get("example") is None else case_from_dict(row["example"]))


# ---------------------------------------------------------------------------------------------
# Words


def situation_words(game: str, situation: Situation) -> tuple[str, str]:
    """The situation in English and in Chinese."""
    from enforcement.irregularities import irregularity_of
    from paiju.wording import words_for

    spec = interactions_of(game)
    words = words_for(game)
    record = irregularity_of(game, situation.irregularity)
    # its words say what a seat did ('plays out of turn') or what happened ('an invalid lead')
    en_irr, zh_irr = ((f"irregularity “{record.en}”", record.zh) if record is not None
                      else (situation.irregularity, situation.irregularity))
    en_phase, zh_phase = PHASE_WORDS.get(situation.phase, (situation.phase, situation.phase))
    by_name = {c.name: c for c in spec.conditions}
    conditions = [by_name[n] for n in situation.conditions if n in by_name]
    en = f"{en_irr[0].upper()}{en_irr[1:]} during {en_phase}"
    terms = [words.conditions.get(c.name, (c.en, c.zh)) for c in conditions]
    en += (", with in force: " + "; ".join(e for e, _ in terms)) if terms else ", with no other condition in force"
    zh = f"{zh_phase}阶段发生“{zh_irr}”"
    zh += ("，同时" + "；".join(z for _, z in terms)) if terms else "，无其他情况"
    return en + ".", zh + "。"


def _fallback_words(game: str, fallbacks: Counter) -> str:
    titles = {c.id: c.title for c in clauses_for(game)}
    return "; ".join(f"{clause} ({titles.get(clause, '?')}) ×{n}" for clause, n in fallbacks.most_common())


# ---------------------------------------------------------------------------------------------
# Reproducing logs


def reaches(case: Case, key: str) -> Outcome:
    """Play ``case`` (without the invariant checker: the same log, about twice as fast);
    its finding is the hole ``key`` when the case meets that situation."""
    recorder = Recorder(case.game)
    outcome = run_case(case, [recorder], checked=False)
    hit = any(u.situation.key == key for u in recorder.unresolved)
    return attrs.evolve(outcome, finding=Finding(f"{HOLE} {key}", f"unresolved: {key}") if hit else None)


def smallest_log(cluster: Cluster, directory: str, number: int, *, seconds: float) -> tuple[str, Outcome] | None:
    """Shrink the cluster's example while it still meets the situation (for at most
    ``seconds``; 0: not at all); write its log."""
    if cluster.example is None:
        return None
    outcome = reaches(cluster.example, cluster.situation.key)
    if outcome.finding is None:
        return None  # the code changed since the case was met
    small, _ = _shrunk(outcome, cluster.situation.key, seconds)
    return _write_log(small, directory, number), small


def _shrunk(outcome: Outcome, key: str, seconds: float) -> tuple[Outcome, bool]:
    """The smallest case found in ``seconds``, and whether any smaller one was tried."""
    if seconds <= 0:
        return outcome, False
    done = shrink(outcome, max_runs=SHRINK_RUNS, deadline=time.monotonic() + seconds, rerun=lambda c: reaches(c, key))
    return done.outcome, done.runs > 0


def _write_log(small: Outcome, directory: str, number: int) -> str:
    from paiju.files import write_whole
    from tabletop.log import encode

    case = small.case
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{case.game}-hole{number}-s{case.seed}-case{case.index}.jsonl")
    header = case.header()
    header["options"]["fuzz"]["finding"] = small.finding.message if small.finding is not None else ""
    write_whole(path, "".join(line + "\n" for line in [encode(header), *small.lines]), what="the hole's log")
    return path


# ---------------------------------------------------------------------------------------------
# The report


HOLES_SHARE = 0.25
"""The holes step (re-playing each situation's example, then shrinking) takes at most this
share of the time the run it reports took, so that it never costs more than a fraction of it."""
MIN_SECONDS = 1.0
"""…but at least this long, so that a run of a second still gets its most frequent holes' logs."""
NOT_IN_TIME = "not written: the holes step's time was up (it takes at most a quarter of the run's time)"
CODE_CHANGED = "not reproduced (the code changed since the case was met)"


def holes_seconds(run_seconds: float) -> float:
    """How long the holes step of a run that took ``run_seconds`` may take."""
    return max(MIN_SECONDS, HOLES_SHARE * run_seconds)


def report_rows(holes: Holes, *, logs: str, seconds: float = MIN_SECONDS,
                progress: Reporter | None = None) -> list[dict[str, Any]]:
    """One row per cluster, most frequent first: the situation in words, counts, fallback,
    and a reproducing log (written to ``logs``) with the command that replays it. Within
    ``seconds`` in all: first each cluster's example is played again (most frequent first;
    the clusters past the time get no log, ``missing`` says why), then what time is left
    shrinks them in turn, shared evenly (``shrunk`` says which were). ``progress`` is
    advanced once per cluster played and once per cluster shrunk."""
    deadline = time.monotonic() + seconds
    clusters = holes.ordered()
    met: list[Outcome | None] = []
    missing: list[str] = []
    for cluster in clusters:
        outcome = None
        if cluster.example is not None and time.monotonic() < deadline:
            outcome = reaches(cluster.example, cluster.situation.key)
        if outcome is None or outcome.finding is None:
            met.append(None)
            missing.append(NOT_IN_TIME if cluster.example is not None and outcome is None else CODE_CHANGED)
        else:
            met.append(outcome)
            missing.append("")
        if progress is not None:
            progress.advance(1)
    rows = []
    for number, (cluster, outcome) in enumerate(zip(clusters, met), 1):
        en, zh = situation_words(holes.game, cluster.situation)
        row = {"number": number, "key": cluster.situation.key, "en": en, "zh": zh, "count": cluster.count,
               "cases": cluster.cases, "fallback": _fallback_words(holes.game, cluster.fallbacks), "note": cluster.note,
               "log": None, "command": None, "size": "", "shrunk": False, "missing": missing[number - 1]}
        if outcome is not None:
            left = len(clusters) - number + 1
            share = (deadline - time.monotonic()) / left
            small, row["shrunk"] = _shrunk(outcome, cluster.situation.key, share)
            log = _write_log(small, logs, number)
            kinds = ", ".join(f"{k} {r}" for k, r in small.case.rates)
            row.update(log=log, command=f"paiju replay {log}",
                       size=(f"{counted(small.deals, 'deal')}, {counted(len(small.events), 'event')}, "
                             f"{counted(small.committed, 'irregularity')} (infractions {kinds}; "
                             f"agents {','.join(small.case.agents)})"))
        if progress is not None:
            progress.advance(1)
        rows.append(row)
    return rows


def write_report(game: str, rows: list[dict[str, Any]], path: str) -> None:
    """The holes report: HTML when ``path`` ends in .html, else Markdown."""
    from paiju.files import write_whole

    text = render_html(game, rows) if path.lower().endswith((".html", ".htm")) else render_markdown(game, rows)
    write_whole(path, text, what="the holes report", error=OptionError)


def render_markdown(game: str, rows: list[dict[str, Any]]) -> str:
    title = interactions_title(game)
    out = [f"# Rulebook holes: {title} / 规则漏洞", "",
           f"{counted(len(rows), 'situation')} the rulebook does not decide (`ref.unresolved`), most frequent first.",
           f"规则未能裁决的情形共 {len(rows)} 种，按出现次数排列。", ""]
    if not rows:
        out.append("None met in this run. / 本次运行未遇到。")
    for r in rows:
        out += [f"## {r['number']}. {r['en']}", "", f"情形：{r['zh']}", "",
                f"- arose / 出现: {counted(r['count'], 'time')} in {counted(r['cases'], 'case')}",
                f"- fallback applied / 兜底条款: {r['fallback']}"]
        if r["note"]:
            out.append(f"- referee's note / 说明: {r['note']}")
        out.append(f"- situation key: `{r['key']}`")
        if r["log"]:
            which = "smallest reproducing log / 最小复现记录" if r["shrunk"] else "reproducing log (not shrunk) / 复现记录（未缩减）"
            out += [f"- {which}: `{r['log']}` ({r['size']})",
                    f"- replay / 复现: `{r['command']}`"]
        else:
            out.append(f"- reproducing log: {r.get('missing') or CODE_CHANGED}")
        out.append("")
    return "\n".join(out)


def render_html(game: str, rows: list[dict[str, Any]]) -> str:
    from paiju.fuzz.report import holes_section, page

    return page(f"Rulebook holes: {interactions_title(game)}", holes_section(rows))


def interactions_title(game: str) -> str:
    from tabletop.games import game_spec

    return game_spec(game).title


__all__ = ["Cluster", "Holes", "holes_seconds", "reaches", "render_markdown", "report_rows", "situation_words",
           "smallest_log", "write_report"]
