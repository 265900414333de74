"""A paiju process runs numpy's BLAS on one thread (the engines do no linear algebra; parallel
runs are processes), unless the user says otherwise."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads through /proc (Linux)")

_COUNT = ("import os, sys\n"
          "from paiju.cli import main\n"
          "import numpy\n"
          "print(os.environ.get('OPENBLAS_NUM_THREADS'), len(os.listdir('/proc/self/task')))")


def _run(env: dict[str, str]) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-c", _COUNT], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    setting, threads = done.stdout.split()
    return setting, int(threads)


def test_the_command_keeps_numpy_to_one_thread():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _run(env) == ("1", 1)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: numpy starts no BLAS thread anyway")
def test_a_users_own_blas_setting_stands():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"} | {"OPENBLAS_NUM_THREADS": "2"}
    setting, threads = _run(env)
    assert setting == "2" and threads > 1
