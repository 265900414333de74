"""掼蛋's registration (``tabletop.games``): everything the rest of paiju needs to know of it."""

from __future__ import annotations

from typing import Any

from guandan import events
from guandan.agents import HeuristicAgent, RandomAgent
from guandan.deal import Deal
from guandan.match import Match
from guandan.logged_actions import action_from_event, deal_from_given_hands
from guandan.rules import GuandanRules
from tabletop.events import EventStream
from tabletop.games import GameSpec, events_of, register
from tabletop.seats import PARTNERSHIPS
from tabletop.rng import child_seed


def _new_deal(seed: int, index: int, rules: Any, stream: EventStream, **engine: Any) -> Deal:
    """Deal ``index`` of a run: drawn from the root seed with its deal number (level 2)."""
    return Deal.drawn(seed, "2", deal_number=index + 1, rules=rules, stream=stream, **engine)


def _effects() -> tuple[Any, ...]:
    """The table effects only guandan uses (``guandan.refereed.effects``), defined on first use."""
    from guandan.refereed import effects

    return effects.EFFECTS


def _table_view(engine: Any, viewer: int | None = None, number: int | None = None) -> Any:
    """``guandan.view.table_view``, imported at the first view taken: a run that takes none
    (``paiju simulate``) does not load the view."""
    from guandan.view import table_view

    return table_view(engine, viewer, number)


def _new_match(seed: int, index: int, rules: Any, stream: EventStream, **engine: Any) -> Match:
    return Match(child_seed(seed, index), rules, stream=stream, **engine)


SPEC = register(GameSpec(
    name="guandan",
    title="掼蛋 (Guandan)",
    seating=PARTNERSHIPS,
    rules_from_dict=GuandanRules.from_dict,
    new_deal=_new_deal,
    new_match=_new_match,
    agents={"random": RandomAgent, "heuristic": HeuristicAgent},
    action_from_event=action_from_event,
    events=events_of(events),
    effects=_effects,
    engine_keywords=frozenset({"mode", "report_step"}),
    table_view=_table_view,
    engine_from_log=deal_from_given_hands,
))
