"""Moscow Attacked!'s board as SVG for the one browser client (the contract is in
:mod:`typhoon.games.frontends`): a ``<g data-hex>`` per hex, a ``<g class="unit">`` per counter,
the reconstruction notice (the map and the counter values are reconstructed) under the map."""

from __future__ import annotations

import html
import math

from .rules import ROWS, hex_id
from .state import State
from .words import NOTICE

_FILL = {"clear": "#e8e4c8", "forest": "#9cbf86", "forest_swamp": "#86a99a"}


_SIDE_FILL = ("#9aa7b8", "#d9a08a")  # German grey-blue, Soviet red-brown


def render_map(s: State, numbers: bool) -> str:
    """The board as SVG for the one browser client (games/frontends.py): a ``<g data-hex>``
    per hex, a ``<g class="unit">`` per counter, the reconstruction notice under the map."""
    r = s.rules
    size = 28.0
    w = math.sqrt(3) * size
    parts = []
    counters = []
    for h in range(len(r.terrain)):
        row_i, c = divmod(h, 10)
        row = len(ROWS) - 1 - row_i  # north up
        x = w * (c + 0.5 * (row_i % 2)) + w
        y = 1.5 * size * row + size * 1.2
        hid = hex_id(h)
        pts = " ".join(
            f"{x + size * math.cos(math.radians(60 * i - 30)):.1f},{y + size * math.sin(math.radians(60 * i - 30)):.1f}"
            for i in range(6)
        )
        inner = [f'<polygon points="{pts}" fill="{_FILL[r.terrain[h]]}" stroke="#777"/>']
        if numbers:
            inner.append(
                f'<text x="{x:.1f}" y="{y - 16:.1f}" font-size="6" text-anchor="middle">{hid}</text>'
            )
        if r.place[h]:
            held = "#333" if s.controller(h) == 0 else "#a00"
            inner.append(
                f'<text x="{x:.1f}" y="{y + 21:.1f}" font-size="6" text-anchor="middle" fill="{held}">'
                f"{html.escape(str(r.place[h])[:12])}</text>"
            )
        parts.append(
            f'<g id="hex-{hid}" data-hex="{hid}" data-cx="{x:.1f}" data-cy="{y:.1f}" data-col="{c + 1}" '
            f'data-row="{row_i + 1}">{"".join(inner)}</g>'
        )
        for k, u in enumerate(s.units_at(h)):
            sp = r.units[u]
            cx, cy = x - 11 + 4 * k, y - 9 + 4 * k
            counters.append(
                f'<g class="unit" data-unit="{html.escape(sp.id)}" data-hex="{hid}">'
                f'<rect x="{cx - 11:.1f}" y="{cy - 7:.1f}" width="22" height="14" fill="{_SIDE_FILL[sp.side]}" '
                f'stroke="#222" stroke-width="{1.2 if s.status[u] else 0.5}"/>'
                f'<text x="{cx:.1f}" y="{cy - 1:.1f}" font-size="5" text-anchor="middle">{html.escape(sp.id[:7])}</text>'
                f'<text x="{cx:.1f}" y="{cy + 5:.1f}" font-size="5" text-anchor="middle">'
                f"{sp.attack}-{sp.defense}-{sp.movement}{STATUS_MARK[s.status[u]]}</text></g>"
            )
    width, height = w * 11.5, 1.5 * size * len(ROWS) + size * 2
    cls = ' class="numbers"' if numbers else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{cls} viewBox="0 0 {width:.0f} {height + 14:.0f}" '
        f'data-r="{size:g}">'
        f"<title>{html.escape(NOTICE)}</title>{''.join(parts)}{''.join(counters)}"
        f'<text x="4" y="{height + 10:.0f}" font-size="8">{html.escape(NOTICE[:110])}</text>'
        '<g id="overlay" class="overlay" pointer-events="none"></g></svg>'
    )


STATUS_MARK = ("", " S", " D")  # ready, Spent, Dispersed
