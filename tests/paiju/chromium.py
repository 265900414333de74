"""Headless Chromium for the tests that open paiju's pages in a browser: skipped, with the
reason, where Playwright's Python package or a Chromium binary is missing or cannot start
(`apt-get install chromium`, or PAIJU_CHROMIUM=/path/to/chromium)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = os.environ.get("PAIJU_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""Offline and quiet: no background requests that a test's request watch would see."""


@contextmanager
def _playwright() -> Iterator[tuple[Any, Any]]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright's Python package (pip install playwright)")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        yield sync_api, playwright


@contextmanager
def chromium_browser(extra_args: Sequence[str] = ()) -> Iterator[Any]:
    """A launched headless Chromium (a Playwright Browser), closed at the end; ``extra_args``
    go on its command line after the offline flags."""
    with _playwright() as (sync_api, playwright):
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=[*ARGS, *extra_args])
        except sync_api.Error as exc:
            pytest.skip(f"Chromium does not start here: {str(exc).splitlines()[0]}")
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def chromium_context(profile: str, viewport: dict[str, int]) -> Iterator[Any]:
    """A headless Chromium with its own profile directory (a persistent BrowserContext)."""
    with _playwright() as (sync_api, playwright):
        try:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS, viewport=viewport)
        except sync_api.Error as exc:
            pytest.skip(f"Chromium does not start here: {str(exc).splitlines()[0]}")
        try:
            yield context
        finally:
            context.close()
