"""Handlers every game's replay table shares: the referee's rulings (``ref.ruling``,
``ref.unresolved``), irregular attempts and their discovery, notes, and the conventions by
which a kind without a handler still shows up (see ``by_convention``):

- ``cards`` and a kind containing "expose" (not "lift"): the cards lie face up in front of
  ``seat``, still its own; "lift": they go back among its concealed cards;
- ``cards`` and a kind containing "penalty": penalty cards of ``seat`` (exposed too);
- a ``ref.*`` kind with ``clause`` (or ``fallback``): a ruling for the ruling panel;
- anything else: described from its payload.

An irregular attempt lays on the table the cards a ``laid`` fact names (card codes), else
the action's ``cards`` + ``extra`` for Play and PlayWithExtra, its ``card`` for GiveTribute
and ReturnCard (what the engines lay)."""

from __future__ import annotations

from typing import Any

from paiju.replay.table import BY_CODE, Handler, Seat, Table, card, cards, cards_text, seat_of, take
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
    """A kind without a handler: the payload conventions of the module docstring."""
    kind = event.KIND
    payload = getattr(event, "cards", None)
    if isinstance(payload, tuple) and event.seat is not None and payload and all(isinstance(c, str) for c in payload):
        seat = table.seats[seat_of(event.seat)]
        cs = cards(payload)
        if "expose" in kind and "lift" in kind:
            take(seat.exposed, cs)
            take(seat.penalty, cs)
        elif "penalty" in kind:
            expose(seat, cs)
            seat.penalty.extend(cs)
        elif "expose" in kind:
            expose(seat, cs)
    if kind.startswith("ref.") and (hasattr(event, "clause") or hasattr(event, "fallback")):
        return add_ruling(table, event)
    return describe_payload(event)


def back_to_hand(table: Table, s: int, cs: list[Card]) -> None:
    """Cards go back into seat ``s``'s hand: from the table in front of it, else from its
    play in the middle (a play taken back), else from wherever they were."""
    seat = table.seats[s]
    for c in cs:
        if c in seat.on_table:
            seat.on_table.remove(c)
        else:
            for entry in reversed(table.pile.entries):
                if entry.seat == s and entry.cards and c in entry.cards:
                    rest = list(entry.cards)
                    rest.remove(c)
                    entry.cards = tuple(rest)
                    break
        seat.hand.append(c)
    table.pile.entries = [e for e in table.pile.entries if e.cards is None or e.cards]


def expose(seat: Seat, cs: list[Card]) -> None:
    """Cards lie face up in front of the seat, in its hand (back from the table first)."""
    seat.pick_up(cs)
    seat.exposed.extend(c for c in cs if seat.exposed.count(c) < cs.count(c))


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
    if event.seat is not None:
        seat = table.seats[seat_of(event.seat)]
        seat.lay(laid)
        if laid:
            seat.laid_at = event.seq
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
    about = getattr(event, "about", None)
    table.choosing[seat_of(event.seat)] = about
    about_seat, what = _chosen_about(table, event.seat, str(event.purpose), about)
    options = tuple(getattr(event, "options", ()))
    text = choice_words(table.game, seat_of(event.seat), str(event.purpose), options, about_seat, what)
    table.seats[seat_of(event.seat)].choice = "to choose 待选择: " + " / ".join(
        option_words(table.game, str(event.purpose), o, what).split(":")[0] for o in options)
    return text


def _chosen_about(table: Table, seat: Any, purpose: str, about: Any) -> tuple[int | None, str]:
    """(the seat a choice is about, the words for what it is about): a lead option's from the
    table (its ``about`` is the exposure's number); a choice about a seat, that seat."""
    if purpose == "lead_option":
        option = next((o for o in table.lead_options if o.uid == about and o.chooser == seat), None)
        if option is not None:
            return option.restricted, table.option_about(option)
        # not on this table (a log cut short): the seat is still known, the chooser's 上家 (GD-2.3.1)
        return (seat_of(seat) - 1) % 4, "the exposed cards' combination 暴露张牌型"
    return (seat_of(about) if purpose in words_for(table.game).about_seat else None), ""


def chose(table: Table, event: Event) -> str:
    """``table.chose``: the choice made (a lead option's a) or b) ends it; after c) it is
    offered again at the restricted seat's next lead)."""
    assert isinstance(event, ChoiceMade)   # registered for that kind only
    table.seats[seat_of(event.seat)].choice = None
    about = table.choosing.pop(seat_of(event.seat), None)
    about_seat, what = _chosen_about(table, event.seat, str(event.purpose), about)
    if event.purpose == "lead_option" and event.option != "free":
        table.lead_options = [o for o in table.lead_options if o.uid != about]
    said = option_words(table.game, str(event.purpose), str(event.option), what)
    return f"{seat_words(event.seat, about_seat)} chooses {said}"


def note_handler(table: Table, event: Event) -> str:
    return f"note: {getattr(event, 'text', '')}"


GENERIC_HANDLERS: dict[str, Handler] = {"note": note_handler, "ref.ruling": add_ruling, "ref.unresolved": add_ruling,
                                         "table.choice": choice, "table.chose": chose}
