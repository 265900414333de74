"""The build: the decision loop's typed modules (``paiju/build.py``'s ``COMPILED``) compiled
with mypyc where a C compiler is at hand; pure Python without one or with PAIJU_PURE=1.
Everything else about the package is in pyproject.toml."""

from __future__ import annotations

import ast
import os
import shutil
import sysconfig
import warnings
from pathlib import Path

from concurrent.futures import ThreadPoolExecutor

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


def _pure_reason() -> str | None:
    if os.environ.get("PAIJU_PURE", "") not in ("", "0"):
        return "PAIJU_PURE is set"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) found"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy) is not installed"
    return None


def _ext_modules() -> list:
    reason = _pure_reason()
    if reason is not None:
        warnings.warn(f"paiju: installing pure Python ({reason})", stacklevel=1)
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
        warnings.warn(f"paiju: installing pure Python (mypyc failed: {exc!r})", stacklevel=1)
        return []


class ParallelBuildExt(build_ext):
    """Compiles an extension's C files on every core: mypyc writes one file per module
    (``multi_file``), and gcc on one at a time left a core idle for most of the install."""

    def build_extension(self, ext):  # type: ignore[no-untyped-def]
        serial = self.compiler.compile

        def compile_each(sources, *args, **kwargs):  # type: ignore[no-untyped-def]
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


os.chdir(HERE)   # mypycify takes paths relative to the project
setup(ext_modules=_ext_modules(), cmdclass={"build_ext": ParallelBuildExt})
