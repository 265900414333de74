"""Hypothesis profiles: `ci` (default) keeps the suite inside its time budget;
`nightly` (HYPOTHESIS_PROFILE=nightly) searches much harder (state machines: longer runs,
see tests/enforcement/stateful_table.py). Every project module is imported first (see
``import_project_modules``), so that the examples do not depend on test order."""

import importlib
import os
import pkgutil
import signal

import pytest
from hypothesis import HealthCheck, settings

from tabletop.games import game_names

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "nightly", max_examples=2000, deadline=None, stateful_step_count=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


PROJECT_PACKAGES = ("tabletop", "guandan", "shengji", "enforcement", "paiju")


def import_project_modules() -> None:
    """Import every module of the project now. Hypothesis also draws constants found in the
    source of the non-test modules loaded so far (its "local constants"), so a module that
    an earlier test happened to import lazily (`paiju ogd serve` imports paiju.ogd.players)
    changed the examples later tests got: a state machine then found, or missed, a failure
    depending on test order. With every module loaded first, the examples depend only on
    the source."""
    for package in PROJECT_PACKAGES:
        root = importlib.import_module(package)
        for module in pkgutil.walk_packages(root.__path__, package + "."):
            if not module.name.endswith(".__main__"):
                importlib.import_module(module.name)


import_project_modules()

# A suite started in the background of a shell without job control (`cmd &` in a script)
# inherits SIGINT ignored, and so would every command the tests start: the tests of Ctrl-C
# would then test nothing. Ctrl-C is restored here (a handler is reset to the default on exec).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


GAMES = game_names()
"""The games every test starts and ends with: the built-in ones."""


@pytest.fixture(autouse=True)
def _no_game_left_registered():
    """A test's own game is registered for that test only (``tabletop.games.registered``):
    a later test that runs every registered game would otherwise meet it, depending on which
    tests ran before it in the same worker."""
    assert game_names() == GAMES, f"a test module registered a game when imported: {game_names()}"
    yield
    assert game_names() == GAMES, f"the test left a game registered: {game_names()}"
