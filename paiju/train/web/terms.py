"""The trainer's Chinese: what a trainee reads, in the referee's terms of the two seed codes.

``paiju.wording`` says a ruling with the Chinese term and English side by side (every view
uses it); the trainer shows Chinese first and English by a toggle, so it needs each term
alone: table effects and sanctions as the codes name them (收回牌张, 禁出一手, 判双下 …),
clauses by the seed's own numbering (二、3（1）, 第三条 一、（十）2) and wording, chapters,
verdicts, and a graded answer's remarks and explanation in Chinese. English beside each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

GAME_NAMES = {"guandan": ("掼蛋", "Guandan"), "shengji": ("双升", "Shengji")}

class _EffectTerms(dict):
    """Each table effect's name in the codes' words, and in English: the shared kinds' here,
    a game's own kind's from its class (``TableEffect.TERM``)."""

    def get(self, kind: Any, default: Any = None) -> Any:
        if kind in self:
            return self[kind]
        from tabletop.effects import effect_class

        own = effect_class(kind)
        term = None if own is None else own.TERM
        return term if term is not None else default


EFFECTS: dict[str, tuple[str, str]] = _EffectTerms({
    "Return": ("收回牌张", "cards taken back"),
    "RestoreOrder": ("恢复出牌顺序", "order restored"),
    "Expose": ("暴露张", "exposed cards"),
    "RandomDraw": ("任意抽取一张牌", "a card drawn at random"),
    "Redeal": ("重洗重抓", "redeal"),
    "Replay": ("收回重出", "plays taken back and made again"),
    "PlayStands": ("视为依序出牌，不再纠正", "the play stands"),
})
"""Each table effect's name in the codes' words, and in English."""


class _SayChinese:
    """How a game's own table effect names what its Chinese words mention (``tabletop.effects.Say``)."""

    def __init__(self, anchor: int | None) -> None:
        self.anchor = anchor

    def seat(self, value: Any) -> str:
        return seat_zh(value, self.anchor)

    def seats(self, values: Iterable[Any]) -> str:
        return seats_zh(values, self.anchor)

    def cards(self, codes: Iterable[str]) -> str:
        return _cards(codes)

    def combination(self, kind: str) -> str:
        return kind

    def lead_option_menu(self, what: str) -> str:
        return "a）不得领出该牌型 b）必须领出该牌型 c）自由领出"

    def effect(self, effect: Any) -> str:
        return effect_zh(effect.to_dict(), self.anchor)


SANCTIONS: dict[str, tuple[str, str]] = {
    "Warning": ("警告", "warning"),
    "RecordedViolation": ("记违例", "recorded violation"),
    "PointPenalty": ("罚分", "point penalty"),
    "LevelDiffPenalty": ("扣级差分", "level-difference penalty"),
    "ForcedLast": ("判单下", "forced last"),
    "ForcedDoubleLast": ("判双下", "forced double last"),
    "MatchLoss": ("判负", "match loss"),
    "Suspension": ("停赛", "suspension"),
    "AdjustedScore": ("调整分", "adjusted score"),
}

VERDICTS = {"right": ("正确", "right"), "partly right": ("部分正确", "partly right"),
            "wrong": ("错误", "wrong"), "unanswered": ("未作答", "unanswered")}

CHAPTERS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "guandan": (("GD-1", "抓牌", "Drawing"), ("GD-2", "出牌", "Play"), ("GD-3", "贡还牌", "Tribute and return"),
                ("GD-4", "报牌", "Reporting cards"), ("GD-5", "单下/双下", "Forced last / double last"),
                ("GD-6", "罚张", "Penalty cards"), ("GD-7", "信息", "Information")),
    "shengji": (("SJ-1", "警告", "Warning"), ("SJ-2", "记违例", "Recorded violation"), ("SJ-3", "罚分", "Point penalty")),
}
"""Each code's chapters in the seed's order: (top clause, 中文, English)."""

_DIGITS = "零一二三四五六七八九"


def chinese_number(n: int) -> str:
    """1 → 一, 10 → 十, 12 → 十二, 20 → 二十 (the seeds' numbering, up to 99)."""
    if n < 10:
        return _DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _DIGITS[tens]) + "十" + (_DIGITS[ones] if ones else "")


def chapter_of(clause_id: str) -> str:
    """'GD-2.3.1' → 'GD-2'."""
    return clause_id.split(".")[0]


def seed_number(clause_id: str) -> str:
    """Where a clause stands in its seed: GD-2.3.1 → 二、3（1）; GD-1.1.3b → 一、1（3）b;
    SJ-1.3 → 第一条（三）; SJ-3.1.10.2 → 第三条 一、（十）2."""
    prefix, _, rest = clause_id.partition("-")
    parts = rest.split(".")
    if prefix == "GD":
        out = chinese_number(int(parts[0])) + "、"
        if len(parts) > 1:
            out += parts[1]
        if len(parts) > 2:
            number = re.match(r"(\d+)(\D*)", parts[2])
            out += f"（{number.group(1)}）{number.group(2)}" if number else parts[2]
        return out
    out = f"第{chinese_number(int(parts[0]))}条"
    levels = [int(p) for p in parts[1:] if p.isdigit()]
    if parts[0] == "3" and levels:            # 第三条 has sections (一、二、) before its items
        if levels[0] == 0:
            return out
        out += f" {chinese_number(levels[0])}、"
        levels = levels[1:]
    if levels:
        out += f"（{chinese_number(levels[0])}）"
    if len(levels) > 1:
        out += str(levels[1])
    return out


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
# Seats, cards, effects and sanctions in sentences

RELATIVE = {1: "下家", 2: "对家", 3: "上家"}


def seat_zh(seat: Any, anchor: int | None = None) -> str:
    """'2号位', or '2号位（下家）' seen from ``anchor``."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return "牌堆"
    if anchor is None or seat == anchor:
        return f"{seat}号位"
    return f"{seat}号位（{RELATIVE[(seat - anchor) % 4]}）"


def seats_zh(seats: Iterable[Any], anchor: int | None = None) -> str:
    return "、".join(seat_zh(s, anchor) for s in seats) or "无"


def _cards(codes: Any) -> str:
    from paiju.wording import cards_words

    return cards_words(codes or ()) or ""


def effect_zh(effect: Mapping[str, Any], anchor: int | None = None) -> str:
    """What a table effect (``TableEffect.to_dict``) does, in the codes' words."""
    e = dict(effect)
    kind = str(e.get("kind"))
    term = EFFECTS.get(kind, (kind, ""))[0]
    seat = seat_zh(e.get("seat"), anchor) if "seat" in e else ""
    cards = _cards(e.get("cards"))
    from tabletop.effects import TableEffect

    try:
        own = TableEffect.from_dict(e).words_zh(_SayChinese(anchor))
    except ValueError:
        own = None                       # a shared kind, or a record that does not decode
    if own is not None:
        return own
    if kind == "Return":
        return f"收回牌张：{cards} 退回{seat}".rstrip()
    if kind == "Expose":
        return f"暴露张：{seat}的 {cards} 摊在桌上"
    if kind == "RestoreOrder":
        return f"恢复出牌顺序：由{seat}出牌"
    if kind == "RandomDraw":
        source = seat_zh(e.get("source"), anchor) if e.get("source") is not None else "牌堆"
        return f"抽牌：{seat_zh(e.get('to'), anchor)}从{source}任意抽取 {e.get('count', 1)} 张"
    if kind == "Replay":
        return f"收回重出：{seats_zh(e.get('seats') or (), anchor)}可以收回重出"
    return f"{term}：{seat}".rstrip("：") if seat else term


def sanction_zh(sanction: Any) -> str:
    """'罚分 10', '扣级差分 1', '判双下' … from a sanction's dict or key ('PointPenalty(10)')."""
    if isinstance(sanction, Mapping):
        kind, n = str(sanction.get("kind")), sanction.get("n")
    else:
        kind, _, rest = str(sanction).partition("(")
        n = rest.rstrip(")") or None
    term = SANCTIONS.get(kind, (kind, ""))[0]
    return f"{term} {n}" if n is not None else term


def imposed_zh(row: Mapping[str, Any], anchor: int | None = None) -> str:
    who = seat_zh(row["seat"], anchor) if row.get("seat") is not None else f"{row.get('side')}方"
    return f"{who}：{sanction_zh(row.get('sanction'))}"


def _cjk_tail(text: str) -> str:
    """The Chinese words of a bilingual phrase ('reports a wrong count 报错牌' → '报错牌')."""
    runs = re.findall(r"[\u3400-\u9fff（）()、，：]+(?:[\s\d♠♥♦♣]*[\u3400-\u9fff（）、，]+)*", text)
    return runs[-1].strip("（）() ") if runs else ""


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
    missed = [EFFECTS.get(k, (k,))[0] for k in expected.rectification if k not in effects and k not in IMPLIED_EFFECTS]
    extra = [EFFECTS.get(k, (k,))[0] for k in effects if k not in want]
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
    from enforcement.rulebook import RULEBOOK
    from paiju.wording import irregularity_words
    from tabletop.rulings import RulingEvent

    e = scenario.expected
    entry = RULEBOOK.get(e.clause)
    lines = [f"依据 {seed_number(e.clause)}：{entry.text_zh if entry else e.clause}"]
    ruling = scenario.log.events[scenario.ruling_index]
    what = _cjk_tail(irregularity_words(scenario.game, e.irregularity)) if e.irregularity else "报告裁判的事件"
    who = seat_zh(e.offender) if e.offender is not None else (f"{e.side}方" if e.side is not None else "无违规方")
    lines.append(f"违规：{who}{('，' + what) if what else ''}")
    effects = [dict(x) for x in ruling.rectification] if isinstance(ruling, RulingEvent) else []
    rows = [dict(x) for x in ruling.sanctions] if isinstance(ruling, RulingEvent) else []
    lines.append("纠正措施：" + ("；".join(effect_zh(x, e.offender) for x in effects) or "无"))
    lines.append("处罚：" + ("；".join(imposed_zh(r, e.offender) for r in rows) or "无"))
    missed = set(missed)
    for effect in effects:
        if effect.get("kind") in missed:
            lines.append(f"你漏掉的「{EFFECTS.get(str(effect.get('kind')), ('',))[0]}」在牌桌上会：{effect_zh(effect, e.offender)}")
    if entry is not None and entry.pd:
        lines.append(f"【项目默认 · 规则书未明言处的读法】{entry.pd}")
    return lines


def cannot_apply_zh(reason: str) -> str:
    """Why the table cannot carry out a trainee's ruling (``paiju.train.web.ruling.CannotApply``), in Chinese."""
    missing = re.search(r"cannot carry out (\w+) here", reason)
    if missing:
        term = EFFECTS.get(missing.group(1), (missing.group(1),))[0]
        return f"牌桌无法执行「{term}」：规则的裁决里没有这项措施，无从知道它涉及哪些牌张或座位"
    if "no offending side" in reason:
        return "这项裁决没有违规方，处罚无从执行"
    if "no end in sight" in reason:
        return "按这项裁决，牌局不断出现违例而无法推进"
    return "这副牌无法按你的裁决继续打下去"
