"""The referee layer: the rulebook of both games as data, sanctions and table effects, the
sanctions ledger with escalation, and 双升 penalty-card weight."""

from enforcement.ledger import Imposed, Incident, Ledger, adjusted_attacker_points
from enforcement.listing import format_rules_table, rules_table
from enforcement.card_weight import heavy_cards, is_heavy
from enforcement.rulebook import (
    FALLBACK, GAMES, INCIDENT, RULEBOOK, Clause, Rectification, SanctionRule, Trigger, UnknownClause,
    children, clause, clauses_by_irregularity, clauses_for, fallback_clause, matching, triggered_by,
    unresolved_irregularities,
)
from tabletop.effects import (
    AdjustedScore, Expose, ForcedDoubleLast, ForcedLast, LevelDiffPenalty, MatchLoss, PlayStands, PointPenalty,
    RandomDraw, RecordedViolation, Redeal, Replay, RestoreOrder, Return, Sanction, Suspension, TableEffect,
    WarningSanction,
)

__all__ = [
    "Imposed", "Incident", "Ledger", "adjusted_attacker_points",
    "format_rules_table", "rules_table",
    "heavy_cards", "is_heavy",
    "FALLBACK", "GAMES", "RULEBOOK", "Clause", "Rectification", "SanctionRule", "Trigger",
    "UnknownClause", "children", "clause", "clauses_for", "fallback_clause", "matching",
    "triggered_by", "INCIDENT", "clauses_by_irregularity", "unresolved_irregularities",
    "AdjustedScore", "Expose", "ForcedDoubleLast", "ForcedLast", "LevelDiffPenalty", "MatchLoss", "PlayStands",
    "PointPenalty", "RandomDraw", "RecordedViolation", "Redeal", "Replay", "RestoreOrder", "Return", "Sanction",
    "Suspension", "TableEffect", "WarningSanction",
]

# The referee itself and the 掼蛋 parts load on first use (they import the engines; `paiju
# rules` only needs the rulebook).
_LAZY = {
    "Decision": "enforcement.referee", "Referee": "enforcement.referee", "Ruling": "enforcement.referee",
    "Unresolved": "enforcement.referee", "record_only_fallback": "enforcement.referee",
    "GuandanRulings": "enforcement.guandan_rulings",
    "Injector": "enforcement.injector", "GuandanInfractions": "enforcement.injector",
    "GUANDAN_KINDS": "enforcement.injector", "catalogue_for": "enforcement.injector",
    "make_guandan_referee": "enforcement.setup", "make_referee": "enforcement.setup",
    "inject": "enforcement.setup", "engine_mode": "enforcement.setup", "referee_on": "enforcement.setup",
    "infraction_rates": "enforcement.setup", "refereed_run": "enforcement.setup",
    "engine_options": "enforcement.setup", "answer": "enforcement.setup",
    # the table effects only one game uses live in its package
    **dict.fromkeys(("PenaltyCards", "BarOnePlay", "LeadOption", "NextDealProcedure", "NoTributeNextDeal", "CorrectPlay",
                     "RedoTribute", "RedoReturn", "ReportAgain", "PassSequence", "UnauthorisedInformation"),
                    "guandan.refereed.effects"),
    **dict.fromkeys(("CorrectFollow", "RedoBury", "LotsDraw", "DeclarationStands", "LoseDeclarationRight", "Choice"),
                    "shengji.refereed.effects"),
}
__all__ += sorted(_LAZY)


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'enforcement' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


# ---------------------------------------------------------------------------------------------
# 双升 referee (sj-referee's block): its rulings, factory and infraction catalogue, loaded on
# first use like the 掼蛋 parts.
_SHENGJI_LAZY = {
    "ShengjiRulings": "enforcement.shengji_rulings", "make_shengji_referee": "enforcement.shengji_rulings",
    "ShengjiInfractions": "enforcement.shengji_infractions", "SHENGJI_KINDS": "enforcement.shengji_infractions",
    "inject_shengji": "enforcement.shengji_infractions",
}
_LAZY.update(_SHENGJI_LAZY)
__all__ += sorted(_SHENGJI_LAZY)
