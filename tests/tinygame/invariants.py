"""Checks on a tiny state (``typhoon soak``)."""

from __future__ import annotations

from .engine import State


def problems(s: State) -> list[str]:
    on_map = [h for h in s.loc if h >= 0]
    return ["two units on one hex"] if len(on_map) != len(set(on_map)) else []
