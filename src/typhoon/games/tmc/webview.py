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
        "overlay": render_overlay(state),
    }


def action_dict(action: Any, text: str) -> dict[str, Any]:
    """{'text': 'move G1Pz 1420-0516', 'kind': 'move', 'unit': 'G1Pz', 'src': ..., 'dst': ...}."""
    d: dict[str, Any] = {"text": text}
    for k, v in action._asdict().items():
        d[k] = list(v) if isinstance(v, tuple) else v
    return d


def legal_view(state: Any, actions: Sequence[Any], to_text: Any) -> dict[str, Any]:
    return {
        "to_move": to_move_name(state.current_player()),
        "actions": [action_dict(a, to_text(a)) for a in actions],
    }


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
