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
half a listing or half a page.

A view is drawn from one run of the log through its engine, which is also the run that checks
it (``Fold.checked``): a log that does not ``--check --logged-rulings`` is shown with a
warning on stderr, after the listing (printed as it is drawn), before the table of ``--at``
and the page's "wrote" line, and at the top of the page."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from paiju.progress import Batched, ReadProgress, long_log, start_progress
from paiju.replay.check import units_of
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


def check_warning(fold: Fold, source: str) -> str | None:
    """Why the log does not ``--check --logged-rulings`` (re-played with its own rulings, the
    engine gives other lines: it was edited, or comes from other code), or None. A view
    shows what the log says; this says when that is not what the game gives. Rulings are
    data, so a ruling other than the rulebook's (a trainee's, a test's) is not flagged; the
    prefix of an interrupted run checks. The check is the fold's own run (``Fold.checked``):
    a log that reproduces goes through its engine once, for the view and the check."""
    try:
        result = fold.checked()
    except PaijuError as exc:
        return f"{source} does not --check --logged-rulings: {exc}"
    if result.ok:
        return None
    first = result.message.splitlines()[0].rstrip(":")
    return f"{source} does not --check --logged-rulings ({first}): the view shows what the log says, not what the game gives"


def _warn(warning: str | None) -> None:
    if warning is not None:
        print(f"paiju: warning: {warning}", file=sys.stderr)


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
    if html_path:
        from paiju.replay.html import page_data, page_html, write_page
        fold = Fold(log, seat, args.log)
        drawing = start_progress("events", len(log.events), quiet=quiet, description="replay: page")
        drawn = Batched(drawing.advance)
        try:
            data = page_data(log, seat, args.log, index, progress=drawn, fold=fold)
            drawn.flush()
            warning = check_warning(fold, args.log)
        finally:
            drawing.close()
        _warn(warning)
        size = write_page(html_path, page_html(log, data, seat, args.log, warning))
        print(f"wrote {html_path} ({size:,} bytes, {counted(len(log.events), 'event')})")
    elif index is not None:
        from paiju.replay.text import make_console, table_at
        checking = start_progress(*units_of(log), quiet=quiet, description="replay: checking")
        try:
            fold = Fold(log, seat, args.log, progress=checking.advance)
            shown = table_at(fold, index)
            warning = check_warning(fold, args.log)
        finally:
            checking.close()
        _warn(warning)
        console = make_console()
        for part in shown:
            console.print(part)
    else:
        # The listing is printed as it is drawn, and the check of the same run is over only
        # when the listing is: its warning comes after the listing (on stderr, as before).
        from paiju.replay.text import make_console, print_listing
        fold = Fold(log, seat, args.log)
        try:
            print_listing(fold, make_console())
        except BrokenPipeError:   # `| head`: the reader has gone, the warning is still due
            _warn(check_warning(fold, args.log))
            raise
        _warn(check_warning(fold, args.log))
    if log.truncated:
        print(f"paiju: warning: {log.error}; showing the {counted(len(log.events), 'event')} before it", file=sys.stderr)
    return 0
