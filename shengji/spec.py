"""双升's registration (``tabletop.games``): everything the rest of paiju needs to know of it."""

from __future__ import annotations

from typing import Any

from shengji import events
from shengji.agents import HeuristicAgent, RandomAgent
from shengji.deal import Deal
from shengji.match import Match
from shengji.logged_actions import action_from_event
from shengji.rules import ShengjiRules
from tabletop.events import EventStream
from tabletop.games import GameSpec, events_of, register
from tabletop.seats import PARTNERSHIPS
from tabletop.rng import child_seed


def _new_deal(seed: int, index: int, rules: Any, stream: EventStream, **engine: Any) -> Deal:
    """Deal ``index`` of a run: its own seed from the seed tree, its deal number."""
    return Deal(child_seed(seed, index), rules=rules, stream=stream, deal_number=index + 1, **engine)


def _effects() -> tuple[Any, ...]:
    """The table effects only shengji uses (``shengji.refereed.effects``), defined on first use."""
    from shengji.refereed import effects

    return effects.EFFECTS


def _table_view(engine: Any, viewer: int | None = None, number: int | None = None) -> Any:
    """``shengji.view.table_view``, imported at the first view taken: a run that takes none
    (``paiju simulate``) does not load the view."""
    from shengji.view import table_view

    return table_view(engine, viewer, number)


def _new_match(seed: int, index: int, rules: Any, stream: EventStream, **engine: Any) -> Match:
    return Match(child_seed(seed, index), rules, stream=stream, **engine)


SPEC = register(GameSpec(
    name="shengji",
    title="双升 (Shengji)",
    seating=PARTNERSHIPS,
    rules_from_dict=ShengjiRules.from_dict,
    new_deal=_new_deal,
    new_match=_new_match,
    agents={"random": RandomAgent, "heuristic": HeuristicAgent},
    action_from_event=action_from_event,
    events=events_of(events),
    effects=_effects,
    engine_keywords=frozenset({"mode"}),   # no 报牌 step
    table_view=_table_view,
))
