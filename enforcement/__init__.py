"""The referee layer: the rulebook of both games as data, sanctions and table effects, the
sanctions ledger with escalation, and 双升 penalty-card weight."""

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

# Every name loads on first use: the referee and the 掼蛋 parts import the engines, `paiju
# rules` only needs the rulebook, and a clean refereed run never rules (no rulebook, ledger or
# effects).
_LAZY = {
    **dict.fromkeys(("Imposed", "Incident", "Ledger", "adjusted_attacker_points"), "enforcement.ledger"),
    **dict.fromkeys(("format_rules_table", "rules_table"), "enforcement.listing"),
    **dict.fromkeys(("heavy_cards", "is_heavy"), "enforcement.card_weight"),
    **dict.fromkeys(("FALLBACK", "GAMES", "INCIDENT", "RULEBOOK", "Clause", "Rectification", "SanctionRule", "Trigger",
                     "UnknownClause", "children", "clause", "clauses_by_irregularity", "clauses_for",
                     "fallback_clause", "matching", "triggered_by", "unresolved_irregularities"),
                    "enforcement.rulebook"),
    **dict.fromkeys(("AdjustedScore", "Expose", "ForcedDoubleLast", "ForcedLast", "LevelDiffPenalty", "MatchLoss",
                     "PlayStands", "PointPenalty", "RandomDraw", "RecordedViolation", "Redeal", "Replay",
                     "RestoreOrder", "Return", "Sanction", "Suspension", "TableEffect", "WarningSanction"),
                    "tabletop.effects"),
    "Decision": "enforcement.referee", "Referee": "enforcement.referee", "Ruling": "enforcement.referee",
    "Unresolved": "enforcement.referee", "record_only_fallback": "enforcement.referee",
    "GuandanRulings": "enforcement.guandan_rulings",
    "Injector": "enforcement.injector", "GuandanInfractions": "enforcement.injector",
    "GUANDAN_KINDS": "enforcement.injector", "catalogue_for": "enforcement.injector",
    "make_guandan_referee": "enforcement.setup", "make_referee": "enforcement.setup",
    "inject": "enforcement.setup", "engine_mode": "enforcement.setup", "referee_on": "enforcement.setup",
    "infraction_rates": "enforcement.setup", "refereed_run": "enforcement.setup",
    "engine_options": "enforcement.setup",
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
    "ShengjiRulings": "enforcement.shengji_rulings", "make_shengji_referee": "enforcement.shengji_referee",
    "ShengjiInfractions": "enforcement.shengji_infractions", "SHENGJI_KINDS": "enforcement.shengji_infractions",
    "inject_shengji": "enforcement.shengji_infractions",
}
_LAZY.update(_SHENGJI_LAZY)
__all__ += sorted(_SHENGJI_LAZY)
