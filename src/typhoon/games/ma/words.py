"""Moscow Attacked! in plain words (no colour) for the terminal and for programs that read (the
MCP server): the position, a hex, a unit, the odds. Every text that shows the map or the
counters says that they are a reconstruction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typhoon.errors import IllegalActionError

from .engine import GERMAN_VICTORY, SOVIET_VICTORY, bombers_based, in_supply, isolated
from .preview import preview
from .rules import GERMAN, SIDE_NAMES, SOVIET, Rules, editions, hex_id
from .state import OFF, STATUS_WORDS, State

NOTICE = (
    "Reconstruction: the map, the counter values, the terrain table and the air rules of Moscow "
    "Attacked! are lost; this game uses the reference pack's reconstruction (seed 001 rules exact)."
)
TO_MOVE = {-1: "chance", -2: "over"}


def to_move(s: State) -> str:
    p = s.current_player()
    return TO_MOVE.get(p) or SIDE_NAMES[p]


def turn_label(rules: Rules, turn: int) -> str:
    """``GT 3 (1-15 Nov 41)``; ``set-up`` for turn 0."""
    if not 1 <= turn < len(rules.dates):
        return "set-up"
    return f"GT {turn} ({rules.dates[turn]})"


def edition_title(key: str, title: str) -> str:
    return f"Moscow Attacked! — {title} (reconstructed map and counters)"


def edition_text(key: str) -> str:
    return f"Moscow Attacked! {editions().get(key, key)}"


def unit_words(s: State, u: int) -> str:
    sp = s.rules.units[u]
    if sp.is_air:
        down = ", shot down" if s.down[u] >= s.turn else ""
        used = ", flown this turn" if s.air_used >> u & 1 else ""
        base = ""
        if sp.id == "StratBomb":
            base = f", based at {hex_id(s.base)}" if s.base >= 0 else ", no base yet"
            base += "" if bombers_based(s) else " (grounded)"
        return f"{sp.id} ({SIDE_NAMES[sp.side]} air{down}{used}{base})"
    h = s.loc[u]
    where = hex_id(h) if h >= 0 else ("eliminated" if h != OFF else f"arrives turn {sp.turn}")
    bits = [SIDE_NAMES[sp.side], sp.echelon.replace("_", " "), sp.kind, STATUS_WORDS[s.status[u]]]
    if h >= 0:
        if isolated(s, u):
            bits.append("isolated")
        elif not in_supply(s, u):
            bits.append("unsupplied")
    return f"{sp.id} {sp.attack}-{sp.defense}-{sp.movement} {where} ({', '.join(bits)})"


def hex_words(s: State, h: int) -> str:
    r = s.rules
    bits = [hex_id(h), r.terrain[h].replace("_", "/")]
    if r.place[h]:
        goal = [n for n, hs in (("German", GERMAN_VICTORY), ("Soviet", SOVIET_VICTORY)) if h in hs]
        vp = f", {' and '.join(goal)} victory city" if goal else ""
        bits.append(
            f"{r.place[h]} ({r.place_class[h]}{vp}, last held by the {SIDE_NAMES[s.controller(h)]} side)"
        )
    if s.base == h:
        bits.append("Strategic Bombers' base")
    for u in s.units_at(h):
        sp = r.units[u]
        sup = "" if in_supply(s, u) else ", unsupplied"
        bits.append(
            f"{sp.id} {sp.attack}-{sp.defense}-{sp.movement} ({SIDE_NAMES[sp.side]}, {STATUS_WORDS[s.status[u]]}{sup})"
        )
    return ", ".join(bits)


def _decision(s: State, legal: Sequence[Any]) -> str:
    kinds = sorted({a.kind for a in legal})
    b = s.battle
    head = f"Battle at {hex_id(b.target)} ({b.step})" if b is not None else s.phase_spec.name
    return f"{head}: {len(legal)} legal action(s) ({', '.join(kinds)})"


def victory_words(s: State) -> str:
    def held(hs: tuple[int, ...], side: int) -> str:
        return ", ".join(f"{s.rules.place[h]} {'yes' if s.controller(h) == side else 'no'}" for h in hs)

    return (
        f"German victory cities held: {held(GERMAN_VICTORY, GERMAN)}; "
        f"Soviet (campaign, from turn 7): {held(SOVIET_VICTORY, SOVIET)}"
    )


def position_words(s: State, legal: Sequence[Any], whose: str, side: int) -> list[str]:
    r = s.rules
    head = (
        f"Moscow Attacked! ({editions()[r.edition]}), turn {s.turn} of {r.last_turn} ({r.dates[s.turn]}, "
        f"{s.weather}), {s.phase_spec.name}"
    )
    lines = [NOTICE, head]
    if s.is_terminal:
        lines.append(f"Result: {s.result}")
    else:
        lines += [whose, _decision(s, legal)]
    lines.append(victory_words(s))
    lines.append(
        f"Soviet replacement factors: {s.repl}; No Retreat! order: {s.noretreat}"
        + ("; PANIC in Moscow" if s.panic else "")
    )
    occupied = sorted({h for h in s.loc if h >= 0})
    lines += [hex_words(s, h) for h in occupied]
    off = [
        r.units[u].id
        for u, h in enumerate(s.loc)
        if h == OFF and not r.units[u].is_air and r.units[u].turn > s.turn
    ]
    if off:
        lines.append("Not yet on the map: " + ", ".join(off))
    air = [unit_words(s, u) for u, sp in enumerate(r.units) if sp.is_air and sp.turn <= s.turn]
    lines.append("Air: " + "; ".join(air))
    del side
    return lines


def odds_words(s: State, target: str, attackers: list[str], legal: Sequence[Any], to_text: Any) -> str:
    p = preview(s, target, attackers)
    if p["column"] is None:
        raise IllegalActionError(f"{' + '.join(attackers)} against {target}: below 1:5, not allowed (7.3)")
    return f"{p['title']}: " + "; ".join(p["lines"])


__all__ = [
    "NOTICE",
    "edition_text",
    "edition_title",
    "hex_words",
    "odds_words",
    "position_words",
    "to_move",
    "turn_label",
    "unit_words",
    "victory_words",
]
