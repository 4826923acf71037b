"""Moscow Attacked! front-end adapters: JSON views, words, an SVG of the reconstructed map.

Neither browser client page nor the terminal session knows this game's views yet (issue 12
stage 2): the kit gives the lobby, records, commands and plain-word readers what they need, and
labels the reconstruction wherever the map and counters are shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.games.frontends import FrontEnds, ToText

from .engine import in_supply, odds
from .rules import ROWS, SIDE_NAMES, editions, hex_id, hex_index
from .state import ELIM, OFF, STATUS_WORDS, Battle, State

NOTICE = (
    "Reconstruction: the map, the counter values, the terrain table and the air rules of Moscow "
    "Attacked! are lost; this game uses the reference pack's reconstruction (seed 001 rules exact)."
)
TO_MOVE = {-1: "chance", -2: "over"}


def _to_move(s: State) -> str:
    p = s.current_player()
    return TO_MOVE.get(p) or SIDE_NAMES[p]


def _unit_view(s: State, u: int) -> dict[str, Any]:
    sp = s.rules.units[u]
    h = s.loc[u]
    return {
        "id": sp.id,
        "name": sp.name,
        "side": SIDE_NAMES[sp.side],
        "factors": None if sp.is_air else f"{sp.attack}-{sp.defense}-{sp.movement}",
        "hex": hex_id(h) if h >= 0 else None,
        "eliminated": h == ELIM,
        "status": STATUS_WORDS[s.status[u]],
    }


def state_view(s: State) -> dict[str, Any]:
    return {
        "game": "ma",
        "edition": s.rules.edition,
        "notice": NOTICE,
        "turn": s.turn,
        "dates": s.rules.dates[s.turn],
        "weather": s.weather,
        "phase": {"key": s.phase_spec.key, "name": s.phase_spec.name},
        "to_move": _to_move(s),
        "result": s.result,
        "replacements": s.repl,
        "no_retreat": s.noretreat,
        "battle": None if s.battle is None else {"target": hex_id(s.battle.target), "step": s.battle.step},
        "units": [_unit_view(s, u) for u in range(len(s.loc))],
    }


def legal_view(s: State, actions: Sequence[Any], to_text: ToText) -> dict[str, Any]:
    return {"to_move": _to_move(s), "actions": [{"text": to_text(a), "kind": a.kind} for a in actions]}


def hex_words(s: State, h: int) -> str:
    r = s.rules
    bits = [hex_id(h), r.terrain[h].replace("_", "/")]
    if r.place[h]:
        ctl = SIDE_NAMES[s.controller(h)]
        bits.append(f"{r.place[h]} ({r.place_class[h]}, last held by the {ctl} side)")
    units = [u for u in s.units_at(h)]
    for u in units:
        sp = r.units[u]
        sup = "" if in_supply(s, u) else ", unsupplied"
        bits.append(
            f"{sp.id} {sp.attack}-{sp.defense}-{sp.movement} ({SIDE_NAMES[sp.side]}, {STATUS_WORDS[s.status[u]]}{sup})"
        )
    return ", ".join(bits)


def hex_view(s: State, hid: str) -> dict[str, Any]:
    h = hex_index(hid)  # KeyError for a hex not on the map
    return {"hex": hid, "words": hex_words(s, h), "units": [s.rules.units[u].id for u in s.units_at(h)]}


_FILL = {"clear": "#e8e4c8", "forest": "#9cbf86", "forest_swamp": "#86a99a"}


def render_map(s: State, numbers: bool) -> str:
    size = 28.0
    w = math.sqrt(3) * size
    parts = []
    for h in range(len(s.rules.terrain)):
        r, c = divmod(h, 10)
        row = len(ROWS) - 1 - r  # north up
        x = w * (c + 0.5 * (r % 2)) + w
        y = 1.5 * size * row + size * 1.2
        pts = " ".join(
            f"{x + size * math.cos(math.radians(60 * i - 30)):.1f},{y + size * math.sin(math.radians(60 * i - 30)):.1f}"
            for i in range(6)
        )
        parts.append(f'<polygon points="{pts}" fill="{_FILL[s.rules.terrain[h]]}" stroke="#777"/>')
        label = []
        if numbers:
            label.append(hex_id(h))
        if s.rules.place[h]:
            label.append(str(s.rules.place[h])[:10])
        units = [s.rules.units[u].id for u in s.units_at(h)]
        if units:
            label.append(" ".join(units)[:18])
        for i, t in enumerate(label):
            parts.append(
                f'<text x="{x:.1f}" y="{y - 6 + 9 * i:.1f}" font-size="7" text-anchor="middle">{t}</text>'
            )
    width, height = w * 11.5, 1.5 * size * len(ROWS) + size * 2
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height + 14:.0f}">'
        f'<text x="4" y="{height + 10:.0f}" font-size="9">{NOTICE[:90]}</text>{"".join(parts)}</svg>'
    )


def position_words(s: State, legal: Sequence[Any], whose: str, side: int) -> list[str]:
    head = (
        f"Moscow Attacked! ({editions()[s.rules.edition]}), turn {s.turn} ({s.rules.dates[s.turn]}, "
        f"{s.weather}), {s.phase_spec.name}"
    )
    lines = [NOTICE, head, f"Result: {s.result}" if s.is_terminal else whose]
    occupied = sorted({h for h in s.loc if h >= 0})
    lines += [hex_words(s, h) for h in occupied]
    off = [s.rules.units[u].id for u, h in enumerate(s.loc) if h == OFF and not s.rules.units[u].is_air]
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
    return f"{p['column'] or 'below 1:5 (not allowed)'}: {'; '.join(p['reasons'])}"


FRONT_ENDS = FrontEnds(
    web_page="game.html",  # no client page of its own yet (stage 2): the lobby and API work
    terminal="typhoon.tui.session:Session",
    notice=NOTICE,
    edition_title=lambda key, title: f"{title} (reconstructed map)",
    edition_text=lambda key: f"Moscow Attacked! {key}",
    state_view=state_view,
    legal_view=legal_view,
    hex_view=hex_view,
    render_map=render_map,
    turn_label=lambda rules, turn: f"GT {turn}",
    preview=preview,
    position_words=position_words,
    hex_words=hex_words,
    odds_words=odds_words,
)
