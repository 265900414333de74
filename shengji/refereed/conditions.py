"""双升's table conditions and happenings for interaction coverage (``tabletop.conditions``):
what can be in force at a refereed deal (read from ``deal.table`` and the deal), and which of
its events are happenings. Its referee part carries ``INTERACTIONS`` (``enforcement.games``)."""

from __future__ import annotations

from typing import Any

from shengji.follow import lead_info
from shengji.phase import Phase
from tabletop.conditions import Happening, Interactions, TableCondition, impossible_with
from tabletop.events import Event


def _deal_of(engine: Any) -> Any:
    """A match's current deal; a lone deal itself."""
    return getattr(engine, "deal", engine)


def _stage(deal: Any) -> Phase:
    """The phase the deal is in, or resumes in while a ruling is awaited."""
    if deal.phase is Phase.AWAITING_RULING and deal.table.resume_phase is not None:
        return deal.table.resume_phase
    return deal.phase


def _phase(deal: Any) -> str:
    return _stage(deal).value


def _throw_led(deal: Any) -> bool:
    """The open trick was led by a throw (甩牌) that stood its test."""
    return bool(deal.trick) and deal.ctx is not None and lead_info(list(deal.trick[0][1]), deal.ctx).is_throw


CONDITIONS = (
    TableCondition("declaration_standing", "a trump declaration standing during the draw", "亮主有效（抓牌中）",
                   lambda d: d.declaration is not None and _stage(d) in (Phase.DRAW, Phase.DECLARE)),
    TableCondition("declaration_barred", "a seat barred from declaring", "有玩家被禁止亮主",
                   lambda d: bool(d.declare_barred)),
    TableCondition("draw_slip_pending", "an out-of-turn draw or a redirected draw being put right", "抓牌错误待纠正",
                   lambda d: bool(d.table.draw.slips) or d.table.draw.redirect is not None or d.table.grab is not None),
    TableCondition("kitty_being_buried", "the kitty being buried", "扣底进行中",
                   lambda d: _stage(d) is Phase.KITTY),
    TableCondition("bad_burial", "a wrong number of cards buried, not yet found", "扣底张数错误尚未发现",
                   lambda d: d.table.bad_burial is not None),
    TableCondition("exposed_cards", "exposed cards on the table", "桌面有亮出的牌",
                   lambda d: any(d.table.exposed)),
    TableCondition("attempt_on_table", "a play attempt lying on the table", "桌面有待处理的出牌",
                   lambda d: bool(d.table.attempts) or bool(d.table.on_table)),
    TableCondition("throw_under_test", "a throw (甩牌) leading the open trick", "甩牌领出的一墩进行中",
                   _throw_led),
    TableCondition("throw_failed_earlier", "a throw failed earlier in the deal", "本副已有甩牌失败",
                   lambda d: d.failed_throws > 0),
    TableCondition("latent_revoke", "a wrong follow (revoke) not yet found", "跟错尚未发现",
                   lambda d: d.table.revoke is not None),
    TableCondition("deferred_penalty", "a point penalty waiting for the banker to be known", "待定的扣分",
                   lambda d: bool(d.table.deferred)),
    TableCondition("points_adjusted", "points adjusted by a ruling", "已有罚分",
                   lambda d: bool(d.adjustments)),
    TableCondition("choice_offered", "a choice offered to a seat", "待选择",
                   lambda d: d.table.choice is not None),
)

HAPPENINGS = (
    Happening("declared", "trump declared", "亮主"),
    Happening("redeal", "a redeal", "重新发牌"),
    Happening("trump_set", "trump set", "定主"),
    Happening("kitty_taken", "the banker takes the kitty", "庄家拿底"),
    Happening("buried", "the kitty buried", "扣底"),
    Happening("burial_undone", "a burial undone", "重新扣底"),
    Happening("throw_failed", "a throw fails", "甩牌失败"),
    Happening("throw_penalty", "a failed throw's penalty", "甩牌罚分"),
    Happening("points_adjusted", "points adjusted", "调整分数"),
    Happening("trick_won", "a trick ends", "一墩结束"),
    Happening("kitty_revealed", "the kitty revealed at the end", "翻底"),
    Happening("deal_end", "the deal is scored", "一副结束计分"),
    Happening("play_stands", "an irregular play stands", "出牌有效"),
    Happening("taken_back", "plays taken back", "收回出牌"),
    Happening("declaration_barred", "a seat barred from declaring", "禁止亮主"),
    Happening("declaration_stands", "one of two declarations stands", "亮主有效"),
    Happening("handed_over", "a card handed over", "交出一张牌"),
    Happening("card_taken", "a card drawn out of turn", "抓错牌"),
    Happening("unresolved", "the rulebook does not decide (fallback)", "规则未覆盖（兜底）"),
)

_BY_KIND = {
    "sj.declared": "declared", "sj.redeal": "redeal", "sj.trump_set": "trump_set", "sj.kitty_taken": "kitty_taken",
    "sj.buried": "buried", "sj.burial_undone": "burial_undone", "sj.throw_failed": "throw_failed",
    "sj.throw_penalty": "throw_penalty", "sj.points_adjusted": "points_adjusted", "sj.trick_won": "trick_won",
    "sj.kitty_revealed": "kitty_revealed", "sj.scored": "deal_end", "sj.play_stands": "play_stands",
    "sj.taken_back": "taken_back", "sj.declaration_barred": "declaration_barred",
    "sj.declaration_stands": "declaration_stands", "sj.handed_over": "handed_over", "sj.card_taken": "card_taken",
    "ref.unresolved": "unresolved",
}


def happening_of(event: Event) -> str | None:
    return _BY_KIND.get(event.KIND)


_TRICKS = ("throw_failed", "throw_penalty", "trick_won", "kitty_revealed", "taken_back")
_DRAW = ("declared", "redeal", "card_taken", "declaration_stands")
IMPOSSIBLE = {
    **impossible_with(("kitty_being_buried", "declaration_standing", "draw_slip_pending"), _TRICKS,
                      "no card is played before the kitty is buried"),
    **impossible_with(("throw_under_test", "throw_failed_earlier", "latent_revoke"), _DRAW + ("kitty_taken", "buried"),
                      "throws and follows are played after the draw and the burial"),
    **impossible_with(("bad_burial",), ("declared", "redeal", "card_taken", "declaration_stands", "kitty_taken"),
                      "a burial follows the draw and the banker's taking the kitty"),
    ("declaration_standing", "kitty_revealed"): "the kitty is revealed after the last trick, long after the draw",
    **impossible_with(("latent_revoke",), ("throw_failed", "throw_penalty", "burial_undone", "kitty_revealed", "deal_end",
                                           "ruling:SJ-3.1.10.2"),
                      "a revoke lies unseen only while its trick is open (it comes to light when the next seat plays "
                      "or the trick closes): no lead is tested, no burial redone and no deal ended meanwhile"),
    **impossible_with(("bad_burial",), ("trick_won", "kitty_revealed", "deal_end", "ruling:SJ-1.4", "ruling:SJ-1.9",
                                        "ruling:SJ-3.1.12", "ruling:SJ-3.1.12.1", "ruling:SJ-3.1.12.2",
                                        "ruling:SJ-3.1.12.3", "ruling:SJ-3.1.10.3", "ruling:SJ-3.1.11",
                                        "ruling:SJ-3.1.11.1", "ruling:SJ-3.1.11.2", "ruling:SJ-3.1.11.3"),
                      "a wrong burial comes to light at the first lead (SJ-3.1.10.1), before any card follows it "
                      "or any trick ends"),
    **impossible_with(("throw_under_test",), ("throw_failed", "throw_penalty"),
                      "a throw is tested as it is led: while one that stood leads the open trick, no other is led"),
}

# Where each condition, happening and irregularity can arise, by the rules (a stage is the
# phase the deal is in, or resumes in after a ruling): a condition and a happening whose
# stages do not meet never pair. tests/paiju/fuzz/test_ceiling.py checks them on fuzzed deals.
STAGES = {"draw": "in the draw", "declare": "in the declaration after the draw", "kitty": "while the kitty is buried",
          "play": "in the play", "scored": "after the scoring"}
_DRAW_STAGES = ("draw", "declare")
_PLAY = ("play",)
CONDITION_STAGES = {
    "declaration_standing": _DRAW_STAGES,
    "draw_slip_pending": _DRAW_STAGES,
    "deferred_penalty": _DRAW_STAGES,                 # the banker is known when the draw ends
    "kitty_being_buried": ("kitty",),
    "bad_burial": _PLAY,                              # from the burial to the first lead, which finds it
    "throw_under_test": _PLAY,
    "throw_failed_earlier": ("play", "scored"),
    "latent_revoke": ("play", "scored"),
    # the table offers a choice only on a miscount after the draw or a card drawn from another
    # seat's turn (SJ-1.10, SJ-3.1.7, SJ-1.1, SJ-3.1.1): the remedy, or the card handed over
    "choice_offered": _DRAW_STAGES,
}
HAPPENING_STAGES = {
    "declared": _DRAW_STAGES, "redeal": _DRAW_STAGES, "trump_set": _DRAW_STAGES, "kitty_taken": _DRAW_STAGES,
    "declaration_stands": _DRAW_STAGES, "card_taken": _DRAW_STAGES, "buried": ("kitty",),
    "handed_over": _DRAW_STAGES, "declaration_barred": _DRAW_STAGES,    # SJ-1.1's hand-over, SJ-1.5's bar
    "burial_undone": _PLAY, "throw_failed": _PLAY, "throw_penalty": _PLAY, "trick_won": _PLAY,
    "kitty_revealed": _PLAY, "deal_end": _PLAY, "play_stands": _PLAY,
}
IRREGULARITY_STAGES = {
    "draw_other_seat_card": _DRAW_STAGES, "banker_drew_kitty": _DRAW_STAGES, "miscount_after_draw": _DRAW_STAGES,
    "simultaneous_declaration": _DRAW_STAGES, "lead_before_burial": ("kitty",), "lead_wrong_bury_count": _PLAY,
    "lead_out_of_turn": ("kitty", "play"), "extra_card": _PLAY, "lead_before_trick_complete": _PLAY,
    "play_before_turn": _PLAY, "show_before_upper": _PLAY, "wrong_follow": _PLAY,
    "wrong_card_count": ("kitty", "play"), "invalid_lead": ("kitty", "play"),
}

IRREGULARITY_WORDS = {
    "draw_other_seat_card": ("a card drawn from another seat's turn", "抓了别人的牌"),
    "banker_drew_kitty": ("the banker drew into the kitty", "庄家抓了底牌"),
    "miscount_after_draw": ("wrong card counts after the draw", "抓牌后张数不符"),
    "simultaneous_declaration": ("two declarations at the same moment", "同时亮主"),
    "exposed_card": ("a card exposed", "亮牌（暴露张）"),
    "extra_card": ("a play with an extra card", "多出牌"),
    "lead_before_burial": ("a lead before the kitty is buried", "抢出（底牌未扣完）"),
    "lead_wrong_bury_count": ("a lead after burying a wrong number of cards", "扣底张数错误后出牌"),
    "lead_out_of_turn": ("a lead out of turn", "抢出"),
    "lead_before_trick_complete": ("a lead before the trick is complete", "抢出（其他三家未出完）"),
    "play_before_turn": ("a play before its turn", "抢跟"),
    "show_before_upper": ("cards shown before the seat before played", "抢跟（上家未出先亮牌）"),
    "wrong_follow": ("a wrong follow (revoke)", "跟错"),
    "incident": ("an incident reported to the referee", "向裁判报告的事件"),
    "wrong_card_count": ("a play of the wrong number of cards", "出牌张数错误"),
    "invalid_lead": ("an invalid lead", "首出不合规则"),
}

INTERACTIONS = Interactions(conditions=CONDITIONS, happenings=HAPPENINGS, happening_of=happening_of,
                            deal_of=_deal_of, phase_of=_phase, irregularities=IRREGULARITY_WORDS,
                            impossible=IMPOSSIBLE, stages=STAGES, condition_stages=CONDITION_STAGES,
                            happening_stages=HAPPENING_STAGES, irregularity_stages=IRREGULARITY_STAGES)
