"""Files written beside their target and renamed into place, so that the target is only
ever replaced by something whole.

``ReplacingFile`` is written under a temporary name in the target's directory
(``.NAME.paiju-XXXX.tmp``) and, when closed, renamed to the target — an existing file is
replaced only then, in one step. A writer that writes whole lines or blocks and is
closed when its run ends (finished, interrupted or failed) therefore leaves the old file
or a valid prefix of the new one, never half of either; ``discard`` leaves the old one.
Only a process killed outright leaves the temporary file (with the prefix) beside an
untouched target.
"""

from __future__ import annotations

import os
import tempfile
from typing import IO, Any

FILE_MODE = 0o644
"""Of a finished file (the temporary one is created readable by its owner only)."""


def temporary_beside(path: str) -> tuple[int, str]:
    """An open descriptor and the name of a new temporary file in ``path``'s directory."""
    directory = os.path.dirname(os.path.abspath(path))
    return tempfile.mkstemp(prefix=f".{os.path.basename(path)}.paiju-", suffix=".tmp", dir=directory)


def put_in_place(temporary: str, path: str) -> None:
    """Rename ``temporary`` to ``path`` (replacing it in one step)."""
    os.chmod(temporary, FILE_MODE)
    os.replace(temporary, path)


def remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class ReplacingFile:
    """A binary file for ``path``, written beside it and renamed onto it by ``close``."""

    def __init__(self, path: str) -> None:
        self.path = path
        fd, self.temporary = temporary_beside(path)
        self._file: IO[bytes] = os.fdopen(fd, "wb")
        self.closed = False

    def write(self, data: bytes) -> int:
        return self._file.write(data)

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        """Flush and put the file in place (the target is replaced now)."""
        if self.closed:
            return
        self.closed = True
        try:
            self._file.close()
            put_in_place(self.temporary, self.path)
        except BaseException:
            remove_quietly(self.temporary)
            raise

    def discard(self) -> None:
        """Close and remove the temporary file: the target stays as it was."""
        if self.closed:
            return
        self.closed = True
        try:
            self._file.close()
        finally:
            remove_quietly(self.temporary)

    def __enter__(self) -> "ReplacingFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
