"""The tournament report: one self-contained HTML page (inline CSS, plots as PNG data
URIs, no script, no network) with the ratings and their intervals, each pairing's
interval and distribution of level differences, and, when refereed, which agents commit
which irregularities. Plots are drawn by matplotlib (the ``tournament`` extra) with its
non-interactive Agg backend."""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from paiju.tournament.run import TournamentRun, clones_note
from paiju.summary import counted

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5em 0; } th, td { padding: .2em .7em; text-align: right; }
th { border-bottom: 1px solid #888; } td:first-child, th:first-child { text-align: left; }
tr:nth-child(even) td { background: #f4f4f4; } img { max-width: 100%; } .note { color: #555; font-size: .92em; }
code { background: #f0f0f0; padding: 0 .2em; } #referee td:nth-child(2) { text-align: left; }
p, td, h1 { overflow-wrap: anywhere; }
/* A phone (390 px wide): each row of a table becomes a card of "heading  value" lines. */
@media (max-width: 40em) {
  body { margin: 1em auto; padding: 0 .6em; }
  table, thead, tbody, tr, td { display: block; box-sizing: border-box; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  tr { border-bottom: 1px solid #ccc; padding: .3em 0; }
  td, td:first-child { text-align: right; padding: .1em .3em .1em 45%; position: relative; min-height: 1.5em; }
  td::before { content: attr(data-label); position: absolute; left: .3em; width: 42%; text-align: left;
               font-weight: 600; color: #555; }
  td:first-child { font-weight: 600; }
  #referee td:nth-child(2) { text-align: right; }
}
"""


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(figure)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _plain(label: str) -> str:
    """A label as matplotlib should print it (a '$' would start mathtext)."""
    return label.replace("$", r"\$")


def _img(uri: str, alt: str, ident: str) -> str:
    return f'<img id="{ident}" src="{uri}" alt="{html.escape(alt)}">'


def _table(headings: list[str], body: list[list[str]], ident: str) -> str:
    """A table; each cell also carries its heading (``data-label``), shown beside it on a phone."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headings)
    rows = "".join("<tr>" + "".join(f'<td data-label="{html.escape(h)}">{html.escape(c)}</td>'
                                    for h, c in zip(headings, row)) + "</tr>" for row in body)
    return f'<table id="{ident}"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def _fmt(x: float | None, spec: str) -> str:
    return "–" if x is None else format(x, spec)


def render_report(run: TournamentRun, document: dict[str, Any]) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plan = run.plan
    ratings = document["ratings"]
    parts: list[str] = []
    title = f"{plan.game} tournament: {', '.join(e.label for e in plan.entrants)}"
    parts.append(f"<h1>{html.escape(title)}</h1>")
    if document.get("partial"):
        parts.append(f"<p><strong>Partial: the tournament was interrupted ({html.escape(document['interrupted_by'])}); "
                     f"these are the boards played until then.</strong></p>")
    fmt = ("duplicate format (each board played twice, seats swapped)" if plan.duplicate
           else "not duplicate (different boards in the two seatings)")
    referee = ", refereed" if plan.refereed else ""
    if plan.options.get("infractions"):
        referee += f", infractions {plan.options['infractions']} per decision"
    setting = f"{plan.count} {plan.unit} per pairing ({counted(plan.pairs, 'pair')}), {fmt}, seed {plan.seed}{referee}."
    parts.append(f"<p>{html.escape(setting)}</p>")
    parts.append('<p class="note">How to read it: a pairing "A vs B" is seen from A\'s side. Its level difference '
                 "is the levels A's team gained per deal minus B's; when its 95 % interval excludes zero, the "
                 "difference is not the luck of the cards (the deals are scored in pairs, each agent once on each "
                 "side). Ratings put every agent on one scale: 400 points apart means 10-to-1 odds of winning a "
                 "deal (or match).</p>")

    # Ratings
    parts.append("<h2>Ratings</h2>")
    figure, axes = plt.subplots(figsize=(7, 0.5 + 0.45 * len(ratings)))
    names = [_plain(r["agent"]) for r in ratings][::-1]
    elo = [r["elo"] for r in ratings][::-1]
    errors = [[r["elo"] - r["low"] for r in ratings][::-1], [r["high"] - r["elo"] for r in ratings][::-1]]
    axes.errorbar(elo, range(len(names)), xerr=errors, fmt="o", capsize=4, color="#1f5fa8")
    axes.set_yticks(range(len(names)), names)
    axes.axvline(0, color="#999", lw=0.8)
    axes.set_xlabel("Bradley–Terry rating, Elo scale (mean 0), 95% interval")
    axes.margins(y=0.3)
    parts.append(_img(_png(figure), "ratings with 95% intervals", "ratings-plot"))
    parts.append(_table(["agent", "rating", "95% interval", "games"],
                        [[r["agent"], f"{r['elo']:+.0f}", f"[{r['low']:+.0f}, {r['high']:+.0f}]", f"{r['games']:.0f}"]
                         for r in ratings], "ratings"))
    parts.append(f'<p class="note">{html.escape(document["methods"]["ratings"])}.</p>')

    # Pairings
    parts.append("<h2>Pairings</h2>")
    outcomes = run.outcomes
    figure, axes = plt.subplots(figsize=(7, 0.5 + 0.45 * len(outcomes)))
    labels = [_plain(o.pairing.label) for o in outcomes][::-1]
    estimates = [o.level_diff.estimate for o in outcomes][::-1]
    low = [o.level_diff.estimate - o.level_diff.low if o.level_diff.n > 1 else 0 for o in outcomes][::-1]
    high = [o.level_diff.high - o.level_diff.estimate if o.level_diff.n > 1 else 0 for o in outcomes][::-1]
    axes.errorbar(estimates, range(len(labels)), xerr=[low, high], fmt="s", capsize=4, color="#a8321f")
    axes.set_yticks(range(len(labels)), labels)
    axes.axvline(0, color="#999", lw=0.8)
    axes.set_xlabel("mean level difference per deal, first agent's view, 95% interval")
    axes.margins(y=0.3)
    parts.append(_img(_png(figure), "level difference per pairing with 95% intervals", "pairings-plot"))
    body = []
    for p in document["pairings"]:
        d, w = p["level_diff"], p["win_rate"]
        body.append([p["pairing"], str(p["pairs"]), _fmt(d["estimate"], "+.3f"),
                     f"[{_fmt(d['low'], '+.3f')}, {_fmt(d['high'], '+.3f')}]", _fmt(w["estimate"], ".1%"),
                     f"[{_fmt(w['low'], '.1%')}, {_fmt(w['high'], '.1%')}]",
                     ("yes" if p["significant"] else "no") + (" (stopped early)" if p["stopped_early"] else "")
                     + (" (clones)" if p.get("clones") else "")])
    parts.append(_table(["pairing", "pairs", "level diff / deal", "95% interval", "win rate", "95% interval",
                         "excludes 0"], body, "pairings"))
    clones = [p["pairing"] for p in document["pairings"] if p.get("clones")]
    if clones:
        parts.append(f'<p class="note">{html.escape(clones_note(clones))}</p>')
    parts.append(f'<p class="note">Level difference: {html.escape(document["methods"]["level_diff"])}. '
                 f'Win rate: {html.escape(document["methods"]["win_rate"])}. '
                 f'Unit of analysis: {html.escape(document["methods"]["unit_of_analysis"])}.</p>')

    # Distributions
    parts.append("<h2>Level differences per deal</h2>")
    columns = min(3, len(outcomes))
    rows_needed = -(-len(outcomes) // columns)
    figure, grid = plt.subplots(rows_needed, columns, figsize=(3.3 * columns, 2.6 * rows_needed), squeeze=False,
                                sharey=True)
    for place, outcome in enumerate(outcomes):
        axes = grid[place // columns][place % columns]
        values = outcome.deal_level_diffs
        lo, hi = (min(values), max(values)) if values else (-1, 1)
        counts = [sum(1 for v in values if v == x) / max(1, len(values)) for x in range(lo, hi + 1)]
        axes.bar(range(lo, hi + 1), counts, color=["#a8321f" if x < 0 else "#1f5fa8" for x in range(lo, hi + 1)])
        axes.set_xticks(range(lo, hi + 1))
        axes.set_title(_plain(outcome.pairing.label), fontsize=9)
        axes.set_xlabel("levels, first agent's view", fontsize=8)
    for place in range(len(outcomes), rows_needed * columns):
        grid[place // columns][place % columns].axis("off")
    grid[0][0].set_ylabel("share of deals")
    parts.append(_img(_png(figure), "distribution of level differences per deal, by pairing", "distribution-plot"))

    # Referee
    if plan.refereed:
        parts.append("<h2>Irregularities by agent</h2>")
        by_agent = document["referee"]["rulings_by_agent"]
        clauses = sorted({c for counts in by_agent.values() for c in counts})
        who = list(by_agent)
        if clauses:
            import numpy as np

            matrix = np.array([[by_agent[a].get(c, 0) for c in clauses] for a in who])
            figure, axes = plt.subplots(figsize=(1.2 + 0.5 * len(clauses), 0.8 + 0.45 * len(who)))
            image = axes.imshow(matrix, cmap="Oranges", aspect="auto")
            axes.set_xticks(range(len(clauses)), clauses, rotation=60, ha="right", fontsize=8)
            axes.set_yticks(range(len(who)), [_plain(a) for a in who])
            for (i, j), value in np.ndenumerate(matrix):
                if value:
                    axes.text(j, i, str(value), ha="center", va="center", fontsize=7)
            figure.colorbar(image, ax=axes, label="rulings")
            parts.append(_img(_png(figure), "rulings by clause and by the agent at fault", "referee-plot"))
            from enforcement.rulebook import clause as lookup_clause

            parts.append(_table(["clause", "title", *who],
                                [[c, lookup_clause(c).title, *(str(by_agent[a].get(c, 0)) for a in who)]
                                 for c in clauses], "referee"))
            parts.append('<p class="note">Rulings by clause and by the agent of the side at fault ("table": '
                         'no side at fault). Counts, not rates: with --until-significant agents may have played '
                         'different numbers of deals (the ratings table\'s games).</p>')
        else:
            parts.append("<p>No rulings.</p>")

    parts.append("<h2>The data</h2>")
    parts.append("<p>Beside this page: <code>deals.csv</code> and <code>deals.parquet</code> (one row per deal; "
                 "the schema is in the guide Running and comparing agents, docs/guides/agents.md) and <code>summary.json</code> (everything on this page). E.g. "
                 "<code>pandas.read_parquet('deals.parquet').groupby('pairing').level_diff_a.mean()</code>.</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")
