"""The Moscow Campaign position and legal actions as JSON-ready dicts, for the browser.

Same shape of answer as :mod:`typhoon.games.bfm.webview` where the games agree (edition, title, turn,
phase, to_move, result, units, legal actions as dicts with ``text`` and ``kind``), plus what
TMC has: the scenario, weather, victory points, the counters' CF forms and flags, and the
``reconstruction`` notice every front end shows. Words come from typhoon.games.tmc.words.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from typhoon.games.tmc import words
from typhoon.games.tmc.websvg import cf_form, render_overlay

TO_MOVE = {-1: "chance", -2: "over"}


def to_move_name(player: int) -> str:
    return TO_MOVE.get(player) or words.SIDE_NAMES[player]


@lru_cache(maxsize=1)
def scenario_catalogue() -> dict[str, dict[str, Any]]:
    """Scenario number -> title, turn range, start line, replacements (from the OOB data)."""
    from typhoon.games.tmc.scenarios import load_catalogue

    out: dict[str, dict[str, Any]] = {}
    for n, sc in sorted(load_catalogue().scenarios.items()):
        out[str(n)] = {
            "number": n,
            "title": sc.title,
            "first_turn": sc.first_turn,
            "last_turn": sc.last_turn,
            "start_line": sc.start_line,
            "german_replacements": sc.german_replacements,
        }
    return out


def edition_title(key: str, fallback: str) -> str:
    """'1: Typhoon, the September offensive, GT 1-8 (September start line)'."""
    try:
        sc = scenario_catalogue().get(key)
    except Exception:  # the OOB data is another helper's: the lobby must still open
        return fallback
    if sc is None:
        return fallback
    return f"{key}: {sc['title']} ({sc['start_line']} start line)"


def unit_dict(state: Any, u: int) -> dict[str, Any]:
    r = state.rules
    spec = r.units[u]
    h = state.loc[u]
    return {
        "id": spec.id,
        "name": spec.name,
        "side": words.SIDE_NAMES[spec.side],
        "type": spec.kind,
        "mech": bool(state.is_mech(u)),
        "cf": state.cf(u),
        "cf_text": cf_form(state, u),
        "ma": state.ma(u),
        "eb": spec.eb,
        "bracket": spec.bracket,
        "hex": r.grid.ids[h] if h >= 0 else None,
        "arrive": spec.arrive,
        "eliminated": bool((state.eliminated >> u) & 1),
        "flags": words.unit_flags(state, u),
        "disrupted": u in state.disrupted,
        "entrained": bool((state.entrained >> u) & 1),
        "flipped": bool((state.flipped >> u) & 1),
        "kg": bool((state.kg >> u) & 1),
        "moved": u in state.spent,
        "words": words.unit_words(state, u),
    }


def state_view(state: Any) -> dict[str, Any]:
    """The position as data (and the counters layer of the map as an SVG fragment)."""
    rules = state.rules
    spec = state.phase_spec
    player = state.current_player()
    shown = [
        u
        for u in range(len(rules.units))
        if state.loc[u] >= 0 or (state.arrived >> u) & 1 or rules.units[u].arrive
    ]
    return {
        "game": "tmc",
        "edition": rules.edition,
        "title": f"The Moscow Campaign \u2014 scenario {rules.edition}: {rules.title}",
        "rules": f"scenario {rules.edition}: {rules.title} ({words.scenario_facts(rules)})",
        "reconstruction": words.RECONSTRUCTION,
        "scenario": {
            "number": rules.edition,
            "title": rules.title,
            "first_turn": rules.first_turn,
            "last_turn": rules.last_turn,
            "start_line": rules.start_line,
            "german_replacements": rules.german_replacements,
        },
        "turn": state.turn,
        "turn_label": words.turn_text(state),
        "first_turn": rules.first_turn,
        "last_turn": rules.last_turn,
        "weather": words.weather_text(state),
        "vp": {"german": state.vp[0], "soviet": state.vp[1]},
        "phase": {
            "index": state.phase,
            "key": spec.key,
            "name": spec.name,
            "side": words.SIDE_NAMES[spec.side],
            "kind": spec.kind,
        },
        "phases": [
            {"key": p.key, "name": p.name, "side": words.SIDE_NAMES[p.side], "kind": p.kind}
            for p in rules.phases
            if p.kind != "setup"
        ],
        "step": words.step_text(state),
        "status": " | ".join(words.status_parts(state)),
        "to_move": to_move_name(player),
        "result": state.result,
        "level": state.level or None,
        "units": [unit_dict(state, u) for u in shown],
        "rules_label": "In force",
        "legend": LEGEND,
        "marks": battle_marks(state),
        # The counters layer alone: the browser swaps it into the map's <g id="layer">.
        "layer": render_overlay(state),
    }


def battle_marks(state: Any) -> list[dict[str, Any]]:
    """The declared attacks outlined on the map (issue 15): per attack its defending hexes and
    its attackers' hexes (class ``declared``; the one being built too), and the battle being
    resolved (``target-sel``)."""
    ids = state.rules.grid.ids
    out: list[dict[str, Any]] = []

    def one(hexes: Sequence[int], attackers: Sequence[int]) -> dict[str, Any]:
        at = [ids[state.loc[u]] for u in attackers if state.loc[u] >= 0]
        return {"hexes": list(dict.fromkeys([*(ids[h] for h in hexes), *at])), "class": "declared"}

    pd = state.cdata if state.phase_spec.kind == "combat" and state.cdata else None
    if pd is not None and hasattr(pd, "battles"):
        for d in (*pd.battles, *([pd.draft] if pd.draft is not None else [])):
            out.append(one(d.hexes, d.attackers))
    b = state.combat
    if b is not None:
        out.append(one(b.hexes, b.attackers))
        out.append({"hexes": [ids[h] for h in b.hexes], "class": "target-sel"})
    return out


LEGEND = [
    "Reconstructed map: pale clear, green forest/swamp, blue lake, salmon Moscow; a dot is a city.",
    "Blue hexsides are rivers, purple ones defence lines; black lines are railways (x destroyed, a square "
    "German-repaired); red dashes: the scenario's start line.",
    "Counters: grey German, red Soviet; top: unit id; bottom: combat factor - movement allowance; (2) railroad "
    "engineers, [1] bracketed units; D disrupted, T entrained; faded: flipped by an overrun; yellow edge: moved "
    "this phase; a black badge counts the units in a stack.",
]


def action_dict(action: Any, text: str) -> dict[str, Any]:
    """{'text': 'move G1Pz 1420-0516', 'kind': 'move', 'unit': 'G1Pz', 'src': ..., 'dst': ...}."""
    d: dict[str, Any] = {"text": text}
    for k, v in action._asdict().items():
        d[k] = list(v) if isinstance(v, tuple) else v
    return d


def legal_view(state: Any, actions: Sequence[Any], to_text: Any) -> dict[str, Any]:
    """The legal actions with the fields the one browser client reads (games/frontends.py):
    ``label``, ``units`` (the units that act), ``hexes`` ([from, ..., to]) and ``prompt``."""
    r = state.rules
    names = {}
    for u, spec in enumerate(r.units):
        names[spec.id] = f"{spec.id} {cf_form(state, u)}-{state.ma(u)}"
    out = []
    for a in actions:
        d = action_dict(a, to_text(a))
        _client_fields(d, names)
        out.append(d)
    cols = [d["column"] for d in out if d["kind"] == "odds"]
    best = max(cols, key=_odds_value) if cols else None
    for d in out:
        if d["kind"] == "odds":
            d["label"] = f"Resolve on the {d['column']} column" + (
                " (the computed odds)" if d["column"] == best else " (lower)"
            )
    if best is not None:
        # The computed odds first and marked (``primary``), then the lower ones highest first
        # (issue 15: a player resolved at 1-2 instead of 11-1 by clicking the first button).
        for d in out:
            if d["kind"] == "odds" and d["column"] == best:
                d["primary"] = True
        out.sort(key=lambda d: -_odds_value(d["column"]) if d["kind"] == "odds" else float("-inf"))
    for d in out:
        if d["kind"] == "end":
            d["label"] = _end_label(state, out)
    _attack_groups(state, out)
    return {
        "to_move": to_move_name(state.current_player()),
        "actions": out,
        "prompt": _prompt(state, {a.kind for a in actions}),
    }


def _attack_groups(state: Any, out: list[dict[str, Any]]) -> None:
    """Attacks by a unit become a group on their target (the client plans them with the odds
    preview and sends them together, issue 15); ``with``: the attack being built, if any."""
    pd = state.cdata if state.phase_spec.kind == "combat" and state.cdata else None
    draft = getattr(pd, "draft", None)
    units = state.rules.units
    with_ = [units[u].id for u in draft.attackers] if draft is not None else []
    for d in out:
        if d["kind"] == "attack" and d["units"]:
            d["group"], d["with"] = d["target"], with_


def _odds_value(column: str) -> float:
    x, _, y = column.partition("-")
    try:
        return int(x) / int(y)
    except (ValueError, ZeroDivisionError):
        return 0.0


_LABELS = {
    "move": "Move {u} {src} \u2192 {dst}",
    "railmove": "Rail move {u} {src} \u2192 {dst}",
    "enter": "{u} enters the map at {hex}",
    "arrive": "{u} arrives by rail at {hex}",
    "entrain": "Entrain {u}",
    "detrain": "Detrain {u}",
    "relocate": "Relocate {u} to {hex}",
    "place": "Place {u} in {hex}",
    "join": "{u} joins the overrun of {hex}",
    "lose": "Eliminate {u} (loss)",
    "disrupt": "Disrupt {u}",
    "retreat": "Retreat {u} to {hex}",
}


def _client_fields(d: dict[str, Any], names: dict[str, str]) -> None:
    k = d["kind"]
    u: Any = d.get("unit")
    units = list(d.get("units") or ([u] if u else []))
    shown = " + ".join(names.get(x, x) for x in units)
    if k in _LABELS:
        d["label"] = _LABELS[k].format(
            u=names.get(u, u), src=d.get("src"), dst=d.get("dst"), hex=d.get("hex")
        )
    elif k == "overrun":
        d["label"] = f"Overrun {d['hex']} with {shown}"
    elif k == "attack":
        d["label"] = (
            f"{shown} attack{'' if len(units) > 1 else 's'} {d['target']}"
            if units
            else f"The attack also takes in hex {d['target']}"
        )
    elif k == "ignore":
        d["label"] = "Ignore the ignorable result" if d["accept"] else "Do not ignore it"
    elif k == "advance":
        d["label"] = f"{names.get(u, u)} advances into {d['hex']}" if u else "Stop advancing"
    elif k == "setupstandard":
        d["label"] = "Standard set-up (every unit on its reconstructed start hex)"
    elif k == "end":
        d["label"] = "End"
    d["units"] = units
    if not units:
        d["hexes"] = [d.get("target") or d["hex"]] if k in ("attack", "overrun") else []
        return
    if k in ("move", "railmove"):
        d["hexes"] = [d["src"], d["dst"]]
    elif k == "attack":
        d["hexes"] = [d["target"]]
    elif d.get("hex"):
        d["hexes"] = [d["hex"]]
    else:
        d["hexes"] = []


def _end_label(state: Any, actions: list[dict[str, Any]]) -> str:
    spec = state.phase_spec
    step = words.step_text(state)
    if spec.kind == "setup":
        return "End the set-up"
    if spec.kind == "movement":
        if "relocation" in step:
            return "End the EB relocation"
        return "End" if "overrun" in step else "End the movement phase"
    if spec.kind == "combat" and any(d["kind"] == "attack" for d in actions):
        return "End (close the attack / the declarations)"
    return "End"


def _prompt(state: Any, kinds: set[str]) -> str:
    side = words.SIDE_NAMES[state.phase_spec.side].capitalize()
    if kinds & {"setupstandard", "place"}:
        return (
            f"{side} set-up: the standard set-up puts every unit on its reconstructed start hex, "
            "or pick a unit and a hex."
        )
    if "relocate" in kinds:
        return "Soviet EB relocation: select an EB unit and a highlighted rail hex, or end the relocation."
    if "retreat" in kinds:
        return "Retreat: select the retreating unit (highlighted) and click a highlighted hex."
    if "advance" in kinds:
        return "Advance after combat: select an attacker and click the vacated hex, or stop advancing."
    if kinds & {"lose", "disrupt"}:
        return "Combat result: choose the attacking units that take it."
    if "odds" in kinds:
        return f"Resolve the attack{_battle_words(state)}: choose the odds column (the computed one, first, or a lower one)."
    if "attack" in kinds:
        return (
            "Combat: click an enemy hex to plan an attack: the odds are shown for the attackers chosen "
            "(click a stack to add or remove it), then declare it (D); End ends the declarations."
        )
    if kinds & {"move", "railmove", "enter", "arrive"}:
        return f"{words.step_text(state)}: click one of your units (outlined), then a highlighted hex. End the phase when done."
    return "Choose an action."


def _battle_words(state: Any) -> str:
    """' on 1420 by G1Pz, G2Pz': the battle being resolved (issue 15: the prompt says which)."""
    b = state.combat
    if b is None:
        return ""
    ids = state.rules.grid.ids
    units = state.rules.units
    where = ", ".join(ids[h] for h in b.hexes)
    by = ", ".join(units[u].id for u in b.attackers)
    return f" on {where}" + (f" by {by}" if by else "")


def hex_view(state: Any, hid: str) -> dict[str, Any]:
    grid = state.rules.grid
    h = grid.index.get(hid, -1)
    if h < 0:
        raise KeyError(hid)
    return {
        "hex": hid,
        "words": words.hex_words(state, h),
        "units": [state.rules.units[u].id for u in state.units_at(h)],
    }


def turn_label(turn: int) -> str:
    return "set-up" if turn == 0 else f"GT {turn}"
