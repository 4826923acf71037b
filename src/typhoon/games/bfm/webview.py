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
from typhoon.games.bfm.setup_phase import standard_rest
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


# -- what the one browser client reads (games/frontends.py documents the fields) ----------


def _label(state: Any, d: dict[str, Any], units: dict[str, str]) -> str:
    """The action in words, for a button or a list."""
    k = d["kind"]
    u = str(d.get("unit"))
    if k == "move":
        via = f" through {', '.join(d['via'])}" if d.get("via") else ""
        path = f" (path {'-'.join(d['path'])})" if d.get("path") else ""
        return f"Move {u} {d['src']} to {d['dst']}{via}{path}"
    if k == "attack":
        return f"{u} attacks {d['target']}"
    if k == "resolve":
        return f"Resolve the battle in {d['target']}"
    if k == "lose":
        return f"{units.get(u, u)} loses a step"
    if k == "retreat":
        return f"Retreat {'-'.join(d['path'])}"
    if k == "advance":
        return f"{units.get(u, u)} advances" if d.get("unit") else "No advance"
    if k == "standfast":
        return "Stand fast (lose a step, stay)" if d["accept"] else "Retreat instead"
    if k == "place":
        return f"Place {u} in {d['hex']}"
    if k == "rebuild":
        return f"Rebuild {u} in {d['hex']}"
    if k == "reinforce":
        return f"{u} arrives in {d['hex']}"
    if k == "restore":
        return f"Restore {units.get(u, u)} to full strength"
    if k == "setupstandard":
        return "Standard set-up"
    if k == "end":
        return _end_label(state)
    return str(d["text"])


def _end_label(state: Any) -> str:
    kind = state.phase_spec.kind
    if kind == "combat":
        return "Done declaring: fight the battles" if state.battles else "End the combat phase (no attacks)"
    if kind in ("movement", "replacement"):
        return f"End the {kind} phase"
    return "End"


def _prompt(state: Any, kinds: set[str]) -> str:
    """What the player decides now (the client adds what a selection asks)."""
    rules = state.rules
    if kinds & {"setupstandard", "place"}:
        return "Set up: use the standard set-up, or pick a unit below and click a highlighted hex."
    if "move" in kinds:
        if state.stack >= 0:
            return f"{rules.units[state.stack].id} shares a hex and must move off first: click a green hex."
        return "Click a unit with a dashed blue outline to see where it can go, then click a green hex. End the phase when done."
    if "attack" in kinds:
        n = len(state.battles)
        return (
            "Click an enemy unit outlined in red to plan an attack."
            + (f" {n} attack(s) declared." if n else "")
            + " When done, end the declarations to fight."
        )
    if "resolve" in kinds:
        return "Choose the next battle to resolve: click a defender outlined in red, or a button."
    if "lose" in kinds:
        owed = state.cur.owed if state.cur is not None else 0
        return "Choose the attacking unit that loses a step" + (
            f" ({owed} more strength point(s) to lose)." if owed > 0 else "."
        )
    if "retreat" in kinds:
        return "Choose where the defender retreats: click a highlighted hex."
    if "advance" in kinds:
        return "One attacker may advance into the emptied hex: click it, or choose no advance."
    if "standfast" in kinds:
        return "The defender may stand fast (and lose a step) instead of retreating."
    if kinds & {"rebuild", "restore", "reinforce"}:
        return (
            f"{state.repl} replacement(s) left: pick an eliminated unit below and click a highlighted hex "
            "to rebuild it, or click a half-strength unit to restore it."
        )
    if "end" in kinds:
        return _end_label(state) + "."
    return ""


def client_legal_view(state: Any, actions: Sequence[Any]) -> dict[str, Any]:
    """:func:`legal_view` with the fields the one browser client reads: ``label``, ``units``
    (the units that act), ``hexes`` ([from, ..., to]; a click on ``to`` plays it), ``group`` and
    ``with`` (attacks on one hex, declared together after an odds preview), and ``prompt``."""
    out = legal_view(state, actions)
    rules = state.rules
    ids = rules.map.grid.ids
    where = {u.id: (ids[state.loc[u.index]] if state.loc[u.index] >= 0 else None) for u in rules.units}
    names = {u.id: f"{u.id} {state.strength(u.index)}-{u.move}" for u in rules.units}
    declared = {b_hex: atk for b_hex, atk in _declared(state)}
    for d in out["actions"]:
        k = d["kind"]
        u = d.get("unit")
        d["label"] = _label(state, d, names)
        if k == "move":
            d["units"], d["hexes"] = [u], list(d.get("path") or [d["src"], d["dst"]])
        elif k == "attack":
            d["units"], d["hexes"] = [u], [d["target"]]
            d["group"], d["with"] = d["target"], declared.get(d["target"], [])
        elif k in ("place", "rebuild", "reinforce"):
            d["units"], d["hexes"] = [u], [d["hex"]]
        elif k == "resolve":
            d["units"], d["hexes"] = [], [d["target"]]
        elif k == "retreat":
            defender = rules.units[state.cur.defender].id if state.cur is not None else None
            d["units"] = [defender] if defender else []
            d["hexes"] = [where.get(defender) or d["path"][0], *d["path"]]
        elif u:
            d["units"], d["hexes"] = [u], []
    rest = standard_rest(state) if any(a.kind == "place" for a in actions) else []
    if rest:
        # After a hand placement the standard set-up places the units left (issue 15): a button
        # that plays those places together, not a legal action of its own.
        texts = [action_to_text(a) for a in rest]
        out["batches"] = [
            {
                "kind": "setupstandard",
                "label": f"Standard set-up of the {len(texts)} unit(s) left",
                "texts": texts,
            }
        ]
    out["prompt"] = _prompt(state, {a.kind for a in actions})
    return out


def _declared(state: Any) -> list[tuple[str | None, list[str]]]:
    rules = state.rules
    ids = rules.map.grid.ids
    return [
        (ids[state.loc[d]] if state.loc[d] >= 0 else None, [rules.units[a].id for a in atk])
        for d, atk in state.battles
    ]


def client_state_view(state: Any) -> dict[str, Any]:
    """:func:`state_view` with the fields the one browser client reads: ``status`` (lines),
    ``selected`` (a unit the rules have already picked), ``marks`` (hexes drawn outlined)."""
    v = state_view(state)
    parts = [f"Turn {v['turn']} ({v['turn_label']}){', mud' if v['mud'] else ''}" if v["turn"] else "Set-up"]
    parts.append(v["phase"]["name"])
    if v["phase"]["kind"] == "replacement":
        parts.append(f"{v['replacements']} replacement(s) left")
    v["status"] = " · ".join(parts)
    v["rules_label"] = "Edition in force"
    v["selected"] = v["stack"]
    where = {u["id"]: u["hex"] for u in v["units"]}
    marks = []
    for b in v["battles"]:
        if b["hex"]:
            marks.append(
                {"hexes": [b["hex"], *(where[a] for a in b["attackers"] if where[a])], "class": "declared"}
            )
    if v["battle"] is not None:
        marks.append({"hexes": [v["battle"]["hex"]], "class": "target-sel"})
    v["marks"] = marks
    v["legend"] = LEGEND
    return v


LEGEND = [
    "Pale hexes are clear, green ones forest (costs 2 to enter, the defender shifts one column); a dashed "
    "brown outline is a fortification (a Soviet defender shifts one column).",
    "Blue hexsides are rivers; black lines with ties are railways.",
    "A dashed inner outline marks a map-edge hex, where that side's replacements enter: red Soviet, grey German.",
    "A city's label is coloured by its holder: red Soviet, grey German.",
    "Counters: oval = panzer, cross = infantry; numbers are strength-movement; a white band means half "
    "strength; a dot means it has moved or attacked this phase.",
]


def _pct(p: float) -> str:
    return f"{round(p * 100)}%"


def client_preview(state: Any, d: dict[str, Any]) -> dict[str, Any]:
    """The odds preview (``d``, the preview's own fields) with what the one browser client
    shows: ``title``, ``lines``, a die ``table`` and the ``chances`` of each result."""
    units = {u.id: u.index for u in state.rules.units}
    d = dict(d)
    d["title"] = f"{' + '.join(d['attackers'])} against {d['defender']} in {d['hex']}"
    lines = []
    if d["defender"] in units:
        lines.append(unit_words(state, units[d["defender"]]))
    lines.append(f"Odds: {d['odds_text']}.")
    base = f"{d['column']}:1" if d["column"] >= 1 else "below 1:1"
    lines.append(f"Attack {d['attack']} against defence {d['defense']}: {base} column.")
    lines += [f"One column left: {s}." for s in d["shifts"]]
    lines.append(
        "Final: below 1:1, the attack would have no effect."
        if d["no_effect"]
        else f"Final column: {d['final']}:1."
    )
    if not d["no_effect"]:
        d["table"] = {
            "head": ["Die", *map(str, range(1, len(d["by_die"]) + 1))],
            "rows": [["Result", *d["by_die"]]],
        }
        d["chances"] = dict(d["results"])
        outs = ", ".join(f"{k.replace('_', ' ')} {_pct(p)}" for k, p in d["defender_outcomes"].items())
        lines.append(f"Defender: {outs}.")
        lines.append(
            f"An attacker loses a step: {_pct(d['attacker_loses_step'])}. Expected losses: defender "
            f"{d['defender_loss_points']:.2f}, attacker {d['attacker_loss_points']:.2f} strength points."
        )
    d["lines"] = lines + list(d["notes"])
    d["action"] = "Declare this attack"
    return d
