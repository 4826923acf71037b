"""Helpers for the web API tests of both games (tests/test_web_api.py, tests/tmc/test_web_tmc.py);
the ``client`` fixture they use is in tests/conftest.py."""

from __future__ import annotations

import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def new_game(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def view(c: TestClient, gid: str, token: str | None = None, **params: Any) -> dict[str, Any]:
    headers = {"X-Typhoon-Token": token} if token else {}
    r = c.get(f"/api/games/{gid}", headers=headers, params=params)
    assert r.status_code == 200, r.text
    return dict(r.json())


def act(c: TestClient, gid: str, token: str | None, *texts: str, seen: int | None = None) -> Any:
    """POST actions as the player with ``token``, against the current version unless ``seen``."""
    if seen is None:
        seen = view(c, gid)["version"]
    headers = {"X-Typhoon-Token": token} if token else {}
    return c.post(f"/api/games/{gid}/actions", json={"actions": list(texts), "seen": seen}, headers=headers)
