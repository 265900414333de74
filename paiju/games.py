"""What the application needs to know about each game, from the game registry
(``tabletop.games``): how to build deal and match engines from the seed tree, its agents,
how to rebuild actions from a log — and the application's own part of each game (``paiju``
layer): how to summarise its results. A game without a paiju part gets the generic summary.
Engines are imported when a game is first asked for, so `paiju rules` stays quick."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from tabletop.events import EventStream
from tabletop.games import add_part, game_spec
from tabletop.seats import PARTNERSHIPS, Seating

from paiju.summary import Row, Section, Summary, count_row, counted, mean, share, spread_row, unit_noun

__all__ = ["GameAdapter", "PaijuPart", "Summary", "adapter_for", "counted", "paiju_part", "unit_noun"]


@attrs.frozen
class GameAdapter:
    name: str
    rules_from_dict: Callable[[dict[str, Any]], Any]
    new_deal: Callable[..., Any]
    """(root seed, deal index, rules, stream, **engine options) → a deal engine."""
    new_match: Callable[..., Any]
    """(root seed, match index, rules, stream, **engine options) → a match engine."""
    agent_factories: dict[str, Callable[[Any], Any]]
    action_from_event: Callable[[Any], Any]
    summarize: Callable[[str, Sequence[Any], Sequence[str]], "Summary"]
    engine_options: Callable[[Mapping[str, Any]], dict[str, Any]]
    """A log header's options (referee, infractions) → the engine keywords (mode …)."""
    seating: Seating = PARTNERSHIPS

    def new_engine(self, unit: str, seed: int, index: int, rules: Any, stream: EventStream,
                   options: Mapping[str, Any] | None = None) -> Any:
        """Unit ``index`` of a run: a deal or a whole match, in the mode the options ask for."""
        make = self.new_match if unit == "matches" else self.new_deal
        return make(seed, index, rules, stream, **self.engine_options(options or {}))


@attrs.frozen
class DealFacts:
    """A deal as a tournament scores it: the side that won it and by how many levels, with
    what each game adds (``paiju.tournament`` reads these through ``PaijuPart.deal_facts``)."""

    number: int
    """1 for a lone deal; the deal's number in its match otherwise."""
    winner_team: int
    levels: int
    finish_order: str | None = None
    """掼蛋: the four seats in finishing order, e.g. '0 2 1 3'."""
    banker: int | None = None
    """双升: the banker seat."""
    points: int | None = None
    """双升: the attackers' points after adjustments."""
    forced: bool | None = None
    """掼蛋: the result was set by a referee ruling."""
    point_adjustment: int | None = None
    """双升: the attackers' points moved by referee rulings (failed throws not counted)."""


LAYER = "paiju"


@attrs.frozen
class PaijuPart:
    """The application's part of a game: how `paiju simulate` summarises its results and
    what the refereed summary says changed, how the replay table shows its events."""

    summarize: Callable[[str, Sequence[Any], Sequence[str]], Summary] | None = None
    """(unit, results, agent kinds) → the summary; None: the generic one (units played)."""
    replay_handlers: Callable[[], dict[str, Any]] = dict
    """→ event kind → replay-table handler (``paiju.replay.fold``), loaded on first use."""
    replay_seats: Callable[[], Any] | None = None
    """→ the replay frame's seats from the engine's view of the table (``paiju.replay.table.SeatsOf``),
    loaded on first use; None: the game's engine offers no view."""
    changed_by_rulings: Callable[[str, Sequence[Any]], Any] | None = None
    """(unit, results) → the rows (``paiju.summary.Row``) of what rulings changed
    (``paiju.sim.referee_summary``)."""
    changed_note: str = ""
    """What the terms of those rows mean (printed under them)."""
    round_word: str = "round"
    """What the game calls one round of play ('round', 'trick')."""
    shows_last_round: bool = False
    """The text view shows the previous trick (the game lets players see it)."""
    short_title: str = ""
    """The game's name on the replay page (掼蛋, 双升); empty: the registry's title."""
    wild_suit: str | None = None
    """The suit whose level card is wild (掼蛋's 逢人配: hearts), marked on the replay page."""
    deal_facts: Callable[[Any, bool], tuple[tuple[DealFacts, ...], int | None]] | None = None
    """(a unit's result, whether it is a match) → its deals as a tournament scores them and
    the match winner (None for a lone deal or a tied match); None: no tournaments."""
    deal_levels_at_most: int | None = None
    """The most levels one deal can give (掼蛋: 3, a 1-2 finish): a tournament's level
    differences lie in [-this, +this], which its intervals use; None: no such bound."""
    bot_protocol: str | None = None
    """The competition protocol whose bots can sit at its tables ('ogd': ``paiju.ogd``)."""
    card_legend: tuple[tuple[str, str], ...] = ()
    """The replay page's legend of card marks: (mark, what it means) with mark one of
    'level' (the deal's level rank), 'wild' (the level card of ``wild_suit``), 'trump' (the
    trump suit, once set), 'joker'; ``{level}``, ``{card}`` and ``{suit}`` in the text are
    filled in per deal."""
    words: Callable[[], Any] | None = None
    """→ the game's own ``paiju.wording.Words`` (its facts, irregularities, combinations,
    choices), loaded on first use; None: the shared words only."""


def paiju_part(game: Any) -> PaijuPart:
    """The application's part of ``game`` (the defaults for a game that registered none)."""
    return game_spec(game).parts.get(LAYER) or _NO_PART


def _engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
    if not options.get("referee") and not options.get("infractions"):
        return {}
    from enforcement.setup import engine_options

    return engine_options(options)


def adapter_for(game: Any) -> GameAdapter:
    """The registered game ``game`` as the application uses it (a one-line OptionError for
    an unknown one)."""
    spec = game_spec(game)
    part = paiju_part(game)
    keywords = spec.engine_keywords

    def engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in _engine_options(options).items() if k in keywords}

    return GameAdapter(
        name=spec.name,
        rules_from_dict=spec.rules_from_dict,
        new_deal=spec.new_deal,
        new_match=spec.new_match,
        agent_factories=dict(spec.agents),
        action_from_event=spec.action_from_event,
        summarize=part.summarize or _generic_summary(spec.title),
        engine_options=engine_options,
        seating=spec.seating,
    )


def _generic_summary(title: str) -> Callable[[str, Sequence[Any], Sequence[str]], Summary]:
    def summarize(unit: str, results: Sequence[Any], kinds: Sequence[str]) -> Summary:
        n = len(results)
        return Summary(title=f"{title}: {counted(n, unit_noun(unit))}", unit=unit, count=n,
                       sections=(Section(unit, "played", (count_row("played", unit, n),)),))
    return summarize


def _pairing(kinds: Sequence[str], side: int) -> str:
    """The agents of side ``side`` of a partnership game: 'heuristic&random'."""
    return f"{kinds[side]}&{kinds[side + 2]}"


def _side_label(kinds: Sequence[str], side: int) -> str:
    return f"side {side} (seats {side}&{side + 2}, {_pairing(kinds, side)})"


def _ended_rows(ended: Counter, n: int, known: dict[str, str]) -> tuple[Row, ...]:
    """How matches ended: the game's known ways in order (with what each means), then any
    other way a result names, so no match is left out of the table."""
    ways = list(known) + sorted(k for k in ended if k not in known)
    return tuple(count_row(known.get(how) or str(how), str(how), ended.get(how, 0), n) for how in ways)


def _agent_rows(winners: Sequence[int | None], kinds: Sequence[str]) -> tuple[Row, ...]:
    """Who beat whom, by the agents of each side: 'heuristic&heuristic beat random&random'."""
    n = len(winners)
    beat: Counter[str] = Counter()
    for winner in winners:
        if winner is not None:
            beat[f"{_pairing(kinds, winner)} beat {_pairing(kinds, 1 - winner)}"] += 1
    return tuple(count_row(label, label, count, n) for label, count in sorted(beat.items()))


# ---------------------------------------------------------------------------------------------
# 掼蛋

_FINISHES = ((3, "1-2", "1st & 2nd (1-2): +3 levels"),
             (2, "1-3", "1st & 3rd (1-3): +2 levels"),
             (1, "1-4", "1st & last (1-4): +1 level"))
_PLACES = "上游 1st, 二游 2nd, 三游 3rd, 下游 last; after a 1-2 the losers are 双下 (double down)"
_TRIBUTE = ("double tribute follows a 1-2 finish not imposed by a ruling (双下: the losers finished 3rd and last); 抗贡: no tribute when "
            "the payer (or the two payers) hold both big jokers; waived: no tribute after a 判双下 (a 双下 imposed "
            "by a ruling, GD-5.2), nor from a player judged 单下 (GD-5.1)")
_GUANDAN_ENDS = {"pass_a": "passed A", "deals": "the fixed number of deals (match_end=deals)",
                 "max_deals": "the deal limit (max_deals): a result by levels"}


FINAL_ROWS_EACH = 10
"""Up to this many matches, the summary lists each one's final levels and 级差分."""
_FINAL = (f"级差分: a side's level minus the other's at the end (passing A: the rules' pass_a_score), "
          f"less its penalties; each match is listed up to {FINAL_ROWS_EACH} matches, all in --summary's per_unit")


def _guandan_final_rows(results: Sequence[Any], kinds: Sequence[str]) -> tuple[Row, ...]:
    """Per side: its 级差分 over the matches and the levels it ended at; then each match's
    final levels and scores (a few matches only)."""
    rows = []
    for t in (0, 1):
        scores = [r.scores[t] for r in results]
        ended = Counter(r.levels[t] for r in results)
        at = ", ".join(f"{level} ×{count}" for level, count in sorted(
            ended.items(), key=lambda item: (-item[1], item[0])))
        average = mean(scores) if scores else 0.0
        rows.append(Row(_side_label(kinds, t), f"side{t}",
                        {"score_total": sum(scores), "score_mean": round(average, 3), "final_levels": dict(ended)},
                        f"级差分 {sum(scores):+d} in all ({average:+.2f} a match); ended at {at or '-'}"))
    if len(results) <= FINAL_ROWS_EACH:
        for i, r in enumerate(results):
            rows.append(Row(f"match {i}", f"match{i}", {"levels": list(r.levels), "scores": list(r.scores)},
                            f"levels {r.levels[0]} / {r.levels[1]}, 级差分 {r.scores[0]:+d} / {r.scores[1]:+d}"
                            + (f" (penalties {r.penalties[0]} / {r.penalties[1]})" if any(r.penalties) else "")))
    return tuple(rows)


def _summarize_guandan(unit: str, results: Sequence[Any], kinds: Sequence[str]) -> Summary:
    n = len(results)
    if unit == "deals":
        finishes = Counter(r.levels for r in results)
        plays = [r.plays for r in results]
        rows_finish = tuple(count_row(label, key, finishes.get(gain, 0), n) for gain, key, label in _FINISHES)
        rows_sides = []
        for t in (0, 1):
            won = sum(1 for r in results if r.team == t)
            gained = sum(r.levels for r in results if r.team == t)
            rows_sides.append(Row(_side_label(kinds, t), f"side{t}", {"won": won, "levels_gained": gained},
                                  f"won {share(won, n)}, +{counted(gained, 'level')}"))
        return Summary(
            title=f"掼蛋: {counted(n, 'deal')} at level 2", unit=unit, count=n,
            sections=(Section("finishing places of the winning side", "finishes", rows_finish, note=_PLACES),
                      Section("by side (deals won, levels gained)", "by_side", tuple(rows_sides)),
                      Section("play", "play", (spread_row("plays per deal", "plays_per_deal", plays),))),
            per_unit={"plays": plays})

    wins = Counter(r.winner for r in results)
    deals = [len(r.deals) for r in results]
    tribute = Counter(d.tribute for r in results for d in r.deals)
    due = sum(v for k, v in tribute.items() if k != "none")
    rows_wins = tuple(count_row(_side_label(kinds, t), f"side{t}", wins.get(t, 0), n) for t in (0, 1))
    rows_wins += (count_row("tied by levels (no winner)", "tied", wins.get(None, 0), n),)
    rows_tribute = (
        count_row("deals with tribute due (from the 2nd deal on)", "due", due),
        count_row("single tribute (after a 1-3 or 1-4)", "single", tribute.get("single", 0), due),
        count_row("double tribute (after a 1-2 by play: 双下)", "double", tribute.get("double", 0), due),
        count_row("抗贡 (resisted)", "resisted", tribute.get("resisted", 0), due),
        count_row("waived by a ruling (after a 判双下, or every payer judged 单下)", "waived",
                  tribute.get("waived", 0), due),
    )
    return Summary(
        title=f"掼蛋: {counted(n, 'match')}", unit=unit, count=n,
        sections=(Section("wins by side", "wins", rows_wins),
                  Section("wins by agents (who beat whom)", "wins_by_agents",
                          _agent_rows([r.winner for r in results], kinds), empty="no winner"),
                  Section("how matches ended", "ended", _ended_rows(Counter(r.ended for r in results), n, _GUANDAN_ENDS)),
                  Section("final levels and 级差分 (match score)", "final", _guandan_final_rows(results, kinds),
                          note=_FINAL),
                  Section("deals per match", "deals_per_match", (spread_row("deals", "deals", deals),)),
                  Section("tribute (per deal)", "tribute", rows_tribute, note=_TRIBUTE)),
        per_unit={"deals": deals, "scores": [list(r.scores) for r in results],
                  "final_levels": [list(r.levels) for r in results], "winner": [r.winner for r in results]})


# ---------------------------------------------------------------------------------------------
# 双升

_POINT_BANDS = ((0, 0, "0", "0 (banker +3)"), (5, 35, "5-35", "5-35 (banker +2)"),
                (40, 75, "40-75", "40-75 (banker +1)"), (80, 115, "80-115", "80-115 (attackers take the bank)"),
                (120, 155, "120-155", "120-155 (attackers +1)"), (160, 195, "160-195", "160-195 (attackers +2)"),
                (200, 10_000, "200+", "200+ (attackers +3 or more)"))
_SHENGJI_ENDS = {"held_a": "a banker side won its deal at A", "max_deals": "the deal limit (max_deals)",
                 "match_loss": "lost by a ruling (判负, SJ-3.2)"}


def _shengji_deal_sections(deals: Sequence[Any], kinds: Sequence[str], prefix: str = "") -> tuple[Section, ...]:
    n = len(deals)
    throws = sum(d.throws for d in deals)
    bonuses = [d.kitty_bonus for d in deals if d.kitty_bonus]
    mean_bonus = round(mean(bonuses), 3) if bonuses else None
    rows_play = (
        count_row("banker side holds (keeps the bank)", "banker_holds", sum(1 for d in deals if d.banker_holds), n),
        spread_row("attackers' points", "attacker_points", [d.points for d in deals]),
        count_row("points adjusted by penalties", "adjusted", sum(1 for d in deals if d.points != d.raw_points), n),
        Row("throws (甩牌)", "throws", throws, f"{throws} ({throws / n:.2f} per deal)" if n else "0"),
        count_row("failed throws", "failed_throws", sum(d.failed_throws for d in deals), throws),
        Row("kitty bonuses", "kitty_bonuses", {"deals": len(bonuses), "mean_points": mean_bonus},
            share(len(bonuses), n) + (f", mean {mean_bonus:.1f} points" if bonuses else "")),
        count_row("no-trump deals", "no_trump", sum(1 for d in deals if d.trump is None), n),
    )
    bands = tuple(count_row(label, key, sum(1 for d in deals if lo <= d.points <= hi), n)
                  for lo, hi, key, label in _POINT_BANDS)
    changes = Counter((d.side, d.levels) for d in deals)
    rows_changes = tuple(count_row(f"{side} +{counted(levels, 'level')}" if levels else f"{side} take the bank (+0)",
                                   f"{side}+{levels}", count, n)
                         for (side, levels), count in sorted(changes.items()))
    rows_sides = []
    for t in (0, 1):
        up = sum(1 for d in deals if d.team == t and d.levels)
        gained = sum(d.levels for d in deals if d.team == t)
        rows_sides.append(Row(_side_label(kinds, t), f"side{t}", {"went_up": up, "levels_gained": gained},
                              f"up in {share(up, n)}, +{counted(gained, 'level')}"))
    return (Section("deals", f"{prefix}play", rows_play),
            Section("by side (deals in which it went up, levels gained)", f"{prefix}by_side", tuple(rows_sides)),
            Section("attackers' points (level table)", f"{prefix}points", bands),
            Section("level changes (who went up, by how many levels)", f"{prefix}level_changes", rows_changes))


def _summarize_shengji(unit: str, results: Sequence[Any], kinds: Sequence[str]) -> Summary:
    n = len(results)
    if unit == "deals":
        return Summary(title=f"双升: {counted(n, 'deal')}", unit=unit, count=n,
                       sections=_shengji_deal_sections(results, kinds),
                       per_unit={"attacker_points": [d.points for d in results],
                                 "raw_points": [d.raw_points for d in results]})
    wins = Counter(r.winner for r in results)
    deals = [d for r in results for d in r.results]
    rows_wins = tuple(count_row(_side_label(kinds, t), f"side{t}", wins.get(t, 0), n) for t in (0, 1))
    rows_wins += (count_row("no winner (deal limit, equal levels)", "none", wins.get(None, 0), n),)
    per_match = [r.deals for r in results]
    return Summary(
        title=f"双升: {counted(n, 'match')} ({counted(len(deals), 'deal')})", unit=unit, count=n,
        sections=(Section("wins by side", "wins", rows_wins),
                  Section("wins by agents (who beat whom)", "wins_by_agents",
                          _agent_rows([r.winner for r in results], kinds), empty="no winner"),
                  Section("how matches ended", "ended", _ended_rows(Counter(r.how for r in results), n, _SHENGJI_ENDS)),
                  Section("deals per match", "deals_per_match", (spread_row("deals", "deals", per_match),)))
        + _shengji_deal_sections(deals, kinds, prefix="all_deals."),
        per_unit={"deals": per_match, "final_levels": [list(r.levels) for r in results],
                  "winner": [r.winner for r in results]})


def _handlers(module: str) -> Callable[[], dict[str, Any]]:
    def load() -> dict[str, Any]:
        return importlib.import_module(module).HANDLERS
    return load


def _seats(module: str) -> Callable[[], Any]:
    def load() -> Any:
        return importlib.import_module(module).seats
    return load


def _words(module: str) -> Callable[[], Any]:
    def load() -> Any:
        return importlib.import_module(module).WORDS
    return load


_FORCED = "deals with a forced result (判单下/判双下)"
FORCED_NOTE = ("判单下 (判下游): the offender is placed last, and pays no tribute next deal; 判双下: the deal is "
               "scored 1-2 for the other side, with no tribute next deal (GD-5.1, GD-5.2)")


def _changed_guandan(unit: str, results: Sequence[Any]) -> tuple[Row, ...]:
    """What rulings changed in 掼蛋 results: forced results, level-difference penalties."""
    if unit == "deals":
        return (count_row(_FORCED, "forced_deals", sum(1 for r in results if r.forced), len(results)),)
    forced = sum(1 for m in results for d in m.deals if d.forced)
    penalties = [sum(m.penalties) for m in results]
    penalised = sum(1 for p in penalties if p)
    return (count_row(_FORCED, "forced_deals", forced, sum(len(m.deals) for m in results)),
            Row("matches with level-difference penalties (级差分)", "penalised_matches",
                {"matches": penalised, "levels": sum(penalties)},
                f"{penalised} ({counted(sum(penalties), 'level')} in all)"))


def _changed_shengji(unit: str, results: Sequence[Any]) -> tuple[Row, ...]:
    """What rulings changed in 双升 results: points moved, level results flipped, matches lost."""
    from shengji.scoring import level_result

    deals = list(results) if unit == "deals" else [d for m in results for d in m.results]
    moved = 0
    adjusted = 0
    flipped = 0
    for d in deals:
        referee = [delta for reason, delta in d.adjustments if reason != "failed throw"]
        if not referee:
            continue
        adjusted += 1
        moved += sum(abs(delta) for delta in referee)
        without = max(0, d.points - sum(referee))
        if level_result(without) != level_result(d.points):
            flipped += 1
    rows: tuple[Row, ...] = (Row("deals with referee point penalties", "penalised_deals", {"deals": adjusted, "points_moved": moved},
                f"{adjusted} ({counted(moved, 'point')} moved)"),
            count_row("deals whose level result they changed", "level_results_changed", flipped))
    if unit == "matches":
        lost = sum(1 for m in results if m.how == "match_loss")
        rows += (count_row("matches lost by a ruling (判负, SJ-3.2)", "match_losses", lost, len(results)),)
    return rows


# ---------------------------------------------------------------------------------------------
# What a tournament reads from each game's results

def _order(seats: tuple[int, ...]) -> str:
    return " ".join(str(s) for s in seats)


def _guandan_deal_facts(result: Any, is_match: bool) -> tuple[tuple[DealFacts, ...], int | None]:
    if not is_match:
        return (DealFacts(1, result.team, result.levels, finish_order=_order(result.finish_order),
                          forced=result.forced),), None
    return tuple(DealFacts(d.number, d.team, d.gain, finish_order=_order(d.finish_order), forced=d.forced)
                 for d in result.deals), result.winner


def _shengji_deal(number: int, d: Any) -> DealFacts:
    moved = sum(delta for reason, delta in d.adjustments if reason != "failed throw")
    return DealFacts(number, d.team, d.levels, banker=d.banker, points=d.points, point_adjustment=moved)


def _shengji_deal_facts(result: Any, is_match: bool) -> tuple[tuple[DealFacts, ...], int | None]:
    if not is_match:
        return (_shengji_deal(1, result),), None
    return tuple(_shengji_deal(i + 1, d) for i, d in enumerate(result.results)), result.winner


_NO_PART = PaijuPart()
add_part(LAYER, "guandan", PaijuPart(summarize=_summarize_guandan, replay_handlers=_handlers("paiju.replay.guandan"),
                                     replay_seats=_seats("paiju.replay.guandan"),
                                     changed_by_rulings=_changed_guandan, changed_note=FORCED_NOTE, round_word="round",
                                     short_title="掼蛋", wild_suit="H", words=_words("paiju.replay.guandan_words"),
                                     deal_facts=_guandan_deal_facts, deal_levels_at_most=3, bot_protocol="ogd",
                                     card_legend=(
                                         ("level", "级牌 level card {level}: ranks above A, below the jokers"),
                                         ("wild", "逢人配 wild card {card}: stands for any card but a joker"),
                                         ("joker", "大王 小王 big and small joker: the highest singles"))))
add_part(LAYER, "shengji", PaijuPart(summarize=_summarize_shengji, replay_handlers=_handlers("paiju.replay.shengji"),
                                     replay_seats=_seats("paiju.replay.shengji"),
                                     changed_by_rulings=_changed_shengji, round_word="trick",
                                     shows_last_round=True, short_title="双升", words=_words("paiju.replay.shengji_words"),
                                     deal_facts=_shengji_deal_facts,
                                     card_legend=(
                                         ("level", "级牌 level card {level}: trump, above the trump suit's A"),
                                         ("trump", "主 trump suit {suit}: with the level cards and jokers, the trumps"),
                                         ("joker", "大王 小王 big and small joker: the highest trumps"))))
