"""The shortcuts refereed play with injected irregularities takes (issue 19) against the
straightforward computations they replace, at every step of real deals: the injector's
``may_interject`` against its kinds, the remembered exposure views of an observation, the
lazy listing of refereed legal plays, the readings-only lead restriction check and the
deal rebuilt from its record."""

from __future__ import annotations

from typing import Any

import pytest

from enforcement.injector import GuandanInfractions
from enforcement.shengji_infractions import ShengjiInfractions
from guandan.movegen import legal_plays
from guandan.observation import UnauthorisedItem
from guandan.refereed import rebuild, restrictions
from paiju.sim.batch import Batch, adapter, play_unit
from tabletop.cards import sort_cards
from tabletop.seats import REFEREE
from tests.enforcement.deal_state import deal_state

CATALOGUES = {"guandan": GuandanInfractions(), "shengji": ShengjiInfractions()}


def _batch(game_name: str, rate: float) -> tuple[Any, Batch, Any]:
    game = adapter(game_name)
    rules = game.rules_from_dict({})
    return game, Batch(game=game.name, unit="deals", count=1000, seed=7, rules=rules.to_dict(),
                       agents=("random",) * 4, options={"referee": True, "infractions": rate}), rules


def _log(game_name: str, index: int, rate: float = 0.2) -> list[str]:
    game, batch, rules = _batch(game_name, rate)
    lines: list[str] = []
    play_unit(game, batch, rules, index, lines)
    return lines


class _Every:
    """Calls ``check(engine)`` after every step of a deal."""

    def __init__(self, check: Any) -> None:
        self.check = check
        self.steps = 0

    def on_events(self, engine: Any, events: list) -> None:
        self.steps += 1
        self.check(engine)


def _play_checked(game_name: str, index: int, check: Any, rate: float = 0.2) -> int:
    game, batch, rules = _batch(game_name, rate)
    watcher = _Every(check)
    play_unit(game, batch, rules, index, None, observers=[watcher])
    return watcher.steps


@pytest.mark.parametrize("game_name", ["guandan", "shengji"])
def test_may_interject_says_whether_there_are_kinds(game_name: str) -> None:
    catalogue = CATALOGUES[game_name]
    seen = {True: 0, False: 0}

    def check(engine: Any) -> None:
        for seat in range(4):
            obs = engine.observe(seat)
            says = catalogue.may_interject(obs, seat)
            assert says == bool(catalogue.out_of_turn(obs, seat))
            seen[says] += 1

    for index in range(3):
        _play_checked(game_name, index, check)
    assert seen[True] and seen[False]   # observations awaiting a ruling came by too


@pytest.mark.parametrize("game_name", ["guandan", "shengji"])
def test_injector_draws_the_same_without_may_interject(game_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [_log(game_name, index) for index in range(3)]
    monkeypatch.delattr(type(CATALOGUES[game_name]), "may_interject")
    slow = [_log(game_name, index) for index in range(3)]
    assert fast == slow
    assert any("irregular" in line for lines in fast for line in lines)


def _exposure_reference(deal: Any, seat: int) -> dict[str, Any]:
    t = deal.table
    exposed: list[list[Any]] = [[], [], [], []]
    penalty: list[list[Any]] = [[], [], [], []]
    for e in t.exposures:
        exposed[e.seat].extend(e.cards)
        if e.penalty:
            penalty[e.seat].extend(e.cards)
    items = [m.item for m in t.unauthorised if m.seat == seat]
    items += [UnauthorisedItem("exposed cards", e.seat, tuple(sort_cards(e.cards)))
              for e in t.exposures if e.seat % 2 == seat % 2]
    return {"exposed": tuple(tuple(sort_cards(x)) for x in exposed),
            "penalty": tuple(tuple(sort_cards(x)) for x in penalty), "unauthorised": tuple(items)}


def test_guandan_observations_legal_plays_and_restrictions_match_the_plain_computations() -> None:
    counted = {"exposures": 0, "restricted": 0, "listed": 0}

    def check(deal: Any) -> None:
        t = deal.table
        for seat in range(4):
            if t.exposures:
                obs = deal.observe(seat)
                want = _exposure_reference(deal, seat)
                assert (obs.exposed, obs.penalty, obs.unauthorised) == (want["exposed"], want["penalty"], want["unauthorised"])
                counted["exposures"] += 1
            r = t.restriction
            if r is not None and r.seat == seat:
                every = legal_plays(deal.hand(seat), None, deal.level, rules=deal.rules)
                plain = restrictions.satisfying(deal, r, every)
                assert (restrictions.restriction_in_force(deal, seat) is None) == (plain is None)
                counted["restricted"] += 1
        seat = deal.to_act
        if deal.phase.name == "PLAY" and seat is not None and seat is not REFEREE and t.oot is None \
                and t.choice is None and t.report_due is None:
            top = deal.top
            lead = top is None or top.seat == seat
            moves = legal_plays(deal.hand(seat), None if lead else top.reading, deal.level, rules=deal.rules)
            if t.exposures or t.restriction is not None:
                if lead:
                    moves = restrictions.lead_filter(deal, seat, moves)
                moves = restrictions.penalty_moves(deal, seat, None if lead else top.reading) or moves
            legal = deal.legal_actions()
            listed = [(a.cards, a.reading) for a in legal if type(a).__name__ == "Play"]
            assert listed == [(m.cards, m.reading) for m in moves]
            counted["listed"] += 1

    for index in range(4):
        _play_checked("guandan", index, check)
    assert all(counted.values()), counted


def test_GD_4_2_2_the_deal_rebuilt_from_its_record_is_the_deal() -> None:
    # the take-back's rebuild (made again, every recorded action re-applied) gives the whole
    # state of the deal, at steps all through real refereed deals
    checked = []

    def check(deal: Any) -> None:
        if deal.table is not None and len(deal.table.record.actions) % 5 == 0 and len(checked) < 30:
            again = rebuild.rebuilt(deal, len(deal.table.record.actions))
            assert deal_state(again) == deal_state(deal)
            checked.append(deal.phase.name)

    for index in range(2):
        _play_checked("guandan", index, check)
    assert len(checked) == 30 and "PLAY" in checked
