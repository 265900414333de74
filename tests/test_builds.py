"""The two builds of the same source: the decision loop compiled with mypyc (``pip install .``
with a C compiler) and pure Python. Whatever build runs these tests, the pure one is a copy of
the installed packages without their extension modules; where the running build is compiled,
both must write the same log, byte for byte, for any seed (strict deals, and refereed deals
with injected irregularities)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop
from paiju.build import COMPILED, compiled_modules, description

ROOT = Path(tabletop.__file__).resolve().parent.parent
PACKAGES = ("tabletop", "guandan", "shengji", "enforcement", "paiju")


@pytest.fixture(scope="module")
def pure_tree(tmp_path_factory):
    """The project's packages as .py files only (no compiled extension beside them)."""
    tree = tmp_path_factory.mktemp("pure")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    return tree


def _paiju(tree: Path | None, *args: str) -> subprocess.CompletedProcess:
    """``paiju ARGS`` in a fresh process: from ``tree`` (first on the path), or as installed."""
    env = None
    if tree is not None:
        env = dict(os.environ, PYTHONPATH=str(tree))
    code = "import sys; from paiju.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd="/", timeout=300)


def test_the_pure_tree_runs_no_compiled_module(pure_tree):
    done = _paiju(pure_tree, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("(pure Python)")


def test_version_names_the_running_build():
    compiled = compiled_modules()
    assert set(compiled) <= set(COMPILED)
    assert description() == (f"compiled (mypyc): {len(compiled)} modules" if compiled else "pure Python")


needs_compiled = pytest.mark.skipif(not compiled_modules(), reason="pure build: no compiled module to compare "
                                    "(`pip install .` with a C compiler builds them)")


@needs_compiled
@settings(max_examples=8)
@given(seed=st.integers(0, 2**31 - 1), game=st.sampled_from(["guandan", "shengji"]),
       refereed=st.booleans(), matches=st.booleans())
def test_compiled_and_pure_builds_write_the_same_log(pure_tree, tmp_path_factory, seed, game, refereed, matches):
    logs = tmp_path_factory.mktemp("logs")
    unit = ["--matches", "1"] if matches else ["--deals", "3"]
    extra = ["--referee", "--infractions", "0.05"] if refereed else []
    written = []
    for name, tree in (("compiled", None), ("pure", pure_tree)):
        log = logs / f"{name}.jsonl"
        done = _paiju(tree, "simulate", game, *unit, "--seed", str(seed), "--quiet", "--log", str(log), *extra)
        assert done.returncode == 0, done.stderr
        written.append(log.read_bytes())
    assert written[0] == written[1]


# ---------------------------------------------------------------------------------------------
# The install's own choices (setup.py): pure Python when it cannot compile, saying why once.

SETUP = ROOT / "setup.py"


def _setup_py(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``python setup.py build_ext --inplace`` on a copy of the build's own files."""
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "paiju").mkdir()
    shutil.copy(ROOT / "paiju" / "build.py", tmp_path / "paiju" / "build.py")
    return subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, **env}, timeout=300)


@pytest.mark.skipif(not SETUP.exists(), reason="an installed copy without the source tree's setup.py")
@pytest.mark.parametrize("env, why", [
    ({"PAIJU_PURE": "1"}, "PAIJU_PURE is set"),
    ({"PAIJU_PURE": "", "CC": "/nonexistent/cc"}, "no C compiler (/nonexistent/cc) found"),
])
def test_an_install_that_cannot_compile_is_pure_and_says_why_once(tmp_path, env, why):
    done = _setup_py(tmp_path, env)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("paiju:")]
    assert said == [f"paiju: installing pure Python ({why})"]
    assert not list(tmp_path.rglob("*.so"))


def _build_ext_module():
    """setup.py as a module (its ``setup()`` call runs only as a script)."""
    import runpy
    return runpy.run_path(str(SETUP), run_name="paiju_setup_under_test")


def _build(tmp_path: Path, sources: dict[str, str]):
    from setuptools import Distribution, Extension

    for name, text in sources.items():
        (tmp_path / name).write_text(text)
    names = sorted(sources)
    dist = Distribution({"name": "probe", "ext_modules": [Extension("probe", names)],
                         "cmdclass": {"build_ext": _build_ext_module()["ParallelBuildExt"]}})
    dist.script_name = "setup.py"
    command = dist.get_command_obj("build_ext")
    command.inplace = True
    command.build_temp = str(tmp_path / "tmp")
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        dist.run_command("build_ext")
    finally:
        os.chdir(old)


_MODULE_C = """#include <Python.h>
int probe_answer(void);
static PyObject *answer(PyObject *self, PyObject *args) { return PyLong_FromLong(probe_answer()); }
static PyMethodDef methods[] = {{"answer", answer, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "probe", NULL, -1, methods};
PyMODINIT_FUNC PyInit_probe(void) { return PyModule_Create(&module); }
"""


@pytest.mark.skipif(not SETUP.exists() or shutil.which("cc") is None, reason="needs setup.py and a C compiler")
def test_an_extensions_c_files_compile_side_by_side_into_one_module(tmp_path):
    _build(tmp_path, {"a_module.c": _MODULE_C, "b_answer.c": "int probe_answer(void) { return 42; }\n"})
    built = list(tmp_path.glob("probe*.so"))
    assert len(built) == 1
    done = subprocess.run([sys.executable, "-c", "import probe; print(probe.answer())"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout == "42\n", done.stderr


@pytest.mark.skipif(not SETUP.exists() or shutil.which("cc") is None, reason="needs setup.py and a C compiler")
def test_a_c_build_that_fails_leaves_no_extension_and_says_so_once(tmp_path, capfd):
    _build(tmp_path, {"a_module.c": _MODULE_C, "b_answer.c": "int probe_answer(void) { return 42 }\n"})
    said = [line for line in capfd.readouterr().err.splitlines() if line.startswith("paiju:")]
    assert len(said) == 1 and said[0].startswith("paiju: installing pure Python (the C build failed: ")
    assert not list(tmp_path.glob("probe*.so"))
