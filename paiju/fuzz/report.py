"""The coverage report of a fuzz run (`paiju fuzz … --report OUT.html`): one self-contained
HTML page — the interaction matrix as a heat map (matplotlib, the ``report`` extra; drawn as
inline SVG), the pairs never seen and why, the clause table, the rulebook holes and the
findings with the commands that reproduce them."""

from __future__ import annotations

import html
import io
import math
from collections.abc import Sequence
from typing import Any

from tabletop.errors import OptionError
from paiju.summary import counted

MATPLOTLIB_HINT = "--report needs matplotlib: pip install 'paiju[report]'"

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.9em; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; } code { background: #f3f3f3; padding: 0 3px; }
.heatmap svg { max-width: 100%; height: auto; }
"""


def page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>\n<h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n")


def heatmap_svg(matrix: Any) -> str:
    """The interaction matrix as an SVG heat map: log-scaled counts of the cases that
    reached each pair; pairs impossible by the rules crossed out in grey."""
    try:
        import matplotlib
    except ImportError:
        raise OptionError(MATPLOTLIB_HINT) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    rows, cols = matrix.conditions, matrix.happenings
    values = np.zeros((len(rows), len(cols)))
    impossible = np.zeros((len(rows), len(cols)), dtype=bool)
    for i, c in enumerate(rows):
        for j, h in enumerate(cols):
            values[i, j] = math.log10(1 + matrix.counts[(c, h)])
            impossible[i, j] = (c, h) in matrix.impossible
    fig, ax = plt.subplots(figsize=(max(8.0, 0.2 * len(cols) + 3), max(4.0, 0.3 * len(rows) + 2.5)))
    shown = np.ma.masked_where(values == 0, values)
    cmap = matplotlib.colormaps["viridis"].with_extremes(bad="#f4f4f4")
    image = ax.imshow(shown, aspect="auto", cmap=cmap, interpolation="nearest")
    ys, xs = np.nonzero(impossible)
    ax.scatter(xs, ys, marker="x", color="#999999", s=14, linewidths=0.8, label="impossible by the rules")
    ax.set_xticks(range(len(cols)), [h.replace("ruling:", "") for h in cols], rotation=90, fontsize=6)
    ax.set_yticks(range(len(rows)), rows, fontsize=7)
    ax.set_xlabel("happening (game events, then the clauses' rulings)")
    ax.set_ylabel("condition in force")
    fig.colorbar(image, ax=ax, label="log10(1 + cases)", fraction=0.02, pad=0.01)
    ax.legend(loc="upper right", fontsize=7, bbox_to_anchor=(1.0, 1.12))
    fig.tight_layout()
    out = io.StringIO()
    fig.savefig(out, format="svg")
    plt.close(fig)
    svg = out.getvalue()
    return svg[svg.index("<svg"):]


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]], numeric: Sequence[int] = ()) -> str:
    cells = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        cells.append("<tr>" + "".join(f"<td class=\"n\">{html.escape(str(v))}</td>" if i in numeric
                                      else f"<td>{html.escape(str(v))}</td>" for i, v in enumerate(row)) + "</tr>")
    return "\n".join(cells) + "</table>"


def holes_section(rows: Sequence[dict[str, Any]]) -> str:
    if not rows:
        return "<p>No unresolved situation met. / 未遇到规则未覆盖的情形。</p>"
    parts = []
    for r in rows:
        parts.append(f"<section class=\"hole\"><h3>{r['number']}. {html.escape(r['en'])}</h3>"
                     f"<p lang=\"zh\">情形：{html.escape(r['zh'])}</p><ul>"
                     f"<li>arose / 出现: {counted(r['count'], 'time')} in {counted(r['cases'], 'case')}</li>"
                     f"<li>fallback applied / 兜底条款: {html.escape(r['fallback'])}</li>"
                     + (f"<li>note / 说明: {html.escape(r['note'])}</li>" if r.get("note") else "")
                     + (f"<li>{'smallest reproducing log / 最小复现记录' if r.get('shrunk') else 'reproducing log (not shrunk)'}: "
                        f"<code>{html.escape(r['log'])}</code> "
                        f"({html.escape(r['size'])})</li><li>replay / 复现: <code>{html.escape(r['command'])}</code></li>"
                        if r.get("log") else f"<li>reproducing log: {html.escape(r.get('missing') or 'not reproduced')}</li>")
                     + "</ul></section>")
    return "\n".join(parts)


def coverage_page(search: Any, holes_rows: Sequence[dict[str, Any]], title: str) -> str:
    """The whole report of a run (``campaign.Search``)."""
    matrix = search.matrix
    never = matrix.never()
    why: dict[str, int] = {}
    for _, _, reason in never:
        why[reason.split(":")[0]] = why.get(reason.split(":")[0], 0) + 1
    body = [f"<p>{counted(search.cases, 'case')} ({counted(search.deals, 'deal')}) from seed {search.seed}"
            f"{', guided' if search.guided else ''}. <strong>{html.escape(matrix.summary())}</strong>.</p>",
            "<h2>Interaction matrix</h2>", f"<div class=\"heatmap\">{heatmap_svg(matrix)}</div>",
            f"<h2>Pairs never seen ({len(never)})</h2>",
            "<p>" + ", ".join(f"{html.escape(k)}: {n}" for k, n in sorted(why.items())) + "</p>",
            "<details><summary>every pair never seen, and why</summary>"
            + _table(["condition", "happening", "why"], never) + "</details>",
            "<h2>Clause coverage</h2>", _table(["clause", "fired", "how"], search.clauses.rows(), numeric=(1,)),
            f"<h2>Rulebook holes ({len(holes_rows)})</h2>", holes_section(holes_rows),
            f"<h2>Findings ({len(search.findings)})</h2>"]
    if search.findings:
        body.append(_table(["invariant", "message", "log", "reproduce"],
                           [[f["signature"], f["message"], f.get("log") or "", f.get("command") or ""]
                            for f in search.findings]))
    else:
        body.append("<p>No invariant broken.</p>")
    return page(title, "\n".join(body))


def write_report(search: Any, holes_rows: Sequence[dict[str, Any]], path: str) -> None:
    from paiju.files import write_whole
    from tabletop.games import game_spec

    text = coverage_page(search, holes_rows, f"paiju fuzz coverage: {game_spec(search.game).title}")
    write_whole(path, text, what="the coverage report", error=OptionError)


__all__ = ["coverage_page", "heatmap_svg", "holes_section", "page", "write_report"]
