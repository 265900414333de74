"""The OGD messages of one game, made from a paiju 掼蛋 match engine and its events
as OGD's server sends them. Pure: no sockets here.

``Narrator`` follows the match's events and answers with the ``notify`` messages each
seat gets (``beginning``, ``anti-tribute``, ``tribute``, ``back``, ``play``,
``episodeOver``), reporting -- as OGD does -- the top play *before* the action in
``notify play`` (``-1`` and PASS when the action leads). ``act_message`` is the request
sent to the seat that must decide, with OGD's fields for its stage.

Differences from OGD that a bot can see (paiju's default rules; ``--rules preset=ogd``
sets OGD's): the first deal of a game is led by the drawer of the face-up card, not always
seat 0; an equal double tribute is paid and led as paiju's rules say. The ``actionList``
lists every legal play with every choice of suits (as OGD does), PASS first when the seat
may pass, and each legal tribute or return card once. With ``moves="ogd"`` it lists them
as OGD does instead (``MOVE_LISTS``): its two reading quirks and every return card twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guandan import events as ev
from guandan.actions import GiveTribute, Pass, Play, ReturnCard
from guandan.combos import Kind, Reading, readings
from guandan.movegen import legal_plays
from guandan.observation import Observation
from tabletop.cards import Card, as_cards
from tabletop.events import Event
from tabletop.seats import NUM_SEATS, team

from paiju.ogd.codec import (
    KIND_TO_TYPE, PASS_ACTION, action_to_ogd, card_to_ogd, cards_to_ogd, rank_to_ogd, reading_rank_to_ogd,
)

STAGE_OF_ACTION = {Play: "play", Pass: "play", GiveTribute: "tribute", ReturnCard: "back"}
"""The OGD stage of a decision, by the type of its legal actions; other decisions (a
refereed table's choices and steps) have no OGD form."""
ANSWER_TYPE = {"play": "PLAY", "tribute": "TRIBUTE", "back": "PAYTRIBUTE"}
"""The message type that answers an act of each stage."""
HAND_SIZE = 27


def notify(stage: str, **fields: Any) -> dict[str, Any]:
    return {"type": "notify", "stage": stage, **fields}


def reply(kind: str, data: dict[str, Any], ok: bool = True) -> dict[str, Any]:
    return {"type": kind, "code": 200 if ok else -1, "data": data}


def error(kind: str, message: str, **data: Any) -> dict[str, Any]:
    return reply(kind, {"msg": message, **data}, ok=False)


def stage_of(legal: Sequence[Any]) -> str | None:
    return STAGE_OF_ACTION.get(type(legal[0])) if len(legal) else None


def play_of(cards: Sequence[Any], reading: Any) -> list[Any]:
    return [KIND_TO_TYPE[reading.kind], reading_rank_to_ogd(reading), cards_to_ogd(as_cards(cards))]


MOVE_LISTS = ("paiju", "ogd")
"""How an ``actionList`` is made: 'paiju' every reading the rules give; 'ogd' as OGD's
server lists them -- a same-suit run of five cards only as StraightFlush (never also as
Straight), five level-rank cards only as a Bomb (never also as ThreeWithTwo), and each
return card twice. Those are OGD's two reading quirks and its doubled return list: the
readings left out stay legal, only unlisted."""


def ogd_lists(entry: list[Any]) -> bool:
    """Whether OGD's server lists this play entry (its two reading quirks)."""
    kind, _, cards = entry
    if kind == "Straight":
        return len({card[0] for card in cards}) > 1
    if kind == "ThreeWithTwo":
        return len({card[1] for card in cards}) > 1
    return True


def action_list(stage: str, observation: Observation, legal: Sequence[Any], rules: Any,
                moves: str = "paiju") -> list[list[Any]]:
    """OGD's ``actionList``: for play, PASS first when allowed, then every legal play with
    every choice of suits, restricted to the readings the engine offers (a refereed table's
    lead restrictions act on readings); ``moves`` as ``MOVE_LISTS`` says."""
    if stage != "play":
        entries = [action_to_ogd(a) for a in legal]
        if moves == "ogd" and stage == "back":
            return [entry for entry in entries for _ in range(2)]
        return entries
    seat = observation.seat
    out: list[list[Any]] = []
    allowed = set()
    for action in legal:
        if type(action) is Pass:
            out.append(list(PASS_ACTION))
        else:
            allowed.add(action.reading)
    top = observation.top
    top_reading = None if top is None or top.seat == seat else top.reading
    for move in legal_plays(observation.hand, top_reading, observation.level, expand_suits=True, rules=rules):
        if move.reading in allowed:
            entry = play_of(move.cards, move.reading)
            if moves != "ogd" or ogd_lists(entry):
                out.append(entry)
    return out


def reading_to_ogd(reading: Reading) -> str:
    """A reading in OGD's words: 'Single A', 'Straight 4', 'Bomb 5 (6 cards)', 'FourKings'."""
    name = KIND_TO_TYPE[reading.kind]
    if reading.kind is Kind.JOKER_BOMB:
        return name
    text = f"{name} {reading_rank_to_ogd(reading)}"
    return f"{text} ({reading.size} cards)" if reading.kind is Kind.BOMB else text


def explain(found: Any, action: Any, deal: Any, rules: Any) -> str:
    """Why ``action`` is refused (``found``: the engine's ``Illegality``), in OGD's names
    (``HR`` not ``RJ``, ``Single A`` not ``SINGLE A``), for the bot that sent it."""
    code = found.code
    if code == "cards_not_in_hand":
        cards = action.cards if type(action) is Play else [action.card]
        held = list(deal.hand(action.seat))
        missing = []
        for card in cards:
            if card in held:
                held.remove(card)
            else:
                missing.append(card)
        return f"cards not in hand: {' '.join(cards_to_ogd(missing or cards))}"
    if code == "pass_on_lead":
        return "the leader may not pass: play one of the actionList"
    if type(action) is Play and code in ("wrong_kind", "unreadable", "does_not_beat"):
        shown = " ".join(cards_to_ogd(action.cards))
        found_readings = readings(action.cards, deal.level, rules)
        if not found_readings:
            return f"not a combination: {shown}"
        if action.reading not in found_readings:
            return (f"{shown} is not {reading_to_ogd(action.reading)} "
                    f"(it reads as {', '.join(reading_to_ogd(r) for r in found_readings)})")
        top = deal.top
        if top is not None and code in ("wrong_kind", "does_not_beat"):
            return f"{reading_to_ogd(action.reading)} does not beat {reading_to_ogd(top.reading)} (seat {top.seat})"
    if code in ("wrong_tribute", "wrong_return"):
        allowed = found.facts.get("required" if code == "wrong_tribute" else "allowed") or ()
        what = "tribute" if code == "wrong_tribute" else "return"
        return (f"{card_to_ogd(action.card)} is not a legal {what} "
                f"(one of: {' '.join(card_to_ogd(Card(c)) for c in allowed)})")
    return str(found.message).replace("BJ", "SB").replace("RJ", "HR")


def act_message(stage: str, observation: Observation, legal: Sequence[Any], levels: Sequence[int],
                rules: Any, *, rest: Sequence[int], last: tuple[int, list[Any] | None],
                tribute_from: tuple[int, Any] | None = None, moves: str = "paiju") -> dict[str, Any]:
    """The ``act`` for ``observation.seat``. ``levels``: both teams' levels (rank indices);
    ``rest``: every seat's card count; ``last``: the previous seat's play (-1, None after
    a pass or at a lead); ``tribute_from``: (payer, card) for a return; ``moves``: how
    the ``actionList`` is made (``MOVE_LISTS``)."""
    seat = observation.seat
    actions = action_list(stage, observation, legal, rules, moves)
    message: dict[str, Any] = {
        "type": "act", "stage": stage,
        "handCards": cards_to_ogd(observation.hand),
        "selfRank": rank_to_ogd(levels[team(seat)]), "oppoRank": rank_to_ogd(levels[1 - team(seat)]),
        "curRank": rank_to_ogd(observation.level),
        "actionList": actions, "indexRange": len(actions) - 1,
    }
    if stage == "play":
        top = observation.top
        leads = top is None or top.seat == seat
        message["publicInfo"] = [{"rest": n} for n in rest]
        message["curPos"], message["curAction"] = last
        message["greaterPos"] = -1 if leads or top is None else top.seat
        message["greaterAction"] = None if leads or top is None else play_of(top.cards, top.reading)
    elif stage == "back" and tribute_from is not None:
        message["tributePos"], message["tribute"] = tribute_from[0], card_to_ogd(tribute_from[1])
    return message


class Narrator:
    """Turns one game's events into the notify messages of OGD, as (seats, message) pairs.

    It keeps what the protocol reports but the events do not: the trick's top play
    before each action, the previous seat's action (for the next ``act``), and the
    tribute and return cards until all of a deal's have been given."""

    def __init__(self) -> None:
        self.top: tuple[int, list[Any]] = (-1, list(PASS_ACTION))
        self.last: tuple[int, list[Any] | None] = (-1, None)
        self.tributes: list[list[Any]] = []
        self.returns: list[list[Any]] = []
        self.payments = 0
        self.first_places = [0] * NUM_SEATS
        """Deals each seat finished first (OGD's ``victoryNum``), over the room's games."""
        self.level_points = [0, 0]
        """Levels gained per team over the room's games (OGD's gameResult[0:2])."""
        self.received: dict[int, tuple[int, Any]] = {}
        """Receiver -> (payer, card) of this deal's tribute: what an ``act back`` names."""

    def on_events(self, match: Any, events: Sequence[Event]) -> list[tuple[tuple[int, ...], dict[str, Any]]]:
        out: list[tuple[tuple[int, ...], dict[str, Any]]] = []
        everyone = tuple(range(NUM_SEATS))
        deal = getattr(match, "current_deal", match)  # a match, or a lone deal (a tournament's --deals)
        numbered = getattr(match, "deal_numbered", None)   # a batch may end one deal and start the next
        for event in events:
            if isinstance(event, ev.DealStarted):
                self.top, self.last = (-1, list(PASS_ACTION)), (-1, None)
                self.tributes, self.returns, self.received = [], [], {}
            elif isinstance(event, (ev.HandsComplete, ev.HandsSet)):
                for seat in everyone:
                    out.append(((seat,), notify("beginning", handCards=cards_to_ogd(deal.hand(seat)),
                                                myPos=seat, levelCard=rank_to_ogd(deal.level))))
            elif isinstance(event, ev.TributeDue):
                self.payments = len(event.payments)
            elif isinstance(event, ev.TributeResisted):
                out.append((everyone, notify("anti-tribute", antiNums=len(event.payers), antiPos=list(event.payers))))
            elif isinstance(event, ev.TributeGiven):
                self.tributes.append([event.seat, event.receiver, card_to_ogd(Card(event.card))])
                self.received[event.receiver] = (_seat(event), Card(event.card))
                if len(self.tributes) == self.payments:
                    out.append((everyone, notify("tribute", result=self.tributes)))
            elif isinstance(event, ev.ReturnGiven):
                self.returns.append([event.seat, event.payer, card_to_ogd(Card(event.card))])
                if len(self.returns) == self.payments:
                    out.append((everyone, notify("back", result=self.returns, count=HAND_SIZE)))
            elif isinstance(event, ev.CardsPlayed):
                action = play_of(event.cards, Reading.from_code(event.reading))
                out.append((everyone, notify("play", curPos=event.seat, curAction=action,
                                             greaterPos=self.top[0], greaterAction=self.top[1])))
                self.top = self.last = (_seat(event), action)
            elif isinstance(event, ev.Passed):
                out.append((everyone, notify("play", curPos=event.seat, curAction=list(PASS_ACTION),
                                             greaterPos=self.top[0], greaterAction=self.top[1])))
                self.last = (-1, None)
            elif isinstance(event, ev.RoundEnded):
                self.top, self.last = (-1, list(PASS_ACTION)), (-1, None)
            elif isinstance(event, ev.DealScored):
                order = list(event.finish_order)
                self.first_places[order[0]] += 1
                self.level_points[event.team] += event.levels
                scored = deal if numbered is None else numbered(event.deal)
                rest = [[seat, cards_to_ogd(scored.hand(seat))] for seat in order if scored.hand(seat)]
                out.append((everyone, notify("episodeOver", order=order, curRank=rank_to_ogd(scored.level),
                                             restCards=rest)))
        return out

    def game_result(self, games_won: Sequence[int], levels: Sequence[int], winner: int | None,
                    games: int) -> dict[str, Any]:
        """``notify gameResult`` after a room's last game (``victory`` -1: no winner)."""
        return notify("gameResult", victory=-1 if winner is None else winner,
                      victoryRank=[rank_to_ogd(v) for v in levels], victoryNum=list(self.first_places),
                      gameResult=[*self.level_points, *games_won], gameRound=games)


def game_over(games: int) -> dict[str, Any]:
    return notify("gameOver", curTimes=games, settingTimes=games, gameRound=games)


def _seat(event: Event) -> int:
    """The seat of an action's event (every action names its seat)."""
    assert event.seat is not None
    return event.seat
