"""Moscow Attacked! views for the browser (the fields the one client reads, games/frontends.py):
the position as data, the legal actions with the hexes and units each one involves, a hex, the
odds preview. Every view that shows the map or the counters carries the reconstruction notice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import (
    GERMAN_VICTORY,
    MOSCOW,
    SOVIET_VICTORY,
    bombers_based,
    in_supply,
    odds,
    supply_lengths,
)
from .rules import SIDE_NAMES, editions, hex_id, hex_index
from .state import ELIM, PHASES, STATUS_WORDS, State
from .words import NOTICE, hex_words, to_move, turn_label, unit_words

STEP_WORDS = {
    "declare": "declaring an attack",
    "intercept": "interception",
    "icpt_roll": "interception die",
    "bomb_roll": "bombing die",
    "roll": "combat die",
    "noretreat": "No Retreat! decision",
    "exchange": "exchange offer",
    "loss": "attacker losses",
    "retreat": "retreat of the defenders",
    "extra": "the defenders' extra hex",
    "advance": "advance after combat",
}


def _unit_view(s: State, u: int) -> dict[str, Any]:
    sp = s.rules.units[u]
    h = s.loc[u]
    return {
        "id": sp.id,
        "name": sp.name,
        "side": SIDE_NAMES[sp.side],
        "echelon": sp.echelon,
        "kind": sp.kind,
        "air": sp.is_air,
        "factors": None if sp.is_air else f"{sp.attack}-{sp.defense}-{sp.movement}",
        "attack": sp.attack,
        "defense": sp.defense,
        "movement": sp.movement,
        "hex": hex_id(h) if h >= 0 else None,
        "eliminated": h == ELIM,
        "arrives": sp.turn,
        "status": STATUS_WORDS[s.status[u]],
        "in_supply": in_supply(s, u) if h >= 0 else None,
        "shot_down": bool(sp.is_air and s.down[u] >= s.turn),
        "words": unit_words(s, u),
    }


def _cities(s: State) -> list[dict[str, Any]]:
    r = s.rules
    out = []
    for h in range(len(r.terrain)):
        if not r.places >> h & 1:
            continue
        goal = [n for n, hs in (("german", GERMAN_VICTORY), ("soviet", SOVIET_VICTORY)) if h in hs]
        out.append(
            {
                "hex": hex_id(h),
                "name": r.place[h],
                "class": r.place_class[h],
                "controller": SIDE_NAMES[s.controller(h)],
                "victory": goal,
            }
        )
    return out


def state_view(s: State) -> dict[str, Any]:
    r = s.rules
    spec = s.phase_spec
    b = s.battle
    battle = None
    if b is not None:
        col, why = odds(s, b) if b.attackers else (-1, [])
        battle = {
            "target": hex_id(b.target),
            "hex": hex_id(b.target),
            "step": b.step,
            "step_words": STEP_WORDS.get(b.step, b.step),
            "attackers": [r.units[u].id for u in b.attackers],
            "air": [r.units[u].id for u in b.air],
            "column": r.columns[b.column] if b.column >= 0 else (r.columns[col] if col >= 0 else None),
            "reasons": why,
            "result": b.result or None,
            "die": b.die or None,
            "drop": b.drop,
            "bomb": b.bomb,
        }
    status = [
        f"Turn {s.turn} of {r.last_turn} ({r.dates[s.turn]}, {s.weather})",
        spec.name,
    ]
    if b is not None:
        status.append(f"battle at {hex_id(b.target)}: {STEP_WORDS.get(b.step, b.step)}")
    if spec.kind == "reinforce":
        status.append(f"{s.repl} replacement factor(s)")
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
        "game": "ma",
        "edition": r.edition,
        "rules": r.describe(),
        "rules_label": "Edition in force",
        "title": editions()[r.edition],
        "notice": NOTICE,
        "turn": s.turn,
        "turn_label": turn_label(r, s.turn),
        "last_turn": r.last_turn,
        "turn_track": [
            {
                "turn": t,
                "label": turn_label(r, t),
                "dates": r.dates[t],
                "weather": r.weather[t],
                "mud": r.weather[t] == "mud",
            }
            for t in range(1, r.last_turn + 1)
        ],
        "dates": r.dates[s.turn],
        "weather": s.weather,
        "supply_length": [supply_lengths(s, 0), supply_lengths(s, 1)],
        "phase": {
            "index": s.phase,
            "key": spec.key,
            "name": spec.name,
            "side": SIDE_NAMES[spec.side],
            "kind": spec.kind,
        },
        "phases": [
            {"key": p.key, "name": p.name, "side": SIDE_NAMES[p.side], "kind": p.kind} for p in PHASES[1:]
        ],
        "step": b.step if b is not None else None,
        "to_move": to_move(s),
        "result": s.result,
        "replacements": s.repl,
        "no_retreat": s.noretreat,
        "panic": s.panic,
        "bombers_base": hex_id(s.base) if s.base >= 0 else None,
        "bombers_grounded": not bombers_based(s),
        "battle": battle,
        "units": [_unit_view(s, u) for u in range(len(s.loc))],
        "cities": _cities(s),
        "hexes": {hex_id(h): hex_words(s, h) for h in range(len(r.terrain))},
        "status": " · ".join(status),
        "selected": None,
        "marks": marks,
    }


def _names(s: State) -> dict[str, str]:
    r = s.rules
    return {
        sp.id: sp.id if sp.is_air else f"{sp.id} {sp.attack}-{sp.defense}-{sp.movement}" for sp in r.units
    }


def _label(s: State, d: dict[str, Any], names: dict[str, str]) -> str:
    k = d["kind"]
    u = names.get(d.get("unit") or "", d.get("unit"))
    b = s.battle
    labels = {
        "move": lambda: f"Move {u} {d.get('src')} to {d['dst']}",
        "rail": lambda: f"{u} by rail {d.get('src')} to {d['dst']} (ends Dispersed)",
        "reinforce": lambda: f"{u} arrives in {d['hex']}",
        "replace": lambda: f"Rebuild {u} in {d['hex']} (Dispersed)",
        "base": lambda: f"Base the Strategic Bombers in {d['hex']}",
        "disband": lambda: f"Eliminate {u} voluntarily",
        "order": lambda: {
            "none": "No Retreat! order: none",
            "all": "No Retreat! order: every Soviet unit",
            "front": "No Retreat! order: every unit but Moscow's",
            "moscow": "No Retreat! order: Moscow only",
        }[d["mode"]],
        "attack": lambda: f"{u} attacks {d['target']}",
        "air": lambda: f"{u} flies ground support",
        "airdrop": lambda: f"{u} air-supplies {d['hex']}",
        "bomb": lambda: f"{u} bombs Moscow",
        "fire": lambda: f"Resolve the attack on {hex_id(b.target) if b else '?'}",
        "cancel": lambda: "Call off this attack",
        "intercept": lambda: f"{u} intercepts",
        "pass": lambda: "No interception",
        "noretreat": lambda: "No Retreat! (hold the hex)" if d["accept"] else "Retreat",
        "exchange": lambda: "Accept the exchange" if d["accept"] else "Decline the exchange",
        "lose": lambda: f"{u} is eliminated",
        "disperse": lambda: f"{u} is Dispersed",
        "retreat": lambda: (
            ("Retreat " + "-".join(d["path"]))
            if d["path"]
            else "Retreat 0 hexes (stay, as the attacker may choose)"
        ),
        "stay": lambda: "Stay (no extra hex)",
        "advance": lambda: f"{u} advances into {d['hex']}",
        "end": lambda: _end_label(s),
        "roll": lambda: f"Die {d['die']}",
    }
    f = labels.get(k)
    return f() if f else str(d["text"])


def _end_label(s: State) -> str:
    b = s.battle
    if b is not None:
        return "No (more) advance" if b.step == "advance" else "Done"
    return f"End the {s.phase_spec.name}"


def _prompt(s: State, kinds: set[str]) -> str:
    if "base" in kinds and s.phase_spec.kind == "setup":
        return "Soviet set-up: click a city or town to base the Strategic Bombers."
    if "roll" in kinds:
        return "A die is due."
    if "retreat" in kinds:
        return "Choose the defenders' retreat: click the highlighted hex at its end."
    if "advance" in kinds:
        return "Advance after combat: pick an attacker and click a highlighted hex, or stop."
    if kinds & {"lose", "disperse"}:
        return "Combat result: choose the attacking units that take it."
    if kinds & {"noretreat", "exchange"}:
        return "Decide: " + ("No Retreat!" if "noretreat" in kinds else "the exchange") + "."
    if "intercept" in kinds:
        return "An air mission is flying: intercept it, or let it pass."
    if "fire" in kinds or (s.battle is not None and "cancel" in kinds):
        return "Add attackers or air support (clicking them), then resolve the attack or call it off."
    if "attack" in kinds:
        return "Click an enemy hex next to your ready units to declare an attack, one unit at a time."
    if "move" in kinds:
        return "Click one of your ready units, then a highlighted hex. End the phase when done."
    if kinds & {"reinforce", "replace", "rail"}:
        return (
            f"{s.repl} replacement factor(s): place reinforcements and replacements, move by rail, then end."
        )
    if "lose" in kinds:
        return "Isolation: choose the unit the group loses."
    return "Choose an action."


def legal_view(s: State, actions: Sequence[Any], to_text: Any) -> dict[str, Any]:
    """Each action with ``text``, ``kind``, its fields, ``label``, ``units`` (the units that
    act), ``hexes`` ([from, ..., to]; a click on the last plays it), ``group``/``with`` for an
    attack (the target, the units already declared against it); and a ``prompt``."""
    r = s.rules
    names = _names(s)
    b = s.battle
    where = {sp.id: hex_id(s.loc[u]) if s.loc[u] >= 0 else None for u, sp in enumerate(r.units)}
    declared = [r.units[u].id for u in b.attackers] if b is not None else []
    target = hex_id(b.target) if b is not None else None
    out = []
    for a in actions:
        d: dict[str, Any] = {"text": to_text(a)}
        for k, v in a._asdict().items():
            d[k] = list(v) if isinstance(v, tuple) else v
        k = a.kind
        u = str(d.get("unit", ""))
        if k in ("move", "rail"):
            d["src"] = where[u]
            d["units"], d["hexes"] = [u], [where[u], d["dst"]]
        elif k == "attack":
            d["units"], d["hexes"] = [u], [where[u], d["target"]]
            d["group"], d["with"] = d["target"], declared
        elif k in ("reinforce", "replace", "base", "airdrop"):
            d["units"], d["hexes"] = [u], [d["hex"]]
        elif k == "advance":
            d["units"], d["hexes"] = [u], [where[u], d["hex"]]
        elif k == "bomb":
            d["units"], d["hexes"] = [u], [hex_id(MOSCOW)]
        elif k in ("air", "intercept"):
            d["units"], d["hexes"] = [u], [target] if target else []
        elif k in ("lose", "disperse", "disband"):
            d["units"], d["hexes"] = [u], [where[u]] if where.get(u) else []
        elif k == "retreat" and b is not None:
            start = hex_id(b.at)
            d["units"] = [r.units[x].id for x in b.defenders]
            d["hexes"] = [start, *d["path"]]
            d["dst"] = d["path"][-1] if d["path"] else start
        elif k in ("fire", "cancel", "noretreat", "exchange", "stay"):
            # decisions about the whole battle: buttons (no units, no hexes), so a click on an
            # attacker or on the target never fires, calls off or answers by accident
            d["units"], d["hexes"] = [], []
        else:
            d["units"], d["hexes"] = [], []
        d["label"] = _label(s, d, names)
        out.append(d)
    return {"to_move": to_move(s), "actions": out, "prompt": _prompt(s, {a.kind for a in actions})}


def hex_view(s: State, hid: str) -> dict[str, Any]:
    h = hex_index(hid)  # KeyError for a hex not on the map
    return {"hex": hid, "words": hex_words(s, h), "units": [s.rules.units[u].id for u in s.units_at(h)]}
