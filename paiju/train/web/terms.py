"""The trainer's Chinese: what a trainee reads, in the referee's terms of the two seed codes.

The terms themselves (table effects and sanctions as the codes name them: 收回牌张, 禁出一手,
判双下 …; seats; the game names) are ``paiju.wording``'s, the one word table every view reads;
here is what only the trainer says: clauses by the seed's own numbering (二、3（1）, 第三条
一、（十）2) and wording, chapters, verdicts, and a graded answer's remarks and explanation in
Chinese. English beside each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from paiju.wording import EFFECT_TERMS, effect_zh, imposed_zh, sanction_zh, seat_zh, seed_number

VERDICTS = {"right": ("正确", "right"), "partly right": ("部分正确", "partly right"),
            "wrong": ("错误", "wrong"), "unanswered": ("未作答", "unanswered")}

CHAPTERS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "guandan": (("GD-1", "抓牌", "Drawing"), ("GD-2", "出牌", "Play"), ("GD-3", "贡还牌", "Tribute and return"),
                ("GD-4", "报牌", "Reporting cards"), ("GD-5", "单下/双下", "Forced last / double last"),
                ("GD-6", "罚张", "Penalty cards"), ("GD-7", "信息", "Information")),
    "shengji": (("SJ-1", "警告", "Warning"), ("SJ-2", "记违例", "Recorded violation"), ("SJ-3", "罚分", "Point penalty")),
}
"""Each code's chapters in the seed's order: (top clause, 中文, English)."""

def chapter_of(clause_id: str) -> str:
    """'GD-2.3.1' → 'GD-2'."""
    return clause_id.split(".")[0]


_NUMBERING = re.compile(r"^\s*(?:第[一二三四五六七八九十]+条\s*|[一二三四五六七八九十]+、\s*|\d+\s*、\s*|（\s*[一二三四五六七八九十\d]+\s*）\s*)+")


def seed_words(text_zh: str, parent_text: str = "", limit: int = 46) -> str:
    """A clause's own words from the seed, without its numbering, with the topic of the
    clause above when its words name none ('（1）没有看到牌张正面' → '越序抓牌：没有看到牌张正面')."""
    text = _NUMBERING.sub("", text_zh.splitlines()[0] if text_zh else "")
    text = re.sub(r"(……|：)\s*[0-9a-z]\s*、\s*", "：", text).replace("：：", "：").strip().rstrip("：")
    if parent_text and "：" not in text[:14] and text_zh.lstrip().startswith("（"):
        topic = _NUMBERING.sub("", parent_text).split("：")[0].split("，")[0].strip()
        if topic and len(topic) <= 12:
            text = f"{topic}：{text}"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def clause_words(clause: Any) -> dict[str, str]:
    """A clause for the trainee: its seed number, its seed words (short and whole), English."""
    from enforcement.rulebook import RULEBOOK

    # 掼蛋's sub-items ('（1）没有看到牌张正面') need their item's topic; 双升's name their own.
    parent = RULEBOOK[clause.parent].text_zh if clause.parent in RULEBOOK and clause.id.startswith("GD-") else ""
    return {"number": seed_number(clause.id), "zh": seed_words(clause.text_zh, parent), "text_zh": clause.text_zh,
            "en": clause.title, "summary": clause.summary, "chapter": chapter_of(clause.id)}


def clause_label(clause_id: str) -> str:
    """'二、3（1）违规者收回牌张…' for a clause id ('' when the rulebook has none)."""
    from enforcement.rulebook import RULEBOOK

    entry = RULEBOOK.get(clause_id)
    if entry is None:
        return clause_id
    words = clause_words(entry)
    return f"{words['number']} {words['zh']}"


# ---------------------------------------------------------------------------------------------
# A graded answer, explained


def remarks_zh(expected: Any, clause: str, effects: Sequence[str], sanctions: Sequence[str]) -> list[str]:
    """What was right and wrong about an answer, in Chinese (the grade is ``paiju.train.grade``'s)."""
    from paiju.train.grade import IMPLIED_EFFECTS, _ancestors, sanctions_match

    lines = []
    if clause == expected.clause:
        lines.append(f"条款 {clause_label(clause).rstrip('。')}：正确")
    elif clause in _ancestors(expected.clause):
        lines.append(f"条款 {seed_number(clause)}：大方向对，但应引用其下的 {clause_label(expected.clause)}")
    else:
        lines.append(f"条款 {clause_label(clause)}：不对，应引用 {clause_label(expected.clause)}")
    want = set(expected.rectification)
    missed = [EFFECT_TERMS.get(k, (k,))[0] for k in expected.rectification if k not in effects and k not in IMPLIED_EFFECTS]
    extra = [EFFECT_TERMS.get(k, (k,))[0] for k in effects if k not in want]
    if not missed and not extra:
        lines.append("纠正措施：正确")
    else:
        lines.append("纠正措施：" + "；".join(([f"漏了 {'、'.join(missed)}"] if missed else [])
                                          + ([f"多了 {'、'.join(extra)}"] if extra else [])))
    if sanctions_match(frozenset(sanctions), tuple(expected.sanctions)):
        lines.append("处罚：正确")
    else:
        should = "、".join(sanction_zh(k) for k in expected.sanctions) or "不处罚"
        given = "、".join(sanction_zh(k) for k in sanctions) or "不处罚"
        lines.append(f"处罚：你给的是 {given}，应为 {should}")
    return lines


def explanation_zh(scenario: Any, missed: Iterable[str] = ()) -> list[str]:
    """The seed sentence that decides the scenario, what the referee found and ordered, the
    project's reading where the seed is silent, and what each missed effect does at the table."""
    from enforcement.irregularities import irregularity_of
    from enforcement.rulebook import PD_ZH, RULEBOOK
    from tabletop.rulings import RulingEvent

    e = scenario.expected
    entry = RULEBOOK.get(e.clause)
    lines = [f"依据 {seed_number(e.clause)}：{entry.text_zh if entry else e.clause}"]
    ruling = scenario.log.events[scenario.ruling_index]
    record = irregularity_of(scenario.game, e.irregularity) if e.irregularity else None
    what = record.zh if record is not None else ("报告裁判的事件" if not e.irregularity else "")
    who = seat_zh(e.offender) if e.offender is not None else (f"{e.side}方" if e.side is not None else "无违规方")
    lines.append(f"违规：{who}{('，' + what) if what else ''}")
    effects = [dict(x) for x in ruling.rectification] if isinstance(ruling, RulingEvent) else []
    rows = [dict(x) for x in ruling.sanctions] if isinstance(ruling, RulingEvent) else []
    lines.append("纠正措施：" + ("；".join(effect_zh(x, e.offender) for x in effects) or "无"))
    lines.append("处罚：" + ("；".join(imposed_zh(r, e.offender) for r in rows) or "无"))
    missed = set(missed)
    for effect in effects:
        if effect.get("kind") in missed:
            lines.append(f"你漏掉的「{EFFECT_TERMS.get(str(effect.get('kind')), ('',))[0]}」在牌桌上会：{effect_zh(effect, e.offender)}")
    if entry is not None and entry.pd:
        lines.append(f"【项目默认 · 规则书未明言处的读法】{PD_ZH.get(entry.id, entry.pd)}")
    return lines


def cannot_apply_zh(reason: str) -> str:
    """Why the table cannot carry out a trainee's ruling (``paiju.train.web.ruling.CannotApply``), in Chinese."""
    missing = re.search(r"cannot carry out (\w+) here", reason)
    if missing:
        term = EFFECT_TERMS.get(missing.group(1), (missing.group(1),))[0]
        return f"牌桌无法执行「{term}」：规则的裁决里没有这项措施，无从知道它涉及哪些牌张或座位"
    if "no offending side" in reason:
        return "这项裁决没有违规方，处罚无从执行"
    if "no end in sight" in reason:
        return "按这项裁决，牌局不断出现违例而无法推进"
    return "这副牌无法按你的裁决继续打下去"
