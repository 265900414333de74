"""`paiju replay LOG --html OUT.html`: one self-contained page (inline CSS and JS, the
replay as JSON in the page, nothing loaded from the network) to step through a log.

Each step of the page is one step of ``Fold.steps`` (a run of drawn cards is one step) and
carries the change of the table view since the step before (``delta``); the page merges them
back into whole states. The file is written next to its destination and moved into place,
so a failed run never leaves half a page."""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable
from typing import Any

from paiju.files import write_whole
from paiju.games import paiju_part
from paiju.replay.page import BODY, CSS, JS
from paiju.replay.fold import Fold
from tabletop.games import game_spec
from tabletop.log import Log
from paiju.summary import counted

_MISSING = object()


def delta(old: Any, new: Any) -> Any:
    """What turns ``old`` into ``new`` under the page's merge: changed keys of a dict (a
    removed key is null), changed and appended items of a list of dicts that did not get
    shorter (keyed by index), anything else whole. Only called when they differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = {k: delta(old[k], v) if k in old and isinstance(v, (dict, list)) else v
               for k, v in new.items() if old.get(k, _MISSING) != v}
        out.update({k: None for k in old if k not in new})
        return out
    if (isinstance(old, list) and isinstance(new, list) and len(old) <= len(new) and new
            and all(isinstance(v, dict) for v in new) and all(isinstance(v, dict) for v in old)):
        out = {str(i): delta(o, n) for i, (o, n) in enumerate(zip(old, new)) if o != n}
        out.update({str(i): new[i] for i in range(len(old), len(new))})   # appended (the rulings)
        return out
    return new


def page_data(log: Log, viewer: int | None = None, source: str = "log", start_index: int | None = None,
              progress: Callable[[int], None] | None = None, hide_judgement: bool = False,
              chinese: bool = False, fold: Fold | None = None) -> dict[str, Any]:
    """The page's JSON: header facts and one frame per step (``progress`` is told of the
    events each step takes in; ``hide_judgement`` leaves out the referee's findings, for a
    trainee's table; ``chinese``: each step also in Chinese alone, shown first unless the
    page's address asks ``?lang=en``). ``fold``: the log's fold to draw with (its run then
    also says whether the log checks, ``Fold.checked``); a new one by default."""
    fold = fold if fold is not None else Fold(log, viewer, source)
    fold.table.hide_judgement = hide_judgement
    fold.table.chinese = chinese
    frames: list[dict[str, Any]] = []
    previous: dict[str, Any] = {}
    clauses: dict[str, dict[str, str]] = {}
    cited: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    start = None if start_index is None else 0
    first_play: int | None = None
    first_irregular: int | None = None
    for step in fold.steps():
        view = fold.table.view()
        view["rulings"] = [_cite(r, clauses, cited) for r in view["rulings"]]
        frames.append({"l": step.label, "n": step.line, "k": step.kind, "t": step.text, "g": step.tags,
                       "d": step.deal, "u": step.unit, "q": log.events[step.last].seq,
                       "x": delta(previous, view), **({"z": step.zh} if chinese else {})})
        previous = view
        here = len(frames) - 1
        if start_index is not None and step.first <= start_index <= step.last:
            start = here
        if first_irregular is None and step.tags and _cards_out(view):
            first_irregular = here
        if first_play is None and view["phase"] == "play" and any(p[1] is not None for p in view["pile"]["plays"]):
            first_play = here
        if progress is not None:
            progress(step.last - step.first + 1)
    if start is None:
        start = first_screen(first_irregular, first_play)
    part = paiju_part(log.game)
    options = log.header.get("options")
    return {
        "game": log.game,
        "gameName": part.short_title or game_spec(log.game).title,
        "wildSuit": part.wild_suit,
        "legend": [list(mark) for mark in part.card_legend],
        "refereed": bool(isinstance(options, dict) and options.get("referee")),
        "seed": log.seed,
        "viewer": viewer,
        "unitName": fold.table.unit_name,
        "start": start,
        "clauses": clauses,
        "chinese": chinese,
        **({"rulingsZh": rulings_zh(log)} if chinese else {}),
        "frames": frames,
    }


def rulings_zh(log: Log) -> dict[str, dict[str, Any]]:
    """Each ruling of the log in Chinese alone (the page's ruling cards when it shows Chinese
    first), by 'SEQ CLAUSE': its clause's seed number, the offender, the irregularity, what it
    puts right and the sanctions, in the referee's terms."""
    from enforcement.irregularities import irregularity_of
    from paiju.replay.chinese import facts_zh
    from paiju.wording import effect_zh, imposed_zh, seat_zh, seed_number

    out: dict[str, dict[str, Any]] = {}
    for event in log.events:
        if not event.KIND.startswith("ref.") or not hasattr(event, "rectification"):
            continue
        clause = str(getattr(event, "clause", None) or getattr(event, "fallback", ""))
        offender = getattr(event, "offender", event.seat)
        record = irregularity_of(log.game, str(getattr(event, "irregularity", "")))
        out[f"{event.seq} {clause}"] = {
            "number": seed_number(clause) if clause[:3] in ("GD-", "SJ-") else clause,
            "who": seat_zh(offender) if offender is not None else "牌桌",
            "irregularity": record.zh if record is not None else "",
            "facts": facts_zh(log.game, getattr(event, "facts", ()), offender),
            "rectification": [effect_zh(e, offender) for e in event.rectification],
            "sanctions": [imposed_zh(row, offender) for row in getattr(event, "sanctions", ())],
        }
    return out


def _cards_out(view: dict[str, Any]) -> bool:
    """Whether any seat holds cards (an irregularity before the deal shows an empty table)."""
    return any(seat["hand"] or seat["count"] for seat in view["seats"])


def first_screen(first_irregular: int | None, first_play: int | None) -> int:
    """The step the page opens at: the first irregularity or ruling once cards are dealt,
    else the first card played (the hands dealt, the first play on the table), else the
    first step."""
    for step in (first_irregular, first_play):
        if step is not None:
            return step
    return 0


CLAUSE_TEXT = ("title", "text_zh", "summary")


def _cite(ruling: dict[str, Any], clauses: dict[str, dict[str, str]],
          cited: dict[int, tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """A ruling with its clause's texts moved to the page's clause table (written once).
    ``cited``: the rulings already cited, by identity (the table keeps each ruling's record
    unchanged from frame to frame), so each is cited once, not once per frame after it."""
    kept = cited.get(id(ruling))
    if kept is not None and kept[0] is ruling:
        return kept[1]
    clauses.setdefault(ruling["clause"], {k: ruling[k] for k in CLAUSE_TEXT})
    out = {k: v for k, v in ruling.items() if k not in CLAUSE_TEXT}
    cited[id(ruling)] = (ruling, out)   # the record kept alive: its id is not reused
    return out


def _script_json(data: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element or open a comment inside it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render_page(log: Log, viewer: int | None = None, source: str = "log", start_index: int | None = None,
                progress: Callable[[int], None] | None = None, hide_judgement: bool = False,
                warning: str | None = None, chinese: bool = False) -> str:
    """The page; ``warning`` (the log does not ``--check``) is shown above the table;
    ``chinese``: the steps in Chinese first (``page_data``)."""
    data = page_data(log, viewer, source, start_index, progress, hide_judgement, chinese)
    return page_html(log, data, viewer, source, warning)


def page_html(log: Log, data: dict[str, Any], viewer: int | None = None, source: str = "log",
              warning: str | None = None) -> str:
    """The page around ``page_data``'s JSON; ``warning`` is shown above the table."""
    game_title = game_spec(log.game).title
    meta = [os.path.basename(source), f"seed {log.seed}", f"{counted(len(log.events), 'event')}, {counted(len(data['frames']), 'step')}"]
    if viewer is not None:
        meta.append(f"seen by seat {viewer}")
    if log.truncated:
        meta.append("truncated log: the valid prefix")
    shown = f'\n<p id="log-warning" role="alert">{html.escape(warning)}</p>' if warning else ""
    body = BODY.format(game_title=html.escape(game_title), meta=html.escape(" · ".join(meta)),
                       round=paiju_part(log.game).round_word, warning=shown)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{html.escape(f'paiju replay · {game_title} · {os.path.basename(source)}')}</title>\n"
        f"<style>{CSS}</style>\n</head>\n<body>\n{body}\n"
        f"<script type=\"application/json\" id=\"replay-data\">{_script_json(data)}</script>\n"
        f"<script>{JS}</script>\n</body>\n</html>\n"
    )


def write_page(path: str, text: str) -> int:
    """Write the page whole (``paiju.files.write_whole``). Bytes written."""
    return write_whole(path, text)
