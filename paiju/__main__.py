"""The `paiju` command's entry point (also `python -m paiju`).

Loading the program takes a good part of a second (numpy, the engines); a Ctrl-C in that time
ends with the same one line and exit status as a Ctrl-C later, not a traceback.
"""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130


def main() -> int:
    try:
        from paiju.cli import main as run
    except KeyboardInterrupt:
        print("paiju: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return run()


if __name__ == "__main__":
    sys.exit(main())
