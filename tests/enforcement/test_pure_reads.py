"""Pure reads: no property or ``observe`` of a match changes its state or emits an event.

Random strict and refereed matches of both games (random infractions, the rulebook
referee) are played twice: once as they are, once with every read called any number of
times after each batch of events and before each decision. The reads must leave the
match's state as it was, the event streams must be the same bytes in the same batches, and
the matches must end the same."""

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import guandan.agents
import shengji.agents
from enforcement.setup import inject, make_referee
from guandan.match import Match as GuandanMatch
from guandan.rules import GuandanRules
from shengji.match import Match as ShengjiMatch
from shengji.rules import ShengjiRules
from tabletop import rng as streams
from tabletop.log import encode_event
from tabletop.runner import run

GAMES = {
    "guandan": (lambda seed, mode: GuandanMatch(seed, GuandanRules(match_end="deals", match_deals=2), mode=mode),
                guandan.agents.RandomAgent),
    "shengji": (lambda seed, mode: ShengjiMatch(seed, ShengjiRules(max_deals=2), mode=mode),
                shengji.agents.RandomAgent),
}


def read_everything(match: Any) -> None:
    """Every read of the engine protocol and the match's queries, once."""
    match.phase
    seat = match.to_act
    match.awaiting_ruling
    for s in range(4):
        match.observe(s)
    if isinstance(seat, int):                   # the referee's seat has no actions to list
        legal = match.legal_actions()
        if len(legal):
            match.why_illegal(list(legal)[0])
    match.result
    match.deal_numbered(match.stream.deal)
    if isinstance(match, GuandanMatch):
        match.current_deal
        match.scores
    assert seat == match.to_act


def digest(match: Any) -> tuple:
    """The match's state as far as reads could change it: the stream (next sequence number,
    events waiting), the deal in play and its place, the match's record."""
    deal = match.deal
    return (match.stream.next_seq, len(match.stream.pending), match.stream.deal, id(deal), deal.phase,
            deal.result, tuple(tuple(h) for h in deal.hands), repr(getattr(match, "records", None)),
            repr(match.levels), repr(match.ended if isinstance(match, GuandanMatch) else match.results))


class Reader:
    """Reads everything ``times`` (a seeded stream of counts) after every batch and before
    every decision."""

    def __init__(self, times: Any) -> None:
        self.times = times

    def read(self, match: Any) -> None:
        before = digest(match)
        for _ in range(int(self.times.integers(0, 3))):
            read_everything(match)
        assert digest(match) == before

    def on_events(self, engine: Any, events: list) -> None:
        self.read(engine)


class ReadingAgent:
    """An agent that reads everything before it decides (inside the injector, which keeps
    its out-of-turn attempts)."""

    def __init__(self, agent: Any, reader: Reader, match: Any) -> None:
        self.agent, self.reader, self.match = agent, reader, match

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)

    def act(self, observation: Any, legal: Any) -> Any:
        self.reader.read(self.match)
        return self.agent.act(observation, legal)


class Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def on_events(self, engine: Any, events: list) -> None:
        self.lines.extend(encode_event(e) for e in events)
        self.lines.append("-- the end of a batch")


def play(game: str, seed: int, refereed: bool, reads_seed: int | None) -> tuple[list[str], Any]:
    make, agent = GAMES[game]
    match = make(seed, "refereed" if refereed else "strict")
    agents = [agent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]
    log = Log()
    observers: list[Any] = [log]
    if reads_seed is not None:
        reader = Reader(streams.generator(reads_seed, 0, 0))
        agents = [ReadingAgent(a, reader, match) for a in agents]
        observers.append(reader)
        read_everything(match)
    if refereed:
        agents = inject(agents, 0.05, seed, 0, game)
    result = run(match, agents, observers, referee=make_referee(game) if refereed else None, max_steps=60_000)
    log.on_events(match, match.take_events())
    return log.lines, result


@settings(max_examples=8, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), refereed=st.booleans(),
       reads_seed=st.integers(0, 2**32))
def test_reads_between_applies_change_neither_the_state_nor_the_events(game, seed, refereed, reads_seed):
    plain, plain_result = play(game, seed, refereed, None)
    read, read_result = play(game, seed, refereed, reads_seed)
    assert plain_result is not None
    assert read == plain
    assert read_result == plain_result


def test_a_guandan_match_draws_the_next_deal_in_the_change_that_ends_one():
    match = GuandanMatch(1)
    match.take_events()
    events = match.force_result((0, 2, 1, 3))
    kinds = [e.KIND for e in events]
    assert kinds.index("gd.levels_advanced") < kinds.index("gd.deal_started")
    assert match.deal_number == 2 and match.deal_numbered(1).deal_number == 1
    for _ in range(3):
        read_everything(match)
    assert match.take_events() == [] and match.deal_number == 2
