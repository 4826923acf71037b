"""The Moscow Campaign's rules reference for the browser (issue 15), from the game's own
tables: the sequence of play (:data:`.rules.PHASES`), both CRTs (data/crt.json via
:func:`.combat.load_crt`), the terrain effects and the weather chart (data/weather.json via
:func:`.weather.load_weather`) for the scenario's turns, the phase and turn in force marked."""

from __future__ import annotations

from typing import Any

from typhoon.games.frontends import sequence_section
from typhoon.games.tmc.combat import RESULT_WORDS, TERRAIN_DRM, load_crt
from typhoon.games.tmc.rules import SIDE_NAMES
from typhoon.games.tmc.state import State
from typhoon.games.tmc.weather import load_weather


def _effects(period: Any) -> str:
    parts = [f"{k.replace('_', ' ')} ×{v}" for k, v in period.factors.items()]
    parts += [f"{k.replace('_', ' ')} {v}" for k, v in period.ints.items()]
    parts += [k.replace("_", " ") for k in sorted(period.flags)]
    return f"{period.name}: {', '.join(parts)}"


def rules_reference(s: State) -> dict[str, Any]:
    rules = s.rules
    crt = load_crt()
    wt = load_weather()
    sections: list[dict[str, Any]] = [
        sequence_section([[p.name, SIDE_NAMES[p.side].capitalize()] for p in rules.phases], s.phase)
    ]
    for side in (0, 1):
        sections.append(
            {
                "key": f"crt-{SIDE_NAMES[side]}",
                "title": f"{SIDE_NAMES[side].capitalize()} combat results table",
                "head": ["Die", *crt.columns],
                "rows": [[str(r), *crt.tables[side][i]] for i, r in enumerate(crt.rows)],
                "lines": [f"{k}: {v}" for k, v in RESULT_WORDS.items()] if side == 0 else [],
            }
        )
    sections.append(
        {
            "key": "terrain",
            "title": "Terrain effects",
            "head": ["Terrain", "Movement", "Combat"],
            "rows": [
                ["Clear", "1 MP", "none"],
                [
                    "Forest/swamp",
                    f"{rules.forest_nonmech_cost} MP, mechanised 3 MP",
                    f"die {TERRAIN_DRM} for the defender's hex",
                ],
                [
                    "River hexside",
                    "no extra cost",
                    f"die {TERRAIN_DRM} when every attacker is across (not once frozen)",
                ],
                ["Lake hexside", "impassable until frozen", "no attack across"],
                ["Defence line", "as its terrain", f"die {TERRAIN_DRM} for German attacks across its front"],
            ],
            "lines": ["Terrain modifiers are not cumulative: at most one applies."],
        }
    )
    turns = range(rules.first_turn, rules.last_turn + 1)
    sections.append(
        {
            "key": "weather",
            "title": "Weather",
            "head": ["Turn", "Weather", "Effects"],
            "rows": [
                [
                    f"GT {t}",
                    "+".join(wt.names(t)) or "none",
                    "; ".join(_effects(p) for p in wt.periods if p.covers(t)),
                ]
                for t in turns
            ],
            "current": s.turn - rules.first_turn if s.turn in turns else None,
        }
    )
    return {"title": f"Rules reference: {rules.title}", "sections": sections}
