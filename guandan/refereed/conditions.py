"""掼蛋's table conditions and happenings for interaction coverage (``tabletop.conditions``):
what can be in force at a refereed deal (read from ``deal.table`` and the deal), and which of
its events are happenings. Its referee part carries ``INTERACTIONS`` (``enforcement.games``)."""

from __future__ import annotations

from typing import Any

from guandan.events import RoundEnded
from guandan.observation import Phase
from tabletop.conditions import Happening, Interactions, TableCondition, impossible_with
from tabletop.events import Event


def _deal_of(engine: Any) -> Any:
    """A match's current deal; a lone deal itself."""
    return getattr(engine, "current_deal", engine)


def _stage(deal: Any) -> Phase:
    """The phase the deal is in, or resumes in while a ruling is awaited."""
    return deal.table.resume_phase if deal.phase is Phase.AWAITING_RULING else deal.phase


def _phase(deal: Any) -> str:
    return _stage(deal).value


def _playing(deal: Any) -> bool:
    return _stage(deal) is Phase.PLAY


CONDITIONS = (
    TableCondition("bar_pending", "a bar pending (a seat barred from its next play)", "禁出待执行",
                   lambda d: bool(d.table.bars)),
    TableCondition("lead_option_pending", "a lead option pending (the a/b/c choice on the offender's next lead)",
                   "首出选择权待行使", lambda d: bool(d.table.lead_options)),
    TableCondition("lead_restriction", "a lead restriction in force (a combination type forbidden or required)",
                   "首出限制生效", lambda d: d.table.restriction is not None),
    TableCondition("penalty_cards_held", "penalty cards held", "持有罚牌",
                   lambda d: any(e.penalty and e.cards for e in d.table.exposures)),
    TableCondition("exposed_cards", "exposed cards on the table (not penalty cards)", "桌面有亮出的牌",
                   lambda d: any(not e.penalty and e.cards for e in d.table.exposures)),
    TableCondition("report_pending", "a 报牌 (card count report) due", "报牌待进行",
                   lambda d: d.table.report_due is not None),
    TableCondition("partner_gone_out", "a player gone out while the deal goes on (接风 possible)", "已有玩家出完牌（可接风）",
                   lambda d: bool(d.finish_order) and _playing(d)),
    TableCondition("forced_place_judged", "a forced last place judged (GD-5.1/5.2)", "已判定名次（末游）",
                   lambda d: bool(d.table.placed_last)),
    TableCondition("tribute_under_way", "tribute under way", "进贡进行中",
                   lambda d: _stage(d) is Phase.TRIBUTE),
    TableCondition("return_under_way", "return (还贡) under way", "还贡进行中",
                   lambda d: _stage(d) is Phase.RETURN),
    TableCondition("out_of_turn_pending", "an out-of-turn play awaiting its answer", "出牌顺序错误待处理",
                   lambda d: d.table.oot is not None),
    TableCondition("correction_due", "a correction of a play due", "出牌更正待进行",
                   lambda d: d.table.correction is not None),
    TableCondition("pass_sequence", "a pass sequence imposed", "规定过牌顺序生效",
                   lambda d: d.table.sequence is not None),
    TableCondition("unauthorised_information", "unauthorised information marked", "存在未经许可的信息",
                   lambda d: bool(d.table.unauthorised)),
    TableCondition("latent_tribute_error", "a wrong tribute or return not yet found", "进还贡错误尚未发现",
                   lambda d: bool(d.table.latent)),
    TableCondition("cards_on_table", "an attempt's cards lying on the table", "桌面有待处理的牌",
                   lambda d: bool(d.table.on_table)),
    TableCondition("choice_offered", "a choice offered to a seat", "待选择",
                   lambda d: d.table.choice is not None),
    TableCondition("redealt", "the draw redone in this deal", "本副已重新抓牌",
                   lambda d: d.table.draw.redeals > 0),
)

HAPPENINGS = (
    Happening("round_over", "a round ends", "一轮结束"),
    Happening("jiefeng", "接风: the partner of the player gone out leads", "接风"),
    Happening("going_out", "a player goes out", "玩家出完牌"),
    Happening("deal_end", "the deal is scored", "一副结束计分"),
    Happening("result_forced", "a ruling forces the result", "判定结果"),
    Happening("tribute", "tribute given", "进贡"),
    Happening("return", "return given", "还贡"),
    Happening("tribute_resisted", "tribute resisted (抗贡)", "抗贡"),
    Happening("redeal", "a redeal", "重新抓牌"),
    Happening("placed_last", "a seat placed last", "判为末游"),
    Happening("taken_back", "a play taken back", "收回出牌"),
    Happening("play_stands", "an irregular play stands", "出牌有效"),
    Happening("designated", "the 下家 designates the penalty cards' play", "下家指定罚牌出法"),
    Happening("lead_restricted", "a lead restricted", "首出受限"),
    Happening("lead_option", "a lead option answered", "首出选择"),
    Happening("cards_reported", "报牌", "报牌"),
    Happening("penalty_cards_marked", "cards made penalty cards", "罚牌"),
    Happening("barred", "a seat barred", "禁出"),
    Happening("barred_pass", "a barred seat passes", "被禁出者过牌"),
    Happening("bar_ended", "a bar ends", "禁出结束"),
    Happening("card_lost", "a card lost in the draw", "丢牌"),
    Happening("unresolved", "the rulebook does not decide (fallback)", "规则未覆盖（兜底）"),
)

_BY_KIND = {
    "gd.finished": "going_out", "gd.scored": "deal_end", "gd.result_forced": "result_forced",
    "gd.tribute_given": "tribute", "gd.return_given": "return", "gd.tribute_resisted": "tribute_resisted",
    "gd.redeal": "redeal", "gd.placed_last": "placed_last", "gd.taken_back": "taken_back",
    "gd.play_stands": "play_stands", "gd.designated": "designated", "gd.lead_restricted": "lead_restricted",
    "gd.lead_option": "lead_option", "gd.cards_reported": "cards_reported",
    "table.penalty_cards": "penalty_cards_marked", "table.barred": "barred", "table.barred_pass": "barred_pass",
    "table.bar_ended": "bar_ended", "gd.card_lost": "card_lost", "ref.unresolved": "unresolved",
}


def happening_of(event: Event) -> str | None:
    if isinstance(event, RoundEnded):
        return "jiefeng" if event.partner_leads else "round_over"
    return _BY_KIND.get(event.KIND)


# A lead option is not among them: a card exposed while tribute is under way sets one up
# (GD-2.5), for the first lead after it — the fuzzer met that pair.
_PLAY_ONLY = ("round_over", "jiefeng", "going_out", "placed_last", "designated", "lead_restricted",
              "cards_reported", "barred_pass", "taken_back", "play_stands")
_BEFORE_PLAY = "tribute and return are done before the first play of the deal (no round is played meanwhile)"
RULING = "ruling:"
# Happenings that need a seat to play or pass, after the deal's first play.
_LATER_PLAYS = ("round_over", "jiefeng", "going_out", "taken_back", "cards_reported")
# What needs a play now: the play itself, and rulings on a play attempt. (Serving a bar needs
# none: when the due 报牌 is made the table moves on to bars, and a round or the deal may end.)
_PLAYED = ("going_out", "taken_back", "play_stands", "cards_reported", "ruling:GD-2.3.1", "ruling:GD-2.4.1",
           "ruling:GD-2.4.2", "ruling:GD-2.4.3")
_REPORTS = ("ruling:GD-4.2.1", "ruling:GD-4.2.2", "ruling:GD-4.2.3", "ruling:GD-4.2.4", "ruling:GD-4.2.5")
_FORCED = ("result_forced", "placed_last", "ruling:GD-5.1", "ruling:GD-5.2", "ruling:GD-3.1.2",
           "ruling:GD-3.2.2")
_DECIDED_BY_SUB_CLAUSES = {
    "GD-1.1": "how the card drawn out of turn was seen (GD-1.1.1, 1.1.2, 1.1.3a, 1.1.3b)",
    "GD-2.2": "what was announced, pass or beat (GD-2.2.1, 2.2.2)",
    "GD-2.3": "whether the next seat played on the cards (GD-2.3.1, 2.3.2)",
    "GD-2.4": "what was wrong with the play (GD-2.4.1 to 2.4.4)",
    "GD-3.1": "whether the wrong tribute was found before or after the first play (GD-3.1.1, 3.1.2)",
    "GD-3.2": "whether the wrong return was found before or after the first play (GD-3.2.1, 3.2.2)",
    "GD-4.2": "how far the play went before the 报牌 irregularity came to light (GD-4.2.1 to 4.2.5)",
}
"""Clauses no ruling cites: their sub-clauses divide every case among them, by what is named."""

IMPOSSIBLE = {
    **impossible_with(("tribute_under_way", "return_under_way"), _PLAY_ONLY, _BEFORE_PLAY),
    **impossible_with(("tribute_under_way", "return_under_way"), ("redeal", "card_lost"),
                      "tribute comes after the draw is complete: nothing is redealt or lost from the stock then"),
    ("tribute_under_way", "return"): "the return follows the tributes: it cannot be given while one is still due",
    ("return_under_way", "tribute"): "every tribute is given before the first return",
    ("return_under_way", "tribute_resisted"): "抗贡 is decided before any tribute, so before any return",
    ("partner_gone_out", "redeal"): "a player goes out only in the play, after the draw",
    ("partner_gone_out", "card_lost"): "a player goes out only in the play, after the draw",
    ("partner_gone_out", "tribute"): "a player goes out only in the play, after tribute",
    ("partner_gone_out", "return"): "a player goes out only in the play, after the return",
    ("partner_gone_out", "tribute_resisted"): "a player goes out only in the play, after tribute",
    **impossible_with(("tribute_under_way", "return_under_way", "latent_tribute_error"),
                      ("deal_end", "result_forced", "placed_last", "ruling:GD-5.1", "ruling:GD-5.2"),
                      "before the first play no ruling ends the deal or places a seat: a wrong tribute or return found "
                      "at once is given again (GD-3.1.1, GD-3.2.1); 单下 and 双下 follow a wrong count after the draw "
                      "(GD-1.2.1, in the draw), a wrong tribute or return found after the first play (GD-3.1.2, "
                      "GD-3.2.2) or a 报牌 irregularity (GD-4.2.4, GD-4.2.5: a seat reports at 10 cards or fewer)"),
    **impossible_with(("latent_tribute_error",), _LATER_PLAYS + _REPORTS,
                      "a wrong tribute or return lies unnoticed only until the deal's first play, which finds it "
                      "(GD-3.1.2, GD-3.2.2): no round ends, no seat goes out, no play is taken back and nobody holds the 10 "
                      "cards or fewer that a 报牌 needs before then"),
    **impossible_with(("latent_tribute_error",), ("ruling:GD-3.1.2", "ruling:GD-3.2.2"),
                      "the wrong tribute or return is no longer unnoticed once found after the first play: the ruling "
                      "on it follows its finding"),
    **impossible_with(("partner_gone_out", "forced_place_judged"), ("ruling:GD-3.1.2", "ruling:GD-3.2.2"),
                      "a wrong tribute or return nobody noticed is found at the deal's first play and ruled on straight "
                      "after it, while every hand still holds 27 cards: nobody has gone out or been placed last yet"),
    **impossible_with(("report_pending",), _PLAYED + _REPORTS + _FORCED,
                      "while a 报牌 is due nobody plays (the reporting seat reports first, GD-4.1; a play out of "
                      "turn is not taken then): no play stands or goes out, no attempt is laid; a 报牌 irregularity is "
                      "ruled after its report is made (the due report is over then) or when the play reaches it; so "
                      "no seat is placed last nor a result forced, which only those rulings (GD-4.2.4, GD-4.2.5) and a "
                      "wrong tribute or return found at the first play (27 cards in every hand) do"),
    **impossible_with(("out_of_turn_pending",), ("ruling:GD-2.4.1", "ruling:GD-2.4.2",
                                                  "ruling:GD-2.4.3", "taken_back", "designated") + _REPORTS + _FORCED,
                      "an out-of-turn play waits for its 下家, whose answer (a call, a play on it, a pass, an "
                      "irregular attempt) brings it to the referee, who rules on it first (GD-2.3.1, or GD-2.3.2 while "
                      "it still lies there) and on an attempt of the 下家 only after it is taken back; meanwhile no other "
                      "seat plays or answers a take-back or designation, and a 报牌 irregularity comes to light only "
                      "when play goes on (so neither does what its rulings and a wrong tribute found at the first play "
                      "bring: a seat placed last, a result forced)"),
    **impossible_with(("cards_on_table",), ("tribute", "return", "tribute_resisted", "redeal", "ruling:GD-1.1.3a",
                                            "ruling:GD-1.1.3b", "ruling:GD-1.2", "ruling:GD-1.2.1", "ruling:GD-1.2.2"),
                      "before the play, cards lie on the table only while the referee rules on them: a card drawn out "
                      "of turn and seen but not taken into the hand (GD-1.1.1, 1.1.2: it goes back onto the stock, so "
                      "the draw is not over and its counts are not checked), or a wrong tribute or return laid down "
                      "(GD-3.1.1, 3.2.1: it goes back, to be given again by the seat's next action)"),
    **{(condition.name, RULING + clause): f"a ruling under {clause} always cites the sub-clause that decides it, "
                                          f"by {what}"
       for condition in CONDITIONS for clause, what in _DECIDED_BY_SUB_CLAUSES.items()},
}

# Where each condition, happening and irregularity can arise, by the rules (a stage is the
# phase the deal is in, or resumes in after a ruling): a condition and a happening whose
# stages do not meet never pair. tests/paiju/fuzz/test_ceiling.py checks them on fuzzed deals.
STAGES = {"draw": "in the draw", "tribute": "while tribute is given", "return": "while the return is given",
          "play": "in the play", "scored": "after the scoring"}
_PLAY_ON = ("play", "scored")
CONDITION_STAGES = {
    "tribute_under_way": ("tribute",), "return_under_way": ("return",), "partner_gone_out": ("play",),
    # a seat is placed last only by a ruling on a 报牌 irregularity (GD-4.2.4, GD-4.2.5), found in the play
    "forced_place_judged": _PLAY_ON,
    # a choice is offered only in the play: the lead option (GD-2.3.1), the penalty cards'
    # designation (GD-6), a take-back (GD-4.2.2); the deal's end withdraws it
    "choice_offered": ("play",),
    "report_pending": _PLAY_ON, "out_of_turn_pending": _PLAY_ON, "correction_due": _PLAY_ON,
    "bar_pending": _PLAY_ON, "lead_restriction": _PLAY_ON, "pass_sequence": _PLAY_ON,
    "latent_tribute_error": ("tribute", "return", "play"),     # found at the first play
    # cards are exposed (and so become penalty cards, or give a lead option) only by a play, a
    # tribute or a return laid on the table (GD-2.4, GD-3.1.1) or an exposure in the play: the
    # draw's irregularities (GD-1.1, GD-1.2) and a reported incident expose none
    **{condition: ("tribute", "return", "play", "scored") for condition in ("exposed_cards", "lead_option_pending")},
    # exposed cards become penalty cards only in the play: by choice c at a lead, at once when the
    # owner's partner can lead no more (gone out or placed last), or left unused by a correction
    "penalty_cards_held": _PLAY_ON,
}
HAPPENING_STAGES = {
    **{happening: _PLAY_ON for happening in (
        "round_over", "jiefeng", "going_out", "designated", "lead_restricted", "cards_reported", "barred",
        "barred_pass", "bar_ended", "play_stands")},
    "taken_back": ("play",),   # nothing is taken back once the deal is over (GD-4.2.2)
    "tribute": ("tribute",), "return": ("return",), "tribute_resisted": ("draw", "tribute"),
    "redeal": ("draw",), "card_lost": ("draw",),
}
IRREGULARITY_STAGES = {
    "draw_out_of_turn": ("draw",), "wrong_counts_after_draw": ("draw",),
    # a wrong tribute or return is ruled on when it is made, or at the first play that finds it
    "wrong_tribute": ("tribute", "play"), "wrong_return": ("return", "play"),
    "wrong_tribute/before_first_play": ("tribute",), "wrong_return/before_first_play": ("return",),
    "wrong_tribute/after_first_play": _PLAY_ON, "wrong_return/after_first_play": _PLAY_ON,
    # the play that ends the deal may be ruled on after the scoring
    **{irregularity: _PLAY_ON for irregularity in (
        "announce_out_of_turn", "play_out_of_turn", "wrong_kind", "does_not_beat", "extra_cards", "retract_play",
        "pass_on_lead", "report_repeated", "ask_count", "report_missing", "report_wrong")},
}

IRREGULARITY_WORDS = {
    "draw_out_of_turn": ("a card drawn out of turn", "抓牌顺序错误"),
    "wrong_counts_after_draw": ("wrong card counts after the draw", "抓牌后张数不符"),
    "announce_out_of_turn": ("a count announced out of turn", "报牌顺序错误"),
    "play_out_of_turn": ("a play out of turn", "出牌顺序错误"),
    "wrong_kind": ("a play of the wrong combination type", "出牌牌型不符"),
    "does_not_beat": ("a play that does not beat the play to beat", "出牌管不住"),
    "extra_cards": ("a play with extra cards", "多出牌"),
    "retract_play": ("a play taken back", "收回已出的牌"),
    "exposed_card": ("a card exposed", "亮牌（暴露张）"),
    "pass_on_lead": ("a pass when the seat must lead", "首出时过牌"),
    "wrong_tribute": ("a wrong tribute", "进贡错误"),
    "wrong_return": ("a wrong return", "还贡错误"),
    "report_repeated": ("a count report repeated", "重复报牌"),
    "ask_count": ("a count asked for", "询问张数"),
    "report_missing": ("a due count report missing", "应报牌未报"),
    "report_wrong": ("a wrong count report", "报牌错误"),
    "incident": ("an incident reported to the referee", "向裁判报告的事件"),
}

INTERACTIONS = Interactions(conditions=CONDITIONS, happenings=HAPPENINGS, happening_of=happening_of,
                            deal_of=_deal_of, phase_of=_phase, irregularities=IRREGULARITY_WORDS,
                            impossible=IMPOSSIBLE, stages=STAGES, condition_stages=CONDITION_STAGES,
                            happening_stages=HAPPENING_STAGES, irregularity_stages=IRREGULARITY_STAGES,
                            clauses_by_sanction={"ForcedLast": "GD-5.1", "ForcedDoubleLast": "GD-5.2"},
                            # cards made penalty cards; the 下家 designating which of them is played
                            clauses_by_event={"table.penalty_cards": ("GD-6", "effect"),
                                              "gd.designated": ("GD-6", "designation")})
