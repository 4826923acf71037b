"""The tiny game's notation: ``move G1 0102``, ``attack G1 0104``, ``end``, ``roll 4``; and
positions as one line that reads back exactly."""

from __future__ import annotations

from typing import Any

from typhoon.errors import NotationError

from .engine import Attack, End, Move, Roll, State
from .rules import HEXES, UNITS, load_rules


def action_to_text(a: Any) -> str:
    if a.kind == "move":
        return f"move {a.unit} {a.dst}"
    if a.kind == "attack":
        return f"attack {a.unit} {a.target}"
    if a.kind == "roll":
        return f"roll {a.die}"
    return "end"


def action_from_text(text: str) -> Any:
    w = text.split()
    if w == ["end"]:
        return End()
    if len(w) == 2 and w[0] == "roll" and w[1] in "123456" and len(w[1]) == 1:
        return Roll(int(w[1]))
    if len(w) == 3 and w[0] in ("move", "attack") and w[1] in UNITS and w[2] in HEXES:
        return Move(w[1], w[2]) if w[0] == "move" else Attack(w[1], w[2])
    raise NotationError(f"not an action of the tiny game: {text!r}")


def position_to_text(s: State) -> str:
    loc = ",".join(HEXES[h] if h >= 0 else "-" for h in s.loc)
    pend = "-" if s.pending is None else f"{s.pending[0]}>{s.pending[1]}"
    return f"tiny {s.rules.edition} t{s.turn} p{s.phase} {loc} {pend} {s.result or '-'}"


def position_from_text(text: str) -> State:
    try:
        _, ed, t, p, loc, pend, res = text.split()
        locs = tuple(-1 if x == "-" else HEXES.index(x) for x in loc.split(","))
        pending = None if pend == "-" else (int(pend.split(">")[0]), int(pend.split(">")[1]))
        return State(load_rules(ed), int(t[1:]), int(p[1:]), locs, pending, None if res == "-" else res)
    except (ValueError, IndexError) as exc:
        raise NotationError(f"not a tiny position: {text!r}") from exc
