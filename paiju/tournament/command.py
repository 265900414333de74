"""`paiju tournament`: the command line, the printed tables and the output directory."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from tabletop.errors import OptionError

from paiju.sim.backends import open_backend
from paiju.games import adapter_for, paiju_part
from paiju.sim.command import parse_rule_overrides
from paiju.stopping import interrupts_deferred, signal_name
from paiju.tournament.plan import BOT_PREFIX, TournamentPlan, parse_entrants
from paiju.tournament.run import TournamentRun, clones_note, play_tournament
from paiju.summary import counted

METHODS = {
    "unit_of_analysis": "a pair: one board played in both seatings (with --duplicate the same cards, seats "
                        "swapped); pairs are independent, the two deals of a pair are not",
    "level_diff": "mean over pairs of the first agent's level difference per deal; 95% interval for a mean "
                  "bounded by the most levels a deal gives (values scaled to [0, 1], two pseudo-pairs added at "
                  "each bound, clipped to the range); Student t 95% interval for a game without such a bound",
    "win_rate": "mean over pairs of the first agent's score (win 1, tie 0.5, loss 0); 95% adjusted Wald "
                "interval (two won and two lost pseudo-pairs added), clipped to [0, 1]",
    "ratings": "Bradley-Terry maximum likelihood over every deal (or match) played, one virtual draw per "
               "pairing (BayesElo's prior); Elo scale (400 log10 odds), mean 0; 95% interval from the inverse "
               "Fisher information (conservative under --duplicate, whose paired deals vary less than "
               "independent ones)",
    "until_significant": "looks every `step` pairs; a pairing stops when its Bonferroni interval at "
                         "1 - 0.05/looks excludes zero",
}
OUT_FILES = ("deals.csv", "deals.parquet", "summary.json", "report.html")
EXTRA_HINT = "pip install 'paiju[tournament]'"


def tournament_command(args: argparse.Namespace) -> int:
    game = adapter_for(args.game)
    if paiju_part(game.name).deal_facts is None:
        raise OptionError(f"a tournament cannot score {game.name!r}: its results do not say who won by how many levels")
    rules = game.rules_from_dict(parse_rule_overrides(args.rules, game.rules_from_dict({}).to_dict()))
    entrants = parse_entrants(args.agents, game)
    unit = "matches" if args.matches else "deals"
    options: dict[str, Any] = {}
    if args.referee or args.infractions:
        options = {"referee": True, "infractions": args.infractions}
    plan = TournamentPlan(game=game.name, unit=unit, count=args.matches or args.deals or 100, seed=args.seed,
                          rules=rules.to_dict(), entrants=entrants, duplicate=args.duplicate, options=options,
                          table=game.seating)
    if args.out:
        check_out_dir(args.out)
    bot_ports = [e.spec for e in entrants if e.spec.startswith(BOT_PREFIX)]
    if bot_ports:
        backend = open_bot_backend(bot_ports, args)
    else:
        backend = open_backend(args.cluster, args.jobs, plan.count * len(plan.pairings), game.name)
    try:
        run = play_tournament(plan, backend, until_significant=args.until_significant, quiet=args.quiet,
                              keep_on_interrupt=True)
    finally:
        backend.close()
    # an interrupted tournament keeps the boards it played: its tables and --out files say partial
    with interrupts_deferred():
        if run.units:
            document = summary_document(run, args.until_significant)
            print_tables(run)
            if args.out:
                write_outputs(args.out, run, document)
        else:
            print(f"no {plan.unit} finished: nothing to summarise", file=sys.stderr)
    if run.interrupted is not None:
        raise run.interrupted
    return 0


def open_bot_backend(specs: list[str], args: argparse.Namespace) -> Any:
    """Listen on each ``ogd:PORT`` and wait for its two bots; the units are then played here,
    one table at a time (the bots play one table at a time)."""
    from paiju.ogd.seats import BotBackend, BotTeam, bot_options, bot_port

    if (args.jobs or 1) > 1 or args.cluster:
        raise OptionError("--jobs and --cluster cannot be used with ogd:PORT agents: connected bots play one "
                          "table at a time, in this process")
    options = bot_options(args.act_timeout)
    teams: dict[int, BotTeam] = {}
    try:
        for spec in specs:
            port = bot_port(spec)
            assert port is not None
            teams[port] = BotTeam(port, options)
            if not args.quiet:
                print(f"paiju tournament: waiting for 2 bots on ws://127.0.0.1:{port}/ ({spec})", flush=True)
            teams[port].start(args.bot_wait)
    except BaseException:
        for team in teams.values():
            team.close()
        raise
    return BotBackend(teams)


# ---------------------------------------------------------------------------------------------
# The summary

def clauses_by_agent(run: TournamentRun) -> dict[str, dict[str, int]]:
    """Rulings by the agent of the side at fault ('table' when no side was)."""
    pairings = run.plan.pairings
    counts: dict[str, Counter[str]] = {}
    for (number, seating, _), facts in sorted(run.units.items()):
        for clause, side in facts.rulings:
            who = "table" if side is None else pairings[number].on_side(side, seating).label
            counts.setdefault(who, Counter())[clause] += 1
    return {who: dict(sorted(c.items())) for who, c in sorted(counts.items())}


def summary_document(run: TournamentRun, until_significant: bool) -> dict[str, Any]:
    plan = run.plan
    played = sum(len(facts.deals) for facts in run.units.values())
    pairings = []
    for outcome in run.outcomes:
        n = outcome.level_diff.n
        pairings.append({
            "pairing": outcome.pairing.label, "agent_a": outcome.pairing.first.label,
            "agent_b": outcome.pairing.second.label, "pairs": n, plan.unit: 2 * n,
            "deals_played": len(outcome.deal_level_diffs),
            "level_diff": outcome.level_diff.to_dict(), "win_rate": outcome.win_rate.to_dict(),
            "significant": outcome.level_diff.excludes_zero, "stopped_early": outcome.stopped_early,
            "clones": outcome.pairing.first.spec == outcome.pairing.second.spec,
        })
    document: dict[str, Any] = {
        "game": plan.game, "unit": plan.unit, "per_pairing": plan.count, "duplicate": plan.duplicate,
        "seed": plan.seed, "agents": [{"label": e.label, "spec": e.spec} for e in plan.entrants],
        "rules": plan.rules, "refereed": plan.refereed, "infractions": plan.options.get("infractions", 0.0),
        "until_significant": {"looks": run.looks, "step_pairs": run.step} if until_significant else None,
        "methods": METHODS,
        **({"partial": True, "interrupted_by": signal_name(run.interrupted)} if run.interrupted else {}),
        "pairings": pairings,
        "ratings": run.ratings.rows(),
    }
    if plan.refereed:
        document["referee"] = {
            "rulings_by_agent": clauses_by_agent(run),
            "irregular": sum(f.irregular for f in run.units.values()),
            "unresolved": sum(f.unresolved for f in run.units.values()),
        }
    document["timing"] = {"seconds": round(run.seconds, 3), "deals_played": played,
                          "deals_per_second": round(played / run.seconds, 1) if run.seconds > 0 else None,
                          "backend": run.backend}
    return document


def print_tables(run: TournamentRun) -> None:
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 110  # a pipe or file: room for the intervals on one line
    plan = run.plan
    title = f"{plan.game}: {plan.count} {plan.unit} per pairing{', duplicate' if plan.duplicate else ''}, seed {plan.seed}"
    console.print(f"[bold]{title}[/bold]")
    if run.interrupted is not None:
        console.print(f"[bold]partial: interrupted ({signal_name(run.interrupted)}), the boards played until then[/bold]")
    console.print("pairings: the first agent's view, 95% intervals")
    pairs = Table(box=box.SIMPLE)
    for heading in ("pairing", "pairs", "levels / deal", "win rate", ""):
        pairs.add_column(heading)
    for o in run.outcomes:
        d, w = o.level_diff, o.win_rate
        note = ", ".join(part for part, holds in (("≠ 0", d.excludes_zero), ("stopped early", o.stopped_early),
                                                   ("clones", o.pairing.first.spec == o.pairing.second.spec)) if holds)
        if d.n == 0:   # an interrupted tournament: no board played in both seatings yet
            pairs.add_row(o.pairing.label, "0", "no whole pair", "", note)
            continue
        pairs.add_row(o.pairing.label, str(d.n), f"{d.estimate:+.2f} [{d.low:+.2f}, {d.high:+.2f}]",
                      f"{w.estimate:.1%} [{w.low:.1%}, {w.high:.1%}]", note)
    console.print(pairs)
    clones = [o.pairing.label for o in run.outcomes if o.pairing.first.spec == o.pairing.second.spec]
    if clones:
        console.print(clones_note(clones), markup=False)
    console.print("Bradley-Terry ratings, Elo scale (mean 0)")
    ratings = Table(box=box.SIMPLE)
    for heading in ("agent", "rating", "± 95%", "games"):
        ratings.add_column(heading)
    for row in run.ratings.rows():
        ratings.add_row(str(row["agent"]), f"{row['elo']:+.0f}", f"{(row['high'] - row['low']) / 2:.0f}",
                        f"{row['games']:.0f}")
    console.print(ratings)
    played = sum(len(f.deals) for f in run.units.values())
    rate = played / run.seconds if run.seconds > 0 else float("inf")
    console.print(f"{counted(played, 'deal')} in {run.seconds:.2f} s ({rate:.1f} deals/s, {run.backend})")


# ---------------------------------------------------------------------------------------------
# The output directory

def check_out_dir(path: str) -> None:
    """Refuse an unusable --out before any work starts."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise OptionError(f"--out {path!r} is not a directory")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(path) and not os.path.isdir(parent):
        raise OptionError(f"--out {path!r}: no such directory {parent!r}")
    where = path if os.path.isdir(path) else parent
    if not os.access(where, os.W_OK):
        raise OptionError(f"--out {path!r}: permission denied")


def _write_atomically(directory: str, name: str, write: Callable[[str], None]) -> None:
    """Write to a temporary file beside the target, then rename: never a half-written file."""
    target = os.path.join(directory, name)
    temporary = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    try:
        write(temporary)
        os.replace(temporary, target)
    except BaseException as exc:
        try:
            os.remove(temporary)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OptionError(f"cannot write {target!r}: {exc.strerror or exc}") from None
        raise


def _text(content: str) -> Callable[[str], None]:
    def write(path: str) -> None:
        with open(path, "x", encoding="utf-8", newline="\n") as f:
            f.write(content)
    return write


def write_outputs(directory: str, run: TournamentRun, document: dict[str, Any]) -> list[str]:
    """deals.csv and summary.json always; deals.parquet and report.html with the
    ``tournament`` extra (else a one-line note on stderr). Returns the files written."""
    from paiju.tournament.table import rows, to_csv, to_parquet

    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise OptionError(f"cannot create --out {directory!r}: {exc.strerror or exc}") from None
    table = list(rows(run))
    written = []
    _write_atomically(directory, "deals.csv", _text(to_csv(table)))
    written.append("deals.csv")
    missing = [name for name in ("pyarrow", "matplotlib") if not _importable(name)]
    if "pyarrow" not in missing:
        _write_atomically(directory, "deals.parquet", lambda path: to_parquet(table, path))
        written.append("deals.parquet")
    _write_atomically(directory, "summary.json",
                      _text(json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False) + "\n"))
    written.append("summary.json")
    if "matplotlib" not in missing:
        from paiju.tournament.report import render_report

        _write_atomically(directory, "report.html", _text(render_report(run, document)))
        written.append("report.html")
    if missing:
        skipped = [name for name in OUT_FILES if name not in written]
        for name in skipped:  # a file left from an earlier run would not match this one
            try:
                os.remove(os.path.join(directory, name))
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise OptionError(f"cannot remove the earlier {os.path.join(directory, name)!r}: "
                                  f"{exc.strerror or exc}") from None
        print(f"paiju: note: no {' or '.join(skipped)} without {' or '.join(missing)}: {EXTRA_HINT}",
              file=sys.stderr)
    print(f"wrote {', '.join(os.path.join(directory, name) for name in written)}")
    return written


def _importable(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None
