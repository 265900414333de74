"""Files the application writes whole: never a half-written page, summary, report or log.

Every file paiju writes goes through here or through the log writers of ``tabletop.log``;
both write beside the target and rename into place (``tabletop.files``), so an existing
file is replaced only by a whole new one (a log: by the whole units of a run, finished or
stopped)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Set

from paiju.arguments import AgentList, InputPath, NamedPath, OutputDirectory, OutputPath
from tabletop.errors import PaijuError
from tabletop.files import put_in_place, remove_quietly, temporary_beside


def write_whole(path: str, text: str, *, what: str = "", error: type[PaijuError] = PaijuError) -> int:
    """Write ``text`` to ``path`` through a temporary file beside it, renamed into place, so
    that a failure or an interrupt leaves the old file (or none) and no temporary one.
    Returns the bytes written; a failure is ``error`` naming ``what`` and the path."""
    data = text.encode("utf-8")
    label = f"{what} {path!r}" if what else repr(path)
    try:
        fd, temporary = temporary_beside(path)
    except OSError as exc:
        raise error(f"cannot write {label}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        put_in_place(temporary, path)
    except OSError as exc:
        remove_quietly(temporary)
        raise error(f"cannot write {label}: {exc.strerror or exc}") from None
    except BaseException:   # Ctrl-C between the write and the rename: no temporary file left
        remove_quietly(temporary)
        raise
    return len(data)


def write_lines(path: str, lines: list[str], *, what: str = "", error: type[PaijuError] = PaijuError) -> int:
    """``write_whole`` of lines, each ended by a newline."""
    return write_whole(path, "".join(line + "\n" for line in lines), what=what, error=error)


def same_file(one: str, other: str) -> bool:
    """Whether two paths name one file: the same resolved path (links followed), or, when
    both exist, the same inode (a hard link)."""
    if os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:   # one of them does not exist (yet): not the same existing file
        return False


def check_command_paths(args: argparse.Namespace) -> None:
    """The paths the command line named (``paiju.arguments.input_path``, ``output_path``,
    ``output_directory``), checked before any work: no output onto an input, no two outputs
    onto one file, every output writable where it is to be written (a missing parent is
    never made: a path a user named is taken as meant)."""
    values = vars(args).values()
    named = [value for value in values if isinstance(value, NamedPath)]
    named += [path for value in values if isinstance(value, AgentList) for path in value.inputs]
    outputs = [path for path in named if isinstance(path, OutputPath)]
    _refuse_overlapping(named, outputs)
    directories = {os.path.abspath(path) for path in outputs if isinstance(path, OutputDirectory)}
    for path in outputs:
        check_writable(path, path.option, directory=isinstance(path, OutputDirectory), made=directories)


def check_writable(path: str, option: str, *, directory: bool = False, made: Set[str] = frozenset(),
                   error: type[PaijuError] = PaijuError) -> None:
    """That ``path`` (a file, or with ``directory`` a directory to write into) can be
    written: its parent exists (or is among the directories the command ``made``), it is of
    the right kind, and a file can really be created where it goes. A one-line ``error`` if not."""
    target = os.path.abspath(path)
    parent = os.path.dirname(target)
    if directory and os.path.lexists(target) and not os.path.isdir(target):
        raise error(f"{option} {path!r} is not a directory")
    if not directory and os.path.isdir(target):
        raise error(f"cannot write {option} {path!r}: it is a directory")
    where = target if directory and os.path.isdir(target) else parent
    if where in made and not os.path.isdir(where):
        return   # inside another output directory, made when the command writes into it
    if os.path.lexists(where) and not os.path.isdir(where):
        raise error(f"cannot write {option} {path!r}: {where!r} is not a directory")
    if not os.path.isdir(where):
        raise error(f"cannot write {option} {path!r}: no such directory {where!r}")
    if not directory and os.path.exists(target) and not os.access(target, os.W_OK):
        raise error(f"cannot write {option} {path!r}: permission denied")
    try:   # a real file where the output goes: permissions, a read-only disk, ACLs all answer
        fd, probe = temporary_beside(os.path.join(where, "probe"))
    except OSError as exc:
        raise error(f"cannot write {option} {path!r}: {exc.strerror or exc}") from None
    os.close(fd)
    remove_quietly(probe)


def _refuse_overlapping(named: list[NamedPath], outputs: list[OutputPath]) -> None:
    for path in outputs:
        for read in (other for other in named if isinstance(other, InputPath)):
            if same_file(path, read):
                raise PaijuError(f"{path.option} {str(path)!r} is the input {read.option}: "
                                 f"refusing to write over what it reads")
    for number, path in enumerate(outputs):
        for other in outputs[number + 1:]:
            if same_file(path, other):
                raise PaijuError(f"{path.option} and {other.option} are the same file {str(path)!r}: "
                                 f"give each output its own")
