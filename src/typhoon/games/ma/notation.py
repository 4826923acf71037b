"""Moscow Attacked! notation. Actions: ``move 13A D4``, ``rail 16A I7``, ``reinforce 5A I7``,
``replace 19A I7``, ``disband 33A``, ``order all|front|moscow|none``, ``bomb VIIIFK``, ``attack 56PzK I3``, ``air VIIIFK``,
``airdrop IIFK H3``, ``base StratBomb I7``, ``fire``, ``cancel``, ``intercept 6IK``, ``pass``, ``noretreat yes|no``,
``exchange yes|no``, ``lose 4A``, ``disperse 4A``, ``retreat H3-H4`` (``retreat -`` = 0 hexes),
``stay``, ``advance 7PzDiv I3``, ``end``, ``roll 4``. Positions: ``ma <edition> <json>`` on one
line, read back exactly.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from typhoon.errors import NotationError, OptionError
from typhoon.games import notation_common as nc

from .rules import OPTION_SPECS, hex_index, load_rules
from .state import (
    DISPERSED,
    ELIM,
    PHASES,
    READY,
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
from .structure import structural_problems

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


_STEPS = frozenset(
    (
        "declare",
        "intercept",
        "icpt_roll",
        "bomb_roll",
        "roll",
        "noretreat",
        "exchange",
        "loss",
        "retreat",
        "extra",
    )
    + ("advance",)
)
_RESULTS = frozenset(("german", "soviet", "draw"))
_ORDERS = frozenset(("none", "all", "front", "moscow"))


def _battle(b: Any, units: int, hexes: int) -> Battle:
    if not isinstance(b, dict):
        raise NotationError(f"battle must be an object or null, not {b!r}")
    known = {f.name for f in dataclasses.fields(Battle)}
    if set(b) - known or "target" not in b:
        raise NotationError(f"battle fields must be among {sorted(known)}, target included")
    u, h = units - 1, hexes - 1
    kw: dict[str, Any] = {"target": nc.json_int(b["target"], 0, h, "battle target")}
    for name in ("attackers", "air", "defenders", "advanced"):
        if name in b:
            kw[name] = nc.json_ints(b[name], 0, u, f"battle {name}")
    for name in ("drop", "bomb", "hold"):
        if name in b:
            kw[name] = nc.json_bool(b[name], f"battle {name}")
    for name, lo, hi in (("interceptor", -1, u), ("column", -1, 64), ("die", 0, 6), ("at", -1, h)):
        if name in b:
            kw[name] = nc.json_int(b[name], lo, hi, f"battle {name}")
    for name in ("losses", "retreated"):
        if name in b:
            kw[name] = nc.json_int(b[name], 0, 999, f"battle {name}")
    if "attack_from" in b:
        kw["attack_from"] = nc.json_int(b["attack_from"], 0, (1 << hexes) - 1, "battle attack_from")
    if "step" in b:
        kw["step"] = nc.json_word(b["step"], _STEPS, "battle step", 10)
    if "result" in b:
        kw["result"] = nc.json_word(b["result"], None, "battle result")
    if "loss_kind" in b:
        kw["loss_kind"] = nc.json_word(b["loss_kind"], frozenset(("", "AE", "AD", "EX")), "battle loss_kind")
    return Battle(**kw)


def position_from_text(text: str) -> State:
    """Reads a position written by position_to_text; every field is checked for its type and
    range, so a damaged text is a NotationError, never a state the engine cannot play."""
    try:
        tag, edition, body = text.strip().split(" ", 2)
        if tag != "ma":
            raise ValueError("not a Moscow Attacked! position")
        d = json.loads(body)
        if not isinstance(d, dict) or not isinstance(d.get("options"), dict):
            raise ValueError("the body must be an object with options")
        missing = [k for k in (*_FIELDS, "battle") if k not in d]
        if missing:
            raise ValueError(f"missing {', '.join(missing)}")
        rules = load_rules(edition, d["options"])
    except (ValueError, KeyError, TypeError, OptionError) as exc:
        raise NotationError(f"not a Moscow Attacked! position: {exc}") from exc
    n, hexes = len(rules.units), len(rules.terrain)
    bits_u, bits_h = (1 << n) - 1, (1 << hexes) - 1
    iso = d["iso"]
    if not isinstance(iso, list):
        raise NotationError("iso must be a list of unit groups")
    s = State(
        rules=rules,
        turn=nc.json_int(d["turn"], 1, len(rules.weather) - 1, "turn"),
        phase=nc.json_int(d["phase"], 0, len(PHASES) - 1, "phase"),
        loc=nc.json_ints(d["loc"], ELIM, hexes - 1, "loc", n),
        status=nc.json_ints(d["status"], READY, DISPERSED, "status", n),
        control=nc.json_int(d["control"], 0, bits_h, "control"),
        repl=nc.json_int(d["repl"], 0, 999, "repl"),
        noretreat=nc.json_word(d["noretreat"], _ORDERS, "noretreat"),
        ordered=nc.json_bool(d["ordered"], "ordered"),
        moved=nc.json_int(d["moved"], 0, bits_u, "moved"),
        br_used=nc.json_int(d["br_used"], 0, bits_u, "br_used"),
        air_used=nc.json_int(d["air_used"], 0, bits_u, "air_used"),
        down=nc.json_ints(d["down"], 0, 99, "down", n),
        dropped=nc.json_int(d["dropped"], 0, bits_h, "dropped"),
        entered=nc.json_int(d["entered"], 0, bits_h, "entered"),
        hit=nc.json_int(d["hit"], 0, bits_u, "hit"),
        att_from=nc.json_int(d["att_from"], 0, bits_h, "att_from"),
        panic=nc.json_bool(d["panic"], "panic"),
        iso=tuple(nc.json_ints(g, 0, n - 1, "iso group") for g in iso),
        base=nc.json_int(d["base"], -1, hexes - 1, "base"),
        based=nc.json_bool(d["based"], "based"),
        battle=None if d["battle"] is None else _battle(d["battle"], n, hexes),
        result=None if d["result"] is None else nc.json_word(d["result"], _RESULTS, "result"),
    )
    wrong = structural_problems(s)
    if wrong:
        raise NotationError(f"not a Moscow Attacked! position: {'; '.join(wrong[:3])}")
    return s
