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


@pytest.fixture(scope="session")
def kept_scenarios():
    """The trainer's kept scenario bank (seed and per-clause count of ``bank.json``), one per
    test process: the tests that only read its scenarios share it instead of playing every
    kept unit again (a few seconds a game each time)."""
    from paiju.train.web.bank import KEPT_SEED, PER_CLAUSE, ScenarioBank

    return ScenarioBank(seed=KEPT_SEED, per_clause=PER_CLAUSE)
