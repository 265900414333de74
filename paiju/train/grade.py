"""A trainee's answer, read and graded against the referee's ruling, and explained.

Answer format (one line)::

    CLAUSE [; RECTIFICATION [; SANCTIONS]]

    GD-2.3.1
    GD-2.3.1; expose, bar, lead option; none
    SJ-3.1.3; ; PointPenalty(10)
    gd-4.2.4; no tribute; 单下

- CLAUSE: a clause id, case-insensitive (``gd-2.3.1``).
- RECTIFICATION: table-effect kinds, separated by ``,`` or ``+``, in any order and any
  case, with or without spaces (``lead option`` = ``LeadOption``), or a few short and
  Chinese names (``bar`` / 禁出一手, 暴露张, 罚张, ``no tribute``, 收回重出 …); ``none`` for none.
- SANCTIONS: sanction kinds the same way: ``Warning`` (警告), ``RecordedViolation`` (记违例),
  ``PointPenalty(10)`` (罚分), ``LevelDiffPenalty(1)`` (级差分), ``ForcedLast`` (单下),
  ``ForcedDoubleLast`` (双下), ``MatchLoss`` (判负), ``Suspension`` (停赛), ``AdjustedScore``
  (调整分); ``none`` for none. A count may be left out (``PointPenalty`` = any count).
- An empty part (``SJ-3.1.3; ; PointPenalty(10)``) or a missing one is not graded.

Grading:

- ``right``: the clause is the ruling's, and every part given is right;
- ``partly right``: the clause is the ruling's but a part given is wrong, or the clause is
  a section above the ruling's (``GD-2.3`` for ``GD-2.3.1``: the right family, not the
  sub-clause);
- ``wrong``: any other clause; ``unanswered``: no answer.

A sanctions part is right when it names exactly the kinds the ruling imposed
(escalations included; 'none' when it imposed nothing). A rectification part is right
when every kind it names is among the ruling's table effects and it leaves out none of
them except ``Return`` and ``RestoreOrder`` (taking an attempt back and restoring the
order is implied by undoing it, so naming them is optional); 'none' is right only when
the ruling had no table effect but plays standing as made (``PlayStands`` alone, GD-2.3.2's
不再纠正: nothing is put right). The score counts the clauses named exactly.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import attrs

from paiju.train.scenarios import Expected, Scenario
from tabletop.errors import PaijuError

RIGHT = "right"
PARTLY = "partly right"
WRONG = "wrong"
UNANSWERED = "unanswered"
VERDICTS = (RIGHT, PARTLY, WRONG, UNANSWERED)

IMPLIED_EFFECTS = frozenset({"Return", "RestoreOrder", "PlayStands"})
"""Table effects an answer may leave out: undoing an attempt implies them, and what is
not undone of a play stands."""
NONE_WORDS = frozenset({"none", "no", "nothing", "-", "无", "没有"})
SKIP_WORDS = frozenset({"", "skip"})


class AnswerError(PaijuError):
    """An answer that cannot be read (an unknown clause id or word)."""


def _norm(word: str) -> str:
    """Lower case, full-width forms folded, no spaces, '_' or '-'."""
    text = unicodedata.normalize("NFKC", word).lower()
    return re.sub(r"[\s_\-]+", "", text)


def _effect_names() -> dict[str, str]:
    from tabletop.games import table_effect_kinds

    names = {_norm(k): k for k in table_effect_kinds()}
    aliases = {
        "bar": "BarOnePlay", "禁出一手": "BarOnePlay", "expose": "Expose", "exposed": "Expose", "exposure": "Expose",
        "暴露张": "Expose", "暴露": "Expose", "penalty": "PenaltyCards", "penaltycard": "PenaltyCards",
        "罚张": "PenaltyCards", "option": "LeadOption", "abc": "LeadOption", "退回": "Return", "takenback": "Return",
        "restore": "RestoreOrder", "order": "RestoreOrder", "恢复顺序": "RestoreOrder", "correct": "CorrectPlay",
        "correction": "CorrectPlay", "改正": "CorrectPlay", "draw": "RandomDraw", "抽牌": "RandomDraw",
        "重洗重抓": "Redeal", "重洗": "Redeal", "重新抓牌": "Redeal", "notribute": "NoTributeNextDeal", "不进贡": "NoTributeNextDeal",
        "nextdeal": "NextDealProcedure", "收回重出": "Replay", "takeback": "Replay", "report": "ReportAgain",
        "重报": "ReportAgain", "lots": "LotsDraw", "抽签": "LotsDraw", "losedeclaration": "LoseDeclarationRight",
        "unauthorizedinformation": "UnauthorisedInformation", "ui": "UnauthorisedInformation",
        "information": "UnauthorisedInformation", "rebury": "RedoBury", "retribute": "RedoTribute",
        "passes": "PassSequence", "sequence": "PassSequence",
    }
    return names | {_norm(k): v for k, v in aliases.items()}


def _sanction_names() -> dict[str, str]:
    from tabletop.effects import Sanction, kinds

    names = {_norm(k): k for k in kinds(Sanction)}
    aliases = {
        "警告": "Warning", "warn": "Warning", "violation": "RecordedViolation", "记违例": "RecordedViolation",
        "违例": "RecordedViolation", "points": "PointPenalty", "point": "PointPenalty", "罚分": "PointPenalty",
        "levels": "LevelDiffPenalty", "level": "LevelDiffPenalty", "leveldiff": "LevelDiffPenalty",
        "levelpenalty": "LevelDiffPenalty", "级差分": "LevelDiffPenalty", "扣级差分": "LevelDiffPenalty",
        "last": "ForcedLast", "单下": "ForcedLast", "判下游": "ForcedLast", "判单下": "ForcedLast",
        "doublelast": "ForcedDoubleLast", "双下": "ForcedDoubleLast", "判双下": "ForcedDoubleLast",
        "判负": "MatchLoss", "loss": "MatchLoss", "停赛": "Suspension", "adjusted": "AdjustedScore",
        "调整分": "AdjustedScore",
    }
    return names | {_norm(k): v for k, v in aliases.items()}


_COUNTED = re.compile(r"^(.*?)\s*(?:[(（]\s*(\d+)\s*[)）]|\s(\d+))?$")


@attrs.frozen
class Answer:
    """A trainee's answer, read. ``rectification`` / ``sanctions`` are None when not given.
    Read leniently (an answers file), a part that cannot be read keeps its error instead
    (``problems``: part name → message) and is graded wrong."""

    text: str
    clause: str
    rectification: frozenset[str] | None = None
    sanctions: frozenset[str] | None = None
    """Sanction keys: 'Warning', 'PointPenalty(10)', or 'PointPenalty' (any count)."""
    problems: tuple[tuple[str, str], ...] = ()

    def problem(self, part: str) -> str | None:
        return next((message for name, message in self.problems if name == part), None)


def _words(part: str) -> list[str]:
    return [w.strip() for w in re.split(r"[,，+、]", part) if w.strip()]


def _read_effects(part: str) -> frozenset[str] | None:
    if not part.strip():
        return None
    words = _words(part)
    if len(words) == 1 and _norm(words[0]) in NONE_WORDS:
        return frozenset()
    names = _effect_names()
    out = set()
    for word in words:
        kind = names.get(_norm(word))
        if kind is None:
            raise AnswerError(f"unknown rectification {word!r} (table effects: {', '.join(sorted(set(names.values())))})")
        out.add(kind)
    return frozenset(out)


def _read_sanctions(part: str) -> frozenset[str] | None:
    if not part.strip():
        return None
    words = _words(part)
    if len(words) == 1 and _norm(words[0]) in NONE_WORDS:
        return frozenset()
    names = _sanction_names()
    out = set()
    for word in words:
        match = _COUNTED.match(unicodedata.normalize("NFKC", word).strip())
        name, count = (match.group(1), match.group(2) or match.group(3)) if match else (word, None)
        kind = names.get(_norm(name))
        if kind is None:
            raise AnswerError(f"unknown sanction {word!r} (sanctions: {', '.join(sorted(set(names.values())))}, none)")
        out.add(f"{kind}({int(count)})" if count else kind)
    return frozenset(out)


def _clause_ids() -> dict[str, str]:
    from enforcement.rulebook import RULEBOOK

    return {cid.lower(): cid for cid in RULEBOOK}


def parse_answer(text: str, lenient: bool = False) -> Answer | None:
    """An answer line, read; None for no answer (an empty line, 'skip'). An unknown clause
    id or word is an AnswerError; ``lenient`` keeps it in ``Answer.problems`` instead (the
    part is then graded wrong)."""
    from enforcement.rulebook import UnknownClause, clause

    line = unicodedata.normalize("NFKC", text).strip()
    if _norm(line) in SKIP_WORDS:
        return None
    parts = [p.strip() for p in line.split(";")]
    if len(parts) > 3:
        raise AnswerError(f"{text.strip()!r}: at most three parts, CLAUSE; RECTIFICATION; SANCTIONS")
    parts += [""] * (3 - len(parts))
    if not parts[0]:
        raise AnswerError(f"{text.strip()!r}: the clause comes first (e.g. GD-2.3.1)")
    problems = []
    try:
        cited = _clause_ids().get(parts[0].lower()) or clause(parts[0]).id
    except UnknownClause as exc:
        if not lenient:
            raise AnswerError(str(exc)) from None
        cited = parts[0]
        problems.append(("clause", str(exc)))
    read: dict[str, frozenset[str] | None] = {}
    for name, part, reader in (("rectification", parts[1], _read_effects), ("sanctions", parts[2], _read_sanctions)):
        try:
            read[name] = reader(part)
        except AnswerError as exc:
            if not lenient:
                raise
            read[name] = frozenset()
            problems.append((name, str(exc)))
    return Answer(line, cited, read["rectification"], read["sanctions"], tuple(problems))


# ---------------------------------------------------------------------------------------------
# Grading


@attrs.frozen
class Grade:
    verdict: str
    clause_right: bool
    rectification_right: bool | None
    """None: not given."""
    sanctions_right: bool | None
    remarks: tuple[str, ...]
    """What was right or wrong about the answer, one remark per part."""


def _ancestors(clause_id: str) -> list[str]:
    from enforcement.rulebook import RULEBOOK

    out = []
    parent = RULEBOOK[clause_id].parent if clause_id in RULEBOOK else None
    while parent is not None:
        out.append(parent)
        parent = RULEBOOK[parent].parent
    return out


def sanctions_match(given: frozenset[str], expected: tuple[str, ...]) -> bool:
    """Exactly the kinds imposed; a kind given without a count matches any count."""
    want = set(expected)
    if len(given) != len(want):
        return False
    left = set(want)
    for key in sorted(given, key=lambda k: "(" not in k):   # counted ones first
        hit = key if key in left else next((w for w in sorted(left) if "(" not in key and w.split("(")[0] == key), None)
        if hit is None:
            return False
        left.discard(hit)
    return not left


NO_RECTIFICATION = frozenset({"PlayStands"})
"""Table effects that put nothing right (a play standing as made): a ruling with only these
has no rectification, so 'none' answers it rightly."""


def effects_match(given: frozenset[str], expected: tuple[str, ...]) -> bool:
    want = set(expected)
    if not want - NO_RECTIFICATION and not given:
        return True
    if not want:
        return not given
    return bool(given) and given <= want and (want - IMPLIED_EFFECTS) <= given


def grade(expected: Expected, answer: Answer | None) -> Grade:
    if answer is None:
        return Grade(UNANSWERED, False, None, None, ("no answer",))
    remarks = []
    exact = answer.clause == expected.clause
    section = not exact and answer.clause in _ancestors(expected.clause)
    if exact:
        remarks.append(f"clause {answer.clause}: right")
    elif section:
        remarks.append(f"clause {answer.clause}: the right section, but the ruling cites its sub-clause {expected.clause}")
    elif answer.problem("clause"):
        remarks.append(f"clause: {answer.problem('clause')}; the ruling cites {expected.clause}")
    elif _other_game(answer.clause, expected.clause):
        remarks.append(f"clause {answer.clause}: {_other_game(answer.clause, expected.clause)}; "
                       f"the ruling cites {expected.clause}")
    else:
        remarks.append(f"clause {answer.clause}: wrong, the ruling cites {expected.clause}")
    rect_right = None
    if answer.problem("rectification"):
        rect_right = False
        remarks.append(f"rectification: {answer.problem('rectification')}")
    elif answer.rectification is not None:
        rect_right = effects_match(answer.rectification, expected.rectification)
        remarks.append(_part_remark("rectification", rect_right, answer.rectification, expected.rectification,
                                    optional=IMPLIED_EFFECTS))
    sanctions_right = None
    if answer.problem("sanctions"):
        sanctions_right = False
        remarks.append(f"sanctions: {answer.problem('sanctions')}")
    elif answer.sanctions is not None:
        sanctions_right = sanctions_match(answer.sanctions, expected.sanctions)
        remarks.append(_part_remark("sanctions", sanctions_right, answer.sanctions, expected.sanctions))
    parts_right = rect_right is not False and sanctions_right is not False
    if exact:
        verdict = RIGHT if parts_right else PARTLY
    else:
        verdict = PARTLY if section else WRONG
    return Grade(verdict, exact, rect_right, sanctions_right, tuple(remarks))


def _other_game(given: str, expected: str) -> str:
    """'a 双升 clause, and this is a 掼蛋 deal' when the clause given is the other game's ('' if not)."""
    from enforcement.rulebook import RULEBOOK
    from tabletop.games import game_spec

    if given not in RULEBOOK or expected not in RULEBOOK or RULEBOOK[given].game == RULEBOOK[expected].game:
        return ""
    return (f"a {game_spec(RULEBOOK[given].game).title} clause, and this is a "
            f"{game_spec(RULEBOOK[expected].game).title} deal")


def why(graded: Grade) -> str:
    """Why an answer is not right, for its verdict line: the remarks on what was wrong."""
    if graded.verdict in (RIGHT, UNANSWERED):
        return ""
    return "; ".join(r for r in graded.remarks if not r.endswith(": right"))


def unreadable(message: str) -> Grade:
    """The grade of an answer with no readable clause."""
    return Grade(WRONG, False, None, None, (f"unreadable answer: {message}",))


def _part_remark(name: str, right: bool, given: frozenset[str], expected: tuple[str, ...],
                 optional: frozenset[str] = frozenset()) -> str:
    shown = ", ".join(sorted(given)) or "none"
    if right:
        return f"{name} {shown}: right"
    want = ", ".join(expected) or "none"
    extra = sorted(k for k in given if k.split("(")[0] not in {e.split("(")[0] for e in expected})
    missing = [k for k in expected if k not in optional and k.split("(")[0] not in {g.split("(")[0] for g in given}]
    detail = []
    if missing:
        detail.append("missing " + ", ".join(missing))
    if extra:
        detail.append("not in the ruling: " + ", ".join(extra))
    if not detail:
        detail.append("counts differ")
    return f"{name} {shown}: wrong ({'; '.join(detail)}); the ruling: {want}"


# ---------------------------------------------------------------------------------------------
# Explanation


def explanation(scenario: Scenario) -> list[str]:
    """What the clause says and what the referee did, as lines of plain text."""
    from enforcement.rulebook import UnknownClause, clause

    e = scenario.expected
    try:
        entry = clause(e.clause)
        head = [f"{entry.id} {entry.title}", entry.text_zh, entry.summary]
    except UnknownClause:
        head = [f"{e.clause} (not in this rulebook)"]
    from paiju.wording import irregularity_words

    who = f"seat {e.offender}" if e.offender is not None else (f"side {e.side}" if e.side is not None else "nobody")
    where = f" at {e.irregular}" if e.irregular else ""
    what = irregularity_words(scenario.game, e.irregularity) if e.irregularity else "a reported incident"
    lines = head + [f"The referee ruled on {who}{where}: {what}" + (f" [{e.facts}]" if e.facts else "")]
    if e.unresolved:
        lines.append(e.note[:1].upper() + e.note[1:])
    lines.append("Rectification: " + ("; ".join(e.effects) if e.effects else "none"))
    lines.append("Sanctions: " + ("; ".join(e.sanction_texts) if e.sanction_texts else "none"))
    return lines


def result_record(number: int, scenario: Scenario, answer_text: str | None, answer: Answer | None,
                  graded: Grade) -> dict[str, Any]:
    """One scenario of a report."""
    return {
        "number": number, **scenario.key(),
        "answer": answer_text, "given_clause": answer.clause if answer else None,
        "verdict": graded.verdict, "clause_right": graded.clause_right,
        "rectification_right": graded.rectification_right, "sanctions_right": graded.sanctions_right,
        "remarks": list(graded.remarks),
        "explanation": explanation(scenario),
    }
