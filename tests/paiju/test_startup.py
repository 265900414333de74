"""A `paiju simulate` process loads what its run uses and nothing more: a strict deal never
reaches refereed mode, the table view or the referee's table effects, a --quiet run shows no
progress bar, and a run of one command builds only that command's parser. (What each costs is
measured by benchmarks/bench_startup.py; these tests hold the modules, not the time.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

NOT_IN_A_STRICT_RUN = (
    "guandan.refereed.engine", "guandan.refereed.effects", "guandan.view",
    "shengji.refereed.engine", "shengji.refereed.effects", "shengji.view",
    "tabletop.effects", "tabletop.view", "enforcement", "rich.progress", "paiju.progress_bar",
    "paiju.train.parser", "paiju.fuzz.parser", "paiju.tournament.parser", "paiju.ogd.command",
    "statistics", "socket",
)


def loaded_by(*args: str) -> set[str]:
    """The modules a `paiju ARGS` process holds when it ends (it must succeed)."""
    script = ("import sys\nfrom paiju.cli import main\nstatus = main(sys.argv[1:])\n"
              "print(*sorted(sys.modules), sep='\\n', file=sys.stderr)\nsys.exit(status)")
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stderr.split())


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_a_quiet_strict_simulate_loads_no_refereed_mode_view_effects_or_bar(game):
    loaded = loaded_by("simulate", game, "--deals", "1", "--quiet")
    assert f"{game}.deal" in loaded and "rich.console" in loaded   # it did play and print
    assert sorted(loaded & set(NOT_IN_A_STRICT_RUN)) == []


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_a_refereed_simulate_loads_refereed_mode_and_its_effects_on_first_use(game):
    loaded = loaded_by("simulate", game, "--deals", "1", "--quiet", "--referee", "--infractions", "0.05")
    assert {f"{game}.refereed.engine", f"{game}.refereed.effects", "tabletop.effects", "enforcement"} <= loaded


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_a_clean_refereed_simulate_loads_no_invariant_checker_view_or_sanction_words(game):
    loaded = loaded_by("simulate", game, "--deals", "1", "--quiet", "--referee")
    assert f"{game}.refereed.engine" in loaded and "enforcement.referee" in loaded   # it was refereed
    assert sorted(loaded & {f"enforcement.{game}_invariants", "enforcement.invariants", "tabletop.view",
                            f"{game}.view", "paiju.wording"}) == []


RULING_MACHINERY = ("enforcement.rulebook", "enforcement.ledger", "enforcement.listing", "enforcement.injector",
                    "enforcement.carried_out", "enforcement.irregularities", "tabletop.conditions", "tabletop.effects",
                    "difflib")
"""What only a ruling or an injected irregularity needs: the rulebook, the ledger, the table effects and
how they are carried out, the irregularity and interaction catalogues, and the injector."""


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_a_clean_refereed_simulate_loads_no_rulebook_ledger_catalogues_or_injector(game):
    loaded = loaded_by("simulate", game, "--deals", "2", "--quiet", "--referee", "--infractions", "0")
    assert f"{game}.refereed.engine" in loaded and "enforcement.referee" in loaded   # it was refereed
    assert sorted(loaded & {*RULING_MACHINERY, f"enforcement.{game}_rulings", f"{game}.refereed.effects",
                            f"enforcement.{game}_irregularities",
                            f"enforcement.{game}_interactions", f"enforcement.{game}_infractions"}) == []


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_a_run_with_infractions_loads_the_ruling_machinery(game):
    loaded = loaded_by("simulate", game, "--deals", "2", "--quiet", "--referee", "--infractions", "0.2")
    catalogue = "enforcement.injector" if game == "guandan" else "enforcement.shengji_infractions"
    assert {"enforcement.rulebook", "enforcement.ledger", "enforcement.injector", catalogue,
            f"enforcement.{game}_rulings", f"{game}.refereed.effects", "tabletop.effects"} <= loaded
