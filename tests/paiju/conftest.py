"""Fixtures shared by the application's tests."""

from __future__ import annotations

import pytest

from tests.paiju.chromium import chromium_context


@pytest.fixture
def browser_page(tmp_path):
    """A page of a fresh headless Chromium, and the list of problems it meets: page errors,
    and any request that is not for a local file (the pages must work offline)."""
    with chromium_context(str(tmp_path / "profile"), {"width": 1400, "height": 1000}) as context:
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on("request", lambda request: problems.append(f"request: {request.url}")
                if not request.url.startswith("file:") else None)
        yield page, problems
