"""What one seat can know of an OGD game, tracked from the messages it receives, turned
into a paiju ``Observation`` and legal actions for an agent (the client's side).

OGD's messages carry the hand, the level, the top play and every seat's exact card count;
the rest is followed here: each seat's played cards, who passed since the top play, who
led the round, the finishing order, the tribute and return cards. Counts of 10 or fewer
become the ``announced`` counts a paiju observation has (None: more than 10).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guandan.actions import Pass
from guandan.observation import Observation, Phase, TopPlay, TributeRecord
from tabletop.cards import Card
from tabletop.seats import NUM_SEATS

from paiju.ogd.codec import OgdCodecError, action_from_ogd, card_from_ogd, cards_from_ogd, rank_from_ogd

REPORT_LIMIT = 10
_PHASE = {"play": Phase.PLAY, "tribute": Phase.TRIBUTE, "back": Phase.RETURN}
HAND_SIZE = 27


class SeatView:
    def __init__(self, seat: int | None = None) -> None:
        self.seat = seat
        self.level = 0
        self.hand: tuple[Card, ...] = ()
        self.new_deal()

    def new_deal(self) -> None:
        self.played: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
        self.counts = [HAND_SIZE] * NUM_SEATS
        self.finish_order: list[int] = []
        self.tributes: list[TributeRecord] = []
        self.resisted = False
        self.top: TopPlay | None = None
        self.passed: list[int] = []
        self.leader: int | None = None

    # -- notify ----------------------------------------------------------------------------

    def on_notify(self, message: dict[str, Any]) -> None:
        """Follow one ``notify``; a message this view cannot read raises OgdCodecError."""
        stage = message.get("stage")
        if stage == "beginning":
            self.new_deal()
            self.seat = message["myPos"]
            self.level = rank_from_ogd(message["levelCard"])
            self.hand = tuple(cards_from_ogd(message["handCards"]))
        elif stage == "anti-tribute":
            self.resisted = True
        elif stage in ("tribute", "back"):
            kind = "tribute" if stage == "tribute" else "return"
            for giver, taker, card in message["result"]:
                self.tributes.append(TributeRecord(kind, giver, taker, card_from_ogd(card)))
                self.counts[giver] -= 1
                self.counts[taker] += 1
        elif stage == "play":
            self._on_play(message["curPos"], message["curAction"], message.get("greaterPos", -1))

    def _on_play(self, seat: int, data: Any, greater_pos: Any) -> None:
        action = action_from_ogd(data, seat, self.level)
        if greater_pos == -1 or self.top is None:
            self.leader = seat  # the action leads a new round
            self.passed = []
        if type(action) is Pass:
            self.passed.append(seat)
            return
        self.top = TopPlay(seat, action.cards, action.reading)
        self.passed = []
        self.played[seat].extend(action.cards)
        self.counts[seat] -= len(action.cards)
        if self.counts[seat] <= 0 and seat not in self.finish_order:
            self.finish_order.append(seat)

    # -- act -------------------------------------------------------------------------------

    def on_act(self, message: dict[str, Any]) -> tuple[Observation, list[Any], list[Any]]:
        """(observation, distinct legal actions, the OGD entry of each) for an ``act``."""
        stage = message["stage"]
        self.hand = tuple(cards_from_ogd(message["handCards"]))
        self.level = rank_from_ogd(message["curRank"])
        if stage == "play":
            for seat, info in enumerate(message.get("publicInfo") or ()):
                self.counts[seat] = info["rest"]
            greater_pos, greater = message.get("greaterPos", -1), message.get("greaterAction")
            if greater_pos == -1 or greater is None:
                self.top = None
            else:
                play = action_from_ogd(greater, greater_pos, self.level)
                self.top = TopPlay(greater_pos, play.cards, play.reading)
        legal, entries = self.legal_actions(message.get("actionList") or ())
        return self.observation(_PHASE.get(stage, Phase.PLAY)), legal, entries

    def legal_actions(self, action_list: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        """The entries of an ``actionList`` as paiju actions, each once (return lists name
        every card twice), with the first entry of each; entries that do not decode are
        left out."""
        seen: dict[Any, Any] = {}
        for entry in action_list:
            assert self.seat is not None   # known from the deal's first message
            try:
                action = action_from_ogd(entry, self.seat, self.level)
            except OgdCodecError:
                continue
            seen.setdefault(action, entry)
        return list(seen), list(seen.values())

    def observation(self, phase: Phase) -> Observation:
        announced = tuple(0 if s in self.finish_order else n if n <= REPORT_LIMIT else None
                          for s, n in enumerate(self.counts))
        assert self.seat is not None   # known from the deal's first message
        return Observation(
            seat=self.seat, hand=self.hand, level=self.level, phase=phase, to_act=self.seat,
            leader=self.leader, top=self.top, passed=tuple(self.passed), announced=announced,
            played=tuple(tuple(p) for p in self.played), finish_order=tuple(self.finish_order),
            tributes=tuple(self.tributes), tribute_resisted=self.resisted)


__all__ = ["SeatView"]
