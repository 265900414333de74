"""Searching the rulebook by the words a referee uses (`paiju rules GAME WORDS`, the trainer's
``rules WORDS``, the web trainer's clause search): a clause is found by the seeds' own terms
(越序出牌, 贡错牌, 罚张 …) and by the words people also say for them (提前出牌, 抢出, 罚牌 …).

``SYNONYMS`` lists groups of words that mean the same at the table, the seeds' term first. A
clause's search text is its id, title, summary and Chinese text, plus its *also-said* text
(``also_said``): around each group word in the clause, the same passage with each other word
of the group in its place — so '提前出牌' finds the clause that says '越序出牌', and a query
word found inside a longer passage ('提前出牌' in '越序出牌：') still matches."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

SYNONYMS: tuple[tuple[str, ...], ...] = (
    # out of turn (越序; people say 抢先, 提前; 双升's 抢出 / 抢跟)
    ("越序", "抢先", "提前"),
    ("越序出牌", "抢先出牌", "提前出牌", "抢出", "出牌顺序错误"),
    ("越序跟牌", "抢先跟牌", "提前跟牌", "抢跟"),
    ("越序抓牌", "抢先抓牌", "提前抓牌", "抢抓", "抓牌顺序错误"),
    ("越序表态", "抢先表态", "提前表态", "抢先表示"),
    ("表示不出", "不出", "过牌", "pass"),
    ("表示压制", "压制", "管上", "beat it"),
    # exposed and penalty cards
    ("暴露张", "暴露牌", "暴露的牌张", "亮牌", "露牌", "exposed"),
    ("罚张", "罚牌", "penalty card"),
    ("轻罚张", "轻罚牌"),
    ("重罚张", "重罚牌"),
    # wrong plays
    ("出错牌型", "牌型出错", "牌型错误", "出错牌"),
    ("牌张大小出错", "大小出错", "管不住", "does not beat"),
    ("夹带", "多出牌", "带出", "extra card"),
    ("跟错", "跟错牌", "垫错", "跟牌出错"),
    ("收回", "撤回", "悔牌", "take back"),
    # 报牌
    ("报牌", "报数", "报张数", "报余牌", "report"),
    ("未报牌", "漏报", "没报牌", "不报牌"),
    ("报错牌", "报错", "错报"),
    ("反复报牌", "重复报牌"),
    ("追问余牌", "询问张数", "问牌", "问张数"),
    # tribute
    ("贡错牌", "进贡错误", "进贡出错", "贡牌错误", "wrong tribute"),
    ("还错牌", "还贡错误", "还贡出错", "还牌错误", "wrong return"),
    ("贡牌", "进贡", "tribute"),
    ("还牌", "还贡"),
    # sanctions and results
    ("判单下", "判下游", "单下", "末游"),
    ("判双下", "双下"),
    ("级差分", "扣级", "level difference"),
    ("禁出一手", "禁出", "barred"),
    ("警告", "warning"),
    ("记违例", "违例记录"),
    ("罚分", "扣分"),
    ("判负", "判输", "match loss"),
    ("停赛", "禁赛", "suspension"),
    ("调整分", "adjusted score"),
    # the table
    ("领出", "首出", "领出权", "lead"),
    ("搭档", "同伴", "对家", "partner"),
    ("抓牌", "摸牌", "draw"),
    ("扣底", "埋底", "扣底牌", "bury"),
    ("亮主", "叫主", "declare"),
    ("甩牌", "throw"),
    ("非法信息", "不当信息", "违规信息", "unauthorised information"),
    ("迟到", "late"),
    ("签名", "签字", "未签字", "sign"),
)

ASIDE = re.compile(r"（[^（）]*）")
"""A Chinese aside in brackets: the text is searched with it and without it."""
AROUND = 4
"""Characters kept on each side of a word when its synonyms are put in its place."""


def also_said(text: str, groups: Iterable[tuple[str, ...]] = SYNONYMS) -> str:
    """``text``'s passages around each word of a synonym group, that word replaced by each
    other word of its group (lower case; '' when no group word occurs)."""
    low = text.lower()
    out: list[str] = []
    for group in groups:
        for word in group:
            start = low.find(word.lower())
            while start >= 0:
                end = start + len(word)
                before, after = low[max(0, start - AROUND):start], low[end:end + AROUND]
                out.extend(f"{before}{other.lower()}{after}" for other in group if other != word)
                start = low.find(word.lower(), end)
    return " | ".join(dict.fromkeys(out))


@cache
def haystack(clause_id: str) -> str:
    """What a clause is searched in: its id, title, summary, Chinese text and what else
    people say for the words in them (lower case)."""
    from enforcement.rulebook import clause

    c = clause(clause_id)
    own = f"{c.id} {c.title} {c.summary} {c.text_zh}"
    plain = ASIDE.sub("", own)   # '越序（抢先）表态' is also '越序表态'
    return f"{own} {plain} {also_said(own)} {also_said(plain)}".lower()


def search(game: str, query: str) -> list[Any]:
    """The clauses of ``game`` whose search text holds every word of ``query`` (in catalogue
    order)."""
    from enforcement.rulebook import clauses_for

    words = [w.lower() for w in query.split()]
    return [c for c in clauses_for(game) if words and all(w in haystack(c.id) for w in words)]
