"""MOCKBA notation. Actions: ``move G9A.inf1 0512``, ``rail 16A.rif2 2912``, ``dig 16A.rif1``,
``undig 16A.rif1``, ``reinforce 5A.rif1 3312``, ``rebuild 16A.rif3 2912``, ``counterair``,
``interdict``, ``airsupply G2P.pz1``, ``attack G3P.pz1 1210``, ``air``, ``fire``, ``cancel``,
``support yes|no``, ``roll 4``, ``retreat 1210-1311`` (``retreat -``: D3, the defender retreats and
the attacker picks the route), ``reduce``, ``lose G3P.pz1``, ``advance G3P.pz1 1210``, ``drop 2412`` (optional rule 6), ``stay``,
``end``. Positions: ``mockba <edition> <json>`` on one line, read back exactly.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from typhoon.errors import NotationError, OptionError

from .rules import OPTION_SPECS, hex_index, load_rules
from .state import (
    BARE_KINDS,
    Advance,
    AirSupply,
    Attack,
    Bare,
    Battle,
    Dig,
    Drop,
    Lose,
    Move,
    Rail,
    Rebuild,
    Reinforce,
    Retreat,
    Roll,
    State,
    Support,
    Undig,
)

_UNIT_HEX = {
    "move": Move,
    "rail": Rail,
    "reinforce": Reinforce,
    "rebuild": Rebuild,
    "attack": Attack,
    "advance": Advance,
}
_UNIT = {"dig": Dig, "undig": Undig, "airsupply": AirSupply, "lose": Lose}


def action_to_text(a: Any) -> str:
    k = a.kind
    if k in BARE_KINDS:
        return str(k)
    if k == "roll":
        return f"roll {a.die}"
    if k == "support":
        return f"support {'yes' if a.accept else 'no'}"
    if k == "retreat":
        return "retreat " + ("-".join(a.path) if a.path else "-")
    if k == "drop":
        return f"drop {a.hex}"
    if k in _UNIT:
        return f"{k} {a.unit}"
    return f"{k} {a[0]} {a[1]}"


def _hex(text: str) -> str:
    try:
        hex_index(text)
    except KeyError:
        raise NotationError(f"not a hex of the map: {text!r}") from None
    return text


@cache
def _unit_ids() -> frozenset[str]:
    return frozenset(load_rules().unit_index)


def _unit(text: str) -> str:
    if text not in _unit_ids():
        raise NotationError(f"no unit {text!r}")
    return text


def action_from_text(text: str) -> Any:
    w = text.split()
    if not w:
        raise NotationError("empty action")
    k, rest = w[0], w[1:]
    if k in BARE_KINDS and not rest:
        return Bare(k)
    if k == "roll" and len(rest) == 1 and rest[0] in ("1", "2", "3", "4", "5", "6"):
        return Roll(int(rest[0]))
    if k == "support" and len(rest) == 1 and rest[0] in ("yes", "no"):
        return Support(rest[0] == "yes")
    if k == "retreat" and len(rest) == 1:
        return Retreat(() if rest[0] == "-" else tuple(_hex(x) for x in rest[0].split("-")))
    if k == "drop" and len(rest) == 1:
        return Drop(_hex(rest[0]))
    if k in _UNIT and len(rest) == 1:
        return _UNIT[k](_unit(rest[0]))
    if k in _UNIT_HEX and len(rest) == 2:
        return _UNIT_HEX[k](_unit(rest[0]), _hex(rest[1]))
    raise NotationError(f"not a MOCKBA action: {text!r}")


_FIELDS = (
    "turn",
    "phase",
    "loc",
    "red",
    "dug",
    "oos",
    "airsup",
    "moved",
    "attacked",
    "fu",
    "retreated",
    "hit",
    "dropped",
    "cut",
    "control",
    "taken",
    "air_g",
    "air_s",
    "rail_left",
    "rebuilt",
    "rebuilt_armour",
    "rebuilt_turn",
    "result",
    "score",
)


def position_to_text(s: State) -> str:
    d: dict[str, Any] = {f: getattr(s, f) for f in _FIELDS}
    defaults = {k: v["default"] for k, v in OPTION_SPECS.items()}
    d["options"] = {k: v for k, v in s.rules.options.items() if defaults.get(k) != v}
    d["battle"] = None if s.battle is None else dict(s.battle.__dict__)
    return f"mockba {s.rules.edition} " + json.dumps(d, separators=(",", ":"), sort_keys=True)


def _tup(x: Any) -> Any:
    return tuple(_tup(y) for y in x) if isinstance(x, list) else x


def position_from_text(text: str) -> State:
    try:
        tag, edition, body = text.strip().split(" ", 2)
        if tag != "mockba":
            raise ValueError("not a MOCKBA position")
        d = json.loads(body)
        rules = load_rules(edition, d.pop("options"))
        b = d.pop("battle")
        battle = None if b is None else Battle(**{k: _tup(v) for k, v in b.items()})
        fields = {k: _tup(d[k]) for k in _FIELDS}
        s = State(rules=rules, battle=battle, **fields)
        if len(s.loc) != len(rules.units):
            raise ValueError("wrong number of units")
        if not 0 <= s.phase <= 16 or not 1 <= s.turn <= rules.last_turn:
            raise ValueError("turn or phase out of range")
        return s
    except (ValueError, KeyError, TypeError, OptionError) as exc:
        raise NotationError(f"not a MOCKBA position: {exc}") from exc
