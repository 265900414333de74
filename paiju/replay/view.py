"""`paiju replay LOG [--at N] [--seat N] [--html OUT.html] [--game G]`: look at a log.

- no option: the step-by-step listing with the table at play start, round/trick ends and
  deal ends (``paiju.replay.text``);
- ``--at N``: the table after the event with sequence number N (UNIT:N in a log of several
  units, where sequence numbers start again in each unit);
- ``--seat N``: only what seat N may know (other hands hidden);
- ``--html OUT``: one self-contained page instead (``paiju.replay.html``).

Bad input is one line naming the line of the log: an unknown format version or game (line
1), a corrupt event (its line). A truncated last line is a warning: the valid prefix is
shown. The whole log is folded before anything is shown, so a corrupt event never leaves
half a listing or half a page."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from paiju.progress import Batched, ReadProgress, long_log, start_progress
from paiju.replay.fold import Fold, find_step
from tabletop.errors import LogError, PaijuError
from tabletop.log import Log, peek_header, read_log
from paiju.summary import counted




def open_log(path: str, game: str | None = None, read: Callable[[int], None] | None = None) -> Log:
    """The log, its game's event kinds (and the referee's) loaded first. A truncated last
    line leaves the valid prefix (``log.truncated``); any other bad line is a LogError.
    ``read`` is told the bytes read (a progress display)."""
    header = peek_header(path)
    name = header.get("game")
    if game is not None and name != game:
        raise LogError(f"{path}: line 1: a {name!r} log, expected {game!r}")
    log = read_log(path, allow_truncated=True, read=read)
    if log.error is not None and not log.truncated:
        raise LogError(log.error)
    return log


def validate(log: Log, source: str, progress: Callable[[int], None] | None = None) -> None:
    """Fold every event once: a payload that does not fit is a LogError naming its line.
    ``progress`` is told of each event folded."""
    fold = Fold(log, None, source, engine=False)
    for index in range(len(log.events)):
        fold.apply(index)
        if progress is not None:
            progress(1)


def check_warning(log: Log, source: str, quiet: bool) -> str | None:
    """Why the log does not ``--check --logged-rulings`` (re-played with its own rulings, the
    engine gives other lines: it was edited, or comes from other code), or None. A view
    shows what the log says; this says when that is not what the game gives. Rulings are
    data, so a ruling other than the rulebook's (a trainee's, a test's) is not flagged; the
    prefix of an interrupted run checks."""
    from paiju.replay.check import check_log, units_of

    checking = start_progress(*units_of(log), quiet=quiet, description="replay: checking")
    try:
        result = check_log(log, logged_rulings=True, progress=checking.advance)
    except PaijuError as exc:
        return f"{source} does not --check --logged-rulings: {exc}"
    finally:
        checking.close()
    if result.ok:
        return None
    first = result.message.splitlines()[0].rstrip(":")
    return f"{source} does not --check --logged-rulings ({first}): the view shows what the log says, not what the game gives"


def view_command(args: argparse.Namespace) -> int:
    quiet = getattr(args, "quiet", False) or not long_log(args.log)
    reading = ReadProgress(args.log, quiet=quiet, description="replay: reading")
    try:
        log = open_log(args.log, getattr(args, "game", None), read=reading.read)
    except BaseException:
        reading.close(finished=False)
        raise
    reading.close()
    if not log.events:
        raise LogError(f"{args.log}: no events: the log holds only its header (a run stopped before its first unit?)")
    seat = getattr(args, "seat", None)
    at = getattr(args, "at", None)
    html_path = getattr(args, "html", None)
    folding = start_progress("events", len(log.events), quiet=quiet, description="replay: folding")
    folded = Batched(folding.advance)
    try:
        validate(log, args.log, folded)
        folded.flush()
    finally:
        folding.close()
    index = find_step(Fold(log, seat, args.log, engine=False), at) if at is not None else None
    warning = check_warning(log, args.log, quiet)
    if warning is not None:
        print(f"paiju: warning: {warning}", file=sys.stderr)
    if html_path:
        from paiju.replay.html import render_page, write_page
        drawing = start_progress("events", len(log.events), quiet=quiet, description="replay: page")
        drawn = Batched(drawing.advance)
        try:
            page = render_page(log, seat, args.log, index, progress=drawn, warning=warning)
            drawn.flush()
        finally:
            drawing.close()
        size = write_page(html_path, page)
        print(f"wrote {html_path} ({size:,} bytes, {counted(len(log.events), 'event')})")
    else:
        from paiju.replay.text import make_console, print_listing, print_table_at
        console = make_console()
        fold = Fold(log, seat, args.log)
        if index is None:
            print_listing(fold, console)
        else:
            print_table_at(fold, index, console)
    if log.truncated:
        print(f"paiju: warning: {log.error}; showing the {counted(len(log.events), 'event')} before it", file=sys.stderr)
    return 0
