"""What a replay shows is not misleading (issue 29, item 6): a log of several matches shows no
earlier match's result or levels in "This deal"; a log of its header alone says "no events";
a log saved with Windows line endings checks; a log that does not `--check` (a card edited)
is shown with a warning, on stderr and at the top of the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiju.cli import main
from paiju.replay.fold import Fold, find_step
from tabletop.log import read_log

MATCHES = ["simulate", "guandan", "--matches", "3", "--rules", "match_end=deals", "--rules", "match_deals=4",
           "--seed", "2", "--quiet"]


@pytest.fixture(scope="module")
def three_matches(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("m3") / "m3.jsonl"
    assert main([*MATCHES, "--log", str(path)]) == 0
    return path


def test_a_later_match_starts_with_nothing_of_the_earlier_ones(three_matches):
    log = read_log(three_matches)
    fold = Fold(log)
    at = find_step(fold, "1:100")
    for index in range(at + 1):
        fold.apply(index)
    view = fold.table.view()
    assert view["unit"] == 1 and view["match"] == [] and view["result"] is None
    assert view["levels"] == ["2", "2"]   # every match starts at level 2 (not match 0's final levels)


def test_the_page_of_a_later_match_shows_no_earlier_result_in_this_deal(three_matches, tmp_path, browser_page, capsys):
    page_path = tmp_path / "out.html"
    assert main(["replay", str(three_matches), "--html", str(page_path), "--at", "1:100"]) == 0
    capsys.readouterr()
    page, problems = browser_page
    page.goto(page_path.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    assert page.get_attribute("#table", "data-seq").startswith("1:")   # the draw step holding 1:100
    this_deal = page.inner_text("#notes")
    assert "match over" not in this_deal and "result" not in this_deal
    page.keyboard.press("Home")   # match 0's end, then match 1's start, stepping through
    assert "match over" not in page.inner_text("#notes")
    assert page.locator("#log-warning").count() == 0 and problems == []


def test_a_log_of_its_header_alone_says_no_events(three_matches, tmp_path, capsys):
    header_only = tmp_path / "h.jsonl"
    header_only.write_text(three_matches.read_text().splitlines()[0] + "\n")
    assert main(["replay", str(header_only)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no events: the log holds only its header" in err
    assert main(["replay", str(header_only), "--html", str(tmp_path / "h.html")]) == 2
    assert not (tmp_path / "h.html").exists()
    assert main(["replay", str(header_only), "--check"]) == 3
    out, err = capsys.readouterr()
    assert out.startswith("no events: ") and "ok" not in out


def test_a_log_with_windows_line_endings_checks_and_shows(three_matches, tmp_path, capsys):
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(three_matches.read_bytes().replace(b"\n", b"\r\n"))
    assert main(["replay", str(crlf), "--check"]) == 0
    assert "reproduced exactly" in capsys.readouterr().out
    assert main(["replay", str(crlf), "--at", "2:5"]) == 0
    assert capsys.readouterr().err == ""


def test_a_log_with_a_card_changed_is_shown_with_a_warning(three_matches, tmp_path, browser_page, capsys):
    lines = three_matches.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if '"kind":"gd.drawn"' in line)
    card = lines[at].split('"card":"')[1][:2]
    other = "S2" if card != "S2" else "S3"
    lines[at] = lines[at].replace(f'"card":"{card}"', f'"card":"{other}"')
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(lines))
    assert main(["replay", str(tampered), "--check"]) == 1
    capsys.readouterr()
    assert main(["replay", str(tampered), "--at", "0:3"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("paiju: warning: ") and f"does not --check --logged-rulings (line {at + 1} differs)" in err
    page_path = tmp_path / "t.html"
    assert main(["replay", str(tampered), "--html", str(page_path)]) == 0
    capsys.readouterr()
    page, problems = browser_page
    page.goto(page_path.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    warning = page.locator("#log-warning")
    assert warning.is_visible() and "does not --check" in warning.inner_text()
    assert problems == []


@pytest.mark.parametrize("golden", ["golden_guandan_match_refereed_seed48.jsonl", "golden_shengji_match_refereed_seed10.jsonl"])
def test_a_refereed_log_viewed_in_a_fresh_process_is_shown_without_a_warning(golden, tmp_path):
    """A fresh `paiju replay` has not loaded the referee when the view re-checks the log; the
    table cites the clauses its referee names (a lapse, a lead option's answer), so the check
    loads the referee's registration itself instead of calling an untouched log tampered."""
    import subprocess
    import sys
    from pathlib import Path

    log = Path(__file__).resolve().parents[2] / "golden" / golden
    done = subprocess.run([sys.executable, "-m", "paiju", "replay", str(log), "--html", str(tmp_path / "page.html")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr, done.stderr
