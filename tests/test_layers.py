"""Facts in the engine, decisions in the referee (issue 27 item 2): the game packages name no
clause of the rulebooks. A clause id ("GD-2.3.1", "SJ-3.1.10", or one built in an f-string)
as a string literal in ``guandan/`` or ``shengji/`` is a rule decision or a clause's words in
the engine; the referee (``enforcement``) says which clause applies. Comments and docstrings
may cite a clause to say why code exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE_PACKAGES = ("guandan", "shengji")
CLAUSE_ID = re.compile(r"\b(GD|SJ)-\d")
_FORMATTED = "0"
"""What an f-string's formatted value reads as: ``f"GD-{n}"`` names a clause too."""


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else _FORMATTED
                       for v in node.values)
    return None


def clause_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string literal or f-string in ``source`` that names a clause id,
    docstrings (a string standing alone as a statement) left out."""
    tree = ast.parse(source)
    standalone = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    # an f-string's parts are read with it, as one text
    standalone |= {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    found = []
    for node in ast.walk(tree):
        text = _text(node)
        if text is not None and id(node) not in standalone and CLAUSE_ID.search(text):
            found.append((getattr(node, "lineno", 0), text))
    return found


def test_no_clause_id_literal_in_the_game_packages():
    found = [f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
             for package in ENGINE_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for line, text in clause_literals(path.read_text(encoding="utf-8"))]
    assert not found, "clause ids in the engine (the referee names clauses):\n" + "\n".join(found)


def test_the_check_finds_literals_and_f_strings_but_not_comments_or_docstrings():
    source = '''
"""Module docstring citing GD-6."""
# a comment citing GD-2.3.1
def f(n):
    """Docstring citing SJ-1.5."""
    a = "GD-2.3.2: the play stands"
    b = f"GD-4.2.{n}"
    c = f"SJ-{n}"
    d = "no clause: GD-x, pass"
    return a, b, c, d
'''
    assert [line for line, _ in clause_literals(source)] == [6, 7, 8]


# ---------------------------------------------------------------------------------------------
# A typed table API (issue 27 item 3): the refereed features use the deal's public primitives

TABLE_PACKAGES = ("guandan", "shengji", "enforcement", "tabletop")
TABLE_OBJECTS = {"deal", "d", "match", "table", "t", "engine"}
"""Names the code gives a deal, a match or a deal's refereed table."""


def private_reaches(source: str) -> list[tuple[int, str]]:
    """(line, text) of each ``x._name`` where ``x`` is a deal, match or table object held by
    another module's code (a name of ``TABLE_OBJECTS``, or an attribute ``….deal`` /
    ``….table`` / ``….match``): a private member reached from outside its class."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
            continue
        owner = node.value
        name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else None
        if name in TABLE_OBJECTS:
            found.append((node.lineno, f"{name}.{node.attr}"))
    return found


def test_no_refereed_code_reaches_a_private_member_of_a_deal_match_or_table():
    found = [f"{path.relative_to(ROOT)}:{line}: {text}"
             for package in TABLE_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for line, text in private_reaches(path.read_text(encoding="utf-8"))]
    assert not found, "private members reached across modules (make them public primitives):\n" + "\n".join(found)


def test_the_private_reach_check_finds_deal_and_table_members_but_not_own_ones():
    source = '''
class Deal:
    def f(self):
        return self._cache
def g(deal, plan):
    deal._legal = None
    plan.match._force_result((0, 1, 2, 3))
    return deal.table._grab, deal.public, deal.__class__
'''
    assert private_reaches(source) == [(6, "deal._legal"), (7, "match._force_result"), (8, "table._grab")]


DEAL_ANY = re.compile(r"\bdeal: Any\b")
NOT_YET_TYPED: frozenset[str] = frozenset()
"""The modules whose functions still take ``deal: Any``: none — the refereed features and the
invariant checkers take their game's ``Deal``, which mypy checks. The list only shrinks."""


def test_no_deal_is_typed_any_outside_the_modules_not_yet_typed():
    untyped = {str(path.relative_to(ROOT)) for package in TABLE_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
               if DEAL_ANY.search(path.read_text(encoding="utf-8"))}
    assert not untyped - NOT_YET_TYPED, f"'deal: Any' in a typed module: {sorted(untyped - NOT_YET_TYPED)}"
    assert not NOT_YET_TYPED - untyped, f"typed now, take off NOT_YET_TYPED: {sorted(NOT_YET_TYPED - untyped)}"


# ---------------------------------------------------------------------------------------------
# An agent reads the table and acts; it does not write the engine (a search plays on a deal
# the deal itself makes: ``Deal.from_observation``)

AGENT_MODULES = ("guandan/agents.py", "shengji/agents.py", "paiju/search", "paiju/envs/policy.py",
                 "paiju/agent_specs.py", "paiju/ogd/seats.py", "enforcement/injector.py")
"""The modules that hold agents (``act(observation, legal_actions)``)."""


def engine_writes(source: str) -> list[tuple[int, str]]:
    """(line, text) of each assignment (plain, augmented, annotated or ``del``) to an attribute
    of a deal, match or table object (a name of ``TABLE_OBJECTS``, or an attribute ``….deal``
    / ``….table`` / ``….match``), or to an item of one: ``deal.turn = …``,
    ``deal.hands[s][c] += 1``. A mutating method call (``deal.passed.append``) is not seen."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        while targets:
            target = targets.pop()
            if isinstance(target, (ast.Tuple, ast.List)):
                targets.extend(target.elts)
                continue
            while isinstance(target, (ast.Subscript, ast.Starred)):
                target = target.value
            if not isinstance(target, ast.Attribute):
                continue
            owner = target.value
            name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else None
            if name in TABLE_OBJECTS:
                found.append((target.lineno, f"{name}.{target.attr}"))
    return sorted(found)


def _agent_files() -> list[Path]:
    return sorted(path for module in AGENT_MODULES
                  for path in ([ROOT / module] if module.endswith(".py") else (ROOT / module).rglob("*.py")))


def test_no_agent_writes_an_attribute_of_a_deal_match_or_table():
    files = _agent_files()
    assert len(files) >= len(AGENT_MODULES)   # every module listed is there
    found = [f"{path.relative_to(ROOT)}:{line}: {text}" for path in files
             for line, text in engine_writes(path.read_text(encoding="utf-8"))]
    assert not found, "agents writing the engine (use or add a public primitive of the deal):\n" + "\n".join(found)


def test_the_engine_write_check_finds_writes_to_a_deal_but_not_reads_or_own_state():
    source = '''
def deal_at(obs, hands, player, self):
    deal = Deal.from_hands(hands, obs.level, obs.seat)
    deal.turn = obs.seat
    deal.hands[2][5] += 1
    deal.top, deal.passed = obs.top, []
    world.deal.trick_number: int = 3
    del deal.table.oot
    player.memory.played = list(obs.played)
    self.deal = deal
    seen = deal.turn
    return deal
'''
    assert engine_writes(source) == [(4, "deal.turn"), (5, "deal.hands"), (6, "deal.passed"), (6, "deal.top"),
                                     (7, "deal.trick_number"), (8, "table.oot")]
