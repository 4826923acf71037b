"""CI builds the optional native core (issue 17): on a CI machine (``TYPHOON_CI=1``, set by
``.ci/run``, which has gcc and the Python headers) the extension must be there, or every
exactness test of the core would skip without anyone noticing."""

from __future__ import annotations

import os

import pytest

from typhoon.games.bfm import native


@pytest.mark.skipif(os.environ.get("TYPHOON_CI") != "1", reason="only CI promises a C compiler")
def test_ci_builds_the_battle_for_moscow_core() -> None:
    if os.environ.get("TYPHOON_NO_NATIVE") == "1":
        pytest.skip("the pure-Python fallback was asked for")
    assert native.available(), native.why_unavailable()
