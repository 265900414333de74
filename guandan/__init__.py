"""掼蛋 (Guandan): combinations with the wild card, comparison, move generation, the
physical draw, tribute/return, play, finishing order, levels and the match.

Rules are pure functions over hands of any size (``readings``, ``beats``,
``legal_plays``, ``tribute_choices`` …); ``Deal`` and ``Match`` are thin deterministic
state machines that compose them and emit an event for everything at the table."""

from guandan.actions import GiveTribute, Pass, Play, ReturnCard
from guandan.agents import HeuristicAgent, RandomAgent
from guandan.combos import Kind, Reading, beats, readings
from guandan.deal import Deal, DealResult
from guandan.levels import DealOutcome, TeamLevels, advance, initial_levels, match_score
from guandan.match import DealRecord, Match, MatchResult
from guandan.movegen import Move, is_legal_play, legal_plays, why_illegal_play
from guandan.observation import Observation, Phase
from guandan.ranks import level_index, power_of_card, wild_card
from guandan.logged_actions import action_from_event
from guandan.rules import GuandanRules
from guandan.tribute import TributePlan, level_gain, plan_tribute, return_choices, tribute_choices

__all__ = [
    "GiveTribute", "Pass", "Play", "ReturnCard", "HeuristicAgent", "RandomAgent", "Kind",
    "Reading", "beats", "readings", "Deal", "DealResult", "DealOutcome", "TeamLevels", "advance",
    "initial_levels", "match_score", "DealRecord", "Match", "MatchResult", "Move",
    "is_legal_play", "legal_plays", "why_illegal_play", "Observation", "Phase", "level_index",
    "power_of_card", "wild_card", "action_from_event", "GuandanRules", "TributePlan",
    "level_gain", "plan_tribute", "return_choices", "tribute_choices",
]
