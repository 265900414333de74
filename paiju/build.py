"""Which build is running: the decision loop's modules compiled with mypyc, or pure Python.

``pip install .`` compiles ``COMPILED`` (setup.py reads this list) where a C compiler is at
hand; the same .py files are the pure build, so every rule has one source."""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

COMPILED = (
    "tabletop.cards", "tabletop.runner", "tabletop.log",
    "guandan.deal", "guandan.combos", "guandan.hand_plan", "guandan.observation", "guandan.movegen",
    "guandan.legal",
    "shengji.deal", "shengji.follow", "shengji.tricks", "shengji.units", "shengji.throws",
)
"""The modules mypyc compiles. A class of theirs that must behave as a Python class (a subclass
of int, an interning ``__new__``, a deal whose state the take-back restores through its
``__dict__`` and which environment snapshots pickle) says ``mypyc_attr(native_class=False)``:
its methods are compiled all the same. Move generation's hand and plays and the legal actions
are native classes: they pickle and copy through their own ``__reduce__`` (a deal keeps its
legal actions; an environment's snapshot pickles the deal). Left out, each for a reason found
when compiling it (mypyc 2.4): ``tabletop.events`` (its attrs event classes register
themselves by a class attribute that compiled classes turn into a slot); ``tabletop.rng``
(its seed sequence derives from numpy's ``ISeedSequence``, an ABC whose metaclass conflicts
with mypyc's); ``shengji.choices`` (its lazy choices subclass ``Choices``, a ``Sequence``: the
same conflict); the agents (as Python classes, the closures in the heuristics' methods stop
mypyc with an internal error; as native ones, snapshots pickle the agents);
``shengji.observation`` (observations are dict classes filled directly)."""


def compiled_modules() -> list[str]:
    """The modules of ``COMPILED`` that were imported from a compiled extension."""
    return [name for name in COMPILED
            if str(getattr(importlib.import_module(name), "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES))]


def description() -> str:
    """'compiled (mypyc): N modules' or 'pure Python', as ``paiju --version`` says."""
    count = len(compiled_modules())
    return f"compiled (mypyc): {count} modules" if count else "pure Python"
