"""MOCKBA's map overlays for the browser (issue 15), from the engine's own rules: enemy zones
of control (:func:`.engine.zoc`, with the optional rules in force), supply
(:func:`.engine.traces_supply`), where a reinforcement or rebuilt unit may enter (the engine's
legal placements in the Soviet reinforcement phase), and the victory cities with their
deadlines (:func:`.engine.victory_points`, :func:`.engine.result_of`)."""

from __future__ import annotations

from typing import Any

from typhoon.games.mockba.engine import _on_map, legal_actions, result_of, traces_supply, victory_points, zoc
from typhoon.games.mockba.rules import SIDE_NAMES, hex_id
from typhoon.games.mockba.state import State
from typhoon.hexgrid import bit_list


def _city(s: State, h: int) -> str:
    return next((name for name, ch in s.rules.cities.items() if ch == h), hex_id(h))


def _entry(s: State, side: int) -> tuple[list[str], str, bool]:
    if side == 0:
        return [], "the German has no replacements in this game", False
    if s.current_player() == side and s.phase_spec.kind == "reinforce":
        hexes = sorted({a.hex for a in legal_actions(s) if a.kind in ("reinforce", "rebuild")})
        return hexes, "hexes a Soviet reinforcement or rebuilt unit may enter now", True
    return [], "shown in the Soviet reinforcement and rebuilding phase", True


def victory(s: State) -> dict[str, Any]:
    lines = []
    for h, deadline, pts in s.rules.victory:
        if s.taken >> h & 1 and s.control >> h & 1:
            state = "taken in time, held"
        elif s.control >> h & 1:
            state = "German, taken late"
        else:
            state = "Soviet"
        lines.append(f"{_city(s, h)}: +{pts} if German by turn {deadline}, else -1 ({state})")
    score = victory_points(s)
    lines.append(f"Points were the game to end now: {score} ({result_of(s, score)}).")
    scores = range(-len(s.rules.victory), sum(p for _h, _d, p in s.rules.victory) + 1)
    german = min(x for x in scores if result_of(s, x) == "german")
    lines.append(
        f"Needs: the German {german} or more points at the end; fewer is {result_of(s, german - 1)}."
    )
    return {"title": f"Turn {s.turn} of {s.rules.last_turn}", "lines": lines}


def overlays(s: State, side: int) -> dict[str, Any]:
    r = s.rules
    enemy = 1 - side
    cut = [r.units[u].id for u in _on_map(s, side) if not traces_supply(s, u)]
    hexes, words, available = _entry(s, side)
    me, them = SIDE_NAMES[side].capitalize(), SIDE_NAMES[enemy].capitalize()
    marks = [
        {"hex": hex_id(h), "class": "first" if s.control >> h & 1 else "second", "text": _city(s, h)}
        for h, _deadline, _pts in r.victory
    ]
    return {
        "layers": [
            {
                "key": "zoc",
                "label": f"{them} zones of control",
                "class": "zoc",
                "hexes": [hex_id(h) for h in bit_list(zoc(s, enemy))],
                "words": "the hexes adjacent to enemy units that exert a zone of control",
            },
            {
                "key": "cut",
                "label": f"{me} units out of supply",
                "class": "cut",
                "units": cut,
                "words": "no supply route now",
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
                "words": "grey: German, red: Soviet",
            },
        ],
        "victory": victory(s),
    }
