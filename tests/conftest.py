import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from typhoon.game import Game


@pytest.fixture
def started() -> Game:
    """A GDW game after both standard set-ups: German panzer movement phase of turn 1."""
    g = Game(seed=11)
    g.play_text("setup standard")
    g.play_text("setup standard")
    return g


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """A Starlette TestClient on a fresh web app storing its games under ``tmp_path`` (no network)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from typhoon.web.app import create_app

        app = create_app(tmp_path / "data")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(app) as c:
            yield c


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Long soak runs only when asked for (make soak, or TYPHOON_SLOW=1).
    if os.environ.get("TYPHOON_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with TYPHOON_SLOW=1 (make soak does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
