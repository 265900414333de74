"""The documentation cannot go stale: the site builds in strict mode (a broken link, anchor or
reference fails), every runnable code block of README.md and docs/ runs on its own and shows
what it prints, and no file of the repository names a path the repository does not hold.

Runnable blocks, each run alone in an empty directory:

- ``python``: run as a script; a block opening with ``# NAME.py`` is also written as that file
  beside every block (a later example loads it as a plug-in), and so is a block titled with a
  file's name (```` ```text title="answers.txt" ````);
- ``pycon``: a doctest (``>>>`` lines, the output under them checked, ``...`` elides);
- ``console``: ``$ paiju …`` lines, each run in-process, its output (the lines under it up to
  the next ``$``) checked as a doctest checks it;
- ``sh`` / ``bash`` that runs ``paiju`` commands: every line a ``paiju`` command, each must
  exit 0.

A block whose title says ``not run`` (```` ```sh title="not run: starts a server" ````) is
shown only: it must say why. The collector is ours rather than pytest-markdown-docs or
phmdoctest because those run Python fences only; the shell blocks are most of what a reader
copies, and their output is checked by the same stdlib doctest matcher as the pycon blocks.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.M | re.S)
TITLE = re.compile(r'title="([^"]*)"')
SHELLS = ("sh", "bash", "shell")
CHECKER = doctest.OutputChecker()
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


class Block:
    def __init__(self, page: Path, line: int, lang: str, title: str, body: str) -> None:
        self.page, self.line, self.lang, self.title, self.body = page, line, lang, title, body

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def shown_only(self) -> bool:
        return self.title.lower().startswith("not run")

    @property
    def runnable(self) -> bool:
        if self.lang in ("python", "pycon", "console"):
            return True
        return self.lang in SHELLS and any(line.startswith("paiju ") for line in _commands(self.body))


def _blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        indent = m.group("indent")
        body = "".join(line[len(indent):] if line.startswith(indent) else line
                       for line in m.group("body").splitlines(keepends=True))
        title = TITLE.search(m.group("info"))
        found.append(Block(page, text.count("\n", 0, m.start()) + 1, m.group("lang"), title.group(1) if title else "", body))
    return found


def _commands(body: str) -> list[str]:
    """The shell lines of a block: continuation lines joined, comments and blank lines left out."""
    joined = body.replace("\\\n", " ")
    return [line.split("  #")[0].strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


BLOCKS = [b for page in PAGES for b in _blocks(page)]
RUN = [b for b in BLOCKS if b.runnable and not b.shown_only]
FILES = {b.body.splitlines()[0][2:]: b.body for b in BLOCKS
         if b.lang == "python" and b.body and re.fullmatch(r"# [\w]+\.py", b.body.splitlines()[0])}
FILES |= {b.title: b.body for b in BLOCKS if re.fullmatch(r"[\w-]+\.(txt|json|toml)", b.title)}


def _paiju(command: str) -> tuple[int, str]:
    """Run one ``paiju …`` line in-process (a new process per line would cost a second each)."""
    from paiju.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            status = main(shlex.split(command)[1:])
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 1
    if status != 0:
        return status, out.getvalue() + err.getvalue()
    return status, out.getvalue()


@pytest.fixture
def in_empty_dir(tmp_path, monkeypatch):
    for name, body in FILES.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("block", RUN, ids=lambda b: b.name)
def test_code_block_runs_alone_and_shows_what_it_prints(block, in_empty_dir):
    if block.lang == "python":
        exec(compile(block.body, block.name, "exec"), {"__name__": "__main__"})
    elif block.lang == "pycon":
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block.body, {"__name__": "__main__"}, block.name, block.name, 0)
        runner = doctest.DocTestRunner(optionflags=OPTIONS)
        report = io.StringIO()
        runner.run(test, out=report.write)
        assert runner.failures == 0, report.getvalue()
    elif block.lang == "console":
        _check_console(block)
    else:
        for command in _commands(block.body):
            assert command.startswith("paiju "), \
                f"{block.name}: a shell block that runs paiju runs only paiju (else title it 'not run: why'): {command}"
            status, printed = _paiju(command)
            assert status == 0, f"{block.name}: {command} exited {status}:\n{printed}"


def _check_console(block: Block) -> None:
    for command, shown in _console(block.body):
        assert command.startswith("paiju "), f"{block.name}: a console block runs paiju commands only: {command}"
        status, printed = _paiju(command)
        assert status == 0, f"{block.name}: {command} exited {status}:\n{printed}"
        assert CHECKER.check_output(shown, printed, OPTIONS), \
            f"{block.name}: {command} printed\n{printed}\nnot what the block shows:\n{shown}"


def test_a_console_block_showing_other_output_fails(in_empty_dir):
    shown = "$ paiju rules guandan GD-2.3.1\nclause: GD-2.3.2 ...\n"
    with pytest.raises(AssertionError, match="not what the block shows"):
        _check_console(Block(ROOT / "README.md", 1, "console", "", shown))
    _check_console(Block(ROOT / "README.md", 1, "console", "", shown.replace("2.3.2", "2.3.1")))


def _console(body: str) -> list[tuple[str, str]]:
    runs: list[tuple[str, str]] = []
    for line in body.splitlines(keepends=True):
        if line.startswith("$ "):
            runs.append((line[2:].strip(), ""))
        elif runs:
            runs[-1] = (runs[-1][0], runs[-1][1] + line)
    return runs


def test_every_block_not_run_says_why():
    for block in BLOCKS:
        if block.shown_only:
            assert len(block.title.split(":", 1)) == 2 and block.title.split(":", 1)[1].strip(), \
                f"{block.name}: a block not run says why ('not run: …')"


def _options_of(parser) -> set[str]:
    import argparse

    found = {o for action in parser._actions for o in action.option_strings}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _options_of(sub)
    return found


def test_usage_synopses_name_only_options_the_commands_have():
    """The hand-written synopses (``text`` blocks of ``paiju …`` lines) beside the generated help."""
    from paiju.cli import build_parser

    parser = build_parser()
    commands = {name: sub for action in parser._actions if hasattr(action, "choices") and isinstance(action.choices, dict)
                for name, sub in action.choices.items()}
    checked = 0
    for block in BLOCKS:
        if block.lang != "text":
            continue
        known: set[str] | None = None   # the options of the command the synopsis line is of
        for line in block.body.splitlines():
            words = line.split()
            if words[:1] == ["paiju"] and len(words) > 1 and words[1] in commands:
                command, known = words[1], _options_of(commands[words[1]])
            elif not (words and words[0].startswith("[")):
                known = None if words[:1] != ["paiju"] else known
                continue
            if known is None:
                continue
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", line):
                assert option in known | {"--help", "--version"}, f"{block.name}: paiju {command} has no {option}"
                checked += 1
    assert checked > 20


def test_the_collector_finds_the_examples():
    langs = {b.lang for b in RUN}
    assert {"python", "console"} <= langs, langs
    assert len(RUN) >= 20


# --- the site ----------------------------------------------------------------------------------

def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs", reason="needs the docs extra (pip install -e '.[docs]')")
    pytest.importorskip("material", reason="needs the docs extra (pip install -e '.[docs]')")
    pytest.importorskip("mkdocstrings", reason="needs the docs extra (pip install -e '.[docs]')")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "site" / "rules" / "guandan-code" / "index.html").exists()


# --- paths the repository must hold --------------------------------------------------------------

PATH_LIKE = re.compile(r"(?<![\w./:-])((?:\.\./)*[\w.-]+(?:/[\w.*-]+)+\.(?:md|py))\b")
SCANNED = (".py", ".md", ".toml", ".yml", ".html", ".js", ".cfg")
NOT_THE_REPO = {".git", ".venv", "__pycache__", "site", "node_modules"}


def _repo_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout:
        names = [ROOT / line for line in listed.stdout.splitlines()]
    else:
        names = list(ROOT.rglob("*"))
    return [p for p in names if p.is_file() and p.suffix in SCANNED
            and not NOT_THE_REPO.intersection(p.relative_to(ROOT).parts)]


def dangling_paths(text: str, here: Path, root: Path) -> list[str]:
    """The path-like words of ``text`` (``pkg/mod.py``, ``docs/x.md``, ``../x/y.md``) that name
    no file, read from the repository's root or (a relative link) from the file's own folder
    (mkdocs.yml's from docs/). A path is the repository's when it starts in it (its first part
    is a top-level entry, or an entry beside the file), leaves it (``../``) or names the
    workspace's ``shared/`` folder, which the repository does not ship. Other words with a slash
    (``path/to/file.py``, ``OUT/policy.py``) are placeholders or outputs; absolute paths and URLs
    are not the repository's."""
    top = {p.name for p in root.iterdir()} | {"..", "shared"}
    missing = []
    for path in PATH_LIKE.findall(text):
        first = path.split("/", 1)[0]
        if first == "." or (first not in top and not (here.parent / first).exists()):
            continue
        candidates = [root / path, here.parent / path] + ([root / "docs" / path] if here.name == "mkdocs.yml" else [])
        if "*" in path:
            if not (any(root.glob(path)) or any(here.parent.glob(path))):
                missing.append(path)
        elif not any(c.exists() for c in candidates):
            missing.append(path)
    return missing


def test_no_file_names_a_path_the_repository_does_not_hold():
    problems = []
    for path in _repo_files():
        if path == Path(__file__).resolve():
            continue   # its own examples of what is missing
        text = path.read_text(encoding="utf-8", errors="replace")
        problems += [f"{path.relative_to(ROOT)}: {p}" for p in dangling_paths(text, path, ROOT)]
    assert problems == []


def test_the_path_scan_finds_what_is_missing():
    text = ("see shared/rules/enforcement.md, docs/rules/enforcement.md, paiju/cli.py, paiju/nothing.py, "
            "tests/golden/*.jsonl.md, https://example.org/a/b.md, /usr/lib/x/y.py, ../README.md, "
            "path/to/file.py, ../docs/gone.md")
    assert dangling_paths(text, ROOT / "docs" / "index.md", ROOT) == [
        "shared/rules/enforcement.md", "paiju/nothing.py", "tests/golden/*.jsonl.md", "../docs/gone.md"]
