"""The layout of ``paiju/`` (README, "What is in the box"): its modules import each other in
no circle, its capabilities are layered ``sim`` ← ``replay`` ← ``train``, ``fuzz`` ← ``cli`` and
``sim`` ← ``ogd`` ← ``tournament`` ← ``cli``, and nothing below the application imports it. Every import
counts, deferred ones too (a function-level import is still an edge: it only moves the circle
to run time)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOWER = ("tabletop", "guandan", "shengji", "enforcement")

# What each capability may import from paiju, besides itself and the top-level modules
# (games.py): the layering of the README, from the bottom up.
MAY_IMPORT = {
    "sim": set(),
    "replay": {"sim"},
    "train": {"sim", "replay"},
    "fuzz": {"sim", "replay"},
    "tournament": {"sim", "ogd"},
    "ogd": {"sim"},
}


def _modules(package: str) -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that the file imports, anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
    return out


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


PAIJU = _modules("paiju")
GRAPH = {name: _imports(path, PAIJU) - {name} for name, path in PAIJU.items()}


def _capability(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in MAY_IMPORT else None


def test_the_layout_is_read_from_the_tree():
    assert {"paiju.cli", "paiju.sim.batch", "paiju.replay.check", "paiju.train.grade", "paiju.fuzz.case"} <= set(PAIJU)
    assert "paiju.sim.batch" in GRAPH["paiju.replay.check"]  # deferred and module-level imports both seen
    assert "paiju.replay.check" in GRAPH["paiju.fuzz.case"]


def test_no_import_circles_in_paiju():
    assert _circles(GRAPH) == []


def test_capabilities_import_only_those_below_them():
    wrong = []
    for module, targets in GRAPH.items():
        own = _capability(module)
        if own is None:
            continue
        for target in targets:
            other = _capability(target)
            if target == "paiju.cli" or (other not in (None, own) and other not in MAY_IMPORT[own]):
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_nothing_below_the_application_imports_it():
    wrong = []
    for package in LOWER:
        for name, path in _modules(package).items():
            wrong += [f"{name} -> {target}" for target in sorted(_imports(path, PAIJU))]
    assert wrong == []


def test_the_circle_check_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
