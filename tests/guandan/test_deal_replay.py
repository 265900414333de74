"""Replay: the actions rebuilt from a log's ACTION events reproduce the same events."""

import io
import json

import pytest

from guandan import events as ev
from guandan.actions import GiveTribute, Pass, Play, ReturnCard
from guandan.agents import RandomAgent
from guandan.deal import Deal
from guandan.match import Match
from guandan.logged_actions import action_from_event
from tabletop import rng as streams
from tabletop.cards import Card
from tabletop.errors import LogError
from tabletop.events import Event, Note
from tabletop.log import LogWriter, make_header, read_log
from tabletop.runner import run


def agents(seed):
    return [RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]


def replay(engine, events):
    """Re-apply the actions of ``events`` to ``engine``; return all events it emits."""
    out = engine.take_events()
    for event in events:
        if event.ACTION:
            out.extend(engine.apply(action_from_event(event)))
    out.extend(engine.take_events())
    return out


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_replaying_a_random_deal_from_its_log_gives_identical_events(seed, tmp_path):
    path = tmp_path / "deal.jsonl"
    with LogWriter(path, make_header("guandan", seed, {})) as writer:
        run(Deal.drawn(seed), agents(seed), [writer])
    log = read_log(path, game="guandan")
    assert replay(Deal.drawn(seed), log.events) == list(log.events)


def test_replaying_a_match_with_tribute_gives_identical_events():
    seed = 3
    buffer = io.StringIO()
    writer = LogWriter(buffer, make_header("guandan", seed, {}))
    match = Match(seed)
    result = run(match, agents(seed), [writer])
    original = [Event.from_dict(json.loads(line)) for line in buffer.getvalue().splitlines()[1:]]
    kinds = {e.KIND for e in original}
    assert {"gd.tribute_given", "gd.return_given"} <= kinds
    again = replay(Match(seed), original)
    assert again == original
    assert result.ended == "pass_a"


def test_action_from_event_for_every_action_kind():
    played = ev.CardsPlayed(deal=1, seq=5, seat=2, cards=("S5", "H5"), reading="PAIR 5")
    assert action_from_event(played) == Play(2, [Card("S5"), Card("H5")], "PAIR 5")
    assert action_from_event(ev.Passed(deal=1, seq=6, seat=3)) == Pass(3)
    given = ev.TributeGiven(deal=2, seq=7, seat=1, card="RJ", receiver=0)
    assert action_from_event(given) == GiveTribute(1, Card("RJ"))
    returned = ev.ReturnGiven(deal=2, seq=8, seat=0, card="S3", payer=1)
    assert action_from_event(returned) == ReturnCard(0, Card("S3"))
    with pytest.raises(LogError, match="not a 掼蛋 action"):
        action_from_event(Note(deal=1, seq=9, text="hello"))


def test_every_action_event_kind_is_rebuilt():
    action_kinds = {cls.KIND for cls in vars(ev).values()
                    if isinstance(cls, type) and issubclass(cls, Event) and cls.ACTION and cls.KIND}
    assert action_kinds == {"gd.played", "gd.passed", "gd.tribute_given", "gd.return_given",
                            "gd.draw_ran", "gd.count_reported", "table.chose", "gd.referee_called", "gd.irregular"}


def test_refereed_action_events_rebuild_their_actions():
    from guandan.actions import (
        Announce, CallReferee, Choose, Draw, PlayWithExtra, Report, action_to_data,
    )

    assert action_from_event(ev.DrawRan(deal=1, seq=4, seat=2)) == Draw(2)
    assert action_from_event(ev.CountReported(deal=1, seq=9, seat=1, count=7)) == Report(1, 7)
    assert action_from_event(ev.ChoiceMade(deal=1, seq=9, seat=3, purpose="lead_option", option="free")) == \
        Choose(3, "free")
    assert action_from_event(ev.RefereeCalled(deal=1, seq=9, seat=3, offender=2)) == CallReferee(3)
    for attempt in (Announce(1, "beat"), GiveTribute(3, Card("S4"), discovered="after_first_play"),
                    PlayWithExtra(0, [Card("S5")], "SINGLE 5", [Card("D9")]), Report(2, None, discovered=4),
                    Draw(1, extra_by=3, at=40)):
        logged = ev.IrregularAttempt(deal=1, seq=9, seat=attempt.seat, irregularity="x",
                                     action=action_to_data(attempt))
        again = Event.from_dict(json.loads(json.dumps(logged.to_dict())))
        assert action_from_event(again) == attempt
