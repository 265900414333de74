"""A 双升 match lost by sanction while the deal still awaits a ruling: a human referee
imposes 判负 (MatchLoss, SJ-3.2) with the ruling that gives a player its third 记违例 (here
SJ-1.8 → SJ-2.1); the ruling carries out its table effects, which close the trick and so
bring a revoke of that trick to light; the referee rules on the revoke before the match
ends (every irregularity ruled in time, enforcement.md). The rulebook referee itself never
imposes 判负 (the seed gives it no trigger).

The scenario is the one the refereed state machine (stateful_table.py) found, replayed step by
step on the real engine and referee with the machine's invariants after every step. It is also
played with the process's caches cold and warm: the same events either way."""

from __future__ import annotations

import importlib
import pkgutil
import sys

from shengji import deal as shengji_deal
from tests.conftest import PROJECT_PACKAGES
from tabletop.effects import MatchLoss
from tests.enforcement.shengji_refereed import HumanReferee
from tests.enforcement.test_stateful_shengji import ShengjiTable

SCENARIO = [
    ("setup", dict(match=True, seed=57)),
    ("play_on", dict(count=17, pick=520)),
    ("irregular_out_of_turn", dict(kind=2497, offset=1, seed=18303)),
    ("play_on", dict(count=51, pick=366)),
    ("irregular_out_of_turn", dict(kind=58247, offset=1, seed=566523)),
    ("play_on", dict(count=85, pick=74)),
    ("play_on", dict(count=1, pick=3600)),
    ("irregular_out_of_turn", dict(kind=28704, offset=3, seed=52169)),
    ("irregular_in_turn", dict(kind=1259, seed=0)),
    ("legal_action", dict(pick=545)),
    ("legal_action", dict(pick=838)),
    ("irregular_out_of_turn", dict(kind=1359, offset=1, seed=362)),
    ("play_on", dict(count=31, pick=336)),
    ("play_on", dict(count=133, pick=2755)),
    ("irregular_in_turn", dict(kind=200, seed=1)),
    ("irregular_out_of_turn", dict(kind=1068, offset=2, seed=1678525)),
    ("irregular_in_turn", dict(kind=1208, seed=378)),
    ("irregular_out_of_turn", dict(kind=291, offset=2, seed=1344)),
    ("legal_action", dict(pick=347)),
    ("irregular_in_turn", dict(kind=5688, seed=479001599)),
    ("irregular_out_of_turn", dict(kind=57579, offset=2, seed=146)),
    ("play_on", dict(count=45, pick=2785)),
    ("irregular_out_of_turn", dict(kind=433, offset=3, seed=117333485)),
    ("irregular_in_turn", dict(kind=52357, seed=8)),
    ("irregular_out_of_turn", dict(kind=6504, offset=3, seed=0)),
    ("irregular_out_of_turn", dict(kind=321, offset=2, seed=7788162)),
    ("irregular_in_turn", dict(kind=8049, seed=86400)),
    ("legal_action", dict(pick=215)),
    ("legal_action", dict(pick=1611)),
    ("legal_action", dict(pick=871)),
    ("irregular_in_turn", dict(kind=8131, seed=300)),   # seat 1 revokes; nobody notices yet
    ("irregular_in_turn", dict(kind=212, seed=252)),    # seat 2 follows with an extra card
]


def third_violation_loses(ledger, ruling) -> list[MatchLoss]:
    """The human referee's judgement in this scenario: 判负 with a player's third 记违例."""
    seat = ruling.offender
    if seat is None or ledger.match_loser() is not None:
        return []
    now = sum(1 for row in ruling.sanctions if row.sanction.KIND == "RecordedViolation")
    total = len(ledger.sanctions(seat=seat, kind="RecordedViolation"))
    return [MatchLoss()] if now and total >= 3 else []


def play_scenario() -> ShengjiTable:
    table = ShengjiTable()
    for n, (step, arguments) in enumerate(SCENARIO):
        getattr(table, step)(**arguments)
        if n == 0:
            table.referee = HumanReferee(third_violation_loses)
        table.every_irregularity_answered_before_anyone_acts()   # raises InvariantViolation
    return table


def clear_caches() -> None:
    """The shared contexts, and with them the lead analyses cached on them (shengji.follow)."""
    shengji_deal._CONTEXTS.clear()


def test_SJ_3_2_a_revoke_a_human_referees_match_loss_ruling_brings_to_light_is_ruled_before_the_match_ends():
    clear_caches()
    table = play_scenario()
    events = table.events
    kinds = [type(e).__name__ for e in events]
    loss = next(i for i, e in enumerate(events) if kinds[i] == "RulingEvent"
                and any(row["sanction"]["kind"] == "MatchLoss" for row in e.sanctions))
    found = kinds.index("IrregularityFound", loss)
    assert events[found].irregularity == "wrong_follow" and dict(events[found].facts)["found"] == "after_trick"
    answer = next(i for i in range(found, len(events))
                  if kinds[i] == "RulingEvent" and events[i].answers == events[found].answers)
    assert events[answer].clause == "SJ-3.2"          # a revoke after its trick: tricks stand, 10 points
    assert kinds[-1] == "MatchEnded" and answer < len(events) - 1
    assert events[-1].how == "match_loss" and events[-1].winner == 1 - events[loss].side
    assert table.engine.to_act is None and table.engine.result.how == "match_loss"


def test_the_scenario_plays_the_same_with_cold_and_warm_caches():
    clear_caches()
    cold = play_scenario().events
    ShengjiTable().setup(match=True, seed=58)        # warm the caches with another match too
    warm = play_scenario().events
    assert [e.to_dict() for e in warm] == [e.to_dict() for e in cold]


def test_every_project_module_is_loaded_before_any_test_runs():
    """Hypothesis draws constants from the source of the loaded modules: with all of them
    loaded by tests/conftest.py, what an earlier test imported cannot change the examples."""
    for package in PROJECT_PACKAGES:
        root = importlib.import_module(package)
        for module in pkgutil.walk_packages(root.__path__, package + "."):
            if not module.name.endswith(".__main__"):
                assert module.name in sys.modules, module.name
