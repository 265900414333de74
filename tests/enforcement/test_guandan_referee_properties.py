"""Properties of the 掼蛋 referee under random infractions (the injector), GD-7 information
flags, unresolved situations, strict mode, and replay of refereed logs."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from enforcement.guandan_irregularities import IRREGULARITIES
from enforcement.injector import GUANDAN_KINDS, GuandanInfractions, Injector
from enforcement.invariants import checker_for
from enforcement.rulebook import clauses_for
from enforcement.setup import engine_mode, engine_options, inject, make_guandan_referee, refereed_run
from guandan.actions import Announce, Incident, Pass, Play
from guandan.agents import HeuristicAgent, RandomAgent
from guandan.deal import Deal
from guandan.match import Match
from guandan.logged_actions import action_from_event
from tabletop import rng as streams
from tabletop.errors import IllegalAction
from tabletop.cards import parse_cards
from tabletop.runner import run, settle

RATES = {kind: 0.05 for kind in GUANDAN_KINDS} | {"draw_slip": 0.3, "draw_out_of_turn": 0.2,
                                                  "wrong_tribute": 0.4, "wrong_return": 0.4}


def agents(seed, kind=RandomAgent):
    return [kind(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]


class Invariants:
    """The shared invariant checker (enforcement.invariants), keeping the log: an observer
    to put after the referee; ``watch`` the players and ``finish`` at the end."""

    def __init__(self):
        self.checker = checker_for("guandan")
        self.events = []

    def on_events(self, engine, events):
        self.events.extend(events)
        self.checker.on_events(engine, events)

    def run(self, engine, players, max_steps):
        result = run(engine, self.checker.watch(engine, players), [self], referee=make_guandan_referee(),
                     max_steps=max_steps)
        self.checker.finish(engine, result)           # not stuck, every irregularity ruled once and in time
        return result


def answered_once(events):
    irregular = [e for e in events if e.KIND == "gd.irregular"]
    answers = Counter(e.answers for e in events if e.KIND in ("ref.ruling", "ref.unresolved"))
    for e in irregular:
        assert answers[e.seq] == 1, f"{e.irregularity} (seq {e.seq}) answered {answers[e.seq]} times"
    assert sum(answers.values()) == len(irregular)
    return irregular


def replay(make_engine, logged):
    """Re-apply the logged actions to a fresh engine with a fresh referee ruling again (as
    `paiju replay --check` does)."""
    engine = make_engine()
    referee = make_guandan_referee()
    out = engine.take_events()
    for event in logged:
        if not event.ACTION or event.KIND.startswith("ref."):
            continue
        produced = engine.apply(action_from_event(event))
        produced.extend(engine.take_events())
        out += produced + settle(engine, referee)
    return out


def refereed_deal(seed, kind=RandomAgent, rates=RATES):
    check = Invariants()
    players = inject(agents(seed, kind), rates, seed, 0)
    result = check.run(Deal.drawn(seed, mode="refereed"), players, max_steps=20_000)
    return result, check


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.02, 0.1, 0.3, "by kind"]), heuristic=st.booleans())
def test_random_infractions_keep_every_invariant_and_replay_exactly(seed, rate, heuristic):
    result, check = refereed_deal(seed, HeuristicAgent if heuristic else RandomAgent,
                                  RATES if rate == "by kind" else rate)
    assert result is not None                         # the deal ends
    answered_once(check.events)                       # one ruling or unresolved per irregularity
    assert replay(lambda: Deal.drawn(seed, mode="refereed"), check.events) == check.events


@pytest.mark.parametrize("seed", range(2))
def test_refereed_matches_with_infractions_end_and_replay_exactly(seed):
    check = Invariants()
    players = inject(agents(seed, HeuristicAgent), 0.05, seed, 0)
    result = check.run(Match(seed, mode="refereed"), players, max_steps=50_000)
    assert result is not None and result.ended in ("pass_a", "deals", "max_deals")
    irregular = answered_once(check.events)
    assert irregular
    assert replay(lambda: Match(seed, mode="refereed"), check.events) == check.events


def test_the_injector_drives_every_irregularity_of_the_catalogue():
    seen = Counter()
    for seed in range(30):
        _, check = refereed_deal(seed, RandomAgent if seed % 2 else HeuristicAgent)
        seen.update(e.irregularity for e in check.events if e.KIND == "gd.irregular")
    check = Invariants()   # a match for tribute and return (seed 9: the injector gets a wrong tribute in)
    players = inject(agents(9, HeuristicAgent), RATES, 9, 0)
    check.run(Match(9, mode="refereed"), players, max_steps=50_000)
    answered_once(check.events)
    seen.update(e.irregularity for e in check.events if e.KIND == "gd.irregular")
    for irregularity in IRREGULARITIES:
        assert seen[irregularity], f"never injected: {irregularity}"


def test_clean_refereed_deals_play_exactly_as_strict_ones():
    for seed in range(6):
        strict = run(Deal.drawn(seed), agents(seed))
        refereed = run(Deal.drawn(seed, mode="refereed"), agents(seed), referee=make_guandan_referee())
        assert refereed == strict


def test_strict_mode_refuses_what_refereed_mode_records():
    deal = Deal.from_hands(["S3 D9", "S6 S7", "H9 C9", "S8 D8"], "2", 0)
    with pytest.raises(IllegalAction):
        deal.apply(Announce(1, "pass"))
    with pytest.raises(IllegalAction):
        deal.apply(Play(2, parse_cards("H9 C9"), "PAIR 9"))


def test_injector_is_seeded_and_leaves_the_agent_alone_at_rate_zero():
    a = [e.to_dict() for e in refereed_deal(3, rates=0.05)[1].events]
    b = [e.to_dict() for e in refereed_deal(3, rates=0.05)[1].events]
    assert a == b
    wrapped = inject(agents(3), 0.0, 3, 0)
    assert all(type(x) is RandomAgent for x in wrapped)
    assert all(type(x) is Injector for x in inject(agents(3), 0.1, 3, 0))


def test_header_options_build_the_referee_and_the_injector():
    assert engine_mode({"referee": True}) == "refereed" and engine_mode({}) == "strict"
    assert engine_mode({"infractions": 0.05}) == "refereed"
    assert engine_options({}) == {"mode": "strict"}
    assert engine_options({"referee": True}) == {"mode": "refereed", "report_step": False}
    assert engine_options({"referee": True, "infractions": 0.05}) == {"mode": "refereed", "report_step": True}
    clean = run(Deal.drawn(4, **engine_options({"referee": True})), agents(4), referee=make_guandan_referee())
    assert clean == run(Deal.drawn(4), agents(4))
    result, referee = refereed_run(Deal.drawn(4, mode="refereed"), agents(4),
                                   {"referee": True, "infractions": 0.05}, 4, 0)
    assert result is not None and (referee.rulings_made or referee.unresolved)


# ---------------------------------------------------------------------------------------------
# GD-7 information


class _NoPeeking:
    """Wraps an observation; reading ``unauthorised`` fails the test."""

    def __init__(self, obs):
        object.__setattr__(self, "_obs", obs)

    def __getattr__(self, name):
        if name == "unauthorised":
            raise AssertionError("a built-in agent read the GD-7 flag")
        return getattr(object.__getattribute__(self, "_obs"), name)


class _Spy:
    def __init__(self, agent):
        self.agent = agent

    def act(self, observation, legal):
        return self.agent.act(_NoPeeking(observation), legal)


def test_GD_7_built_in_agents_never_read_the_information_flag():
    for seed, kind in ((0, HeuristicAgent), (1, RandomAgent), (2, HeuristicAgent)):
        players = [Injector(_Spy(a), streams.generator(seed, 0, streams.INJECTOR + s), 0.08, GuandanInfractions())
                   for s, a in enumerate(agents(seed, kind))]
        check = Invariants()
        check.run(Deal.drawn(seed, mode="refereed"), players, max_steps=20_000)
        assert any(e.KIND == "table.exposed" for e in check.events)


def test_GD_7_exposed_cards_are_unauthorised_information_for_the_offending_side(table):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    from guandan.actions import DropCard
    from tabletop.cards import Card

    t.do(DropCard(2, Card("HK")))
    deal = t.deal
    assert all(deal.observe(s).exposed[2] == (Card("HK"),) for s in range(4))   # seen by all
    assert [f.source for f in deal.observe(0).unauthorised] == [2]             # its side may not use it
    assert [f.source for f in deal.observe(2).unauthorised] == [2]
    assert deal.observe(1).unauthorised == () and deal.observe(3).unauthorised == ()


def test_GD_7_reported_information_incident_flags_the_partner(table, effect_kinds):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    r = t.ruling(t.do(Incident(1, "information", note="a long pause before passing")))
    assert (r.clause, r.offender, r.sanctions) == ("GD-7", 1, ())
    assert effect_kinds(r) == ["UnauthorisedInformation"]
    assert [f.what for f in t.deal.observe(3).unauthorised] == ["incident: a long pause before passing (GD-7)"]


def test_GD_7_information_that_damaged_the_other_side_is_left_to_the_adjusted_score(table):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    out = t.do(Incident(1, "information", damaged=True, note="signalled with the cards"))
    unresolved = t.of("ref.unresolved", out)
    assert len(unresolved) == 1 and unresolved[0].fallback == "GD-2.5"
    assert t.engine.to_act == 0


def test_unresolved_passing_with_the_lead_falls_back_and_the_seat_still_leads(table):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    out = t.do(Pass(0))
    assert not t.of("ref.ruling", out)
    u = t.of("ref.unresolved", out)[0]
    assert u.irregularity == "pass_on_lead" and "AdjustedScore" in u.note
    assert t.referee.ledger.sanctions(kind="AdjustedScore")[0].seat == 0
    assert t.engine.to_act == 0 and not any(type(a) is Pass for a in t.legal())


def test_every_guandan_clause_has_a_named_test():
    import pathlib

    names = []
    for path in pathlib.Path(__file__).parent.glob("test_guandan_referee_*.py"):
        names += [line.split("(")[0][4:] for line in path.read_text(encoding="utf-8").splitlines()
                  if line.startswith("def test_GD_")]
    for c in clauses_for("guandan"):
        if c.heading:
            continue
        prefix = "test_GD_" + c.id[3:].replace(".", "_")
        assert any(n == prefix or n.startswith(prefix + "_") for n in names), f"no named test for {c.id}"
