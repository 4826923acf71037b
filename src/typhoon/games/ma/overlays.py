"""Moscow Attacked!'s map overlays for the browser (issue 15), from the engine's own rules: no
zones of control (6.1, said so), supply and isolation (9: :func:`.engine.in_supply`,
:func:`.engine.isolated`), where a replacement or reinforcement may enter (the engine's legal
placements, in the Russian replacement phase) and the victory cities (12: who controls each,
whether in supply, :func:`.engine._victory` as the position stands)."""

from __future__ import annotations

from typing import Any

from typhoon.games.ma.engine import (
    GERMAN_VICTORY,
    SOVIET_VICTORY,
    _victory,
    in_supply,
    isolated,
    legal_actions,
    supply_lengths,
    supply_line,
)
from typhoon.games.ma.rules import SIDE_NAMES, hex_id
from typhoon.games.ma.state import State


def _name(s: State, h: int) -> str:
    return s.rules.place[h] or hex_id(h)


def _entry(s: State, side: int) -> tuple[list[str], str, bool]:
    if side == 0:
        return [], "the German has no replacements in this game (11)", False
    if s.current_player() == side and s.phase_spec.kind == "reinforce":
        hexes = sorted({a.hex for a in legal_actions(s) if a.kind in ("replace", "reinforce")})
        return hexes, "hexes a Russian replacement or reinforcement may enter now (10, 11)", True
    return [], "shown in the Russian replacement, reinforcement and rail movement phase", True


def victory(s: State) -> dict[str, Any]:
    lines = []
    for side, cities in ((0, GERMAN_VICTORY), (1, SOVIET_VICTORY)):
        parts = []
        for h in cities:
            holder = SIDE_NAMES[s.controller(h)].capitalize()
            sup = "in supply" if supply_line(s, side, h) <= supply_lengths(s, side) else "out of supply"
            parts.append(f"{_name(s, h)} ({holder}, {sup} for the {SIDE_NAMES[side].capitalize()})")
        lines.append(f"{SIDE_NAMES[side].capitalize()} victory cities: {'; '.join(parts)}")
    lines.append(
        "Needs: the German wins holding every German victory city in supply at a German victory "
        "determination (12.1); the Russian, after turn 6, holding every Russian victory city in supply (12.2)."
    )
    now = [SIDE_NAMES[sd].capitalize() for sd in (0, 1) if _victory(s, sd)]
    lines.append(
        f"Victory now: {', '.join(now) if now else 'neither side'}. No victory points: the cities decide."
    )
    return {"title": f"Turn {s.turn} of {s.rules.last_turn}", "lines": lines}


def overlays(s: State, side: int) -> dict[str, Any]:
    units = s.rules.units
    mine = [u for u, x in enumerate(s.loc) if x >= 0 and units[u].side == side and not units[u].is_air]
    out = [units[u].id for u in mine if not in_supply(s, u)]
    cut = [units[u].id for u in mine if isolated(s, u)]
    hexes, words, available = _entry(s, side)
    me = SIDE_NAMES[side].capitalize()
    marks = [
        {
            "hex": hex_id(h),
            "class": ("first", "second")[s.controller(h)],
            "text": f"{_name(s, h)}: {SIDE_NAMES[s.controller(h)].capitalize()}",
        }
        for h in sorted(set(GERMAN_VICTORY) | set(SOVIET_VICTORY))
    ]
    return {
        "layers": [
            {
                "key": "zoc",
                "label": "Enemy zones of control",
                "class": "zoc",
                "available": False,
                "words": "this game has no zones of control (6.1)",
            },
            {
                "key": "supply",
                "label": f"{me} units out of supply",
                "class": "cut",
                "units": out,
                "words": "supply line longer than the weather allows (9.1)",
            },
            {
                "key": "cut",
                "label": f"{me} units isolated",
                "class": "cut",
                "units": cut,
                "words": "supply line over twice the length (9.4)",
            },
            {
                "key": "entry",
                "label": "Where a replacement may enter",
                "class": "entry",
                "hexes": hexes,
                "words": words,
                "available": available,
            },
            {
                "key": "victory",
                "label": "Victory cities",
                "class": "victory",
                "hexes": marks,
                "words": "grey: German, red: Russian",
            },
        ],
        "victory": victory(s),
    }
