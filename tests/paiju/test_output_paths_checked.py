"""Every output path is checked before the run (issue 29, item 3): an unwritable one is a
one-line error and exit 2 at once — not an internal error after the whole run; a missing
parent of a path the user named is never made; a port in use is refused before serving
is announced. (As root nothing is refused for permissions: a regular file where a
directory is expected makes a path unwritable for anyone.)"""

from __future__ import annotations

import socket
import subprocess
import time

import pytest

from tests.paiju.interrupt import PAIJU

LONG_FUZZ = ["fuzz", "--game", "guandan", "--deals", "100000", "--quiet"]   # minutes, were it run


def _paiju(*argv: str, cwd) -> tuple[subprocess.CompletedProcess, float]:
    began = time.monotonic()
    done = subprocess.run([*PAIJU, *argv], capture_output=True, text=True, cwd=cwd, timeout=120)
    return done, time.monotonic() - began


@pytest.mark.parametrize("option, value, words", [
    ("--campaign", "plain/campaign", "cannot write --campaign 'plain/campaign': "),
    ("--out", "plain/failures", "cannot write --out 'plain/failures': "),
    ("--out", "plain", "--out 'plain' is not a directory"),
    ("--holes", "plain/holes.md", "cannot write --holes 'plain/holes.md': "),
    ("--report", "plain/report.html", "cannot write --report 'plain/report.html': "),
    ("--matrix", "plain/matrix.json", "cannot write --matrix 'plain/matrix.json': "),
])
def test_fuzz_refuses_an_unwritable_output_before_the_run(tmp_path, option, value, words):
    (tmp_path / "plain").write_text("a regular file, where a directory is expected\n")
    done, seconds = _paiju(*LONG_FUZZ, option, value, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and words in done.stderr and "internal error" not in done.stderr, done.stderr
    assert done.stdout == "" and seconds < 30   # nothing was played
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]


def test_a_campaign_directory_takes_the_reports_written_into_it(tmp_path):
    """A file in the campaign directory is writable although the directory is made later."""
    done, _ = _paiju("fuzz", "--game", "guandan", "--deals", "2", "--quiet", "--campaign", "c",
                     "--matrix", "c/matrix.json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "c" / "matrix.json").exists()


def test_train_serve_never_makes_the_missing_directories_of_a_db_it_is_given(tmp_path):
    done, _ = _paiju("train", "serve", "--db", str(tmp_path / "missing" / "deeper" / "x.sqlite3"), cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "no such directory" in done.stderr and not (tmp_path / "missing").exists()


def test_train_serve_on_a_port_in_use_is_one_line_before_it_announces_serving(tmp_path):
    pytest.importorskip("uvicorn")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        done, _ = _paiju("train", "serve", "--port", str(port), "--db", str(tmp_path / "x.sqlite3"), cwd=tmp_path)
    finally:
        taken.close()
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == f"paiju: error: cannot serve on 127.0.0.1:{port}: the port is in use\n"


def test_the_default_fuzz_out_is_checked_only_where_it_is_written(tmp_path):
    (tmp_path / "fuzz-failures").write_text("a regular file where the default --out directory would go\n")
    done, _ = _paiju("fuzz", "--game", "guandan", "--deals", "2", "--quiet", "--campaign", "c", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr   # a campaign keeps its findings in its directory
    done, _ = _paiju(*LONG_FUZZ, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr == "paiju: error: --out 'fuzz-failures' is not a directory\n", done.stderr
