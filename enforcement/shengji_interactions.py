"""双升's interaction coverage for the fuzzer (``tabletop.conditions``, ``paiju fuzz``): which
(condition, happening) pairs the rules make impossible and why, and where each condition and
happening can arise (an irregularity's stages and words are its record's:
``enforcement.shengji_irregularities``). The engine gives the facts
(``shengji.refereed.conditions``: the table conditions and how to read them off a deal, the
happenings and how to read them off an event); the rules' reading of them lives here, with the
referee, whose part carries ``INTERACTIONS`` (``enforcement.games``)."""

from __future__ import annotations

from enforcement.shengji_irregularities import IRREGULARITIES
from shengji.refereed.conditions import CONDITIONS, HAPPENINGS, deal_of, happening_of, phase_of
from tabletop.conditions import Interactions, impossible_with

_TRICKS = ("throw_failed", "throw_penalty", "trick_won", "kitty_revealed", "taken_back")
_DRAW = ("declared", "redeal", "card_taken", "declaration_stands")
IMPOSSIBLE = {
    **impossible_with(("kitty_being_buried", "declaration_standing", "draw_slip_pending"), _TRICKS,
                      "no card is played before the kitty is buried"),
    **impossible_with(("throw_under_test", "throw_failed_earlier", "latent_revoke"), _DRAW + ("kitty_taken", "buried"),
                      "throws and follows are played after the draw and the burial"),
    **impossible_with(("bad_burial",), ("declared", "redeal", "card_taken", "declaration_stands", "kitty_taken"),
                      "a burial follows the draw and the banker's taking the kitty"),
    ("declaration_standing", "kitty_revealed"): "the kitty is revealed after the last trick, long after the draw",
    **impossible_with(("latent_revoke",), ("throw_failed", "throw_penalty", "burial_undone", "kitty_revealed", "deal_end",
                                           "ruling:SJ-3.1.10.2"),
                      "a revoke lies unseen only while its trick is open (it comes to light when the next seat plays "
                      "or the trick closes): no lead is tested, no burial redone and no deal ended meanwhile"),
    **impossible_with(("bad_burial",), ("trick_won", "kitty_revealed", "deal_end", "ruling:SJ-1.4", "ruling:SJ-1.9",
                                        "ruling:SJ-3.1.12", "ruling:SJ-3.1.12.1", "ruling:SJ-3.1.12.2",
                                        "ruling:SJ-3.1.12.3", "ruling:SJ-3.1.10.3", "ruling:SJ-3.1.11",
                                        "ruling:SJ-3.1.11.1", "ruling:SJ-3.1.11.2", "ruling:SJ-3.1.11.3"),
                      "a wrong burial comes to light at the first lead (SJ-3.1.10.1), before any card follows it "
                      "or any trick ends"),
    **impossible_with(("throw_under_test",), ("throw_failed", "throw_penalty"),
                      "a throw is tested as it is led: while one that stood leads the open trick, no other is led"),
}

# Where each condition and happening can arise, by the rules (a stage is the
# phase the deal is in, or resumes in after a ruling): a condition and a happening whose
# stages do not meet never pair. tests/paiju/fuzz/test_ceiling.py checks them on fuzzed deals.
STAGES = {"draw": "in the draw", "declare": "in the declaration after the draw", "kitty": "while the kitty is buried",
          "play": "in the play", "scored": "after the scoring"}
_DRAW_STAGES = ("draw", "declare")
_PLAY = ("play",)
CONDITION_STAGES = {
    "declaration_standing": _DRAW_STAGES,
    "draw_slip_pending": _DRAW_STAGES,
    "deferred_penalty": _DRAW_STAGES,                 # the banker is known when the draw ends
    "kitty_being_buried": ("kitty",),
    "bad_burial": _PLAY,                              # from the burial to the first lead, which finds it
    "throw_under_test": _PLAY,
    "throw_failed_earlier": ("play", "scored"),
    "latent_revoke": ("play", "scored"),
    # the table offers a choice only on a miscount after the draw or a card drawn from another
    # seat's turn (SJ-1.10, SJ-3.1.7, SJ-1.1, SJ-3.1.1): the remedy, or the card handed over
    "choice_offered": _DRAW_STAGES,
}
HAPPENING_STAGES = {
    "declared": _DRAW_STAGES, "redeal": _DRAW_STAGES, "trump_set": _DRAW_STAGES, "kitty_taken": _DRAW_STAGES,
    "declaration_stands": _DRAW_STAGES, "card_taken": _DRAW_STAGES, "buried": ("kitty",),
    "handed_over": _DRAW_STAGES, "declaration_barred": _DRAW_STAGES,    # SJ-1.1's hand-over, SJ-1.5's bar
    "burial_undone": _PLAY, "throw_failed": _PLAY, "throw_penalty": _PLAY, "trick_won": _PLAY,
    "kitty_revealed": _PLAY, "deal_end": _PLAY, "play_stands": _PLAY,
}
INTERACTIONS = Interactions(conditions=CONDITIONS, happenings=HAPPENINGS, happening_of=happening_of,
                            deal_of=deal_of, phase_of=phase_of, irregularities=IRREGULARITIES,
                            impossible=IMPOSSIBLE, stages=STAGES, condition_stages=CONDITION_STAGES,
                            happening_stages=HAPPENING_STAGES)
