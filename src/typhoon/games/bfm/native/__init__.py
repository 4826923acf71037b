"""Battle for Moscow's native core (issue 17): the rules engine in C, optional at install.

The extension ``typhoon.games.bfm._bfmcore`` (source: ``bfmcore.c`` beside this module) is a
transcription of the Python engine, which stays the reference. It holds no game data: this
module hands it every table of a :class:`~typhoon.games.bfm.rules.Rules` (map, terrain, rivers,
cities, counters, CRT, phases, turn track, options) when a core is made. Actions are the integer
codes of the research environments' fixed action space (:mod:`typhoon.games.bfm.env.actions`).

    if native.available():
        core = native.from_state(state)          # any position, set-up included
        codes = core.legal_codes()               # == the codec's codes of legal_actions(state)
        core.apply(codes[0])                     # in place; forced decisions are taken, as apply does
        state2 = native.to_state(core, rules)    # back to a Python State
        native.random_games(rules, 100, seed=1)  # whole random games, fully native

``available()`` is False when the extension was not built (no compiler at install), when the
action layout cannot be loaded (it needs numpy, the ``rl`` extra), or when ``TYPHOON_NO_NATIVE=1``
is set; callers then keep to the pure-Python engine. The design and the figures are in
docs/BFM_NATIVE.md.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, NamedTuple

from typhoon.games.bfm.rules import GERMAN, SIDE_NAMES, SOVIET, Rules
from typhoon.games.bfm.state import Battle, State

RESULT_CODES = ("NE", "DR", "DRL", "AL", "DE", "EX")  # rules.RESULTS, in the core's numbering
_KINDS = {"setup": 0, "replacement": 1, "movement": 2, "combat": 3}
_MOVERS = {"": 0, "all": 0, "panzer": 1, "rail": 2}
_RESULTS = ("german", "soviet", "draw")

_core: Any = None
_why_not = ""
try:
    from typhoon.games.bfm import _bfmcore as _core  # type: ignore[attr-defined,no-redef]
except ImportError as exc:  # not built: no compiler at install time
    _why_not = f"the extension typhoon.games.bfm._bfmcore is not built ({exc})"


def available() -> bool:
    """Whether the native core can be used now (see the module docstring)."""
    return not why_unavailable()


def why_unavailable() -> str:
    """Why the native core cannot be used, or '' when it can."""
    if os.environ.get("TYPHOON_NO_NATIVE", "") not in ("", "0"):
        return "TYPHOON_NO_NATIVE is set"
    if _core is None:
        return _why_not
    try:
        import numpy  # noqa: F401  (the action layout of typhoon.games.bfm.env.actions needs it)
    except ImportError:
        return "numpy (the rl extra) is not installed: the action layout needs it"
    return ""


def _require() -> Any:
    why = why_unavailable()
    if why:
        raise RuntimeError(f"the native Battle for Moscow core is unavailable: {why}")
    return _core


def _words(mask: int) -> list[int]:
    if mask >> 192:
        raise ValueError("a hex set beyond 192 slots")
    return [(mask >> (64 * k)) & 0xFFFFFFFFFFFFFFFF for k in range(3)]


def _shift_count(rules: Rules, side: int, h: int) -> int:
    """Columns shifted left for a defender of ``side`` on ``h`` before the river: the reasons
    ``combat_phase.compute_odds`` lists, counted."""
    m = rules.map
    if not rules.defender_shift[side][h]:
        return 0
    reasons = rules.defender_shift_reasons
    n = int(m.is_forest(h))
    n += int(m.is_moscow(h) and "moscow" in reasons)
    n += int(bool((m.major_city_mask >> h) & 1) and "major_city" in reasons)
    n += int(m.is_fortification(h) and "soviet_fortification" in reasons and side == SOVIET)
    return n


@lru_cache(maxsize=32)
def table_dict(rules: Rules) -> dict[str, Any]:
    """Everything the core needs to know about a ruleset, as plain ints and lists."""
    from typhoon.games.bfm.env import actions as ea
    from typhoon.games.bfm.setup_phase import standard_setup

    m = rules.map
    grid = m.grid
    size = grid.size
    codec = ea.codec_for(rules)
    pad = codec.pad_of
    nbd = [x for h in range(size) for x in (grid.neighbours_by_dir[h] or (-1,) * 6)]
    dist = [
        grid.distance(a, b) if grid.ids[a] and grid.ids[b] else 0 for a in range(size) for b in range(size)
    ]
    rail_nb: list[int] = []
    for h in range(size):
        row = list(m.rail_neighbours[h])
        if len(row) > 6:
            raise ValueError("a hex with more than six rail links")
        rail_nb += row + [-1] * (6 - len(row))
    city_at = {c.hex: i for i, c in enumerate(m.cities)}
    control0 = sum(1 << i for i, c in enumerate(m.cities) if c.initial_control == "german")
    std = standard_setup(rules)
    results = {r: i for i, r in enumerate(RESULT_CODES)}
    crt = [results.get(rules.crt[d][c], 0) if d and c else 0 for d in range(7) for c in range(7)]
    # Moves through cities: per unit, (destination | city set << 8) -> code, sorted.
    via_key: list[int] = []
    via_code: list[int] = []
    via_start = [0]
    for u in range(len(rules.units)):
        rows: list[tuple[int, int]] = []
        table = ea.LAYOUT.via_tables[ea.LAYOUT.allowance[u]]
        base = ea.MOVE_VIA + ea.LAYOUT.via_offset[u]
        for i, (dst_pad, via_pad) in enumerate(table):
            dst = codec.ed_of[dst_pad]
            if dst < 0:
                continue
            cities = 0
            ok = True
            p = via_pad
            while p:
                low = p & -p
                p ^= low
                h = codec.ed_of[low.bit_length() - 1]
                if h < 0 or h not in city_at:
                    ok = False
                    break
                cities |= 1 << city_at[h]
            if ok:
                rows.append((dst | (cities << 8), base + i))
        rows.sort()
        via_key += [k for k, _ in rows]
        via_code += [c for _, c in rows]
        via_start.append(len(via_key))
    last = rules.last_turn
    return {
        "size": size,
        "stride": grid.stride,
        "valid": _words(grid.all_mask),
        "low": _words(grid._low),
        "high": _words(grid._high),
        "nbd": nbd,
        "dist": dist,
        "pad": pad,
        "cost": list(m.move_cost),
        "rail_cost": list(m.rail_cost),
        "rail_nb": rail_nb,
        "rail_mask": _words(m.rail_mask),
        "city_hex": [c.hex for c in m.cities],
        "control0": control0,
        "moscow": _words(m.moscow_mask),
        "edge_german": _words(m.edge_mask[SIDE_NAMES[GERMAN]]),
        "edge_soviet": _words(m.edge_mask[SIDE_NAMES[SOVIET]]),
        "stand_fast": _words(rules.stand_fast_mask),
        "setup_german": list(m.setup[SIDE_NAMES[GERMAN]]),
        "setup_soviet": list(m.setup[SIDE_NAMES[SOVIET]]),
        "std_german": [x for pair in std[GERMAN] for x in pair],
        "std_soviet": [x for pair in std[SOVIET] for x in pair],
        "u_side": [u.side for u in rules.units],
        "u_panzer": [int(u.panzer) for u in rules.units],
        "u_full": [u.full for u in rules.units],
        "u_half": [u.half for u in rules.units],
        "u_move": [u.move for u in rules.units],
        "shift": [_shift_count(rules, side, h) for side in (GERMAN, SOVIET) for h in range(size)],
        "river": [w for h in range(size) for w in _words(m.river_mask[h])],
        "crt": crt,
        "ph_kind": [_KINDS[p.kind] for p in rules.phases],
        "ph_side": [p.side for p in rules.phases],
        "ph_movers": [_MOVERS[p.movers] for p in rules.phases],
        "first_turn_phase": rules.first_turn_phase,
        "skip1": sorted(rules.skip_on_turn_1),
        "last_turn": last,
        "mud": sorted(rules.mud_turns),
        "mud_all": int(rules.mud_halves == "all"),
        "repl_german": [rules.german_replacements.get(t, 0) for t in range(last + 1)],
        "repl_soviet": [rules.soviet_replacements.get(t, 0) for t in range(last + 1)],
        "fs_unit": rules.first_shock,
        "fs_mode": int(rules.first_shock_mode == "reinforcement"),
        "fs_turn": rules.first_shock_turn,
        "fs_full": int(rules.first_shock_full),
        "victory": int(rules.victory == "moscow_and_city"),
        "retreat_beyond": int(rules.opt("retreat_extension") == "two_beyond_occupied"),
        "c_end": ea.END_CODE,
        "c_std": ea.SETUP_STANDARD,
        "c_stand": ea.STAND_FAST,
        "c_advnone": ea.ADVANCE_NONE,
        "c_to": ea.TO,
        "c_attack": ea.ATTACK,
        "c_resolve": ea.RESOLVE,
        "c_lose": ea.LOSE,
        "c_advance": ea.ADVANCE,
        "c_restore": ea.RESTORE,
        "c_rshort": ea.RETREAT_SHORT,
        "c_rlong": ea.RETREAT_LONG,
        "n_rlong": ea.RETREAT_LONG_SLOTS,
        "npad": ea.NUM_HEXES,
        "via_start": via_start,
        "via_key": via_key,
        "via_code": via_code,
    }


@lru_cache(maxsize=32)
def tables(rules: Rules) -> Any:
    """The core's Tables object of a ruleset (made once, shared)."""
    return _require().Tables(table_dict(rules))


def fields(s: State) -> tuple[Any, ...]:
    """A Python State's fields in the core's order (see ``Core.export``)."""
    cur = s.cur
    cur_t = (
        None
        if cur is None
        else (
            cur.defender,
            tuple(cur.attackers),
            cur.hex,
            cur.column,
            RESULT_CODES.index(cur.result) if cur.result else -1,
            cur.owed,
        )
    )
    return (
        s.turn,
        s.phase,
        list(s.loc),
        list(s.steps),
        list(s.at),
        _words(s.occ[0]),
        _words(s.occ[1]),
        s.control,
        s.done,
        s.repl,
        s.rebuilt,
        s.arrived,
        s.stack,
        tuple((d, tuple(a)) for d, a in s.battles),
        s.cstep,
        cur_t,
        -1 if s.result is None else _RESULTS.index(s.result),
    )


def from_state(s: State) -> Any:
    """A native core at the position of ``s`` (which is not changed)."""
    if not isinstance(s, State):
        raise TypeError(f"a Battle for Moscow State is expected, not {type(s).__name__}")
    return _require().Core(tables(s.rules), fields(s))


def new_core(rules: Rules) -> Any:
    """A native core at the start of a new game (the Soviet set-up), like ``engine.new_game``."""
    return _require().Core(tables(rules))


class _Fields(NamedTuple):
    turn: int
    phase: int
    loc: list[int]
    steps: list[int]
    at: list[int]
    occ_g: tuple[int, int, int]
    occ_s: tuple[int, int, int]
    control: int
    done: int
    repl: int
    rebuilt: int
    arrived: int
    stack: int
    battles: tuple[tuple[int, tuple[int, ...]], ...]
    cstep: int
    cur: tuple[int, tuple[int, ...], int, int, int, int] | None
    result: int


def _mask(words: tuple[int, int, int]) -> int:
    return words[0] | (words[1] << 64) | (words[2] << 128)


def to_state(core: Any, rules: Rules) -> State:
    """The Python State of a core's position (``rules``: the ruleset the core was made with)."""
    f = _Fields(*core.export())
    s = State(rules, blank=True)
    s.turn = f.turn
    s.phase = f.phase
    s.loc = list(f.loc)
    s.steps = list(f.steps)
    s.at = list(f.at)
    s.occ = [_mask(f.occ_g), _mask(f.occ_s)]
    s.control = f.control
    s.done = f.done
    s.repl = f.repl
    s.rebuilt = f.rebuilt
    s.arrived = f.arrived
    s.stack = f.stack
    s.battles = tuple((d, tuple(a)) for d, a in f.battles)
    s.cstep = f.cstep
    if f.cur is None:
        s.cur = None
    else:
        d, atk, h, col, res, owed = f.cur
        s.cur = Battle(d, tuple(atk), h, col, RESULT_CODES[res] if res >= 0 else "", owed)
    s.result = None if f.result < 0 else _RESULTS[f.result]
    s._cache = {}
    s._legal = None
    return s


class Outcomes(NamedTuple):
    german: int
    soviet: int
    draw: int
    actions: int  # actions chosen (die rolls included; forced decisions not counted)


def random_games(rules: Rules, n: int, seed: int = 0) -> Outcomes:
    """``n`` whole games of uniform random play (every choice, die rolls included, uniform among
    the legal codes) from the start of set-up, fully native."""
    core = _require()
    return Outcomes(*core.random_games(tables(rules), int(n), int(seed) & 0xFFFFFFFFFFFFFFFF))


__all__ = [
    "Outcomes",
    "available",
    "fields",
    "from_state",
    "new_core",
    "random_games",
    "table_dict",
    "tables",
    "to_state",
    "why_unavailable",
]
