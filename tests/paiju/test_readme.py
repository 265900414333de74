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


# --- links and paths ---------------------------------------------------------------------------

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
FILE_SUFFIXES = (".py", ".md", ".toml", ".cfg", ".sh")
NOT_THE_REPO = {".git", ".venv", "__pycache__"}


def _repo_files(root: Path) -> set[str]:
    """Every file's name in the repository (a bare ``cli.py`` must name one of them)."""
    return {p.name for p in root.rglob("*")
            if p.is_file() and not NOT_THE_REPO.intersection(p.relative_to(root).parts)}


def missing_paths(text: str, root: Path) -> list[str]:
    """What ``text`` (a README) links or names in backticks that ``root`` does not have:
    relative links; backticked paths that start in the repository (their first part is one
    of its top-level entries) or leave it (``../``); bare file names (``cli.py``) that no file
    of the repository has. Other backticked words with a slash (``fuzz-failures/``,
    ``irregularity:…/…``) are outputs or ids, not paths of the repository."""
    top = {p.name for p in root.iterdir()} - NOT_THE_REPO
    # files the README itself has the reader write (a code block opening with "# NAME.py")
    names = _repo_files(root) | set(re.findall(r"```\w*\n# ([\w.-]+\.py)\n", text))
    problems = []

    def exists(path: str) -> bool:
        target = (root / path).resolve()
        if not target.is_relative_to(root.resolve()):
            return False
        return bool(list(root.glob(path.rstrip("/")))) if "*" in path else target.exists()

    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue   # a URL or an anchor
        path = target.split("#", 1)[0]
        if not exists(path):
            problems.append(f"link ({target})")
    for token in CODE.findall(text):
        if " " in token or token.startswith("/") or "://" in token:
            continue
        if "/" in token:
            first = token.split("/", 1)[0]
            if (first in top or first == "..") and not exists(token):
                problems.append(f"`{token}`")
        elif token.endswith(FILE_SUFFIXES) and re.fullmatch(r"[\w.*-]+", token) and token not in names \
                and not list(root.rglob(token)):
            problems.append(f"`{token}`")
    return problems


def test_the_readme_names_only_files_the_repository_has():
    assert missing_paths(README, ROOT) == []


def test_the_path_check_finds_what_is_missing():
    text = ("See [the guide](docs/GUIDE.md), [ok](benchmarks/README.md#figures), [web](https://example.org), "
            "`../shared/ARCHITECTURE.md`, `tabletop/nothing.py`, `paiju/cli.py`, `tests/golden/*.jsonl`, "
            "`tests/golden/*.nope`, `gone_module.py`, `cli.py`, `fuzz-failures/`, `irregularity:a/b`, "
            "`/usr/bin/chromium`")
    assert missing_paths(text, ROOT) == ["link (docs/GUIDE.md)", "`../shared/ARCHITECTURE.md`",
                                         "`tabletop/nothing.py`", "`tests/golden/*.nope`", "`gone_module.py`"]
