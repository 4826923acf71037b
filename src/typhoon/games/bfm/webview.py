"""The position, the legal actions and every hex as JSON-ready dicts and plain words.

Nothing here decides a rule: it reads the state the engine produced and the list of legal
actions the engine gave, and describes them for the browser (and for screen readers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typhoon.games.bfm.combat_phase import battle_summary, compute_odds
from typhoon.games.bfm.notation import action_to_text
from typhoon.games.bfm.paths import move_paths
from typhoon.games.bfm.rules import SIDE_NAMES
from typhoon.games.bfm.state import STEP_NAMES
from typhoon.hexgrid import DIRECTIONS

TO_MOVE = {-1: "chance", -2: "over"}


def side_name(side: int) -> str:
    return SIDE_NAMES[side]


def to_move_name(player: int) -> str:
    return TO_MOVE.get(player) or SIDE_NAMES[player]


def unit_words(state: Any, u: int) -> str:
    """'Soviet 16th Army, half strength 4-4'."""
    spec = state.rules.units[u]
    side = side_name(spec.side).capitalize()
    steps = state.steps[u]
    if steps == 0:
        return f"{side} {spec.name}, eliminated ({spec.full}-{spec.move} at full strength)"
    strength = "full" if steps == 2 else "half"
    return f"{side} {spec.name}, {strength} strength {spec.strength(steps)}-{spec.move}"


def hex_words(state: Any, h: int) -> str:
    """'0604 forest, river to the N and SE, Soviet 16th Army, half strength 4-4'."""
    rules = state.rules
    m = rules.map
    grid = m.grid
    parts = [f"{grid.ids[h]} {'forest' if m.is_forest(h) else 'clear'}"]
    if m.is_fortification(h):
        parts.append("fortification")
    ci = m.city_at.get(h)
    if ci is not None:
        name = m.cities[ci].name
        holder = side_name(state.controller(ci)).capitalize()
        label = name if m.is_moscow(h) else f"city {name}"
        parts.append(f"{label}, {holder}-held")
    rivers = [
        DIRECTIONS[i] for i, n in enumerate(grid.neighbours_by_dir[h]) if n >= 0 and m.river_between(h, n)
    ]
    if rivers:
        parts.append(
            "river to the " + " and ".join(rivers)
            if len(rivers) <= 2
            else "river to the " + ", ".join(rivers)
        )
    if m.is_rail(h):
        parts.append("rail")
    units = state.units_at(h)
    if units:
        parts.extend(unit_words(state, u) for u in units)
    else:
        parts.append("empty")
    return ", ".join(parts)


def action_dict(action: Any) -> dict[str, Any]:
    """{'text': 'move XXIV 0409-0608', 'unit': 'XXIV', 'src': ..., 'kind': 'move'}: the
    action's fields (actions are named tuples with a ``kind``); a retreat also says where it
    ends (``dst``)."""
    d: dict[str, Any] = {"text": action_to_text(action)}
    for k, v in action._asdict().items():
        d[k] = list(v) if isinstance(v, tuple) else v
    if action.kind == "retreat":
        d["dst"] = action.path[-1]
    return d


def turn_track(rules: Any) -> list[dict[str, Any]]:
    return [
        {"turn": t, "label": rules.turn_labels[t], "mud": t in rules.mud_turns}
        for t in range(1, rules.last_turn + 1)
    ]


def state_view(state: Any) -> dict[str, Any]:
    """The position as data: turn, phase, units, cities, battles, in words where useful."""
    rules = state.rules
    grid = rules.map.grid
    ids = grid.ids
    spec = state.phase_spec
    units = []
    for u in rules.units:
        i = u.index
        h = state.loc[i]
        units.append(
            {
                "id": u.id,
                "name": u.name,
                "side": side_name(u.side),
                "type": "panzer" if u.panzer else "infantry",
                "full": u.full,
                "half": u.half,
                "move": u.move,
                "steps": state.steps[i],
                "strength": state.strength(i),
                "hex": ids[h] if h >= 0 else None,
                "done": bool((state.done >> i) & 1),
                "words": unit_words(state, i),
            }
        )
    cities = [
        {
            "hex": ids[c.hex],
            "name": c.name,
            "controller": side_name(state.controller(i)),
            "moscow": rules.map.is_moscow(c.hex),
        }
        for i, c in enumerate(rules.map.cities)
    ]
    battles = []
    for d, atk in state.battles:
        odds = compute_odds(state, d, atk)
        battles.append(
            {
                "defender": rules.units[d].id,
                "hex": ids[state.loc[d]] if state.loc[d] >= 0 else None,
                "attackers": [rules.units[a].id for a in atk],
                "odds": odds.text(),
                "final": odds.final,
                "summary": battle_summary(state, d, atk),
            }
        )
    cur = None
    if state.cur is not None:
        c = state.cur
        cur = {
            "defender": rules.units[c.defender].id,
            "hex": ids[c.hex],
            "attackers": [rules.units[a].id for a in c.attackers],
            "column": c.column,
            "result": c.result or None,
            "owed": c.owed,
        }
    player = state.current_player()
    return {
        "edition": rules.edition,
        "rules": rules.describe(),
        "title": rules.title,
        "turn": state.turn,
        "turn_label": rules.turn_labels.get(state.turn, "set-up"),
        "last_turn": rules.last_turn,
        "turn_track": turn_track(rules),
        "mud": state.is_mud(),
        "phase": {
            "index": state.phase,
            "key": spec.key,
            "name": spec.name,
            "side": side_name(spec.side),
            "kind": spec.kind,
        },
        "phases": [
            {"key": p.key, "name": p.name, "side": side_name(p.side), "kind": p.kind}
            for p in rules.phases[rules.first_turn_phase :]
        ],
        "step": STEP_NAMES[state.cstep] if spec.kind == "combat" else None,
        "to_move": to_move_name(player),
        "replacements": state.repl,
        "stack": rules.units[state.stack].id if state.stack >= 0 else None,
        "result": state.result,
        "units": units,
        "cities": cities,
        "battles": battles,
        "battle": cur,
        "hexes": {ids[h]: hex_words(state, h) for h in grid.hexes},
    }


def legal_view(state: Any, actions: Sequence[Any]) -> dict[str, Any]:
    """The legal actions, each as a dict, with a path for every move."""
    out = [action_dict(a) for a in actions]
    moves = [a for a in actions if a.kind == "move"]
    if moves:
        paths = move_paths(state, moves)
        for d, a in zip(out, actions):
            p = paths.get(a)
            if p is not None:
                d["path"] = p
    return {"to_move": to_move_name(state.current_player()), "actions": out}
