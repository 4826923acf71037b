"""Battle for Moscow's native core (issue 17): the rules engine in C, optional at install.

The extension ``typhoon.games.bfm._bfmcore`` (source: ``bfmcore.c`` beside this module) is a
transcription of the Python engine, which stays the reference. It holds no game data: this
module hands it every table of a :class:`~typhoon.games.bfm.rules.Rules` (map, terrain, rivers,
cities, counters, CRT, phases, turn track, options) when its tables are made. Actions are
integer codes; which code means what (the research environments' fixed action space) is given
by the caller, so this engine-level module imports no adapter: the env adapter
:mod:`typhoon.games.bfm.env.native` makes the tables with its layout and offers the short forms
(``from_state(state)``, ``new_core(rules)``, ``random_games(rules, n, seed)``)::

    from typhoon.games.bfm.env import native as bfm_native
    core = bfm_native.from_state(state)          # any position, set-up included
    codes = core.legal_codes()                   # == the codec's codes of legal_actions(state)
    core.apply(codes[0])                         # in place; forced decisions taken, as apply does
    state2 = native.to_state(core, rules)        # back to a Python State
    bfm_native.random_games(rules, 100, seed=1)  # whole random games, fully native

``available()`` is False when the extension was not built (no compiler at install) or when
``TYPHOON_NO_NATIVE=1`` is set; callers then keep to the pure-Python engine. The design and
the figures are in docs/BFM_NATIVE.md.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

from typhoon.games.bfm.rules import GERMAN, SIDE_NAMES, SOVIET, Rules
from typhoon.games.bfm.state import Battle, State

RESULT_CODES = ("NE", "DR", "DRL", "AL", "DE", "EX")  # rules.RESULTS, in the core's numbering
_KINDS = {"setup": 0, "replacement": 1, "movement": 2, "combat": 3}
_MOVERS = {"": 0, "all": 0, "panzer": 1, "rail": 2}
_RESULTS = ("german", "soviet", "draw")
_CODE_KEYS = (
    "npad",
    "c_end",
    "c_std",
    "c_stand",
    "c_advnone",
    "c_to",
    "c_attack",
    "c_resolve",
    "c_lose",
    "c_advance",
    "c_restore",
    "c_rshort",
    "c_rlong",
    "n_rlong",
)

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
    return ""


def _require() -> Any:
    why = why_unavailable()
    if why:
        raise RuntimeError(f"the native Battle for Moscow core is unavailable: {why}")
    return _core


def core_module() -> Any:
    """The extension module itself (for its module-level functions, e.g. the AI's movement
    planner ``plan_greedy``); RuntimeError when the core is unavailable."""
    return _require()


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


def table_dict(rules: Rules, layout: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the core needs to know about a ruleset, as plain ints and lists.

    ``layout``: the action codes (the caller's action space): ``pad`` (per hex slot, its
    index in the code space's hex numbering, -1 off the map), ``npad`` (how many such
    indices), the first codes of the blocks ``c_end``, ``c_std`` (standard set-up),
    ``c_stand`` (stand fast: yes, then no), ``c_advnone``, ``c_to`` (unit x hex: place, move,
    rebuild, reinforce), ``c_attack`` (unit x direction), ``c_resolve`` (hex), ``c_lose``,
    ``c_advance``, ``c_restore`` (unit), ``c_rshort`` (2-hex retreats: first direction x turn),
    ``c_rlong`` (longer retreats by rank), ``n_rlong``, and ``via``: per unit, pairs
    (destination hex | bitset of city indices passed << 8, code) of moves through cities.
    Die rolls are codes 0..5."""
    from typhoon.games.bfm.setup_phase import standard_setup

    m = rules.map
    grid = m.grid
    size = grid.size
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
    control0 = sum(1 << i for i, c in enumerate(m.cities) if c.initial_control == "german")
    std = standard_setup(rules)
    results = {r: i for i, r in enumerate(RESULT_CODES)}
    crt = [results.get(rules.crt[d][c], 0) if d and c else 0 for d in range(7) for c in range(7)]
    via_key: list[int] = []
    via_code: list[int] = []
    via_start = [0]
    for rows in layout["via"]:
        pairs = sorted(rows)
        via_key += [k for k, _ in pairs]
        via_code += [c for _, c in pairs]
        via_start.append(len(via_key))
    codes = {k: int(layout[k]) for k in _CODE_KEYS}
    last = rules.last_turn
    return {
        "size": size,
        "stride": grid.stride,
        "valid": _words(grid.all_mask),
        "low": _words(grid._low),
        "high": _words(grid._high),
        "nbd": nbd,
        "dist": dist,
        "pad": list(layout["pad"]),
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
        **codes,
        "via_start": via_start,
        "via_key": via_key,
        "via_code": via_code,
    }


def make_tables(rules: Rules, layout: Mapping[str, Any]) -> Any:
    """The core's Tables object of a ruleset with an action layout (see :func:`table_dict`)."""
    return _require().Tables(table_dict(rules, layout))


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


def core_at(tables: Any, s: State) -> Any:
    """A native core (over ``tables``, made for ``s.rules``) at the position of ``s``, which is
    not changed."""
    if not isinstance(s, State):
        raise TypeError(f"a Battle for Moscow State is expected, not {type(s).__name__}")
    return _require().Core(tables, fields(s))


def core_new(tables: Any) -> Any:
    """A native core at the start of a new game (the Soviet set-up), like ``engine.new_game``."""
    return _require().Core(tables)


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


def random_games(tables: Any, n: int, seed: int = 0) -> Outcomes:
    """``n`` whole games of uniform random play (every choice, die rolls included, uniform among
    the legal codes) from the start of set-up, fully native."""
    core = _require()
    return Outcomes(*core.random_games(tables, int(n), int(seed) & 0xFFFFFFFFFFFFFFFF))


__all__ = [
    "Outcomes",
    "available",
    "core_at",
    "core_module",
    "core_new",
    "fields",
    "make_tables",
    "random_games",
    "table_dict",
    "to_state",
    "why_unavailable",
]
