"""The Moscow Campaign map and counters as SVG, for the browser.

4,914 hexes must stay light and fast, so the board is two layers:

- the static layer (terrain, hexsides, rail, cities, the scenario's start line, the
  RECONSTRUCTION label), a few long ``<path>`` elements built once per map and start line
  and cached;
- the dynamic layer (rail destroyed or repaired, counters), small, redrawn for each position
  (:func:`render_overlay`; the browser swaps it into ``<g id="layer">``).

Hexes carry no DOM elements of their own: the browser turns a click into a hex with the
grid the ``<svg>`` declares (``data-grid="columns"``, ``data-r``, ``data-x0``, ``data-y0``,
``data-cols``, ``data-rows``: games/frontends.py), and pans and zooms by changing the ``viewBox``. Ideas from games/tmc/mapsvg.py (the MAP helper's inspection SVG).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from typhoon import hexdraw
from typhoon.games.tmc.words import RECONSTRUCTION

R = 20.0  # hex circumradius (SVG units)
GEOGRAPHY = Path(__file__).parent / "data" / "geography.json"


@lru_cache(maxsize=1)
def _major_towns() -> frozenset[str]:
    """The cities of geography.json (not its towns): the names the whole-map view keeps (the
    client marks a far-out view ``data-far``, games/frontends.py)."""
    data = json.loads(GEOGRAPHY.read_text(encoding="utf-8"))
    return frozenset(c["name"] for c in data["cities"] if c.get("kind") == "city")


H = R * math.sqrt(3) / 2  # half the hex height
MARGIN = 14.0
TOP = 34.0  # room for the reconstruction label above the map
CTR = 22.0  # counter side

STYLE = """
.tmc-map { font-family: 'DejaVu Sans', Arial, sans-serif; background: #f6f2e4; }
.tmc-map .hexgrid { fill: #f4f0e0; stroke: #cfc8b0; stroke-width: .6; }
.tmc-map .forest { fill: #b5d69a; stroke: none; }
.tmc-map .lake { fill: #9cc9e6; stroke: none; }
.tmc-map .moscow { fill: #e9a08c; stroke: none; }
.tmc-map .river { stroke: #2a6bd1; stroke-width: 2.2; fill: none; stroke-linecap: round; }
.tmc-map .lakeside { stroke: #1b4f8a; stroke-width: 3; fill: none; }
.tmc-map .dline { stroke: #7b2cbf; stroke-width: 2.4; fill: none; stroke-dasharray: 5 2; }
.tmc-map .rail { stroke: #333; stroke-width: 1.6; fill: none; }
.tmc-map .startline { stroke: #d62728; stroke-width: 2; fill: none; opacity: .55; stroke-dasharray: 8 4; }
.tmc-map .city { fill: #222; }
.tmc-map .cityname { font-size: 6px; fill: #222; pointer-events: none; }
.tmc-map .cityname.big { font-size: 8px; font-weight: bold; }
.tmc-map[data-far] .unit text, .tmc-map[data-far] .badge, .tmc-map[data-far] .count,
.tmc-map[data-far] .cityname { display: none; }
.tmc-map[data-far] .cityname.major { display: inline; font-size: calc(var(--px, 1) * 13px); font-weight: bold;
  paint-order: stroke; stroke: #fff; stroke-width: calc(var(--px, 1) * 3px); }
.tmc-map .recon { font-size: 15px; font-weight: bold; fill: #a4161a; }
.tmc-map .recon-sub { font-size: 9px; fill: #a4161a; }
.tmc-map .raildead { stroke: #c1121f; stroke-width: 1.4; }
.tmc-map .railger { fill: #555; }
.tmc-map .ctr { stroke: #111; stroke-width: .7; }
.tmc-map .unit.german .ctr { fill: #b7bfa5; }
.tmc-map .unit.soviet .ctr { fill: #c0503a; }
.tmc-map .unit text { text-anchor: middle; pointer-events: none; }
.tmc-map .unit.german text { fill: #111; }
.tmc-map .unit.soviet text { fill: #fff; }
.tmc-map .unit .uid { font-size: 4.6px; }
.tmc-map .unit .cfma { font-size: 6.4px; font-weight: bold; }
.tmc-map .unit .sym { fill: none; stroke-width: .7; }
.tmc-map .unit.german .sym { stroke: #111; }
.tmc-map .unit.soviet .sym { stroke: #fff; }
.tmc-map .unit.flipped .ctr { fill-opacity: .45; stroke-dasharray: 2 1; }
.tmc-map .unit.moved .ctr { stroke-width: 1.4; stroke: #ffd400; }
.tmc-map .badge { font-size: 4.6px; font-weight: bold; }
.tmc-map .badge-bg { stroke: #111; stroke-width: .4; }
.tmc-map .badge-bg.dis { fill: #ffd400; }
.tmc-map .badge-bg.ent { fill: #fff; }
.tmc-map .badge-bg.kg { fill: #fff; }
.tmc-map .unit .badge { fill: #111; }
.tmc-map .count { font-size: 5px; font-weight: bold; fill: #fff; text-anchor: middle; }
.tmc-map .countbg { fill: #111; }
.tmc-map .hl { stroke-width: 1.4; pointer-events: none; }
.tmc-map .hl.reach { fill: #ffd400; fill-opacity: .45; stroke: #b08800; stroke-width: 1; }
.tmc-map .hl.k-railmove { fill: #4cc9f0; stroke: #0077b6; }
.tmc-map .hl.sel, .tmc-map .hl.target { fill: #7b1fa2; fill-opacity: .3; stroke: #7b1fa2; }
.tmc-map .hl.movable, .tmc-map .hl.act { fill: none; stroke: #ff7b00; stroke-width: 2.2; stroke-dasharray: none; }
.tmc-map .hl.focus { fill: none; stroke: #000; stroke-width: 1.6; }
"""


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


class TmcLayout:
    """Centres of the flat-topped hexes: 1-based even columns half a hex lower."""

    def __init__(self, grid: Any):
        self.grid = grid
        self.x0 = MARGIN + R
        self.y0 = TOP + MARGIN + H
        self.centres: dict[int, tuple[float, float]] = {}
        for h in grid.hexes:
            c, r = grid.coords[h]
            x = self.x0 + (c - 1) * 1.5 * R
            y = self.y0 + (r - 1) * 2 * H + (H if c % 2 == 0 else 0.0)
            self.centres[h] = (x, y)
        self.width = self.x0 + (grid.columns - 1) * 1.5 * R + R + MARGIN
        self.height = self.y0 + max(grid.rows_odd, grid.rows_even) * 2 * H + MARGIN

    def hexes_path(self, hexes: Any) -> str:
        """One path outlining every hex in ``hexes`` (relative moves keep it short)."""
        out = []
        for h in hexes:
            x, y = self.centres[h]
            out.append(f"M{_f(x - R)} {_f(y)}l10-17.3h20l10 17.3-10 17.3h-20z")
        return "".join(out)

    def corner(self, h: int, k: int) -> tuple[float, float]:
        return hexdraw.corner(*self.centres[h], R, k)

    def side(self, a: int, b: int) -> str:
        """The hexside shared by ``a`` and ``b`` as a path segment."""
        (x1, y1), (x2, y2) = hexdraw.side_towards(*self.centres[a], R, *self.centres[b])
        return f"M{_f(x1)} {_f(y1)}L{_f(x2)} {_f(y2)}"


assert abs(H - 17.3205) < 1e-3 and R == 20.0  # hexes_path hard-codes these steps


@lru_cache(maxsize=4)
def layout(grid: Any) -> TmcLayout:
    return TmcLayout(grid)


@lru_cache(maxsize=8)
def static_layer(game_map: Any, start_line: str) -> str:
    """Terrain, hexsides, rail, cities, the start line in force, the reconstruction label."""
    m = game_map
    grid = m.grid
    lay = layout(grid)
    out = [f'<path class="hexgrid" d="{lay.hexes_path(grid.hexes)}"/>']
    forest = [h for h in grid.hexes if m.is_forest(h) and not (m.lake_hexes >> h) & 1]
    lakes = [h for h in grid.hexes if (m.lake_hexes >> h) & 1]
    out.append(f'<path class="forest" d="{lay.hexes_path(forest)}"/>')
    out.append(f'<path class="lake" d="{lay.hexes_path(lakes)}"/>')
    out.append(f'<path class="moscow" d="{lay.hexes_path(m.moscow)}"/>')
    out.append(f'<path class="river" d="{"".join(lay.side(a, b) for a, b in m.river_sides)}"/>')
    out.append(f'<path class="lakeside" d="{"".join(lay.side(a, b) for a, b in m.lake_sides)}"/>')
    dl = "".join(lay.side(o, i) for line in m.defence_lines for o, i in line.sides)
    out.append(f'<path class="dline" d="{dl}"/>')
    rail = []
    for a, b in m.rail_links:
        (x1, y1), (x2, y2) = lay.centres[a], lay.centres[b]
        rail.append(f"M{_f(x1)} {_f(y1)}L{_f(x2)} {_f(y2)}")
    out.append(f'<path class="rail" d="{"".join(rail)}"/>')
    line = m.start_lines.get(start_line, ())
    if line:
        pts = "L".join(f"{_f(lay.centres[h][0])} {_f(lay.centres[h][1])}" for h in line)
        out.append(
            f'<path class="startline" d="M{pts}"><title>{escape(start_line)} start line</title></path>'
        )
    dots = []
    names = []
    for h, name in sorted(m.cities.items()):
        x, y = lay.centres[h]
        dots.append(f"M{_f(x - 1.8)} {_f(y)}a1.8 1.8 0 1 0 3.6 0a1.8 1.8 0 1 0-3.6 0z")
        if (m.moscow_mask >> h) & 1 and h != m.moscow[0]:
            continue
        big = " big" if (m.moscow_mask >> h) & 1 else ""
        if name in _major_towns() or big:
            big += " major"
        names.append(
            f'<text class="cityname{big}" x="{_f(x - R * 0.8)}" y="{_f(y - H * 0.55)}">{escape(name)}</text>'
        )
    out.append(f'<path class="city" d="{"".join(dots)}"/>')
    out.append('<g class="citynames">' + "".join(names) + "</g>")
    out.append(
        f'<text class="recon" x="{_f(MARGIN)}" y="{_f(MARGIN + 12)}">RECONSTRUCTION \u2014 not the SPI 1972 map or '
        "counters</text>"
        f'<text class="recon-sub" x="{_f(MARGIN)}" y="{_f(MARGIN + 24)}">{escape(RECONSTRUCTION)}</text>'
    )
    return "".join(out)


KIND_SYMBOL = {
    "armour": '<rect class="sym" x="-6" y="-4.5" width="12" height="7"/><ellipse class="sym" cx="0" cy="-1" rx="4" ry="2.2"/>',
    "motorised": '<rect class="sym" x="-6" y="-4.5" width="12" height="7"/><path class="sym" d="M-6-4.5L6 2.5M-6 2.5L6-4.5"/>'
    '<circle class="sym" cx="-3.2" cy="1.3" r=".7"/><circle class="sym" cx="3.2" cy="1.3" r=".7"/>',
    "infantry": '<rect class="sym" x="-6" y="-4.5" width="12" height="7"/><path class="sym" d="M-6-4.5L6 2.5M-6 2.5L6-4.5"/>',
    "cavalry": '<rect class="sym" x="-6" y="-4.5" width="12" height="7"/><path class="sym" d="M-6 2.5L6-4.5"/>',
    "eb": '<rect class="sym" x="-6" y="-4.5" width="12" height="7"/><path class="sym" d="M-6-1h12M-3-4.5v7M3-4.5v7"/>',
}


def _symbol(kind: str, eb: bool) -> str:
    if eb:
        return KIND_SYMBOL["eb"]
    k = kind.lower()
    if k in ("armour", "armor", "panzer", "tank", "kg"):
        return KIND_SYMBOL["armour"]
    if k.startswith("motor") or k.startswith("mech"):
        return KIND_SYMBOL["motorised"]
    if k.startswith("cav"):
        return KIND_SYMBOL["cavalry"]
    return KIND_SYMBOL["infantry"]


def cf_form(state: Any, u: int) -> str:
    spec = state.rules.units[u]
    cf = state.cf(u)
    return f"({cf})" if spec.eb else (f"[{cf}]" if spec.bracket else str(cf))


def _counter(state: Any, u: int, hid: str, x: float, y: float) -> str:
    spec = state.rules.units[u]
    side = "german" if spec.side == 0 else "soviet"
    kg = bool((state.kg >> u) & 1)
    flags = []
    if (state.flipped >> u) & 1:
        flags.append("flipped")
    if u in state.spent:
        flags.append("moved")
    if u in state.disrupted:
        flags.append("disrupted")
    if (state.entrained >> u) & 1:
        flags.append("entrained")
    s = CTR / 2
    cls = " ".join([side, *flags])
    label = "KG" + spec.id[1:] if kg else spec.id[1:] if spec.id[:1] in "GS" else spec.id
    parts = [
        f'<g class="unit {cls}" data-unit={quoteattr(spec.id)} data-hex="{hid}" transform="translate({_f(x)},{_f(y)})">',
        f'<rect class="ctr" x="{-s}" y="{-s}" width="{CTR}" height="{CTR}" rx="1.5"/>',
        f'<text class="uid" y="{_f(-s + 5)}">{escape(label[:9])}</text>',
        _symbol("kg" if kg else spec.kind, spec.eb),
        f'<text class="cfma" y="{_f(s - 2)}">{escape(cf_form(state, u))}-{state.ma(u)}</text>',
    ]
    badges = []
    if "disrupted" in flags:
        badges.append(("dis", "D"))
    if "entrained" in flags:
        badges.append(("ent", "T"))
    for i, (b, letter) in enumerate(badges):
        bx = s - 2.6 - i * 5.2
        parts.append(
            f'<circle class="badge-bg {b}" cx="{_f(bx)}" cy="{_f(-s + 2.6)}" r="2.4"/>'
            f'<text class="badge" x="{_f(bx)}" y="{_f(-s + 4.2)}">{letter}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def render_overlay(state: Any) -> str:
    """The dynamic layer: rail destroyed or German-repaired, and every counter on the map
    (stacks of up to 3 drawn fanned out, the first on top-left, with a count badge)."""
    rules = state.rules
    m = rules.map
    grid = m.grid
    lay = layout(grid)
    ids = grid.ids
    out = []
    dead = rules.rail_mask & ~(state.rail_normal | state.rail_german | state.rail_soviet)
    marks = []
    rep = []
    mask = dead | state.rail_german
    while mask:
        low = mask & -mask
        h = low.bit_length() - 1
        mask ^= low
        x, y = lay.centres[h]
        if (dead >> h) & 1:
            marks.append(f"M{_f(x - 3)} {_f(y - 3)}l6 6m0-6l-6 6")
        else:
            rep.append(f"M{_f(x - 1.6)} {_f(y - 1.6)}h3.2v3.2h-3.2z")
    if marks:
        out.append(f'<path class="raildead" d="{"".join(marks)}"><title>destroyed rail</title></path>')
    if rep:
        out.append(f'<path class="railger" d="{"".join(rep)}"><title>German-repaired rail</title></path>')
    out.append('<g class="units">')
    for h in sorted(state.stacks):
        us = state.stacks[h]
        x, y = lay.centres[h]
        n = len(us)
        for k in range(n - 1, -1, -1):  # the first unit of the stack is drawn last, on top
            out.append(_counter(state, us[k], ids[h], x - 1.5 + 3 * k, y - 1.5 + 3 * k))
        if n > 1:
            out.append(
                f'<circle class="countbg" cx="{_f(x + 10.5)}" cy="{_f(y - 10.5)}" r="3.2"/>'
                f'<text class="count" x="{_f(x + 10.5)}" y="{_f(y - 8.8)}">{n}</text>'
            )
    out.append("</g>")
    return "".join(out)


def render_map(state: Any, *, numbers: bool = False) -> str:
    """The whole board as one standalone SVG document. ``numbers`` is accepted for the uniform
    API; hex ids are shown by the browser under the pointer instead of 4,914 labels."""
    rules = state.rules
    grid = rules.grid
    lay = layout(grid)
    aria = f"Map of The Moscow Campaign, scenario {rules.edition} (RECONSTRUCTION)"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tmc-map" viewBox="0 0 {_f(lay.width)} {_f(lay.height)}" '
        f'data-grid="columns" data-r="{R:g}" data-x0="{_f(lay.x0)}" data-y0="{_f(lay.y0)}" data-cols="{grid.columns}" '
        f'data-rows="{max(grid.rows_odd, grid.rows_even)}" data-width="{_f(lay.width)}" data-height="{_f(lay.height)}" '
        f'role="img" aria-label={quoteattr(aria)}>'
        f"<style>{STYLE}</style>"
        f'<g id="static">{static_layer(rules.map, rules.start_line)}</g>'
        f'<g id="layer">{render_overlay(state)}</g>'
        '<g id="overlay" class="overlay" pointer-events="none"></g>'
        "</svg>"
    )
