"""The checks both engines make before carrying a ruling out (tabletop.rulings)."""

from types import SimpleNamespace

import pytest

from tabletop.errors import RulingRefused
from tabletop.rulings import refuse_what_cannot_be_carried_out

RETURN = SimpleNamespace(KIND="Return")
WARNING = SimpleNamespace(sanction=SimpleNamespace(KIND="Warning"))
HANDLERS = {"Return": object()}
SANCTIONS = {"Warning": None}


def check(effects, sanctions=(), awaiting=(7,), answers=7, **kw):
    refuse_what_cannot_be_carried_out("a game", effects, sanctions, HANDLERS, SANCTIONS, awaiting, answers, **kw)


def test_known_kinds_answering_an_awaited_attempt_pass():
    check([RETURN], [WARNING])
    check([], [], awaiting=(), answers=None)


def test_an_unknown_effect_or_sanction_kind_is_refused_with_the_known_ones():
    with pytest.raises(RulingRefused, match=r"Expose: not a table effect a game carries out \(known: Return\)"):
        check([SimpleNamespace(KIND="Expose")])
    with pytest.raises(RulingRefused, match="MatchLoss: not a sanction a game carries out"):
        check([], [SimpleNamespace(sanction=SimpleNamespace(KIND="MatchLoss"))])


def test_a_ruling_on_nothing_awaited_is_refused_unless_it_changes_nothing_and_may():
    with pytest.raises(RulingRefused, match="no ruling is awaited on event 8"):
        check([], answers=8)
    check([], answers=8, effects_need_an_attempt=True)            # an attempt that stood
    with pytest.raises(RulingRefused, match="no ruling is awaited on event 8"):
        check([RETURN], answers=8, effects_need_an_attempt=True)
