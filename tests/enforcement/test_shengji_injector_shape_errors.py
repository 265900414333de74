"""The injector's wrong follows (kinds ``wrong_follow`` and ``revoke``) commit shape errors too:
on a pair or tractor lead, in suit but without the pair the hand holds, heavy or light,
found at once or after the next seat played — so SJ-1.9, SJ-3.1.12.1 and SJ-3.1.12.3 are
reached by the machine, not only suit errors (SJ-1.4, SJ-3.1.12.1/.2). Real deals from
explicit hands (level 2, hearts trump; seat 0 banks): seat 0 leads S6S6, seat 1 holds the
pair S8S8 with SA (heavy), S7 (light) and C4 (another suit)."""

import numpy as np

from enforcement.shengji_infractions import ShengjiInfractions
from shengji.actions import Revoke
from tests.enforcement.shengji_refereed import SjTable, effects, fact, kinds, points

HANDS = ["S6 S6 S9 C3 D3", "SA S7 S8 S8 C4", "SK SQ C6 D4 D6", "S3 S4 C7 D7 DA"]


def _committed(kind, seeds=range(60)):
    """(table after the attempt, the attempt) per seed, seat 1 erring on the S6S6 lead."""
    out = []
    for seed in seeds:
        t = SjTable(HANDS)
        t.play(0, "S6 S6")
        action = ShengjiInfractions().commit(kind, t.deal.observe(1), t.legal(), 1, np.random.default_rng(seed))
        out.append((t, action))
    return out


def _is_shape_error(action):
    return all(str(c)[0] == "S" for c in action.cards)


def test_SJ_1_9_injector_commits_light_shape_errors_found_at_once():
    rulings = {}
    for t, action in _committed("wrong_follow"):
        r = t.ruling(t.do(action))
        rulings.setdefault((r.clause, fact(r, "what")), (t, r, action))
    # suit errors still, and shape errors light (SJ-1.9) and heavy (SJ-3.1.12.1)
    assert {("SJ-1.4", "suit"), ("SJ-1.9", "pair"), ("SJ-3.1.12.1", "pair")} <= set(rulings)
    t, r, action = rulings[("SJ-1.9", "pair")]
    assert _is_shape_error(action) and "SA" not in map(str, action.cards)
    assert (kinds(r), effects(r), fact(r, "heavy")) == (["Warning"], ["Return", "Expose", "CorrectFollow"], ())
    assert t.deal.to_act == 1 and [tuple(map(str, a.cards)) for a in t.legal()] == [("S8", "S8")]
    assert t.exposed(1) == sorted(str(c) for c in action.cards) and t.attackers_delta() == 0
    t, r, action = rulings[("SJ-3.1.12.1", "pair")]
    assert "SA" in map(str, action.cards) and points(r) == 10 and t.attackers_delta() == -10


def test_SJ_3_1_12_3_injector_commits_shape_errors_that_affect_play():
    found = []
    for t, action in _committed("revoke"):
        assert isinstance(action, Revoke)
        if _is_shape_error(action) and action.found == "affecting_play":
            t.do(action)
            found.append((t, t.ruling(t.play(2, "SK SQ")), action))     # the next seat played
    assert found
    for t, r, action in found:
        assert (r.clause, points(r), fact(r, "what"), fact(r, "found")) == ("SJ-3.1.12.3", 10, "pair", "affecting_play")
        assert effects(r) == ["Return", "Expose", "Replay", "CorrectFollow"]
        assert t.deal.to_act == 1 and [tuple(map(str, a.cards)) for a in t.legal()] == [("S8", "S8")]
        assert {"SK", "SQ"} <= set(t.hand(2)) and t.attackers_delta() == -10


def test_revoke_on_the_last_seat_is_found_after_the_trick():
    # the last seat has no next seat in the trick: its unnoticed error comes to light after it
    for seed in range(20):
        t = SjTable(["S6 S6 S9 C3 D3", "S7 S8 C4 D8 D9", "SK SQ C6 D4 D6", "SA S3 S4 S4 C7"])
        t.play(0, "S6 S6")
        t.play(1, "S7 S8")
        t.play(2, "SK SQ")
        action = ShengjiInfractions().commit("revoke", t.deal.observe(3), t.legal(), 3, np.random.default_rng(seed))
        assert action.found == "after_trick"
