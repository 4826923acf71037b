"""Text notation for Moscow Campaign actions and positions; both round-trip exactly.

Actions (one line each; unit ids as in the OOB, hexes as CCRR)::

    setup standard                place G251Inf 1234          move G1Pz 1020-1322
    enter G5Inf 0105              arrive S1Gds 7830           entrain S16A
    rail S16A 6020-6630           detrain S16A                relocate SEB3 5522
    overrun 1422 with G1Pz,G6Pz   join G7Pz 1422              end
    attack 1422 with G1Pz,G6Pz    attack 1423 (adds a hex)    odds 3-1
    ignore yes | ignore no
    roll 4                        lose G1Pz                   disrupt G1Pz
    retreat S16A 1523             advance G1Pz 1422 | advance none 1422 | advance none

Positions are one line of ``key=value`` fields starting with ``tmc``; see
:func:`position_to_text`. Units not listed in G=/S= are off the map.
"""

from __future__ import annotations

import re
from typing import Any

from typhoon.errors import NotationError
from typhoon.games import notation_common as nc
from typhoon.games.tmc.actions import (
    END,
    Action,
    Advance,
    Arrive,
    Attack,
    Detrain,
    Disrupt,
    End,
    Enter,
    Entrain,
    Ignore,
    JoinOverrun,
    Lose,
    Move,
    Odds,
    Overrun,
    Place,
    RailMove,
    Relocate,
    Retreat,
    Roll,
    SetupStandard,
)
from typhoon.games.tmc.invariants import problems
from typhoon.games.tmc.rules import PHASES, SIDE_NAMES, Rules, load_rules
from typhoon.games.tmc.state import OFF, PendingOverrun, State

_hex = nc.hex_word
_UNIT = re.compile(r"^[A-Za-z0-9_.+/()\[\]]+$")
_ODDS = re.compile(r"^\d{1,2}-\d{1,2}$")


def action_to_text(a: Action) -> str:
    if isinstance(a, Move):
        return f"move {a.unit} {a.src}-{a.dst}"
    if isinstance(a, RailMove):
        return f"rail {a.unit} {a.src}-{a.dst}"
    if isinstance(a, End):
        return "end"
    if isinstance(a, Place):
        return f"place {a.unit} {a.hex}"
    if isinstance(a, SetupStandard):
        return "setup standard"
    if isinstance(a, Enter):
        return f"enter {a.unit} {a.hex}"
    if isinstance(a, Arrive):
        return f"arrive {a.unit} {a.hex}"
    if isinstance(a, Entrain):
        return f"entrain {a.unit}"
    if isinstance(a, Detrain):
        return f"detrain {a.unit}"
    if isinstance(a, Relocate):
        return f"relocate {a.unit} {a.hex}"
    if isinstance(a, Overrun):
        return f"overrun {a.hex} with {','.join(a.units)}"
    if isinstance(a, JoinOverrun):
        return f"join {a.unit} {a.hex}"
    if isinstance(a, Attack):
        if not a.units:
            return f"attack {a.target}"  # the attack being built also takes in this hex (COMBAT)
        return f"attack {a.target} with {','.join(a.units)}"
    if isinstance(a, Odds):
        return f"odds {a.column}"
    if isinstance(a, Ignore):
        return "ignore " + ("yes" if a.accept else "no")
    if isinstance(a, Roll):
        return f"roll {a.die}"
    if isinstance(a, Lose):
        return f"lose {a.unit}"
    if isinstance(a, Disrupt):
        return f"disrupt {a.unit}"
    if isinstance(a, Retreat):
        return f"retreat {a.unit} {a.hex}"
    if isinstance(a, Advance):
        who = a.unit if a.unit is not None else "none"
        return f"advance {who} {a.hex}" if a.hex else f"advance {who}"
    raise NotationError(f"not an action: {a!r}")


def _unit(word: str, text: str) -> str:
    return nc.unit_word(word, text, _UNIT)


def _pair(word: str, text: str) -> tuple[str, str]:
    parts = word.split("-")
    if len(parts) != 2:
        raise NotationError(f"'{text.strip()}': a move is written FROM-TO, e.g. 1020-1322")
    return _hex(parts[0], text), _hex(parts[1], text)


def _units(word: str, text: str) -> tuple[str, ...]:
    return tuple(_unit(w, text) for w in word.split(","))


def action_from_text(text: str) -> Action:
    """Parse one action. Raises NotationError with a hint for anything malformed."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty action")
    verb, args = words[0].lower(), words[1:]

    def need(n: int, usage: str) -> None:
        nc.need_args(args, n, usage, text)

    if verb in ("move", "rail"):
        need(2, f"{verb} UNIT FROM-TO")
        src, dst = _pair(args[1], text)
        if verb == "move":
            return Move(_unit(args[0], text), src, dst)
        return RailMove(_unit(args[0], text), src, dst)
    if verb == "end":
        need(0, "end")
        return END
    if verb == "setup":
        if args != ["standard"]:
            raise NotationError(f"'{text.strip()}': expected 'setup standard'")
        return SetupStandard()
    if verb in ("place", "enter", "arrive", "relocate", "join", "retreat"):
        need(2, f"{verb} UNIT HEX")
        u, h = _unit(args[0], text), _hex(args[1], text)
        if verb == "place":
            return Place(u, h)
        if verb == "enter":
            return Enter(u, h)
        if verb == "arrive":
            return Arrive(u, h)
        if verb == "relocate":
            return Relocate(u, h)
        if verb == "join":
            return JoinOverrun(u, h)
        return Retreat(u, h)
    if verb in ("entrain", "detrain", "lose", "disrupt"):
        need(1, f"{verb} UNIT")
        u = _unit(args[0], text)
        if verb == "entrain":
            return Entrain(u)
        if verb == "detrain":
            return Detrain(u)
        if verb == "lose":
            return Lose(u)
        return Disrupt(u)
    if verb == "attack" and len(args) == 1:
        return Attack(_hex(args[0], text), ())
    if verb in ("overrun", "attack"):
        if len(args) != 3 or args[1].lower() != "with":
            raise NotationError(f"'{text.strip()}': expected '{verb} HEX with UNIT,UNIT'")
        h, us = _hex(args[0], text), _units(args[2], text)
        return Overrun(h, us) if verb == "overrun" else Attack(h, us)
    if verb == "odds":
        need(1, "odds A-D")
        if not _ODDS.match(args[0]):
            raise NotationError(f"'{text.strip()}': odds are written like 3-1 or 1-2")
        return Odds(args[0])
    if verb == "ignore":
        return Ignore(nc.yes_no_word(verb, args, text))
    if verb == "roll":
        return Roll(nc.die_word(args, text))
    if verb == "advance":
        if len(args) not in (1, 2):
            raise NotationError(f"'{text.strip()}': expected 'advance UNIT HEX' or 'advance none [HEX]'")
        who = None if args[0].lower() == "none" else _unit(args[0], text)
        if who is not None and len(args) != 2:
            raise NotationError(f"'{text.strip()}': expected 'advance UNIT HEX'")
        return Advance(who, _hex(args[1], text) if len(args) == 2 else "")
    raise NotationError(
        f"unknown action '{words[0]}'; actions are setup, place, move, enter, arrive, entrain, rail, "
        "detrain, relocate, overrun, join, end, attack, odds, ignore, roll, lose, disrupt, retreat, advance"
    )


# -- positions -----------------------------------------------------------------------------

_BITSETS = (
    "arrived",
    "eliminated",
    "lost",
    "kg",
    "entrained",
    "flipped",
    "overran",
    "relocated",
    "placed",
    "oos",
)
_RAIL = ("rail_normal", "rail_german", "rail_soviet", "rail_cut")


def _hexes_text(ids: list[str], mask: int) -> str:
    out = []
    while mask:
        low = mask & -mask
        out.append(ids[low.bit_length() - 1])
        mask ^= low
    return ",".join(out) or "-"


def position_to_text(s: State) -> str:
    """The whole state on one line. The combat slots (``combat``, ``cdata``) are written with
    repr() and read back with a restricted literal evaluator, so COMBAT's NamedTuples must
    consist of ints, strs, Fractions, bools, None and tuples of those."""
    rules = s.rules
    ids = rules.grid.ids
    fields = nc.header_fields("tmc", rules.edition, rules.non_default_options(), s.turn, PHASES[s.phase].key)
    fields.append(f"st={s.step}")
    for side in (0, 1):
        parts = []
        for h in sorted(s.stacks):
            us = s.stacks[h]
            if rules.units[us[0]].side == side:
                parts.append(ids[h] + ":" + "+".join(rules.units[u].id for u in us))
        fields.append(f"{'GS'[side]}=" + (";".join(parts) or "-"))
    units = rules.units
    for name in _BITSETS:
        mask = getattr(s, name)
        fields.append(
            f"{name}=" + (",".join(units[u].id for u in range(len(units)) if (mask >> u) & 1) or "-")
        )
    fields.append(
        "disrupted=" + (",".join(f"{units[u].id}:{t}" for u, t in sorted(s.disrupted.items())) or "-")
    )
    fields.append("spent=" + (",".join(f"{units[u].id}:{t}" for u, t in sorted(s.spent.items())) or "-"))
    fields.append("entered=" + (",".join(f"{units[u].id}:{t}" for u, t in sorted(s.entered.items())) or "-"))
    fields.append(f"trains={s.entrainings}")
    ovr = [
        ids[p.hex]
        + ":"
        + "+".join(units[u].id for u in p.attackers)
        + ">"
        + "+".join(units[d].id for d in p.defenders)
        for p in s.overruns
    ]
    fields.append("ovr=" + (";".join(ovr) or "-"))
    fields.append("supply=" + ",".join(format(m, "x") if m >= 0 else "-" for m in s.supply))
    for name in _RAIL:
        fields.append(f"{name}={_hexes_text(ids, getattr(s, name))}")
    fields.append(f"dl={format(s.dl_destroyed, 'x')}")
    fields.append(f"vp={s.vp[0]},{s.vp[1]}")
    fields.append(f"maward={'1' if s.moscow_award else '0'}")
    fields.append("combat=" + _enc(s.combat))
    fields.append("cdata=" + _enc(s.cdata))
    fields.append(f"res={s.result or '-'}")
    fields.append(f"level={s.level or '-'}")
    return " ".join(fields)


def _enc(v: Any) -> str:
    """repr without spaces (spaces separate fields): escaped as %20."""
    return repr(v).replace("%", "%25").replace(" ", "%20")


def _dec(text: str) -> Any:
    """The value of an ``_enc`` field: a restricted literal evaluator (ints, strs, bools, None,
    tuples, ``Fraction(int[, int])`` and the combat record NamedTuples). Anything else, or a
    record called with the wrong arguments, is a NotationError."""
    import ast
    from fractions import Fraction

    src = text.replace("%20", " ").replace("%25", "%")
    try:
        tree = ast.parse(src, mode="eval")
    except (SyntaxError, ValueError, UnicodeError, MemoryError, RecursionError):
        # MemoryError and RecursionError: the parser's stack, on deeply nested input.
        raise NotationError(f"cannot read combat data {src[:80]!r}") from None

    def ev(n: ast.AST) -> Any:
        if isinstance(n, ast.Constant):
            v = n.value  # an int literal is already bounded by the parser (4300 digits)
            if v is None or isinstance(v, (bool, str, int)):
                return v
            raise NotationError(f"combat data holds {v!r:.40}, not an integer, text, bool or None")
        if isinstance(n, ast.Tuple):
            return tuple(ev(e) for e in n.elts)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            v = ev(n.operand)
            if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
                raise NotationError(f"cannot read combat data {src[:80]!r}: '-' before {v!r:.40}")
            return -v
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            name = n.func.id
            args = [ev(a) for a in n.args]
            kwargs = {k.arg: ev(k.value) for k in n.keywords if k.arg}
            if name == "Fraction":
                if (
                    kwargs
                    or not 1 <= len(args) <= 2
                    or not all(type(a) is int for a in args)
                    or args[1:] == [0]
                ):
                    raise NotationError(
                        f"cannot read combat data {src[:80]!r}: Fraction(int[, int]) expected"
                    )
                return Fraction(*args)
            cls = _combat_types().get(name)
            if cls is None:
                raise NotationError(f"unknown combat record type {name}")
            try:
                return cls(*args, **kwargs)
            except TypeError as exc:
                raise NotationError(f"cannot read combat data {src[:80]!r}: {exc}") from None
        raise NotationError(f"cannot read combat data {src[:80]!r}")

    try:
        return ev(tree.body)
    except RecursionError:
        raise NotationError(f"cannot read combat data {src[:80]!r}: nested too deeply") from None


def _combat_types() -> dict[str, Any]:
    """NamedTuple classes COMBAT stores in ``State.combat``/``cdata`` (by class name)."""
    out: dict[str, Any] = {"PendingOverrun": PendingOverrun}
    for modname in ("combat_phase", "overrun", "combat"):
        try:
            mod = __import__(f"typhoon.games.tmc.{modname}", fromlist=["x"])
        except ImportError:
            continue
        for k, v in vars(mod).items():
            if isinstance(v, type) and issubclass(v, tuple) and hasattr(v, "_fields"):
                out.setdefault(k, v)
    return out


def position_from_text(text: str, rules: Rules | None = None) -> State:
    """Parse a position written by :func:`position_to_text`. Raises NotationError. ``rules``
    overrides the scenario named in the text (positions of synthetic test rules)."""
    required = (
        ("ed", "opt", "t", "ph", "st", "G", "S")
        + _BITSETS
        + ("disrupted", "spent", "entered", "trains", "ovr", "supply")
        + _RAIL
        + ("dl", "vp", "maward", "combat", "cdata", "res", "level")
    )
    f = nc.read_fields(text, "tmc", "Moscow Campaign", required)
    opts = nc.options_field(f["opt"])
    if rules is None:
        rules = nc.read_rules(load_rules, f["ed"], opts)
    grid = rules.grid
    s = State(rules)
    unit = nc.lookup(rules.unit_index, "unknown unit '{}' in position")
    hexi = nc.lookup(grid.index, "'{}' is not a hex of the map")

    def num(v: str) -> int:
        try:
            return int(v)
        except ValueError:
            raise NotationError(f"'{v}' is not a number") from None

    s.turn = num(f["t"])
    s.phase = nc.phase_field([p.key for p in PHASES], f["ph"])
    s.step = num(f["st"])
    s.stacks = {}
    s.occ = [0, 0]
    for side, key in ((0, "G"), (1, "S")):
        if f[key] == "-":
            continue
        for item in f[key].split(";"):
            if ":" not in item:
                raise NotationError(f"stack '{item}' is not HEX:UNIT+UNIT")
            hid, rest = item.split(":", 1)
            h = hexi(hid)
            us = tuple(unit(x) for x in rest.split("+"))
            for u in us:
                if rules.units[u].side != side:
                    raise NotationError(f"{rules.units[u].id} is not a {SIDE_NAMES[side]} unit")
                if s.loc[u] != OFF:
                    raise NotationError(f"{rules.units[u].id} appears twice")
                s.loc[u] = h
            if h in s.stacks:
                raise NotationError(f"{hid} listed twice")
            s.stacks[h] = us
            s.occ[side] |= 1 << h
    if s.occ[0] & s.occ[1]:
        raise NotationError("a hex holds units of both sides")
    for name in _BITSETS:
        mask = 0
        if f[name] != "-":
            for uid in f[name].split(","):
                mask |= 1 << unit(uid)
        setattr(s, name, mask)

    def pairs(v: str) -> dict[int, int]:
        out: dict[int, int] = {}
        if v == "-":
            return out
        for item in v.split(","):
            uid, _, n = item.rpartition(":")
            out[unit(uid)] = num(n)
        return out

    s.disrupted = pairs(f["disrupted"])
    s.spent = pairs(f["spent"])
    s.entered = pairs(f["entered"])
    s.entrainings = num(f["trains"])
    ovr = []
    if f["ovr"] != "-":
        for item in f["ovr"].split(";"):
            hid, _, rest = item.partition(":")
            att, _, dfn = rest.partition(">")
            ovr.append(
                PendingOverrun(
                    hexi(hid), tuple(unit(x) for x in att.split("+")), tuple(unit(x) for x in dfn.split("+"))
                )
            )
    s.overruns = tuple(ovr)
    sup = f["supply"].split(",")
    if len(sup) != 2:
        raise NotationError("supply= holds two masks")
    try:
        s.supply = [-1 if x == "-" else int(x, 16) for x in sup]
    except ValueError:
        raise NotationError("supply masks are hexadecimal") from None
    for name in _RAIL:
        mask = 0
        if f[name] != "-":
            for hid in f[name].split(","):
                mask |= 1 << hexi(hid)
        setattr(s, name, mask)
    try:
        s.dl_destroyed = int(f["dl"], 16)
    except ValueError:
        raise NotationError("dl= is hexadecimal") from None
    vp = f["vp"].split(",")
    if len(vp) != 2:
        raise NotationError("vp= holds two numbers")
    s.vp = [num(vp[0]), num(vp[1])]
    s.moscow_award = f["maward"] == "1"
    s.combat = _dec(f["combat"])
    s.cdata = _dec(f["cdata"])
    s.result = nc.result_field(f["res"])
    s.level = "" if f["level"] == "-" else f["level"]
    _check(s)
    return s


def _check(s: State) -> None:
    """Refuse a position whose fields disagree (the engine relies on their agreement: a unit
    placed this phase but off the map, say, would break the set-up's legal moves)."""
    off = [u for u in range(len(s.rules.units)) if s.loc[u] == OFF and (s.placed >> u) & 1]
    if off:
        raise NotationError(f"placed= lists {s.rules.units[off[0]].id}, which is off the map")
    found = problems(s)
    if found:
        raise NotationError(f"inconsistent position: {found[0]}")
