import pytest


@pytest.fixture(scope="session")
def web_bank():
    """One generated scenario bank per test process for the web app's tests (one scenario
    per clause of each game: generating them is the slow part)."""
    pytest.importorskip("starlette", reason="the web extra: pip install 'paiju[web]'")
    from paiju.train.web.bank import ScenarioBank

    return ScenarioBank(seed=0, per_clause=1)


@pytest.fixture
def browser():
    """A headless Chromium (skipped where there is none)."""
    from tests.paiju.chromium import chromium_browser

    with chromium_browser() as browser:
        yield browser
