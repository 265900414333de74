"""The referee's rulebook as data: one ``Clause`` per clause id of
docs/rules/enforcement.md, for 掼蛋 (GD-…, seed 000) and 双升 (SJ-…, seed 001).

A clause carries what a ruling needs to cite and show (``id``, ``text_zh`` copied from the
seed, English ``summary``), what sets it off (``trigger``), how the table is put right
(``rectification``: effect kinds of tabletop.effects plus prose) and what the offender
pays (``sanction``: a ``SanctionRule``, an escalation ladder by occurrence when the seed gives
one). Project defaults (PD) where the seeds are silent are in ``pd``; a clause that exists
only as a project default has ``project_default=True``.

Trigger keys name their source: ``irregularity:ID[/facts]`` (the engine in refereed mode emits
the irregularity ``ID``: the rulebook speaks the engines' vocabulary, the ids of the logs'
``gd.irregular`` / ``sj.irregular`` events; ``clauses_by_irregularity`` derives from the
triggers which clauses rule on each id, and a trigger may name several ids),
``report:…`` (a reported incident: only a report sets it off), ``ruling:…`` (follows from
another ruling), ``ledger:…`` (automatic escalation in the sanctions ledger), ``standing:…``
(a rule that holds throughout), ``unresolved`` (the fallback for an UnresolvedIrregularity;
``unresolved:ID`` names an engine id no clause covers, always left to the fallback)
and ``section`` (a heading that only groups its sub-clauses).

Every clause can fire in a machine-played deal (`paiju fuzz` counts them): the engines emit
the irregularities, and the infraction injectors also inject the reported incidents only a
human can see. A clause that cannot fire automatically at all carries the reason in
``not_automatic`` (shown by `paiju rules` and in the fuzzer's coverage table); none does
today.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from tabletop.effects import (
    AdjustedScore, ForcedDoubleLast, ForcedLast, LevelDiffPenalty, PointPenalty,
    RecordedViolation, Sanction, WarningSanction,
)
from tabletop.errors import OptionError, PaijuError
from tabletop.options import one_of

GUANDAN = "guandan"
SHENGJI = "shengji"
GAMES = (GUANDAN, SHENGJI)
FALLBACK = MappingProxyType({GUANDAN: "GD-2.5", SHENGJI: "SJ-3.0"})
INCIDENT = "incident"
"""The irregularity id both engines give a reported incident (``report:`` triggers)."""


class UnknownClause(PaijuError, KeyError):
    """A clause id or pattern that names no clause; the message suggests near ids."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown clause"


def _effect_kinds(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    # the games' own kinds are defined in their packages (not loaded here: `paiju rules` stays
    # quick); tests/enforcement check every clause's kinds against all of them
    bad = [v for v in value if not (isinstance(v, str) and v[:1].isupper() and v.isalnum())]
    if bad:
        raise ValueError(f"not table effect kind(s): {bad}")


@attrs.frozen
class Trigger:
    """What sets a clause off: a stable ``key`` (``source:name[/facts]``), prose, and ``also``
    the further keys when several irregularities set the clause off (the key's source is the
    clause's: ``reported`` reads it). The ``name`` of an ``irregularity:`` or ``unresolved:``
    key is an irregularity id the game's engine emits (``guandan.table.IRREGULARITIES``,
    ``shengji.table.IRREGULARITIES``), as in the log's ``gd.irregular`` / ``sj.irregular``."""

    key: str
    text: str
    also: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key that sets the clause off, ``key`` first."""
        return (self.key, *self.also)

    @property
    def source(self) -> str:
        return key_source(self.key)


def key_source(key: str) -> str:
    """The source of a trigger key: 'irregularity', 'report', 'ruling', …"""
    return key.split(":", 1)[0]


def key_irregularity(key: str) -> str | None:
    """The irregularity id under which the engines record what sets off ``key``: the name of
    an ``irregularity:`` key (before any '/facts'), ``INCIDENT`` for a ``report:`` key (a
    reported incident reaches the referee as the engines' ``incident`` irregularity); None
    for every other source (``unresolved:ID`` names an id the rulebook leaves to the
    fallback: see ``unresolved_irregularities``)."""
    source, _, rest = key.partition(":")
    if source == "irregularity":
        return rest.split("/", 1)[0]
    if source == "report":
        return INCIDENT
    return None


@attrs.frozen
class Rectification:
    """How the table is put right: ``effects``, the table-effect kinds (tabletop.effects)
    a ruling citing the clause may list in its rectification, in the order they come, and
    prose. A ruling lists a subset (what the situation needs; a Choice's options are inside
    the Choice); the ``effects_allowed_by_clause`` invariant checks it after every ruling."""

    effects: tuple[str, ...] = attrs.field(validator=_effect_kinds)
    text: str


ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


@attrs.frozen
class SanctionRule:
    """What the offender pays. ``steps[k]`` are the sanctions for the (k+1)-th occurrence in a
    match, counted ``per`` player, side or the whole table; the last step repeats. An empty
    step (or no steps) is no sanction. ``to`` is who bears it: the offender (and so its side)
    or both sides alike."""

    steps: tuple[tuple[Sanction, ...], ...]
    per: str = attrs.field(default="player", validator=one_of("player", "side", "table"))
    to: str = attrs.field(default="offender", validator=one_of("offender", "both_sides"))
    text: str = ""

    def for_occurrence(self, k: int) -> tuple[Sanction, ...]:
        """The sanctions for the k-th occurrence (1-based)."""
        if k < 1:
            raise ValueError(f"occurrences count from 1, got {k}")
        if not self.steps:
            return ()
        return self.steps[min(k, len(self.steps)) - 1]

    @property
    def escalates(self) -> bool:
        return len(self.steps) > 1

    def describe(self, say: Callable[[Sanction], str] = str) -> str:
        """One line: 'PointPenalty(10)', '1st: Warning; 2nd: …; 3rd+: … (per player)';
        ``say``: how a sanction is said (a view passes the referee's words)."""
        if not any(self.steps):
            return "none"

        def step_text(step: tuple[Sanction, ...]) -> str:
            return " + ".join(say(s) for s in step) or "none"

        if len(self.steps) == 1:
            out = step_text(self.steps[0])
        else:
            parts = []
            for i, step in enumerate(self.steps, start=1):
                label = ORDINALS.get(i, f"{i}th")
                parts.append(f"{label}{'+' if i == len(self.steps) else ''}: {step_text(step)}")
            out = "; ".join(parts) + f" (per {self.per}, per match)"
        if self.to == "both_sides":
            out += ", to both sides"
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "steps": tuple(tuple(s.to_dict() for s in step) for step in self.steps),
            "per": self.per, "to": self.to, "text": self.text, "describe": self.describe(),
        }


def _none(text: str) -> SanctionRule:
    return SanctionRule((), text=text)


def _each(*sanctions: Sanction, text: str = "") -> SanctionRule:
    return SanctionRule((tuple(sanctions),), text=text)


def _ladder(*steps: tuple[Sanction, ...], per: str, to: str = "offender", text: str = "") -> SanctionRule:
    return SanctionRule(tuple(steps), per=per, to=to, text=text)


_WARNING = WarningSanction()
_VIOLATION = RecordedViolation()
_TEN = PointPenalty(10)
_SEE_SUBCLAUSES = "see the sub-clauses"


@attrs.frozen(kw_only=True)
class Clause:
    id: str
    game: str = attrs.field(validator=one_of(*GAMES))
    title: str
    text_zh: str
    summary: str
    trigger: Trigger
    rectification: Rectification
    sanction: SanctionRule
    parent: str | None = None
    heading: bool = False          # only groups sub-clauses; a ruling cites a sub-clause
    heavy: bool | None = None      # 双升: True = only for heavy cards, False = only light
    refs: tuple[str, ...] = ()     # clauses this one applies, or is applied on top of
    pd: str = ""                   # project defaults where the seed is silent/ambiguous
    project_default: bool = False  # the clause itself exists only as a project default
    not_automatic: str | None = None
    """Why no machine-played deal can set this clause off (None: one can, by an engine's
    irregularity, an injected incident, a ruling or the ledger; a heading by its sub-clauses)."""

    @property
    def reported(self) -> bool:
        """Only a reported incident sets this clause off (the engine cannot see it)."""
        return self.trigger.source == "report"

    @property
    def allowed_effects(self) -> frozenset[str]:
        """The table-effect kinds a ruling citing this clause may list."""
        return frozenset(self.rectification.effects)

    @property
    def depth(self) -> int:
        """0 for a top-level clause, 1 for its sub-clauses, …"""
        return 0 if self.parent is None else RULEBOOK[self.parent].depth + 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "game": self.game, "title": self.title, "text_zh": self.text_zh,
            "summary": self.summary,
            "trigger": {"key": self.trigger.key, "keys": self.trigger.keys, "text": self.trigger.text},
            "rectification": {"effects": self.rectification.effects, "text": self.rectification.text},
            "sanction": self.sanction.to_dict(),
            "parent": self.parent, "heading": self.heading, "heavy": self.heavy,
            "refs": self.refs, "pd": self.pd, "project_default": self.project_default,
            "reported": self.reported, "not_automatic": self.not_automatic,
        }


# =============================================================================================
# The clauses, in catalogue order. Each id is written here exactly once.

_CLAUSES: tuple[Clause, ...] = (
    # -----------------------------------------------------------------------------------------
    # 掼蛋 (seed 000)
    Clause(
        id="GD-1", game=GUANDAN, heading=True,
        title="Drawing",
        text_zh="一、在抓牌时候违例违规",
        summary="Irregularities during the draw (the deal is modelled as a draw, card by card).",
        trigger=Trigger("section", "Groups GD-1.1 and GD-1.2."),
        rectification=Rectification((), _SEE_SUBCLAUSES),
        sanction=_none(_SEE_SUBCLAUSES),
    ),
    Clause(
        id="GD-1.1", game=GUANDAN, parent="GD-1",
        title="Drawing out of turn",
        text_zh="1 、越序抓牌：应立即退回，恢复抓牌顺序。",
        summary="A card drawn out of turn always goes back at once and the drawing order is restored.",
        trigger=Trigger("irregularity:draw_out_of_turn", "A seat draws a card another seat should draw."),
        rectification=Rectification(("Return", "RestoreOrder"), "The card goes back; drawing order is restored."),
        sanction=_none("by how far the card went: GD-1.1.1 - GD-1.1.3b"),
    ),
    Clause(
        id="GD-1.1.1", game=GUANDAN, parent="GD-1.1",
        title="Out-of-turn draw, face not seen",
        text_zh="（1）没有看到牌张正面，退回。",
        summary="The card's face was not seen: it goes back, nothing more.",
        trigger=Trigger("irregularity:draw_out_of_turn/face_unseen", "Drawn out of turn; nobody saw the card's face."),
        rectification=Rectification(("Return", "RestoreOrder"), "The card goes back; drawing order is restored."),
        sanction=_none("none: returning the card is the whole remedy"),
    ),
    Clause(
        id="GD-1.1.2", game=GUANDAN, parent="GD-1.1",
        title="Out-of-turn draw, face seen",
        text_zh="（2）已经看到牌张正面，但未插入手中，退回，给予警告。",
        summary="The face was seen but the card is not yet in the hand: it goes back and the offender is warned.",
        trigger=Trigger("irregularity:draw_out_of_turn/face_seen", "Drawn out of turn; the face was seen; not yet in the hand."),
        rectification=Rectification(("Return", "RestoreOrder"), "The card goes back; drawing order is restored."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="GD-1.1.3a", game=GUANDAN, parent="GD-1.1",
        title="Out-of-turn draw, in hand, identifiable",
        text_zh="（3）已经插入手中：a、能确定牌张的，退回，给予警告。",
        summary="The card is in the hand but can be identified: it goes back and the offender is warned.",
        trigger=Trigger("irregularity:draw_out_of_turn/in_hand_identifiable", "Drawn out of turn, already in the hand, the card is known."),
        rectification=Rectification(("Return", "RestoreOrder"), "The identified card goes back; drawing order is restored."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="GD-1.1.3b", game=GUANDAN, parent="GD-1.1",
        title="Out-of-turn draw, in hand, not identifiable",
        text_zh="（3）已经插入手中：……b、不能确定牌张的，由应抓牌人从违规者手中任意抽取一张牌，并从违规方总分中扣 1 个级差分或相当于 1 各级差分的分值。",
        summary=("The card is in the hand and cannot be identified: the rightful drawer draws one card at "
                 "random from the offender's hand, and the offending side loses 1 level difference."),
        trigger=Trigger("irregularity:draw_out_of_turn/in_hand_unidentifiable", "Drawn out of turn, already in the hand, the card cannot be told apart."),
        rectification=Rectification(("RandomDraw", "RestoreOrder"), "RandomDraw(source=offender, to=rightful drawer, count=1); drawing order is restored."),
        sanction=_each(LevelDiffPenalty(1), text="deducted from the offending side's match score"),
    ),
    Clause(
        id="GD-1.2", game=GUANDAN, parent="GD-1",
        title="Wrong or missing cards after the draw",
        text_zh="2 、抓错牌或少牌：全副牌张数不少的，应重洗重抓。",
        summary="A player does not hold 27 cards after the draw. If all 108 cards are there, reshuffle and draw again.",
        trigger=Trigger("irregularity:wrong_counts_after_draw", "At the end of the draw a hand does not hold 27 cards.",
                        also=("irregularity:wrong_counts_after_draw/short_deck",)),
        rectification=Rectification(("Redeal",), "Reshuffle and draw again (except GD-1.2.1, where the deal is over)."),
        sanction=_none("by which sides are wrong: GD-1.2.1, GD-1.2.2; none for a short deck (PD)"),
        pd=("'Side' (方) means team. A deck that is short is a broken deck: the deal is void and "
            "redealt with a fresh deck (Redeal(fresh_deck=True)), no sanction."),
    ),
    Clause(
        id="GD-1.2.1", game=GUANDAN, parent="GD-1.2",
        title="One side's counts wrong",
        text_zh="（1）一方多牌或少牌，而另一方正常，直接判负，按双下记分。",
        summary="Only one side has too many or too few cards, the other side is right: that side loses the deal, scored as a double last.",
        trigger=Trigger("irregularity:wrong_counts_after_draw/one_side", "One side's card counts are wrong, the other side's are right."),
        rectification=Rectification(("NextDealProcedure",), "No redeal: the deal is over and scored as ForcedDoubleLast (GD-5.2)."),
        sanction=_each(ForcedDoubleLast()),
        refs=("GD-5.2",),
    ),
    Clause(
        id="GD-1.2.2", game=GUANDAN, parent="GD-1.2",
        title="One side too many, the other too few",
        text_zh="（2）一方多牌，另一方少牌，第一次发生给予双方警告，再次发生双方均扣 1 个级差分或相当于 1 个级差分的分值。",
        summary="One side has too many cards and the other too few: the first time both sides are warned, any later time in the match both lose 1 level difference. Then redeal.",
        trigger=Trigger("irregularity:wrong_counts_after_draw/both_sides", "One side holds too many cards and the other too few."),
        rectification=Rectification(("Redeal",), "Reshuffle and draw again."),
        sanction=_ladder((_WARNING,), (LevelDiffPenalty(1),), per="table", to="both_sides",
                         text="counted per match over the pair of sides"),
    ),
    Clause(
        id="GD-2", game=GUANDAN, heading=True,
        title="Play",
        text_zh="二、出牌时违例违规",
        summary="Irregularities during the play.",
        trigger=Trigger("section", "Groups GD-2.1 - GD-2.5."),
        rectification=Rectification((), _SEE_SUBCLAUSES),
        sanction=_none(_SEE_SUBCLAUSES),
    ),
    Clause(
        id="GD-2.1", game=GUANDAN, parent="GD-2",
        title="Improper manner of play",
        text_zh="1 、未按照比赛规定的出牌方式出牌，第一次警告，第二次扣 1 个级差分或相当于 1 个级差分的分值，第三次扣 2 个级差分或相当于 2 个级差分的分值。",
        summary="Not playing in the manner the event requires (e.g. cards not laid face up in one motion): 1st a warning, 2nd 1 level difference, 3rd and later 2.",
        trigger=Trigger("report:improper_manner_of_play", "Reported: cards not played in the prescribed manner."),
        rectification=Rectification((), "None."),
        sanction=_ladder((_WARNING,), (LevelDiffPenalty(1),), (LevelDiffPenalty(2),), per="player"),
        pd="Occurrences count per player per match.",
    ),
    Clause(
        id="GD-2.2", game=GUANDAN, parent="GD-2",
        title="Announcing out of turn",
        text_zh="2 、越序（抢先）表态：",
        summary="Announcing 'pass' or 'I beat it' before one's turn in the round: the offender is barred from its next play in this round.",
        trigger=Trigger("irregularity:announce_out_of_turn", "A seat announces before its turn in the round."),
        rectification=Rectification(("BarOnePlay",), "BarOnePlay(offender, scope='round')."),
        sanction=_none("none: the bar is the whole remedy"),
        pd=("A bar is spent by passing automatically when the turn comes; if the round ends before "
            "the turn comes, the bar lapses (scope 'round', the seed's 在该圈; every other bar has scope "
            "'next_turn'). The offender's partner may still play."),
    ),
    Clause(
        id="GD-2.2.1", game=GUANDAN, parent="GD-2.2",
        title="Announces 'pass' out of turn",
        text_zh="（1）表示不出，违规方在该圈轮到其出牌时禁出一手；",
        summary="Announcing 'pass' out of turn: barred from the next play in this round.",
        trigger=Trigger("irregularity:announce_out_of_turn/pass", "A seat says 'pass' before its turn."),
        rectification=Rectification(("BarOnePlay",), "BarOnePlay(offender, scope='round')."),
        sanction=_none("none: the bar is the whole remedy"),
    ),
    Clause(
        id="GD-2.2.2", game=GUANDAN, parent="GD-2.2",
        title="Announces 'I beat it' out of turn",
        text_zh="（2）表示压制，违规者在该圈轮到其出牌时禁出一手。",
        summary="Announcing 'I beat it' (压制) out of turn: barred from the next play in this round.",
        trigger=Trigger("irregularity:announce_out_of_turn/beat", "A seat announces it will beat the current play before its turn."),
        rectification=Rectification(("BarOnePlay",), "BarOnePlay(offender, scope='round')."),
        sanction=_none("none: the bar is the whole remedy"),
    ),
    Clause(
        id="GD-2.3", game=GUANDAN, parent="GD-2",
        title="Playing out of turn",
        text_zh="3 、越序出牌：",
        summary="Cards played before one's turn.",
        trigger=Trigger("irregularity:play_out_of_turn", "A seat plays when it is not its turn."),
        rectification=Rectification((), "By whether the next player has played on it: GD-2.3.1, GD-2.3.2."),
        sanction=_none(_SEE_SUBCLAUSES),
        pd=("'Combination type' = the 掼蛋 kind of the exposed cards as played (single, pair, triple, "
            "full house, straight, tube, plate, bomb by size, straight flush, joker bomb)."),
    ),
    Clause(
        id="GD-2.3.1", game=GUANDAN, parent="GD-2.3",
        title="Out-of-turn play taken back; lead option",
        text_zh="（1）违规者收回牌张，恢复出牌顺序，禁出一手。收回的牌张应作为暴露张放置在违规者面前，其搭档获得领出权时，其搭档的下家有权作出选择：a、禁出暴露张牌型；b、必须出暴露张牌型；c、随意。当做出 a、b 选项时，暴露张收回。若出牌受限者不能满足选择时，可自由出牌。当作出 b 选择时，受限者可以在征得裁判同意时拒绝明显不合理的出牌。当作出 c 选择时，暴露张不得收回，违规者的搭档再次拥有领出权时，其下家仍拥有选择权，未作出选择时，违规者的搭档不得领出牌张，否则按照越序出牌处理。",
        summary=("The offender takes the cards back, order is restored and the offender is barred from its "
                 "next turn to play, in this round or a later one (a barred lead goes to its 下家); the cards "
                 "lie exposed in front of it. When its partner next has the lead, the partner's "
                 "下家 chooses: a) the partner may not lead that combination type; b) it must; c) free. After "
                 "a) or b) the exposed cards go back to the hand; a partner who cannot comply leads freely. "
                 "After c) they stay exposed and the choice is offered again at the partner's next lead. If "
                 "the partner can never lead again (out, or 单下), the cards are penalty cards at once."),
        trigger=Trigger("irregularity:play_out_of_turn/taken_back", "Played out of turn and the offender's 下家 has not played on it (it called the referee, passed — a pass that is void — or attempted an irregular play, ruled on its own afterwards)."),
        rectification=Rectification(
            ("Return", "RestoreOrder", "BarOnePlay", "Expose", "LeadOption", "PenaltyCards"),
            "Return the cards to the offender, restore order, BarOnePlay(offender, scope='next_turn'), Expose "
            "the cards; LeadOption(chooser=partner's 下家, restricted_seat=partner, exposed_kind) at the "
            "partner's next lead — or PenaltyCards(cards, offender) at once when the partner can never lead "
            "again or the cards form no combination."),
        sanction=_none("none: the rectification is the remedy"),
        refs=("GD-6",),
        pd=("After b) the partner may refuse an obviously unreasonable lead with the referee's consent: "
            "the engine grants refusal when the only satisfying leads are bombs. Until the choice is made "
            "the partner may not lead; a lead before the choice is itself GD-2.3."),
    ),
    Clause(
        id="GD-2.3.2", game=GUANDAN, parent="GD-2.3",
        title="Out-of-turn play followed: it stands",
        text_zh="（2）若越序出牌者的下家已经跟牌，则视为依序出牌，不再纠正。",
        summary="If the player after the offender has already played on the out-of-turn cards, the play stands as if in turn.",
        trigger=Trigger("irregularity:play_out_of_turn/followed", "Played out of turn and the offender's 下家 has already played on it (跟牌: a legal play of cards on it; a pass or an irregular attempt is not)."),
        rectification=Rectification(("PlayStands",), "None: both plays stand as made (PlayStands of the offender's cards, then of the 下家's), order continues from there."),
        sanction=_none("none"),
    ),
    Clause(
        id="GD-2.4", game=GUANDAN, parent="GD-2",
        title="Wrong cards",
        text_zh="4 、出错牌：",
        summary="A play that is not a legal play for the round.",
        trigger=Trigger("irregularity:wrong_kind", "A seat plays cards that do not form a legal play for the round.",
                        also=("irregularity:does_not_beat", "irregularity:extra_cards")),
        rectification=Rectification(("CorrectPlay", "Expose"), "Corrected; cards of the attempt not used in the correction are exposed (GD-2.5, no bar)."),
        sanction=_none("none: the rectification is the remedy"),
    ),
    Clause(
        id="GD-2.4.1", game=GUANDAN, parent="GD-2.4",
        title="Wrong combination type",
        text_zh="（1）出错牌型，应予以纠正。若所出牌张未能在纠正中全部打出，则未打出的牌张按暴露张处理。",
        summary="A combination of the wrong type for the round is corrected (a legal play or a pass); cards of the attempt not used in the correction are exposed.",
        trigger=Trigger("irregularity:wrong_kind", "The cards are not of the round's combination type."),
        rectification=Rectification(("Return", "CorrectPlay", "Expose", "LeadOption", "PenaltyCards"),
                                    "Take back, make a legal play or pass (CorrectPlay); the unused cards of the attempt "
                                    "are then exposed as CorrectPlay.unused says: with the lead option ('lead_option', "
                                    "penalty cards if they form no combination) or as penalty cards ('penalty')."),
        sanction=_none("none: the rectification is the remedy"),
    ),
    Clause(
        id="GD-2.4.2", game=GUANDAN, parent="GD-2.4",
        title="Does not beat",
        text_zh="（2）牌张大小出错，应予以纠正，若所出牌张未能在纠正中全部打出，则未打出的牌张按暴露张处理。",
        summary="A combination that does not beat the current one is corrected like GD-2.4.1.",
        trigger=Trigger("irregularity:does_not_beat", "The combination does not beat the round's current play."),
        rectification=Rectification(("Return", "CorrectPlay", "Expose", "LeadOption", "PenaltyCards"),
                                    "Take back, make a legal play or pass (CorrectPlay); the unused cards of the attempt "
                                    "are then exposed as CorrectPlay.unused says: with the lead option ('lead_option', "
                                    "penalty cards if they form no combination) or as penalty cards ('penalty')."),
        sanction=_none("none: the rectification is the remedy"),
        refs=("GD-2.4.1",),
    ),
    Clause(
        id="GD-2.4.3", game=GUANDAN, parent="GD-2.4",
        title="Extra cards carried along",
        text_zh="（3）夹带牌张，所夹带牌张按暴露张处理。",
        summary="Extra cards carried along with a play (夹带) are exposed; the rest stands if it is a legal play, else as GD-2.4.1.",
        trigger=Trigger("irregularity:extra_cards", "A legal play plus extra cards."),
        rectification=Rectification(("Return", "Expose", "LeadOption", "PenaltyCards", "PlayStands", "CorrectPlay"),
                                    "The extra cards are exposed with the GD-2.5 treatment (LeadOption, or PenaltyCards); "
                                    "the rest stands if legal (PlayStands), else corrected as GD-2.4.1."),
        sanction=_none("none: the rectification is the remedy"),
        refs=("GD-2.4.1",),
    ),
    Clause(
        id="GD-2.4.4", game=GUANDAN, parent="GD-2.4",
        title="A legal play cannot be taken back",
        text_zh="（4）合法的打出牌张不得收回。",
        summary="A legal play can never be taken back.",
        trigger=Trigger("irregularity:retract_play", "A seat tries to take back a legal play."),
        rectification=Rectification((), "The engine refuses the retraction; the play stands."),
        sanction=_none("none"),
    ),
    Clause(
        id="GD-2.5", game=GUANDAN, parent="GD-2",
        title="Exposed cards; adjusted score",
        text_zh="5 、暴露张的处理。按照本条 3（ 1）处理。若处理后不能弥补非违规方的损失，裁判应给予调整分。",
        summary=("Exposed cards get the exposed-card treatment of GD-2.3.1 (face up, the lead option, back "
                 "after a) or b), penalty cards after c)) but not its bar, which sanctions an out-of-turn "
                 "play. If that cannot repair the damage to the non-offending side, the referee gives an "
                 "adjusted score. Also the 掼蛋 fallback for an unresolved irregularity."),
        trigger=Trigger("irregularity:exposed_card", "Cards exposed in play; also every UnresolvedIrregularity in 掼蛋 (the fallback).",
                        also=("unresolved", "unresolved:pass_on_lead")),
        rectification=Rectification(("Expose", "LeadOption", "PenaltyCards"),
                                    "Expose; LeadOption as in GD-2.3.1, or PenaltyCards at once when the partner can "
                                    "never lead again or the cards form no combination. No BarOnePlay."),
        sanction=_each(AdjustedScore(), text="at the referee's discretion, when GD-2.3.1 cannot repair the damage"),
        refs=("GD-2.3.1",),
        pd="The fallback hook decides; the default fallback records AdjustedScore() without changing the result, and says so.",
    ),
    Clause(
        id="GD-3", game=GUANDAN, heading=True,
        title="Tribute and return",
        text_zh="三、贡还牌违例违规",
        summary="Irregularities in tribute (贡牌) and return (还牌).",
        trigger=Trigger("section", "Groups GD-3.1 and GD-3.2."),
        rectification=Rectification((), _SEE_SUBCLAUSES),
        sanction=_none(_SEE_SUBCLAUSES),
    ),
    Clause(
        id="GD-3.1", game=GUANDAN, parent="GD-3",
        title="Wrong tribute card",
        text_zh="1 、贡错牌：",
        summary="The tribute is not the required highest card.",
        trigger=Trigger("irregularity:wrong_tribute", "A tribute card that is not the required highest card."),
        rectification=Rectification((), "By whether play has begun: GD-3.1.1, GD-3.1.2."),
        sanction=_none(_SEE_SUBCLAUSES),
    ),
    Clause(
        id="GD-3.1.1", game=GUANDAN, parent="GD-3.1",
        title="Wrong tribute, before the first play",
        text_zh="（1）尚未出牌时，重新贡牌，给予违规者警告。退回的贡牌按暴露张处理。",
        summary="Found before the first play: tribute again correctly and a warning; the wrongly given card returns to the giver as an exposed card.",
        trigger=Trigger("irregularity:wrong_tribute/before_first_play", "Wrong tribute found before the deal's first play."),
        rectification=Rectification(("Return", "Expose", "LeadOption", "PenaltyCards", "RedoTribute"), "The card returns to the giver, exposed (the GD-2.5 treatment: LeadOption, or PenaltyCards); the giver pays the correct tribute."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="GD-3.1.2", game=GUANDAN, parent="GD-3.1",
        title="Wrong tribute, after the first play",
        text_zh="（2）已经出牌的，按双下处理。",
        summary="Found after the first play: the offending side is judged double last for this deal.",
        trigger=Trigger("irregularity:wrong_tribute/after_first_play", "Wrong tribute found after the deal's first play."),
        rectification=Rectification(("NextDealProcedure",), "The deal is scored as ForcedDoubleLast (GD-5.2)."),
        sanction=_each(ForcedDoubleLast()),
        refs=("GD-5.2",),
    ),
    Clause(
        id="GD-3.2", game=GUANDAN, parent="GD-3",
        title="Wrong return card",
        text_zh="2 、还错牌：",
        summary="The returned card is wrong (e.g. above 10, or to the wrong player).",
        trigger=Trigger("irregularity:wrong_return", "A return card above 10 or to the wrong player."),
        rectification=Rectification((), "By whether play has begun: GD-3.2.1, GD-3.2.2."),
        sanction=_none(_SEE_SUBCLAUSES),
    ),
    Clause(
        id="GD-3.2.1", game=GUANDAN, parent="GD-3.2",
        title="Wrong return, before the first play",
        text_zh="（1）尚未出牌时，重新还牌，给予违规者警告。",
        summary="Found before the first play: return again correctly and a warning.",
        trigger=Trigger("irregularity:wrong_return/before_first_play", "Wrong return found before the deal's first play."),
        rectification=Rectification(("Return", "RedoReturn"), "The card goes back to the returner, who returns a correct card."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="GD-3.2.2", game=GUANDAN, parent="GD-3.2",
        title="Wrong return, after the first play",
        text_zh="（2）已经出牌的，按双下处理。",
        summary="Found after the first play: the offending side is judged double last for this deal.",
        trigger=Trigger("irregularity:wrong_return/after_first_play", "Wrong return found after the deal's first play."),
        rectification=Rectification(("NextDealProcedure",), "The deal is scored as ForcedDoubleLast (GD-5.2)."),
        sanction=_each(ForcedDoubleLast()),
        refs=("GD-5.2",),
    ),
    Clause(
        id="GD-4", game=GUANDAN, heading=True,
        title="Reporting cards",
        text_zh="四、报牌违例违规",
        summary="Irregularities in announcing how many cards one holds (报牌).",
        trigger=Trigger("section", "Groups GD-4.1 and GD-4.2."),
        rectification=Rectification((), _SEE_SUBCLAUSES),
        sanction=_none(_SEE_SUBCLAUSES),
    ),
    Clause(
        id="GD-4.1", game=GUANDAN, parent="GD-4",
        title="Duty to report; reporting again, asking the count",
        text_zh="1 、牌手剩10张牌后（含10张）必须主动报牌，反复报牌、追问余牌，给予警告。",
        summary="A player holding 10 or fewer cards must announce its count unasked after each of its plays. Reporting repeatedly, or asking for others' counts: a warning.",
        trigger=Trigger("irregularity:report_repeated", "A seat reports repeatedly, or asks another seat for its count.",
                        also=("irregularity:ask_count",)),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
        pd="The engine emits CardsReported for correct announcements; an agent may fail to report or misreport (GD-4.2).",
    ),
    Clause(
        id="GD-4.2", game=GUANDAN, parent="GD-4",
        title="Not reporting or misreporting",
        text_zh="2 、未报牌或报错牌：",
        summary="A required count announcement is missing or wrong.",
        trigger=Trigger("irregularity:report_missing", "A seat with 10 or fewer cards does not report, or reports a wrong count.",
                        also=("irregularity:report_wrong",)),
        rectification=Rectification(("ReportAgain",), "By how far play went on: GD-4.2.1 - GD-4.2.5."),
        sanction=_none(_SEE_SUBCLAUSES),
        pd=("Found only after the deal is over, GD-4.2.1 - 4.2.3 are ruled under the clause of the stage reached "
            "with no table effect (nothing reported again, taken back or barred; the result stands); GD-4.2.4 and "
            "GD-4.2.5 keep their forced places."),
    ),
    Clause(
        id="GD-4.2.1", game=GUANDAN, parent="GD-4.2",
        title="Missing report, next player not yet played",
        text_zh="（1）下家未出牌时，必须重新报牌。",
        summary="The next player has not played yet: the offender must report again, correctly.",
        trigger=Trigger("irregularity:report_missing/next_not_played", "Found before the offender's 下家 plays.",
                        also=("irregularity:report_wrong/next_not_played",)),
        rectification=Rectification(("ReportAgain",), "The offender reports its count correctly."),
        sanction=_none("none"),
    ),
    Clause(
        id="GD-4.2.2", game=GUANDAN, parent="GD-4.2",
        title="Missing report, next player has played",
        text_zh="（2）下家已经出牌，违规者必须重新报牌，非违规方可以收回重出，不作暴露张处理，违规者的同伴接续打牌也可以收回，同样不作暴露张处理，但对违规者来说其同伴收回的牌张是非法信息，不得利用。",
        summary=("The next player has already played: the offender reports again; the non-offending side may "
                 "take back and replay (not exposed); the offender's partner who played after may also take "
                 "back (not exposed), but what the partner took back is unauthorised information to the offender."),
        trigger=Trigger("irregularity:report_missing/next_played", "Found after the offender's 下家 has played, before the offender plays again.",
                        also=("irregularity:report_wrong/next_played",)),
        rectification=Rectification(("ReportAgain", "Replay", "UnauthorisedInformation"),
                                    "ReportAgain(offender); Replay(seats that played since in this round, the first "
                                    "asked first); UnauthorisedInformation(offender, the partner's taken-back cards)."),
        sanction=_none("none"),
        pd=("Only this round's (圈) plays since the wrong report may be taken back; nothing once the deal is over. "
            "Each seat that played since is asked in play order for its own play; the first that takes back sets "
            "the point: the table is rebuilt as it was before that play, every later play of the round with it."),
    ),
    Clause(
        id="GD-4.2.3", game=GUANDAN, parent="GD-4.2",
        title="Missing report, offender played again",
        text_zh="（3）违规者再次出牌，收回牌张，禁出一手，收回的牌张作暴露张处理。由下家接续出牌或自动拥有领出权，下家有权选择不出，若做出该选择时，由违规者的对家接续出牌，其仍有权选择不出，做出该选择时，由违规者的上家接续出牌，其仍有权选择不出，做出该选择时，违规者禁令取消，重新报牌，并领出（暴露张）。",
        summary=("The offender has played again, still unreported: its cards are taken back and exposed and it is "
                 "barred one play. The next player continues or takes the lead and may pass; then the partner may "
                 "pass; then the offender's 上家 may pass; if all pass the bar ends and the offender reports and "
                 "leads (the exposed cards)."),
        trigger=Trigger("irregularity:report_missing/offender_played_again", "The unreported offender plays again.",
                        also=("irregularity:report_wrong/offender_played_again",)),
        rectification=Rectification(("Return", "Expose", "LeadOption", "PenaltyCards", "BarOnePlay", "ReportAgain",
                                     "PassSequence"),
                                    "Take back and expose the play (作暴露张处理: the GD-2.5 treatment), "
                                    "BarOnePlay(offender, scope='next_turn'); PassSequence(下家, partner, 上家): "
                                    "after three passes the bar ends and it reports and leads."),
        sanction=_none("none: the rectification is the remedy"),
    ),
    Clause(
        id="GD-4.2.4", game=GUANDAN, parent="GD-4.2",
        title="Missing report, offender played several times",
        text_zh="（4）违规者多次出牌，仍未出完时，判其下游，下家接续出牌或自动拥有领出权，其有权选择不出，做出该选择时，违规者的对家出牌或自动拥有领出权，其仍有权选择不出，做出该选择时，违规者的上家接续出牌或自动拥有领出权。",
        summary="The offender has played several times and still holds cards: it is judged last (下游); play goes on among the others as in GD-4.2.3.",
        trigger=Trigger("irregularity:report_missing/offender_played_repeatedly", "The unreported offender has played several times and still holds cards.",
                        also=("irregularity:report_wrong/offender_played_repeatedly",)),
        rectification=Rectification(("Return", "NoTributeNextDeal", "PassSequence"),
                                    "The held play goes back; PassSequence(下家, partner): play continues among the "
                                    "others as in GD-4.2.3; NoTributeNextDeal(offender) (GD-5.1)."),
        sanction=_each(ForcedLast()),
        refs=("GD-4.2.3", "GD-5.1"),
    ),
    Clause(
        id="GD-4.2.5", game=GUANDAN, parent="GD-4.2",
        title="Missing report, offender has gone out",
        text_zh="（5）违规者已经出完牌张，判其下游，若违规者的搭档已经出完牌，其成绩保留，若违规者的搭档未出完牌，则判双下。",
        summary="The offender has gone out: it is judged last; if its partner had already gone out, the partner's place stands; if not, the side is judged double last.",
        trigger=Trigger("irregularity:report_missing/offender_out", "The unreported offender has gone out.",
                        also=("irregularity:report_wrong/offender_out",)),
        rectification=Rectification(("NoTributeNextDeal", "NextDealProcedure"),
                                    "NoTributeNextDeal(offender) (GD-5.1); NextDealProcedure when 双下 (GD-5.2)."),
        sanction=_each(ForcedLast(), text="ForcedDoubleLast for the side instead when the partner has not gone out"),
        refs=("GD-5.1", "GD-5.2"),
    ),
    Clause(
        id="GD-5", game=GUANDAN, heading=True,
        title="Forced results",
        text_zh="五、判单下或双下时",
        summary="What a forced last (单下) or forced double last (双下) means.",
        trigger=Trigger("section", "Groups GD-5.1 and GD-5.2."),
        rectification=Rectification((), _SEE_SUBCLAUSES),
        sanction=_none(_SEE_SUBCLAUSES),
    ),
    Clause(
        id="GD-5.1", game=GUANDAN, parent="GD-5",
        title="Forced last (单下)",
        text_zh="1、单下：判单下者下副牌不进贡。",
        summary=("The offender is placed last (下游); the others keep or finish their places by play. Next deal: "
                 "the player judged 单下 gives no tribute; a tribute its partner owes still stands, as a single "
                 "tribute (to the 上游; the payer leads). With no payer left, no tribute: the 上游 leads."),
        trigger=Trigger("ruling:ForcedLast", "Any ruling that imposes ForcedLast."),
        rectification=Rectification(("NoTributeNextDeal",), "NoTributeNextDeal(the seat judged 单下)."),
        sanction=_none("none of its own: ForcedLast is the sanction of the clause that imposed it"),
    ),
    Clause(
        id="GD-5.2", game=GUANDAN, parent="GD-5",
        title="Forced double last (双下)",
        text_zh="2、双下：判双下时，下副牌不进贡，由违规方任意人洗牌，下家切牌，对家首抓，上家领出。",
        summary=("The deal is scored as the non-offending side taking 上游 and 二游 (+3 levels for them). Next "
                 "deal: no tribute; a player of the offending side shuffles, its 下家 cuts, its 对家 draws "
                 "first and its 上家 leads."),
        trigger=Trigger("ruling:ForcedDoubleLast", "Any ruling that imposes ForcedDoubleLast."),
        rectification=Rectification(("NextDealProcedure",),
                                    "NextDealProcedure.after_double_last(shuffler of the offending side): its imposed "
                                    "leader means no tribute at all."),
        sanction=_none("none of its own: ForcedDoubleLast is the sanction of the clause that imposed it"),
    ),
    Clause(
        id="GD-6", game=GUANDAN,
        title="Penalty cards",
        text_zh="暴露张未能按照第（二）款收回，则成为罚张。拥有罚张者在第一合法时间必须选择打出或过牌，选择过牌时罚张依然存在。若有多个牌型罚张，则由下家指定打出某个牌型或牌张。",
        summary=("Exposed cards not taken back under GD-2.3.1 become penalty cards. At each first legal "
                 "opportunity the holder must play them (as a legal play) or pass; after a pass they stay. "
                 "With penalty cards of several combination types, the holder's 下家 designates which "
                 "(a Choose of the 下家, logged as gd.designated)."),
        trigger=Trigger("ruling:exposed_not_taken_back", "Exposed cards remain after GD-2.3.1 (choice c, or no lead came)."),
        rectification=Rectification(("PenaltyCards",), "PenaltyCards(cards, holder): offered at every legal opportunity until played."),
        sanction=_none("none"),
        refs=("GD-2.3.1",),
    ),
    Clause(
        id="GD-7", game=GUANDAN,
        title="Information",
        text_zh="1 、合法信息：通过运动员打出牌张显示出来的和通过逻辑推理分析出来的信息均为合法信息。\n2 、非法信息：通过打牌节奏变化、异响、不合时宜的举止等等，另外有暴露张对违规方而言等等。非法信息不得利用。\n3 、额外信息：不是通过合法信息和非法信息得到的信息。",
        summary=("Legal: what the played cards show and what logic infers. Illegal: tempo, noises, untimely "
                 "behaviour, and for the offending side its own exposed cards; it may not be used. Extra: "
                 "anything else."),
        trigger=Trigger("standing:information", "Holds throughout: what each seat's observation may carry; a reported use of information sets it off.",
                        also=("report:information",)),
        rectification=Rectification(("UnauthorisedInformation",),
                                    "Exposed cards are visible to all seats; the offending side's agents are told (a flag) which information they may not use."),
        sanction=_none("none"),
    ),
    # -----------------------------------------------------------------------------------------
    # 双升 (seed 001)
    Clause(
        id="SJ-1", game=SHENGJI,
        title="Warning",
        text_zh="第一条 警告 有违例犯规或干扰比赛的言行，在打牌过程中打出无道理的牌张，但性质轻微，又未造成非违规方损失的，由裁判员当场郑重口头给予警告。",
        summary="Minor irregular or disturbing conduct, or an unreasonable play, that caused the non-offenders no damage: a formal oral warning. Forms: SJ-1.1 - SJ-1.18.",
        trigger=Trigger("report:minor_misconduct", "Reported minor misconduct not listed in SJ-1.1 - SJ-1.18."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING, text="a second Warning in the match becomes a RecordedViolation (SJ-2.1)"),
        refs=("SJ-2.1",),
    ),
    Clause(
        id="SJ-1.1", game=SHENGJI, parent="SJ-1",
        title="Took another's card, face unseen",
        text_zh="（一）抢先抓上家或他家理应抓的牌但并未看到的，一经发现马上退回。",
        summary="Took a card another player should draw, without seeing it: returned at once, and a warning.",
        trigger=Trigger("irregularity:draw_other_seat_card/face_unseen", "A seat draws a card due to another seat; its face was not seen.",
                        also=("irregularity:draw_other_seat_card/face_seen_light",)),
        rectification=Rectification(("Return", "RestoreOrder"), "The card goes back at once; drawing order is restored."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.2", game=SHENGJI, parent="SJ-1",
        title="Late, up to 5 minutes (PD band)",
        text_zh="（二）一方迟到超过5分钟。",
        summary="A side is late; by the rulebook's PD bands, up to 5 minutes: a warning (over 5 up to 15: SJ-3.1.2).",
        trigger=Trigger("report:late/over_5_minutes", "Reported: a side arrives late, up to 5 minutes (PD band)."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING, text="to the side"),
        refs=("SJ-3.1.2",),
        pd="The rulebook's PD (SJ-1.2): the seed's warning tier (超过5分钟) and point tier (超过5—15分钟) overlap read literally; they are bands by minutes late: up to 5 → Warning (SJ-1.2); over 5 up to 15 → PointPenalty(10) (SJ-3.1.2); over 15 → unresolved (fallback SJ-3.0).",
    ),
    Clause(
        id="SJ-1.3", game=SHENGJI, parent="SJ-1", heavy=False,
        title="Exposed light card",
        text_zh="（三）暴露的牌张为轻罚张如：所打级牌为2时，暴露的牌张是3、4、6、7、8、 表现形式有抓牌过程中、出牌过程中、扣底牌过程中、整理全手牌过程中等暴露的牌张（即所暴露的牌张必须是四人都看到）。",
        summary="Light penalty card(s) exposed, seen by all four (during the draw, play, burying or sorting). E.g. at level 2, an exposed 3, 4, 6, 7 or 8.",
        trigger=Trigger("irregularity:exposed_card/light", "Cards seen by all four seats, none of them heavy (enforcement.card_weight)."),
        rectification=Rectification(("Expose",), "The cards are exposed."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.4", game=SHENGJI, parent="SJ-1", heavy=False,
        title="Wrong follow, at once, light",
        text_zh="（四）当时跟错牌，不影响出牌，跟错的牌不是重罚张。",
        summary="A wrong follow found at once, not affecting play, the card not heavy: corrected, and a warning.",
        trigger=Trigger("irregularity:wrong_follow/at_once/light", "An illegal follow found before the next seat plays; no heavy card in it."),
        rectification=Rectification(("Return", "Expose", "CorrectFollow"), "The follow is taken back (its cards were seen: exposed) and a legal follow made."),
        sanction=_each(_WARNING),
        refs=("SJ-3.1.12",),
    ),
    Clause(
        id="SJ-1.5", game=SHENGJI, parent="SJ-1",
        title="Banker drew through the kitty",
        text_zh="（五）庄家一人抓过底牌，即指底牌剩7张，且庄家不能亮主或反主。",
        summary="The banker alone drew into the kitty (the kitty is left with 7): the banker loses the right to declare or overcall trump for this deal, and a warning.",
        trigger=Trigger("irregularity:banker_drew_kitty", "The banker draws a card when 8 remain (the kitty)."),
        rectification=Rectification(("LoseDeclarationRight",), "LoseDeclarationRight(banker) for this deal."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.6", game=SHENGJI, parent="SJ-1",
        title="Partners declare at the same moment",
        text_zh="（六）同伴之间同时亮主，由裁判主持抽签决定主牌，且两次以上。",
        summary="Partners declare trump at the same moment: the referee draws lots for which declaration stands; a warning from the second time on.",
        trigger=Trigger("irregularity:simultaneous_declaration", "Both partners declare at the same moment."),
        rectification=Rectification(("LotsDraw",), "LotsDraw(the two partners)."),
        sanction=_ladder((), (_WARNING,), per="side", text="counted per side per match"),
        pd="'两次以上' read as: from the second time on in the match, per side.",
    ),
    Clause(
        id="SJ-1.7", game=SHENGJI, parent="SJ-1",
        title="Suspected prompting in play",
        text_zh="（七）同伴之间有互相提醒出牌的嫌疑。",
        summary="Suspected prompting between partners during play.",
        trigger=Trigger("report:suspected_prompting/play", "Reported: partners suspected of prompting each other's plays."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.8", game=SHENGJI, parent="SJ-1", heavy=False,
        title="Extra light card carried along",
        text_zh="（八）领出、甩牌或跟牌带出一张牌，所带出的牌不是重罚张。",
        summary="A lead, throw or follow carries one extra card that is not heavy: the card is exposed, and a warning.",
        trigger=Trigger("irregularity:extra_card/light", "One card more than the play needs; the extra card is light."),
        rectification=Rectification(("Return", "Expose", "PlayStands"), "The extra card goes back to its owner's hand, exposed; the rest stands (PlayStands)."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.9", game=SHENGJI, parent="SJ-1", heavy=False,
        title="Pair or tractor not followed, at once, light",
        text_zh="（九）领出为对子或连对时，有对子或连对没有跟出当时发现且跟出的牌不是重。",
        summary="A pair or tractor was led and the follower, holding a pair/tractor in the suit, did not follow with it; found at once, the cards not heavy: corrected, and a warning.",
        trigger=Trigger("irregularity:wrong_follow/pair_not_followed/at_once/light", "Shape rule broken on a pair/tractor lead, found at once; no heavy card played."),
        rectification=Rectification(("Return", "Expose", "CorrectFollow"), "The follow is taken back (its cards were seen: exposed) and a legal follow made."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.10", game=SHENGJI, parent="SJ-1",
        title="One card too many or too few after the draw",
        text_zh="（十）抓牌结束时（在庄家没有出牌之前发现），一方多抓一张或少抓一张，由非错误方决定是否抽牌，并给错误方一次警告。",
        summary="At the end of the draw (before the banker's first play) one side has one card too many or too few: the non-offending side decides whether to draw a random card to fix it, and the offender is warned.",
        trigger=Trigger("irregularity:miscount_after_draw/one_card", "Found before the banker's first play: a hand one card off."),
        rectification=Rectification(("Choice", "RandomDraw"), "Choice(non-offending seat, (RandomDraw(...),), may_decline=True)."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.11", game=SHENGJI, parent="SJ-1",
        title="Played tricks not kept in order",
        text_zh="（十一）出过的牌张不按顺序摆放。",
        summary="Played tricks not kept in order.",
        trigger=Trigger("report:tricks_out_of_order", "Reported: a seat's played cards are not kept in order."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.12", game=SHENGJI, parent="SJ-1",
        title="Improper inspection of past tricks",
        text_zh="（十二）在查询打过牌张时，不按规定查询其他牌手的隔圈牌张或到其他牌手出 过的牌上乱扒。",
        summary="Looking at past tricks other than as allowed, or rummaging in other players' played cards.",
        trigger=Trigger("report:improper_trick_inspection", "Reported: a seat inspects past tricks other than as allowed."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
        pd="The engine lets a seat see the last completed trick only.",
    ),
    Clause(
        id="SJ-1.13", game=SHENGJI, parent="SJ-1",
        title="Over the time limit",
        text_zh="（十三）超过规定的领出、跟牌、扣底牌时间和有意拖延时间。",
        summary="Over the time limit for a lead, follow or burying, or deliberate delay.",
        trigger=Trigger("report:over_time", "Reported, or timed by the runner: a decision took longer than allowed."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.14", game=SHENGJI, parent="SJ-1",
        title="Unreasonable play, suspected signal",
        text_zh="（十四）在没有确定是否是非法信息的情况下，打出无道理的牌张，有传递非法信息的嫌疑。",
        summary="An unreasonable play that may carry illegal information (not established as such).",
        trigger=Trigger("report:unreasonable_play", "Reported: a play with no sound reason, suspected of signalling."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.15", game=SHENGJI, parent="SJ-1",
        title="Scoresheet not signed",
        text_zh="（十五）不按要求在成绩单上签名或不签名的。",
        summary="The scoresheet not signed, or not signed as required.",
        trigger=Trigger("report:scoresheet_not_signed", "Reported by the event's officials."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.16", game=SHENGJI, parent="SJ-1",
        title="Suspected reminding of partner's wrong play",
        text_zh="（十六）在打牌的过程中，同伴出错牌有提醒他的嫌疑。",
        summary="Suspected of reminding the partner of its wrong play.",
        trigger=Trigger("report:suspected_reminding/play", "Reported: a seat seems to alert its partner to a wrong play."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.17", game=SHENGJI, parent="SJ-1",
        title="Suspected prompting in declaration",
        text_zh="（十七）在亮主的过程中有提醒同伴的嫌疑。",
        summary="Suspected of prompting the partner during trump declaration.",
        trigger=Trigger("report:suspected_prompting/declaration", "Reported: a seat seems to prompt its partner to declare."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-1.18", game=SHENGJI, parent="SJ-1",
        title="Cards mixed in before the check",
        text_zh="（十八）在最后打完一副牌后，不让对方查验底牌或手中的最后几张牌，就将底牌或手中的最后几张牌插入牌中。",
        summary="After the deal, mixing the kitty or one's last cards into the pack before the opponents could check them.",
        trigger=Trigger("report:cards_mixed_before_check", "Reported: kitty or last cards mixed in before the opponents' check."),
        rectification=Rectification((), "None."),
        sanction=_each(_WARNING),
    ),
    Clause(
        id="SJ-2", game=SHENGJI,
        title="Recorded violation",
        text_zh="第二条 记违例 明显有违例犯规或干扰比赛的言行，在打牌过程中两次以上打出无道理的牌张但未造成非违规方损失的，由裁判员笔记违例一次，并当场郑重宣布。",
        summary="Clearly irregular or disturbing conduct, or unreasonable plays twice or more, that caused no damage: the referee records a violation and announces it. Forms: SJ-2.1 - SJ-2.11.",
        trigger=Trigger("report:clear_misconduct", "Reported clear misconduct not listed in SJ-2.1 - SJ-2.11."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION, text="does not escalate: 判负 (MatchLoss) only by a human referee's ruling (SJ-3.2)"),
        refs=("SJ-3.2",),
    ),
    Clause(
        id="SJ-2.1", game=SHENGJI, parent="SJ-2",
        title="Second warning",
        text_zh="（一）在同轮比赛中，第二次给予警告的。",
        summary="A second warning in the same match becomes a recorded violation (automatic).",
        trigger=Trigger("ledger:second_warning", "The sanctions ledger imposes a Warning on an offender already warned in this match."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        pd=("Every Warning from the second on, for the same player in the match, escalates (not only the "
            "second). A Warning to a side with no seat named counts for that side apart from its players."),
    ),
    Clause(
        id="SJ-2.2", game=SHENGJI, parent="SJ-2",
        title="Repeated signalling; serious prompting; repeated misdraws; passing cards",
        text_zh="（二）在没有确定是否是非法信息的情况下,第二次打出无道理的牌张，有传递非法信息的嫌疑。 1、在出牌的时候提醒对方较为严重的。 2、在亮主的过程中提醒对方亮主或反主较为严重的。 3、在抓牌的过程中多抓或少抓牌出现两次以上的。 4、不按约定原则传牌的。",
        summary=("A second unreasonable play suspected of signalling; serious prompting in play or in "
                 "declaration; drawing too many/too few twice or more; passing cards against the agreed method."),
        trigger=Trigger("report:repeated_or_serious_prompting", "Reported: any of the four forms."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
    ),
    Clause(
        id="SJ-2.3", game=SHENGJI, parent="SJ-2",
        title="Tricks out of order repeatedly, suspected signalling",
        text_zh="（三）多次将出过的牌张不按顺序摆放，且有传递信息的嫌疑或密约。",
        summary="Repeatedly keeping played tricks out of order, suspected of signalling or a secret agreement (serious SJ-1.11).",
        trigger=Trigger("report:tricks_out_of_order/repeated_signalling", "Reported."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        refs=("SJ-1.11",),
    ),
    Clause(
        id="SJ-2.4", game=SHENGJI, parent="SJ-2",
        title="Serious time violation",
        text_zh="（四）超过规定的领出、跟牌、扣底牌时间和有意拖延时间较为严重的。",
        summary="Serious overstepping of the time limit or deliberate delay (serious SJ-1.13).",
        trigger=Trigger("report:over_time/serious", "Reported, or timed by the runner beyond the serious limit."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        refs=("SJ-1.13",),
    ),
    Clause(
        id="SJ-2.5", game=SHENGJI, parent="SJ-2",
        title="Repeated exposure, suspected signalling",
        text_zh="（五）多次暴露轻、重罚张，且有传递信息的嫌疑。",
        summary="Repeatedly exposing light or heavy penalty cards, suspected of signalling (serious SJ-1.3).",
        trigger=Trigger("report:repeated_exposure_signalling", "Reported."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        refs=("SJ-1.3", "SJ-3.1.3"),
    ),
    Clause(
        id="SJ-2.6", game=SHENGJI, parent="SJ-2",
        title="Refusing a correct ruling",
        text_zh="（六）对不服从裁判员的正确判罚。",
        summary="Not complying with a correct ruling of the referee.",
        trigger=Trigger("report:refused_ruling", "Reported by the referee."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
    ),
    Clause(
        id="SJ-2.7", game=SHENGJI, parent="SJ-2",
        title="Deliberate reminding in play",
        text_zh="（七）在打牌的过程中，同伴出错牌有意提醒他的。",
        summary="Deliberately reminding the partner of its wrong play (serious SJ-1.16).",
        trigger=Trigger("report:deliberate_reminding/play", "Reported."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        refs=("SJ-1.16",),
    ),
    Clause(
        id="SJ-2.8", game=SHENGJI, parent="SJ-2",
        title="Deliberate reminding in declaration",
        text_zh="（八）在亮主的过程中有意提醒同伴亮主的。",
        summary="Deliberately prompting the partner to declare (serious SJ-1.17).",
        trigger=Trigger("report:deliberate_reminding/declaration", "Reported."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        refs=("SJ-1.17",),
    ),
    Clause(
        id="SJ-2.9", game=SHENGJI, parent="SJ-2",
        title="Cards mixed in before the check, serious",
        text_zh="（九）在最后打完一副牌后，不让对方查验底牌或手中的最后几张牌，就将底牌或手中的最后几张牌插入牌中较为严重的。",
        summary="A serious case of SJ-1.18.",
        trigger=Trigger("report:cards_mixed_before_check/serious", "Reported."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        refs=("SJ-1.18",),
    ),
    Clause(
        id="SJ-2.10", game=SHENGJI, parent="SJ-2",
        title="Tricks out of order, serious",
        text_zh="（十）出过的牌张不按顺序摆放较为严重的。",
        summary="A serious case of SJ-1.11 that caused no damage (with damage: SJ-3.1.8).",
        trigger=Trigger("report:tricks_out_of_order/serious", "Reported; severity given by the reporter."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        refs=("SJ-1.11", "SJ-3.1.8"),
    ),
    Clause(
        id="SJ-2.11", game=SHENGJI, parent="SJ-2",
        title="Improper trick inspection, serious",
        text_zh="（十一）在查询打过牌张时，不按规定查询其他牌手的隔圈牌张或到其他牌手出过的牌上乱扒其行为较为严重的。",
        summary="A serious case of SJ-1.12 that caused no damage (with damage: SJ-3.1.9).",
        trigger=Trigger("report:improper_trick_inspection/serious", "Reported; severity given by the reporter."),
        rectification=Rectification((), "None."),
        sanction=_each(_VIOLATION),
        refs=("SJ-1.12", "SJ-3.1.9"),
    ),
    Clause(
        id="SJ-3", game=SHENGJI, heading=True,
        title="Point penalty",
        text_zh="第三条 罚 分 罚分的目的不是为了进行惩罚，而是为了对非违规方所造成的损失给予补救。",
        summary="The purpose of a point penalty is remedy for the non-offending side's loss, not punishment.",
        trigger=Trigger("section", "Groups SJ-3.0 - SJ-3.2."),
        rectification=Rectification((), _SEE_SUBCLAUSES),
        sanction=_none(_SEE_SUBCLAUSES),
        pd=("A PointPenalty(n) moves n points towards the non-offending side: an attacking offender's "
            "captured points drop by n (never below 0); a defending offender's opponents gain n. The level "
            "table reads the adjusted total; the result keeps raw and adjusted totals."),
    ),
    Clause(
        id="SJ-3.0", game=SHENGJI, parent="SJ-3", project_default=True,
        title="Unresolved irregularity: adjusted score",
        text_zh="罚分的目的不是为了进行惩罚，而是为了对非违规方所造成的损失给予补救。",
        summary="An irregularity the rulebook does not cover: the configured fallback gives an adjusted score.",
        trigger=Trigger("unresolved", "Every UnresolvedIrregularity in 双升: what no clause covers, and always a play with the wrong number of cards or a lead of mixed suits.",
                        also=("unresolved:wrong_card_count", "unresolved:invalid_lead")),
        rectification=Rectification((), "None beyond what the fallback decides."),
        sanction=_each(AdjustedScore(), text="at the referee's discretion"),
        pd="The default fallback records AdjustedScore() without changing the result, and says so.",
    ),
    Clause(
        id="SJ-3.1", game=SHENGJI, parent="SJ-3",
        title="General damage: 10 points",
        text_zh="一、造成非违规方一般性损失，不影响牌局正常进行的扣10分。",
        summary="Damage to the non-offending side that does not stop normal play: 10 points. Forms: SJ-3.1.1 - SJ-3.1.12.",
        trigger=Trigger("report:general_damage", "Reported damage not listed in SJ-3.1.1 - SJ-3.1.12."),
        rectification=Rectification((), "None."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.1", game=SHENGJI, parent="SJ-3.1", heavy=True,
        title="Took another's card, seen, important",
        text_zh="（一）抢先抓上家或他家理应抓的牌已经看到并且是重要牌张但尚未插入手中的，除马上退回外，给予罚10分。",
        summary="Took a card another should draw, saw it, it is important (heavy), not yet in the hand: returned at once, and 10 points.",
        trigger=Trigger("irregularity:draw_other_seat_card/face_seen_heavy", "A seat draws a card due to another seat; seen, heavy, not yet in its hand."),
        rectification=Rectification(("Return", "RestoreOrder"), "The card goes back at once; drawing order is restored."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.2", game=SHENGJI, parent="SJ-3.1",
        title="Late by over 5 up to 15 minutes (PD band)",
        text_zh="（二）一方迟到超过5—15分钟。",
        summary="A side is late by over 5 up to 15 minutes (the rulebook's PD band): 10 points.",
        trigger=Trigger("report:late/5_to_15_minutes", "Reported: a side arrives over 5 up to 15 minutes late (PD band)."),
        rectification=Rectification((), "None."),
        sanction=_each(_TEN, text="to the side"),
        refs=("SJ-1.2",),
        pd="The rulebook's PD (SJ-1.2): the seed's warning tier (超过5分钟) and point tier (超过5—15分钟) overlap read literally; they are bands by minutes late: up to 5 → Warning (SJ-1.2); over 5 up to 15 → PointPenalty(10) (SJ-3.1.2); over 15 → unresolved (fallback SJ-3.0).",
    ),
    Clause(
        id="SJ-3.1.3", game=SHENGJI, parent="SJ-3.1", heavy=True,
        title="Exposed heavy card",
        text_zh="（三）暴露的牌张为重罚张如：暴露的牌张是大王、小王、主级牌、副级牌、A、K、10、5、QQ、JJ或连对及特殊情况时的小牌对子。表现形式有抓牌过程中、出牌过程中、扣底牌过程中、整理全手牌过程中等暴露的牌张。",
        summary="Heavy penalty card(s) exposed (big/small joker, level cards, A, K, 10, 5, QQ, JJ, a tractor, small pairs in special circumstances), during the draw, play, burying or sorting.",
        trigger=Trigger("irregularity:exposed_card/heavy", "Cards seen by all four seats, at least one heavy (enforcement.card_weight)."),
        rectification=Rectification(("Expose",), "The cards are exposed."),
        sanction=_each(_TEN),
        pd="Small pairs count as heavy only with the special_small_pairs option (off by default): a pair of a suit in which the holder's partner or an opponent has shown void.",
    ),
    Clause(
        id="SJ-3.1.4", game=SHENGJI, parent="SJ-3.1",
        title="Simultaneous declaration decided by one partner",
        text_zh="（四）同伴之间同时亮主，不采用抽签办法，而由一方决定主牌的。",
        summary="Partners declared at once and one of them chose the trump instead of drawing lots.",
        trigger=Trigger("report:declaration_chosen_without_lots", "Reported, or recorded with the declaration: partners settled a simultaneous declaration themselves.",
                        also=("irregularity:simultaneous_declaration/chosen_instead_of_lots",)),
        rectification=Rectification(("DeclarationStands",), "The seed names none; the declaration as chosen stands (PD: DeclarationStands)."),
        sanction=_each(_TEN),
        refs=("SJ-1.6",),
        pd="The trump as chosen stands.",
    ),
    Clause(
        id="SJ-3.1.5", game=SHENGJI, parent="SJ-3.1",
        title="Serious prompting between partners",
        text_zh="（五）同伴之间互相提醒出牌较为严重的。",
        summary="Serious prompting between partners during play.",
        trigger=Trigger("report:serious_prompting/play", "Reported."),
        rectification=Rectification((), "None."),
        sanction=_each(_TEN),
        refs=("SJ-1.7",),
    ),
    Clause(
        id="SJ-3.1.6", game=SHENGJI, parent="SJ-3.1", heavy=True,
        title="Extra heavy card carried along",
        text_zh="（六）领出、甩牌或跟牌带出一张牌，所带出的牌是重罚张。",
        summary="A lead, throw or follow carries one extra card that is heavy: the card is exposed, and 10 points.",
        trigger=Trigger("irregularity:extra_card/heavy", "One card more than the play needs; the extra card is heavy."),
        rectification=Rectification(("Return", "Expose", "PlayStands"), "The extra card goes back to its owner's hand, exposed; the rest stands (PlayStands)."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.7", game=SHENGJI, parent="SJ-3.1",
        title="Two or more cards too many or too few after the draw",
        text_zh="（七）抓牌结束时（在庄家没有出牌之前发现），一方多抓两张牌以上（包括两张）或少抓两张牌以上（包括两张），由非错误方决定是否抽牌或重新抓牌。并罚错误方10分。",
        summary="At the end of the draw (before the banker's first play) a side has two or more cards too many or too few: the non-offending side chooses a random draw or a redeal, and the offending side loses 10 points.",
        trigger=Trigger("irregularity:miscount_after_draw/two_or_more", "Found before the banker's first play: a hand two or more cards off."),
        rectification=Rectification(("Choice", "RandomDraw", "Redeal"), "Choice(non-offending seat, (RandomDraw(...), Redeal()))."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.8", game=SHENGJI, parent="SJ-3.1",
        title="Tricks out of order, serious, damaging",
        text_zh="（八）出过的牌张不按顺序摆放较为严重的。",
        summary="A serious case of SJ-1.11 that damaged the non-offending side.",
        trigger=Trigger("report:tricks_out_of_order/damaging", "Reported; severity given by the reporter."),
        rectification=Rectification((), "None."),
        sanction=_each(_TEN),
        refs=("SJ-1.11", "SJ-2.10"),
    ),
    Clause(
        id="SJ-3.1.9", game=SHENGJI, parent="SJ-3.1",
        title="Improper trick inspection, damaging",
        text_zh="（九）在查询打过牌张时，不按规定查询其他牌手的隔圈牌张或到其他牌手出过的牌上乱扒。",
        summary="A case of SJ-1.12 that damaged the non-offending side.",
        trigger=Trigger("report:improper_trick_inspection/damaging", "Reported; severity given by the reporter."),
        rectification=Rectification((), "None."),
        sanction=_each(_TEN),
        refs=("SJ-1.12", "SJ-2.11"),
    ),
    Clause(
        id="SJ-3.1.10", game=SHENGJI, parent="SJ-3.1",
        title="Leading out of turn (抢出)",
        text_zh="（十）抢出：",
        summary="Leading out of turn: the lead is taken back and the proper order restored, and 10 points.",
        trigger=Trigger("irregularity:lead_before_burial", "A seat leads when it may not.",
                        also=("irregularity:lead_wrong_bury_count", "irregularity:lead_out_of_turn", "irregularity:lead_before_trick_complete")),
        rectification=Rectification(("Return", "Expose", "RedoBury", "RestoreOrder"), "The cards are taken back (they count as seen by all) and the proper order is restored."),
        sanction=_each(_TEN),
        pd="No a/b/c lead option in 双升.",
    ),
    Clause(
        id="SJ-3.1.10.1", game=SHENGJI, parent="SJ-3.1.10",
        title="Lead before the kitty is buried",
        text_zh="（十）抢出： 1、底牌还没有扣完或多扣底牌就出牌。",
        summary="Leading before the kitty is fully buried, or after burying too many.",
        trigger=Trigger("irregularity:lead_before_burial", "The banker leads with fewer or more than 8 cards buried.",
                        also=("irregularity:lead_wrong_bury_count",)),
        rectification=Rectification(("Return", "Expose", "RedoBury", "RestoreOrder"), "The lead is taken back; the burying is completed or corrected; then the banker leads."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.10.2", game=SHENGJI, parent="SJ-3.1.10",
        title="Lead when it is not one's lead",
        text_zh="（十）抢出：……2、本不该自己领出而首先出牌的。",
        summary="Leading when it is another seat's lead.",
        trigger=Trigger("irregularity:lead_out_of_turn", "A seat leads a trick that another seat should lead."),
        rectification=Rectification(("Return", "Expose", "RestoreOrder"), "The lead is taken back; the rightful leader leads."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.10.3", game=SHENGJI, parent="SJ-3.1.10",
        title="Lead before the trick is finished",
        text_zh="（十）抢出：……3、在其他三家还没有出完牌就抢先领出的。",
        summary="Leading the next trick before the other three finished the current one.",
        trigger=Trigger("irregularity:lead_before_trick_complete", "A seat leads while the current trick is still open."),
        rectification=Rectification(("Return", "Expose", "RestoreOrder"), "The lead is taken back; the trick is finished in order."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.10.4", game=SHENGJI, parent="SJ-3.1.10", heavy=True,
        title="Heavy cards led out of turn on the partner's lead",
        text_zh="（十）抢出：……4、抢出的牌如果是重罚张，且该圈为同伴领出时，那么暴露的牌张还要按暴露牌张的重罚张处罚。",
        summary="If the cards led out of turn are heavy and it was the partner's lead, the exposure is penalised as SJ-3.1.3 on top.",
        trigger=Trigger("irregularity:lead_out_of_turn/heavy_on_partners_lead", "With SJ-3.1.10.1-3: the cards are heavy and the partner had the lead.",
                        also=("irregularity:lead_before_trick_complete/heavy_on_partners_lead",)),
        rectification=Rectification(("Return", "Expose", "RestoreOrder"), "The cards are taken back and count as exposed heavy cards; the proper order is restored."),
        sanction=_each(_TEN, text="the out-of-turn lead's 10; the same ruling adds 10 under SJ-3.1.3 for the exposed heavy cards"),
        refs=("SJ-3.1.3",),
    ),
    Clause(
        id="SJ-3.1.11", game=SHENGJI, parent="SJ-3.1",
        title="Playing out of turn (抢跟)",
        text_zh="（十一）抢跟：",
        summary="Following out of turn: the cards are taken back and the proper order restored, and 10 points.",
        trigger=Trigger("irregularity:play_before_turn", "A seat follows before its turn.",
                        also=("irregularity:show_before_upper",)),
        rectification=Rectification(("Return", "Expose", "RestoreOrder"), "The cards are taken back (they count as seen by all) and the proper order is restored."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.11.1", game=SHENGJI, parent="SJ-3.1.11",
        title="Follow before one's turn",
        text_zh="（十一）抢跟： 1、不该自己出牌而抢先出牌的。",
        summary="Playing to the trick before one's turn.",
        trigger=Trigger("irregularity:play_before_turn", "A seat plays to the trick before its turn."),
        rectification=Rectification(("Return", "Expose", "RestoreOrder"), "The cards are taken back; the proper order is restored."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.11.2", game=SHENGJI, parent="SJ-3.1.11",
        title="Cards shown before the 上家 played",
        text_zh="（十一）抢跟：……2、上家还没有出牌就将牌张亮出的。",
        summary="Showing one's cards before the previous player (上家) has played.",
        trigger=Trigger("irregularity:show_before_upper", "A seat shows its follow before its 上家 has played."),
        rectification=Rectification(("Return", "Expose", "RestoreOrder"), "The cards are taken back; the proper order is restored."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.11.3", game=SHENGJI, parent="SJ-3.1.11", heavy=True,
        title="Heavy cards followed out of turn on own side's trick",
        text_zh="（十一）抢跟：……3、 抢跟的牌如果是重罚张，且该圈为自己或同伴领出时，那么暴露的牌张 还要按暴露牌张的重罚张处罚。",
        summary="If the cards played out of turn are heavy and the trick was led by oneself or the partner, the exposure is penalised as SJ-3.1.3 on top.",
        trigger=Trigger("irregularity:play_before_turn/heavy_own_sides_trick", "With SJ-3.1.11.1-2: the cards are heavy and the offender's side led the trick.",
                        also=("irregularity:show_before_upper/heavy_own_sides_trick",)),
        rectification=Rectification(("Return", "Expose", "RestoreOrder"), "The cards are taken back and count as exposed heavy cards; the proper order is restored."),
        sanction=_each(_TEN, text="the out-of-turn follow's 10; the same ruling adds 10 under SJ-3.1.3 for the exposed heavy cards"),
        refs=("SJ-3.1.3",),
    ),
    Clause(
        id="SJ-3.1.12", game=SHENGJI, parent="SJ-3.1",
        title="Wrong follow (跟错)",
        text_zh="（十二）跟错：",
        summary="An illegal follow that damaged the non-offending side, or that was heavy: corrected where the trick is open, and 10 points.",
        trigger=Trigger("irregularity:wrong_follow", "A follow that breaks the follow rules."),
        rectification=Rectification(("Return", "Expose", "Replay", "CorrectFollow"), "The follow is taken back (its cards were seen: exposed) and a legal follow made while the trick is open; plays after it are retaken (Replay)."),
        sanction=_each(_TEN),
        refs=("SJ-1.4",),
    ),
    Clause(
        id="SJ-3.1.12.1", game=SHENGJI, parent="SJ-3.1.12", heavy=True,
        title="Wrong follow, at once, heavy",
        text_zh="（十二）跟错： 1、当时跟错牌，不影响出牌，跟错的牌是重罚张。",
        summary="A wrong follow found at once, not affecting play, the card heavy.",
        trigger=Trigger("irregularity:wrong_follow/at_once/heavy", "An illegal follow found before the next seat plays, with a heavy card in it."),
        rectification=Rectification(("Return", "Expose", "CorrectFollow"), "The follow is taken back (its cards were seen: exposed) and a legal follow made."),
        sanction=_each(_TEN),
    ),
    Clause(
        id="SJ-3.1.12.2", game=SHENGJI, parent="SJ-3.1.12", heavy=False,
        title="Wrong follow, affecting play, light",
        text_zh="（十二）跟错：……2、当时跟错牌，影响出牌，跟错的牌不是重罚张。",
        summary=("A wrong follow that affected play (the next seat had played), the card not heavy: 10. "
                 "With heavy card(s) (PD): 10 here plus 10 under SJ-3.1.3 for the heavy cards shown and taken back."),
        trigger=Trigger("irregularity:wrong_follow/affecting_play/light", "An illegal follow found after the next seat played; no heavy card in it (with one: the PD)."),
        rectification=Rectification(("Return", "Expose", "Replay", "CorrectFollow"), "The follow is taken back (exposed) and corrected while the trick is still open; the plays after it are retaken (Replay)."),
        sanction=_each(_TEN, text="with heavy cards (PD): the same ruling adds 10 under SJ-3.1.3"),
        refs=("SJ-3.1.3",),
        pd=("The case the seed leaves out, found at once, affecting play, heavy card(s) (the rulebook's SJ-3.1.12 PD): "
            "10 under SJ-3.1.12.2 plus 10 under SJ-3.1.3 for the heavy card(s) shown and taken back. "
            "No wrong follow goes unpenalised once it affected play."),
    ),
    Clause(
        id="SJ-3.1.12.3", game=SHENGJI, parent="SJ-3.1.12", project_default=True,
        title="Pair or tractor not followed, affecting play",
        text_zh="（十二）跟错：……3、跟牌为对子或连对时",
        summary="The seed stops here. PD: following a pair/tractor lead without the required pairs when able, after the next player has played (affecting play): 10 points, corrected if the trick is still open.",
        trigger=Trigger("irregularity:wrong_follow/pair_not_followed/affecting_play", "Shape rule broken on a pair/tractor lead, found after the next seat played."),
        rectification=Rectification(("Return", "Expose", "Replay", "CorrectFollow"), "Taken back (exposed) and corrected if the trick is still open; the plays after it are retaken (Replay)."),
        sanction=_each(_TEN),
        refs=("SJ-1.9",),
        pd="The seed text stops mid-sentence ('跟牌为对子或连对时'); the rest of this clause is a project default.",
    ),
    Clause(
        id="SJ-3.2", game=SHENGJI, parent="SJ-3", project_default=True,
        title="Established revoke; match loss; suspension",
        text_zh="处罚的方式有警告、记违例、罚分、判负、停赛五种形式。",
        summary=("Not in the seed. A revoke found after its trick closed (established): tricks stand, 10 points "
                 "per revoke, plus an adjusted-score hook. 判负 (MatchLoss) and 停赛 (Suspension): the seed names "
                 "them but gives no trigger, so never automatic; only a human referee's ruling imposes them."),
        trigger=Trigger("irregularity:wrong_follow/after_trick", "A wrong follow found after its trick closed; also a human "
                        "referee's ruling on a reported incident (Suspension, MatchLoss).",
                        also=("report:suspension",)),
        rectification=Rectification((), "None: the tricks stand; the AdjustedScore hook (SJ-3.0) may add to it."),
        sanction=_each(_TEN, text="per established revoke; MatchLoss or Suspension only by a human referee's ruling"),
        refs=("SJ-3.0",),
        pd="All of SJ-3.2 is a project default.",
    ),
)


def _index(clauses: Iterable[Clause]) -> Mapping[str, Clause]:
    book: dict[str, Clause] = {}
    for c in clauses:
        if c.id in book:
            raise ValueError(f"clause {c.id} defined twice")
        book[c.id] = c
    return MappingProxyType(book)


RULEBOOK: Mapping[str, Clause] = _index(_CLAUSES)


# ---------------------------------------------------------------------------------------------
# Look-ups

def _normalise(clause_id: str) -> str:
    text = clause_id.strip()
    return text[:3].upper() + text[3:] if text[:3].upper() in ("GD-", "SJ-") else text


def clause(clause_id: str) -> Clause:
    """The clause of an id ('GD-2.3.1'); UnknownClause (a KeyError) names near ids."""
    key = _normalise(clause_id) if isinstance(clause_id, str) else clause_id
    found = RULEBOOK.get(key)
    if found is None:
        near = difflib.get_close_matches(str(key), list(RULEBOOK), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise UnknownClause(f"no clause {clause_id!r} in the rulebook{hint}")
    return found


def _check_game(game: str) -> str:
    if game not in GAMES:
        raise OptionError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return game


def clauses_for(game: str) -> list[Clause]:
    """The clauses of one game, in catalogue order."""
    _check_game(game)
    return [c for c in RULEBOOK.values() if c.game == game]


def children(clause_id: str) -> list[Clause]:
    """The direct sub-clauses of a clause, in catalogue order."""
    parent = clause(clause_id).id
    return [c for c in RULEBOOK.values() if c.parent == parent]


def matching(patterns: str | Iterable[str]) -> list[Clause]:
    """Clauses matching glob patterns ('GD-4.2.*'), given as a list or comma-separated text,
    in catalogue order without repeats. A pattern that matches nothing is an UnknownClause."""
    items = patterns.split(",") if isinstance(patterns, str) else list(patterns)
    chosen: set[str] = set()
    for raw in items:
        pattern = _normalise(raw)
        if not pattern:
            continue
        hits = [cid for cid in RULEBOOK if fnmatch.fnmatchcase(cid, pattern)]
        if not hits:
            clause(pattern)  # raises with suggestions for a plain id
            raise UnknownClause(f"no clause matches {raw.strip()!r}")
        chosen.update(hits)
    return [c for cid, c in RULEBOOK.items() if cid in chosen]


def triggered_by(key: str) -> list[Clause]:
    """Clauses one of whose trigger keys is ``key`` (exactly), in catalogue order."""
    return [c for c in RULEBOOK.values() if key in c.trigger.keys]


def fallback_clause(game: str) -> Clause:
    """The clause an UnresolvedIrregularity falls back to (GD-2.5 / SJ-3.0)."""
    return RULEBOOK[FALLBACK[_check_game(game)]]


# ---------------------------------------------------------------------------------------------
# Irregularity ids: the rulebook's triggers in the engines' vocabulary


def _covered(c: Clause, key: str) -> bool:
    """Whether a sub-clause of ``c`` has ``key`` or a narrower one (``key/facts``): then the
    rulings cite the sub-clause, not ``c``."""
    return any(k == key or k.startswith(key + "/") for child in children(c.id) for k in child.trigger.keys)


def clauses_by_irregularity(game: str, irregularities: Iterable[str] = ()) -> dict[str, tuple[str, ...]]:
    """Irregularity id → the clauses a ruling on it can cite, in catalogue order, derived from
    the triggers: a clause answers the ids its ``irregularity:`` keys name (a ``report:`` key:
    ``INCIDENT``) unless a sub-clause has the same key or a narrower one. ``irregularities``
    (the engine's ids, in its order) come first, with () for an id no clause rules on; ids
    the triggers name beyond them follow."""
    out: dict[str, list[str]] = {i: [] for i in irregularities}
    for c in clauses_for(game):
        for key in c.trigger.keys:
            irregularity = key_irregularity(key)
            if irregularity is None or _covered(c, key):
                continue
            cited = out.setdefault(irregularity, [])
            if c.id not in cited:
                cited.append(c.id)
    return {i: tuple(cids) for i, cids in out.items()}


def unresolved_irregularities(game: str) -> tuple[str, ...]:
    """The ids the rulebook always leaves to the fallback clause (its ``unresolved:ID`` keys)."""
    return tuple(k.split(":", 1)[1] for k in fallback_clause(game).trigger.keys if k.startswith("unresolved:"))


def trigger_irregularities(game: str) -> dict[str, tuple[str, ...]]:
    """Irregularity id → the clauses whose trigger keys name it (``irregularity:`` and
    ``unresolved:`` keys, and ``INCIDENT`` for ``report:`` keys), covered or not: the ids
    the rulebook expects the game's engine to emit."""
    out: dict[str, list[str]] = {}
    for c in clauses_for(game):
        for key in c.trigger.keys:
            irregularity = key_irregularity(key)
            if irregularity is None and key.startswith("unresolved:"):
                irregularity = key.split(":", 1)[1]
            if irregularity is not None and c.id not in out.setdefault(irregularity, []):
                out[irregularity].append(c.id)
    return {i: tuple(cids) for i, cids in out.items()}


PD_ZH: dict[str, str] = {
    "GD-1.2": "“方”指一队。全副牌张数不足即为残缺的牌：本副作废，换一副新牌重洗重抓，不处罚。",
    "GD-2.1": "次数按每名牌手、每场比赛计算。",
    "GD-2.2": "禁出一手在轮到违规者时自动以“不出”执行；若轮到之前该圈已结束，禁令失效（“在该圈”；其余禁出一手均为"
              "“下一次轮到其出牌时”）。违规者的同伴仍可出牌。",
    "GD-2.3": "“牌型”指暴露张打出时的掼蛋牌型（单张、对子、三张、三带二、顺子、三连对、钢板、按张数区分的炸弹、同花顺、天王炸）。",
    "GD-2.3.1": "作出 b 选择后，同伴在裁判同意下可以拒绝明显不合理的出牌：只有炸弹才能满足要求时准许拒绝。作出选择之前同伴不得领出；"
                "在选择之前领出，本身按越序出牌（二、3）处理。",
    "GD-2.5": "由兜底规则决定；默认记录一个不改变结果的调整分，并予以说明。",
    "GD-4.1": "正确的报牌记为报牌；牌手可能未报牌或报错牌（四、2）。",
    "GD-4.2": "若在本副牌结束后才发现，四、2（1）至（3）按发现时所到的阶段引用条款，但牌桌不作处理（不重新报牌、不收回、不禁出，"
              "结果不变）；四、2（4）、（5）仍判名次。",
    "GD-4.2.2": "只有本圈中报错牌之后所出的牌可以收回；本副牌结束后不得收回。此后出过牌的各家按出牌顺序就自己所出的牌逐一选择；"
                "第一家选择收回时，牌桌恢复到该手牌之前的状态，本圈其后所出的牌一并收回。",
    "SJ-1.2": "规则书的读法（第一条（二））：原文“超过5分钟”警告与“超过5—15分钟”罚分字面上重叠，按迟到分钟分档：5 分钟以内"
              "警告（第一条（二））；超过 5 分钟至 15 分钟罚 10 分（第三条 一、（二））；超过 15 分钟无条款可依（兜底，第三条）。",
    "SJ-1.6": "“两次以上”读作：同一场比赛中同一方第二次起。",
    "SJ-1.12": "牌手只能查看最近一墩已完成的牌。",
    "SJ-2.1": "同一牌手在同一场比赛中第二次起的每次警告都升级为记违例（不只第二次）。对未指明座位的一方所给的警告，计入该方，"
              "不计入其牌手。",
    "SJ-3": "罚分 n 分即向非违规方移 n 分：闲家违规，其所得分减 n（不低于 0）；庄家违规，其对方加 n。升级按调整后的总分计算；"
            "结果同时保留原始与调整后的总分。",
    "SJ-3.0": "默认的兜底规则记录一个不改变结果的调整分，并予以说明。",
    "SJ-3.1.2": "规则书的读法（第一条（二））：原文“超过5分钟”警告与“超过5—15分钟”罚分字面上重叠，按迟到分钟分档：5 分钟以内"
                "警告（第一条（二））；超过 5 分钟至 15 分钟罚 10 分（第三条 一、（二））；超过 15 分钟无条款可依（兜底，第三条）。",
    "SJ-3.1.3": "小对只有在开启“特殊小对”选项时（默认关闭）才算重罚张：持有者的同伴或对手已显示缺门的花色中的对子。",
    "SJ-3.1.4": "所定的主牌有效。",
    "SJ-3.1.10": "双升没有 a/b/c 领出选择。",
    "SJ-3.1.12.2": "原文未写的情形（当场发现、已影响出牌、含重罚张；规则书对第三条 一、（十二）的读法）：依本条罚 10 分，另依"
                   "第三条 一、（三）就亮出后收回的重罚张再罚 10 分。跟错牌一经影响出牌，必受处罚。",
    "SJ-3.1.12.3": "原文在“跟牌为对子或连对时”处中断；本条其余部分为项目默认。",
    "SJ-3.2": "第三条 二 全部为项目默认。",
}
"""Each clause's project default (``Clause.pd``) in Chinese, for the trainee who reads Chinese first."""
