"""What the application needs to know about each game, from the game registry
(``tabletop.games``): how to build deal and match engines from the seed tree, its agents,
how to rebuild actions from a log — and the application's own part of each game (``paiju``
layer): how to summarise its results. A game without a paiju part gets the generic summary.
Engines are imported when a game is first asked for, so `paiju rules` stays quick."""

from __future__ import annotations

import importlib
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from tabletop.events import EventStream
from tabletop.games import PARTNERSHIPS, Seating, add_part, game_spec


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
class Summary:
    """A titled list of (label, value) rows per section: printed as tables, and the
    plain data behind them (results only, no timings)."""

    title: str
    sections: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    data: dict[str, Any]


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
    changed_by_rulings: Callable[[str, Sequence[Any]], Any] | None = None
    """(unit, results) → (rows, data) of what rulings changed (``paiju.sim.referee_summary``)."""
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
    bot_protocol: str | None = None
    """The competition protocol whose bots can sit at its tables ('ogd': ``paiju.ogd``)."""


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
        return Summary(title=f"{title}: {counted(len(results), unit_noun(unit))}", sections=((unit, (("played", str(len(results))),)),),
                       data={unit: len(results)})
    return summarize


def unit_noun(unit: str) -> str:
    """'deals' → 'deal', 'matches' → 'match'."""
    return unit[:-2] if unit.endswith("ches") else unit.removesuffix("s")


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one: '1 deal', '3 matches', '0 levels'."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun}{'es' if noun.endswith(('ch', 'sh', 's', 'x')) else 's'}"


def _pct(part: int, whole: int) -> str:
    return f"{part} ({100.0 * part / whole:.1f}%)" if whole else "0"


def _spread(values: Sequence[float]) -> str:
    if not values:
        return "-"
    return f"mean {statistics.fmean(values):.1f}, median {statistics.median(values):g}, min {min(values):g}, max {max(values):g}"


# ---------------------------------------------------------------------------------------------
# 掼蛋

_FINISH_NAMES = {3: "1-2 (double win, +3)", 2: "1-3 (+2)", 1: "1-4 (+1)"}


def _summarize_guandan(unit: str, results: Sequence[Any], kinds: Sequence[str]) -> Summary:
    if unit == "deals":
        n = len(results)
        finishes = Counter(r.levels for r in results)
        gains = [0, 0]
        for r in results:
            gains[r.team] += r.levels
        plays = [r.plays for r in results]
        rows_finish = tuple((_FINISH_NAMES[k], _pct(finishes.get(k, 0), n)) for k in (3, 2, 1))
        rows_sides = tuple(
            (f"side {t} (seats {t}&{t + 2}, {kinds[t]})",
             f"won {_pct(sum(1 for r in results if r.team == t), n)}, levels gained {gains[t]}")
            for t in (0, 1))
        data = {"deals": n, "finishes": {"1-2": finishes.get(3, 0), "1-3": finishes.get(2, 0), "1-4": finishes.get(1, 0)},
                "levels_gained": gains, "plays_per_deal": statistics.fmean(plays) if plays else 0}
        return Summary(
            title=f"掼蛋: {counted(n, 'deal')} at level 2",
            sections=(("finishing order of the winning side", rows_finish),
                      ("by side", rows_sides),
                      ("play", (("plays per deal", _spread(plays)),))),
            data=data)

    n = len(results)
    wins = Counter(r.winner for r in results)
    agent_wins: Counter[str] = Counter()
    for r in results:
        if r.winner is not None:
            agent_wins[f"{kinds[r.winner]}&{kinds[r.winner + 2]}"] += 1
    ended = Counter(r.ended for r in results)
    deals = [len(r.deals) for r in results]
    tribute = Counter(d.tribute for r in results for d in r.deals)
    with_tribute_due = sum(v for k, v in tribute.items() if k != "none")
    rows_wins = tuple((f"side {t} (seats {t}&{t + 2}, {kinds[t]})", _pct(wins.get(t, 0), n)) for t in (0, 1))
    rows_wins += (("tied by levels", _pct(wins.get(None, 0), n)),)
    rows_agents = tuple((name, _pct(count, n)) for name, count in sorted(agent_wins.items()))
    rows_end = tuple((how, _pct(ended.get(how, 0), n)) for how in ("pass_a", "deals", "max_deals"))
    rows_tribute = (
        ("deals with tribute due", str(with_tribute_due)),
        ("single tribute", _pct(tribute.get("single", 0), with_tribute_due)),
        ("double tribute", _pct(tribute.get("double", 0), with_tribute_due)),
        ("抗贡 (resisted)", _pct(tribute.get("resisted", 0), with_tribute_due)),
        ("waived by a ruling", _pct(tribute.get("waived", 0), with_tribute_due)),
    )
    scores = [r.scores for r in results]
    data = {"matches": n, "wins": {"side0": wins.get(0, 0), "side1": wins.get(1, 0), "tied": wins.get(None, 0)},
            "wins_by_agents": dict(agent_wins), "ended": dict(ended), "deals_per_match": deals,
            "tribute": dict(tribute), "scores": [list(s) for s in scores],
            "final_levels": [list(r.levels) for r in results]}
    return Summary(
        title=f"掼蛋: {counted(n, 'match')}",
        sections=(("wins by side", rows_wins), ("wins by agents", rows_agents or (("-", "no winner"),)),
                  ("how matches ended", rows_end),
                  ("deals per match", (("deals", _spread(deals)),)),
                  ("tribute", rows_tribute)),
        data=data)


# ---------------------------------------------------------------------------------------------
# 双升

_POINT_BANDS = ((0, 0, "0 (banker +3)"), (5, 35, "5-35 (banker +2)"), (40, 75, "40-75 (banker +1)"),
                (80, 115, "80-115 (attackers take the bank)"), (120, 155, "120-155 (attackers +1)"),
                (160, 195, "160-195 (attackers +2)"), (200, 10_000, "200+ (attackers +3 or more)"))


def _shengji_deal_sections(deals: Sequence[Any], kinds: Sequence[str]) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    n = len(deals)
    holds = sum(1 for d in deals if d.banker_holds)
    bands = tuple((label, _pct(sum(1 for d in deals if lo <= d.points <= hi), n)) for lo, hi, label in _POINT_BANDS)
    changes = Counter((d.side, d.levels) for d in deals)
    rows_changes = tuple((f"{side} +{levels}", _pct(count, n)) for (side, levels), count in sorted(changes.items()))
    throws = sum(d.throws for d in deals)
    failed = sum(d.failed_throws for d in deals)
    bonuses = [d for d in deals if d.kitty_bonus]
    rows_play = (
        ("banker team holds", _pct(holds, n)),
        ("attackers' points", _spread([d.points for d in deals])),
        ("adjusted by penalties", _pct(sum(1 for d in deals if d.points != d.raw_points), n)),
        ("throws (甩牌)", f"{throws} ({throws / n:.2f} per deal)" if n else "0"),
        ("failed throws", _pct(failed, throws)),
        ("kitty bonuses", _pct(len(bonuses), n) + (f", mean {statistics.fmean(d.kitty_bonus for d in bonuses):.1f} points" if bonuses else "")),
        ("no-trump deals", _pct(sum(1 for d in deals if d.trump is None), n)),
    )
    return (("deals", rows_play), ("attackers' points (level table)", bands), ("level changes", rows_changes))


def _summarize_shengji(unit: str, results: Sequence[Any], kinds: Sequence[str]) -> Summary:
    if unit == "deals":
        n = len(results)
        data = {"deals": n, "banker_holds": sum(1 for d in results if d.banker_holds),
                "attacker_points": [d.points for d in results], "raw_points": [d.raw_points for d in results],
                "throws": sum(d.throws for d in results), "failed_throws": sum(d.failed_throws for d in results),
                "kitty_bonuses": sum(1 for d in results if d.kitty_bonus)}
        return Summary(title=f"双升: {counted(n, 'deal')}", sections=_shengji_deal_sections(results, kinds), data=data)
    n = len(results)
    wins = Counter(r.winner for r in results)
    how = Counter(r.how for r in results)
    deals = [d for r in results for d in r.results]
    rows_wins = tuple((f"side {t} (seats {t}&{t + 2}, {kinds[t]})", _pct(wins.get(t, 0), n)) for t in (0, 1))
    rows_wins += (("no winner (deal limit, equal levels)", _pct(wins.get(None, 0), n)),)
    rows_end = tuple((h, _pct(how.get(h, 0), n)) for h in ("held_a", "max_deals"))
    per_match = [r.deals for r in results]
    data = {"matches": n, "wins": {"side0": wins.get(0, 0), "side1": wins.get(1, 0), "none": wins.get(None, 0)},
            "ended": dict(how), "deals_per_match": per_match, "final_levels": [list(r.levels) for r in results],
            "banker_holds": sum(1 for d in deals if d.banker_holds), "deals": len(deals)}
    return Summary(
        title=f"双升: {counted(n, 'match')}",
        sections=(("wins by side", rows_wins), ("how matches ended", rows_end),
                  ("deals per match", (("deals", _spread(per_match)),))) + _shengji_deal_sections(deals, kinds),
        data=data)


def _handlers(module: str) -> Callable[[], dict[str, Any]]:
    def load() -> dict[str, Any]:
        return importlib.import_module(module).HANDLERS
    return load


def _changed_guandan(unit: str, results: Sequence[Any]) -> tuple[Rows, dict[str, Any]]:
    """What rulings changed in 掼蛋 results: forced results, level-difference penalties."""
    if unit == "deals":
        forced = sum(1 for r in results if r.forced)
        return ((("deals with a forced result (单下/双下)", str(forced)),), {"forced_deals": forced})
    forced = sum(1 for m in results for d in m.deals if d.forced)
    penalties = [sum(m.penalties) for m in results]
    penalised = sum(1 for p in penalties if p)
    return ((("deals with a forced result (单下/双下)", str(forced)),
             ("matches with level-difference penalties", f"{penalised} ({counted(sum(penalties), 'level')} in all)")),
            {"forced_deals": forced, "level_penalties": sum(penalties), "penalised_matches": penalised})


def _changed_shengji(unit: str, results: Sequence[Any]) -> tuple[Rows, dict[str, Any]]:
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
    rows = (("deals with referee point penalties", f"{adjusted} ({moved} points moved)"),
            ("deals whose level result they changed", str(flipped)))
    data = {"penalised_deals": adjusted, "points_moved": moved, "level_results_changed": flipped}
    if unit == "matches":
        lost = sum(1 for m in results if getattr(m, "how", "") == "match_loss")
        rows += (("matches lost by a ruling (SJ-3.2)", str(lost)),)
        data["match_losses"] = lost
    return rows, data


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


Rows = tuple[tuple[str, str], ...]
_NO_PART = PaijuPart()
add_part(LAYER, "guandan", PaijuPart(summarize=_summarize_guandan, replay_handlers=_handlers("paiju.replay.guandan"),
                                     changed_by_rulings=_changed_guandan, round_word="round",
                                     short_title="掼蛋", wild_suit="H", deal_facts=_guandan_deal_facts,
                                     bot_protocol="ogd"))
add_part(LAYER, "shengji", PaijuPart(summarize=_summarize_shengji, replay_handlers=_handlers("paiju.replay.shengji"),
                                     changed_by_rulings=_changed_shengji, round_word="trick",
                                     shows_last_round=True, short_title="双升",
                                     deal_facts=_shengji_deal_facts))
