"""How a run is stopped: Ctrl-C (SIGINT), SIGTERM and SIGHUP all raise a KeyboardInterrupt
in the main thread, so every command stops one way — the whole units kept, the outputs put
in place, the summary of what was played printed — and exits 128 + the signal's number."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

STOPPING_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
"""Every signal that stops a run the way Ctrl-C does (those this platform has)."""


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP (``timeout``, a closed terminal, a scheduler ending a job), raised
    where Ctrl-C's KeyboardInterrupt would be."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: Any) -> None:
    raise Stopped(signum)


def _numbers() -> list[int]:
    return [getattr(signal, name) for name in STOPPING_SIGNALS if hasattr(signal, name)]


def exit_status(interrupt: KeyboardInterrupt) -> int:
    """128 + the signal's number, as a shell reports a process ended by it."""
    return 128 + (interrupt.signum if isinstance(interrupt, Stopped) else signal.SIGINT)


def signal_name(interrupt: KeyboardInterrupt) -> str:
    return signal.Signals(interrupt.signum).name if isinstance(interrupt, Stopped) else "SIGINT"


@contextlib.contextmanager
def stopping_signals_as_interrupts() -> Iterator[None]:
    """SIGTERM and SIGHUP raise ``Stopped`` in the main thread inside the block; the handlers
    before it are back after it (a test or another program may call ``paiju.cli.main``). A
    signal this process was started ignoring stays ignored (``nohup`` ignores SIGHUP)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _stop) for number in _numbers()
                if number != signal.SIGINT and signal.getsignal(number) != signal.SIG_IGN}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held back until the block ends, then acted on as they would
    have been: what the block changes is done whole or not at all. Off the main thread (where
    no handler can be set) the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {number: signal.signal(number, lambda signum, frame: caught.append(signum)) for number in _numbers()}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if caught:
        signum = caught[0]
        handler = previous[signum]
        if callable(handler):
            handler(signum, None)
        elif handler == signal.SIG_DFL and signum == signal.SIGINT:
            raise KeyboardInterrupt
        elif handler == signal.SIG_DFL:
            signal.raise_signal(signum)
