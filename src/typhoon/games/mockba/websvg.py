"""The MOCKBA board as SVG for the one browser client (games/frontends.py), in two layers so the
1,320 hexes of the reconstructed 33 x 40 map are sent once:

- the static map (terrain, rivers on their hexsides, the railways and the Minsk-Moscow highway
  from hex centre to hex centre, the Soviet fortifications, the city names), cached per ruleset;
- the dynamic layer (every counter, interrupted railway hexes, German-held cities), redrawn for
  each position and swapped by the client into ``<g id="layer">`` (the state view's ``layer``).

The reconstruction notice is the SVG's title and is printed under the map.
"""

from __future__ import annotations

import html
import math
from functools import cache

from .rules import Rules, hex_id
from .state import State
from .words import NOTICE, factors

SIZE = 16.0
W = math.sqrt(3) * SIZE
_FILL = {"clear": "#efe9d2", "rough": "#a9c98f", "lake": "#9cc3e6"}
_SIDE_FILL = ("#9a9a9a", "#a0522d")  # German grey, Soviet brown (seed)


def xy(r: Rules, h: int) -> tuple[float, float]:
    """The centre of hex h: flat-topped hexes, even columns (1-based) half a hex lower."""
    c, row = divmod(h, r.rows)
    return 1.5 * SIZE * c + SIZE, W * (row + 0.5 * (c & 1)) + W


def _hexside(r: Rules, a: int, b: int) -> tuple[float, float, float, float]:
    (xa, ya), (xb, yb) = xy(r, a), xy(r, b)
    mx, my = (xa + xb) / 2, (ya + yb) / 2
    dx, dy = xb - xa, yb - ya
    n = math.hypot(dx, dy) or 1.0
    px, py = -dy / n * SIZE / 2, dx / n * SIZE / 2
    return mx - px, my - py, mx + px, my + py


@cache
def static_map(r: Rules, numbers: bool) -> str:
    parts = []
    for h in range(len(r.terrain)):
        x, y = xy(r, h)
        hid = hex_id(h)
        pts = " ".join(
            f"{x + SIZE * math.cos(math.radians(60 * i)):.1f},{y + SIZE * math.sin(math.radians(60 * i)):.1f}"
            for i in range(6)
        )
        stroke = (
            ' stroke="#2a5db0" stroke-width="1.6"' if h in r.forts else ' stroke="#999" stroke-width="0.5"'
        )
        parts.append(
            f'<g data-hex="{hid}" id="hex-{hid}" data-cx="{x:.1f}" data-cy="{y:.1f}" data-col="{h // r.rows + 1}" '
            f'data-row="{h % r.rows + 1}"><polygon points="{pts}" fill="{_FILL[r.terrain[h]]}"{stroke}/></g>'
        )
    lines = []
    for a, ns in r.rail_links.items():
        for b in ns:
            if a < b:
                (x1, y1), (x2, y2) = xy(r, a), xy(r, b)
                lines.append(
                    f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#222" stroke-width="1"/>'
                )
    for a, b in sorted(r.road):
        (x1, y1), (x2, y2) = xy(r, a), xy(r, b)
        lines.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#8b5a2b" stroke-width="2" '
            'stroke-dasharray="3 2"/>'
        )
    for a, b in sorted(r.rivers):
        x1, y1, x2, y2 = _hexside(r, a, b)
        lines.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#3b7fd1" stroke-width="2"/>'
        )
    if r.opt("opt3_bridges") == "on":  # optional rule 3: the bridges marked on the map (seed)
        for a, b in r.bridges:
            (xa, ya), (xb, yb) = xy(r, a), xy(r, b)
            lines.append(
                f'<circle class="bridge" cx="{(xa + xb) / 2:.1f}" cy="{(ya + yb) / 2:.1f}" r="2.2" fill="#fff" '
                'stroke="#222" stroke-width="0.8"/>'
            )
    labels = []
    for h in range(len(r.terrain)):
        x, y = xy(r, h)
        text = [hex_id(h)] if numbers else []
        text += [name for name, ch in r.cities.items() if ch == h]
        for i, t in enumerate(text):
            labels.append(
                f'<text x="{x:.1f}" y="{y - 6 + 8 * i:.1f}" font-size="6" text-anchor="middle">{html.escape(t)}</text>'
            )
    return (
        f'<g id="static">{"".join(parts)}<g pointer-events="none">{"".join(lines)}{"".join(labels)}</g></g>'
    )


def render_layer(s: State) -> str:
    """The dynamic layer: interrupted railway hexes, blown bridges, German-held cities, every counter."""
    r = s.rules
    parts = []
    cut = s.cut
    while cut:
        low = cut & -cut
        x, y = xy(r, low.bit_length() - 1)
        parts.append(
            f'<text x="{x:.1f}" y="{y + 12:.1f}" font-size="8" text-anchor="middle" fill="#c00">X</text>'
        )
        cut ^= low
    blown = s.blown
    while blown:  # explosion markers on blown bridges (seed: blown bridge markers)
        low = blown & -blown
        a, b = r.bridges[low.bit_length() - 1]
        (xa, ya), (xb, yb) = xy(r, a), xy(r, b)
        parts.append(
            f'<text class="blown" x="{(xa + xb) / 2:.1f}" y="{(ya + yb) / 2 + 3:.1f}" font-size="9" '
            'text-anchor="middle" fill="#c00">*</text>'
        )
        blown ^= low
    for h in r.cities.values():
        if s.control >> h & 1:
            x, y = xy(r, h)
            parts.append(f'<circle cx="{x + 9:.1f}" cy="{y - 9:.1f}" r="2.5" fill="#333"/>')
    for h in sorted({x for x in s.loc if x >= 0}):
        x, y = xy(r, h)
        for i, u in enumerate(s.units_at(h)):
            sp = r.units[u]
            edge = "#c00" if s.oos >> u & 1 else "#222"
            parts.append(
                f'<g class="unit" data-unit="{html.escape(sp.id)}" data-hex="{hex_id(h)}"><rect x="{x - 7 + i:.1f}" '
                f'y="{y - 5 + i:.1f}" width="14" height="10" fill="{_SIDE_FILL[sp.side]}" stroke="{edge}" '
                f'stroke-width="0.4"/><text x="{x + i:.1f}" y="{y + 3 + i:.1f}" font-size="6" '
                f'text-anchor="middle">{factors(s, u)}</text></g>'
            )
    return "".join(parts)


def render_map(s: State, numbers: bool) -> str:
    """The whole board: the static map, the layer of this position, the notice."""
    r = s.rules
    width, height = 1.5 * SIZE * r.cols + 2 * SIZE, W * (r.rows + 1.5) + 16
    cls = ' class="numbers"' if numbers else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{cls} viewBox="0 0 {width:.0f} {height:.0f}" data-r="{SIZE:.0f}">'
        f'<title>{html.escape(NOTICE)}</title>{static_map(r, numbers)}<g id="layer">{render_layer(s)}</g>'
        f'<text x="4" y="{height - 4:.0f}" font-size="8">{html.escape(NOTICE[:110])}</text><g id="overlay"/></svg>'
    )
