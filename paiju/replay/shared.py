"""Handlers every game's replay table shares: the referee's rulings (``ref.ruling``,
``ref.unresolved``), irregular attempts and their discovery, choices, notes, and the way a
kind without a handler still shows up (``by_convention``: a ``ref.*`` kind with ``clause``
or ``fallback`` is a ruling for the ruling panel; anything else is described from its
payload). Where the cards are is the engine's (``Table.facts``); an irregular attempt's
place in the record (``Table.laid_at``) is the seq that laid the cards a ``laid`` fact names,
else the action's ``cards`` + ``extra`` for Play and PlayWithExtra, its ``card`` for
GiveTribute and ReturnCard."""

from __future__ import annotations

from typing import Any

from paiju.replay.table import BY_CODE, Handler, Table, card, cards, cards_text, seat_of
from paiju.wording import (
    choice_words, effect_words, facts_words, imposed_words, irregularity_words, option_words, reading_words, seat_words,
    words_for,
)
from tabletop.cards import Card
from tabletop.table_events import ChoiceMade, ChoiceOffered
from tabletop.events import Event


def describe_payload(event: Event) -> str:
    """A kind without a handler: its payload, readably."""
    data = event.to_dict()
    for key in ("kind", "deal", "seq", "seat"):
        data.pop(key, None)
    parts = []
    for key, value in data.items():
        if key in ("cards", "attempted", "forced", "returned") and isinstance(value, tuple) and all(v in BY_CODE for v in value):
            parts.append(f"{key} {cards_text(card(v) for v in value)}")
        else:
            parts.append(f"{key}={plain(value)}")
    who = f"seat {event.seat}: " if event.seat is not None else ""
    return f"{who}{event.KIND}" + (" " + ", ".join(parts) if parts else "")


def plain(value: Any) -> str:
    if isinstance(value, tuple):
        if all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) for v in value) and value:
            return "{" + ", ".join(f"{k}={plain(v)}" for k, v in value) + "}"
        return "[" + " ".join(plain(v) for v in value) + "]"
    if isinstance(value, dict):
        kind = value.get("kind")
        rest = ", ".join(f"{k}={plain(v)}" for k, v in value.items() if k != "kind")
        return f"{kind}({rest})" if kind else "{" + rest + "}"
    return str(value)


def by_convention(table: Table, event: Event) -> str:
    """A kind without a handler: the conventions of the module docstring."""
    kind = event.KIND
    payload = getattr(event, "cards", None)
    if isinstance(payload, tuple) and event.seat is not None and payload and all(isinstance(c, str) for c in payload):
        cards(payload)   # a bad card code is a corrupt event
    if kind.startswith("ref.") and (hasattr(event, "clause") or hasattr(event, "fallback")):
        return add_ruling(table, event)
    return describe_payload(event)


def back_to_hand(table: Table, s: int, cs: list[Card]) -> None:
    """Cards go back into seat ``s``'s hand (the engine's): those that did not lie on the
    table in front of it come out of its play in the middle (a play taken back)."""
    lying = list(table.on_table_before(s))
    for c in cs:
        if c in lying:
            lying.remove(c)
        else:
            for entry in reversed(table.pile.entries):
                if entry.seat == s and entry.cards and c in entry.cards:
                    rest = list(entry.cards)
                    rest.remove(c)
                    entry.cards = tuple(rest)
                    break
    table.pile.entries = [e for e in table.pile.entries if e.cards is None or e.cards]


def add_ruling(table: Table, event: Event) -> str:
    """``ref.ruling`` / ``ref.unresolved`` (and any ``ref.*`` with a clause): the ruling panel."""
    from enforcement.rulebook import UnknownClause, clause as lookup

    unresolved = not hasattr(event, "clause")
    clause_id = getattr(event, "fallback", None) if unresolved else getattr(event, "clause", None)
    try:
        entry = lookup(str(clause_id))
        title, text_zh, summary = entry.title, entry.text_zh, entry.summary
    except UnknownClause:
        title, text_zh, summary = "(not in this rulebook)", "", ""
    offender = getattr(event, "offender", event.seat)
    record = {
        "seq": event.seq,
        "kind": "unresolved" if unresolved else "ruling",
        "clause": str(clause_id),
        "title": title,
        "text_zh": text_zh,
        "summary": summary,
        "said": getattr(event, "summary", "") or getattr(event, "note", ""),
        "offender": offender,
        "irregularity": irregularity_words(table.game, getattr(event, "irregularity", "")),
        "answers": getattr(event, "answers", None),
        "facts": facts_words(table.game, getattr(event, "facts", ()), offender),
        "rectification": [effect_words(table.game, e, offender) for e in getattr(event, "rectification", ())],
        "sanctions": [imposed_words(s, offender) for s in getattr(event, "sanctions", ())],
    }
    table.rulings.append(record)
    who = f"seat {offender}" if offender is not None else "the table"
    if unresolved:
        return f"UNRESOLVED: {who} {record['irregularity']}; no clause fits, fallback {clause_id} ({title})"
    return f"RULING {clause_id} on {who}: {title}"


LAYING_ACTIONS = {"Play": ("cards",), "PlayWithExtra": ("cards", "extra"), "GiveTribute": ("card",),
                  "ReturnCard": ("card",)}
"""Irregular attempts whose cards the engines lay on the table (the rest stay in the hand)."""


def _codes(value: Any) -> tuple[Any, ...]:
    """An action's card field as card codes: a tuple of them, one code, or none."""
    return value if isinstance(value, tuple) else (value,) if isinstance(value, str) else ()


def irregular(table: Table, event: Event) -> str:
    """An irregular attempt (``Irregular``: ``irregularity``, ``facts``, ``action`` as
    (name, value) pairs): its cards go on the table in front of the seat, as the engines lay
    them — a ``laid`` fact (card codes) says which, else the action's cards by its type."""
    action = {str(k): v for k, v in getattr(event, "action", ())}
    facts = dict(getattr(event, "facts", ()))
    what = str(action.get("type", "?"))
    if isinstance(facts.get("laid"), tuple):
        laid = cards(facts["laid"])
    else:
        laid = []
        for name in LAYING_ACTIONS.get(what, ()):
            value = action.get(name)
            laid.extend(cards(value) if isinstance(value, tuple) else [card(value)] if isinstance(value, str) else [])
    if event.seat is not None and laid:
        table.laid_at[seat_of(event.seat)] = event.seq
    shown = [c for name in ("cards", "extra", "card") for c in _codes(action.get(name))]
    visible = table.sees(event.seat) or what not in ("Bury", "Draw", "DrawOutOfTurn")
    detail = f" {cards_text(card(c) for c in shown)}" if shown and visible else ""
    reading = f" ({reading_words(table.game, action['reading'])})" if action.get("reading") else ""
    later = " (nobody noticed yet)" if getattr(event, "latent", False) else ""
    facts_text = facts_words(table.game, getattr(event, "facts", ()), event.seat, table.hide_judgement,
                             skip=("cards", "laid", "reading"))
    return (f"IRREGULAR seat {event.seat} {irregularity_words(table.game, getattr(event, 'irregularity', '?'))}:"
            f" {_spelt_action(what)}{detail}{reading}" + (f" [{facts_text}]" if facts_text else "") + later)


def _spelt_action(name: str) -> str:
    """'PlayWithExtra' → 'play with extra' (the action the seat took)."""
    return "".join(f" {ch.lower()}" if ch.isupper() and k else ch.lower() for k, ch in enumerate(name))


def found(table: Table, event: Event) -> str:
    facts = facts_words(table.game, getattr(event, "facts", ()), event.seat, table.hide_judgement)
    return (f"irregularity found: seat {event.seat} {irregularity_words(table.game, getattr(event, 'irregularity', '?'))}"
            f" (seq {getattr(event, 'answers', '?')})" + (f" [{facts}]" if facts else ""))


def choice(table: Table, event: Event) -> str:
    """``table.choice``: a seat asked to choose (a lead option: the one its ``about`` names)."""
    assert isinstance(event, ChoiceOffered)   # registered for that kind only
    about_seat, what = _chosen_about(table, event.seat, str(event.purpose), getattr(event, "about", None))
    options = tuple(getattr(event, "options", ()))
    return choice_words(table.game, seat_of(event.seat), str(event.purpose), options, about_seat, what)


def choice_flag(table: Table, seat: int) -> str:
    """The seat's flag while the engine waits for its choice ('' : none)."""
    offered = table.facts.choice if table.facts is not None else None
    if offered is None or offered.seat != seat:
        return ""
    _, what = _chosen_about(table, seat, offered.purpose, offered.about)
    text = "to choose 待选择: " + " / ".join(
        option_words(table.game, offered.purpose, o, what).split(":")[0] for o in offered.options)
    if table.chinese:
        from paiju.replay.chinese import option_zh
        table.say_zh(text, "待选择：" + " / ".join(option_zh(table.game, offered.purpose, o) for o in offered.options))
    return text


def option_about(table: Table, option: Any, facts: Any = None) -> str:
    """What a lead option (``tabletop.view.PendingOption``) is about: the combination, and the
    exposed cards still on the table (``facts``: that table; the engine's after the step)."""
    combination = reading_words(table.game, option.kind)
    facts = table.facts if facts is None else facts
    exposure = next((x for x in facts.exposures if x.uid == option.exposure), None) if facts is not None else None
    return f"{combination} ({cards_text(exposure.cards)})" if exposure is not None else combination


def option_about_zh(table: Table, option: Any) -> str:
    """``option_about`` in Chinese: '三带二 3（♠3 ♥3 ♣3 ♠5 ♥5）'."""
    from paiju.replay.chinese import reading_zh

    combination = reading_zh(table.game, option.kind)
    facts = table.facts
    exposure = next((x for x in facts.exposures if x.uid == option.exposure), None) if facts is not None else None
    return f"{combination}（{cards_text(exposure.cards)}）" if exposure is not None else combination


def _pending_option(table: Table, seat: Any, about: Any, first: Any, then: Any) -> tuple[Any, Any]:
    """The lead option ``seat`` chooses on (exposure ``about``) and the engine's table it is
    on: ``first``, else ``then``; (None, None) when on neither."""
    for facts in (first, then):
        if facts is None:
            continue
        for s in getattr(facts, "seats", ()):
            for option in getattr(s, "options", ()):
                if option.exposure == about and option.chooser == seat:
                    return option, facts
    return None, None


def _chosen_about(table: Table, seat: Any, purpose: str, about: Any, made: bool = False) -> tuple[int | None, str]:
    """(the seat a choice is about, the words for what it is about): a lead option's from the
    engine's table (its ``about`` is the exposure's number: after the step, or for a choice
    ``made``, before it); a choice about a seat, that seat."""
    if purpose == "lead_option":
        first, then = (table.before, table.facts) if made else (table.facts, table.before)
        option, facts = _pending_option(table, seat, about, first, then)
        if option is not None:
            return option.seat, option_about(table, option, facts)
        # not on this table (a log cut short): the seat is still known, the chooser's 上家 (GD-2.3.1)
        return (seat_of(seat) - 1) % 4, "the exposed cards' combination 暴露张牌型"
    return (seat_of(about) if purpose in words_for(table.game).about_seat and about is not None else None), ""


def _choice_about(table: Table, seat: int) -> Any:
    """What the choice ``seat`` just made was about (the engine's choice before the step)."""
    offered = table.before.choice if table.before is not None else None
    return offered.about if offered is not None and offered.seat == seat else None


def chose(table: Table, event: Event) -> str:
    """``table.chose``: the choice made (a lead option's a) or b) ends it; after c) it is
    offered again at the restricted seat's next lead)."""
    assert isinstance(event, ChoiceMade)   # registered for that kind only
    about_seat, what = _chosen_about(table, event.seat, str(event.purpose), _choice_about(table, seat_of(event.seat)),
                                     made=True)
    said = option_words(table.game, str(event.purpose), str(event.option), what)
    return f"{seat_words(event.seat, about_seat)} chooses {said}"


def note_handler(table: Table, event: Event) -> str:
    return f"note: {getattr(event, 'text', '')}"


GENERIC_HANDLERS: dict[str, Handler] = {"note": note_handler, "ref.ruling": add_ruling, "ref.unresolved": add_ruling,
                                         "table.choice": choice, "table.chose": chose}
