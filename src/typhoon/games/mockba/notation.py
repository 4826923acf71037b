"""MOCKBA notation. Actions: ``move G9A.inf1 0512``, ``rail 16A.rif2 2912``, ``dig 16A.rif1``,
``undig 16A.rif1``, ``reinforce 5A.rif1 3312``, ``rebuild 16A.rif3 2912``, ``counterair``,
``interdict``, ``airsupply G2P.pz1``, ``attack G3P.pz1 1210``, ``air``, ``fire``, ``cancel``,
``support yes|no``, ``roll 4``, ``retreat 1210-1311`` (``retreat -``: D3, the defender retreats and
the attacker picks the route), ``reduce``, ``lose G3P.pz1``, ``advance G3P.pz1 1210``, ``drop 2412`` (optional rule 6), ``stay``,
``end``; optional rule 3: ``blow 16A.rif1 1211`` (the hex across the bridge); free set-up (option setup=free): ``place 22A.rif1 0306``, ``standard``. Positions: ``mockba <edition> <json>`` on one line, read back exactly.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from typing import Any

from typhoon.errors import NotationError, OptionError
from typhoon.games import notation_common as nc

from .rules import OPTION_SPECS, hex_index, load_rules
from .state import (
    BARE_KINDS,
    ELIM,
    PHASES,
    Advance,
    AirSupply,
    Attack,
    Bare,
    Battle,
    Blow,
    Dig,
    Drop,
    Lose,
    Move,
    Place,
    Rail,
    Rebuild,
    Reinforce,
    Retreat,
    Roll,
    State,
    Support,
    Undig,
)
from .structure import RESULTS, STEPS, structural_problems

_UNIT_HEX = {
    "move": Move,
    "place": Place,
    "blow": Blow,
    "rail": Rail,
    "reinforce": Reinforce,
    "rebuild": Rebuild,
    "attack": Attack,
    "advance": Advance,
}
_UNIT = {"dig": Dig, "undig": Undig, "airsupply": AirSupply, "lose": Lose}


def action_to_text(a: Any) -> str:
    k = a.kind
    if k in BARE_KINDS or k == "standard":
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
    if (k in BARE_KINDS or k == "standard") and not rest:
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
    # Only where used (free set-up, optional rule 3), so every other position text is unchanged.
    for f in ("setup", "blown", "tried"):
        if getattr(s, f) != (-1 if f == "setup" else 0):
            d[f] = getattr(s, f)
    return f"mockba {s.rules.edition} " + json.dumps(d, separators=(",", ":"), sort_keys=True)


_RESULTS = frozenset(("german", "soviet", "draw"))
_UNIT_BITS = ("red", "dug", "oos", "airsup", "moved", "attacked", "fu", "retreated", "dropped", "hit")
_HEX_BITS = ("cut", "control", "taken")
_COUNTS = ("air_g", "air_s", "rail_left", "rebuilt", "rebuilt_armour", "rebuilt_turn")


def _battle(b: Any, units: int, hexes: int, columns: int) -> Battle:
    if not isinstance(b, dict):
        raise NotationError(f"battle must be an object or null, not {b!r}"[:200])
    known = {f.name for f in dataclasses.fields(Battle)}
    if set(b) - known or "target" not in b:
        raise NotationError(f"battle fields must be among {sorted(known)}, target included")
    u, h = units - 1, hexes - 1
    kw: dict[str, Any] = {"target": nc.json_int(b["target"], 0, h, "battle target")}
    for name, hi in (("attackers", u), ("defenders", u), ("groups", h)):
        if name in b:
            kw[name] = nc.json_ints(b[name], 0, hi, f"battle {name}")
    for name in ("eliminated", "terrain_edge", "lost_unit"):
        if name in b:
            kw[name] = nc.json_bool(b[name], f"battle {name}")
    for name, lo, hi in (
        ("air", 0, 99),
        ("dair", 0, 1),
        ("column", -1, columns - 1),
        ("die", 0, 6),
        ("losses", 0, 999),
        ("length", 0, 3),
    ):
        if name in b:
            kw[name] = nc.json_int(b[name], lo, hi, f"battle {name}")
    if "step" in b:
        kw["step"] = nc.json_word(b["step"], STEPS, "battle step")
    if "result" in b:
        kw["result"] = nc.json_word(b["result"], RESULTS | {""}, "battle result")
    return Battle(**kw)


def position_from_text(text: str) -> State:
    """Reads a position written by position_to_text; every field is checked for its type and
    range, so a damaged text is a NotationError, never a state the engine cannot play."""
    try:
        tag, edition, body = text.strip().split(" ", 2)
        if tag != "mockba":
            raise ValueError("not a MOCKBA position")
        d = json.loads(body)
        if not isinstance(d, dict) or not isinstance(d.get("options"), dict):
            raise ValueError("the body must be an object with options")
        missing = [k for k in (*_FIELDS, "battle") if k not in d]
        if missing:
            raise ValueError(f"missing {', '.join(missing)}")
        extra = set(d) - {*_FIELDS, "battle", "options", "setup", "blown", "tried"}
        if extra:
            raise ValueError(f"unknown fields {', '.join(sorted(extra))}"[:200])
        rules = load_rules(edition, d["options"])
    except (ValueError, KeyError, TypeError, OptionError) as exc:
        raise NotationError(f"not a MOCKBA position: {exc}") from exc
    n, hexes = len(rules.units), len(rules.terrain)
    bits_u, bits_h = (1 << n) - 1, (1 << hexes) - 1
    kw: dict[str, Any] = {
        "turn": nc.json_int(d["turn"], 1, rules.last_turn, "turn"),
        "phase": nc.json_int(d["phase"], 0, len(PHASES), "phase"),  # len(PHASES): a finished game
        "loc": nc.json_ints(d["loc"], ELIM, hexes - 1, "loc", n),
    }
    kw.update({f: nc.json_int(d[f], 0, bits_u, f) for f in _UNIT_BITS})
    kw.update({f: nc.json_int(d[f], 0, bits_h, f) for f in _HEX_BITS})
    kw.update({f: nc.json_int(d[f], 0, 999, f) for f in _COUNTS})
    s = State(
        rules=rules,
        battle=None if d["battle"] is None else _battle(d["battle"], n, hexes, len(rules.columns)),
        result=None if d["result"] is None else nc.json_word(d["result"], _RESULTS, "result"),
        score=None if d["score"] is None else nc.json_int(d["score"], -999, 999, "score"),
        setup=nc.json_int(d["setup"], 0, 1, "setup") if "setup" in d else -1,
        blown=nc.json_int(d.get("blown", 0), 0, (1 << len(rules.bridges)) - 1, "blown"),
        tried=nc.json_int(d.get("tried", 0), 0, (1 << len(rules.bridges)) - 1, "tried"),
        **kw,
    )
    wrong = structural_problems(s)
    if wrong:
        raise NotationError(f"not a MOCKBA position: {'; '.join(wrong[:3])}")
    return s
