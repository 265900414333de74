"""掼蛋's own words for rulings and choices (``paiju.wording``): its facts, irregularities,
combinations and the choices its rulings offer."""

from __future__ import annotations

from paiju.wording import Fact, Words

COMBINATIONS = {
    "SINGLE": "单张 single", "PAIR": "对子 pair", "TRIPLE": "三张 triple", "FULL_HOUSE": "三带二 full house",
    "STRAIGHT": "顺子 straight", "TUBE": "三连对 tube", "PLATE": "钢板 plate", "BOMB": "炸弹 bomb",
    "STRAIGHT_FLUSH": "同花顺 straight flush", "JOKER_BOMB": "天王炸 joker bomb",
}

FACTS = {
    "followed": Fact("answered", "flag", "the next seat acted on it 下家已跟", "nobody acted on it yet 下家未跟",
                     judgement=True),
    "stage": Fact("stage found 发现阶段", "number", judgement=True),
    "requested_stage": Fact("stage asked 询问阶段", "number", judgement=True),
    "holds": Fact("cards it holds 实际张数", "number"),
    "acted": Fact("seats that acted since 其后出牌或不出", "seats"),
    "played": Fact("seats that played since 其后出牌", "seats"),
    "played_this_round": Fact("seats that played since in this round 本圈其后出牌", "seats"),
    "partner_acted": Fact("partner", "flag", "its partner acted since 对家已出牌", "its partner has not acted 对家未出牌"),
    "partner_out": Fact("partner", "flag", "its partner is out 对家已出完", "its partner still plays 对家未出完"),
    "partner_still_playing": Fact("partner", "flag", "its partner still plays 对家未出完", "its partner is out 对家已出完"),
    "at_deal_end": Fact("when", "flag", "found at the end of the deal 牌局结束时发现", "found during play 出牌中发现",
                        judgement=True),
    "deck_complete": Fact("deck", "flag", "the deck is complete 牌数齐全", "the deck is short 缺牌"),
    "face_up_card": Fact("face-up card", "flag", "it was the face-up card 翻牌", "not the face-up card 非翻牌"),
    "identifiable": Fact("which card", "flag", "the card can be told 可辨认", "the card cannot be told 无法辨认"),
    "inserted": Fact("where", "flag", "put into its hand 已插入手牌", "not yet in its hand 未插入手牌"),
}

IRREGULARITIES = {
    "draw_out_of_turn": "draws out of turn 抢抓", "wrong_counts_after_draw": "wrong hand sizes after the draw 抓牌张数不对",
    "announce_out_of_turn": "announces out of turn 提前表态", "play_out_of_turn": "plays out of turn 提前出牌",
    "wrong_kind": "not a combination it may play 牌型出错", "does_not_beat": "does not beat the play 牌张大小出错",
    "extra_cards": "plays extra cards 多出牌", "retract_play": "takes back a play 收回出牌",
    "exposed_card": "exposes a card 暴露牌", "pass_on_lead": "passes with the lead 首出不出",
    "wrong_tribute": "wrong tribute 进贡出错", "wrong_return": "wrong return 还贡出错",
    "report_repeated": "reports again 重复报牌", "ask_count": "asks a count 询问张数",
    "report_missing": "does not report 未报牌", "report_wrong": "reports a wrong count 报错牌",
    "incident": "an incident 事件",
}

CHOICES = {
    "lead_option": ("{seat} chooses how {about} leads next", {
        "forbid": "forbid 禁出: it may not lead a {what}",
        "require": "require 要求出: it must lead a {what}",
        "free": "free 自由: it leads as it likes",
    }),
    "designate": ("{seat} designates the combination {about} plays its penalty cards as", {}),
    "replay": ("{seat} chooses whether to take back its own play since the wrong 报牌 (the later plays of "
               "the round go with it)", {
                   "take_back": "take back 收回重出, not exposed", "stand": "it stands 维持"}),
    "partner_replay": ("{seat}, the offender's partner, chooses whether to take back its own play (the later "
                       "plays of the round go with it; the offender may not use what it shows)", {
                           "take_back": "take back 收回重出, not exposed", "stand": "it stands 维持"}),
}

WORDS = Words(facts=FACTS, irregularities=IRREGULARITIES, combinations=COMBINATIONS, choices=CHOICES,
              about_seat=frozenset({"designate"}))
