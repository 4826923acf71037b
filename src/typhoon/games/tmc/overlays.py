"""The Moscow Campaign's map overlays for the browser (issue 15), from the engine's own rules:
enemy zones of control (:meth:`State.zoc`, §4 with the [Q6] option), supply as it stands
(:func:`.supply.supply_now`, §11), the hexes reinforcements and replacements enter (§22.2),
and the victory status (:mod:`.victory`: VP so far, the §23 end-of-game VP were the game to end
now, the §24 level)."""

from __future__ import annotations

from typing import Any

from typhoon.games.tmc.rules import GERMAN, SIDE_NAMES, SOVIET
from typhoon.games.tmc.state import State
from typhoon.games.tmc.supply import supply_now
from typhoon.games.tmc.victory import LEVEL_TEXT, end_of_game_vp_of, victory_level
from typhoon.hexgrid import bit_list


def _entry_hexes(s: State, side: int) -> list[int]:
    """Entry hexes not held by an enemy unit nor in an enemy ZOC (§22.2)."""
    rules = s.rules
    enemy = 1 - side
    free = ~(s.occ[enemy] | s.zoc(enemy))
    mask = rules.german_entry if side == GERMAN else rules.grid.mask(rules.soviet_entry)
    return bit_list(mask & free)


def _german_needs(soviet: int) -> int:
    """The fewest German VP for a German victory against ``soviet`` VP (§24)."""
    g = 0
    while not victory_level(g, soviet).startswith("german"):
        g += 1
    return g


def victory(s: State) -> dict[str, Any]:
    rules = s.rules
    eog = end_of_game_vp_of(s)
    german, soviet = s.vp[GERMAN], s.vp[SOVIET]
    holder = s.moscow_holder()
    lines = [
        f"Victory points so far: German {german}, Soviet {soviet}",
        "Moscow: "
        + (f"held by the {SIDE_NAMES[holder].capitalize()}" if holder >= 0 else "held by neither side"),
        f"End-of-game points were the game to end now: German +{eog.german} (near Moscow {eog.german_near_moscow}, "
        f"Moscow {eog.german_moscow}), Soviet +{eog.soviet} (Moscow {eog.soviet_moscow}, far west {eog.soviet_far_west})",
    ]
    g_end, s_end = german + eog.german, soviet + eog.soviet
    lines.append(f"Level now: {LEVEL_TEXT[victory_level(g_end, s_end)]} ({g_end} : {s_end})")
    need = _german_needs(s_end)
    lines.append(
        f"Needs: the German needs at least {need} VP against {s_end} for a German victory; "
        f"the Soviet wins while the German has {need - 1} or fewer (§24)."
    )
    return {"title": f"GT {s.turn} of {rules.first_turn}-{rules.last_turn}", "lines": lines}


def overlays(s: State, side: int) -> dict[str, Any]:
    rules = s.rules
    ids = rules.grid.ids
    enemy = 1 - side
    sup = supply_now(s, side)
    cut = [rules.units[u].id for u in s.on_map(side) if not sup.has(s.loc[u])]
    me, them = SIDE_NAMES[side].capitalize(), SIDE_NAMES[enemy].capitalize()
    moscow = [
        {
            "hex": ids[h],
            "class": "first"
            if s.moscow_holder() == GERMAN
            else "second"
            if s.moscow_holder() == SOVIET
            else "contested",
            "text": "Moscow",
        }
        for h in rules.map.moscow
    ]
    return {
        "layers": [
            {
                "key": "zoc",
                "label": f"{them} zones of control",
                "class": "zoc",
                "hexes": [ids[h] for h in bit_list(s.zoc(enemy))],
                "words": "the six hexes around each enemy unit that exerts one (not EB units): extra movement cost to enter and leave",
            },
            {
                "key": "cut",
                "label": f"{me} units out of supply",
                "class": "cut",
                "units": cut,
                "words": "no supply line as the position stands (§11)",
            },
            {
                "key": "entry",
                "label": "Where reinforcements and replacements enter",
                "class": "entry",
                "hexes": [ids[h] for h in _entry_hexes(s, side)],
                "words": "entry hexes free of enemy units and zones of control (§22.2)",
            },
            {
                "key": "victory",
                "label": "Moscow",
                "class": "victory",
                "hexes": moscow,
                "words": "who holds Moscow (§23)",
            },
        ],
        "victory": victory(s),
    }
