"""MOCKBA's rules reference for the browser (issue 15), from the game's own tables
(data/tables.json and data/calendar.json as :class:`.rules.Rules` holds them): the sequence of
play (:data:`.state.PHASES`), the CRT in force, the terrain effects and the turn calendar
(river crossing, air points, German reductions)."""

from __future__ import annotations

from typing import Any

from typhoon.games.frontends import sequence_section
from typhoon.games.mockba.rules import SIDE_NAMES, editions
from typhoon.games.mockba.state import PHASES, State


def rules_reference(s: State) -> dict[str, Any]:
    r = s.rules
    terrain = r.tables["terrain"]
    rows = []
    for name, t in terrain.items():
        if isinstance(t, dict):
            rows.append([name.capitalize(), ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in t.items())])
    cal = []
    for turn in range(1, r.last_turn + 1):
        c = r.calendar[turn]
        air = c.get("air", {})
        cf = c.get("german_cf_reduction", {})
        cal.append(
            [
                str(turn),
                str(c.get("dates", "")),
                str(c.get("river", "")),
                f"{air.get('german', '?')} : {air.get('soviet', '?')}",
                ", ".join(f"{k} -{v}" for k, v in cf.items()) or "none",
            ]
        )
    return {
        "title": f"Rules reference: MOCKBA, {editions().get(r.edition, r.edition)}",
        "sections": [
            sequence_section(
                [[p.name, SIDE_NAMES[p.side].capitalize()] for p in PHASES], s.phase if s.setup < 0 else None
            ),
            {
                "key": "crt",
                "title": "Combat results table",
                "head": ["Die", *r.columns],
                "rows": [[str(d), *r.crt[d]] for d in sorted(r.crt)],
            },
            {
                "key": "terrain",
                "title": "Terrain effects",
                "head": ["Terrain", "Effect"],
                "rows": rows,
                "lines": [str(terrain.get("note", ""))] if terrain.get("note") else [],
            },
            {
                "key": "weather",
                "title": "Turn calendar",
                "head": ["Turn", "Dates", "River", "Air points G : S", "German CF reduction"],
                "rows": cal,
                "current": s.turn - 1 if 1 <= s.turn <= r.last_turn else None,
            },
        ],
    }
