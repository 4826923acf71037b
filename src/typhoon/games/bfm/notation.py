"""Text notation for Battle for Moscow actions and positions; both round-trip exactly.

Actions (one line each; unit ids as printed on the counters, hexes as CCRR)::

    setup standard            place XXIV 0204           move XXIV 0204-0405
    move XLI 0406-0706 via 0603                         attack XXIV 0305
    end                       resolve 0305              roll 4
    lose XLI                  retreat 0404-0503         standfast yes | standfast no
    advance XXIV | advance none                         rebuild 16A 1401
    restore 16A               reinforce 1SA 1401

Positions are one line of ``key=value`` fields, for example::

    bfm ed=gdw1986 opt=- t=3 ph=german_combat G=XXIV@0405!,XLI@0406/h S=16A@1103/h ...

``G=``/``S=`` list the units on the map (``/h`` half strength, ``!`` moved, declared or
placed this phase, ``^`` rebuilt this phase); units not listed are off the map.
"""

from __future__ import annotations

import re

from typhoon.errors import NotationError
from typhoon.games import notation_common as nc
from typhoon.games.bfm.actions import (
    END,
    Action,
    Advance,
    Attack,
    End,
    Lose,
    Move,
    Place,
    Rebuild,
    Reinforce,
    Resolve,
    Restore,
    Retreat,
    Roll,
    SetupStandard,
    StandFast,
)
from typhoon.games.bfm.invariants import problems
from typhoon.games.bfm.rules import SIDE_NAMES, load_rules
from typhoon.games.bfm.state import OFF, STEP_NAMES, Battle, State

_hex = nc.hex_word
_UNIT = re.compile(r"^[A-Za-z0-9]+$")


def action_to_text(a: Action) -> str:
    if isinstance(a, Move):
        text = f"move {a.unit} {a.src}-{a.dst}"
        return text + (f" via {','.join(a.via)}" if a.via else "")
    if isinstance(a, Attack):
        return f"attack {a.unit} {a.target}"
    if isinstance(a, End):
        return "end"
    if isinstance(a, Resolve):
        return f"resolve {a.target}"
    if isinstance(a, Roll):
        return f"roll {a.die}"
    if isinstance(a, Lose):
        return f"lose {a.unit}"
    if isinstance(a, Retreat):
        return "retreat " + "-".join(a.path)
    if isinstance(a, StandFast):
        return "standfast " + ("yes" if a.accept else "no")
    if isinstance(a, Advance):
        return f"advance {a.unit if a.unit is not None else 'none'}"
    if isinstance(a, Place):
        return f"place {a.unit} {a.hex}"
    if isinstance(a, Rebuild):
        return f"rebuild {a.unit} {a.hex}"
    if isinstance(a, Restore):
        return f"restore {a.unit}"
    if isinstance(a, Reinforce):
        return f"reinforce {a.unit} {a.hex}"
    if isinstance(a, SetupStandard):
        return "setup standard"
    raise NotationError(f"not an action: {a!r}")


def _unit(word: str, text: str) -> str:
    return nc.unit_word(word, text, _UNIT)


def _path(word: str, text: str) -> tuple[str, ...]:
    parts = word.split("-")
    return tuple(_hex(p, text) for p in parts)


def action_from_text(text: str) -> Action:
    """Parse one action. Raises NotationError with a hint for anything malformed."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty action")
    verb, args = words[0].lower(), words[1:]

    def need(n: int, usage: str) -> None:
        nc.need_args(args, n, usage, text)

    if verb == "move":
        if len(args) not in (2, 4) or (len(args) == 4 and args[2].lower() != "via"):
            raise NotationError(f"'{text.strip()}': expected 'move UNIT FROM-TO [via HEX,HEX]'")
        path = _path(args[1], text)
        if len(path) != 2:
            raise NotationError(f"'{text.strip()}': a move is written FROM-TO, e.g. 0204-0405")
        via = tuple(_hex(h, text) for h in args[3].split(",")) if len(args) == 4 else ()
        return Move(_unit(args[0], text), path[0], path[1], via)
    if verb == "attack":
        need(2, "attack UNIT HEX")
        return Attack(_unit(args[0], text), _hex(args[1], text))
    if verb == "end":
        need(0, "end")
        return END
    if verb == "resolve":
        need(1, "resolve HEX")
        return Resolve(_hex(args[0], text))
    if verb == "roll":
        return Roll(nc.die_word(args, text))
    if verb == "lose":
        need(1, "lose UNIT")
        return Lose(_unit(args[0], text))
    if verb == "retreat":
        need(1, "retreat HEX-HEX")
        return Retreat(_path(args[0], text))
    if verb == "standfast":
        return StandFast(nc.yes_no_word(verb, args, text))
    if verb == "advance":
        need(1, "advance UNIT|none")
        return Advance(None if args[0].lower() == "none" else _unit(args[0], text))
    if verb == "place":
        need(2, "place UNIT HEX")
        return Place(_unit(args[0], text), _hex(args[1], text))
    if verb == "rebuild":
        need(2, "rebuild UNIT HEX")
        return Rebuild(_unit(args[0], text), _hex(args[1], text))
    if verb == "restore":
        need(1, "restore UNIT")
        return Restore(_unit(args[0], text))
    if verb == "reinforce":
        need(2, "reinforce UNIT HEX")
        return Reinforce(_unit(args[0], text), _hex(args[1], text))
    if verb == "setup":
        if args != ["standard"]:
            raise NotationError(f"'{text.strip()}': expected 'setup standard'")
        return SetupStandard()
    raise NotationError(
        f"unknown action '{words[0]}'; actions are move, attack, end, resolve, roll, lose, "
        "retreat, standfast, advance, place, setup, rebuild, restore, reinforce"
    )


# -- positions -----------------------------------------------------------------------------


def position_to_text(s: State) -> str:
    rules = s.rules
    ids = rules.map.grid.ids
    fields = nc.header_fields(
        "bfm", rules.edition, rules.non_default_options(), s.turn, rules.phases[s.phase].key
    )
    for side in (0, 1):
        parts = []
        for u in rules.side_units[side]:
            if s.loc[u] == OFF:
                continue
            p = f"{rules.units[u].id}@{ids[s.loc[u]]}"
            if s.steps[u] == 1:
                p += "/h"
            if (s.done >> u) & 1:
                p += "!"
            if (s.rebuilt >> u) & 1:
                p += "^"
            parts.append(p)
        fields.append(f"{'GS'[side]}=" + (",".join(parts) or "-"))
    done_off = [rules.units[u].id for u in range(len(rules.units)) if (s.done >> u) & 1 and s.loc[u] == OFF]
    if done_off:
        fields.append("done=" + ",".join(done_off))
    german = [c.hex for i, c in enumerate(rules.map.cities) if s.controller(i) == 0]
    fields.append("ctl=" + (",".join(ids[h] for h in german) or "-"))
    fields.append(f"repl={s.repl}")
    arrived = [rules.units[u].id for u in range(len(rules.units)) if (s.arrived >> u) & 1]
    fields.append("arr=" + (",".join(arrived) or "-"))
    fields.append("stack=" + (rules.units[s.stack].id if s.stack >= 0 else "-"))
    fields.append(f"step={STEP_NAMES[s.cstep]}")
    battles = [f"{rules.units[d].id}<" + "+".join(rules.units[a].id for a in atk) for d, atk in s.battles]
    fields.append("battles=" + (";".join(battles) or "-"))
    if s.cur is None:
        fields.append("cur=-")
    else:
        c = s.cur
        fields.append(
            f"cur={rules.units[c.defender].id}<{'+'.join(rules.units[a].id for a in c.attackers)}"
            f":{ids[c.hex]}:{c.column}:{c.result or '-'}:{c.owed}"
        )
    fields.append(f"res={s.result or '-'}")
    return " ".join(fields)


def position_from_text(text: str) -> State:
    """Parse a position written by :func:`position_to_text`. Raises NotationError."""
    required = (
        "ed",
        "opt",
        "t",
        "ph",
        "G",
        "S",
        "ctl",
        "repl",
        "arr",
        "stack",
        "step",
        "battles",
        "cur",
        "res",
    )
    f = nc.read_fields(text, "bfm", "Battle for Moscow", required, ("done",))
    rules = nc.read_rules(load_rules, f["ed"], nc.options_field(f["opt"]))
    grid = rules.map.grid
    s = State(rules)
    unit = nc.lookup(rules.unit_index, "unknown unit '{}' in position")
    hexi = nc.lookup(grid.index, "'{}' is not a hex of the " + rules.edition + " map")

    try:
        s.turn = int(f["t"])
        s.repl = int(f["repl"])
    except ValueError:
        raise NotationError("turn and replacements must be numbers") from None
    if not 0 <= s.turn <= rules.last_turn or s.repl < 0:
        raise NotationError("turn or replacement count out of range")
    s.phase = nc.phase_field([p.key for p in rules.phases], f["ph"])
    s.stack = -1 if f["stack"] == "-" else unit(f["stack"])
    placed: list[tuple[int, int]] = []
    for side, key in ((0, "G"), (1, "S")):
        if f[key] == "-":
            continue
        for item in f[key].split(","):
            m = re.fullmatch(r"([A-Za-z0-9]+)@(\d{4})(/h)?(!)?(\^)?", item)
            if not m:
                raise NotationError(f"unit entry '{item}' is not UNIT@HEX[/h][!][^]")
            u = unit(m.group(1))
            if rules.units[u].side != side:
                raise NotationError(f"{m.group(1)} is not a {SIDE_NAMES[side]} unit")
            if s.loc[u] != OFF:
                raise NotationError(f"{m.group(1)} appears twice")
            h = hexi(m.group(2))
            s.steps[u] = 1 if m.group(3) else 2
            s.loc[u] = h
            if m.group(4):
                s.done |= 1 << u
            if m.group(5):
                s.rebuilt |= 1 << u
            placed.append((u, h))
    for u, h in placed:
        side = rules.units[u].side
        if u == s.stack:
            continue
        if s.at[h] >= 0:
            raise NotationError(f"two units on {grid.ids[h]}")
        s.at[h] = u
        s.occ[side] |= 1 << h
    if s.stack >= 0:
        h = s.loc[s.stack]
        if h < 0 or s.at[h] < 0 or rules.units[s.at[h]].side != rules.units[s.stack].side:
            raise NotationError("the waiting unit (stack=) must share a hex with a friendly unit")
    if "done" in f:
        for uid in f["done"].split(","):
            s.done |= 1 << unit(uid)
    s.control = 0
    if f["ctl"] != "-":
        for hid in f["ctl"].split(","):
            i = rules.map.city_at.get(hexi(hid), -1)
            if i < 0:
                raise NotationError(f"{hid} is not a city")
            s.control |= 1 << i
    if f["arr"] != "-":
        for uid in f["arr"].split(","):
            s.arrived |= 1 << unit(uid)
    if f["step"] not in STEP_NAMES:
        raise NotationError(f"unknown combat step '{f['step']}'")
    s.cstep = STEP_NAMES.index(f["step"])
    battles = []
    if f["battles"] != "-":
        for item in f["battles"].split(";"):
            battles.append(_battle(item, unit))
    s.battles = tuple(battles)
    if f["cur"] != "-":
        parts = f["cur"].split(":")
        if len(parts) != 5:
            raise NotationError("cur= is DEFENDER<ATTACKERS:HEX:COLUMN:RESULT:OWED")
        d, atk = _battle(parts[0], unit)
        try:
            column, owed = int(parts[2]), int(parts[4])
        except ValueError:
            raise NotationError("cur= column and owed must be numbers") from None
        s.cur = Battle(d, atk, hexi(parts[1]), column, "" if parts[3] == "-" else parts[3], owed)
    s.result = nc.result_field(f["res"])
    # The engine relies on the fields agreeing (one unit a hex, the waiting unit in a movement phase...).
    found = problems(s)
    if found:
        raise NotationError(f"inconsistent position: {found[0]}")
    return s


def _battle(item: str, unit) -> tuple[int, tuple[int, ...]]:  # type: ignore[no-untyped-def]
    if "<" not in item:
        raise NotationError(f"battle '{item}' is not DEFENDER<ATTACKER+ATTACKER")
    d, rest = item.split("<", 1)
    atk = tuple(unit(a) for a in rest.split("+") if a)
    if not atk:
        raise NotationError(f"battle '{item}' has no attacker")
    return unit(d), atk


State.position_text = position_to_text  # State.__repr__ shows the position line
