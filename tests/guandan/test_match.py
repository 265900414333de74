"""§6–§7 The match: deals in sequence, levels, tribute as decisions, the match end, and
the referee's hooks (level penalties, next-deal procedure, forced results)."""

import io


from guandan import events as ev
from guandan.agents import RandomAgent
from guandan.deal import Deal, Phase
from guandan.match import Match
from guandan.rules import GuandanRules
from tabletop import rng as streams
from tabletop.log import LogWriter, make_header
from tabletop.runner import run


def of(events, cls):
    return [e for e in events if type(e) is cls]


def agents(seed):
    return [RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]


def test_first_deal_is_at_two_without_tribute_and_the_face_up_card_picks_the_leader():
    match = Match(12)
    events = match.take_events()
    assert of(events, ev.DealStarted)[0].level == "2"
    face = of(events, ev.CardFacedUp)[0]
    assert match.to_act == face.seat and match.phase is Phase.PLAY
    assert not of(events, ev.TributeDue) and match.current_deal.tribute_plan is None
    assert {e.deal for e in events} == {1}


def test_deal_d_of_a_match_draws_from_the_seed_paths_of_deal_d():
    assert Match(31).take_events() == Deal.drawn(31, deal_number=1).take_events()
    match = Match(31)
    match.take_events()
    deal_2 = [e.deck for e in match.force_result((1, 0, 3, 2)) if type(e) is ev.DeckShuffled]
    alone = Deal.drawn(31, "4", deal_number=2, shuffler=2, previous_order=(1, 0, 3, 2))
    assert deal_2 == [e.deck for e in alone.take_events() if type(e) is ev.DeckShuffled]


def test_next_deal_shuffler_is_the_previous_xiayou_at_the_winners_new_level():
    match = Match(12)
    match.take_events()
    events = match.force_result((1, 0, 3, 2))  # team 1, 1-3: +2; the next deal is drawn at once
    advanced = of(events, ev.LevelsAdvanced)[0]
    assert (advanced.levels, advanced.team, advanced.gain) == (("2", "4"), 1, 2)
    events = events[events.index(advanced) + 1:]
    started = of(events, ev.DealStarted)[0]
    assert (started.deal, started.level, started.shuffler) == (2, "4", 2)
    assert started.cutter == 1 and started.first_drawer == 3
    assert not of(events, ev.CardFacedUp)
    assert match.deal_number == 2 and all(e.deal == 2 for e in events)


def test_tribute_and_return_are_agent_decisions_moving_cards_to_the_right_seats():
    match = Match(12)
    match.take_events()
    match.force_result((1, 0, 3, 2))
    deal = match.current_deal
    assert not deal.tribute_plan.resisted
    assert match.phase is Phase.TRIBUTE and match.to_act == 2  # the 下游 pays the 上游
    before = [list(deal.hand(s)) for s in range(4)]
    given = match.apply(match.legal_actions()[0])
    card = given[0].card
    assert given[0].receiver == 1
    assert match.phase is Phase.RETURN and match.to_act == 1
    returned = match.apply(match.legal_actions()[-1])
    back = of(returned, ev.ReturnGiven)[0]
    assert back.payer == 2 and back.seat == 1
    assert deal.sizes == [27, 27, 27, 27]
    assert card in map(str, before[2]) and card in map(str, deal.hand(1))
    assert back.card in map(str, before[1]) and back.card in map(str, deal.hand(2))
    assert match.phase is Phase.PLAY and match.to_act == 2


def test_cards_conserved_through_tribute_and_return_in_a_match():
    seed = 5
    match = Match(seed, GuandanRules(match_end="deals", match_deals=4))
    players = agents(seed)
    while match.to_act is not None:
        seat = match.to_act
        match.apply(players[seat].act(match.observe(seat), match.legal_actions()))
        assert match.current_deal.card_counts() == [2] * 54
    kinds = [r.tribute for r in match.result.deals]
    assert kinds[0] == "none" and all(k in ("single", "double", "resisted") for k in kinds[1:])


def force_many(match, orders):
    """End each deal at once with the given finishing order (the next is drawn at once)."""
    events = []
    for order in orders:
        events += match.force_result(order)
    return events


TEAM0_12 = (0, 2, 1, 3)
TEAM0_14 = (0, 1, 3, 2)
TEAM1_12 = (1, 3, 0, 2)


def test_match_ends_when_a_side_passes_A():
    match = Match(1)
    force_many(match, [TEAM0_12] * 4)  # 2 → 5 → 8 → J → A
    assert match.levels.levels == (12, 0) and match.result is None
    events = force_many(match, [TEAM0_12])
    result = match.result
    assert match.to_act is None
    assert (result.ended, result.winner, result.levels) == ("pass_a", 0, ("A", "2"))
    assert result.scores == (13, -13)
    assert [d.level for d in result.deals] == ["2", "5", "8", "J", "A"]
    ended = of(events, ev.MatchEnded)[0]
    assert (ended.how, ended.winner, ended.scores) == ("pass_a", 0, (13, -13))


def test_promotion_stops_at_A_and_failed_attempts_reset_to_two_after_three():
    match = Match(1)
    force_many(match, [TEAM0_12] * 3 + [TEAM0_14])  # 2 → 5 → 8 → J → Q
    force_many(match, [TEAM0_12])  # Q + 3 stops at A (deal played at Q: no attempt)
    assert match.levels.levels == (12, 0) and match.result is None
    force_many(match, [TEAM0_14])  # 1-4 at its own A: failed attempt 1
    force_many(match, [TEAM1_12])  # lost the deal at A: failed attempt 2
    assert match.levels.a_failures == (2, 0)
    force_many(match, [TEAM0_14])  # played at team 1's 5: no attempt; team 0 stays at A
    force_many(match, [TEAM0_14])  # third failure → back to 2
    assert match.levels.levels == (0, 3) and match.levels.a_failures == (0, 0)
    assert match.records[-1].outcome.reset


def test_match_ends_after_a_fixed_number_of_deals():
    seed = 2
    match = Match(seed, GuandanRules(match_end="deals", match_deals=3))
    result = run(match, agents(seed))
    assert result.ended == "deals" and len(result.deals) == 3
    assert [d.number for d in result.deals] == [1, 2, 3]
    assert result.scores[0] == -result.scores[1]
    diff = result.scores[0]
    assert result.winner == (None if diff == 0 else (0 if diff > 0 else 1))


def test_max_deals_guard_ends_with_a_result_by_levels():
    match = Match(1, GuandanRules(max_deals=2))
    force_many(match, [TEAM0_14, TEAM1_12])
    result = match.result
    assert (result.ended, result.levels, result.winner) == ("max_deals", ("3", "5"), 1)
    assert result.scores == (-2, 2)
    assert match.to_act is None


def test_a_tie_by_levels_has_no_winner():
    match = Match(1, GuandanRules(max_deals=2))
    force_many(match, [(0, 1, 3, 2), (1, 0, 2, 3)])  # +1 each
    assert match.result.levels == ("3", "3") and match.result.winner is None
    assert match.result.scores == (0, 0)


def test_level_penalties_are_recorded_and_subtracted_from_the_score():
    match = Match(1, GuandanRules(max_deals=1))
    match.take_events()
    events = match.add_level_penalty(0, 2, reason="GD-1.1.3b")
    assert (events[0].team, events[0].levels, events[0].reason) == (0, 2, "GD-1.1.3b")
    match.force_result(TEAM0_12)  # team 0 +3
    result = match.result
    assert result.penalties == (2, 0)
    assert result.scores == (3 - 2, -3)


def test_GD_5_2_next_deal_procedure_after_a_forced_double_last():
    match = Match(1)
    match.take_events()
    match.schedule_next_deal(no_tribute=True, shuffler=2, cutter=3, first_drawer=0, leader=1)
    events = match.force_result(TEAM1_12, reason="GD-5.2")  # team 0 offended: 双下
    started = of(events, ev.DealStarted)[0]
    assert (started.shuffler, started.cutter, started.first_drawer) == (2, 3, 0)
    assert of(events, ev.CardDrawn)[0].seat == 0
    assert of(events, ev.TributeWaived) and not of(events, ev.TributeDue)
    assert (of(events, ev.PlayStarted)[0].seat, of(events, ev.PlayStarted)[0].reason) == (1, "given")
    assert match.to_act == 1 and match.records[-1].forced


def test_GD_5_1_the_seat_judged_last_gives_no_tribute_next_deal():
    match = Match(1)
    match.schedule_next_deal(no_tribute_seats=(3,))
    events = match.force_result((0, 1, 2, 3), reason="GD-5.1")  # seat 3 forced last
    assert of(events, ev.TributeWaived)
    assert match.to_act == 0  # the 上游 leads
    assert of(events, ev.DealStarted)[0].shuffler == 3


def test_forcing_a_result_after_the_deal_ended_rescores_it():
    seed = 4
    match = Match(seed, GuandanRules(max_deals=1))
    run(match, agents(seed))
    assert match.result.ended == "max_deals"
    match.force_result(TEAM1_12, reason="GD-3.1.2")
    assert match.result.deals[-1].finish_order == TEAM1_12
    assert match.result.levels == ("2", "5") and len(match.result.deals) == 1


def test_same_seed_gives_the_same_match_log():
    def log_of(seed):
        buffer = io.StringIO()
        writer = LogWriter(buffer, make_header("guandan", seed, GuandanRules().to_dict()))
        run(Match(seed, GuandanRules(match_end="deals", match_deals=3)), agents(seed), [writer])
        return buffer.getvalue()

    first = log_of(8)
    assert first == log_of(8) and first != log_of(9)
    seqs = [int(line.split('"seq":')[1].split(",")[0]) for line in first.splitlines()[1:]]
    assert seqs == list(range(len(seqs)))  # one stream: gapless over the whole match


def test_match_result_records_each_deal():
    seed = 6
    result = run(Match(seed, GuandanRules(match_end="deals", match_deals=3)), agents(seed))
    for number, record in enumerate(result.deals, start=1):
        assert record.number == number
        assert sorted(record.finish_order) == [0, 1, 2, 3]
        assert record.team == record.finish_order[0] % 2
        assert record.gain in (1, 2, 3)
    assert result.deals[0].level == "2"
    assert result.deals[1].level == "23456789TJQKA"[result.deals[0].gain]
