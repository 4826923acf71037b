"""The map and the counters as SVG: a pure function of the state (as python-chess draws boards).

Everything is drawn from the map data of the edition in force: the hex grid (flat-topped
columns, one parity shifted down), forest, fortifications, rivers on hexsides, rail links and
their exits, cities with the side that holds them, Moscow; then the counters with side, type
(NATO symbol: oval for panzer, cross for infantry), strength and movement, a band for half
strength. Hex groups carry ``data-hex`` and their centre so the browser can highlight and
click them; each hex and counter has a ``<title>`` in words (tooltips and screen readers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from typhoon.games.bfm.webview import hex_words, side_name, unit_words

R = 40.0  # hex circumradius in SVG units
MARGIN = 8.0
SQ3 = math.sqrt(3.0)
COUNTER = 40.0

STYLE = """
.bfm-map { font-family: 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif; }
.bfm-map .terrain { stroke: #6d6a5f; stroke-width: 1; }
.bfm-map .clear { fill: #f3ecd2; }
.bfm-map .forest { fill: #9fc98a; }
.bfm-map .tree { fill: #4f8a3c; opacity: .55; }
.bfm-map .fort { fill: none; stroke: #8b3a1a; stroke-width: 3; stroke-dasharray: 6 3; }
.bfm-map .river { stroke: #2a6bd1; stroke-width: 5; stroke-linecap: round; }
.bfm-map .rail { stroke: #2b2b2b; stroke-width: 4; }
.bfm-map .railtie { stroke: #f3ecd2; stroke-width: 2; stroke-dasharray: 5 5; }
.bfm-map .hexnum { font-size: 8.5px; fill: #4a473f; text-anchor: middle; display: none; }
.bfm-map.numbers .hexnum { display: inline; }
.bfm-map .citydot.german { fill: #3c4650; }
.bfm-map .citydot.soviet { fill: #b3261e; }
.bfm-map .citylabel rect.german { fill: #3c4650; }
.bfm-map .citylabel rect.soviet { fill: #b3261e; }
.bfm-map .citylabel text { font-size: 9px; fill: #fff; text-anchor: middle; font-weight: bold; }
.bfm-map .citylabel { pointer-events: none; }
.bfm-map .ctr { stroke: #111; stroke-width: 1.2; }
.bfm-map .unit.german .ctr { fill: #aab4a0; }
.bfm-map .unit.soviet .ctr { fill: #b5462f; }
.bfm-map .unit.german text { fill: #111; }
.bfm-map .unit.soviet text { fill: #fff; }
.bfm-map .unit .uid { font-size: 10px; text-anchor: middle; font-weight: bold; }
.bfm-map .unit .sm { font-size: 12.5px; text-anchor: middle; font-weight: bold; }
.bfm-map .unit .sym { fill: none; stroke-width: 1.4; }
.bfm-map .unit.german .sym { stroke: #111; }
.bfm-map .unit.soviet .sym { stroke: #fff; }
.bfm-map .unit .halfband { fill: #fff; opacity: .85; }
.bfm-map .unit.half .uid { fill: #111; }
.bfm-map .unit.done .ctr { opacity: .6; }
.bfm-map .unit.done .donemark { display: inline; }
.bfm-map .donemark { display: none; fill: #111; stroke: #fff; stroke-width: 1; }
.bfm-map .exit { stroke: #2b2b2b; stroke-width: 4; stroke-dasharray: 2 3; }
.bfm-map .edge { fill: none; stroke-width: 4; stroke-opacity: .75; stroke-linejoin: round; }
.bfm-map .edge.soviet { stroke: #b3261e; stroke-dasharray: 9 4; }
.bfm-map .edge.german { stroke: #3c4650; stroke-dasharray: 9 4; }
"""


class Layout:
    """Pixel geometry of a hex grid: centres and corners of flat-topped hexes."""

    def __init__(self, grid: Any, r: float = R, margin: float = MARGIN):
        self.grid = grid
        self.r = r
        self.margin = margin
        self.centres: dict[int, tuple[float, float]] = {}
        for h in grid.hexes:
            c, row = grid.coords[h]
            low = (c % 2 == 0) == (grid.shifted_down == "even")
            x = margin + r + (c - 1) * 1.5 * r
            y = margin + SQ3 / 2 * r + (row - 1) * SQ3 * r + (SQ3 / 2 * r if low else 0.0)
            self.centres[h] = (x, y)
        xs = [x for x, _ in self.centres.values()]
        ys = [y for _, y in self.centres.values()]
        self.width = max(xs) + r + margin
        self.height = max(ys) + SQ3 / 2 * r + margin

    def corners(self, h: int, scale: float = 1.0) -> list[tuple[float, float]]:
        x, y = self.centres[h]
        rr = self.r * scale
        return [
            (x + rr * math.cos(math.radians(60 * k)), y + rr * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]

    def shared_side(self, a: int, b: int) -> tuple[tuple[float, float], tuple[float, float]] | None:
        cb = self.corners(b)
        pts = [
            p for p in self.corners(a) if any(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01 for q in cb)
        ]
        return (pts[0], pts[1]) if len(pts) == 2 else None


def _pts(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _f(v: float) -> str:
    return f"{v:.1f}"


@dataclass(frozen=True)
class _Static:
    """The parts of the board that depend only on the map (computed once per map)."""

    layout: Layout
    hex_open: dict[int, str]  # '<g class="hex" ...>' up to the title
    hex_body: dict[int, str]  # terrain, trees, fortification, number, '</g>'
    lines: str  # rails, exits and rivers


@lru_cache(maxsize=8)
def _static(m: Any) -> _Static:
    grid = m.grid
    lay = Layout(grid)
    ids = grid.ids
    hex_open: dict[int, str] = {}
    hex_body: dict[int, str] = {}
    for h in grid.hexes:
        x, y = lay.centres[h]
        hid = ids[h]
        terrain = "forest" if m.is_forest(h) else "clear"
        col, row = grid.coords[h]
        hex_open[h] = (
            f'<g class="hex" id="hex-{hid}" data-hex="{hid}" data-cx="{_f(x)}" data-cy="{_f(y)}" '
            f'data-col="{col}" data-row="{row}">'
        )
        body = [f'<polygon class="terrain {terrain}" points="{_pts(lay.corners(h))}"/>']
        if terrain == "forest":
            for ox, oy in ((-20, -8), (18, -6), (-8, 14), (14, 16), (0, -20)):
                tx, ty = x + ox, y + oy
                body.append(
                    f'<polygon class="tree" points="{_f(tx)},{_f(ty - 6)} {_f(tx - 4.5)},{_f(ty + 4)} {_f(tx + 4.5)},{_f(ty + 4)}"/>'
                )
        if m.is_fortification(h):
            body.append(f'<polygon class="fort" points="{_pts(lay.corners(h, 0.84))}"/>')
        body.append(f'<text class="hexnum" x="{_f(x)}" y="{_f(y + SQ3 / 2 * R - 3)}">{hid}</text></g>')
        hex_body[h] = "".join(body)
    out: list[str] = []
    # Each side's map-edge hexes (where its replacements enter), inset outlines in the side's
    # colour: issue 15, the VPG edition's Soviet edge runs along the map's corners too.
    out.append('<g class="edges" pointer-events="none">')
    for who in ("german", "soviet"):
        for h in sorted(m.edges[who]):
            out.append(
                f'<polygon class="edge {who}" data-edge="{ids[h]}" points="{_pts(lay.corners(h, 0.86))}"/>'
            )
    out.append("</g>")
    # Rail lines (centre to centre) and exits off the map.
    out.append('<g class="rails" pointer-events="none">')
    segs = []
    for a, b in m.rail:
        (x1, y1), (x2, y2) = lay.centres[a], lay.centres[b]
        segs.append((x1, y1, x2, y2))
    for h, direction in m.rail_exits:
        x, y = lay.centres[h]
        dx, dy = {
            "west": (-R, 0.0),
            "east": (R, 0.0),
            "north": (0.0, -SQ3 / 2 * R),
            "south": (0.0, SQ3 / 2 * R),
        }.get(direction, (0.0, 0.0))
        out.append(f'<line class="exit" x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + dx)}" y2="{_f(y + dy)}"/>')
    for x1, y1, x2, y2 in segs:
        out.append(f'<line class="rail" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}"/>')
    for x1, y1, x2, y2 in segs:
        out.append(f'<line class="railtie" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}"/>')
    out.append("</g>")
    # Rivers on hexsides.
    out.append('<g class="rivers" pointer-events="none">')
    for a, b in m.rivers:
        side = lay.shared_side(a, b)
        if side is None:
            continue
        (x1, y1), (x2, y2) = side
        out.append(f'<line class="river" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}"/>')
    out.append("</g>")
    return _Static(lay, hex_open, hex_body, "".join(out))


def render_map(state: Any, *, numbers: bool = False, label: str | None = None) -> str:
    """The whole board as one standalone SVG document (a string)."""
    rules = state.rules
    m = rules.map
    grid = m.grid
    st = _static(m)
    lay = st.layout
    ids = grid.ids
    out: list[str] = []
    cls = "bfm-map numbers" if numbers else "bfm-map"
    aria = label or f"Map of {rules.title}"
    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" viewBox="0 0 {_f(lay.width)} {_f(lay.height)}" '
        f'data-r="{R:g}" role="group" aria-label={quoteattr(aria)}>'
    )
    out.append(f"<style>{STYLE}</style>")
    out.append(
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#7b1fa2"/></marker></defs>'
    )
    # Hexes: terrain, fortification, number, and the hex in words.
    out.append('<g class="hexes">')
    for h in grid.hexes:
        out.append(st.hex_open[h])
        out.append(f"<title>{escape(hex_words(state, h))}</title>")
        out.append(st.hex_body[h])
    out.append("</g>")
    out.append(st.lines)
    # Cities: a dot in the centre (hidden under a counter) and a label at the top of the hex.
    out.append('<g class="cities" pointer-events="none">')
    for i, c in enumerate(m.cities):
        x, y = lay.centres[c.hex]
        holder = side_name(state.controller(i))
        moscow = m.is_moscow(c.hex)
        size = 9.0 if moscow else 6.0
        out.append(
            f'<rect class="citydot {holder}" x="{_f(x - size)}" y="{_f(y - size)}" '
            f'width="{_f(2 * size)}" height="{_f(2 * size)}" rx="{2 if moscow else 1}"/>'
        )
        name = ("\u2605 " if moscow else "") + c.name
        w = 6.2 * len(name) + 8
        out.append(
            f'<g class="citylabel"><rect class="{holder}" x="{_f(x - w / 2)}" y="{_f(y - SQ3 / 2 * R + 1.5)}" '
            f'width="{_f(w)}" height="12" rx="3"/>'
            f'<text x="{_f(x)}" y="{_f(y - SQ3 / 2 * R + 10.8)}">{escape(name)}</text></g>'
        )
    out.append("</g>")
    # Counters.
    out.append('<g class="units">')
    for h in grid.hexes:
        for k, u in enumerate(state.units_at(h)):
            x, y = lay.centres[h]
            out.append(_counter(state, u, ids[h], x + 6 * k, y - 0.5 - 6 * k))
    out.append("</g>")
    out.append('<g id="overlay" class="overlay" pointer-events="none"></g>')
    out.append("</svg>")
    return "".join(out)


def _counter(state: Any, u: int, hid: str, x: float, y: float) -> str:
    spec = state.rules.units[u]
    steps = state.steps[u]
    side = side_name(spec.side)
    kind = "panzer" if spec.panzer else "infantry"
    strength = "full" if steps == 2 else "half"
    done = " done" if (state.done >> u) & 1 else ""
    s = COUNTER / 2
    parts = [
        f'<g class="unit {side} {kind} {strength}{done}" data-unit={quoteattr(spec.id)} data-hex="{hid}" '
        f'transform="translate({_f(x)},{_f(y)})">',
        f"<title>{escape(unit_words(state, u))}</title>",
        f'<rect class="ctr" x="{-s}" y="{-s}" width="{COUNTER}" height="{COUNTER}" rx="4"/>',
    ]
    if steps == 1:
        parts.append(
            f'<rect class="halfband" x="{-s + 1}" y="{-s + 1}" width="{COUNTER - 2}" height="11" rx="3"/>'
        )
    parts.append(f'<text class="uid" y="{-s + 10}" x="0">{escape(spec.id)}</text>')
    # NATO symbol: a box with an oval (armour) or a cross (infantry).
    parts.append('<rect class="sym" x="-11" y="-8" width="22" height="13"/>')
    if spec.panzer:
        parts.append('<ellipse class="sym" cx="0" cy="-1.5" rx="7" ry="4"/>')
    else:
        parts.append('<path class="sym" d="M-11,-8 L11,5 M-11,5 L11,-8"/>')
    parts.append(f'<text class="sm" y="{s - 3}" x="0">{spec.strength(steps)}-{spec.move}</text>')
    parts.append(f'<circle class="donemark" cx="{s - 4}" cy="{-s + 4}" r="3.5"/>')
    parts.append("</g>")
    return "".join(parts)
