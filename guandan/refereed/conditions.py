"""掼蛋's table conditions and happenings for interaction coverage (``tabletop.conditions``):
what can be in force at a refereed deal (read from ``deal.table`` and the deal), and which of
its events are happenings: facts only. Which pairs of them the rules rule out, and why, is the
referee's reading (``enforcement.guandan_interactions``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from guandan.events import RoundEnded
from guandan.observation import Phase
from guandan.refereed.state import table_of
from tabletop.conditions import Happening, TableCondition
from tabletop.events import Event

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


def deal_of(engine: Any) -> Any:
    """A match's current deal; a lone deal itself."""
    return getattr(engine, "current_deal", engine)


def _stage(deal: Deal) -> Phase:
    """The phase the deal is in, or resumes in while a ruling is awaited."""
    return table_of(deal).resume_phase if deal.phase is Phase.AWAITING_RULING else deal.phase


def phase_of(deal: Deal) -> str:
    """The stage's name: the phase the deal is in, or resumes in while a ruling is awaited."""
    return _stage(deal).value


def _playing(deal: Deal) -> bool:
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
    TableCondition("forced_place_judged", "a forced last place judged (单下 or 双下)", "已判定名次（末游）",
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
