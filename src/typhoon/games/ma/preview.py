"""Moscow Attacked!'s odds preview (7.3-7.4): the column of an attack, its reasons and the result
of each die, for the browser (FrontEnds.preview) and the plain words (odds_words)."""

from __future__ import annotations

from typing import Any

from typhoon.errors import IllegalActionError

from .engine import _attack_die_mod, odds
from .rules import hex_index
from .state import Battle, State


def preview(s: State, target: str, attackers: list[str]) -> dict[str, Any]:
    """The odds of an attack (7.3-7.4) with the result of each die (CRT, die modifiers)."""
    r = s.rules
    try:
        h = hex_index(target)
        units = tuple(r.unit_index[a] for a in attackers)
    except KeyError as exc:
        raise IllegalActionError(f"no such hex or unit: {exc}") from None
    defenders = s.units_at(h)
    if not defenders:
        raise IllegalActionError(f"nothing to attack in {target}")
    if not units:
        raise IllegalActionError("name at least one attacking unit")
    side = r.units[units[0]].side
    if any(r.units[u].side != side or s.loc[u] < 0 for u in units) or r.units[defenders[0]].side == side:
        raise IllegalActionError("the attackers must be units of one side on the map, against the other side")
    if any(h not in r.nbrs[s.loc[u]] for u in units):
        raise IllegalActionError(f"every attacker must be next to {target}")
    b = Battle(h, units, attack_from=sum(1 << s.loc[u] for u in set(units)))
    col, why = odds(s, b)
    att = sum(r.units[u].attack for u in units)
    dfs = sum(r.units[u].defense for u in defenders)
    d: dict[str, Any] = {
        "hex": target,
        "attackers": list(attackers),
        "defenders": [r.units[u].id for u in defenders],
        "attack": att,
        "defense": dfs,
        "column": None if col < 0 else r.columns[col],
        "reasons": why,
        "title": f"{' + '.join(attackers)} against {', '.join(r.units[u].id for u in defenders)} in {target}",
        "action": "Declare this attack",
    }
    lines = [f"Attack {att} against defence {dfs} (reconstructed counter values).", *why]
    if col < 0:
        lines.append("Below 1:5: this attack cannot be made (7.3).")
        d["text"] = "; ".join(lines)
        d["lines"] = lines
        return d
    mod = _attack_die_mod(s, b)
    by_die = [r.crt[max(1, min(6, die + mod))][col] for die in range(1, 7)]
    if mod:
        lines.append(f"{mod} on the die: an attacker is out of supply (9.3).")
    chances: dict[str, float] = {}
    for res in by_die:
        chances[res] = chances.get(res, 0.0) + 1 / 6
    d["by_die"] = by_die
    d["chances"] = chances
    d["table"] = {"head": ["Die", *map(str, range(1, 7))], "rows": [["Result", *by_die]]}
    lines.append(
        f"Final column {r.columns[col]}: " + ", ".join(f"{k} {round(p * 100)}%" for k, p in chances.items())
    )
    lines.append(
        "Before the conversions: No Retreat!, no retreat possible, overrun and breakdown (7.8-7.11)."
    )
    d["lines"] = lines
    d["text"] = "; ".join(lines)
    return d
