"""MOCKBA views for the browser (the fields the one client reads, games/frontends.py): the
position as data, the legal actions with the hexes and units each one involves, a hex. Every
view that shows the map or the counters carries the reconstruction notice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import odds, traces_supply, victory_points
from .rules import SIDE_NAMES, editions, hex_id, hex_index
from .state import ELIM, PHASES, SETUP_PHASES, State
from .websvg import render_layer
from .words import NOTICE, factors, hex_words, to_move, turn_label, unit_words

STEP_WORDS = {
    "declare": "declaring an attack",
    "support": "the defender's air support",
    "roll": "combat die",
    "drop_roll": "para drop die",
    "blow_roll": "bridge demolition die (optional rule 3)",
    "retreat": "retreat",
    "d3": "D3: retreat three hexes or be reduced",
    "loss": "exchange: attacker losses",
    "penalty": "follow-up loss (optional rule 4)",
    "advance": "advance after combat",
}


def _unit_view(s: State, u: int) -> dict[str, Any]:
    sp = s.rules.units[u]
    h = s.loc[u]
    return {
        "id": sp.id,
        "name": f"{sp.id} {factors(s, u)}",
        "army": sp.army,
        "side": SIDE_NAMES[sp.side],
        "kind": sp.kind,
        "size": sp.size,
        "factors": factors(s, u),
        "hex": hex_id(h) if h >= 0 else None,
        "eliminated": h == ELIM,
        "arrives": sp.turn,
        "reduced": bool(s.red >> u & 1),
        "dug_in": bool(s.dug >> u & 1),
        "out_of_supply": bool(s.oos >> u & 1),
        "in_supply": traces_supply(s, u) if h >= 0 else None,
        "words": unit_words(s, u),
    }


def _battle(s: State) -> dict[str, Any] | None:
    b = s.battle
    if b is None:
        return None
    r = s.rules
    if b.step == "blow_roll":
        col, why = -1, ["a bridge demolition: 5-6 blows it, only 6 with a German unit at the bridge"]
    else:
        col, why = odds(s, b) if b.attackers else (-1, [])
    return {
        "target": hex_id(b.target),
        "hex": hex_id(b.target),
        "step": b.step,
        "step_words": STEP_WORDS.get(b.step, b.step),
        "attackers": [r.units[u].id for u in b.attackers],
        "air": b.air,
        "defender_air": b.dair,
        "column": r.columns[b.column] if b.column >= 0 else (r.columns[col] if col >= 0 else None),
        "reasons": why,
        "result": b.result or None,
        "die": b.die or None,
    }


def state_view(s: State) -> dict[str, Any]:
    r = s.rules
    spec = s.phase_spec
    b = s.battle
    status = [turn_label(r, s.turn), spec.name, f"air German {s.air_g}, Soviet {s.air_s}"]
    if b is not None:
        status.append(f"battle at {hex_id(b.target)}: {STEP_WORDS.get(b.step, b.step)}")
    marks: list[dict[str, Any]] = []
    if b is not None:
        marks.append(
            {
                "hexes": [hex_id(b.target), *(hex_id(s.loc[u]) for u in b.attackers if s.loc[u] >= 0)],
                "class": "declared",
            }
        )
        marks.append({"hexes": [hex_id(b.target)], "class": "target-sel"})
    return {
        "game": "mockba",
        "edition": r.edition,
        "title": editions()[r.edition],
        "notice": NOTICE,
        "turn": s.turn,
        "turn_label": turn_label(r, s.turn),
        "last_turn": r.last_turn,
        "turn_track": [
            {"turn": t, "label": turn_label(r, t), "dates": r.calendar[t]["dates"], "mud": False}
            for t in range(1, r.last_turn + 1)
        ],
        "dates": r.calendar[s.turn]["dates"],
        "phase": {
            "index": s.phase,
            "key": spec.key,
            "name": spec.name,
            "side": SIDE_NAMES[spec.side],
            "kind": spec.kind,
        },
        "phases": [
            {"key": p.key, "name": p.name, "side": SIDE_NAMES[p.side], "kind": p.kind}
            for p in (SETUP_PHASES if r.opt("setup") == "free" else ()) + PHASES
        ],
        "step": b.step if b is not None else None,
        "to_move": to_move(s),
        "result": s.result,
        "score": victory_points(s) if s.score is None else s.score,
        "air": {"german": s.air_g, "soviet": s.air_s},
        "rail_left": s.rail_left,
        "battle": _battle(s),
        "units": [_unit_view(s, u) for u in range(len(s.loc))],
        "cities": [
            {"hex": hex_id(h), "name": name, "controller": "german" if s.control >> h & 1 else "soviet"}
            for name, h in r.cities.items()
        ],
        "status": " · ".join(status),
        "selected": None,
        "marks": marks,
        "layer": render_layer(s),  # swapped into the map's <g id="layer"> (websvg)
    }


def _label(s: State, d: dict[str, Any]) -> str:
    k = d["kind"]
    u = d.get("unit")
    b = s.battle
    labels = {
        "move": lambda: f"Move {u} {d.get('src')} to {d['dst']}",
        "rail": lambda: f"{u} by rail {d.get('src')} to {d['dst']}",
        "reinforce": lambda: f"{u} enters at {d['hex']}",
        "place": lambda: f"Set up {u} at {d['hex']}",
        "blow": lambda: f"{u} tries to blow the bridge {d.get('src')}-{d['dst']} instead of attacking",
        "standard": lambda: "Set up the remaining units as in the fixed lay-out",
        "rebuild": lambda: f"Rebuild {u} at {d['hex']}",
        "dig": lambda: f"{u} digs in (2-0)",
        "undig": lambda: f"{u} leaves its entrenchment",
        "airsupply": lambda: f"Air-supply {u}",
        "counterair": lambda: "Air points to counter-air",
        "interdict": lambda: "Air points to rail interdiction",
        "attack": lambda: f"{u} attacks {d['target']}",
        "air": lambda: "Add an air point to the attack",
        "fire": lambda: f"Resolve the attack on {hex_id(b.target) if b else '?'}",
        "cancel": lambda: "Call off this attack",
        "support": lambda: "Defend with an air point" if d["accept"] else "No defensive air",
        "roll": lambda: f"Die {d['die']}",
        "retreat": lambda: (
            ("Retreat " + "-".join(d["path"])) if d["path"] else "Retreat (the attacker routes it)"
        ),
        "reduce": lambda: "Reduce instead of retreating",
        "lose": lambda: f"{u} takes the loss",
        "advance": lambda: f"{u} advances into {d['hex']}",
        "drop": lambda: f"Para drop on {d['hex']}",
        "stay": lambda: "No (more) advance",
        "end": lambda: "Done" if b is not None else f"End the {s.phase_spec.name}",
    }
    f = labels.get(k)
    return f() if f else str(d["text"])


def _prompt(s: State, kinds: set[str]) -> str:
    if "roll" in kinds:
        return "A die is due."
    if "support" in kinds:
        return "An attack is declared: add a defensive air point, or not."
    if "retreat" in kinds or "reduce" in kinds:
        return "Retreat: click the highlighted hex at the route's end, or reduce the units instead."
    if "advance" in kinds:
        return "Advance after combat: pick an attacker and click the vacated hex, or stay."
    if "lose" in kinds:
        return "Combat result: choose the attacking unit that takes the loss."
    if "fire" in kinds or (s.battle is not None and "cancel" in kinds):
        return "Add attackers or an air point, then resolve the attack or call it off."
    if "attack" in kinds:
        return "Click an enemy hex next to your units to declare an attack, one unit at a time."
    if kinds & {"counterair", "interdict", "airsupply"}:
        return "Air allocation: counter-air, interdiction or air supply, then end."
    if "place" in kinds or "standard" in kinds:
        return "Set-up: click a highlighted hex for the unit named, or set up the rest as standard."
    if kinds & {"reinforce", "rebuild"}:
        return "Place reinforcements and rebuilt units, then end."
    if kinds & {"move", "rail", "dig"}:
        return "Click one of your units, then a highlighted hex. End the phase when done."
    return "Choose an action."


def legal_view(s: State, actions: Sequence[Any], to_text: Any) -> dict[str, Any]:
    """Each action with ``text``, ``kind``, its fields, ``label``, ``units`` (the units that
    act), ``hexes`` ([from, ..., to]; a click on the last plays it), ``group``/``with`` for an
    attack (the target, the units already declared against it); and a ``prompt``."""
    r = s.rules
    b = s.battle
    where = {sp.id: hex_id(s.loc[u]) if s.loc[u] >= 0 else None for u, sp in enumerate(r.units)}
    declared = [r.units[u].id for u in b.attackers] if b is not None else []
    out = []
    for a in actions:
        d: dict[str, Any] = {"text": to_text(a)}
        for k, v in a._asdict().items():
            d[k] = list(v) if isinstance(v, tuple) else v
        k = a.kind
        u = str(d.get("unit", ""))
        if k in ("move", "rail", "blow"):
            d["src"] = where[u]
            d["units"], d["hexes"] = [u], [where[u], d["dst"]]
        elif k == "attack":
            d["units"], d["hexes"] = [u], [where[u], d["target"]]
            d["group"], d["with"] = d["target"], declared
        elif k in ("reinforce", "rebuild", "place"):
            d["units"], d["hexes"] = [u], [d["hex"]]
        elif k == "advance":
            d["units"], d["hexes"] = [u], [where[u], d["hex"]]
        elif k in ("dig", "undig", "airsupply", "lose"):
            d["units"], d["hexes"] = [u], []
        elif k == "drop":
            d["units"], d["hexes"] = [], [d["hex"]]
        elif k == "retreat" and b is not None and b.groups and d["path"]:
            start = b.groups[0]
            d["units"] = [r.units[x].id for x in s.units_at(start)]
            d["hexes"] = [hex_id(start), *d["path"]]
        else:
            d["units"], d["hexes"] = [], []
        d["label"] = _label(s, d)
        out.append(d)
    return {"to_move": to_move(s), "actions": out, "prompt": _prompt(s, {a.kind for a in actions})}


def hex_view(s: State, hid: str) -> dict[str, Any]:
    h = hex_index(hid)  # KeyError for a hex not on the map
    return {"hex": hid, "words": hex_words(s, h), "units": [s.rules.units[u].id for u in s.units_at(h)]}
