"""The two builds of the same source: the decision loop compiled with mypyc (``pip install .``
with a C compiler) and pure Python. Whatever build runs these tests, the pure one is a copy of
the installed packages without their extension modules; where the running build is compiled,
both must write the same log, byte for byte, for any seed (strict deals, and refereed deals
with injected irregularities)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop
from paiju.build import COMPILED, compiled_modules, description

ROOT = Path(tabletop.__file__).resolve().parent.parent
PACKAGES = ("tabletop", "guandan", "shengji", "enforcement", "paiju")


@pytest.fixture(scope="module")
def pure_tree(tmp_path_factory):
    """The project's packages as .py files only (no compiled extension beside them)."""
    tree = tmp_path_factory.mktemp("pure")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    return tree


def _paiju(tree: Path | None, *args: str) -> subprocess.CompletedProcess:
    """``paiju ARGS`` in a fresh process: from ``tree`` (first on the path), or as installed."""
    env = None
    if tree is not None:
        env = dict(os.environ, PYTHONPATH=str(tree))
    code = "import sys; from paiju.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd="/", timeout=300)


def test_the_pure_tree_runs_no_compiled_module(pure_tree):
    done = _paiju(pure_tree, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("(pure Python)")


def test_version_names_the_running_build():
    compiled = compiled_modules()
    assert set(compiled) <= set(COMPILED)
    assert description() == (f"compiled (mypyc): {len(compiled)} modules" if compiled else "pure Python")


needs_compiled = pytest.mark.skipif(not compiled_modules(), reason="pure build: no compiled module to compare "
                                    "(`pip install .` with a C compiler builds them)")


@needs_compiled
@settings(max_examples=8)
@given(seed=st.integers(0, 2**31 - 1), game=st.sampled_from(["guandan", "shengji"]),
       refereed=st.booleans(), matches=st.booleans())
def test_compiled_and_pure_builds_write_the_same_log(pure_tree, tmp_path_factory, seed, game, refereed, matches):
    logs = tmp_path_factory.mktemp("logs")
    unit = ["--matches", "1"] if matches else ["--deals", "3"]
    extra = ["--referee", "--infractions", "0.05"] if refereed else []
    written = []
    for name, tree in (("compiled", None), ("pure", pure_tree)):
        log = logs / f"{name}.jsonl"
        done = _paiju(tree, "simulate", game, *unit, "--seed", str(seed), "--quiet", "--log", str(log), *extra)
        assert done.returncode == 0, done.stderr
        written.append(log.read_bytes())
    assert written[0] == written[1]
