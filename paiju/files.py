"""Files the application writes whole: never a half-written page, summary or report."""

from __future__ import annotations

import os
import tempfile

from tabletop.errors import PaijuError


def write_whole(path: str, text: str, *, what: str = "", error: type[PaijuError] = PaijuError) -> int:
    """Write ``text`` to ``path`` through a temporary file beside it, renamed into place, so
    that a failure leaves the old file (or none) and no temporary one. Returns the bytes
    written; a failure is ``error`` naming ``what`` and the path."""
    data = text.encode("utf-8")
    label = f"{what} {path!r}" if what else repr(path)
    try:
        fd, temporary = tempfile.mkstemp(prefix=".paiju-", suffix=".tmp", dir=os.path.dirname(os.path.abspath(path)))
    except OSError as exc:
        raise error(f"cannot write {label}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except OSError as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise error(f"cannot write {label}: {exc.strerror or exc}") from None
    return len(data)
