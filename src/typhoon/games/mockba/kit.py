"""MOCKBA front-end adapters: JSON views, words, an SVG of the reconstructed map, the notice.

The kit gives the lobby, records, commands and plain-word readers what they need, and labels the
reconstruction wherever the map, counters or tables are shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.games.frontends import FrontEnds, ToText

from .engine import base_cf, odds, traces_supply, victory_points
from .rules import SIDE_NAMES, editions, hex_id, hex_index
from .state import ELIM, OFF, Battle, State

NOTICE = (
    "Reconstruction: the map, most of the order of battle, the calendar, the ten victory cities and CRT "
    "rows 3-6 of MOCKBA are lost; this game uses the reference pack's reconstruction (seed 000 rules exact)."
)
TO_MOVE = {-1: "chance", -2: "over"}


def _to_move(s: State) -> str:
    p = s.current_player()
    return TO_MOVE.get(p) or SIDE_NAMES[p]


def _factors(s: State, u: int) -> str:
    sp = s.rules.units[u]
    if s.dug >> u & 1:
        return "2-0"
    return f"{base_cf(s, u)}-{sp.mf}"


def _unit_view(s: State, u: int) -> dict[str, Any]:
    sp = s.rules.units[u]
    h = s.loc[u]
    return {
        "id": sp.id,
        "army": sp.army,
        "side": SIDE_NAMES[sp.side],
        "kind": sp.kind,
        "size": sp.size,
        "factors": _factors(s, u),
        "hex": hex_id(h) if h >= 0 else None,
        "eliminated": h == ELIM,
        "reduced": bool(s.red >> u & 1),
        "dug_in": bool(s.dug >> u & 1),
        "out_of_supply": bool(s.oos >> u & 1),
    }


def state_view(s: State) -> dict[str, Any]:
    cal = s.rules.calendar[s.turn]
    return {
        "game": "mockba",
        "edition": s.rules.edition,
        "notice": NOTICE,
        "turn": s.turn,
        "dates": cal["dates"],
        "phase": {"key": s.phase_spec.key, "name": s.phase_spec.name},
        "to_move": _to_move(s),
        "result": s.result,
        "score": victory_points(s) if s.score is None else s.score,
        "air": {"german": s.air_g, "soviet": s.air_s},
        "rail_left": s.rail_left,
        "battle": None if s.battle is None else {"target": hex_id(s.battle.target), "step": s.battle.step},
        "units": [_unit_view(s, u) for u in range(len(s.loc))],
    }


def legal_view(s: State, actions: Sequence[Any], to_text: ToText) -> dict[str, Any]:
    return {"to_move": _to_move(s), "actions": [{"text": to_text(a), "kind": a.kind} for a in actions]}


def hex_words(s: State, h: int) -> str:
    r = s.rules
    bits = [hex_id(h), r.terrain[h]]
    for name, ch in r.cities.items():
        if ch == h:
            bits.append(f"{name} (held by the {'german' if s.control >> h & 1 else 'soviet'} side)")
    if h in r.forts:
        bits.append("Soviet fortification, front " + " ".join(hex_id(x) for x in sorted(r.forts[h])))
    if r.rail_hexes >> h & 1:
        bits.append("railway (interrupted)" if s.cut >> h & 1 else "railway")
    for u in s.units_at(h):
        sp = r.units[u]
        tags = [SIDE_NAMES[sp.side], sp.kind]
        if s.red >> u & 1:
            tags.append("reduced")
        if s.dug >> u & 1:
            tags.append("dug in")
        if not traces_supply(s, u):
            tags.append("unsupplied")
        bits.append(f"{sp.id} {_factors(s, u)} ({', '.join(tags)})")
    return ", ".join(bits)


def hex_view(s: State, hid: str) -> dict[str, Any]:
    h = hex_index(hid)  # KeyError for a hex not on the map
    return {"hex": hid, "words": hex_words(s, h), "units": [s.rules.units[u].id for u in s.units_at(h)]}


_FILL = {"clear": "#efe9d2", "rough": "#a9c98f", "lake": "#9cc3e6"}


def render_map(s: State, numbers: bool) -> str:
    """The board per the kit's SVG contract (games/frontends.py): a ``<g data-hex>`` per hex,
    a ``<g class="unit">`` per counter, the reconstruction notice under the map."""
    r = s.rules
    size = 16.0
    w = math.sqrt(3) * size

    def xy(h: int) -> tuple[float, float]:
        c, row = divmod(h, r.rows)
        return 1.5 * size * c + size, w * (row + 0.5 * (c & 1)) + w

    parts = []
    for h in range(len(r.terrain)):
        x, y = xy(h)
        hid = hex_id(h)
        pts = " ".join(
            f"{x + size * math.cos(math.radians(60 * i)):.1f},{y + size * math.sin(math.radians(60 * i)):.1f}"
            for i in range(6)
        )
        parts.append(
            f'<g data-hex="{hid}" id="hex-{hid}" data-cx="{x:.1f}" data-cy="{y:.1f}" data-col="{h // r.rows + 1}" '
            f'data-row="{h % r.rows + 1}"><polygon points="{pts}" fill="{_FILL[r.terrain[h]]}" stroke="#999" '
            'stroke-width="0.5"/></g>'
        )
        label = [hid] if numbers else []
        label += [name for name, ch in r.cities.items() if ch == h]
        for i, t in enumerate(label):
            parts.append(
                f'<text x="{x:.1f}" y="{y - 6 + 8 * i:.1f}" font-size="6" text-anchor="middle">{t}</text>'
            )
    for h in sorted({x for x in s.loc if x >= 0}):
        x, y = xy(h)
        for i, u in enumerate(s.units_at(h)[:4]):
            sp = r.units[u]
            fill = "#9a9a9a" if sp.side == 0 else "#a0522d"
            parts.append(
                f'<g class="unit" data-unit="{sp.id}" data-hex="{hex_id(h)}"><rect x="{x - 7 + i:.1f}" '
                f'y="{y - 5 + i:.1f}" width="14" height="10" fill="{fill}" stroke="#222" stroke-width="0.4"/>'
                f'<text x="{x + i:.1f}" y="{y + 3 + i:.1f}" font-size="6" text-anchor="middle">{_factors(s, u)}</text></g>'
            )
    width, height = 1.5 * size * r.cols + 2 * size, w * (r.rows + 1.5) + 16
    cls = ' class="numbers"' if numbers else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{cls} viewBox="0 0 {width:.0f} {height:.0f}">'
        f'{"".join(parts)}<text x="4" y="{height - 4:.0f}" font-size="8">{NOTICE[:110]}</text></svg>'
    )


def position_words(s: State, legal: Sequence[Any], whose: str, side: int) -> list[str]:
    cal = s.rules.calendar[s.turn]
    head = (
        f"MOCKBA ({editions()[s.rules.edition]}), turn {s.turn} ({cal['dates']}), {s.phase_spec.name}; "
        f"air points German {s.air_g}, Soviet {s.air_s}; victory points now {victory_points(s)}"
    )
    lines = [NOTICE, head, f"Result: {s.result} ({s.score} points)" if s.is_terminal else whose]
    lines += [hex_words(s, h) for h in sorted({h for h in s.loc if h >= 0})]
    off = [s.rules.units[u].id for u, h in enumerate(s.loc) if h == OFF]
    if off:
        lines.append("Not yet on the map: " + ", ".join(off))
    return lines


def preview(s: State, target: str, attackers: list[str]) -> dict[str, Any]:
    try:
        h = hex_index(target)
        units = tuple(s.rules.unit_index[a] for a in attackers)
    except KeyError as exc:
        raise IllegalActionError(f"no such hex or unit: {exc}") from None
    if not s.units_at(h):
        raise IllegalActionError(f"nothing to attack on {target}")
    col, why = odds(s, Battle(h, units))
    return {"column": None if col < 0 else s.rules.columns[col], "reasons": why}


def odds_words(s: State, target: str, attackers: list[str], legal: Sequence[Any], to_text: ToText) -> str:
    p = preview(s, target, attackers)
    return f"{p['column'] or 'below 1:3 (not allowed)'}: {'; '.join(p['reasons'])}"


FRONT_ENDS = FrontEnds(
    notice=NOTICE,
    edition_title=lambda key, title: f"{title} (reconstructed map and tables)",
    edition_text=lambda key: f"MOCKBA {key}",
    state_view=state_view,
    legal_view=legal_view,
    hex_view=hex_view,
    render_map=render_map,
    turn_label=lambda rules, turn: f"T{turn} {rules.calendar[turn]['dates']}" if turn >= 1 else "set-up",
    preview=preview,
    position_words=position_words,
    hex_words=hex_words,
    odds_words=odds_words,
    ai="typhoon.games.mockba.ai",
)
