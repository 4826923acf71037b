import os

import pytest

from typhoon.game import Game


@pytest.fixture
def started() -> Game:
    """A GDW game after both standard set-ups: German panzer movement phase of turn 1."""
    g = Game(seed=11)
    g.play_text("setup standard")
    g.play_text("setup standard")
    return g


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Long soak runs only when asked for (make soak, or TYPHOON_SLOW=1).
    if os.environ.get("TYPHOON_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with TYPHOON_SLOW=1 (make soak does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
