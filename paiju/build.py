"""Which build is running: the decision loop's modules compiled with mypyc, or pure Python.

``pip install .`` compiles ``COMPILED`` (setup.py reads this list) where a C compiler is at
hand; the same .py files are the pure build, so every rule has one source."""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

COMPILED = (
    "tabletop.cards", "tabletop.runner", "tabletop.log", "tabletop.rng",
    "guandan.deal", "guandan.movegen", "guandan.combos", "guandan.legal", "guandan.hand_plan",
    "guandan.observation",
    "shengji.follow", "shengji.tricks", "shengji.units", "shengji.throws",
)
"""The modules mypyc compiles. Left out, each for a reason found when compiling it:
``tabletop.events`` (its attrs event classes register themselves by a class attribute that
compiled classes turn into a slot), ``shengji.deal`` (``from_hands`` makes a deal without
``__init__``; as a Python class, the closures in its methods stop mypyc 2.4 with an internal
error), the agents (likewise, the closures of the heuristics' methods) and
``shengji.observation`` (observations are dict classes filled directly). The
classes of the compiled modules whose objects a deal or an environment snapshot holds (legal
actions, plays, seed sequences) stay Python classes (``native_class=False``): they
pickle, copy and take attributes as in the pure build; their methods are compiled."""


def compiled_modules() -> list[str]:
    """The modules of ``COMPILED`` that were imported from a compiled extension."""
    return [name for name in COMPILED
            if str(getattr(importlib.import_module(name), "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES))]


def description() -> str:
    """'compiled (mypyc): N modules' or 'pure Python', as ``paiju --version`` says."""
    count = len(compiled_modules())
    return f"compiled (mypyc): {count} modules" if count else "pure Python"
