"""The habits that keep the tree clean, checked with the suite (so `.ci/run` checks them):
ruff as configured in pyproject.toml (no unused import or name, every package function
annotated), and no import circle between the modules of the packages."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tabletop", "guandan", "shengji", "enforcement", "paiju")


def test_ruff_is_clean_on_the_whole_tree():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (it is in the test extra)")
    done = subprocess.run([ruff, "check", "--quiet", str(ROOT)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def _imports() -> dict[str, set[str]]:
    """Module → the package modules it imports at its top level (imports inside functions
    are deferred on purpose, to break a load-time cycle or to stay quick)."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
               for package in PACKAGES for p in (ROOT / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules]
                targets = subs if len(subs) == len(node.names) else [node.module, *subs]
            # a module of a package reaching its own package's __init__ only re-enters it
            found |= {t for t in targets if t in modules and t != name and not name.startswith(t + ".")}
        graph[name] = found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles, state, stack = [], {}, []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


def test_no_package_imports_upwards():
    order = {"tabletop": 0, "guandan": 1, "shengji": 1, "enforcement": 2, "paiju": 3}
    for module, imported in _imports().items():
        for target in imported:
            a, b = module.split(".")[0], target.split(".")[0]
            assert order[b] <= order[a] and not (order[a] == order[b] == 1 and a != b), f"{module} imports {target}"


def test_no_import_circle_at_load_time():
    assert _cycles(_imports()) == []
