"""The worker processes the ``*_compare`` benchmarks pair: one long-lived Python process per
source tree (its own ``PYTHONPATH``), which prints ``ready`` once warmed, then answers each
line ``FIRST COUNT`` on its stdin with one JSON line of what it measured on those units."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def start_worker(tree: str, code: str, *args: str) -> subprocess.Popen:
    """``python -c code args…`` with ``tree`` first on the path, once it says it is ready."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    proc = subprocess.Popen([sys.executable, "-c", code, *args], env=env, cwd="/", text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def run_block(proc: subprocess.Popen, first: int, count: int) -> dict[str, Any]:
    """The worker's measures of units ``first`` … ``first + count - 1``."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{first} {count}\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def named_trees(specs: list[str]) -> list[tuple[str, str]]:
    """``PATH`` or ``NAME=PATH`` per tree; unnamed, two trees are "old" and "new", more are
    named by their directory."""
    if len(specs) < 2:
        raise SystemExit("give at least two trees")
    out = []
    for i, spec in enumerate(specs):
        name, sep, path = spec.partition("=")
        if not sep:
            name, path = (("old", "new")[i] if len(specs) == 2 else os.path.basename(os.path.abspath(spec))), spec
        out.append((name, path))
    return out
