"""A game registered for a while only (a test's own) leaves the registry as it found it, so
that a later test that runs every registered game does not meet it."""

from __future__ import annotations

import pytest

from tabletop.errors import OptionError
from tabletop.games import GameSpec, add_part, game_names, game_spec, registered
from tabletop.seats import PARTNERSHIPS


def _spec(name: str, title: str = "a test's game") -> GameSpec:
    return GameSpec(name=name, title=title, seating=PARTNERSHIPS, rules_from_dict=dict, new_deal=None,
                    new_match=None, agents={}, action_from_event=None, events=())


def test_a_scoped_registration_is_undone_with_the_parts_added_meanwhile():
    before = game_names()
    spec = _spec("scoped")
    with registered(spec) as inside:
        assert inside is spec and game_spec("scoped") is spec and game_names() == (*before, "scoped")
        add_part("a-layer", "scoped", "its part")
        assert spec.part("a-layer") == "its part"
    assert game_names() == before
    with pytest.raises(OptionError, match="unknown game 'scoped'"):
        game_spec("scoped")
    assert "a-layer" not in spec.parts
    with registered(_spec("scoped")) as again:   # the part left with the registration
        with pytest.raises(OptionError, match="no a-layer part"):
            again.part("a-layer")


def test_a_scoped_registration_over_a_game_puts_the_first_back_even_after_an_error():
    first = _spec("twice", "first")
    with registered(first):
        add_part("a-layer", "twice", "first's part")
        with pytest.raises(RuntimeError), registered(_spec("twice", "second")):
            add_part("a-layer", "twice", "second's part")
            assert game_spec("twice").title == "second"
            raise RuntimeError
        assert game_spec("twice") is first and first.part("a-layer") == "first's part"
    assert "twice" not in game_names()
