"""`paiju replay LOG`: with ``--check``, re-run the log and compare every event
(``paiju.replay.check``); else look at it (``paiju.replay.view``)."""

from __future__ import annotations

import argparse
import sys

from tabletop.errors import LogError, OptionError

from paiju.progress import ReadProgress, long_log, start_progress
from paiju.replay.check import check_log, load_log, units_of


INCOMPLETE = 3
"""`replay --check`'s exit status for a log whose every whole unit checks but that ends early."""


def replay_command(args: argparse.Namespace) -> int:
    viewing = [f"--{name}" for name in ("at", "seat", "html") if getattr(args, name, None) is not None]
    if not args.check:
        from paiju.replay.view import view_command  # the step-by-step and HTML views
        return view_command(args)
    if viewing:
        raise OptionError(f"--check re-runs the log and shows nothing: leave out {' '.join(viewing)}")
    quiet = getattr(args, "quiet", False) or not long_log(args.log)
    reading = ReadProgress(args.log, quiet=quiet, description="replay --check: reading")
    try:   # an interrupted run's last line may be cut off
        log, game = load_log(args.log, allow_truncated=True, read=reading.read)
    except BaseException:
        reading.close(finished=False)
        raise
    reading.close()
    if log.error is not None and not log.truncated:
        raise LogError(log.error)
    if getattr(args, "game", None) not in (None, log.game):
        raise LogError(f"{args.log}: line 1: a {log.game!r} log, expected {args.game!r}")
    if not log.events:   # nothing to re-run: say so rather than "ok" about nothing
        print(f"no events: {args.log} holds only its header (the prefix of a run stopped before its first unit?)")
        print("paiju: warning: the log is the prefix of an interrupted run (exit 3)", file=sys.stderr)
        return INCOMPLETE
    checking = start_progress(*units_of(log), quiet=quiet, description="replay --check")
    try:
        result = check_log(log, game, logged_rulings=getattr(args, "logged_rulings", False), progress=checking.advance)
    finally:
        checking.close()
    if result.ok and result.complete and log.truncated:
        # every unit whole, then a line without its newline: not a run cut off, text after the log
        line = len(log.lines) + 2   # after the header and every event read
        raise LogError(f"{args.log}: line {line}: text after the log's last unit, without a newline: not an event")
    print(result.message)
    if result.ok and not result.complete:
        print("paiju: warning: the log is the prefix of an interrupted run (exit 3)", file=sys.stderr)
        return INCOMPLETE
    return 0 if result.ok else 1
