"""Run the real `paiju` command in a subprocess and stop it with a real SIGINT (Ctrl-C), SIGTERM or SIGHUP."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence

PAIJU = [sys.executable, "-m", "paiju"]   # the entry point the `paiju` command runs


class Running:
    """A `paiju` process whose stdout and stderr are read as they come."""

    def __init__(self, argv: Sequence[str], *, cwd: str | None = None, stdin: bool = False) -> None:
        self.proc = subprocess.Popen([*PAIJU, *argv], cwd=cwd, text=True, encoding="utf-8",
                                     stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                         for stream, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream, into: list[str]) -> None:
        while chunk := stream.read(1):
            into.append(chunk)

    @property
    def stdout(self) -> str:
        return "".join(self.out)

    @property
    def stderr(self) -> str:
        return "".join(self.err)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, ready: Callable[[], bool], timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            if self.proc.poll() is not None:
                raise AssertionError(f"paiju ended early ({self.proc.returncode}): {self.stdout}{self.stderr}")
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError(f"timed out waiting: {self.stdout}{self.stderr}")
            time.sleep(0.05)

    def interrupt(self, timeout: float = 90.0) -> int:
        """SIGINT, as Ctrl-C sends it; the exit status."""
        self.proc.send_signal(signal.SIGINT)
        code = self.finish(timeout)
        # paiju catches the KeyboardInterrupt and exits 130, but CPython ends the process by SIGINT
        # itself (-2) when the interrupt once escaped code it evaluated through its C API, even if
        # Python code caught it later; a shell reports both as 130, and stderr is the same
        return 130 if code == -signal.SIGINT else code

    def stop(self, signum: int, timeout: float = 90.0) -> int:
        """Another signal that stops a run (SIGTERM from `timeout`, SIGHUP from a closed
        terminal, or SIGINT as ``interrupt``); the exit status, 128 + the signal as a shell says."""
        if signum == signal.SIGINT:
            return self.interrupt(timeout)
        self.proc.send_signal(signum)
        return self.finish(timeout)

    def finish(self, timeout: float = 90.0) -> int:
        code = self.proc.wait(timeout=timeout)
        for reader in self._readers:
            reader.join(timeout=10)
        return code
