"""Battle for Moscow's rules reference for the browser (issue 15), built from the edition's
own tables in :class:`.rules.Rules`: the sequence of play (the phase in force marked), the CRT,
the terrain effects and the turn track with its mud turns."""

from __future__ import annotations

import re
from typing import Any

from typhoon.games.bfm.preview import RESULT_WORDS
from typhoon.games.bfm.rules import SIDE_NAMES, editions
from typhoon.games.bfm.state import State
from typhoon.games.frontends import sequence_section


def _first(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def rules_reference(s: State) -> dict[str, Any]:
    rules = s.rules
    m = rules.map
    grid = m.grid
    phases = [[p.name, SIDE_NAMES[p.side].capitalize()] for p in rules.phases]
    crt = [[str(die), *rules.crt[die][1:]] for die in range(1, 7)]
    # Terrain rows from a hex of each kind on this map (costs and shifts as the engine has them).
    forest = _first(m.forest_mask)
    clear = _first(grid.all_mask & ~m.forest_mask)
    terrain = [
        ["Clear", str(m.move_cost[clear]), "none"],
        [
            "Forest",
            str(m.move_cost[forest]),
            f"{rules.defender_shift[1][forest]} column left for the defender",
        ],
    ]
    shifts = rules.defender_shift_reasons
    if "moscow" in shifts:
        terrain.append(["Moscow", "as its terrain", "1 column left for the defender"])
    if "major_city" in shifts:
        terrain.append(["Major city", "as its terrain", "1 column left for the defender"])
    if "soviet_fortification" in shifts:
        terrain.append(["Fortification", "as its terrain", "1 column left for a Soviet defender"])
    terrain.append(["River hexside", "no extra cost", "1 column left when every attacker is across it"])
    terrain.append(["Rail", f"{rules.map.rail_cost[clear]} per hex by rail (Soviet rail movement)", "none"])
    halved = "every attacker's" if rules.mud_halves == "all" else "panzers'"
    turns = [
        [str(t), rules.turn_labels[t], "mud" if t in rules.mud_turns else "clear"]
        for t in range(1, rules.last_turn + 1)
    ]
    return {
        "title": "Rules reference: "
        + re.sub(r",? rules of seed \d+", "", editions().get(rules.edition, rules.edition)),
        "sections": [
            sequence_section(phases, s.phase),
            {
                "key": "crt",
                "title": "Combat results table",
                "head": ["Die", *[f"{c}:1" for c in range(1, len(rules.crt[1]))]],
                "rows": crt,
                "lines": [f"{k}: {v}" for k, v in RESULT_WORDS.items()],
            },
            {
                "key": "terrain",
                "title": "Terrain effects",
                "head": ["Terrain", "Movement cost", "Combat"],
                "rows": terrain,
            },
            {
                "key": "weather",
                "title": "Turn track and weather",
                "head": ["Turn", "Date", "Weather"],
                "rows": turns,
                "current": s.turn - 1 if s.turn >= 1 else None,
                "lines": [f"Mud: units move one hex at a time; {halved} attack strength is halved."],
            },
        ],
    }
