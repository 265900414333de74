"""The RL environments (paiju.envs): the PettingZoo and Gymnasium checkers, the action codec
and mask against the engines' legal actions on random states (strict and refereed), the
observation decoded back into the engine's view, rewards, seeds, a plug-in agent."""

from __future__ import annotations

import importlib.util
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import paiju.envs  # noqa: F401  (registers the Gymnasium ids)
from paiju.envs import guandan_spaces as gs
from paiju.envs import guandan_v0, shengji_v0
from paiju.envs import shengji_spaces as ss
from shengji.actions import Bury, Play as SjPlay
from shengji.follow import legal_follows
from tabletop.errors import OptionError

MODULES = {"guandan": guandan_v0, "shengji": shengji_v0}
REFEREED = {"referee": True, "bots": {1: "random", 3: "random"}, "infractions": 0.3}
"""Two agents (seats 0 and 2) at a refereed table where the bots commit irregularities:
the agents meet the referee's choices, exposed and penalty cards, bars, restrictions."""


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[int(rng.random() * len(legal))])


def _walk(env, seed: int, steps: int, check) -> None:
    """Random masked play from ``reset(seed)``; ``check(env, agent)`` at every decision."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.unwrapped.engine.result is not None:   # over (or decided in the draw)
            env.reset()
            continue
        check(env, agent)
        env.step(_pick(env.observe(agent)["action_mask"], rng))


# ---------------------------------------------------------------------------------------------
# The checkers


@pytest.mark.parametrize("game", sorted(MODULES))
@pytest.mark.parametrize("options", [{}, {"referee": True}, {"episode": "match"},
                                     {"normalize": True, "skip_forced": True, "action_features": True}],
                         ids=["deal", "refereed", "match", "options"])
def test_pettingzoo_api_and_seed_tests_pass(game, options):
    module = MODULES[game]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the classic games' dict observations warn the same way
        api_test(module.env(**options), num_cycles=200)
        seed_test(lambda: module.env(**options), num_cycles=100)


@pytest.mark.parametrize("env_id", ["paiju/Guandan-v0", "paiju/Shengji-v0"])
def test_gymnasium_single_agent_env_passes_check_env(env_id):
    env = gymnasium.make(env_id, opponents="heuristic", seat=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
        check_env(gymnasium.make(env_id, normalize=True, skip_forced=True, infractions=0.2).unwrapped)
    obs, _info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    total, terminated = 0.0, False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(_pick(obs["action_mask"], rng))
        total += reward
    result = info["result"]
    levels = result.levels
    assert total == (levels if result.team == 1 % 2 else -levels)   # seat 1's side


def test_gymnasium_unmasked_action_ends_the_episode_with_the_illegal_reward():
    env = gymnasium.make("paiju/Guandan-v0", opponents="random", illegal_reward=-5)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _obs, reward, terminated, _trunc, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"], info["result"]) == (-5.0, True, True, None)


@pytest.mark.parametrize("game", sorted(MODULES))
def test_the_mask_an_agent_gets_cannot_be_widened(game):
    """step checks an action against the decision's mask, so the agent gets it read-only."""
    env = MODULES[game].env()
    env.reset(seed=3)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="read-only"):
        mask[illegal] = 1
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


def test_a_bot_choosing_an_illegal_action_in_strict_play_is_named():
    from tabletop.errors import IllegalAction

    class Cheat:
        def act(self, observation, legal_actions):
            from guandan.actions import Pass
            return Pass(observation.seat)   # passing on the lead

    env = guandan_v0.env(bots={1: Cheat(), 2: Cheat(), 3: Cheat()})
    with pytest.raises(IllegalAction, match=r"seat \d's agent \(Cheat\) chose Pass"):
        for _ in range(200):
            env.reset(seed=_)
            if env.agent_selection == "player_0":
                obs = env.observe("player_0")
                env.step(int(np.flatnonzero(obs["action_mask"])[-1]))


def test_bad_options_are_one_line_errors():
    with pytest.raises(OptionError, match="episode must be one of"):
        guandan_v0.env(episode="rubber")
    with pytest.raises(OptionError, match="unknown agent 'genius'"):
        gymnasium.make("paiju/Shengji-v0", opponents="genius").reset(seed=0)
    with pytest.raises(OptionError, match="infractions are committed by bots"):
        shengji_v0.env(infractions=0.1)
    with pytest.raises(OptionError, match="starts at level 2"):
        guandan_v0.env(episode="match", level="5")
    with pytest.raises(OptionError, match="unknown infraction kind"):
        guandan_v0.env(bots={1: "random"}, infractions={"teleport": 0.5})


# ---------------------------------------------------------------------------------------------
# 掼蛋: the codec and the mask are the legal actions, both ways


def _check_guandan_codec(env, agent) -> None:
    table = env.unwrapped
    legal = list(table.engine.legal_actions())
    view = table.engine.observe(table.engine.to_act)
    mask = env.observe(agent)["action_mask"]
    ids = [gs.encode(a, view.level) for a in legal]
    assert len(set(ids)) == len(legal) == int(mask.sum())          # one id per legal action
    assert all(mask[i] for i in ids)                                 # the mask is exactly those ids
    decision = table._current_decision()
    for action, action_id in zip(legal, ids):
        assert decision.choose(action_id) == action                  # id → the same action
        gs.describe(action_id)


@settings(max_examples=8)
@given(seed=st.integers(0, 10_000), refereed=st.booleans())
def test_guandan_mask_equals_the_legal_actions_on_random_states(seed, refereed):
    env = guandan_v0.env(**(REFEREED if refereed else {}))
    _walk(env, seed, 150, _check_guandan_codec)


def test_guandan_action_features_are_the_legal_plays_cards():
    env = guandan_v0.env(action_features=True)
    env.reset(seed=2)
    agent = env.agent_selection
    ids, features = env.unwrapped.legal_action_features(agent)
    info = env.infos[agent]
    assert np.array_equal(info["action_ids"], ids) and np.array_equal(info["action_features"], features)
    assert sorted(ids.tolist()) == np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
    for action_id, row in zip(ids, features):
        action = env.unwrapped.decode_action(int(action_id))
        assert row[:54].sum() == len(getattr(action, "cards", ()))
        for card in getattr(action, "cards", ()):
            assert row[card] == action.cards.count(card)


# ---------------------------------------------------------------------------------------------
# 双升: single steps and card-by-card composition


def _compose(decision, cards, lead: bool) -> object:
    """Feed a play's ids through a fresh copy of the decision, checking the mask at each."""
    last = None
    for action_id in ss.encode_play(SjPlay(decision.seat, cards), lead):
        assert decision.mask[action_id], f"{ss.describe(action_id)} masked while composing {cards}"
        last = decision.choose(action_id)
    return last


def _check_shengji_codec(env, agent) -> None:
    table = env.unwrapped
    engine = table.engine
    seat = engine.to_act
    view = engine.observe(seat)
    decision = table._current_decision()
    mask = env.observe(agent)["action_mask"]
    assert np.array_equal(mask, decision.mask)
    if decision.mode is None:                      # declarations, the referee's choices: listed
        legal = list(engine.legal_actions())
        ids = [ss.encode(a)[0] for a in legal]
        assert len(set(ids)) == len(legal) == int(mask.sum())
        assert all(decision.choose(i) == a for a, i in zip(legal, ids))
        return
    rng = np.random.default_rng(int(mask.sum()))
    fresh = ss.Decision(engine, seat, view, table.tracker)   # a random path through the mask
    action = None
    while action is None:
        action = fresh.choose(_pick(fresh.mask, rng))
    assert engine.why_illegal(action) is None, (action, engine.why_illegal(action))
    if decision.mode == "follow":                  # every legal follow can be composed
        follows = legal_follows(view.hand, view.trick[0][1], view.context)
        for cards in follows[:30]:
            made = _compose(ss.Decision(engine, seat, view, table.tracker), cards, lead=False)
            assert made == SjPlay(seat, cards)
    elif decision.mode == "lead":
        cards = view.hand[:1]
        assert _compose(ss.Decision(engine, seat, view, table.tracker), cards, lead=True) == SjPlay(seat, cards)
    else:
        assert isinstance(action, Bury) and len(action.cards) == len(engine.legal_actions()[0].cards)


@settings(max_examples=8)
@given(seed=st.integers(0, 10_000), refereed=st.booleans())
def test_shengji_mask_allows_exactly_the_legal_completions_on_random_states(seed, refereed):
    env = shengji_v0.env(**(REFEREED if refereed else {}))
    _walk(env, seed, 250, _check_shengji_codec)


def test_shengji_follow_masks_follow_suit_and_the_pair():
    from shengji.deal import Deal

    hands = ["S9 S9 S5 H3", "SK SK C3 D3", "SA SQ C6 D4", "S3 S4 C7 D7"]
    deal = Deal.from_hands(hands, "2", "H", 1)
    tracker = ss.Tracker(deal)

    def masked(seat: int) -> list[str]:
        decision = ss.Decision(deal, seat, deal.observe(seat), tracker)
        assert decision.mode == "follow" and decision.need == 2
        return [ss.describe(i) for i in np.flatnonzero(decision.mask)]

    deal.apply(SjPlay(1, "SK SK"))
    assert masked(2) == ["CARD SQ", "CARD SA"]          # two spades: both must go
    deal.apply(SjPlay(2, "SA SQ"))
    deal.apply(SjPlay(3, "S3 S4"))
    assert masked(0) == ["CARD S9"]                      # a pair led: the pair held
    void = Deal.from_hands(hands, "2", "H", 2)
    void.apply(SjPlay(2, "C6"))
    void.apply(SjPlay(3, "C7"))
    decision = ss.Decision(void, 0, void.observe(0), tracker)   # no club: any card
    assert [ss.describe(i) for i in np.flatnonzero(decision.mask)] == ["CARD S5", "CARD S9", "CARD H3"]


# ---------------------------------------------------------------------------------------------
# Observations decode back into the engine's view


def _check_guandan_view(env, agent) -> None:
    table = env.unwrapped
    seat = table._seat_of[agent]
    view = table.engine.observe(seat)
    obs = env.observe(agent)
    assert env.observation_space(agent).contains(obs)
    got = gs.decode_observation(obs["observation"])
    top = view.top
    assert got["hand"] == view.hand and got["level"] == view.level and got["phase"] == view.phase
    assert got["played"] == tuple(tuple(sorted(p, key=lambda c: (c.rank_index, c.suit_index))) for p in view.played)
    assert (got["top_reading"], got["top_seat"]) == ((top.reading.code, top.seat) if top else (None, None))
    assert got["top_cards"] == (tuple(sorted(top.cards, key=lambda c: (c.rank_index, c.suit_index))) if top else ())
    assert got["announced"] == view.announced and got["finish_order"] == view.finish_order
    assert (got["to_act"], got["leader"], got["passed"]) == (view.to_act, view.leader, tuple(sorted(view.passed)))
    assert got["exposed"] == view.exposed and got["penalty"] == view.penalty
    assert got["barred"] == tuple(sorted(view.barred)) and got["placed_last"] == tuple(sorted(view.placed_last))
    assert got["situation"] == view.situation and got["stock_left"] == view.stock_left
    assert got["choice_purpose"] == (view.choice[0] if view.choice else None)
    assert got["restriction"] == view.restriction or (view.restriction and view.restriction[0] == "cards")


def _check_shengji_view(env, agent) -> None:
    table = env.unwrapped
    seat = table._seat_of[agent]
    view = table.engine.observe(seat)
    obs = env.observe(agent)
    assert env.observation_space(agent).contains(obs)
    got = ss.decode_observation(obs["observation"])
    canon = lambda cards: tuple(sorted(cards, key=lambda c: (c.rank_index, c.suit_index)))  # noqa: E731
    assert got["hand"] == view.hand and got["level"] == view.level and got["phase"] == view.phase
    assert got["trick"] == tuple(sorted((s, canon(c)) for s, c in view.trick))
    assert got["last_trick"] == tuple(sorted((s, canon(c)) for s, c in view.last_trick))
    assert got["kitty"] == canon(view.kitty or ())
    assert got["declaration"] == (canon(view.declaration.cards) if view.declaration else ())
    assert (got["trump_known"], got["trump"]) == (view.trump_known, view.trump if view.trump_known else None)
    for name in ("banker", "to_act", "leader", "last_trick_winner", "trick_number", "attackers_points",
                 "banker_points", "hand_sizes", "stock_left", "situation"):
        assert got[name] == getattr(view, name), name
    assert got["exposed"] == tuple(canon(c) for c in view.exposed)
    assert got["declare_barred"] == tuple(sorted(view.declare_barred))


@pytest.mark.parametrize("game,check", [("guandan", _check_guandan_view), ("shengji", _check_shengji_view)])
@pytest.mark.parametrize("refereed", [False, True])
def test_observation_decodes_into_the_engines_view(game, check, refereed):
    _walk(MODULES[game].env(**(REFEREED if refereed else {})), 7, 300, check)



@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), refereed=st.booleans(), episode=st.sampled_from(["deal", "match"]),
       looks=st.floats(0.1, 1.0))
def test_guandan_observation_kept_in_place_equals_one_built_afresh(seed, refereed, episode, looks):
    """The env updates each seat's observation in place (only what changed since that seat
    last looked); it must equal ``encode_observation`` of the same view with a fresh
    tracker, whichever seats look and however many steps they skip."""
    env = guandan_v0.env(episode=episode, **(REFEREED if refereed else {}))
    table = env.unwrapped
    rng = np.random.default_rng(seed)

    def check(env, acting):
        for agent in env.agents:
            if agent == acting or rng.random() < looks:
                seat = table._seat_of[agent]
                fresh = gs.encode_observation(table.engine.observe(seat), seat, gs.Tracker(table.engine))
                kept = env.observe(agent)["observation"]
                assert np.array_equal(kept, fresh), agent
                kept[:] = -1   # what an agent does to its copy does not reach the env
    _walk(env, seed, 250, check)

@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), episode=st.sampled_from(["deal", "match"]))
def test_guandan_views_filled_at_once_hold_exactly_the_observation_fields(seed, episode):
    """The engine's views are filled by setting their fields at once (no keyword check):
    at a refereed table with irregularities, each view the env reads holds every field of
    ``Observation`` and nothing else, and equals the same view built through ``__init__``."""
    import attrs

    from guandan.observation import Observation

    names = {field.name for field in attrs.fields(Observation)}
    env = guandan_v0.env(episode=episode, **REFEREED)
    table = env.unwrapped

    def check(env, acting):
        view = table.engine.observe(table._seat_of[acting])
        assert view.seat == table._seat_of[acting]   # filled now
        assert set(vars(view)) == names
        assert Observation(**vars(view)) == view
    _walk(env, seed, 200, check)


def _shengji_mask_by_arrays(decision) -> np.ndarray:
    """A composing 双升 decision's mask as the env first computed it, from its hand and the
    cards selected so far, with whole-array numpy operations."""
    mask = np.zeros(ss.N_ACTIONS, np.int8)
    left = decision.hand - decision.selected
    if decision.mode == "bury":
        mask[:54] = left > 0
    elif decision.mode == "lead":
        suit_of = np.array(decision.ctx.suit_of)
        if decision.count:
            mask[:54] = (left > 0) & (suit_of == suit_of[int(np.flatnonzero(decision.selected)[0])])
            mask[ss.DONE] = 1
        else:
            mask[:54] = left > 0
    elif decision.strict:
        rows = decision.follows[(decision.follows >= decision.selected).all(axis=1)]
        mask[:54] = (rows > decision.selected).any(axis=0)
    else:
        allowed = (left > 0) & decision.in_suit
        if decision.free and int(decision.selected[~decision.in_suit].sum()) < decision.free:
            allowed |= (left > 0) & ~decision.in_suit
        mask[:54] = allowed
    return mask


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), refereed=st.booleans())
def test_shengji_composition_masks_equal_the_whole_array_ones(seed, refereed):
    """At every card-by-card step of random deals, the mask equals the one computed from
    the hand and the selection with whole-array operations."""
    env = shengji_v0.env(**(REFEREED if refereed else {}))

    def check(env, agent):
        decision = env.unwrapped._current_decision()
        if decision.mode is not None:
            assert np.array_equal(env.observe(agent)["action_mask"], _shengji_mask_by_arrays(decision))
    _walk(env, seed, 400, check)


def _shengji_counted(view, me: int, tracker, decision) -> np.ndarray:
    """The 双升 observation as the env first wrote it: every card field's cards counted at
    once by one ``bincount``, the played rows rotated by fancy indexing, the status fields
    through numpy. The env's item-by-item encoding must equal it exactly."""
    o = ss._O
    composing = decision is not None and decision.mode is not None
    idx = [o["hand"] + c for c in view.hand]
    for name, plays in (("trick", view.trick), ("last_trick", view.last_trick)):
        for seat, cards in plays:
            idx += [o[name] + ss.CARD_KINDS * ((seat - me) % 4) + c for c in cards]
    idx += [o["kitty"] + c for c in view.kitty or ()]
    declaration = view.declaration
    idx += [o["declaration"] + c for c in (declaration.cards if declaration is not None else ())]
    for seat in range(4):
        idx += [o["exposed"] + ss.CARD_KINDS * ((seat - me) % 4) + c for c in view.exposed[seat]]
    for seat, cards in view.on_table:
        idx += [o["on_table"] + ss.CARD_KINDS * ((seat - me) % 4) + c for c in cards]
    out = np.bincount(idx, minlength=ss.SIZE).astype(np.int16)
    if composing:
        out[o["selected"]:o["selected"] + ss.CARD_KINDS] = decision.selected
    out[o["played"]:o["played"] + 4 * ss.CARD_KINDS] = tracker.played[[(me + r) % 4 for r in range(4)]].ravel()

    def rel(seat):
        return 0 if seat is None else (seat - me) % 4 + 1

    ranks = "23456789TJQKA"
    sizes, barred = [0] * 4, [0] * 4
    for seat, n in enumerate(view.hand_sizes):
        sizes[(seat - me) % 4] = n
    for seat in view.declare_barred:
        barred[(seat - me) % 4] = 1
    trump = 0 if not view.trump_known else (5 if view.trump is None else 1 + "SHCD".index(view.trump))
    out[ss.O_STATUS:] = [
        ss.PHASES.index(view.phase), ranks.index(view.level), ranks.index(view.levels[me % 2]),
        ranks.index(view.levels[1 - me % 2]), me, trump, rel(view.banker),
        rel(declaration.seat if declaration is not None else None), rel(view.to_act), rel(view.leader),
        rel(view.last_trick_winner), view.trick_number, view.attackers_points, view.banker_points,
        sum(delta for _reason, delta in view.adjustments), *sizes, view.stock_left,
        ss.MODES.index(decision.mode) if composing else 0, decision.need if composing else 0,
        ss.SITUATIONS.index(view.situation),
        ss.CHOICE_PURPOSES.index(view.choice[0]) if view.choice is not None else 0, *barred]
    return out


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), refereed=st.booleans(), episode=st.sampled_from(["deal", "match"]),
       looks=st.floats(0.1, 1.0))
def test_shengji_observation_equals_the_cards_counted_at_once(seed, refereed, episode, looks):
    """The 双升 env writes its observation card by card into a fresh buffer; on random
    deals (refereed ones too: exposed cards, cards on the table, choices) it equals the
    fields counted at once, for the acting agent (composing a play or not) and the others."""
    env = shengji_v0.env(episode=episode, **(REFEREED if refereed else {}))
    table = env.unwrapped
    rng = np.random.default_rng(seed)

    def check(env, acting):
        for agent in env.agents:
            if agent == acting or rng.random() < looks:
                seat = table._seat_of[agent]
                decision = table._current_decision() if agent == acting else None
                want = _shengji_counted(table.engine.observe(seat), seat, table.tracker, decision)
                got = env.observe(agent)["observation"]
                assert np.array_equal(got, want), agent
                got[:] = -1   # what an agent does to its copy does not reach the env
    _walk(env, seed, 300, check)


def test_shengji_played_memory_is_every_closed_trick():
    env = shengji_v0.env()
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    closed: list = []
    while not env.terminations[env.agent_selection]:
        before = env.unwrapped.engine.observe(0).trick_number
        env.step(_pick(env.observe(env.agent_selection)["action_mask"], rng))
        view = env.unwrapped.engine.observe(0)
        if view.trick_number > before:
            closed.extend(view.last_trick)
    memory = env.unwrapped.tracker.played
    for seat in range(4):
        counts = np.zeros(54, np.int16)
        for s, cards in closed:
            if s == seat:
                for c in cards:
                    counts[c] += 1
        assert np.array_equal(memory[seat], counts)


# ---------------------------------------------------------------------------------------------
# Rewards, seeds, plug-in agents


def _rollout(env, seed: int) -> tuple[dict, list]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict = {}
    trace = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            env.step(None)
            continue
        action = _pick(obs["action_mask"], rng)
        trace.append((agent, action, obs["observation"].tobytes()))
        env.step(action)
    return totals, trace


@pytest.mark.parametrize("game", sorted(MODULES))
def test_the_referee_seat_is_filled_inside_the_env(game):
    """A ruling is awaited (to_act is the referee's seat) only inside a step: the env asks
    the rulebook referee and applies its ruling before any agent acts again."""
    from tabletop.seats import REFEREE

    env = MODULES[game].env(**REFEREED)
    table = env.unwrapped
    seen_referee = []
    original = table._apply

    def watched(action):
        seen_referee.append(table.engine.to_act is REFEREE)
        original(action)

    table._apply = watched
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert table.engine.to_act == table._seat_of[agent]
        env.step(_pick(obs["action_mask"], rng))
    answers = len(table.referee.rulings_made) + len(table.referee.unresolved)
    assert any(seen_referee) and answers == sum(seen_referee)


def test_guandan_match_rewards_are_the_level_gains_less_the_penalties():
    env = guandan_v0.env(episode="match", referee=True, bots={1: "random", 3: "random"}, infractions=0.05)
    totals, _ = _rollout(env, 11)
    result = env.unwrapped.engine.result
    gains = sum(d.gain if d.team == 0 else -d.gain for d in result.deals)
    expected = gains - result.penalties[0] + result.penalties[1]
    assert totals["player_0"] == totals["player_2"] == expected


def test_shengji_deal_reward_is_the_level_table_and_result_mode_is_plus_minus_one():
    env = shengji_v0.env()
    totals, _ = _rollout(env, 5)
    result = env.unwrapped.engine.result
    signed = result.levels if result.team == 0 else -result.levels
    assert totals == {"player_0": signed, "player_2": signed, "player_1": -signed, "player_3": -signed}
    wins, _ = _rollout(shengji_v0.env(reward="result"), 5)
    assert wins["player_0"] == (1 if result.team == 0 else -1)


@pytest.mark.parametrize("game", sorted(MODULES))
def test_the_same_seed_gives_the_same_episode(game):
    options = {"referee": True, "bots": {1: "heuristic", 3: "random"}, "infractions": 0.1}
    first = _rollout(MODULES[game].env(**options), 21)
    again = _rollout(MODULES[game].env(**options), 21)
    assert first == again
    assert _rollout(MODULES[game].env(**options), 22)[1] != first[1]


PLUGIN = '''
class CautiousAgent:
    """Plays the first legal action, and counts its decisions."""

    def __init__(self, rng):
        self.rng = rng
        self.decisions = 0

    def act(self, observation, legal_actions):
        self.decisions += 1
        return legal_actions[0]
'''


@pytest.mark.parametrize("env_id", ["paiju/Guandan-v0", "paiju/Shengji-v0"])
def test_a_plug_in_agent_from_a_file_plays_a_refereed_episode(tmp_path, env_id):
    """Named as ``--agents`` names it (``path/to/file.py:Name``), and as an object."""
    path = tmp_path / "my_agents.py"
    path.write_text(PLUGIN, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("my_agents", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    partner = module.CautiousAgent(np.random.default_rng(0))
    env = gymnasium.make(env_id, opponents=[f"{path}:CautiousAgent", partner, "heuristic"],
                         referee=True, infractions=0.05)
    obs, _ = env.reset(seed=8)
    rng = np.random.default_rng(8)
    terminated = False
    while not terminated:
        obs, _reward, terminated, _trunc, info = env.step(_pick(obs["action_mask"], rng))
    from_file = env.unwrapped.table._bots[1]
    while not hasattr(from_file, "decisions"):   # inside the injector and the plug-in wrapper
        from_file = from_file.agent
    assert from_file.decisions > 0 and partner.decisions > 0 and info["result"] is not None
    with pytest.raises(OptionError, match="has no 'Missing'"):
        gymnasium.make(env_id, opponents=f"{path}:Missing")


def test_guandan_tribute_and_return_are_card_actions():
    from guandan.deal import Deal

    deal = Deal.drawn(3, "5", previous_order=[0, 2, 1, 3])     # 双下: both losers pay
    tracker = gs.Tracker(deal)
    seen = set()
    while deal.phase.name in ("TRIBUTE", "RETURN"):
        seat = deal.to_act
        decision = gs.Decision(deal, seat, deal.observe(seat), tracker)
        legal = list(deal.legal_actions())
        base = gs.TRIBUTE_BASE if deal.phase.name == "TRIBUTE" else gs.RETURN_BASE
        assert sorted(decision.ids) == sorted(base + a.card for a in legal)
        seen.add(deal.phase.name)
        deal.apply(decision.choose(int(decision.ids[-1])))
    assert seen == {"TRIBUTE", "RETURN"}


def test_gymnasium_opponents_by_seat():
    env = gymnasium.make("paiju/Shengji-v0", seat=2, opponents={0: "random", 1: "heuristic", 3: "random"})
    assert sorted(env.unwrapped.table.seats) == [2]
    with pytest.raises(OptionError, match=r"opponents must name seats \[3, 0, 1\]"):
        gymnasium.make("paiju/Shengji-v0", seat=2, opponents={0: "random", 1: "random"})
    with pytest.raises(OptionError, match="give one agent for all three other seats or three"):
        gymnasium.make("paiju/Guandan-v0", opponents=["random", "random"])


@settings(max_examples=40)
@given(hand=st.lists(st.integers(0, 53), min_size=1, max_size=27), level=st.integers(0, 12),
       top=st.sampled_from([None, "PAIR 9", "STRAIGHT 5", "BOMB 4x7", "SINGLE A", "FULL_HOUSE 3"]))
def test_recipe_keys_are_the_reading_and_the_wild_cards_of_the_plays(hand, level, top):
    from guandan.combos import Reading
    from guandan.movegen import plays, recipe_keys

    counts = [0] * 54
    for c in hand:
        counts[c] = min(2, counts[c] + 1)
    listed = plays(counts, None if top is None else Reading.from_code(top), level)
    keys = [k for _c, recipes, first in listed.segments for k in recipe_keys(recipes)[first:]]
    assert keys == [3 * move.reading.id + move.cards.count(13 + level) for move in listed]



# ---------------------------------------------------------------------------------------------
# Every episode delivers its reward, whatever the referee decides and whenever


def _logged(table) -> list[dict]:
    """The table's log from now on: every event it delivers, as the JSON rows a log holds."""
    import json

    from tabletop.log import encode_event

    rows: list[dict] = []
    deliver = table._deliver

    def logging(events):
        rows.extend(json.loads(encode_event(e)) for e in events)
        deliver(events)

    table._deliver = logging
    return rows


def _level_change(rows: list[dict], team: int) -> int:
    """``team``'s level change by the log: each deal's last score (a ruling may re-score a
    deal), less the level penalties, and a match lost by sanction as the levels the winner lacked."""
    from shengji.deal import level_index

    scored: dict[int, int] = {}
    change = 0
    for row in rows:
        kind = row["kind"].split(".", 1)[1]
        if kind == "scored":
            scored[row.get("deal", 0)] = row["levels"] if row["team"] == team else -row["levels"]
        elif kind == "level_penalty":
            change += -row["levels"] if row["team"] == team else row["levels"]
        elif kind == "match_over" and row["how"] == "match_loss":
            lacked = 13 - level_index(row["levels"][row["winner"]])
            change += lacked if row["winner"] == team else -lacked
    return change + sum(scored.values())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), rate=st.sampled_from([0.2, 0.4, 0.7]), seat=st.integers(0, 3),
       env_id=st.sampled_from(["paiju/Guandan-v0", "paiju/Shengji-v0"]))
def test_a_refereed_deal_delivers_its_level_change_and_never_an_all_zero_mask(seed, rate, seat, env_id):
    """However early the bots' irregularities get the deal decided (a 掼蛋 deal forced during
    the draw, before the learner's first turn), the learner's rewards add up to the deal's
    level change by the log, penalties included, and no observation has an all-zero mask."""
    env = gymnasium.make(env_id, opponents="random", seat=seat, infractions=rate)
    table = env.unwrapped.table
    rows = _logged(table)
    obs, info = env.reset(seed=seed)
    total, terminated, rng = 0.0, False, np.random.default_rng(seed)
    while not terminated:
        assert obs["action_mask"].any()
        obs, reward, terminated, _trunc, info = env.step(_pick(obs["action_mask"], rng))
        total += reward
    assert obs["action_mask"].any() and not info["illegal_action"]
    result = info["result"]
    assert result is table.engine.result is not None
    assert total == _level_change(rows, seat % 2)
    if not any(row["kind"].endswith("level_penalty") for row in rows):   # the deal's own result
        assert total == (result.levels if result.team == seat % 2 else -result.levels)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), rate=st.sampled_from([0.2, 0.5]), game=st.sampled_from(sorted(MODULES)),
       episode=st.sampled_from(["deal", "deal", "match"]))
def test_pettingzoo_agents_get_the_level_change_and_never_an_all_zero_mask(seed, rate, game, episode):
    """The same at a PettingZoo table (two agents, two bots committing irregularities): what
    ``last()`` hands each agent adds up to its side's level change by the log, a 双升 match
    lost by sanction (判负) included; the acting agent's mask is never all-zero."""
    env = MODULES[game].env(episode=episode, bots={1: "random", 3: "random"}, infractions=rate)
    rows = _logged(env.unwrapped)
    env.reset(seed=seed)
    totals = {"player_0": 0.0, "player_2": 0.0}
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(20_000):
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        assert obs["action_mask"].any()
        env.step(None if terminated or truncated else _pick(obs["action_mask"], rng))
    assert env.unwrapped.engine.result is not None
    assert totals == {"player_0": _level_change(rows, 0), "player_2": _level_change(rows, 0)}


def test_a_guandan_deal_decided_in_the_draw_ends_at_the_first_step_with_its_reward():
    """GD draw irregularities can get a deal decided (forced) before the learner's first
    turn: reset hands a mask allowing every action, the next step ends the episode with the
    deal's levels for the learner's side, not an illegal-action penalty."""
    env = gymnasium.make("paiju/Guandan-v0", opponents="random", infractions=0.3)
    decided = []
    for seed in range(80):
        obs, _ = env.reset(seed=seed)
        if env.unwrapped.engine.result is not None:
            decided.append(seed)
            assert obs["action_mask"].all()
            _obs, reward, terminated, _trunc, info = env.step(0)
            result = info["result"]
            assert terminated and not info["illegal_action"] and result.plays == 0
            assert reward == (result.levels if result.team == 0 else -result.levels)
            with pytest.raises(RuntimeError, match="call reset"):
                env.step(0)
    assert decided   # the draw decided some deals


DECIDED_IN_THE_DRAW = 12
"""A seed whose first 掼蛋 deal (seats 1 and 3 random, infractions 0.3) the draw decides."""


def _decided_in_the_draw(env):
    """``env`` (a PettingZoo 掼蛋 env) reset to a deal the draw decides, before any agent acts."""
    env.reset(seed=DECIDED_IN_THE_DRAW)
    assert env.unwrapped.engine.result is not None and env.unwrapped.engine.result.plays == 0
    return env


def test_a_pettingzoo_deal_decided_in_the_draw_takes_one_step_that_delivers_every_reward():
    """Decided before any agent acts: reset leaves the first agent selected and alive with a
    mask allowing every action (its reward, result and the others' rewards held back); its
    step, whatever the action, ends the episode with every agent's reward; then the AEC
    loop's dead steps (``action=None``) empty ``agents``."""
    env = guandan_v0.env(bots={1: "random", 3: "random"}, infractions=0.3)
    rows = _logged(env.unwrapped)
    _decided_in_the_draw(env)
    assert env.agent_selection == "player_0" and env.agents == ["player_0", "player_2"]
    obs, reward, terminated, truncated, info = env.last()
    assert obs["action_mask"].all() and reward == 0.0 and not (terminated or truncated)
    assert info["result"] is None
    assert not env.observe("player_2")["action_mask"].any()   # not its turn
    env.step(int(np.random.default_rng(0).integers(gs.N_ACTIONS)))   # any action
    change = _level_change(rows, 0)
    assert change != 0
    totals = {}
    for agent in env.agent_iter(10):
        obs, reward, terminated, _trunc, info = env.last()
        assert terminated and obs["action_mask"].all() and info["result"] is env.unwrapped.engine.result
        totals[agent] = reward
        env.step(None)
    assert totals == {"player_0": change, "player_2": change} and env.agents == []


def test_pettingzoo_api_test_passes_on_deals_decided_in_the_draw():
    """pettingzoo's api_test where every reset plays a deal the draw decides."""

    class Decided(guandan_v0.OrderEnforcing):
        def reset(self, seed=None, options=None):
            super().reset(seed=DECIDED_IN_THE_DRAW, options=options)

    env = Decided(guandan_v0.raw_env(bots={1: "random", 3: "random"}, infractions=0.3))
    _decided_in_the_draw(env)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=50)


# ---------------------------------------------------------------------------------------------
# Conventions: what third-party training code expects


@pytest.mark.parametrize("env_id", ["paiju/Guandan-v0", "paiju/Shengji-v0"])
def test_gymnasium_vector_env_autoresets_unseeded_sub_envs_into_different_deals(env_id):
    """gymnasium's SyncVectorEnv (next-step auto-reset): sub-envs reset without a seed play
    different deals (each seeds its tree from its own np_random), episodes follow one another
    through the terminal steps, and the info keys are the same at every step."""
    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(env_id, opponents="random")] * 3)
    obs, info = envs.reset()
    hands = {tuple(row) for row in obs["observation"][:, :54]}
    assert len(hands) == 3                          # three different deals
    keys = set(info)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(400):
        actions = [_pick(mask, rng) for mask in obs["action_mask"]]
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert set(info) == keys and obs["action_mask"].any(axis=1).all()
        episodes += int(terminated.sum())
    assert episodes >= 3
    seeded = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync")
    first, _ = seeded.reset(seed=5)
    again, _ = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync").reset(seed=5)
    assert np.array_equal(first["observation"], again["observation"])


@pytest.mark.parametrize("env_id", ["paiju/Guandan-v0", "paiju/Shengji-v0"])
def test_gymnasium_env_renders_rgb_array_as_stable_baselines_make_vec_env_asks(env_id):
    """SB3's ``make_vec_env`` makes each env with ``render_mode="rgb_array"``."""
    env = gymnasium.make(env_id, render_mode="rgb_array")
    obs, _ = env.reset(seed=2)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.shape == (5 * 8, 54 * 8, 3)
    hand = obs["observation"][:54]
    assert np.array_equal(picture[4, 4::8, 0] // 127, np.minimum(hand, 2))   # the top row is my hand
    with pytest.raises(OptionError, match="render_mode must be"):
        gymnasium.make(env_id, render_mode="depth_array")


def test_stable_baselines_make_vec_env_steps_both_games():
    sb3 = pytest.importorskip("stable_baselines3")   # the train extra (in the test extra)
    for env_id in ("paiju/Guandan-v0", "paiju/Shengji-v0"):
        vec = sb3.common.env_util.make_vec_env(env_id, n_envs=2, seed=3)
        vec.reset()
        masks = np.stack([m.astype(bool) for m in vec.env_method("action_masks")])
        vec.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))


@pytest.mark.parametrize("game", sorted(MODULES))
def test_info_keys_are_the_same_at_every_step_as_tianshou_stacks_them(game):
    """Tianshou's PettingZoo wrapper stacks each step's info: ``result`` (None until the end)
    and, with action_features, the legal actions' rows are there at every ``last()``."""
    env = MODULES[game].env(action_features=True, **REFEREED)
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, info = env.last()
        assert set(info) == {"result", "action_ids", "action_features"}
        if terminated or truncated:
            assert info["result"] is not None and len(info["action_ids"]) == 0
            env.step(None)
            continue
        assert info["result"] is None
        assert sorted(info["action_ids"]) == np.flatnonzero(obs["action_mask"]).tolist()
        env.step(_pick(obs["action_mask"], rng))


def test_a_tianshou_collector_gathers_refereed_episodes_from_two_envs():
    """Tianshou's PettingZoo path: two envs in a DummyVectorEnv, masked random agents, a
    Collector stacking every step's info (the keys the same at every step)."""
    pytest.importorskip("tianshou")   # the train extra (in the test extra)
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make():
        return PettingZooEnv(guandan_v0.env(**REFEREED))

    env = make()
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents],
        env=env)
    collector = Collector(algorithm, DummyVectorEnv([make, make]), VectorReplayBuffer(20_000, 2))
    collector.reset()
    assert collector.collect(n_episode=2, reset_before_collect=False).n_collected_episodes == 2
    decided = make()   # a deal the draw decides: one step (a masked random action) ends it
    obs, _info = decided.reset(seed=DECIDED_IN_THE_DRAW)
    assert all(obs["mask"])
    _obs, rewards, terminated, _trunc, info = decided.step(0)
    result = info["result"]
    assert terminated and result.plays == 0
    assert rewards[0] == rewards[1] == (result.levels if result.team == 0 else -result.levels)


@pytest.mark.parametrize("env_id", ["paiju/Guandan-v0", "paiju/Shengji-v0"])
def test_gymnasium_wrapper_gives_action_features_and_the_tables_tools(env_id):
    env = gymnasium.make(env_id, opponents="heuristic", action_features=True, referee=True)
    obs, info = env.reset(seed=9)
    table = env.unwrapped
    assert sorted(info["action_ids"]) == np.flatnonzero(obs["action_mask"]).tolist()
    assert len(info["action_features"]) == len(info["action_ids"])
    assert table.engine.to_act == 0 and table.referee is not None
    assert len(table.legal_actions()) >= 1
    action = int(info["action_ids"][0])
    assert table.decode_action(action) is not None
    assert np.array_equal(table.action_masks(), obs["action_mask"].astype(bool))


# ---------------------------------------------------------------------------------------------
# Cloning: pickle, deep copy, clone / restore


def _play_out(env, rng) -> list:
    """Random masked play to the end of the episode: each step's (mask ids, reward, observation)."""
    trace = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        trace.append((agent, reward, obs["observation"].tobytes(), np.flatnonzero(obs["action_mask"]).tobytes()))
        env.step(None if terminated or truncated else _pick(obs["action_mask"], rng))
    return trace


@pytest.mark.parametrize("game", sorted(MODULES))
def test_an_env_pickles_deep_copies_and_restores_to_the_same_future(game):
    """Mid-episode at a refereed table whose bots commit irregularities (their random streams,
    the injectors and the referee's ledger included): a pickled copy, a deep copy and the env
    restored from its clone (twice) all play the same actions into the same episode."""
    import copy
    import pickle

    env = MODULES[game].env(bots={1: "random", 2: "heuristic", 3: "random"}, infractions=0.2)
    env.reset(seed=12)
    while env.unwrapped.engine.result is not None:   # a deal the draw decided: the next one
        env.reset()
    rng = np.random.default_rng(12)
    for _ in range(15):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        env.step(_pick(env.observe(agent)["action_mask"], rng))
    snapshot = env.unwrapped.clone()
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    expected = _play_out(env, np.random.default_rng(1))
    assert len(expected) > 1
    for other in copies:
        assert _play_out(other, np.random.default_rng(1)) == expected
    for _ in range(2):
        env.unwrapped.restore(snapshot)
        assert _play_out(env, np.random.default_rng(1)) == expected


def test_the_gymnasium_env_pickles_and_restores():
    import pickle

    env = gymnasium.make("paiju/Guandan-v0", opponents="heuristic", referee=True)
    obs, _ = env.reset(seed=4)
    snapshot = env.unwrapped.clone()

    def finish(env, obs):
        rng, rewards, terminated = np.random.default_rng(3), [], False
        while not terminated:
            obs, reward, terminated, _trunc, info = env.step(_pick(obs["action_mask"], rng))
            rewards.append(reward)
        return rewards, info["result"]

    copied = pickle.loads(pickle.dumps(env))
    expected = finish(env, obs)
    assert finish(copied, obs) == expected
    env.unwrapped.restore(snapshot)
    assert finish(env, obs) == expected


# ---------------------------------------------------------------------------------------------
# Policies in any seat


def _first_legal(observation, mask):
    return int(np.flatnonzero(mask)[0])


class _Recording:
    """A policy that plays the first legal id and keeps what it was shown."""

    def __init__(self):
        self.seen = []

    def __call__(self, observation, mask):
        self.seen.append((observation.tobytes(), np.flatnonzero(mask).tobytes()))
        return _first_legal(observation, mask)


def _agents_view(module, seed, agent_seats, policy_seats=()):
    """Everyone plays the first legal id; what seat 1 is shown, as an agent or as a policy bot."""
    from paiju.envs import PolicyAgent

    recording = _Recording()
    bots = {s: PolicyAgent(recording if s == 1 else _first_legal, module.__name__.rsplit(".")[-1][:-3])
            for s in policy_seats}
    bots.update({s: "random" for s in range(4) if s not in agent_seats and s not in bots})
    env = module.env(bots=bots)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _r, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if agent == "player_1":
            recording(obs["observation"], obs["action_mask"])
        env.step(_first_legal(obs["observation"], obs["action_mask"]))
    return recording.seen


@pytest.mark.parametrize("game", sorted(MODULES))
def test_a_policy_agent_in_another_seat_sees_what_the_learner_would(game):
    """Seat 1 played by a PolicyAgent is shown, call for call (a 双升 play card by card), the
    observation and the mask seat 1 gets when it is an agent of the env."""
    module = MODULES[game]
    as_agent = _agents_view(module, 5, agent_seats=(0, 1))
    as_bot = _agents_view(module, 5, agent_seats=(0,), policy_seats=(1,))
    assert len(as_agent) > 10 and as_bot == as_agent


@pytest.mark.parametrize("game", sorted(MODULES))
def test_a_policy_agent_outside_an_env_builds_the_same_vectors(game):
    """``paiju simulate`` / ``tournament`` run agents without an env: a PolicyAgent then builds
    the vectors itself, and they are the env's (a strict deal, every seat a policy)."""
    from paiju.envs import PolicyAgent
    from tabletop.rng import child_seed
    from tabletop.runner import run

    module = MODULES[game]
    in_env = _agents_view(module, 7, agent_seats=(0, 1, 2, 3))
    recording = _Recording()
    spec = module.raw_env().spec
    engine = spec.new_engine(child_seed(7, 0), "deal", spec.check_level("2", "deal"), module.raw_env().rules, {})
    run(engine, [PolicyAgent(recording if s == 1 else _first_legal, game) for s in range(4)])
    assert recording.seen == in_env


def test_self_play_through_the_gymnasium_wrapper_with_the_partner_apart():
    """The learner's own policy (here one chosen at random from the mask) plays its partner,
    a frozen first-legal copy both opponents; the opponents' seats get the learner's vectors."""
    env = gymnasium.make("paiju/Shengji-v0", seat=1, opponents="random", partner="heuristic")
    assert env.unwrapped.table._bot_specs == {2: "random", 0: "random", 3: "heuristic"}
    rng = np.random.default_rng(3)

    def learner(observation, mask):
        return _pick(mask, rng)

    frozen = _Recording()
    env = gymnasium.make("paiju/Shengji-v0", seat=1, opponents=env.unwrapped.policy_agent(frozen),
                         partner=env.unwrapped.policy_agent(learner))
    bots = env.unwrapped.table._bot_specs
    assert bots[0] is bots[2] and bots[3].policy is learner
    obs, _ = env.reset(seed=2)
    terminated = False
    while not terminated:
        obs, _reward, terminated, _trunc, info = env.step(learner(obs["observation"], obs["action_mask"]))
    assert info["result"] is not None and frozen.seen
    assert all(len(o) == obs["observation"].nbytes for o, _m in frozen.seen)
    with pytest.raises(OptionError, match=r"with a partner, opponents must name seats \[2, 0\]"):
        gymnasium.make("paiju/Shengji-v0", seat=1, opponents={0: "random", 3: "random"}, partner="random")


POLICY = '''
import numpy as np

def last_legal(observation, mask):
    """A saved policy: here, the highest legal id."""
    return int(np.flatnonzero(mask)[-1])
'''


@pytest.mark.parametrize("game", sorted(MODULES))
def test_a_policy_plays_in_simulate_and_tournament_by_its_spec(game, tmp_path, capsys):
    from paiju.cli import main

    (tmp_path / "saved_policy.py").write_text(POLICY, encoding="utf-8")
    spec = f"policy:{tmp_path}/saved_policy.py:last_legal"
    assert main(["simulate", game, "--deals", "2", "--agents", f"{spec},random", "--referee", "--quiet"]) == 0
    out = tmp_path / "t"
    assert main(["tournament", game, "--agents", f"heuristic,{spec}", "--deals", "2", "--duplicate", "--quiet",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["simulate", game, "--deals", "1", "--agents", f"policy:{tmp_path}/saved_policy.py:nothing"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def _check_rows_identify_the_actions(env, agent) -> None:
    ids, rows = env.unwrapped.legal_action_features(agent)
    assert rows.shape == (len(ids), env.unwrapped.spec.FEATURE_WIDTH)
    assert len(np.unique(rows, axis=0)) == len(ids)        # no two legal actions share a row


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), refereed=st.booleans(), game=st.sampled_from(sorted(MODULES)))
def test_action_feature_rows_tell_every_legal_action_apart(seed, refereed, game):
    """A wild-card straight flush read from H3 or from H4 puts down the same cards: its row
    also has the reading and the wild cards standing in; table steps their kind and option."""
    env = MODULES[game].env(**(REFEREED if refereed else {}))
    _walk(env, seed, 300, _check_rows_identify_the_actions)


def test_a_wild_straight_flush_read_two_ways_has_two_rows():
    from guandan.deal import Deal

    hand = ["H2", "H4", "H5", "H6", "H7"]   # level 2: H2 is wild, H3-H7 or H4-H8
    deal = Deal.from_hands([" ".join(hand + ["S9"]), "C3", "D4", "S5"], level="2", leader=0)
    decision = gs.Decision(deal, 0, deal.observe(0), gs.Tracker(deal))
    ids, rows = decision.features()
    same_cards = {}
    for action_id, row in zip(ids, rows):
        same_cards.setdefault(row[:54].tobytes(), []).append(row)
    twice = [group for group in same_cards.values() if len(group) > 1]
    assert twice and all(len({r.tobytes() for r in group}) == len(group) for group in twice)


@pytest.mark.parametrize("game", sorted(MODULES))
def test_normalized_observations_are_the_fields_scaled_into_0_1(game):
    module = MODULES[game]
    plain, scaled = module.env(), module.env(normalize=True)
    plain.reset(seed=4)
    scaled.reset(seed=4)
    layout = module.LAYOUT
    space = scaled.observation_space("player_0")["observation"]
    rng = np.random.default_rng(4)
    for agent in plain.agent_iter(300):
        obs, _r, terminated, truncated, _i = plain.last()
        other = scaled.observe(agent)["observation"]
        assert other.dtype == np.float32 and space.contains(other)
        expected = (obs["observation"] - layout.low) / np.maximum(layout.high - layout.low, 1)
        assert np.allclose(other, expected)
        action = None if terminated or truncated else _pick(obs["action_mask"], rng)
        plain.step(action)
        scaled.step(action)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), rate=st.sampled_from([0.0, 0.3]), seat=st.integers(0, 3),
       env_id=st.sampled_from(["paiju/Guandan-v0", "paiju/Shengji-v0"]))
def test_skip_forced_hands_the_learner_only_real_choices_and_still_counts_the_reward(seed, rate, seat, env_id):
    """``skip_forced=True`` plays a single-action decision (a draw, a 报牌, a last card)
    for the learner; the rewards still add up to the deal's level change by the log."""
    env = gymnasium.make(env_id, opponents="random", seat=seat, infractions=rate, skip_forced=True)
    table = env.unwrapped.table
    rows = _logged(table)
    obs, info = env.reset(seed=seed)
    total, terminated, rng = 0.0, False, np.random.default_rng(seed)
    while not terminated:
        if env.unwrapped.engine.result is None:   # not decided before the learner's first turn
            assert np.count_nonzero(obs["action_mask"]) >= 2
        obs, reward, terminated, _trunc, info = env.step(_pick(obs["action_mask"], rng))
        total += reward
    assert total == _level_change(rows, seat % 2)


@pytest.mark.parametrize("game", sorted(MODULES))
def test_the_maskable_ppo_example_trains_evaluates_and_saves_a_policy_agents_load(game, tmp_path, capsys):
    """examples/train_maskable_ppo.py on a tiny budget: MaskablePPO trains on the Gymnasium
    env with no adapter, the duplicate tournament against the heuristic runs the saved policy
    by its ``policy:`` spec, and ``simulate --agents`` loads it too."""
    pytest.importorskip("sb3_contrib")   # the train extra (in the test extra)
    import importlib.util
    import json
    from pathlib import Path

    from paiju.cli import main

    path = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "run"
    assert example.main([game, "--steps", "128", "--deals", "2", "--out", str(out)]) == 0
    summary = json.loads((out / "tournament" / "summary.json").read_text(encoding="utf-8"))
    assert summary["pairings"][0]["deals_played"] == 2
    assert main(["simulate", game, "--deals", "1", "--quiet", "--agents", f"policy:{out}/policy.py:policy,heuristic"]) == 0


# ---------------------------------------------------------------------------------------------
# Asking the table when nobody (or the referee) is to act


@pytest.mark.parametrize("env_id", ["paiju/Guandan-v0", "paiju/Shengji-v0"])
def test_decode_action_after_the_episode_is_a_clear_error_and_legal_actions_empty(env_id):
    env = gymnasium.make(env_id, opponents="heuristic")
    table = env.unwrapped.table
    with pytest.raises(RuntimeError, match="no decision now"):
        table.decode_action(0)                       # before reset
    assert table.legal_actions() == [] and env.unwrapped.legal_actions() == []
    obs, _ = env.reset(seed=4)
    assert env.unwrapped.decode_action(int(np.flatnonzero(obs["action_mask"])[0])) is not None
    rng = np.random.default_rng(4)
    terminated = False
    while not terminated:
        obs, _reward, terminated, _trunc, _info = env.step(_pick(obs["action_mask"], rng))
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.unwrapped.decode_action(0)
    assert env.unwrapped.legal_actions() == [] and table.legal_actions() == []
    ids, rows = table.legal_action_features()
    assert len(ids) == len(rows) == 0
    decided = guandan_v0.raw_env(bots={1: "random", 3: "random"}, infractions=0.3)
    _decided_in_the_draw(decided)                    # the one step of a deal decided in the draw
    with pytest.raises(RuntimeError, match="no decision now"):
        decided.decode_action(0)
    assert decided.legal_actions() == []


@pytest.mark.parametrize("game", sorted(MODULES))
@pytest.mark.parametrize("episode", ["deal", "match"])
def test_legal_actions_while_the_referee_is_to_act_are_empty(game, episode):
    """A refereed table awaiting a ruling (``to_act`` is the referee's seat): the engine's
    ``legal_actions()`` is empty (no seat may act), and after the ruling the seat to act has
    its actions again. 掼蛋 used to raise a TypeError here."""
    from enforcement.setup import inject, make_referee
    from paiju.agent_specs import make_agents
    from paiju.games import adapter_for
    from tabletop.runner import deliver, rule
    from tabletop.seats import REFEREE

    spec = MODULES[game].raw_env().spec
    options = adapter_for(game).engine_options({"referee": True, "infractions": 0.3})
    rules = adapter_for(game).rules_from_dict({})
    engine = spec.new_engine(11, episode, 0, rules, options)
    agents = inject(make_agents(game, ["random"] * 4, 11, 0), 0.3, 11, 0, game)
    referee = make_referee(game, rules)
    deliver(engine, engine.take_events(), [referee])   # the referee keeps its ledger from the events
    awaited = 0
    for _ in range(3000):
        seat = engine.to_act
        if seat is None or awaited >= 5:
            break
        if seat is REFEREE:
            awaited += 1
            assert len(engine.legal_actions()) == 0
            deliver(engine, engine.apply(rule(engine, referee)) + engine.take_events(), [referee])
            if engine.to_act not in (None, REFEREE):
                assert len(engine.legal_actions()) > 0
            continue
        action = agents[seat].act(engine.observe(seat), engine.legal_actions())
        deliver(engine, engine.apply(action) + engine.take_events(), [referee])
    assert awaited   # the table did wait for the referee
