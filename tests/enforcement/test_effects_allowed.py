"""Every ruling's table effects are kinds its clause allows: each rulebook entry lists the
effect kinds its rulings may list (``Clause.rectification.effects``), checked here on refereed
fuzz cases of both games and, after every ruling, by the ``effects_allowed_by_clause``
invariant (enforcement.invariants)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from enforcement.invariants import INVARIANTS, InvariantViolation, checker_for
from enforcement.rulebook import RULEBOOK, clause
from tabletop.games import table_effect_kinds
from paiju.fuzz.case import draw_case, run_case

CASES = 24


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_every_rulings_effect_kinds_are_ones_its_clause_lists(game):
    rulings = 0
    for index in range(CASES):
        outcome = run_case(draw_case(game, "deals", 12, index))
        assert outcome.finding is None, str(outcome.finding)
        for e in outcome.events:
            if e.KIND != "ref.ruling":
                continue
            rulings += 1
            listed = {row["kind"] for row in e.rectification}
            assert listed <= clause(e.clause).allowed_effects, (e.clause, sorted(listed))
    assert rulings > CASES                 # the injector makes the referee work


def test_every_clause_lists_known_effect_kinds():
    known = set(table_effect_kinds())
    for c in RULEBOOK.values():
        assert c.allowed_effects <= known, c.id
    assert clause("GD-2.3.1").allowed_effects >= {"Return", "RestoreOrder", "BarOnePlay", "Expose", "LeadOption"}
    assert clause("GD-2.3.2").allowed_effects == frozenset({"PlayStands"})   # both plays stand as made


def test_the_invariant_refuses_an_effect_the_clause_does_not_list():
    assert "effects_allowed_by_clause" in INVARIANTS
    checker = checker_for("guandan")
    ruling = SimpleNamespace(KIND="ref.ruling", clause="GD-2.2.1", sanctions=(), offender=1, side=1,
                             rectification=({"kind": "BarOnePlay", "seat": 1, "scope": "round"},), deal=1, seq=9)
    checker._cites(ruling)                 # allowed: nothing to say
    ruling.rectification += ({"kind": "Redeal", "fresh_deck": False},)
    with pytest.raises(InvariantViolation) as caught:
        checker._cites(ruling)
    assert caught.value.invariant == "effects_allowed_by_clause" and "Redeal" in str(caught.value)
