"""MOCKBA in plain words (no colour) for the terminal and for programs that read (the MCP
server): the position, a hex, a unit, the odds. Every text that shows the map or the counters
says that they are a reconstruction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import base_cf, traces_supply, victory_points
from .preview import preview
from .rules import SIDE_NAMES, Rules, editions, hex_id
from .state import ELIM, OFF, State

NOTICE = (
    "Reconstruction: the map, most of the order of battle, the calendar, the ten victory cities and CRT "
    "rows 3-6 of MOCKBA are lost; this game uses the reference pack's reconstruction (seed 000 rules exact)."
)
TO_MOVE = {-1: "chance", -2: "over"}
ToText = Any


def to_move(s: State) -> str:
    p = s.current_player()
    return TO_MOVE.get(p) or SIDE_NAMES[p]


def turn_label(rules: Rules, turn: int) -> str:
    """``T3 16-22 Oct``; ``set-up`` for turn 0 or a turn the calendar lacks."""
    if not 1 <= turn < len(rules.calendar):
        return "set-up"
    return f"T{turn} {rules.calendar[turn]['dates']}"


def edition_title(key: str, title: str) -> str:
    return f"{title} (reconstructed map and tables)"


def edition_text(key: str) -> str:
    return f"MOCKBA {editions().get(key, key)}"


def factors(s: State, u: int) -> str:
    """The counter's combat-movement factors as shown: 2-0 for a dug-in unit (seed)."""
    if s.dug >> u & 1:
        return "2-0"
    return f"{base_cf(s, u)}-{s.rules.units[u].mf}"


def unit_words(s: State, u: int) -> str:
    sp = s.rules.units[u]
    h = s.loc[u]
    if h == ELIM:
        where = "eliminated"
    elif h == OFF:
        where = f"arrives turn {sp.turn}" if sp.turn else "off the map"
    else:
        where = hex_id(h)
    tags = [SIDE_NAMES[sp.side], sp.kind, sp.size]
    if s.red >> u & 1:
        tags.append("reduced")
    if s.dug >> u & 1:
        tags.append("dug in")
    if h >= 0 and not traces_supply(s, u):
        tags.append("unsupplied")
    return f"{sp.id} {factors(s, u)} ({', '.join(tags)}), {where}"


def hex_words(s: State, h: int) -> str:
    r = s.rules
    bits = [hex_id(h), r.terrain[h]]
    for name, ch in r.cities.items():
        if ch == h:
            bits.append(f"{name} (held by the {'german' if s.control >> h & 1 else 'soviet'} side)")
    for vh, deadline, pts in r.victory:
        if vh == h:
            bits.append(f"victory city: {pts} point(s) if taken by turn {deadline}")
    if h in r.forts:
        bits.append("Soviet fortification, front " + " ".join(hex_id(x) for x in sorted(r.forts[h])))
    if r.rail_hexes >> h & 1:
        bits.append("railway (interrupted)" if s.cut >> h & 1 else "railway")
    if r.opt("opt3_bridges") == "on":
        for i, (a, b) in enumerate(r.bridges):
            if h in (a, b):
                other = hex_id(b if h == a else a)
                bits.append(f"bridge to {other}" + (" (blown)" if s.blown >> i & 1 else ""))
    for u in s.units_at(h):
        sp = r.units[u]
        tags = [SIDE_NAMES[sp.side], sp.kind]
        if s.red >> u & 1:
            tags.append("reduced")
        if s.dug >> u & 1:
            tags.append("dug in")
        if not traces_supply(s, u):
            tags.append("unsupplied")
        bits.append(f"{sp.id} {factors(s, u)} ({', '.join(tags)})")
    return ", ".join(bits)


def position_words(s: State, legal: Sequence[Any], whose: str, side: int) -> list[str]:
    r = s.rules
    head = (
        f"MOCKBA ({editions()[r.edition]}), {turn_label(r, s.turn)}, {s.phase_spec.name}; "
        f"air points German {s.air_g}, Soviet {s.air_s}; victory points now {victory_points(s)}"
    )
    lines = [NOTICE, head, f"Result: {s.result} ({s.score} points)" if s.is_terminal else whose]
    b = s.battle
    if b is not None:
        att = ", ".join(r.units[u].id for u in b.attackers) or "none yet"
        lines.append(f"Battle at {hex_id(b.target)} ({b.step}{', ' + b.result if b.result else ''}): {att}")
    lines += [hex_words(s, h) for h in sorted({h for h in s.loc if h >= 0})]
    off = [r.units[u].id for u, h in enumerate(s.loc) if h == OFF]
    if off:
        lines.append("Not yet on the map: " + ", ".join(off))
    return lines


def odds_words(s: State, target: str, attackers: list[str], legal: Sequence[Any], to_text: ToText) -> str:
    return str(preview(s, target, attackers)["text"])
