"""The trainer's API as its own page in a browser reaches it (Starlette's test client)."""

from __future__ import annotations

from typing import Any

PAGE_ORIGIN = "http://127.0.0.1:8765"
"""Where the trainer's page is: the Host the test client sends, and the Origin a browser
sends with the page's requests that change anything."""


def page_client(app: Any, **options: Any) -> Any:
    """Starlette's test client addressed to 127.0.0.1:8765, carrying the page's Origin."""
    from starlette.testclient import TestClient

    return TestClient(app, base_url=PAGE_ORIGIN, headers={"Origin": PAGE_ORIGIN}, **options)
