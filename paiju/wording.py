"""A referee's language: how every view (terminal replay, HTML replay, trainer) says what a
ruling found, imposed and put right, and what a seat is asked to choose.

Cards are ♠A, 小王, 大王; seats are named, with 下家 / 对家 / 上家 relative to the offender (or
the chooser) where that helps; sanctions by their names (警告, 记违例, 罚分 10, 级差分 1, 单下,
双下 …) with an English gloss; table effects as what happens at the table; facts as labelled
findings (no ``key=value``). The Chinese term and the English words stand side by side, as
the views show everything else ("penalty 罚张", "barred 禁出一手").

Words every game shares are here; a game's own (its facts, combinations, choices) come from
its paiju part (``PaijuPart.words``, ``paiju.games``), its irregularities' from their records
(``enforcement.irregularities``). A fact, effect or
sanction no vocabulary knows is still said in words (its name spelt out), never as data."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from tabletop.cards import SUIT_SYMBOLS, SUITS

JOKERS = {"BJ": "小王", "RJ": "大王"}
_COMBINATION = re.compile(r"\b([A-Z][A-Z_]+)(?: ([0-9TJQKABR]+(?:x[0-9TJQKA]+)?))?\b")
"""A combination code inside a text ('PAIR 5 on PAIR K')."""
RELATIVE = {1: "下家", 2: "对家", 3: "上家"}
"""Where a seat sits from another's point of view (play goes to the 下家)."""


@attrs.frozen
class Fact:
    """How to say one fact: ``label`` (English 中文), the kind of its value, and for a flag
    the words for yes and no. ``judgement``: the referee's finding rather than what the table
    saw (the trainer keeps it from the trainee: it would give the ruling away)."""

    label: str
    kind: str = "text"
    """'seat', 'seats', 'card', 'cards', 'flag', 'number', 'counts' (one per seat), 'side',
    'per_side' (one per side), 'reading' (a combination code), 'suit', 'text'."""
    yes: str = ""
    no: str = ""
    judgement: bool = False


@attrs.frozen
class Words:
    """A game's own vocabulary (its paiju part's ``words``)."""

    facts: Mapping[str, Fact] = attrs.Factory(dict)
    combinations: Mapping[str, str] = attrs.Factory(dict)
    """Combination kind (SINGLE, BOMB …) → its name."""
    choices: Mapping[str, tuple[str, Mapping[str, str]]] = attrs.Factory(dict)
    """Choice purpose → (the question, with {seat} and {about}; option → what it means)."""
    values: Mapping[str, str] = attrs.Factory(dict)
    """A text fact's value (e.g. 'after_trick') → words."""
    about_seat: frozenset[str] = frozenset()
    """Choice purposes whose ``about`` is a seat (for the others it is an internal id)."""
    conditions: Mapping[str, tuple[str, str]] = attrs.Factory(dict)
    """A table condition (``tabletop.conditions``) → (English, 中文), for the fuzzer's report."""


NO_WORDS = Words()

SHARED_FACTS: dict[str, Fact] = {
    "cards": Fact("cards 牌", "cards"),
    "card": Fact("card 牌", "card"),
    "extra": Fact("the extra cards 多出的牌", "cards"),
    "rest": Fact("the rest 其余的牌", "cards"),
    "last_play": Fact("its last play 上一手", "cards"),
    "reading": Fact("played as 牌型", "reading"),
    "top": Fact("to beat 桌面最大", "reading"),
    "rightful": Fact("whose turn it was 应出牌方", "seat"),
    "responder": Fact("to answer it 应接牌方", "seat"),
    "to_act": Fact("whose turn it was 应出牌方", "seat"),
    "target": Fact("asked 被问方", "seat"),
    "leader": Fact("leader 首家", "seat"),
    "offender": Fact("offender 违例方", "seat"),
    "chooser": Fact("who chooses 选择方", "seat"),
    "winner": Fact("winning the trick 本轮大牌方", "seat"),
    "winning": Fact("winning so far 当前大牌方", "seat"),
    "taker": Fact("who took the cards 拿牌方", "seat"),
    "side": Fact("side 方", "number"),
    "offending_side": Fact("offending side 违例方", "number"),
    "note": Fact("what happened 情况"),
    "incident": Fact("incident 事件"),
    "phase": Fact("during 阶段"),
    "during": Fact("during 阶段"),
    "severity": Fact("severity 情节", judgement=True),
    "damaged": Fact("damage 损害", "flag", "the other side was damaged 造成损害", "no damage 未造成损害", judgement=True),
    "why_unresolved": Fact("why no clause fits 无条款", judgement=True),
    "leading": Fact("lead 首出", "flag", "it had the lead 首出", "following 跟牌"),
    "rest_legal": Fact("the rest 其余的牌", "flag", "the rest is a legal play 其余合规", "the rest is no legal play 其余不合规",
                       judgement=True),
    "rest_problem": Fact("what is wrong with the rest 其余问题"),
    "face_seen": Fact("face 牌面", "flag", "its face was seen 牌面被看到", "its face was not seen 牌面未被看到"),
    "counts": Fact("cards held 各家张数", "counts"),
    "count": Fact("count said 报数", "number"),
    "announced": Fact("count announced 报数", "number"),
    "minutes": Fact("minutes late 迟到分钟", "number"),
    "reason": Fact("why 原因"),
    "what": Fact("what 内容"),
}

SHARED_VALUES = {
    "minor": "minor 轻微", "serious": "serious 严重", "deliberate": "deliberate 故意", "suspension": "grave 停赛级",
    "play": "play 出牌", "draw": "the draw 抓牌", "sorting": "sorting 理牌", "burial": "burying 扣底",
    "information": "passing information 传递信息", "manner_of_play": "manner of play 出牌方式",
    "pass": "'pass' 不出", "beat": "'I beat it' 压制", "signing": "scoresheet not signed 未签字",
    "misconduct": "misconduct 不当行为",
    "old_tricks": "looking at old tricks 翻看已出牌", "repeated_misdraw": "repeated misdraws 多次抓错",
    "unreasonable_play": "unreasonable play 不合理出牌", "exposure_signalling": "signalling by exposure 亮牌示意",
}

SANCTION_TERMS: dict[str, tuple[str, str]] = {
    "Warning": ("警告", "warning"), "RecordedViolation": ("记违例", "recorded violation"),
    "PointPenalty": ("罚分", "point penalty"), "LevelDiffPenalty": ("扣级差分", "level difference"),
    "ForcedLast": ("判单下", "placed last"), "ForcedDoubleLast": ("判双下", "double last"),
    "MatchLoss": ("判负", "match loss"), "Suspension": ("停赛", "suspension"),
    "AdjustedScore": ("调整分", "adjusted score"),
}
"""Each sanction's term in the codes' words, and its short English name."""
_SANCTION_GLOSS = {"ForcedDoubleLast": "scored 1-2 for the other side", "MatchLoss": "loses the match",
                   "LevelDiffPenalty": "levels off its score", "PointPenalty": "points to the other side"}
SANCTIONS = {kind: f"{zh} {_SANCTION_GLOSS.get(kind, en)}" for kind, (zh, en) in SANCTION_TERMS.items()}
"""A sanction said whole: its term, then what it does ('判双下 scored 1-2 for the other side')."""

GAME_NAMES = {"guandan": ("掼蛋", "Guandan"), "shengji": ("双升", "Shengji")}

class _EffectTerms(dict):
    """Each table effect's name in the codes' words, and in English: the kinds both games use
    here; a game's own kind names itself (``TERM`` on its class, in its game's package)."""

    def __missing__(self, kind: str) -> tuple[str, str]:
        from tabletop.effects import effect_class

        own = effect_class(kind)
        term = getattr(own, "TERM", None) if own is not None else None
        if term is None:
            raise KeyError(kind)
        return term

    def get(self, kind: Any, default: Any = None) -> Any:
        try:
            return self[kind]
        except KeyError:
            return default


EFFECT_TERMS: dict[str, tuple[str, str]] = _EffectTerms({
    "Return": ("收回牌张", "cards taken back"),
    "RestoreOrder": ("恢复出牌顺序", "order restored"),
    "Expose": ("暴露张", "exposed cards"),
    "RandomDraw": ("任意抽取一张牌", "a card drawn at random"),
    "Redeal": ("重洗重抓", "redeal"),
    "Replay": ("收回重出", "plays taken back and made again"),
    "PlayStands": ("视为依序出牌，不再纠正", "the play stands"),
})




def words_for(game: str) -> Words:
    """The game's own vocabulary (none for a game without one)."""
    from paiju.games import paiju_part

    try:
        load = paiju_part(game).words
    except Exception:  # an unknown game: the shared words only
        return NO_WORDS
    return load() if load is not None else NO_WORDS


# ---------------------------------------------------------------------------------------------
# Cards and seats


def card_words(code: Any) -> str:
    """'♠A', '♥T', '小王' from a log code; anything else as it is."""
    text = str(code)
    if text in JOKERS:
        return JOKERS[text]
    if len(text) == 2 and text[0] in SUITS:
        return SUIT_SYMBOLS[SUITS.index(text[0])] + text[1]
    return text


def cards_words(codes: Iterable[Any]) -> str:
    return " ".join(card_words(c) for c in codes) or "none 无"


def suit_words(code: Any) -> str:
    if code is None:
        return "no trump 无主"
    text = str(code)
    return SUIT_SYMBOLS[SUITS.index(text)] if text in SUITS else text


def seat_words(seat: Any, anchor: int | None = None) -> str:
    """'seat 2', or 'seat 2 (下家)' from ``anchor``'s point of view; the anchor itself is
    'seat 1' (no label)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return "the stock 牌堆" if seat is None else str(seat)
    if anchor is None or seat == anchor:
        return f"seat {seat}"
    return f"seat {seat} ({RELATIVE[(seat - anchor) % 4]})"


def seats_words(seats: Iterable[Any], anchor: int | None = None) -> str:
    listed = [seat_words(s, anchor) for s in seats]
    return ", ".join(listed) if listed else "none 无"


def side_words(side: Any) -> str:
    return f"side {side} (seats {side}&{side + 2})" if isinstance(side, int) and not isinstance(side, bool) else str(side)


def reading_words(game: str, code: Any, words: Words | None = None) -> str:
    """A combination code ('BOMB 4xJ', 'PAIR Q', 'SINGLE RJ') in words: '炸弹 bomb 4×J'."""
    if not isinstance(code, str):
        return "nothing 无" if code is None else str(code)
    words = words or words_for(game)
    kind, _, rank = code.partition(" ")
    name = words.combinations.get(kind, kind.lower().replace("_", " "))
    rank = " ".join(card_words(r) if r in JOKERS or (len(r) == 2 and r[0] in SUITS) else r.replace("x", "×")
                    for r in rank.split())
    return f"{name} {rank}".strip()


# ---------------------------------------------------------------------------------------------
# Facts


def _fact(game: str, words: Words, key: str) -> Fact:
    return words.facts.get(key) or SHARED_FACTS.get(key) or Fact(key.replace("_", " "))


def is_judgement(game: str, key: str, words: Words | None = None) -> bool:
    return _fact(game, words or words_for(game), key).judgement


def value_words(game: str, fact: Fact, value: Any, anchor: int | None, words: Words) -> str:
    kind = fact.kind
    if kind == "flag" and isinstance(value, bool):
        return (fact.yes or "yes 是") if value else (fact.no or "no 否")
    if kind == "seat":
        return seat_words(value, anchor)
    if kind == "seats" and isinstance(value, (tuple, list)):
        return seats_words(value, anchor)
    if kind == "card":
        return card_words(value)
    if kind == "cards" and isinstance(value, (tuple, list)):
        return cards_words(value)
    if kind == "reading":
        return reading_words(game, value, words)
    if kind == "suit":
        return suit_words(value)
    if kind == "counts" and isinstance(value, (tuple, list)):
        return ", ".join(f"seat {s} {n}" for s, n in enumerate(value))
    if kind == "side":
        return side_words(value)
    if kind == "per_side" and isinstance(value, (tuple, list)):
        return ", ".join(f"{side_words(s)} {n}" for s, n in enumerate(value))
    return plain_words(value, words)


def plain_words(value: Any, words: Words = NO_WORDS) -> str:
    """Any value in words: booleans yes/no, card codes as cards, lists spaced."""
    if isinstance(value, bool):
        return "yes 是" if value else "no 否"
    if value is None:
        return "none 无"
    if isinstance(value, (tuple, list)):
        if value and all(isinstance(v, (tuple, list)) and len(v) == 2 and isinstance(v[0], str) for v in value):
            return "; ".join(f"{k.replace('_', ' ')}: {plain_words(v, words)}" for k, v in value)
        return " ".join(plain_words(v, words) for v in value) or "none 无"
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {plain_words(v, words)}" for k, v in value.items())
    text = str(value)
    if words.combinations and any(kind in text for kind in words.combinations):
        text = _COMBINATION.sub(lambda m: reading_words("", m.group(0), words) if m.group(1) in words.combinations
                                else m.group(0), text)
    if text in words.values:
        return words.values[text]
    if text in SHARED_VALUES:
        return SHARED_VALUES[text]
    if len(text) == 2 and text[0] in SUITS and text[1] in "23456789TJQKA" or text in JOKERS:
        return card_words(text)
    return text


def fact_list(game: str, facts: Any, anchor: int | None = None, hide_judgement: bool = False,
              skip: Iterable[str] = ()) -> list[str]:
    """Each fact as 'label: value'. ``facts``: (key, value) pairs or a mapping; a None value
    is left out; ``hide_judgement``: leave out the referee's findings (the trainer)."""
    words = words_for(game)
    pairs = facts.items() if isinstance(facts, Mapping) else facts or ()
    out = []
    skipped = set(skip)
    for key, value in pairs:
        if value is None or key in skipped:
            continue
        fact = _fact(game, words, str(key))
        if hide_judgement and fact.judgement:
            continue
        shown = value_words(game, fact, value, anchor, words)
        out.append(shown if fact.kind == "flag" and isinstance(value, bool) else f"{fact.label}: {shown}")
    return out


def facts_words(game: str, facts: Any, anchor: int | None = None, hide_judgement: bool = False,
                skip: Iterable[str] = ()) -> str:
    """The facts of a ruling or an irregularity on one line ('' for none)."""
    return "; ".join(fact_list(game, facts, anchor, hide_judgement, skip))


def irregularity_words(game: str, irregularity: Any) -> str:
    """What the seat did, from the irregularity's record ('plays out of turn 越序出牌'); an id
    without a record spelt out."""
    from enforcement.irregularities import irregularity_of

    text = str(irregularity or "")
    record = irregularity_of(game, text)
    return f"{record.en} {record.zh}" if record is not None else text.replace("_", " ")


_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def english_and_chinese(text: str) -> tuple[str, str]:
    """'plays out of turn 越序出牌' → ('plays out of turn', '越序出牌'): words said as English
    then the Chinese term, split where the Chinese starts ('' for none)."""
    found = _CJK.search(text)
    return (text, "") if found is None else (text[:found.start()].strip(), text[found.start():].strip())


# ---------------------------------------------------------------------------------------------
# Sanctions


def sanction_words(sanction: Any) -> str:
    """'警告 warning', '罚分 10 (10 points to the other side)', '扣 1 个级差分 (1 level off its score)',
    '判单下 placed last' … from a sanction's dict (``Sanction.to_dict``)
    or its kind: the one place every view (replay, trainer, summaries, `paiju rules`) takes
    a sanction's words from."""
    if not isinstance(sanction, Mapping):
        return SANCTIONS.get(str(sanction), str(sanction))
    kind = str(sanction.get("kind"))
    n = sanction.get("n")
    if kind == "PointPenalty":
        return f"罚分 {n} ({n} points to the other side)"
    if kind == "LevelDiffPenalty":
        return f"扣 {n} 个级差分 ({n} level{'s' if n != 1 else ''} off its score)"
    if kind == "AdjustedScore":
        parts = [f"{sanction[k]} {k}" for k in ("levels", "points") if sanction.get(k)]
        change = ", ".join(parts) if parts else "no change"
        note = f"; {sanction['note']}" if sanction.get("note") else ""
        return f"调整分 adjusted score ({change} to the other side{note})"
    name = SANCTIONS.get(kind) or _spelt(kind)
    remark = sanction.get("note")
    return f"{name} ({remark})" if remark else name


_SANCTION_NAME = re.compile(r"\b(" + "|".join(SANCTIONS) + r")\b(?:\((\d*)\))?")
"""A sanction's kind inside a text ('scored as ForcedDoubleLast', 'PointPenalty(10)')."""


def sanctions_named(text: str) -> str:
    """``text`` with each sanction kind in it said by its term ('scored as ForcedDoubleLast'
    → 'scored as 判双下 (double last)'; 'LevelDiffPenalty(1)' → '扣 1 个级差分 (level difference)')."""
    def said(m: re.Match[str]) -> str:
        kind, n = m.group(1), m.group(2)
        term, gloss = SANCTION_TERMS[kind]
        if n and kind == "LevelDiffPenalty":
            term = f"扣 {n} 个级差分"
        elif n:
            term = f"{term} {n}"
        return f"{term} ({gloss})"
    return _SANCTION_NAME.sub(said, text)


def imposed_words(row: Any, anchor: int | None = None) -> str:
    """A ruling's sanction row (``Imposed.to_dict``): who pays what, under which clause."""
    if not isinstance(row, Mapping):
        return plain_words(row)
    seat, side = row.get("seat"), row.get("side")
    who = seat_words(seat) if seat is not None else side_words(side)
    clause = f" [{row['clause']}]" if row.get("clause") else ""
    cause = f" ({row['cause']})" if row.get("cause") else ""
    return f"{who}: {sanction_words(row.get('sanction'))}{clause}{cause}"


def _spelt(kind: str) -> str:
    """'NoTributeNextDeal' → 'no tribute next deal'."""
    out: list[str] = []
    for ch in kind:
        if ch.isupper() and out:
            out.append(" ")
        out.append(ch.lower())
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Table effects (rectifications)


def effect_words(game: str, effect: Any, anchor: int | None = None) -> str:
    """What a table effect (``TableEffect.to_dict``) does at the table, in words."""
    if not isinstance(effect, Mapping):
        return plain_words(effect)
    words = words_for(game)
    e = dict(effect)
    kind = str(e.get("kind"))

    def seat(key: str = "seat") -> str:
        return seat_words(e.get(key), anchor)

    own = _own_words(game, e, anchor)
    if own is not None:
        return own
    cs = cards_words(e.get("cards") or ())
    if kind == "Return":
        # where to depends on the action (a draw: the stock; a play or a tribute: its giver's hand)
        return f"收回牌张 {seat()}'s {cs} taken back" if e.get("seat") is not None else f"收回牌张 {cs} taken back"
    if kind == "Expose":
        return f"暴露张 {seat()}'s {cs} lie face up"
    if kind == "RandomDraw":
        n = e.get("count", 1)
        return (f"抽牌 {seat('to')} draws {n} card{'s' if n != 1 else ''} at random from "
                f"{seat('source') if e.get('source') is not None else 'the stock 牌堆'}")
    if kind == "Redeal":
        return "重洗重抓 redeal" + (" with a fresh deck" if e.get("fresh_deck") else "")
    if kind == "Replay":
        who = seats_words(e.get("seats") or (), anchor)
        if e.get("chooser") is not None:
            return (f"收回重出 {who} may each take back its play of this round and play again; each is asked "
                    f"in play order, {seat('chooser')} first")
        return f"收回重出 {who} may take back their plays and play again"
    if kind == "RestoreOrder":
        return f"恢复出牌顺序 order restored: {seat()} to act"
    if kind == "PlayStands":
        reading = f" as {reading_words(game, e['reading'], words)}" if e.get("reading") else ""
        return f"视为依序出牌 {seat()}'s cards stand as played{reading}"
    rest = ", ".join(f"{k.replace('_', ' ')} {plain_words(v, words)}" for k, v in e.items() if k != "kind")
    return _spelt(kind) + (f": {rest}" if rest else "")


class _SayEnglish:
    """How a game's own table effect names what its words mention (``tabletop.effects.Say``)."""

    def __init__(self, game: str, anchor: int | None) -> None:
        self.game, self.anchor = game, anchor

    def seat(self, value: Any) -> str:
        return seat_words(value, self.anchor)

    def seats(self, values: Iterable[Any]) -> str:
        return seats_words(values, self.anchor)

    def cards(self, codes: Iterable[str]) -> str:
        return cards_words(codes)

    def combination(self, kind: str) -> str:
        return words_for(self.game).combinations.get(kind, kind.lower())

    def lead_option_menu(self, what: str) -> str:
        return lead_option_menu(self.game, what)

    def effect(self, effect: Any) -> str:
        return effect_words(self.game, effect.to_dict(), self.anchor)


def _own_words(game: str, effect: Mapping[str, Any], anchor: int | None) -> str | None:
    """The words a game's own table effect says of itself (None: a shared kind, or none
    that decodes)."""
    from tabletop.effects import TableEffect

    try:
        return TableEffect.from_dict(dict(effect)).words(_SayEnglish(game, anchor))
    except ValueError:
        return None


def lead_option_menu(game: str, what: str) -> str:
    """GD-2.3.1's three options about a combination kind, a/b/c."""
    words = words_for(game)
    meanings = words.choices.get("lead_option", ("", {}))[1]
    return "; ".join(f"{letter}) {meanings.get(option, option).format(what=what)}"
                     for letter, option in zip("abc", ("forbid", "require", "free"), strict=True))


# ---------------------------------------------------------------------------------------------
# Choices


def choice_words(game: str, seat: int, purpose: str, options: Iterable[str], about: int | None,
                 what: str = "") -> str:
    """A seat asked to choose: the question and each option with what it means. ``about``:
    the seat the choice is about (None: not known)."""
    words = words_for(game)
    question, meanings = words.choices.get(purpose, ("", {}))
    who = seat_words(seat, about) if about is not None else seat_words(seat)
    target = seat_words(about) if about is not None else "a seat"
    head = (question.format(seat=who, about=target, what=what) if question
            else f"{who} chooses {purpose.replace('_', ' ')}" + (f" about {target}" if target else ""))
    menu = "; ".join(f"{chr(97 + k)}) {option_words(game, purpose, o, what)}" for k, o in enumerate(options))
    return f"{head}: {menu}"


def option_words(game: str, purpose: str, option: str, what: str = "") -> str:
    words = words_for(game)
    meanings = words.choices.get(purpose, ("", {}))[1]
    if option in meanings:
        return meanings[option].format(what=what)
    if option in words.combinations:
        return words.combinations[option]
    if " " in option:
        return reading_words(game, option, words)
    return card_words(option) if len(option) == 2 else option.replace("_", " ")


# ---------------------------------------------------------------------------------------------
# The same in Chinese alone (the trainer: Chinese first, English by its toggle)


def seat_zh(seat: Any, anchor: int | None = None) -> str:
    """'2号位', or '2号位（下家）' seen from ``anchor``."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return "牌堆"
    if anchor is None or seat == anchor:
        return f"{seat}号位"
    return f"{seat}号位（{RELATIVE[(seat - anchor) % 4]}）"


def seats_zh(seats: Iterable[Any], anchor: int | None = None) -> str:
    return "、".join(seat_zh(s, anchor) for s in seats) or "无"


def _cards(codes: Any) -> str:
    return cards_words(codes or ()) or ""


class _SayChinese:
    """How a game's own table effect names what its Chinese words mention (``tabletop.effects.Say``)."""

    def __init__(self, anchor: int | None) -> None:
        self.anchor = anchor

    def seat(self, value: Any) -> str:
        return seat_zh(value, self.anchor)

    def seats(self, values: Iterable[Any]) -> str:
        return seats_zh(values, self.anchor)

    def cards(self, codes: Iterable[str]) -> str:
        return _cards(codes)

    def combination(self, kind: str) -> str:
        return kind

    def lead_option_menu(self, what: str) -> str:
        return "a）不得领出该牌型 b）必须领出该牌型 c）自由领出"

    def effect(self, effect: Any) -> str:
        return effect_zh(effect.to_dict(), self.anchor)


def _own_words_zh(effect: Mapping[str, Any], anchor: int | None) -> str | None:
    """The Chinese a game's own table effect says of itself (None: a shared kind, or none
    that decodes)."""
    from tabletop.effects import TableEffect

    try:
        return TableEffect.from_dict(dict(effect)).words_zh(_SayChinese(anchor))
    except ValueError:
        return None


def effect_zh(effect: Mapping[str, Any], anchor: int | None = None) -> str:
    """What a table effect (``TableEffect.to_dict``) does, in the codes' words."""
    e = dict(effect)
    kind = str(e.get("kind"))
    own = _own_words_zh(e, anchor)
    if own is not None:
        return own
    term = EFFECT_TERMS.get(kind, (kind, ""))[0]
    seat = seat_zh(e.get("seat"), anchor) if "seat" in e else ""
    cards = _cards(e.get("cards"))
    if kind == "Return":
        return f"收回牌张：{cards} 退回{seat}".rstrip()
    if kind == "Expose":
        return f"暴露张：{seat}的 {cards} 摊在桌上"
    if kind == "RestoreOrder":
        return f"恢复出牌顺序：由{seat}出牌"
    if kind == "RandomDraw":
        source = seat_zh(e.get("source"), anchor) if e.get("source") is not None else "牌堆"
        return f"抽牌：{seat_zh(e.get('to'), anchor)}从{source}任意抽取 {e.get('count', 1)} 张"
    if kind == "Replay":
        return f"收回重出：{seats_zh(e.get('seats') or (), anchor)}可以收回重出"
    return f"{term}：{seat}".rstrip("：") if seat else term


def sanction_zh(sanction: Any) -> str:
    """'罚分 10', '扣级差分 1', '判双下' … from a sanction's dict or key ('PointPenalty(10)')."""
    if isinstance(sanction, Mapping):
        kind, n = str(sanction.get("kind")), sanction.get("n")
    else:
        kind, _, rest = str(sanction).partition("(")
        n = rest.rstrip(")") or None
    term = SANCTION_TERMS.get(kind, (kind, ""))[0]
    return f"{term} {n}" if n is not None else term


def imposed_zh(row: Mapping[str, Any], anchor: int | None = None) -> str:
    who = seat_zh(row["seat"], anchor) if row.get("seat") is not None else f"{row.get('side')}方"
    return f"{who}：{sanction_zh(row.get('sanction'))}"


_DIGITS = "零一二三四五六七八九"


def chinese_number(n: int) -> str:
    """1 → 一, 10 → 十, 12 → 十二, 20 → 二十 (the seeds' numbering, up to 99)."""
    if n < 10:
        return _DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _DIGITS[tens]) + "十" + (_DIGITS[ones] if ones else "")


def seed_number(clause_id: str) -> str:
    """Where a clause stands in its seed: GD-2.3.1 → 二、3（1）; GD-1.1.3b → 一、1（3）b;
    SJ-1.3 → 第一条（三）; SJ-3.1.10.2 → 第三条 一、（十）2."""
    prefix, _, rest = clause_id.partition("-")
    parts = rest.split(".")
    if prefix == "GD":
        out = chinese_number(int(parts[0])) + "、"
        if len(parts) > 1:
            out += parts[1]
        if len(parts) > 2:
            number = re.match(r"(\d+)(\D*)", parts[2])
            out += f"（{number.group(1)}）{number.group(2)}" if number else parts[2]
        return out
    out = f"第{chinese_number(int(parts[0]))}条"
    levels = [int(p) for p in parts[1:] if p.isdigit()]
    if parts[0] == "3" and levels:            # 第三条 has sections (一、二、) before its items
        if levels[0] == 0:
            return out
        out += f" {chinese_number(levels[0])}、"
        levels = levels[1:]
    if levels:
        out += f"（{chinese_number(levels[0])}）"
    if len(levels) > 1:
        out += str(levels[1])
    return out
