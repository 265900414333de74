"""Issue 28 item 3: the scenario bank every trainee meets is kept in the package (bank.json),
five distinct scenarios per practisable clause, and is exactly what its command makes."""

from __future__ import annotations

from collections import Counter

from paiju.train.generate import clause_kinds, scenario_at
from paiju.train.web.bank import KEPT_SEED, PER_CLAUSE, ScenarioBank, kept_bank, make_bank_data, scenario_digest


def test_the_kept_bank_has_five_distinct_scenarios_for_every_practisable_clause():
    kept = kept_bank()
    assert (kept["seed"], kept["per_clause"]) == (KEPT_SEED, PER_CLAUSE) == (0, 5)
    for game in ("guandan", "shengji"):
        rows = kept["games"][game]
        per_clause = Counter(row["clause"] for row in rows)
        assert set(per_clause) == set(clause_kinds(game)), game
        assert min(per_clause.values()) >= 5, per_clause
        assert len({row["digest"] for row in rows}) == len(rows)          # distinct deals
        assert [row["id"] for row in rows] == [f"{game}-{n}" for n in range(1, len(rows) + 1)]


def test_regenerating_the_bank_gives_the_kept_file():
    """`python -m paiju.train.web.bank` made bank.json: 掼蛋's bank made again is the same, and a
    sample of 双升's kept units played again give the same scenarios (all of 双升 takes ~30 s more)."""
    kept = kept_bank()["games"]
    assert make_bank_data(games=["guandan"])["games"]["guandan"] == kept["guandan"]
    for row in kept["shengji"][::13]:
        scenario = scenario_at("shengji", KEPT_SEED, *row["unit"], row["clause"])
        assert scenario is not None and scenario_digest(scenario) == row["digest"], row


def test_a_server_serves_the_kept_bank(kept_scenarios: ScenarioBank):
    bank = kept_scenarios   # a server's bank: the default seed and per-clause count
    rows = kept_bank()["games"]["guandan"]
    assert bank.ids("guandan") == [row["id"] for row in rows]
    assert all(bank.get(row["id"]).expected.clause == row["clause"] for row in rows[::7])
