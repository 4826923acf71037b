"""Moscow Attacked! notation. Actions: ``move 13A D4``, ``rail 16A I7``, ``reinforce 5A I7``,
``replace 19A I7``, ``disband 33A``, ``order all|front|moscow|none``, ``bomb VIIIFK``, ``attack 56PzK I3``, ``air VIIIFK``,
``airdrop IIFK H3``, ``base StratBomb I7``, ``fire``, ``cancel``, ``intercept 6IK``, ``pass``, ``noretreat yes|no``,
``exchange yes|no``, ``lose 4A``, ``disperse 4A``, ``retreat H3-H4`` (``retreat -`` = 0 hexes),
``stay``, ``advance 7PzDiv I3``, ``end``, ``roll 4``. Positions: ``ma <edition> <json>`` on one
line, read back exactly.
"""

from __future__ import annotations

import json
from typing import Any

from typhoon.errors import NotationError, OptionError

from .rules import OPTION_SPECS, hex_index, load_rules
from .state import (
    Advance,
    Air,
    Airdrop,
    Attack,
    Base,
    Battle,
    Bomb,
    Cancel,
    Disband,
    Disperse,
    End,
    Exchange,
    Fire,
    Intercept,
    Lose,
    Move,
    NoRetreat,
    Order,
    Pass,
    Rail,
    Reinforce,
    Replace,
    Retreat,
    Roll,
    State,
    Stay,
)

_UNIT_HEX = {"move": Move, "rail": Rail, "reinforce": Reinforce, "replace": Replace, "attack": Attack}
_UNIT_HEX2 = {"airdrop": Airdrop, "advance": Advance, "base": Base}
_UNIT = {
    "bomb": Bomb,
    "disband": Disband,
    "air": Air,
    "intercept": Intercept,
    "lose": Lose,
    "disperse": Disperse,
}
_BARE = {"fire": Fire, "cancel": Cancel, "pass": Pass, "stay": Stay, "end": End}
_YESNO = {"noretreat": NoRetreat, "exchange": Exchange}


def action_to_text(a: Any) -> str:
    k = a.kind
    if k in _BARE:
        return k
    if k == "roll":
        return f"roll {a.die}"
    if k == "order":
        return f"order {a.mode}"
    if k in _YESNO:
        return f"{k} {'yes' if a.accept else 'no'}"
    if k == "retreat":
        return "retreat " + ("-".join(a.path) if a.path else "-")
    if k in _UNIT:
        return f"{k} {a.unit}"
    return f"{k} {a.unit} {a[1]}"


def _units() -> set[str]:
    return set(load_rules().unit_index)


def _hex(text: str) -> str:
    try:
        hex_index(text)
    except KeyError:
        raise NotationError(f"not a hex of the map: {text!r}") from None
    return text


def _unit(text: str) -> str:
    if text not in _units():
        raise NotationError(f"no unit {text!r}")
    return text


def action_from_text(text: str) -> Any:
    w = text.split()
    if not w:
        raise NotationError("empty action")
    k, rest = w[0], w[1:]
    if k in _BARE and not rest:
        return _BARE[k]()
    if k == "roll" and len(rest) == 1 and rest[0] in ("1", "2", "3", "4", "5", "6"):
        return Roll(int(rest[0]))
    if k == "order" and len(rest) == 1 and rest[0] in ("none", "all", "front", "moscow"):
        return Order(rest[0])
    if k in _YESNO and len(rest) == 1 and rest[0] in ("yes", "no"):
        return _YESNO[k](rest[0] == "yes")
    if k == "retreat" and len(rest) == 1:
        return Retreat(() if rest[0] == "-" else tuple(_hex(x) for x in rest[0].split("-")))
    if k in _UNIT and len(rest) == 1:
        return _UNIT[k](_unit(rest[0]))
    if k in _UNIT_HEX and len(rest) == 2:
        return _UNIT_HEX[k](_unit(rest[0]), _hex(rest[1]))
    if k in _UNIT_HEX2 and len(rest) == 2:
        return _UNIT_HEX2[k](_unit(rest[0]), _hex(rest[1]))
    raise NotationError(f"not a Moscow Attacked! action: {text!r}")


_FIELDS = (
    "turn",
    "phase",
    "loc",
    "status",
    "control",
    "repl",
    "noretreat",
    "ordered",
    "moved",
    "br_used",
    "air_used",
    "down",
    "dropped",
    "entered",
    "hit",
    "att_from",
    "panic",
    "iso",
    "base",
    "based",
    "result",
)


def position_to_text(s: State) -> str:
    d: dict[str, Any] = {f: getattr(s, f) for f in _FIELDS}
    defaults = {k: v["default"] for k, v in OPTION_SPECS.items()}
    d["options"] = {k: v for k, v in s.rules.options.items() if defaults.get(k) != v}
    d["battle"] = None if s.battle is None else dict(s.battle.__dict__)
    return f"ma {s.rules.edition} " + json.dumps(d, separators=(",", ":"), sort_keys=True)


def _tup(x: Any) -> Any:
    return tuple(_tup(y) for y in x) if isinstance(x, list) else x


def position_from_text(text: str) -> State:
    try:
        tag, edition, body = text.strip().split(" ", 2)
        if tag != "ma":
            raise ValueError("not a Moscow Attacked! position")
        d = json.loads(body)
        rules = load_rules(edition, d.pop("options"))
        b = d.pop("battle")
        battle = None if b is None else Battle(**{k: _tup(v) for k, v in b.items()})
        fields = {k: _tup(d[k]) for k in _FIELDS}
        s = State(rules=rules, battle=battle, **fields)
        n = len(rules.units)
        if len(s.loc) != n or len(s.status) != n or len(s.down) != n:
            raise ValueError("wrong number of units")
        return s
    except (ValueError, KeyError, TypeError, OptionError) as exc:
        raise NotationError(f"not a Moscow Attacked! position: {exc}") from exc
