"""The README's Quick start must be exactly two commands, and the second is what CI runs.
(Its other code blocks, the site's, and the paths every file names are tests/test_docs.py's.)"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_quick_start_is_one_sh_block_of_two_commands_and_ci_runs_the_second():
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh[^\n]*\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1
    commands = [line for line in blocks[0].splitlines() if line.strip()]
    assert len(commands) == 2
    assert "paiju simulate" in commands[0]
    assert "pytest" in commands[1]
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_readme_stays_short():
    assert len(README.splitlines()) <= 260
