"""双升's own words for rulings and choices (``paiju.wording``): its facts,
combinations and the choices its rulings offer."""

from __future__ import annotations

from paiju.wording import Fact, Words

COMBINATIONS = {"SINGLE": "单张 single", "PAIR": "对子 pair", "TRACTOR": "拖拉机 tractor", "THROW": "甩牌 throw"}

FACTS = {
    "band": Fact("how late 迟到档", judgement=True),
    "base_clause": Fact("under 依据", judgement=True),
    "by_analogy": Fact("by analogy 类推", judgement=True),
    "exposure": Fact("exposed cards 暴露的牌张", judgement=True),
    "on_top": Fact("on top 另加", judgement=True),
    "before_first_play": Fact("when", "flag", "before the first play 首轮出牌前", "after play began 已开始出牌"),
    "buried": Fact("cards buried 扣底张数", "number"),
    "earlier_unreasonable_plays": Fact("earlier unreasonable plays 此前不合理出牌", "number"),
    "heavy": Fact("heavy penalty cards 重罚张", "cards"),
    "in_hand": Fact("where", "flag", "already in its hand 已入手牌", "not yet in its hand 未入手牌"),
    "index": Fact("position in the stock 牌堆位置", "number"),
    "kind": Fact("play 出牌"),
    "kitty_buried": Fact("kitty", "flag", "the kitty was buried 已扣底", "the kitty was not buried 未扣底"),
    "lead": Fact("the lead 首家出牌", "cards"),
    "level": Fact("level 级"),
    "own_sides_trick": Fact("trick", "flag", "its own side's trick 本方赢墩", "the other side's trick 对方赢墩"),
    "partners_lead": Fact("lead", "flag", "its partner had the lead 对家首出", "not its partner's lead 非对家首出"),
    "per_side": Fact("cards per side 各方张数", "per_side"),
    "side": Fact("side 方", "side"),
    "offending_side": Fact("offending side 违例方", "side"),
    "played": Fact("cards played 已出张数", "number"),
    "position": Fact("place in the trick 出牌顺位", "number"),
    "requested": Fact("found 发现时机"),
    "found": Fact("found 发现时机", judgement=True),
    "fault": Fact("whose fault 责任"),
    "short": Fact("drew too few 少抓方", "seat"),
    "size": Fact("cards too many / too few 多抓少抓张数", "number"),
    "trick": Fact("trick 墩", "number"),
    "tricks_stand": Fact("tricks", "flag", "the tricks played stand 已出墩有效", "the tricks are replayed 重打",
                         judgement=True),
    "trump": Fact("trump 主", "suit"),
}

VALUES = {
    "follow": "a follow 跟牌", "lead": "a lead 首出", "throw": "a throw 甩牌", "suit": "the suit 花色", "pair": "a pair 对子",
    "at_once": "at once 当场", "after_trick": "after the trick 本墩后", "affecting_play": "after it affected play 影响出牌后",
    "taker": "the one who took 拿牌方", "short": "the one short 少牌方",
    # reported incidents (seed 001's own words first; English beside)
    "late": "迟到 late", "unreasonable_play": "打出无道理的牌张 an unreasonable play",
    "prompting": "同伴提醒出牌 prompting in play", "prompting_declaration": "亮主时提醒同伴 prompting in the declaration",
    "reminding": "同伴出错牌时提醒 reminding the partner of a wrong play",
    "tempo": "超过规定时间 over the time limit", "signing": "成绩单未签名（未签字） the scoresheet not signed",
    "kitty_inspection": "不让对方查验底牌 kitty or last cards mixed in before the check",
    "old_tricks": "不按规定查询打过的牌 looking at past tricks", "tricks_order": "出过的牌不按顺序摆放 tricks not kept in order",
    "refusing_ruling": "不服从裁判员的正确判罚 refusing a correct ruling",
    "exposure_signalling": "暴露罚张传递信息 signalling by exposed cards",
    "passing_cards": "不按约定原则传牌 passing cards against the agreed method",
    "repeated_misdraw": "多抓或少抓两次以上 repeated misdraws",
    "declaration_chosen": "同时亮主由一方决定主牌 a simultaneous declaration settled without lots",
    "misconduct": "违例犯规或干扰比赛的言行 misconduct",
}

CHOICES = {
    "miscount_draw": ("{seat} chooses whether to draw a card", {
        "random_draw": "draw a card at random 随机抽一张", "decline": "do not draw 不抽"}),
    "miscount_remedy": ("{seat} chooses the remedy for the miscount", {
        "random_draw": "draw cards at random 随机抽牌", "redeal": "draw all again 重新抓牌"}),
    "hand_over": ("{seat} chooses the card to hand over", {}),
}

WORDS = Words(facts=FACTS, combinations=COMBINATIONS, choices=CHOICES, values=VALUES,
              about_seat=frozenset())
