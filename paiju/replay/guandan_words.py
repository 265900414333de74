"""掼蛋's own words for rulings and choices (``paiju.wording``): its facts,
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
    "answer": Fact("what the next seat did 下家应对"),
    "answer_cards": Fact("its cards 下家所出的牌", "cards"),
    "answer_reading": Fact("played as 下家牌型", "reading"),
    "answer_attempt": Fact("its attempt, ruled next 下家违例（随后裁决）", "number"),
    "stage": Fact("stage found 发现阶段", "number", judgement=True),
    "requested_stage": Fact("stage asked 询问阶段", "number", judgement=True),
    "rounds_later": Fact("rounds before it comes to light 几圈后发现", "number", judgement=True),
    "holds": Fact("cards it holds 实际张数", "number"),
    "announced": Fact("count reported before 已报张数", "number"),   # GD-4.1: reported again
    "count": Fact("count reported now 本次报数", "number"),
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
    # a wrong tribute or return (GD-3)
    "discovered": Fact("found 发现时"),
    "given": Fact("card given 所给的牌", "card"),
    "receiver": Fact("to receive it 受贡方", "seat"),
    "required": Fact("the card due 应贡的牌", "cards"),
    "allowed": Fact("cards it may return 可还的牌", "cards"),
    "payer": Fact("its payer 进贡方", "seat"),
    "to": Fact("given to 交给", "seat"),
    "wrong_card": Fact("card", "flag", "the wrong card 牌张错误", "the right card 牌张无误"),
    "wrong_recipient": Fact("to whom", "flag", "to the wrong seat 交错人", "to the right seat 交给应还方"),
}

VALUES = {
    "before_first_play": "before the first play 尚未出牌", "after_first_play": "after the first play 已经出牌",
    # the ``answer`` fact: what the offender's 下家 did about an out-of-turn play, as the table
    # saw it (not the referee's finding whether it was 跟牌)
    "called_referee": "called the referee 叫裁判", "played_on_it": "played cards on it 出牌压上",
    "passed": "passed 不出", "irregular_attempt": "attempted an irregular play on it 违例出牌",
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

CONDITIONS = {
    "bar_pending": ("a bar pending (a seat barred from its next play)", "禁出一手待执行"),
    "lead_option_pending": ("a lead option pending (the a/b/c choice before the offender's partner leads)",
                            "暴露张领出选择待作出"),
    "lead_restriction": ("a lead restriction in force (a combination type forbidden or required)", "领出限制生效"),
    "penalty_cards_held": ("penalty cards held", "持有罚张"),
    "exposed_cards": ("exposed cards on the table (not penalty cards)", "桌面有暴露张"),
    "report_pending": ("a 报牌 (card count report) due", "报牌待进行"),
    "partner_gone_out": ("a player gone out while the deal goes on (接风 possible)", "已有牌手出完牌（可接风）"),
    "forced_place_judged": ("a seat judged 单下 (GD-5.1, GD-5.2)", "已判单下"),
    "tribute_under_way": ("tribute under way", "进贡进行中"),
    "return_under_way": ("return (还贡) under way", "还贡进行中"),
    "out_of_turn_pending": ("an out-of-turn play awaiting its answer", "越序出牌待处理"),
    "correction_due": ("a correction of a wrong play due", "出错牌待纠正"),
    "pass_sequence": ("the seats after a 报牌 offender choosing in turn whether to pass (GD-4.2.3, GD-4.2.4)",
                      "依次选择不出"),
    "unauthorised_information": ("unauthorised information marked", "存在非法信息"),
    "latent_tribute_error": ("a wrong tribute or return not yet found", "贡错牌或还错牌尚未发现"),
    "cards_on_table": ("an attempt's cards lying on the table", "桌面有待处理的牌"),
    "choice_offered": ("a choice offered to a seat", "待选择"),
    "redealt": ("the draw redone in this deal", "本副已重洗重抓"),
}
"""The table conditions in the fuzzer's holes report, in the seed's terms (罚张, 暴露张, 越序出牌)."""

WORDS = Words(facts=FACTS, combinations=COMBINATIONS, choices=CHOICES,
              values=VALUES, about_seat=frozenset({"designate"}), conditions=CONDITIONS)
