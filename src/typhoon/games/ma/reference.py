"""Moscow Attacked!'s rules reference for the browser (issue 15), from the game's own tables
(data/tables.json and data/calendar.json as :class:`.rules.Rules` holds them): the sequence of
play (:data:`.state.PHASES`), the CRT, the terrain effects, and the turn track with its weather,
supply lengths and movement allowances."""

from __future__ import annotations

from typing import Any

from typhoon.games.frontends import sequence_section
from typhoon.games.ma.rules import SIDE_NAMES, editions
from typhoon.games.ma.state import PHASES, State


def _terrain_rows(terrain: dict[str, Any]) -> list[list[str]]:
    rows = []
    for name, t in terrain.items():
        if not isinstance(t, dict):
            continue
        cost = (
            "as its hex"
            if "cost" not in t
            else f"{t['cost']} MP" + (f", armour {t['armor_cost']} MP" if "armor_cost" in t else "")
        )
        shift = t.get("shift", 0)
        combat = f"{-shift} column(s) left for the defender" if shift else "none"
        rows.append([name.replace("_", " ").capitalize(), cost, combat])
    return rows


def rules_reference(s: State) -> dict[str, Any]:
    r = s.rules
    t = r.tables
    supply = t["supply"]
    weather_rows = []
    for turn in range(1, r.last_turn + 1):
        w = r.weather[turn]
        lengths = supply.get(w, ["?", "?"])
        weather_rows.append([str(turn), r.dates[turn], w, f"German {lengths[0]}, Russian {lengths[1]} hexes"])
    terrain = t["terrain"]
    extra = [
        f"Terrain shifts cap at {terrain.get('shift_cap')} columns; a road adds {terrain.get('road_bonus')} MP."
    ]
    moves = [
        f"{w}: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in m.items() if k != "provenance")
        for w, m in t["movement"].items()
    ]
    return {
        "title": f"Rules reference: Moscow Attacked! {editions()[r.edition]}",
        "sections": [
            sequence_section([[p.name, SIDE_NAMES[p.side].capitalize()] for p in PHASES], s.phase),
            {
                "key": "crt",
                "title": "Combat results table",
                "head": ["Die", *r.columns],
                "rows": [[str(d), *r.crt[d]] for d in sorted(r.crt)],
            },
            {
                "key": "terrain",
                "title": "Terrain effects",
                "head": ["Terrain", "Movement", "Combat"],
                "rows": _terrain_rows(terrain),
                "lines": extra,
            },
            {
                "key": "weather",
                "title": "Turn track and weather",
                "head": ["Turn", "Dates", "Weather", "Supply line"],
                "rows": weather_rows,
                "current": s.turn - 1 if 1 <= s.turn <= r.last_turn else None,
                "lines": ["Movement allowances by weather: " + "; ".join(moves)],
            },
        ],
    }
