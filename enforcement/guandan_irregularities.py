"""掼蛋's irregularities, one record each (``enforcement.irregularities``): the seed's term
(GD-1 … GD-4; 首出不出 and 被报告的行为 are not in the seed), English words, and the stages
of a deal the engine can meet it in (a stage is the phase the deal is in, or resumes in after
a ruling; the play that ends the deal may be ruled on after the scoring; none: any stage)."""

from __future__ import annotations

from enforcement.irregularities import Irregularity, irregularity_table

GAME = "guandan"
_PLAY_ON = ("play", "scored")


def _record(id: str, zh: str, en: str, stages: tuple[str, ...] = _PLAY_ON, **found: tuple[str, ...]) -> Irregularity:
    return Irregularity(id=id, game=GAME, zh=zh, en=en, stages=stages, found_stages=found)


IRREGULARITIES = irregularity_table(GAME, (
    _record("draw_out_of_turn", "越序抓牌", "draws out of turn", ("draw",)),
    # the table's, not one seat's
    _record("wrong_counts_after_draw", "抓错牌或少牌", "lets the draw end with wrong hand sizes", ("draw",)),
    _record("announce_out_of_turn", "越序表态", "announces 'pass' or 'I beat it' out of turn"),
    _record("play_out_of_turn", "越序出牌", "plays out of turn"),
    _record("wrong_kind", "出错牌型", "plays a wrong combination type"),
    _record("does_not_beat", "牌张大小出错", "plays cards that do not beat"),
    _record("extra_cards", "夹带牌张", "carries extra cards along"),
    _record("retract_play", "收回合法出牌", "takes back a legal play"),
    _record("exposed_card", "暴露张", "exposes a card", ()),
    _record("pass_on_lead", "首出不出", "passes with the lead"),
    # ruled on when it is made, or at the first play that finds it
    _record("wrong_tribute", "贡错牌", "pays a wrong tribute", ("tribute", "play"),
            before_first_play=("tribute",), after_first_play=_PLAY_ON),
    _record("wrong_return", "还错牌", "returns a wrong card", ("return", "play"),
            before_first_play=("return",), after_first_play=_PLAY_ON),
    _record("report_repeated", "反复报牌", "reports again and again"),
    _record("ask_count", "追问余牌", "asks for the cards left"),
    _record("report_missing", "未报牌", "does not report"),
    _record("report_wrong", "报错牌", "reports a wrong count"),
    _record("incident", "被报告的行为", "acts as reported to the referee", ()),
))
"""Every irregularity id refereed 掼蛋 records, in the engine's order."""
