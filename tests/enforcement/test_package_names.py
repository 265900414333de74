"""``enforcement`` loads its parts on first use (a clean refereed run never needs the rulebook):
every name it exports must still be there when asked for, and ``from enforcement import *``
must work."""

import subprocess
import sys


def test_every_exported_name_of_enforcement_resolves_in_a_fresh_process():
    code = ("import enforcement\n"
            "missing = [n for n in enforcement.__all__ if not hasattr(enforcement, n)]\n"
            "assert not missing, missing\n"
            "from enforcement import *\n"
            "print(len(enforcement.__all__))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 50
