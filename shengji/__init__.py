"""双升 (Shengji, two-deck "Tractor"): the draw with trump declaration, the kitty, trumps
and their order, tractors, follow rules, throws, trick winners, points, levels and the
match.

Rules are pure functions over hands of any size (``is_legal_follow``, ``trick_winner``,
``throw_outcome`` …) under a ``Context(level, trump)``; ``Deal`` and ``Match`` are
deterministic state machines over them that emit an event for everything at the table.
``mode="refereed"`` records irregular actions for a referee instead of refusing them
(``shengji.table``; the rulings are ``enforcement.shengji_rulings``)."""

from shengji import events  # registers the sj.* event kinds for log reading
from shengji.actions import (
    Bury, Choices, Choose, Declare, DeclareAtOnce, Draw, DrawKitty, DrawOutOfTurn, DropCard, Incident, NoDeclare,
    Play, PlayWithExtra, Revoke,
)
from shengji.agents import HeuristicAgent, RandomAgent
from shengji.context import Context, card_order, effective_suit, is_trump
from shengji.deal import Deal, DealResult, Phase, TrickRecord, stacked_deck
from shengji.declare import Declaration, declaration_options, flip_kitty
from shengji.follow import (
    count_legal_follows, is_legal_follow, legal_follows, sample_follow, why_illegal_follow,
)
from shengji.match import Match, MatchResult, promote
from shengji.observation import Observation, RefereedObservation
from shengji.logged_actions import action_from_event
from shengji.rules import ShengjiRules
from shengji.scoring import card_points, kitty_multiplier, level_result
from shengji.throws import failed_throw_units, throw_outcome
from shengji.tricks import throw_cover, trick_winner
from shengji.units import Unit, decompose, is_pair, is_tractor, is_valid_lead, shape

__all__ = [
    "events", "Bury", "Choices", "Declare", "NoDeclare", "Play", "HeuristicAgent", "RandomAgent",
    "Choose", "DeclareAtOnce", "Draw", "DrawKitty", "DrawOutOfTurn", "DropCard", "Incident", "PlayWithExtra",
    "Revoke", "RefereedObservation",
    "Context", "card_order", "effective_suit", "is_trump", "Deal", "DealResult", "Phase",
    "TrickRecord", "stacked_deck", "Declaration", "declaration_options", "flip_kitty",
    "count_legal_follows", "is_legal_follow", "legal_follows", "sample_follow",
    "why_illegal_follow", "Match", "MatchResult", "promote", "Observation", "action_from_event",
    "ShengjiRules", "card_points", "kitty_multiplier", "level_result", "failed_throw_units",
    "throw_outcome", "throw_cover", "trick_winner", "Unit", "decompose", "is_pair", "is_tractor",
    "is_valid_lead", "shape",
]
