"""The README is part of the product: its Quick start must be exactly two commands (the
second is what CI runs) and every Python example in it must run as written."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def test_quick_start_is_one_sh_block_of_two_commands_and_ci_runs_the_second():
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1
    commands = [line for line in blocks[0].splitlines() if line.strip()]
    assert len(commands) == 2
    assert "paiju simulate" in commands[0]
    assert "pytest" in commands[1]
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_python_examples_run(index, tmp_path, monkeypatch):
    # a block that starts with "# NAME.py" is that file too (later examples name it as a plug-in)
    for block in _blocks("python"):
        first = block.splitlines()[0]
        if re.fullmatch(r"# [\w]+\.py", first):
            (tmp_path / first[2:]).write_text(block, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    code = "\n".join(_blocks("python")[: index + 1])  # later examples may use earlier names
    exec(compile(code, f"README.md python block {index + 1}", "exec"), namespace)
