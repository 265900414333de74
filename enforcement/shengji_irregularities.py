"""双升's irregularities, one record each (``enforcement.irregularities``): the seed's term,
English words, and the stages of a deal the engine can meet it in (a stage is the phase the
deal is in, or resumes in after a ruling; none: any stage)."""

from __future__ import annotations

from enforcement.irregularities import Irregularity, irregularity_table

GAME = "shengji"
_DRAW = ("draw", "declare")
_PLAY = ("play",)


def _record(id: str, zh: str, en: str, stages: tuple[str, ...]) -> Irregularity:
    return Irregularity(id=id, game=GAME, zh=zh, en=en, stages=stages)


IRREGULARITIES = irregularity_table(GAME, (
    _record("draw_other_seat_card", "抓错他家牌", "draws another seat's card", _DRAW),
    _record("banker_drew_kitty", "庄家抓底牌", "the banker draws the kitty", _DRAW),
    _record("miscount_after_draw", "抓牌张数不对", "wrong hand sizes after the draw", _DRAW),
    _record("simultaneous_declaration", "同时亮主", "declarations at once", _DRAW),
    _record("exposed_card", "暴露牌张", "exposes a card", ()),
    _record("extra_card", "带出一张牌", "carries an extra card", _PLAY),
    _record("lead_before_burial", "抢出", "leads before the kitty is buried", ("kitty",)),
    _record("lead_wrong_bury_count", "扣底张数不对", "leads after burying a wrong count", _PLAY),
    _record("lead_out_of_turn", "抢出", "leads when it is not its lead", ("kitty", "play")),
    _record("lead_before_trick_complete", "抢出", "leads before the other three finished the trick", _PLAY),
    _record("play_before_turn", "抢跟", "plays before its turn", _PLAY),
    _record("show_before_upper", "抢跟", "shows its cards before its 上家 played", _PLAY),
    _record("wrong_follow", "跟错", "follows wrongly", _PLAY),
    _record("incident", "报告裁判", "is reported to the referee", ()),
    _record("wrong_card_count", "出牌张数不对", "plays a wrong number of cards", ("kitty", "play")),
    _record("invalid_lead", "首出不合规", "an invalid lead", ("kitty", "play")),
))
"""Every irregularity id refereed 双升 records, in the engine's order."""
