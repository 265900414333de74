"""shengji.md §7, the match: levels per team, banker rotation, "A must be played", the
stricter must_defend form, the match won by holding at A, the max_deals guard, and one
event stream over all deals."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.agents import RandomAgent
from shengji.events import DealScored, DealStarted, LevelsAdvanced, MatchEnded
from shengji.match import LEVEL_A, Match, promote
from shengji.rules import ShengjiRules
from tabletop.cards import RANKS
from tabletop.rng import AGENT, child_seed, generator
from tabletop.runner import run
from tabletop.seats import next_seat, partner, team


def agents(seed):
    return [RandomAgent(generator(seed, AGENT + s)) for s in range(4)]


def play_match(match, seed):
    events = match.take_events()
    players = agents(seed)
    while match.to_act is not None:
        seat = match.to_act
        events += match.apply(players[seat].act(match.observe(seat), match.legal_actions()))
    return events


L = RANKS.index


def test_promote_climbs_by_the_levels_earned():
    assert promote(L("2"), 3) == L("5")
    assert promote(L("7"), 0) == L("7")


def test_a_must_be_played_promotion_never_skips_past_a():
    assert promote(L("Q"), 3) == L("A")
    assert promote(L("K"), 2) == L("A")
    assert promote(L("A"), 2) == L("A")


def test_must_defend_stops_promotions_at_5_t_k():
    stops = {L("5"), L("T"), L("K"), L("A")}
    assert promote(L("3"), 3, stops) == L("5")
    assert promote(L("8"), 3, stops) == L("T")
    assert promote(L("Q"), 3, stops) == L("K")


def test_must_defend_a_team_on_a_stop_climbs_past_it():
    stops = {L("5"), L("T"), L("K"), L("A")}
    assert promote(L("5"), 2, stops) == L("7")
    assert promote(L("T"), 4, stops) == L("K")


def test_first_deal_at_2_banker_from_the_declaration_then_rotation():
    match = Match(7, rules=ShengjiRules(max_deals=6))
    events = play_match(match, 7)
    starts = [e for e in events if isinstance(e, DealStarted)]
    scored = [e for e in events if isinstance(e, DealScored)]
    advanced = [e for e in events if isinstance(e, LevelsAdvanced)]
    assert starts[0].banker is None and starts[0].level == "2"
    for before, after, result in zip(scored, starts[1:], match.results):
        assert after.banker == before.next_banker
        if result.side == "banker":
            assert after.banker == partner(result.banker)
        else:
            assert after.banker == next_seat(result.banker)
    for start, level_event in zip(starts[1:], advanced):
        # a deal is played at the banker team's level
        assert start.level == level_event.levels[team(start.banker)]


def test_one_event_stream_across_deals():
    match = Match(3, rules=ShengjiRules(max_deals=4))
    events = play_match(match, 3)
    assert [e.seq for e in events] == list(range(len(events)))
    assert sorted({e.deal for e in events}) == [0, 1, 2, 3]
    assert [e.deal for e in events] == sorted(e.deal for e in events)
    shuffles = [e for e in events if e.KIND == "sj.shuffled" and e.attempt == 0]
    assert [s.seed for s in shuffles] == [child_seed(3, n) for n in range(4)]


def test_max_deals_ends_by_levels():
    match = Match(5, rules=ShengjiRules(max_deals=3))
    events = play_match(match, 5)
    end = events[-1]
    assert isinstance(end, MatchEnded) and end.how == "max_deals" and end.deals == 3
    a, b = (L(x) for x in end.levels)
    assert end.winner == (None if a == b else (0 if a > b else 1))
    assert match.result.winner == end.winner and match.to_act is None


def test_match_won_by_holding_as_banker_at_a():
    match = Match(11, levels=("A", "A"), banker=0)
    events = play_match(match, 11)
    r = match.result
    assert r.how == "held_a"
    last = match.results[-1]
    assert last.side == "banker" and last.level == "A" and team(last.banker) == r.winner
    assert isinstance(events[-1], MatchEnded)
    # no earlier deal was held by a banker at A
    for result in match.results[:-1]:
        assert not (result.side == "banker" and result.level == "A")


def test_attackers_at_a_winning_do_not_win_the_match():
    match = Match(2, levels=("A", "A"), banker=1, rules=ShengjiRules(max_deals=40))
    play_match(match, 2)
    for result in match.results[:-1]:
        assert result.side == "attackers"


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), strict=st.booleans())
def test_promotions_stop_at_must_defend_levels(seed, strict):
    must = {"5", "T", "K", "A"} if strict else {"A"}
    match = Match(seed, rules=ShengjiRules(must_defend=frozenset(must), max_deals=60))
    events = play_match(match, seed)
    stops = {L(r) for r in must}
    levels = [0, 0]
    for e in events:
        if isinstance(e, LevelsAdvanced):
            before = levels[e.team]
            after = L(e.levels[e.team])
            assert after - before == e.raised <= e.earned
            assert not any(before < s < after for s in stops)          # never skips a stop
            if e.raised < e.earned and after < LEVEL_A:
                assert after in stops
            levels = [L(e.levels[0]), L(e.levels[1])]
    assert match.result is not None


def test_match_runs_with_the_runner():
    match = Match(1)
    result = run(match, agents(1))
    assert result is match.result and result.how in ("held_a", "max_deals")
    assert result.deals == len(result.results)


def test_first_deal_needs_equal_levels():
    with pytest.raises(ValueError):
        Match(1, levels=("2", "5"))


def test_match_log_round_trip_and_replay(tmp_path):
    from shengji.logged_actions import replay
    from tabletop.log import LogWriter, make_header, read_log

    rules = ShengjiRules(max_deals=5)
    path = tmp_path / "match.jsonl"
    with LogWriter(path, make_header("shengji", 9, rules.to_dict())) as writer:
        run(Match(9, rules), agents(9), [writer])
    log = read_log(path, game="shengji")
    again = replay(Match(log.seed, ShengjiRules.from_dict(log.header["rules"])), log.events)
    assert [e.to_dict() for e in again] == [e.to_dict() for e in log.events]
    assert isinstance(log.events[-1], MatchEnded)
