"""MOCKBA's odds preview (seed: combat): the column of an attack, its reasons and the result of
each die, for the browser (FrontEnds.preview) and the plain words (odds_words)."""

from __future__ import annotations

from typing import Any

from typhoon.errors import IllegalActionError

from .engine import odds, strengths
from .rules import hex_index
from .state import Battle, State


def preview(s: State, target: str, attackers: list[str]) -> dict[str, Any]:
    """The odds of an attack with the CRT result of each die (the edition's CRT option)."""
    r = s.rules
    try:
        h = hex_index(target)
        units = tuple(r.unit_index[a] for a in attackers)
    except (KeyError, TypeError) as exc:
        raise IllegalActionError(f"no such hex or unit: {exc}") from None
    defenders = s.units_at(h)
    if not defenders:
        raise IllegalActionError(f"nothing to attack on {target}")
    if not units:
        raise IllegalActionError("name at least one attacking unit")
    if len(set(units)) != len(units):
        raise IllegalActionError("an attacker is named twice")
    side = r.units[units[0]].side
    if any(r.units[u].side != side or s.loc[u] < 0 for u in units) or r.units[defenders[0]].side == side:
        raise IllegalActionError("the attackers must be units of one side on the map, against the other side")
    if any(h not in r.nbrs[s.loc[u]] for u in units):
        raise IllegalActionError(f"every attacker must be next to {target}")
    b = s.battle if s.battle is not None and s.battle.target == h else None
    b = Battle(h, units, air=b.air if b else 0, dair=b.dair if b else 0)
    col, why = odds(s, b)
    att, dfs = strengths(s, b)
    d: dict[str, Any] = {
        "hex": target,
        "attackers": list(attackers),
        "defenders": [r.units[u].id for u in defenders],
        "attack": att,
        "defense": dfs,
        "column": None if col < 0 else r.columns[col],
        "reasons": why,
        "title": f"{' + '.join(attackers)} against {', '.join(r.units[u].id for u in defenders)} on {target}",
        "action": "Declare this attack",
    }
    lines = [f"Attack {att} against defence {dfs} (reconstructed counters and terrain).", *why]
    if col < 0:
        lines.append("Below 1:3: this attack cannot be made.")
    else:
        by_die = [r.crt[die][col] for die in range(1, 7)]
        chances: dict[str, float] = {}
        for res in by_die:
            chances[res] = chances.get(res, 0.0) + 1 / 6
        d["by_die"] = by_die
        d["chances"] = chances
        d["table"] = {"head": ["Die", *map(str, range(1, 7))], "rows": [["Result", *by_die]]}
        lines.append(
            f"Column {r.columns[col]}: " + ", ".join(f"{k} {round(p * 100)}%" for k, p in chances.items())
        )
        lines.append("CRT rows 3-6 are a reconstruction (seed rows 1-2).")
    d["lines"] = lines
    d["text"] = "; ".join(lines)
    return d
