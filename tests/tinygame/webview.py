"""The tiny game for the one browser client (the fields of games/frontends.py): the position,
the legal actions with the units and hexes each involves, and an SVG of five square hexes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import PHASES, State
from .rules import HEXES, SIDE_NAMES, SIDE_OF, UNITS

TO_MOVE = {-1: "chance", -2: "over"}
SIZE = 60


def _to_move(s: State) -> str:
    p = s.current_player()
    return TO_MOVE.get(p) or SIDE_NAMES[p]


def state_view(s: State) -> dict[str, Any]:
    return {
        "edition": s.rules.edition,
        "title": f"Tiny game ({s.rules.edition})",
        "turn": s.turn,
        "phase": {"key": s.phase_spec.key, "name": s.phase_spec.name, "side": SIDE_NAMES[s.phase_spec.side]},
        "phases": [{"key": p.key, "name": p.name, "side": SIDE_NAMES[p.side]} for p in PHASES],
        "status": f"Turn {s.turn} of {s.rules.last_turn} · {s.phase_spec.name}",
        "to_move": _to_move(s),
        "result": s.result,
        "units": [
            {"id": UNITS[u], "side": SIDE_NAMES[SIDE_OF[u]], "hex": HEXES[h] if h >= 0 else None}
            for u, h in enumerate(s.loc)
        ],
    }


def legal_view(s: State, actions: Sequence[Any], to_text: Any) -> dict[str, Any]:
    out = []
    for a in actions:
        d: dict[str, Any] = {"text": to_text(a), "kind": a.kind}
        if a.kind == "move":
            src = HEXES[s.loc[UNITS.index(a.unit)]]
            d.update(label=f"Move {a.unit} to {a.dst}", units=[a.unit], hexes=[src, a.dst])
        elif a.kind == "attack":
            d.update(label=f"{a.unit} attacks {a.target} (4-6 eliminates)", units=[a.unit], hexes=[a.target])
        elif a.kind == "end":
            d["label"] = "End the phase"
        out.append(d)
    return {
        "to_move": _to_move(s),
        "actions": out,
        "prompt": "Click a unit, then a highlighted hex; or end the phase.",
    }


def render_map(s: State, numbers: bool) -> str:
    cells = []
    for h, hid in enumerate(HEXES):
        x = h * SIZE
        cells.append(
            f'<g class="hex" id="hex-{hid}" data-hex="{hid}" data-cx="{x + SIZE / 2}" data-cy="{SIZE / 2}" '
            f'data-col="{h + 1}" data-row="1"><rect x="{x}" y="0" width="{SIZE}" height="{SIZE}" '
            f'fill="#eee8d0" stroke="#777"/><text x="{x + 4}" y="12" font-size="9">{hid if numbers else ""}</text></g>'
        )
        u = s.unit_at(h)
        if u >= 0:
            fill = "#c9ced4" if SIDE_OF[u] == 0 else "#e9a09a"
            cells.append(
                f'<g class="unit {SIDE_NAMES[SIDE_OF[u]]}" data-unit="{UNITS[u]}" data-hex="{hid}">'
                f'<rect x="{x + 15}" y="15" width="30" height="30" fill="{fill}" stroke="#333"/>'
                f'<text x="{x + 22}" y="35" font-size="12">{UNITS[u]}</text></g>'
            )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE * len(HEXES)} {SIZE}" data-r="{SIZE / 2}">'
        f'{"".join(cells)}<g id="overlay" class="overlay" pointer-events="none"></g></svg>'
    )
