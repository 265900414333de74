"""The build: the decision loop's typed modules (``paiju/build.py``'s ``COMPILED``) compiled
with mypyc where a C compiler is at hand; pure Python without one or with PAIJU_PURE=1.
Everything else about the package is in pyproject.toml."""

from __future__ import annotations

import ast
import os
import shlex
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _compiled_paths() -> list[str]:
    """``COMPILED`` of paiju/build.py as file paths (read, not imported: the build
    environment need not have paiju's dependencies)."""
    tree = ast.parse((HERE / "paiju" / "build.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "COMPILED" for t in node.targets):
            return [name.replace(".", "/") + ".py" for name in ast.literal_eval(node.value)]
    raise RuntimeError("paiju/build.py has no COMPILED list")


def _say_pure(reason: str) -> None:
    """The one line a pure-Python install prints (``pip install -v`` shows it)."""
    print(f"paiju: installing pure Python ({reason})", file=sys.stderr)


def _pure_reason() -> str | None:
    """Why this install cannot compile, or None."""
    if os.environ.get("PAIJU_PURE", "") not in ("", "0"):
        return "PAIJU_PURE is set"
    words = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler ({words[0] if words else 'CC is empty'}) found"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python's C headers are missing (Debian: apt-get install python3-dev)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy) is not installed"
    return None


def _ext_modules() -> list[Any]:
    reason = _pure_reason()
    if reason is not None:
        _say_pure(reason)
        return []
    from mypyc.build import mypycify

    # mypy checks the three engine packages whole; only the listed modules are compiled.
    # has-type is left to tests/test_types.py (which checks all five packages): on this subset
    # mypy meets the refereed import cycle in another order and cannot infer two of its
    # constants (of modules that are not compiled). Should mypyc fail, the install is pure.
    try:
        return mypycify(["--disable-error-code=has-type", "tabletop", "guandan", "shengji"],
                        only_compile_paths=_compiled_paths(), opt_level="3", multi_file=True)
    except (Exception, SystemExit) as exc:
        _say_pure(f"mypyc failed: {exc!r}")
        return []


class ParallelBuildExt(build_ext):
    """Compiles an extension's C files on every core: mypyc writes one file per module
    (``multi_file``), and gcc on one at a time left a core idle for most of the install.
    Should the C build fail, no extension is kept: the install is pure Python, whole."""

    def build_extensions(self) -> None:
        try:
            super().build_extensions()
        except Exception as exc:  # a compiler error, a linker error, a missing tool
            said = " ".join(str(exc).split())
            _say_pure(f"the C build failed: {type(exc).__name__}: {said[:100]}{'…' if len(said) > 100 else ''}")
            for ext in self.extensions:  # a compiled module without the shared library would not import
                built = Path(self.get_ext_fullpath(ext.name))
                if built.exists():
                    built.unlink()
            self.extensions = []

    def build_extension(self, ext: Any) -> None:
        serial = self.compiler.compile

        def compile_each(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if len(sources) < 2:
                return serial(sources, *args, **kwargs)
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                parts = list(pool.map(lambda source: serial([source], *args, **kwargs), sources))
            return [obj for part in parts for obj in part]

        self.compiler.compile = compile_each
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = serial


if __name__ == "__main__":  # as pip's build backend runs it (tests import the pieces)
    os.chdir(HERE)   # mypycify takes paths relative to the project
    setup(ext_modules=_ext_modules(), cmdclass={"build_ext": ParallelBuildExt})
