"""Each step of a replay in Chinese alone, in the referee's terms of the two seed codes (收回牌张,
恢复出牌顺序, 禁出一手, 暴露张, 罚张, 领出选择, 判单下 …): what the trainer shows first, English
behind its language toggle (``Step.text`` says the same in English with the Chinese terms).

A step is said from its event alone (its kind and payload), so the words do not depend on how
a view keeps the table; the terms come from ``paiju.wording`` and the irregularities' records
(``enforcement.irregularities``). An irregularity's facts are said as its English step says
them (the referee's findings left out where the table hides them); a ruling's step says its
clause, what it puts right and the sanctions (its facts are on its card: ``facts_zh``). The
texts a frame shows beside the steps (notes, flags, results) are said by the handlers that
make them (``Table.say_zh``). A kind no table here knows is said as an event of its seat,
never by its code."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from paiju.wording import (
    EFFECT_TERMS, JOKERS, cards_words, effect_zh, imposed_zh, seat_zh, seats_zh, seed_number, words_for,
)
from tabletop.cards import SUIT_SYMBOLS, SUITS

_CJK_HEAD = re.compile(r"^[^\sA-Za-z'(（]+")
_CLAUSE = re.compile(r"\b(?:GD|SJ)-[0-9][0-9a-z.]*")
_SUIT_NAMES = dict(zip(SUITS, ("黑桃", "红心", "梅花", "方块"), strict=True))


def _head(text: str) -> str:
    """The Chinese head of a bilingual phrase ('单张 single' → '单张')."""
    found = _CJK_HEAD.match(text.strip())
    return found.group(0) if found else ""


def _cards(codes: Any) -> str:
    return cards_words(codes or ()) if codes else "无"


def _rank(rank: str) -> str:
    if rank in JOKERS:
        return JOKERS[rank]
    if len(rank) == 2 and rank[0] in SUITS:
        return SUIT_SYMBOLS[SUITS.index(rank[0])] + ("10" if rank[1] == "T" else rank[1])
    return rank.replace("x", "×").replace("T", "10")


def reading_zh(game: str, code: Any) -> str:
    """A combination code ('BOMB 4xJ', 'PAIR Q') in Chinese: '炸弹 4×J'."""
    if not isinstance(code, str) or not code:
        return "无"
    kind, _, rank = code.partition(" ")
    name = _head(words_for(game).combinations.get(kind, "")) or "牌型"
    return f"{name} {' '.join(_rank(r) for r in rank.split())}".strip()


def _why(reason: Any) -> str:
    """The clause a table step cites ('GD-2.3.1: choice b' → '（GD-2.3.1）'), or ''."""
    found = _CLAUSE.search(str(reason or ""))
    return f"（依 {found.group(0)}）" if found else ""


def _irregularity(game: str, irregularity: Any) -> str:
    from enforcement.irregularities import irregularity_of

    record = irregularity_of(game, str(irregularity or ""))
    return record.zh if record is not None else "违例"


def _level(rank: Any) -> str:
    return _rank(str(rank)) if rank is not None else "？"


def _team(team: Any) -> str:
    return f"{team}方（{team}、{team + 2}号位）" if isinstance(team, int) and not isinstance(team, bool) else "一方"


def _order(order: Sequence[Any]) -> str:
    return "、".join(seat_zh(s) for s in order)


# ---------------------------------------------------------------------------------------------
# Steps every game shares: rulings, table effects, choices


def _ruling(game: str, e: Any) -> str:
    offender = getattr(e, "offender", None)
    who = seat_zh(offender) if offender is not None else "无违规方"
    parts = [f"裁决 {seed_number(e.clause)}（{e.clause}），违规方 {who}"]
    effects = [effect_zh(x, offender) for x in e.rectification]
    parts.append("纠正措施：" + ("；".join(effects) if effects else "无"))
    parts.append("处罚：" + ("；".join(imposed_zh(r, offender) for r in e.sanctions) if e.sanctions else "无"))
    return "。".join(parts)


def _unresolved(game: str, e: Any) -> str:
    effects = [effect_zh(x, e.seat) for x in getattr(e, "rectification", ())]
    return (f"无条款可依：{seat_zh(e.seat)}「{_irregularity(game, e.irregularity)}」按 {e.fallback} 处理"
            + ("；" + "；".join(effects) if effects else ""))


def _irregular(game: str, e: Any, hide_judgement: bool = False) -> str:
    facts = dict(getattr(e, "facts", ()) or ())
    action = {str(k): v for k, v in getattr(e, "action", ())}
    cards = facts.get("cards")
    shown = f"：{_cards(cards)}" if cards and isinstance(cards, (tuple, list)) else ""
    reading = f"（{reading_zh(game, action['reading'])}）" if action.get("reading") else ""
    rest = facts_zh(game, getattr(e, "facts", ()), e.seat, hide_judgement, skip=("cards", "laid", "reading"))
    later = "（尚未被发现）" if getattr(e, "latent", False) else ""
    return (f"违例：{seat_zh(e.seat)}「{_irregularity(game, e.irregularity)}」{shown}{reading}"
            + (f"［{rest}］" if rest else "") + later)


def _found(game: str, e: Any, hide_judgement: bool = False) -> str:
    facts = facts_zh(game, getattr(e, "facts", ()), e.seat, hide_judgement)
    return f"发现违例：{seat_zh(e.seat)}「{_irregularity(game, e.irregularity)}」" + (f"［{facts}］" if facts else "")


def _choice(game: str, e: Any) -> str:
    about = getattr(e, "about", None)
    whom = f"，关于{seat_zh(about)}" if e.purpose in words_for(game).about_seat and isinstance(about, int) else ""
    options = "、".join(_option(game, e.purpose, o) for o in e.options[:8])
    return f"{seat_zh(e.seat)}须作选择{whom}：{options}"


_OPTIONS = {"forbid": "a）禁出该牌型", "require": "b）必须出该牌型", "free": "c）随意", "take_back": "收回重出",
            "stand": "维持", "decline": "不抽", "random_draw": "随机抽牌", "redeal": "重新抓牌"}
_CJK_RUN = re.compile(r"[\u3400-\u9fff][\u3400-\u9fff（）、，]*")


def option_zh(game: str, purpose: str, option: Any) -> str:
    """A choice's option in Chinese ('a）禁出该牌型', '收回重出')."""
    return _option(game, purpose, option)


def _option(game: str, purpose: str, option: Any) -> str:
    words = words_for(game)
    if str(option) in _OPTIONS:
        return _OPTIONS[str(option)]
    meaning = words.choices.get(purpose, ("", {}))[1].get(str(option))
    run = _CJK_RUN.search(meaning or "")
    if run:
        return run.group(0)
    if str(option) in words.combinations:
        return _head(words.combinations[str(option)])
    if isinstance(option, str) and " " in option:
        return reading_zh(game, option)
    if isinstance(option, str) and (option in JOKERS or (len(option) == 2 and option[0] in SUITS)):
        return cards_words([option])
    return "选项"


def _chose(game: str, e: Any) -> str:
    return f"{seat_zh(e.seat)}选择：{_option(game, e.purpose, e.option)}"


SHARED: dict[str, Callable[[str, Any], str]] = {
    "ref.ruling": _ruling,
    "ref.unresolved": _unresolved,
    "table.choice": _choice,
    "table.chose": _chose,
    "table.returned": lambda g, e: f"{EFFECT_TERMS['Return'][0]}：{seat_zh(e.seat)}的 {_cards(e.cards)} 退回"
                                   f"{'手中（作暴露张）' if getattr(e, 'exposed', False) else '手中'}{_why(e.reason)}",
    "table.exposed": lambda g, e: f"暴露张：{seat_zh(e.seat)}的 {_cards(e.cards)} 摊在桌上{_why(e.reason)}",
    "table.exposure_lifted": lambda g, e: f"暴露张收回：{seat_zh(e.seat)}的 {_cards(e.cards)}{_why(e.reason)}",
    "table.penalty_cards": lambda g, e: f"罚张：{seat_zh(e.seat)}的 {_cards(e.cards)} 成为罚张{_why(e.reason)}",
    "table.barred": lambda g, e: f"禁出一手：{seat_zh(e.seat)}"
                                 f"{'下一次轮到其出牌时' if getattr(e, 'scope', 'next_turn') == 'next_turn' else '该圈'}"
                                 f"不得出牌{_why(e.reason)}",
    "table.barred_pass": lambda g, e: f"{seat_zh(e.seat)}禁出一手，这一轮不出",
    "table.bar_ended": lambda g, e: f"{seat_zh(e.seat)}的禁出一手结束"
                                    + ("（已判单下，不再出牌）" if e.how == "judged_last" else ""),
    "table.turn_restored": lambda g, e: f"恢复出牌顺序：由{seat_zh(e.seat)}出牌{_why(e.reason)}",
    "table.random_draw": lambda g, e: f"抽牌：{seat_zh(e.seat)}从{seat_zh(getattr(e, 'source', None))}任意抽取 "
                                      f"{len(e.cards) or 1} 张{_why(e.reason)}",
}


# ---------------------------------------------------------------------------------------------
# 掼蛋


def _gd_deal_started(g: str, e: Any) -> str:
    who = (f"：{seat_zh(e.shuffler)}洗牌，{seat_zh(e.cutter)}切牌，{seat_zh(e.first_drawer)}先抓"
           if getattr(e, "shuffler", None) is not None else "")
    return f"新的一副牌，打 {_level(e.level)}{who}"


def _gd_round_over(g: str, e: Any) -> str:
    partner = "（接风）" if getattr(e, "partner_leads", False) else ""
    return f"本圈结束：由{seat_zh(e.leader)}领出{partner}"


def _gd_next_deal(g: str, e: Any) -> str:
    parts = []
    if getattr(e, "no_tribute", False):
        parts.append("下副牌不进贡")
    elif getattr(e, "no_tribute_seats", ()):
        parts.append(f"{seats_zh(e.no_tribute_seats)}下副牌不进贡（判单下；其对家应进之贡照进）")
    elif getattr(e, "no_tribute_team", None) is not None:
        parts.append(f"{_team(e.no_tribute_team)}下副牌不进贡")
    roles = "，".join(f"{seat_zh(seat)}{what}" for seat, what in
                     ((e.shuffler, "洗牌"), (e.cutter, "切牌"), (e.first_drawer, "先抓"), (e.leader, "领出")) if seat is not None)
    if roles:
        parts.insert(0, roles)
    return "下一副牌：" + ("；".join(parts) if parts else "照常进行")


def _gd_tribute_due(g: str, e: Any) -> str:
    pays = "；".join(f"{seat_zh(a)}向{seat_zh(b)}进贡" for a, b in getattr(e, "payments", ()))
    return ("双贡" if getattr(e, "double", False) else "进贡") + (f"：{pays}" if pays else "")


def _gd_taken_back(g: str, e: Any) -> str:
    return f"收回重出：{seats_zh(e.seats)}收回本圈所出的牌{_why(e.reason)}"


GUANDAN: dict[str, Callable[[str, Any], str]] = {
    "gd.deal_started": _gd_deal_started,
    "gd.shuffled": lambda g, e: f"{seat_zh(e.seat)}洗牌" if e.seat is not None else "洗牌",
    "gd.cut": lambda g, e: f"{seat_zh(e.seat)}切牌",
    "gd.face_up": lambda g, e: f"翻牌 {_cards([e.card])}：{seat_zh(e.seat)}抓到，由其领出",
    "gd.draw_ran": lambda g, e: f"{seat_zh(e.seat)}继续抓牌",
    "gd.drawn": lambda g, e: f"{seat_zh(e.seat)}抓牌",
    "gd.hands_complete": lambda g, e: "抓牌完毕：各家 " + " ".join(str(n) for n in e.sizes) + " 张",
    "gd.hands_set": lambda g, e: "各家手牌已定",
    "gd.card_lost": lambda g, e: "抓牌时有一张牌遗失",
    "gd.redeal": lambda g, e: f"重洗重抓{'（换一副新牌）' if getattr(e, 'fresh_deck', False) else ''}{_why(e.reason)}",
    "gd.tribute_due": _gd_tribute_due,
    "gd.tribute_resisted": lambda g, e: "抗贡：手握两张大王，不进贡",
    "gd.tribute_waived": lambda g, e: "本副牌不进贡",
    "gd.tribute_given": lambda g, e: f"进贡：{seat_zh(e.seat)}把 {_cards([e.card])} 交给{seat_zh(e.receiver)}",
    "gd.return_given": lambda g, e: f"还贡：{seat_zh(e.seat)}把 {_cards([e.card])} 还给{seat_zh(e.payer)}",
    "gd.play_started": lambda g, e: f"开始出牌：{seat_zh(e.seat)}领出",
    "gd.played": lambda g, e: f"{seat_zh(e.seat)}出牌 {_cards(e.cards)}（{reading_zh(g, e.reading)}）",
    "gd.passed": lambda g, e: f"{seat_zh(e.seat)}不出",
    "gd.count_reported": lambda g, e: f"{seat_zh(e.seat)}报牌：剩 {e.count} 张",
    "gd.cards_reported": lambda g, e: f"{seat_zh(e.seat)}重新报牌：剩 {e.count} 张",
    "gd.round_over": _gd_round_over,
    "gd.finished": lambda g, e: f"{seat_zh(e.seat)}出完牌：第 {e.place} 名",
    "gd.result_forced": lambda g, e: f"名次由裁决确定：{_order(e.finish_order)}{_why(e.reason)}",
    "gd.scored": lambda g, e: f"本副结束：名次 {_order(e.finish_order)}；{_team(e.team)}升 {e.levels} 级",
    "gd.levels_advanced": lambda g, e: f"级数：0 方打 {_level(e.levels[0])}，1 方打 {_level(e.levels[1])}",
    "gd.level_penalty": lambda g, e: f"扣级差分：{_team(e.team)}扣 {e.levels} 级{_why(e.reason)}",
    "gd.next_deal_scheduled": _gd_next_deal,
    "gd.match_over": lambda g, e: (f"比赛结束：{_team(e.winner)}获胜" if e.winner is not None else "比赛结束：平局")
                                  + f"；级数 {'/'.join(_level(x) for x in e.levels)}，比分 {'/'.join(map(str, e.scores))}",
    "gd.referee_called": lambda g, e: f"{seat_zh(e.seat)}请裁判",
    "gd.correction_due": lambda g, e: f"纠正出牌：{seat_zh(e.seat)}须改出合规的牌{_why(e.reason)}",
    "gd.designated": lambda g, e: f"{seat_zh(e.seat)}指定{seat_zh(e.holder)}打出罚张中的{_head(words_for(g).combinations.get(str(e.combination), '')) or '牌型'}",
    "gd.lead_option": lambda g, e: f"领出选择 a/b/c：{seat_zh(e.restricted)}下次领出时，由{seat_zh(e.chooser)}选择"
                                   f" a）禁出{reading_zh(g, e.combination)} b）必须出{reading_zh(g, e.combination)} c）随意",
    "gd.lead_restricted": lambda g, e: (f"领出限制{'失效' if getattr(e, 'lapsed', False) else ''}：{seat_zh(e.seat)}"
                                        f"{'必须出' if e.rule == 'require' else '不得出' if e.rule == 'forbid' else '随意出'}"
                                        f"{reading_zh(g, e.combination)}"),
    "gd.play_stands": lambda g, e: f"视为依序出牌：{seat_zh(e.seat)}的 {_cards(e.cards)} 有效{_why(e.reason)}",
    "gd.taken_back": _gd_taken_back,
    "gd.pass_sequence": lambda g, e: f"下家有权选择不出：{seats_zh(e.seats)}依次可选择不出",
    "gd.placed_last": lambda g, e: f"判单下：{seat_zh(e.seat)}判为下游{_why(e.reason)}",
    "gd.unauthorised": lambda g, e: f"非法信息不得利用：{seats_zh(e.seats)}不得利用该信息{_why(e.what)}",
    "gd.irregular": _irregular,
    "gd.found": _found,
}


# ---------------------------------------------------------------------------------------------
# 双升


def _suit(code: Any) -> str:
    return _SUIT_NAMES.get(str(code), "无主") if code is not None else "无主"


def _sj_scored(g: str, e: Any) -> str:
    side = "闲家" if getattr(e, "side", "") == "attackers" else "庄家"
    return f"本副结束：闲家得 {e.points} 分；{side}（{e.team}方）升 {e.levels} 级"


SHENGJI: dict[str, Callable[[str, Any], str]] = {
    "sj.deal_started": lambda g, e: f"新的一副牌，打 {_level(e.level)}，{seat_zh(e.first_drawer)}先抓",
    "sj.shuffled": lambda g, e: "洗牌",
    "sj.cut": lambda g, e: f"{seat_zh(e.seat)}切牌",
    "sj.draw_ran": lambda g, e: f"{seat_zh(e.seat)}继续抓牌",
    "sj.drawn": lambda g, e: f"{seat_zh(e.seat)}抓牌",
    "sj.card_taken": lambda g, e: f"{seat_zh(e.seat)}抓了应由{seat_zh(e.due)}抓的牌",
    "sj.declared": lambda g, e: f"{seat_zh(e.seat)}亮主 {_cards(e.cards)}：{_suit(e.trump)}",
    "sj.declined": lambda g, e: f"{seat_zh(e.seat)}不亮主",
    "sj.declaration_barred": lambda g, e: f"{seat_zh(e.seat)}不能亮主或反主{_why(e.reason)}",
    "sj.declaration_stands": lambda g, e: (f"一方亮主有效：{seat_zh(e.seat)}的 {_cards(e.cards)}（{_suit(e.trump)}）有效，"
                                           f"{seat_zh(e.withdrawn)}的亮主收回（{text_zh(e.how)}）{_why(e.reason)}"),
    "sj.kitty_flipped": lambda g, e: f"翻底牌第 {e.position + 1} 张：{_cards([e.card])}",
    "sj.handed_over": lambda g, e: f"{seat_zh(e.source)}把 {_cards([e.card])} 交给{seat_zh(e.seat)}{_why(e.reason)}",
    "sj.trump_set": lambda g, e: f"主牌：{_suit(e.trump)}；{seat_zh(e.banker)}坐庄",
    "sj.kitty_taken": lambda g, e: f"{seat_zh(e.seat)}拿底牌",
    "sj.buried": lambda g, e: f"{seat_zh(e.seat)}扣底 {len(e.cards)} 张",
    "sj.burial_undone": lambda g, e: f"重新扣底：{seat_zh(e.seat)}扣下的牌退回{_why(e.reason)}",
    "sj.redeal": lambda g, e: f"重洗重抓{_why(e.reason)}",
    "sj.played": lambda g, e: f"{seat_zh(e.seat)}{'首出' if getattr(e, 'lead', False) else '跟牌'} {_cards(e.cards)}",
    "sj.play_stands": lambda g, e: f"视为依序出牌：{seat_zh(e.seat)}的 {_cards(e.cards)} 有效{_why(e.reason)}",
    "sj.throw_failed": lambda g, e: f"甩牌失败：{seat_zh(e.seat)}须出 {_cards(e.forced)}，其余收回",
    "sj.throw_penalty": lambda g, e: f"甩牌失败罚分：{seat_zh(e.seat)}罚 {e.points} 分",
    "sj.trick_won": lambda g, e: f"第 {e.trick + 1} 墩：{seat_zh(e.seat)}大，得 {e.points} 分",
    "sj.taken_back": lambda g, e: f"收回重出：{seats_zh(e.seats)}收回所出的牌{_why(e.reason)}",
    "sj.points_adjusted": lambda g, e: f"罚分：{seat_zh(e.seat)}一方罚 {e.points} 分{_why(e.reason)}",
    "sj.kitty_revealed": lambda g, e: f"翻底：底牌 {e.points} 分" + (f"，翻 {e.multiplier} 倍" if e.multiplier else ""),
    "sj.scored": _sj_scored,
    "sj.levels_advanced": lambda g, e: f"级数：0 方打 {_level(e.levels[0])}，1 方打 {_level(e.levels[1])}",
    "sj.match_over": lambda g, e: f"比赛结束：{_team(e.winner)}获胜" if e.winner is not None else "比赛结束",
    "sj.irregular": _irregular,
    "sj.found": _found,
}

_BY_KIND = {**SHARED, **GUANDAN, **SHENGJI}


def step_zh(game: str, event: Any, hide_judgement: bool = False) -> str:
    """One event in Chinese (see the module doc); an irregularity's facts as the English step
    says them (``hide_judgement``: without the referee's findings, the trainer's table)."""
    said = _BY_KIND.get(event.KIND)
    if said is not None:
        try:
            if said in (_irregular, _found):
                return _irregular(game, event, hide_judgement) if said is _irregular else _found(game, event, hide_judgement)
            return said(game, event)
        except (AttributeError, TypeError, KeyError, IndexError, ValueError):
            pass   # a payload older or newer than these words: said as an event of its seat
    if event.KIND == "unit":
        return f"第 {getattr(event, 'index', 0)} 场开始"
    return f"{seat_zh(event.seat)}：牌桌事件" if event.seat is not None else "牌桌事件"


def draw_run_zh(counts: Sequence[int]) -> str:
    """A run of drawn cards: '抓牌 108 张（0号位 27，…）'."""
    each = "，".join(f"{seat_zh(s)} {n}" for s, n in enumerate(counts) if n)
    return f"抓牌 {sum(counts)} 张（{each}）"



# ---------------------------------------------------------------------------------------------
# What the frame shows beside the steps: facts, notes, flags (``Table.zh``)

_CJK_TEXT = re.compile(r"[^\sA-Za-z'():;,.]*[\u3400-\u9fff][^\sA-Za-z'():;,.]*")
_LABELS_ZH = {"answered": "下家应对", "partner": "对家", "when": "时机", "deck": "牌数", "face-up card": "翻牌",
              "which card": "牌张", "where": "位置", "card": "牌张", "to whom": "交给", "kitty": "底牌",
              "trick": "墩", "tricks": "已出墩", "lead": "首出", "banker": "庄家", "kitty left": "底牌剩余",
              "card stays": "牌张去向", "moot": "无需裁决", "chose instead of lots": "未抽签而由一方决定",
              "declarations": "亮主", "seats": "座位", "lots winner": "抽签胜方"}
_SEAT_LABELS = frozenset({"banker", "lots winner"})
"""Labels of facts without a table entry whose value is a seat."""
"""A fact's label that has no Chinese of its own (a flag's label: its value says it in Chinese)."""

_TEXTS_ZH = {
    "taken-back cards count as exposed; light ones carry no separate SJ-1.3 warning (the out-of-turn clause's 10 is "
    "the sanction)": "收回的牌作暴露张；轻罚张不另按 SJ-1.3 警告（越序出牌条款的罚 10 分即为处罚）",
    "heavy, but not in the circumstances of SJ-3.1.10.4 / 3.1.11.3: no SJ-3.1.3 on top":
        "重罚张，但不属 SJ-3.1.10.4 / 3.1.11.3 的情形：不另按 SJ-3.1.3 处罚",
    "SJ-3.1.3: the heavy cards shown and taken back, 10 more (the rulebook's SJ-3.1.12 PD: found at once, affecting "
    "play, heavy)": "依 SJ-3.1.3：亮出并收回的重罚张另罚 10 分（规则书对 SJ-3.1.12 的解释：当场发现、影响出牌、重罚张）",
    "in the banker's hand; it buries 8 of 33 as usual": "留在庄家手中；照常从 33 张中扣 8 张",
    "passing with the lead is in no clause (the seat must lead)": "首出时不出：无条款规定（该家必须首出）",
    "no clause covers this irregularity": "无条款适用于此违例",
    "it came to light only after the deal had ended": "本副牌结束后才发现",
    "the deal is already over": "本副牌已结束",
    "the slip left every count right (its cards went elsewhere)": "失误未造成张数错误（牌张去了别处）",
    "the play without the extra card is not legal either": "去掉多出的牌后仍不合规",
    "lateness of no minutes": "迟到 0 分钟",
    "cards not laid face up in one motion": "出牌未一次亮出",
    "a pause before passing": "不出前停顿",
    "not a combination": "不成牌型",
    "penalty cards must be played (or pass)": "须打出罚张（或不出）",
    "SJ-3.1.3: the exposed heavy cards, 10 more": "依 SJ-3.1.3：暴露的重罚张另罚 10 分",
    "face seen, light card, not in the hand: no damage, warned as SJ-1.1": "牌面被看到，轻牌，未入手牌：未造成损害，按 SJ-1.1 警告",
    "the card is already in the offender's hand: the seed covers a card not yet in the hand":
        "该牌已入违例方手牌：规则只规定尚未入手的牌",
    "information used to the other side's damage: adjusted score at the referee's discretion":
        "利用非法信息损害对方：由裁判酌情调整成绩",
    "the rulebook's SJ-1.2 PD: minutes late read as bands: up to 5 → warning (SJ-1.2); over 5 up to 15 → 10 "
    "(SJ-3.1.2); over 15 → unresolved": "规则书对 SJ-1.2 的解释：迟到分钟分档：5 分钟以内 → 警告（SJ-1.2）；"
                                          "5 至 15 分钟 → 罚 10 分（SJ-3.1.2）；超过 15 分钟 → 无条款可依",
}
"""The stable free texts the rulings give as facts (their explanations), in Chinese."""
_PATTERNS_ZH: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^(\d+) minutes late: over 15, the rulebook's PD bands \(SJ-1\.2\) leave it to the fallback$"),
     lambda m: f"迟到 {m.group(1)} 分钟：超过 15 分钟，规则书对 SJ-1.2 的分档不适用，按兜底条款处理"),
    (re.compile(r"^a reported incident of kind '([a-z_]+)' is in no clause$"),
     lambda m: f"报告的事件「{m.group(1)}」无条款规定"),
)
"""Free texts with a number or a name in them, in Chinese."""
_RESTRICTION = re.compile(r"^lead restriction: (forbid|require|cards) (\S+)$")
_ON = re.compile(r"^([A-Z_]+ \S+) on ([A-Z_]+ \S+)$")


def text_zh(text: Any) -> str:
    """The Chinese of a bilingual phrase ('plays out of turn 越序出牌' → '越序出牌', '迟到 late' →
    '迟到'); a text with no Chinese as it is (never nothing: a referee sees what the reader of
    English sees)."""
    said = str(text)
    runs = _CJK_TEXT.findall(said)
    return " ".join(runs) if runs else said


def _value_zh(game: str, kind: str, value: Any, anchor: int | None) -> str:
    from paiju.wording import SHARED_VALUES

    if kind == "seat":
        return seat_zh(value, anchor) if value is not None else "牌堆"
    if kind == "seats" and isinstance(value, (tuple, list)):
        return seats_zh(value, anchor)
    if kind == "card":
        return _cards([value])
    if kind == "cards" and isinstance(value, (tuple, list)):
        return _cards(value)
    if kind == "reading":
        return reading_zh(game, value)
    if kind == "suit":
        return _suit(value)
    if kind == "counts" and isinstance(value, (tuple, list)):
        return "，".join(f"{seat_zh(s)} {n} 张" for s, n in enumerate(value))
    if kind == "side":
        return _team(value)
    if kind == "per_side" and isinstance(value, (tuple, list)):
        return "，".join(f"{_team(s)} {n} 张" for s, n in enumerate(value))
    if isinstance(value, bool):
        return "是" if value else "否"
    if isinstance(value, (tuple, list)):
        return "、".join(_value_zh(game, "text", v, anchor) for v in value) or "无"
    said = str(value)
    known = words_for(game).values.get(said) or SHARED_VALUES.get(said)
    if known:
        return text_zh(known)
    if said in JOKERS or len(said) == 2 and said[0] in SUITS and said[1] in "23456789TJQKA":
        return _cards([said])
    if said in _TEXTS_ZH:
        return _TEXTS_ZH[said]
    if said.startswith("reported: "):
        return "报告：" + _reported_zh(game, said.removeprefix("reported: "))
    for pattern, said_zh in _PATTERNS_ZH:
        found = pattern.match(said)
        if found:
            return said_zh(found)
    restriction = _RESTRICTION.match(said)
    if restriction:
        rule = {"forbid": "不得领出", "require": "必须领出", "cards": "必须领出"}[restriction.group(1)]
        return f"领出限制：{rule}{_head(words_for(game).combinations.get(restriction.group(2), '')) or restriction.group(2)}"
    on = _ON.match(said)   # 'SINGLE 3 on TUBE 3': a play and what it was laid on
    if on and on.group(1).split()[0] in words_for(game).combinations:
        return f"{reading_zh(game, on.group(1))} 出在 {reading_zh(game, on.group(2))} 上"
    return text_zh(said)


def _reported_zh(game: str, what: str) -> str:
    """What a report names ('refusing ruling', 'scoresheet not signed') in the values' Chinese."""
    from paiju.wording import SHARED_VALUES

    values = {**SHARED_VALUES, **words_for(game).values}
    key = what.replace(" ", "_")
    if key in values:
        return text_zh(values[key])
    said = next((v for v in values.values() if what in v), None)
    return text_zh(said) if said else text_zh(what)


def fact_list_zh(game: str, facts: Any, anchor: int | None = None, hide_judgement: bool = False,
                 skip: Sequence[str] = ()) -> list[str]:
    """Each fact in Chinese alone, the same items as ``paiju.wording.fact_list`` says in English
    ('多出的牌：♠3', '牌型：单张 3')."""
    from paiju.wording import fact_list

    return [_fact_zh(game, key, value, anchor) for key, value in _pairs(facts)
            if value is not None and key not in skip and fact_list(game, ((key, value),), anchor, hide_judgement)]


def facts_zh(game: str, facts: Any, anchor: int | None = None, hide_judgement: bool = False,
             skip: Sequence[str] = ()) -> str:
    """The facts on one line ('多出的牌：♠3；牌型：单张 3'); '' for none."""
    return "；".join(fact_list_zh(game, facts, anchor, hide_judgement, skip))


def _pairs(facts: Any) -> list[tuple[str, Any]]:
    pairs = facts.items() if isinstance(facts, dict) else facts or ()
    return [(str(k), v) for k, v in pairs]


def _fact_zh(game: str, key: str, value: Any, anchor: int | None) -> str:
    from paiju.wording import SHARED_FACTS, Fact

    fact = words_for(game).facts.get(key) or SHARED_FACTS.get(key) or Fact(key.replace("_", " "))
    if fact.kind == "flag" and isinstance(value, bool):
        return text_zh((fact.yes or "是") if value else (fact.no or "否"))
    label = _LABELS_ZH.get(fact.label) or text_zh(fact.label)
    kind = "seat" if fact.label in _SEAT_LABELS and isinstance(value, int) else fact.kind
    return f"{label}：{_value_zh(game, kind, value, anchor)}"
