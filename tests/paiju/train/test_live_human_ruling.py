"""A live deal ruled by a trainee who answers every stop with a warning: however wrong the
rulings, the deal goes on to its end (seed 29 reaches a GD-4.2.5, the unreported offender
gone out, which such a ruling places nowhere: the offender stays out by its play)."""

import time

from paiju.replay.check import check_log
from paiju.train.web.live import LiveSession
from paiju.train.web.ruling import TraineeAnswer


def test_GD_4_2_5_a_live_deal_ruled_with_warnings_only_plays_to_its_end():
    session = LiveSession("guandan", 29, "trainee")
    session.start()
    deadline = time.monotonic() + 120
    while not session.done and time.monotonic() < deadline:
        if session.awaiting is not None:
            session.give_answer(TraineeAnswer("GD-2.5", (), ("Warning",)))
        time.sleep(0.005)
    session.close()
    state = session.state()
    assert state["done"] and state["failed"] is None
    stops = [a for a in session.answered if a.expected_clause == "GD-4.2.5"]
    assert stops and all(a.carried_out == "trainee" for a in stops)
    assert [e.KIND for e in session.events].count("gd.scored") == 1
    went_out = [e.seat for e in session.events if e.KIND == "gd.finished"]
    assert len(went_out) == len(set(went_out))         # nobody goes out twice
    replayed = check_log(session.log(), logged_rulings=True)   # the log re-creates the deal exactly
    assert replayed.ok and replayed.complete, replayed.message
