"""The referee layer: the rulebook of both games as data, sanctions and table effects, the
sanctions ledger with escalation, and 双升 penalty-card weight."""

from enforcement.ledger import Imposed, Incident, Ledger, adjusted_attacker_points
from enforcement.listing import format_rules_table, rules_table
from enforcement.penalty_cards import heavy_cards, is_heavy
from enforcement.rulebook import (
    FALLBACK, GAMES, RULEBOOK, Clause, Rectification, SanctionRule, Trigger, UnknownClause,
    children, clause, clauses_for, fallback_clause, matching, triggered_by,
)
from enforcement.sanctions import (
    AdjustedScore, BarOnePlay, Choice, CorrectFollow, CorrectPlay, Expose, ForcedDoubleLast,
    ForcedLast, LeadOption, LevelDiffPenalty, LoseDeclarationRight, LotsDraw, MatchLoss,
    NextDealProcedure, NoTributeNextDeal, PenaltyCards, PointPenalty, RandomDraw,
    RecordedViolation, Redeal, RedoBury, RedoReturn, RedoTribute, Replay, ReportAgain,
    RestoreOrder, Return, Sanction, Suspension, TableEffect, UnauthorisedInformation,
    WarningSanction,
)

__all__ = [
    "Imposed", "Incident", "Ledger", "adjusted_attacker_points",
    "format_rules_table", "rules_table",
    "heavy_cards", "is_heavy",
    "FALLBACK", "GAMES", "RULEBOOK", "Clause", "Rectification", "SanctionRule", "Trigger",
    "UnknownClause", "children", "clause", "clauses_for", "fallback_clause", "matching",
    "triggered_by",
    "AdjustedScore", "BarOnePlay", "Choice", "CorrectFollow", "CorrectPlay", "Expose",
    "ForcedDoubleLast", "ForcedLast", "LeadOption", "LevelDiffPenalty", "LoseDeclarationRight",
    "LotsDraw", "MatchLoss", "NextDealProcedure", "NoTributeNextDeal", "PenaltyCards",
    "PointPenalty", "RandomDraw", "RecordedViolation", "Redeal", "RedoBury", "RedoReturn",
    "RedoTribute", "Replay", "ReportAgain", "RestoreOrder", "Return", "Sanction", "Suspension",
    "TableEffect", "UnauthorisedInformation", "WarningSanction",
]
