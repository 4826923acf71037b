"""Battle for Moscow's map overlays for the browser (issue 15), from the engine's own rules:
enemy zones of control (:meth:`State.zoc`), lines of communication and where a replacement may
appear (:mod:`.replacement_phase`, judged as in the side's own replacement phase), and the
victory status (:mod:`.flow`: the cities, who holds Moscow, who would win now)."""

from __future__ import annotations

from typing import Any

from typhoon.games.bfm.flow import moscow_holder, winner
from typhoon.games.bfm.replacement_phase import in_communication, placement_mask
from typhoon.games.bfm.rules import SIDE_NAMES
from typhoon.games.bfm.state import OFF, State
from typhoon.hexgrid import bit_list


def _as_replacement_phase(s: State, side: int) -> State:
    """The position judged as at the start of ``side``'s replacement phase (communication is
    traced for the side whose phase it is)."""
    t = s.copy()
    t.phase = next(i for i, p in enumerate(s.rules.phases) if p.kind == "replacement" and p.side == side)
    t._cache = {}  # the copy shares the original's cache: judge afresh
    return t


def _city_lines(s: State) -> tuple[list[str], list[dict[str, Any]]]:
    m = s.rules.map
    ids = m.grid.ids
    held: dict[int, list[str]] = {0: [], 1: []}
    marks = []
    for i, c in enumerate(m.cities):
        side = s.controller(i)
        held[side].append(c.name)
        marks.append(
            {
                "hex": ids[c.hex],
                "class": ("first", "second")[side],
                "text": f"{c.name}: {SIDE_NAMES[side].capitalize()}",
            }
        )
    lines = [
        f"{SIDE_NAMES[sd].capitalize()} holds {len(held[sd])}: {', '.join(held[sd]) or 'none'}"
        for sd in (0, 1)
    ]
    return lines, marks


def victory(s: State) -> dict[str, Any]:
    rules = s.rules
    holder = moscow_holder(s)
    lines = [
        "Moscow: " + (f"held by the {SIDE_NAMES[holder].capitalize()}" if holder >= 0 else "divided"),
    ]
    cities, _ = _city_lines(s)
    lines += cities
    if rules.victory == "moscow":
        lines.append(f"Needs: whoever holds Moscow at the end of turn {rules.last_turn} wins.")
    else:
        lines.append(
            f"Needs: at the end of turn {rules.last_turn} the German wins holding Moscow; the Soviet wins "
            "holding Moscow and at least one other city; anything else is a draw."
        )
    lines.append("No victory points: the cities decide.")
    if s.result is None:
        lines.append(f"If the game ended now: {_result_words(winner(s))}.")
    else:
        lines.append(f"Result: {_result_words(s.result)}.")
    return {"title": f"Turn {s.turn} of {rules.last_turn}", "lines": lines}


def _result_words(result: str) -> str:
    return "a draw" if result == "draw" else f"the {result.capitalize()} wins"


def overlays(s: State, side: int) -> dict[str, Any]:
    rules = s.rules
    ids = rules.map.grid.ids
    enemy = 1 - side
    t = _as_replacement_phase(s, side)
    mine = [u for u in rules.side_units[side] if s.loc[u] != OFF]
    cut = [rules.units[u].id for u in mine if not in_communication(t, s.loc[u])]
    _, marks = _city_lines(s)
    me, them = SIDE_NAMES[side].capitalize(), SIDE_NAMES[enemy].capitalize()
    return {
        "layers": [
            {
                "key": "zoc",
                "label": f"{them} zones of control",
                "class": "zoc",
                "hexes": [ids[h] for h in bit_list(s.zoc(enemy))],
                "words": "the six hexes around each enemy unit: a unit entering one stops",
            },
            {
                "key": "cut",
                "label": f"{me} units cut off",
                "class": "cut",
                "units": cut,
                "words": "no line of communication to a friendly map edge (free of enemy units and zones of control)",
            },
            {
                "key": "entry",
                "label": "Where a replacement may appear",
                "class": "entry",
                "hexes": [ids[h] for h in bit_list(placement_mask(t))],
                "words": "empty friendly edge hexes and friendly cities in communication",
            },
            {
                "key": "victory",
                "label": "Cities held",
                "class": "victory",
                "hexes": marks,
                "words": f"grey: German, red: Soviet ({me} overlay)",
            },
        ],
        "victory": victory(s),
    }
