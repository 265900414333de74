"""A trainee's ruling that leaves out what puts the table right (SJ-1.3 with no effects on a
miscount after the draw, SJ-1.10 / SJ-3.1.7: the hands keep the wrong size, so the banker
buries the wrong count after every ruling on it, SJ-3.1.10.1) is refused with the reason at
once, in "apply my ruling" and in a live deal, instead of ruling on until the budget ends."""

from __future__ import annotations

import time

from paiju.train.scenarios import Scenario
from paiju.train.web.bank import ScenarioBank
from paiju.train.web.live import LiveSession
from paiju.train.web.ruling import APPLY_SECONDS, TableStuck, TraineeAnswer, apply_trainee_ruling


def _miscount_scenario(bank: ScenarioBank) -> Scenario:
    for sid in bank.for_clause("shengji", "SJ-1.10"):
        scenario = bank.get(sid)
        assert scenario is not None
        if scenario.expected.irregularity == "miscount_after_draw" and "Choice" in scenario.expected.rectification:
            return scenario
    raise AssertionError("the kept bank has no SJ-1.10 miscount scenario")


def test_SJ_1_10_a_miscount_ruled_SJ_1_3_with_no_effects_is_refused_at_once(kept_scenarios: ScenarioBank) -> None:
    scenario = _miscount_scenario(kept_scenarios)
    started = time.monotonic()
    try:
        apply_trainee_ruling(scenario, TraineeAnswer("SJ-1.3"))
    except TableStuck as exc:
        refused = exc
    else:
        raise AssertionError("the ruling was carried out")
    assert time.monotonic() - started < APPLY_SECONDS / 4          # found stuck, not timed out
    assert "leads after burying a wrong count again and again" in str(refused)
    assert "「扣底张数不对」一再出现" in refused.zh and "漏掉了让牌局恢复正常的措施" in refused.zh
    # the rulebook's own ruling (the remedy chosen) plays the deal to its end
    continued = apply_trainee_ruling(scenario, TraineeAnswer("SJ-1.10", ("Choice",)))
    assert any(e.KIND == "sj.scored" for e in continued.log.events)


def test_SJ_1_10_a_live_deal_ruled_SJ_1_3_with_no_effects_stops_with_the_reason() -> None:
    session = LiveSession("shengji", 3, "trainee", infractions={"miscount": 1.0})
    session.start()
    deadline = time.monotonic() + 60
    while not session.done and time.monotonic() < deadline:
        if session.awaiting is not None:
            session.give_answer(TraineeAnswer("SJ-1.3"))
        time.sleep(0.002)
    session.close()
    state = session.state()
    assert state["done"], "the live deal still runs"
    assert session.answered[0].expected_clause in ("SJ-1.10", "SJ-3.1.7")
    assert state["failed"] is not None and "again and again" in state["failed"]
    assert "一再出现" in state["failed_zh"]
    assert [e.KIND for e in session.events].count("ref.ruling") < 20   # stopped, not ruled on and on
