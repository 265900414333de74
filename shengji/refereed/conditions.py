"""双升's table conditions and happenings for interaction coverage (``tabletop.conditions``):
what can be in force at a refereed deal (read from ``deal.table`` and the deal), and which of
its events are happenings: facts only. Which pairs of them the rules rule out, and why, is the
referee's reading (``enforcement.shengji_interactions``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shengji.follow import lead_info
from shengji.phase import Phase
from shengji.refereed.state import table_of
from tabletop.conditions import Happening, TableCondition
from tabletop.events import Event

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


def deal_of(engine: Any) -> Any:
    """A match's current deal; a lone deal itself."""
    return getattr(engine, "deal", engine)


def _stage(deal: Deal) -> Phase:
    """The phase the deal is in, or resumes in while a ruling is awaited."""
    if deal.phase is Phase.AWAITING_RULING:
        resume = table_of(deal).resume_phase
        if resume is not None:
            return resume
    return deal.phase


def phase_of(deal: Deal) -> str:
    """The stage's name: the phase the deal is in, or resumes in while a ruling is awaited."""
    return _stage(deal).value


def _throw_led(deal: Deal) -> bool:
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
