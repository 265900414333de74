"""掼蛋's interaction coverage for the fuzzer (``tabletop.conditions``, ``paiju fuzz``): which
(condition, happening) pairs the rules make impossible and why, where each condition and
happening can arise (an irregularity's stages and words are its record's:
``enforcement.guandan_irregularities``), and the clauses a sanction or an event stands for. The engine gives the facts (``guandan.refereed.conditions``: the table conditions and
how to read them off a deal, the happenings and how to read them off an event); the rules'
reading of them lives here, with the referee, whose part carries ``INTERACTIONS``
(``enforcement.games``)."""

from __future__ import annotations

from enforcement.guandan_irregularities import IRREGULARITIES
from guandan.refereed.conditions import CONDITIONS, HAPPENINGS, deal_of, happening_of, phase_of
from tabletop.conditions import Interactions, impossible_with

# A lead option is not among them: a card exposed while tribute is under way sets one up
# (GD-2.5), for the first lead after it — the fuzzer met that pair.
_PLAY_ONLY = ("round_over", "jiefeng", "going_out", "placed_last", "designated", "lead_restricted",
              "cards_reported", "barred_pass", "taken_back", "play_stands")
_BEFORE_PLAY = "tribute and return are done before the first play of the deal (no round is played meanwhile)"
RULING = "ruling:"
# Happenings that need a seat to play or pass, after the deal's first play.
_LATER_PLAYS = ("round_over", "jiefeng", "going_out", "taken_back", "cards_reported")
# What needs a play now: the play itself, and rulings on a play attempt. (Serving a bar needs
# none: when the due 报牌 is made the table moves on to bars, and a round or the deal may end.)
_PLAYED = ("going_out", "taken_back", "play_stands", "cards_reported", "ruling:GD-2.3.1", "ruling:GD-2.4.1",
           "ruling:GD-2.4.2", "ruling:GD-2.4.3")
_REPORTS = ("ruling:GD-4.2.1", "ruling:GD-4.2.2", "ruling:GD-4.2.3", "ruling:GD-4.2.4", "ruling:GD-4.2.5")
_FORCED = ("result_forced", "placed_last", "ruling:GD-5.1", "ruling:GD-5.2", "ruling:GD-3.1.2",
           "ruling:GD-3.2.2")
_DECIDED_BY_SUB_CLAUSES = {
    "GD-1.1": "how the card drawn out of turn was seen (GD-1.1.1, 1.1.2, 1.1.3a, 1.1.3b)",
    "GD-2.2": "what was announced, pass or beat (GD-2.2.1, 2.2.2)",
    "GD-2.3": "whether the next seat played on the cards (GD-2.3.1, 2.3.2)",
    "GD-2.4": "what was wrong with the play (GD-2.4.1 to 2.4.4)",
    "GD-3.1": "whether the wrong tribute was found before or after the first play (GD-3.1.1, 3.1.2)",
    "GD-3.2": "whether the wrong return was found before or after the first play (GD-3.2.1, 3.2.2)",
    "GD-4.2": "how far the play went before the 报牌 irregularity came to light (GD-4.2.1 to 4.2.5)",
}
"""Clauses no ruling cites: their sub-clauses divide every case among them, by what is named."""

IMPOSSIBLE = {
    **impossible_with(("tribute_under_way", "return_under_way"), _PLAY_ONLY, _BEFORE_PLAY),
    **impossible_with(("tribute_under_way", "return_under_way"), ("redeal", "card_lost"),
                      "tribute comes after the draw is complete: nothing is redealt or lost from the stock then"),
    ("tribute_under_way", "return"): "the return follows the tributes: it cannot be given while one is still due",
    ("return_under_way", "tribute"): "every tribute is given before the first return",
    ("return_under_way", "tribute_resisted"): "抗贡 is decided before any tribute, so before any return",
    ("partner_gone_out", "redeal"): "a player goes out only in the play, after the draw",
    ("partner_gone_out", "card_lost"): "a player goes out only in the play, after the draw",
    ("partner_gone_out", "tribute"): "a player goes out only in the play, after tribute",
    ("partner_gone_out", "return"): "a player goes out only in the play, after the return",
    ("partner_gone_out", "tribute_resisted"): "a player goes out only in the play, after tribute",
    **impossible_with(("tribute_under_way", "return_under_way", "latent_tribute_error"),
                      ("deal_end", "result_forced", "placed_last", "ruling:GD-5.1", "ruling:GD-5.2"),
                      "before the first play no ruling ends the deal or places a seat: a wrong tribute or return found "
                      "at once is given again (GD-3.1.1, GD-3.2.1); 单下 and 双下 follow a wrong count after the draw "
                      "(GD-1.2.1, in the draw), a wrong tribute or return found after the first play (GD-3.1.2, "
                      "GD-3.2.2) or a 报牌 irregularity (GD-4.2.4, GD-4.2.5: a seat reports at 10 cards or fewer)"),
    **impossible_with(("latent_tribute_error",), _LATER_PLAYS + _REPORTS,
                      "a wrong tribute or return lies unnoticed only until the deal's first play, which finds it "
                      "(GD-3.1.2, GD-3.2.2): no round ends, no seat goes out, no play is taken back and nobody holds the 10 "
                      "cards or fewer that a 报牌 needs before then"),
    **impossible_with(("latent_tribute_error",), ("ruling:GD-3.1.2", "ruling:GD-3.2.2"),
                      "the wrong tribute or return is no longer unnoticed once found after the first play: the ruling "
                      "on it follows its finding"),
    **impossible_with(("partner_gone_out", "forced_place_judged"), ("ruling:GD-3.1.2", "ruling:GD-3.2.2"),
                      "a wrong tribute or return nobody noticed is found at the deal's first play and ruled on straight "
                      "after it, while every hand still holds 27 cards: nobody has gone out or been placed last yet"),
    **impossible_with(("report_pending",), _PLAYED + _REPORTS + _FORCED,
                      "while a 报牌 is due nobody plays (the reporting seat reports first, GD-4.1; a play out of "
                      "turn is not taken then): no play stands or goes out, no attempt is laid; a 报牌 irregularity is "
                      "ruled after its report is made (the due report is over then) or when the play reaches it; so "
                      "no seat is placed last nor a result forced, which only those rulings (GD-4.2.4, GD-4.2.5) and a "
                      "wrong tribute or return found at the first play (27 cards in every hand) do"),
    **impossible_with(("out_of_turn_pending",), ("ruling:GD-2.4.1", "ruling:GD-2.4.2",
                                                  "ruling:GD-2.4.3", "taken_back", "designated") + _REPORTS + _FORCED,
                      "an out-of-turn play waits for its 下家, whose answer (a call, a play on it, a pass, an "
                      "irregular attempt) brings it to the referee, who rules on it first (GD-2.3.1, or GD-2.3.2 while "
                      "it still lies there) and on an attempt of the 下家 only after it is taken back; meanwhile no other "
                      "seat plays or answers a take-back or designation, and a 报牌 irregularity comes to light only "
                      "when play goes on (so neither does what its rulings and a wrong tribute found at the first play "
                      "bring: a seat placed last, a result forced)"),
    **impossible_with(("cards_on_table",), ("tribute", "return", "tribute_resisted", "redeal", "ruling:GD-1.1.3a",
                                            "ruling:GD-1.1.3b", "ruling:GD-1.2", "ruling:GD-1.2.1", "ruling:GD-1.2.2"),
                      "before the play, cards lie on the table only while the referee rules on them: a card drawn out "
                      "of turn and seen but not taken into the hand (GD-1.1.1, 1.1.2: it goes back onto the stock, so "
                      "the draw is not over and its counts are not checked), or a wrong tribute or return laid down "
                      "(GD-3.1.1, 3.2.1: it goes back, to be given again by the seat's next action)"),
    **{(condition.name, RULING + clause): f"a ruling under {clause} always cites the sub-clause that decides it, "
                                          f"by {what}"
       for condition in CONDITIONS for clause, what in _DECIDED_BY_SUB_CLAUSES.items()},
}

# Where each condition and happening can arise, by the rules (a stage is the
# phase the deal is in, or resumes in after a ruling): a condition and a happening whose
# stages do not meet never pair. tests/paiju/fuzz/test_ceiling.py checks them on fuzzed deals.
STAGES = {"draw": "in the draw", "tribute": "while tribute is given", "return": "while the return is given",
          "play": "in the play", "scored": "after the scoring"}
_PLAY_ON = ("play", "scored")
CONDITION_STAGES = {
    "tribute_under_way": ("tribute",), "return_under_way": ("return",), "partner_gone_out": ("play",),
    # a seat is placed last only by a ruling on a 报牌 irregularity (GD-4.2.4, GD-4.2.5), found in the play
    "forced_place_judged": _PLAY_ON,
    # a choice is offered only in the play: the lead option (GD-2.3.1), the penalty cards'
    # designation (GD-6), a take-back (GD-4.2.2); the deal's end withdraws it
    "choice_offered": ("play",),
    "report_pending": _PLAY_ON, "out_of_turn_pending": _PLAY_ON, "correction_due": _PLAY_ON,
    "bar_pending": _PLAY_ON, "lead_restriction": _PLAY_ON, "pass_sequence": _PLAY_ON,
    "latent_tribute_error": ("tribute", "return", "play"),     # found at the first play
    # cards are exposed (and so become penalty cards, or give a lead option) only by a play, a
    # tribute or a return laid on the table (GD-2.4, GD-3.1.1) or an exposure in the play: the
    # draw's irregularities (GD-1.1, GD-1.2) and a reported incident expose none
    **{condition: ("tribute", "return", "play", "scored") for condition in ("exposed_cards", "lead_option_pending")},
    # exposed cards become penalty cards only in the play: by choice c at a lead, at once when the
    # owner's partner can lead no more (gone out or placed last), or left unused by a correction
    "penalty_cards_held": _PLAY_ON,
}
HAPPENING_STAGES = {
    **{happening: _PLAY_ON for happening in (
        "round_over", "jiefeng", "going_out", "designated", "lead_restricted", "cards_reported", "barred",
        "barred_pass", "bar_ended", "play_stands")},
    "taken_back": ("play",),   # nothing is taken back once the deal is over (GD-4.2.2)
    "tribute": ("tribute",), "return": ("return",), "tribute_resisted": ("draw", "tribute"),
    "redeal": ("draw",), "card_lost": ("draw",),
}
INTERACTIONS = Interactions(conditions=CONDITIONS, happenings=HAPPENINGS, happening_of=happening_of,
                            deal_of=deal_of, phase_of=phase_of, irregularities=IRREGULARITIES,
                            impossible=IMPOSSIBLE, stages=STAGES, condition_stages=CONDITION_STAGES,
                            happening_stages=HAPPENING_STAGES,
                            clauses_by_sanction={"ForcedLast": "GD-5.1", "ForcedDoubleLast": "GD-5.2"},
                            # cards made penalty cards; the 下家 designating which of them is played
                            clauses_by_event={"table.penalty_cards": ("GD-6", "effect"),
                                              "gd.designated": ("GD-6", "designation")})
