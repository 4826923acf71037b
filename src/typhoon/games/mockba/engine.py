"""MOCKBA engine: new_game, legal_actions (the exact list), apply, apply_unchecked, chance_outcomes.

"Seed" is seed 000 (shared/seeds/000_8408c38f8cc1bc90.txt); section numbers cite the reference
pack's rules_en.md. docs/MOCKBA_RULES.md lists every reading.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Mapping
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.events import Event

from .rules import GERMAN, SIDE_NAMES, SOVIET, Rules, UnitSpec, hex_id, hex_index, load_rules
from .state import (
    AIR,
    CANCEL,
    COUNTERAIR,
    ELIM,
    END,
    FIRE,
    INTERDICT,
    OFF,
    PHASES,
    REDUCE,
    ROLLS,
    SETUP_PHASES,
    STANDARD,
    STAY,
    Advance,
    AirSupply,
    Attack,
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
    State,
    Support,
    Undig,
)

BIG = 10**6
BLOW_RANGE = 5  # optional rule 3: a German unit within 5 hexes of the bridge
FRONT_LINE_MIN = 3  # seed 'Game preparation': at least 3 Soviet units on the front line


# ----------------------------------------------------------------------------- geometry
def _axial(r: Rules, h: int) -> tuple[int, int]:
    c, row = divmod(h, r.rows)
    return c, row - (c - (c & 1)) // 2


def distance(r: Rules, a: int, b: int) -> int:
    (aq, ar), (bq, br) = _axial(r, a), _axial(r, b)
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ----------------------------------------------------------------------------- new game
def new_game(edition: str | None = None, options: Mapping[str, str] | None = None) -> State:
    """The seed's set-up, laid out by the map generator (data/map.json ``setup``; the seed's
    constraints are checked by tests/mockba/test_mockba_rules.py)."""
    r = load_rules(edition, options)
    # Rail hexes behind the German lines start interrupted (reading: the Germans hold them).
    cut = r.rail_hexes & r.german_zone
    if r.opt("setup") == "free":
        # Seed 'Game preparation' (pack 2.2-2.3): every unit off the map, the Soviet sets up first.
        return State(rules=r, turn=1, phase=0, loc=(OFF,) * len(r.units), cut=cut, setup=0)
    loc = tuple(u.setup if u.turn == 0 else OFF for u in r.units)
    s = State(rules=r, turn=1, phase=0, loc=loc, cut=cut)
    return _begin(s, [])


def _begin(s: State, events: list[Event]) -> State:
    s = _start_turn(s, events)
    return _advance(s, events)


# ----------------------------------------------------------------------------- free set-up (2)
def setup_next(s: State) -> int:
    """The next unit the side in set-up places (order of battle order; -1 when all are placed).
    Units of one army and type are interchangeable, so a fixed order takes no choice away."""
    side = SETUP_PHASES[s.setup].side
    for u, sp in enumerate(s.rules.units):
        if sp.side == side and sp.turn == 0 and s.loc[u] == OFF:
            return u
    return -1


def _on_line_count(s: State) -> int:
    r = s.rules
    return sum(
        1
        for u, sp in enumerate(r.units)
        if sp.side == SOVIET and sp.deploy == "front" and s.loc[u] >= 0 and r.front_bits >> s.loc[u] & 1
    )


def _setup_barred(s: State, u: int) -> int:
    """Hexes barred to unit u by the guards that keep the set-up from getting stuck
    (docs/MOCKBA_RULES.md): a Soviet front-army unit goes off the front line only while enough
    front-army units remain to put 3 on it (2.2), and never takes room a reserve army still needs
    on its army hexes."""
    r = s.rules
    sp = r.units[u]
    if sp.side != SOVIET or sp.deploy != "front":
        return 0
    barred = 0
    left = sum(
        1
        for x, xs in enumerate(r.units)
        if x != u and xs.side == SOVIET and xs.deploy == "front" and xs.turn == 0 and s.loc[x] == OFF
    )
    if _on_line_count(s) + left < FRONT_LINE_MIN:
        barred |= ~r.front_bits & ((1 << len(r.terrain)) - 1)
    lim, _ = r.stack_limit(SOVIET)
    loads = _loads(s)
    for army in sorted({xs.army for xs in r.units if xs.deploy == "reserve"}):
        zone = r.setup_zones[army]
        need = sum(2 for x, xs in enumerate(r.units) if xs.army == army and s.loc[x] == OFF)
        free = {z: (lim - loads.get(z, (0, 0))[0]) // 2 * 2 for z in _bits(zone)}
        room = sum(free.values())
        for z, f in free.items():
            if room - f + (lim - loads.get(z, (0, 0))[0] - sp.halves) // 2 * 2 < need:
                barred |= 1 << z
    return barred


def _setup_actions(s: State) -> list[Any]:
    r = s.rules
    u = setup_next(s)
    sp = r.units[u]
    zone = r.setup_zones[sp.army] & ~_full(s, sp.side, sp.size) & ~_setup_barred(s, u)
    out: list[Any] = [Place(sp.id, hex_id(h)) for h in _bits(zone)]
    if _standard_ok(s):
        out.append(STANDARD)
    return out


def _standard_rest(s: State) -> dict[int, int]:
    side = SETUP_PHASES[s.setup].side
    return {
        u: sp.setup
        for u, sp in enumerate(s.rules.units)
        if sp.side == side and sp.turn == 0 and s.loc[u] == OFF
    }


def _standard_ok(s: State) -> bool:
    """The 'standard set-up' action: the side's remaining units on their fixed lay-out hexes, if
    that keeps stacking (2.4) and, for the Soviet, 3 units on the front line (2.2)."""
    rest = _standard_rest(s)
    t = s.replace(loc=tuple(rest.get(u, x) for u, x in enumerate(s.loc)))
    if any(not _fits(t, t.units_at(h)) for h in set(rest.values())):
        return False
    return t.setup == 1 or _on_line_count(t) >= FRONT_LINE_MIN


def _setup_step(s: State, a: Any, events: list[Event]) -> State:
    if a.kind == "standard":
        side = SETUP_PHASES[s.setup].side
        events.append(Event("setup", f"{SIDE_NAMES[side].title()} units set up as in the fixed lay-out.", {}))
        s = s.replace(loc=tuple(_standard_rest(s).get(u, x) for u, x in enumerate(s.loc)))
    else:
        events.append(Event("setup", f"{a.unit} sets up at {a.hex}.", {}))
        loc = list(s.loc)
        loc[_uid(s, a.unit)] = _hid(a.hex)
        s = s.replace(loc=tuple(loc))
    if setup_next(s) >= 0:
        return s
    if s.setup == 0:
        return s.replace(setup=1)
    return _begin(s.replace(setup=-1), events)


# ----------------------------------------------------------------------------- unit facts
def _spec(s: State, u: int) -> UnitSpec:
    return s.rules.units[u]


def _uid(s: State, name: str) -> int:
    try:
        return s.rules.unit_index[name]
    except KeyError:
        raise IllegalActionError(f"no unit {name!r}") from None


def _hid(text: str) -> int:
    try:
        return hex_index(text)
    except KeyError:
        raise IllegalActionError(f"no hex {text!r}") from None


def _on_map(s: State, side: int) -> list[int]:
    units = s.rules.units
    return [u for u, x in enumerate(s.loc) if x >= 0 and units[u].side == side]


def base_cf(s: State, u: int) -> int:
    """The counter's current face: dug in 2 (seed), reduced side, or the front."""
    if s.dug >> u & 1:
        return 2
    if s.red >> u & 1:
        return _spec(s, u).reduced
    return s.rules.cf(u)


def german_cf_reduction(s: State, u: int) -> int:
    """Calendar: German CF reduction per unit type (panzer / other)."""
    sp = _spec(s, u)
    if sp.side != GERMAN:
        return 0
    red = s.rules.calendar[s.turn]["german_cf_reduction"]
    panzer = sp.kind == "armor" or (sp.kind == "mech" and s.rules.opt("german_cf_panzer") == "armour_mech")
    return int(red["panzer" if panzer else "other"])


def unit_cf(s: State, u: int) -> int:
    return max(1, base_cf(s, u) - german_cf_reduction(s, u))


def movement_points(s: State, u: int) -> int:
    """Half MF: printed MF less the calendar's German reduction for the phase (MF 2 never
    reduced, seed); a dug-in unit has MF 0 (seed)."""
    sp = _spec(s, u)
    if s.dug >> u & 1:
        return 0
    mf = sp.mf
    if sp.side == GERMAN and mf != 2:
        key = "exploitation" if s.phase_spec.key == "g_exploit" else "first"
        table = s.rules.calendar[s.turn]["german_mf_reduction"][key] or {}
        mf -= int(table.get(str(mf), 0))
    return 2 * max(0, mf)


def _stack_ok(s: State, h: int, adding: list[int], leaving: tuple[int, ...] | list[int] = ()) -> bool:
    """Seed: German 3 divisions and 1 regiment, Soviet 4 divisions; 2 brigades = 1 division."""
    if len(adding) == 1 and not leaving:
        return _room(s, h, adding[0])
    units = [u for u in s.units_at(h) if u not in leaving] + adding
    if not units:
        return True
    return _fits(s, units)


def _fits(s: State, units: list[int]) -> bool:
    side = _spec(s, units[0]).side
    lim = s.rules.tables["stacking"][SIDE_NAMES[side]]
    regs = sum(1 for u in units if _spec(s, u).size == "regiment")
    halves = sum(_spec(s, u).halves for u in units) - min(regs, int(lim["regiments"]))
    return halves <= int(lim["halves"])


def _room(s: State, h: int, u: int) -> bool:
    """Whether one more unit u fits on hex h."""
    sp = s.rules.units[u]
    return not _full(s, sp.side, sp.size) >> h & 1


def _full(s: State, side: int, size: str) -> int:
    """Bitset of the hexes where one more unit of this side and size does not fit (memoised per
    position; an empty hex always has room)."""
    key = f"full{side}{size}"
    memo: dict[str, Any] = s._memo
    out = memo.get(key)
    if out is None:
        out = 0
        lim_halves, lim_regs = s.rules.stack_limit(side)
        add = 2 if size == "division" else 1
        reg = size == "regiment"
        for h, (halves, regs) in _loads(s).items():
            if halves + add - min(regs + reg, lim_regs) > lim_halves:
                out |= 1 << h
        memo[key] = out
    return out  # type: ignore[no-any-return]


def _loads(s: State) -> dict[int, tuple[int, int]]:
    """Hex -> (half-divisions, regiments) of the units on it."""
    memo: dict[str, Any] = s._memo
    out = memo.get("loads")
    if out is None:
        out = {}
        units = s.rules.units
        for u, h in enumerate(s.loc):
            if h >= 0:
                a, b = out.get(h, (0, 0))
                sp = units[u]
                out[h] = (a + sp.halves, b + (sp.size == "regiment"))
        memo["loads"] = out
    return out  # type: ignore[no-any-return]


# ----------------------------------------------------------------------------- ZOC
def zoc(s: State, side: int) -> int:
    """Hexes in the ZOC of ``side``'s units: the six adjacent hexes (seed), except that German
    units exert none into a Soviet fortification hex they stand in front of (seed); optional
    rule 1: dug-in infantry none; optional rule 2: turns 1-7, none across a river."""
    key = f"zoc{side}"
    if key in s._memo:
        return s._memo[key]  # type: ignore[no-any-return]
    r = s.rules
    out = 0
    no_dug = r.opt("opt1_dug_in_zoc") == "on"
    no_river = r.opt("opt2_river_zoc") == "on" and s.turn <= 7
    for u in _on_map(s, side):
        if no_dug and s.dug >> u & 1:
            continue
        h = s.loc[u]
        for n in r.nbrs[h]:
            if r.terrain[n] == "lake":
                continue
            if side == GERMAN and h in r.forts.get(n, ()):
                continue
            if no_river and r.pair(h, n) in r.rivers:
                continue
            out |= 1 << n
    s._memo[key] = out
    return out


# ----------------------------------------------------------------------------- supply (7)
def _german_supplied_hexes(s: State) -> int:
    r = s.rules
    enemy, ez, own = s.occupied(SOVIET), zoc(s, SOVIET), s.occupied(GERMAN)
    ok = ~enemy & (~ez | own)
    seen = r.west_edge & ok
    todo = _bits(seen)
    while todo:
        h = todo.pop()
        for n in r.nbrs[h]:
            if not seen >> n & 1 and ok >> n & 1 and r.terrain[n] != "lake":
                seen |= 1 << n
                todo.append(n)
    return seen


def rail_links(s: State) -> dict[int, tuple[int, ...]]:
    """The railway's links, less those over blown bridges (optional rule 3; cached per set)."""
    r = s.rules
    if not s.blown:
        return r.rail_links
    key = ("links", s.blown)
    got = r._cache.get(key)
    if got is None:
        gone = {r.bridges[i] for i in _bits(s.blown)}
        got = r._cache[key] = {
            h: tuple(n for n in ns if r.pair(h, n) not in gone) for h, ns in r.rail_links.items()
        }
    return got  # type: ignore[no-any-return]


def soviet_rail_net(s: State) -> int:
    """Rail hexes joined by unbroken rail, free of German units, to a line leaving the map on the
    north, east or south side (seed)."""
    r = s.rules
    bad = s.occupied(GERMAN) | s.cut
    start = (r.rail_exits.get("north", 0) | r.rail_exits.get("east", 0) | r.rail_exits.get("south", 0)) & ~bad
    seen = start
    todo = _bits(start)
    links = rail_links(s)
    while todo:
        h = todo.pop()
        for n in links.get(h, ()):
            if not seen >> n & 1 and not bad >> n & 1:
                seen |= 1 << n
                todo.append(n)
    return seen


def _soviet_supply_dist(s: State) -> list[int]:
    """Hexes from the nearest Soviet source (east edge, north edge east of the railway, the rail net)
    through hexes free of German units and of German ZOC unless Soviet units stand there (seed)."""
    r = s.rules
    enemy, ez, own = s.occupied(GERMAN), zoc(s, GERMAN), s.occupied(SOVIET)
    ok = ~enemy & (~ez | own)
    dist = [BIG] * len(r.terrain)
    q: deque[int] = deque()
    for h in _bits((r.soviet_edge | soviet_rail_net(s)) & ok):
        if r.terrain[h] != "lake":
            dist[h] = 0
            q.append(h)
    while q:
        h = q.popleft()
        for n in r.nbrs[h]:
            if dist[n] == BIG and ok >> n & 1 and r.terrain[n] != "lake":
                dist[n] = dist[h] + 1
                q.append(n)
    return dist


def _supply(s: State) -> tuple[int, list[int], int]:
    if "supply" not in s._memo:
        g = _german_supplied_hexes(s)
        d = _soviet_supply_dist(s)
        s._memo["supply"] = (g, d, _seliger_unit(s, d))
    return s._memo["supply"]  # type: ignore[no-any-return]


def _seliger_unit(s: State, dist: list[int]) -> int:
    """Seed: 1 Soviet unit on the west side of Lake Seliger may be supplied across the lake
    (reading: a unit next to the lake, when a hex next to the lake is in Soviet supply)."""
    r = s.rules
    near = 0
    for h in _bits(r.seliger):
        for n in r.nbrs[h]:
            near |= 1 << n
    limit = int(r.tables["soviet_supply_length"])
    if not any(dist[h] <= limit for h in _bits(near)):
        return -1
    for u in _on_map(s, SOVIET):
        h = s.loc[u]
        if near >> h & 1 and dist[h] > limit:
            return u
    return -1


def traces_supply(s: State, u: int) -> bool:
    """Whether unit u can trace a supply route now (air supply counts for the turn, seed)."""
    sp = _spec(s, u)
    h = s.loc[u]
    if h < 0:
        return True
    g, d, sel = _supply(s)
    if sp.side == GERMAN:
        return bool(g >> h & 1) or bool(s.airsup >> u & 1)
    if s.dropped >> u & 1:
        return True  # optional rule 6: supplied during the drop (the turn)
    return d[h] <= int(s.rules.tables["soviet_supply_length"]) or u == sel


# ----------------------------------------------------------------------------- movement (8)
def move_options(s: State, u: int) -> dict[int, int]:
    """Hexes unit u can reach this phase (-> cost in half MF). Seed: entering an enemy ZOC ends the
    move; only armour moves ZOC to ZOC (+1 MF); German non-armour starting in an enemy ZOC may, in
    the first movement phase, move one hex into another and stop; never onto enemy units or lakes;
    at least 1 hex whatever the cost."""
    return {h: c for h, c, _ in _reach_cached(s, u) if _room(s, h, u)}


def _reach_cached(s: State, u: int) -> list[tuple[int, int, Move]]:
    """The reach depends only on these (enemy units do not move in a movement phase): cached on the
    rules across the positions of a phase, with its Move actions; stacking is checked per position."""
    r = s.rules
    sp = _spec(s, u)
    if s.dug >> u & 1:
        return []
    enemy = s.occupied(1 - sp.side)
    ez = zoc(s, 1 - sp.side)
    start = s.loc[u]
    ma = movement_points(s, u)
    first = s.phase_spec.key in ("g_move", "g_move2p")
    key = ("reach", u, start, ma, first, s.turn, enemy, ez, s.blown)
    cache = r._cache
    reach = cache.get(key)
    if reach is None:
        if len(cache) > 20000:
            for k in [k for k in cache if k[0] == "reach"]:
                del cache[k]
        got = _reach(s, sp, start, ma, first, enemy, ez)
        reach = cache[key] = [(h, got[h], Move(sp.id, hex_id(h))) for h in sorted(got)]
    return reach  # type: ignore[no-any-return]


def _reach(s: State, sp: UnitSpec, start: int, ma: int, first: bool, enemy: int, ez: int) -> dict[int, int]:
    r = s.rules
    steps = r.steps(sp.motorised, int(r.calendar[s.turn]["river"]), s.blown)
    armoured = sp.armoured
    best: dict[int, int] = {start: 0}
    heap = [(0, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > best.get(h, BIG):
            continue
        in_z = ez >> h & 1
        if h != start and in_z and not armoured:
            continue  # entered an enemy ZOC: stop
        for n, cost in steps[h]:
            if enemy >> n & 1:
                continue
            nc = c + cost
            if in_z and ez >> n & 1:
                if not armoured:
                    continue
                nc += 2  # armour ZOC to ZOC: +1 MF
            if nc <= ma and nc < best.get(n, BIG):
                best[n] = nc
                heapq.heappush(heap, (nc, n))
    for n in r.nbrs[start]:
        if n in best or enemy >> n & 1 or r.terrain[n] == "lake":
            continue
        if ez >> start & 1 and ez >> n & 1 and not sp.armoured and not (sp.side == GERMAN and first):
            continue
        best[n] = ma  # at least 1 hex (seed)
    best.pop(start, None)
    return best


def rail_options(s: State, u: int) -> list[int]:
    """Seed: Soviet rail movement, unlimited, never over interrupted rail hexes, German units or
    their ZOC."""
    start = s.loc[u]
    comp = _rail_components(s)
    if start not in comp:
        return []
    full = _full(s, _spec(s, u).side, _spec(s, u).size)
    return [h for h in comp[start] if h != start and not full >> h & 1]


def _rail_moves(s: State, u: int) -> list[tuple[int, Rail]]:
    """The Rail actions of unit u (before stacking), cached on the rules per rail component."""
    start = s.loc[u]
    comp = _rail_components(s).get(start)
    if comp is None:
        return []
    key = ("railmoves", u, start, tuple(comp))
    cache = s.rules._cache
    got = cache.get(key)
    if got is None:
        uid = _spec(s, u).id
        got = cache[key] = [(h, Rail(uid, hex_id(h))) for h in comp if h != start]
    return got  # type: ignore[no-any-return]


def _rail_components(s: State) -> dict[int, list[int]]:
    """Rail hex -> the sorted rail hexes joined to it by rail free of interruptions, German units
    and German ZOC (memoised)."""
    r = s.rules
    bad = s.occupied(GERMAN) | s.cut | zoc(s, GERMAN)
    key = ("rail", bad, s.blown)
    links = rail_links(s)
    if key in r._cache:
        return r._cache[key]  # type: ignore[no-any-return]
    if len(r._cache) > 20000:
        for k in [k for k in r._cache if k[0] in ("rail", "railmoves")]:
            del r._cache[k]
    out: dict[int, list[int]] = {}
    for h0 in _bits(r.rail_hexes & ~bad):
        if h0 in out:
            continue
        seen = {h0}
        todo = [h0]
        while todo:
            h = todo.pop()
            for n in links.get(h, ()):
                if n not in seen and not bad >> n & 1:
                    seen.add(n)
                    todo.append(n)
        comp = sorted(seen)
        for h in comp:
            out[h] = comp
    r._cache[key] = out
    return out


# ----------------------------------------------------------------------------- combat (9)
def _attack_cf(s: State, u: int, target: int) -> int:
    """Terrain: across a river x 1/2; armour into rough x 1/2; halves rounded up; never below 1."""
    r = s.rules
    cf = unit_cf(s, u)
    if r.pair(s.loc[u], target) in r.rivers:
        cf = (cf + 1) // 2
    if _spec(s, u).armoured and r.terrain[target] == "rough":
        cf = (cf + 1) // 2
    return max(1, cf)


def _defend_cf(s: State, u: int) -> int:
    """Non-entrenched infantry defending a city x 2 (seed)."""
    cf = unit_cf(s, u)
    h = s.loc[u]
    if s.rules.city_hexes >> h & 1 and _spec(s, u).kind == "infantry" and not s.dug >> u & 1:
        cf *= 2
    return cf


def fort_shift(s: State, b: Battle) -> int:
    """Seed: Soviet units in a fortification attacked by Germans wholly from its front: 2 columns
    left; from front and side 1; none from the side or behind."""
    r = s.rules
    front = r.forts.get(b.target)
    if not front or s.side != GERMAN:
        return 0
    froms = {s.loc[u] for u in b.attackers}
    n = sum(1 for h in froms if h in front)
    if n == len(froms):
        return 2
    return 1 if n else 0


def strengths(s: State, b: Battle) -> tuple[int, int]:
    r = s.rules
    per_air = 1 if r.opt("air_point") == "cf" else 0
    att = sum(_attack_cf(s, u, b.target) for u in b.attackers) + per_air * b.air
    defs = [u for u in s.units_at(b.target) if not s.retreated >> u & 1]  # Q4
    dfs = sum(_defend_cf(s, u) for u in defs) + per_air * b.dair
    return att, dfs


def odds(s: State, b: Battle) -> tuple[int, list[str]]:
    """CRT column (-1: below 1:3, not allowed). Ratio rounded in the defender's favour, held
    within 1:3-7:1, fortification shifts applied after (seed)."""
    att, dfs = strengths(s, b)
    if dfs <= 0:
        col = 8
    elif att >= dfs:
        col = 2 + min(7, att // dfs) - 1
    else:
        k = -(-dfs // att)
        if k > 3:
            return -1, [f"{att}:{dfs} is below 1:3"]
        col = 3 - k
    why = [f"{att}:{dfs} -> {s.rules.columns[col]}"]
    sh = fort_shift(s, b)
    if sh:
        col = max(0, col - sh)
        why.append(f"fortification: {sh} column(s) left -> {s.rules.columns[col]}")
    return col, why


def _terrain_edge(s: State, b: Battle) -> bool:
    """Optional rule 4: the defender had a terrain advantage (city, fortification, river, rough)."""
    r = s.rules
    if fort_shift(s, b) or any(_defend_cf(s, u) > unit_cf(s, u) for u in s.units_at(b.target)):
        return True
    return any(_attack_cf(s, u, b.target) < unit_cf(s, u) for u in b.attackers if unit_cf(s, u) > 1) or any(
        r.pair(s.loc[u], b.target) in r.rivers for u in b.attackers
    )


def _reduce(s: State, loc: list[int], red: int, dug: int, u: int) -> tuple[int, int, bool]:
    """Seed: already-reduced units, dug-in and Soviet 1-CF infantry are eliminated by a reduction."""
    if red >> u & 1 or dug >> u & 1 or _spec(s, u).reduced == 0:
        loc[u] = ELIM
        return red & ~(1 << u), dug & ~(1 << u), True
    return red | 1 << u, dug, False


def _own_edge_dist(s: State, side: int, h: int) -> int:
    c = h // s.rules.rows
    return c if side == GERMAN else s.rules.cols - 1 - c


def retreat_paths(s: State, units: tuple[int, ...], start: int, length: int) -> list[tuple[int, ...]]:
    """Seed: each hex farther from the start (reading), never onto enemy units or lakes; into an
    enemy ZOC only where friendly units stand, unless every retreating unit is armoured; stacking
    at the end; toward the side's supply sources if possible."""
    r = s.rules
    side = _spec(s, units[0]).side
    enemy = s.occupied(1 - side)
    own = s.occupied(side)
    ez = zoc(s, 1 - side)
    armour = all(_spec(s, u).armoured for u in units)
    out: list[tuple[int, ...]] = []

    def step(cur: int, path: tuple[int, ...]) -> None:
        if len(path) == length:
            if _stack_ok(s, cur, list(units), units):
                out.append(path)
            return
        for n in r.nbrs[cur]:
            if enemy >> n & 1 or r.terrain[n] == "lake" or distance(r, n, start) != len(path) + 1:
                continue
            if ez >> n & 1 and not armour and not own >> n & 1:
                continue
            step(n, (*path, n))

    step(start, ())
    toward = [p for p in out if _own_edge_dist(s, side, p[-1]) < _own_edge_dist(s, side, start)]
    return toward or out


def _advance_options(s: State, b: Battle) -> list[int]:
    """Seed: only into the vacated attacked hex, by attacking units; a fortification hex only if the
    defender was eliminated."""
    if s.occupied(1 - s.side) >> b.target & 1 or (b.target in s.rules.forts and not b.eliminated):
        return []
    return [u for u in b.attackers if s.loc[u] >= 0 and s.loc[u] != b.target and _stack_ok(s, b.target, [u])]


# ----------------------------------------------------------------------------- legal actions
def legal_actions(s: State) -> list[Any]:
    if "legal" not in s._memo:
        s._memo["legal"] = _legal(s)
    return list(s._memo["legal"])


def _legal(s: State) -> list[Any]:
    if s.result is not None:
        return []
    if s.setup >= 0:
        return _setup_actions(s)
    b = s.battle
    if b is not None:
        return _battle_actions(s, b)
    kind = s.phase_spec.kind
    if kind == "air":
        return _air_actions(s)
    if kind == "reinforce":
        return _reinforce_actions(s)
    if kind == "movement":
        return _movement_actions(s)
    if kind == "combat":
        return _combat_actions(s)
    return [END]


def _air_actions(s: State) -> list[Any]:
    """Seed: counter-air at 2 German points per Soviet point; interdiction 2 rail moves a point;
    air supply 2 points a division, 1 a reduced division or smaller unit."""
    tab = s.rules.tables["air"]
    out: list[Any] = []
    if s.air_g >= int(tab["counter_air_cost"]) and s.air_s > 0:
        out.append(COUNTERAIR)
    if s.air_g >= 1 and s.rail_left > 0:
        out.append(INTERDICT)
    for u in _on_map(s, GERMAN):
        if not s.airsup >> u & 1 and not traces_supply(s, u) and s.air_g >= _air_supply_cost(s, u):
            out.append(AirSupply(_spec(s, u).id))
    out.append(END)
    return out


def _air_supply_cost(s: State, u: int) -> int:
    tab = s.rules.tables["air"]
    full_div = _spec(s, u).size == "division" and not s.red >> u & 1
    return int(tab["supply_division"] if full_div else tab["supply_small"])


def _can_move_now(s: State, u: int) -> bool:
    key = s.phase_spec.key
    if s.moved >> u & 1:
        return False
    if key == "s_move" and s.dropped >> u & 1:
        return False  # optional rule 6: no first movement after the drop
    if key == "g_move2p" and _spec(s, u).army not in s.rules.second_panzer:
        return False
    if key in ("g_exploit", "s_exploit"):
        if s.fu >> u & 1:
            return False
        if key == "g_exploit" and s.turn == 1 and s.rules.opt("t1_followup") == "others":
            return _spec(s, u).army not in s.rules.second_panzer
    return True


def _movement_actions(s: State) -> list[Any]:
    out: list[Any] = []
    side = s.side
    for u in _on_map(s, side):
        if not _can_move_now(s, u):
            continue
        sp = _spec(s, u)
        uid = sp.id
        full = _full(s, side, sp.size)
        out += [m for h, _, m in _reach_cached(s, u) if not full >> h & 1]
        if side == SOVIET and s.rail_left > 0:
            out += [m for h, m in _rail_moves(s, u) if not full >> h & 1]
        sp = _spec(s, u)
        if sp.can_dig and not s.red >> u & 1:
            out.append(Undig(uid) if s.dug >> u & 1 else Dig(uid))
    out.append(END)
    return out


def _reinforce_actions(s: State) -> list[Any]:
    """Seed: reinforcements with an army designation enter by a railway line or a map-edge hex;
    militia and rebuilt units (from turn 3) on friendly cities; at most 2 armoured units rebuilt;
    stacking applies; reinforcements may enter later than scheduled."""
    r = s.rules
    german = s.occupied(GERMAN)
    edge_entry = (
        r.soviet_edge | r.rail_exits.get("north", 0) | r.rail_exits.get("east", 0)
    ) | r.rail_exits.get("south", 0)
    edge_entry &= ~german & ~s.cut
    cities = [h for h in _bits(r.city_hexes & ~german) if not s.control >> h & 1]
    out: list[Any] = []
    for u, sp in enumerate(r.units):
        if sp.side != SOVIET or s.loc[u] != OFF or not 0 < sp.turn <= s.turn or sp.deploy == "para":
            continue
        spots = cities if sp.deploy == "city" else _bits(edge_entry)
        out += [Reinforce(sp.id, hex_id(h)) for h in spots if r.terrain[h] != "lake" and _stack_ok(s, h, [u])]
    out += _drop_actions(s)
    allow = int(r.calendar[s.turn]["rebuild"])
    tab = r.tables["rebuild"]
    for u, sp in enumerate(r.units):
        if sp.side != SOVIET or s.loc[u] != ELIM:
            continue
        cost = _rebuild_cost(s, u)
        if s.rebuilt_turn + cost > 2 * allow or s.rebuilt + cost > 2 * int(tab["total"]):
            continue
        if sp.armoured and s.rebuilt_armour >= int(tab["armour_max"]):
            continue
        out += [Rebuild(sp.id, hex_id(h)) for h in cities if _stack_ok(s, h, [u])]
    out.append(END)
    return out


def _para(s: State) -> int:
    return next((u for u, sp in enumerate(s.rules.units) if sp.deploy == "para"), -1)


def _drop_actions(s: State) -> list[Any]:
    """Optional rule 6: from turn 4 the para unit may be dropped in a turn when the Soviet air force
    is not wholly suppressed (Soviet air points left); any land hex free of German units with room
    (reading: the seed names no range)."""
    r = s.rules
    u = _para(s)
    if r.opt("opt6_para") != "on" or u < 0 or s.loc[u] != OFF or s.turn < r.units[u].turn or s.air_s <= 0:
        return []
    german = s.occupied(GERMAN)
    full = _full(s, SOVIET, r.units[u].size)
    return [
        Drop(hex_id(h))
        for h in range(len(r.terrain))
        if r.terrain[h] != "lake" and not (german | full) >> h & 1
    ]


def _rebuild_cost(s: State, u: int) -> int:
    """In half units: a unit is 2 (seed 'units'); optional rule 5 counts divisions (a brigade 1)."""
    if s.rules.opt("opt5_rebuild") == "on":
        return _spec(s, u).halves
    return 2


def _may_attack(s: State, u: int) -> bool:
    """Seed: a unit attacks at most once a phase; on turn 1 only the 2nd Panzer Army fights in its
    second combat phase (and, option t1_followup=others, not in the follow-up); dug-in units hold
    (reading)."""
    r = s.rules
    if s.attacked >> u & 1 or s.dug >> u & 1:
        return False
    key = s.phase_spec.key
    p2 = _spec(s, u).army in r.second_panzer
    if key == "g_combat2p" and not p2:
        return False
    return not (key == "g_followup" and s.turn == 1 and r.opt("t1_followup") == "others" and p2)


def _combat_actions(s: State) -> list[Any]:
    r = s.rules
    enemy = s.occupied(1 - s.side)
    if s.phase_spec.key in ("g_followup", "s_followup") and r.opt("followup_targets") == "defenders":
        enemy = 0  # seed: the follow-up attacks the defender's units (those attacked before) again
        for u in _bits(s.hit):
            if s.loc[u] >= 0:
                enemy |= 1 << s.loc[u]
    out: list[Any] = []
    for u in _on_map(s, s.side):
        if not _may_attack(s, u):
            continue
        for n in r.nbrs[s.loc[u]]:
            if enemy >> n & 1:
                out.append(Attack(_spec(s, u).id, hex_id(n)))
    out += _blow_actions(s)
    out.append(END)
    return out


def bridge_need(s: State, i: int) -> int:
    """Optional rule 3: the die a try on bridge i needs (5, or 6 with a German unit at the bridge,
    i.e. on one of its two hexes); 0 when no German unit is within 5 hexes (no try)."""
    r = s.rules
    a, b = r.bridges[i]
    german = _on_map(s, GERMAN)
    near = min((min(distance(r, s.loc[g], a), distance(r, s.loc[g], b)) for g in german), default=BIG)
    if near > BLOW_RANGE:
        return 0
    return 6 if near == 0 else 5


def _blow_actions(s: State) -> list[Any]:
    """Optional rule 3 (reading, docs): in his first combat phase, instead of attacking, a Soviet
    unit on one of a bridge's two hexes may try to blow it (once a bridge a phase)."""
    r = s.rules
    if r.opt("opt3_bridges") != "on" or s.phase_spec.key != "s_combat":
        return []
    out: list[Any] = []
    for i, (a, b) in enumerate(r.bridges):
        if (s.blown | s.tried) >> i & 1 or not bridge_need(s, i):
            continue
        for here, there in ((a, b), (b, a)):
            out += [
                Blow(_spec(s, u).id, hex_id(there))
                for u in s.units_at(here)
                if _spec(s, u).side == SOVIET and _may_attack(s, u)
            ]
    return out


def _air_left(s: State, side: int) -> int:
    return s.air_g if side == GERMAN else s.air_s


def _battle_actions(s: State, b: Battle) -> list[Any]:
    r = s.rules
    side = s.side
    if b.step == "declare":
        out: list[Any] = []
        for u in _on_map(s, side):
            if u in b.attackers or not _may_attack(s, u):
                continue
            if b.target in r.nbrs[s.loc[u]]:
                out.append(Attack(_spec(s, u).id, hex_id(b.target)))
        if b.air < len(b.attackers) and _air_left(s, side) > b.air:
            out.append(AIR)  # at most 1 air point per attacking unit (seed)
        if b.attackers and odds(s, b)[0] >= 0:
            out.append(FIRE)
        out.append(CANCEL)
        return out
    if b.step == "support":
        return [Support(True), Support(False)]
    if b.step in ("roll", "drop_roll", "blow_roll"):
        return list(ROLLS)
    if b.step == "d3":
        units = tuple(s.units_at(b.target))
        return ([Retreat(())] if retreat_paths(s, units, b.target, 3) else []) + [REDUCE]
    if b.step == "retreat":
        at = b.groups[0]
        units = _retreating(s, b, at)
        paths = retreat_paths(s, units, at, b.length)
        return [Retreat(tuple(hex_id(h) for h in p)) for p in paths] + ([] if b.result == "D3" else [REDUCE])
    if b.step in ("loss", "penalty"):
        return [Lose(_spec(s, u).id) for u in b.attackers if s.loc[u] >= 0]
    if b.step == "advance":
        return [Advance(_spec(s, u).id, hex_id(b.target)) for u in _advance_options(s, b)] + [STAY]
    raise IllegalActionError(f"unknown battle step {b.step!r}")


def _retreating(s: State, b: Battle, at: int) -> tuple[int, ...]:
    if b.result.startswith("A"):
        return tuple(u for u in b.attackers if s.loc[u] == at)
    return tuple(s.units_at(at))


def chance_outcomes(s: State) -> list[tuple[Any, float]]:
    return [(x, 1 / 6) for x in ROLLS] if s.current_player() == -1 else []


# ----------------------------------------------------------------------------- apply
def apply(s: State, action: Any) -> tuple[State, list[Any]]:
    if action not in legal_actions(s):
        where = s.phase_spec.name if s.battle is None else f"{s.phase_spec.name}, battle step {s.battle.step}"
        raise IllegalActionError(f"{action!r} is not legal now ({where})")
    events: list[Event] = []
    return _step(s, action, events), events


def apply_unchecked(s: State, action: Any) -> State:
    return _step(s, action, [])


def _relocate(s: State, moves: dict[int, int], **kw: Any) -> State:
    """Move units; a German unit entering a rail hex interrupts it (seed); a unit entering a city
    takes it (and the German captures a victory city in time by its deadline)."""
    r = s.rules
    loc = list(s.loc)
    cut, control, taken = s.cut, s.control, s.taken
    for u, h in moves.items():
        loc[u] = h
        if h < 0:
            continue
        german = _spec(s, u).side == GERMAN
        if german and r.rail_hexes >> h & 1:
            cut |= 1 << h
        if r.city_hexes >> h & 1:
            if german:
                control |= 1 << h
                for vh, deadline, _ in r.victory:
                    if vh == h and s.turn <= deadline:
                        taken |= 1 << h
            else:
                control &= ~(1 << h)
    return s.replace(loc=tuple(loc), cut=cut, control=control, taken=taken, **kw)


def _step(s: State, a: Any, events: list[Event]) -> State:
    k = a.kind
    r = s.rules
    b = s.battle
    if s.setup >= 0:
        return _setup_step(s, a, events)
    if k == "end" and b is None:
        return _end_phase(s, events)
    if k == "counterair":
        events.append(Event("air", "German counter-air: 2 German points cancel 1 Soviet point.", {}))
        return s.replace(air_g=s.air_g - int(r.tables["air"]["counter_air_cost"]), air_s=s.air_s - 1)
    if k == "interdict":
        per = int(r.tables["rail"]["per_interdiction_point"])
        events.append(Event("air", f"German interdiction: Soviet rail capacity -{per}.", {}))
        return s.replace(air_g=s.air_g - 1, rail_left=max(0, s.rail_left - per))
    if k == "airsupply":
        u = _uid(s, a.unit)
        events.append(Event("air", f"{a.unit} is supplied by air this turn.", {}))
        return s.replace(air_g=s.air_g - _air_supply_cost(s, u), airsup=s.airsup | 1 << u)
    if k == "move":
        u, h = _uid(s, a.unit), _hid(a.dst)
        events.append(Event("move", f"{a.unit} moves to {a.dst}.", {}))
        return _relocate(s, {u: h}, moved=s.moved | 1 << u)
    if k == "rail":
        u, h = _uid(s, a.unit), _hid(a.dst)
        events.append(Event("rail", f"{a.unit} moves by rail to {a.dst}.", {}))
        return _relocate(s, {u: h}, moved=s.moved | 1 << u, rail_left=s.rail_left - 1)
    if k == "dig":
        u = _uid(s, a.unit)
        events.append(Event("dig", f"{a.unit} digs in (2-0).", {}))
        return s.replace(dug=s.dug | 1 << u, moved=s.moved | 1 << u)
    if k == "undig":
        u = _uid(s, a.unit)
        events.append(Event("dig", f"{a.unit} leaves its entrenchment.", {}))
        return s.replace(dug=s.dug & ~(1 << u), moved=s.moved | 1 << u)
    if k in ("reinforce", "rebuild"):
        u, h = _uid(s, a.unit), _hid(a.hex)
        events.append(Event(k, f"{a.unit} {'enters' if k == 'reinforce' else 'is rebuilt'} at {a.hex}.", {}))
        extra: dict[str, Any] = {}
        if k == "rebuild":
            c = _rebuild_cost(s, u)
            extra = {
                "rebuilt": s.rebuilt + c,
                "rebuilt_turn": s.rebuilt_turn + c,
                "rebuilt_armour": s.rebuilt_armour + (1 if _spec(s, u).armoured else 0),
                "red": s.red & ~(1 << u),
            }
        return _relocate(s, {u: h}, **extra)
    if k == "drop":
        return s.replace(battle=Battle(_hid(a.hex), step="drop_roll"))
    if k == "roll" and b is not None and b.step == "drop_roll":
        u = _para(s)
        red = s.red | (1 << u if a.die >= 4 else 0)
        events.append(
            Event(
                "drop",
                f"Para drop on {hex_id(b.target)}, die {a.die}{': reduced' if a.die >= 4 else ''}.",
                {},
            )
        )
        return _relocate(s, {u: b.target}, red=red, dropped=s.dropped | 1 << u, battle=None)
    if k == "blow":
        u, h = _uid(s, a.unit), _hid(a.dst)
        i = r.bridge_index[r.pair(s.loc[u], h)]
        # Instead of attacking: the unit may not attack this phase; one try a bridge a phase.
        return s.replace(
            attacked=s.attacked | 1 << u,
            tried=s.tried | 1 << i,
            battle=Battle(h, attackers=(u,), step="blow_roll"),
        )
    if k == "roll" and b is not None and b.step == "blow_roll":
        u = b.attackers[0]
        i = r.bridge_index[r.pair(s.loc[u], b.target)]
        need = bridge_need(s, i)
        ok = a.die >= need
        where = f"{hex_id(r.bridges[i][0])}-{hex_id(r.bridges[i][1])}"
        events.append(
            Event(
                "bridge",
                f"{_spec(s, u).id} tries to blow the bridge {where} (needs {need}+): die {a.die}, "
                f"{'blown' if ok else 'it holds'}.",
                {},
            )
        )
        return s.replace(blown=s.blown | (1 << i if ok else 0), battle=None)
    if k == "attack":
        u, h = _uid(s, a.unit), _hid(a.target)
        nb = Battle(h) if b is None else b
        return s.replace(battle=_with(nb, attackers=(*nb.attackers, u)))
    assert b is not None, a
    if k == "air":
        return s.replace(battle=_with(b, air=b.air + 1))
    if k == "cancel":
        return s.replace(battle=None)
    if k == "fire":
        defenders = tuple(s.units_at(b.target))
        att = s.attacked
        for u in b.attackers:
            att |= 1 << u
        hit = s.hit
        if s.phase_spec.key not in ("g_followup", "s_followup"):
            for u in defenders:
                hit |= 1 << u
        if s.side == GERMAN:
            s = s.replace(air_g=s.air_g - b.air, attacked=att, hit=hit)
        else:
            s = s.replace(air_s=s.air_s - b.air, attacked=att, hit=hit)
        nb = _with(b, defenders=defenders, terrain_edge=_terrain_edge(s, b))
        if _air_left(s, 1 - s.side) > 0:
            return s.replace(battle=_with(nb, step="support"))
        return s.replace(battle=_with(nb, step="roll"))
    if k == "support":
        if a.accept:
            nb = _with(b, dair=1, step="roll")
            if s.side == GERMAN:
                return s.replace(air_s=s.air_s - 1, battle=nb)
            return s.replace(air_g=s.air_g - 1, battle=nb)
        return s.replace(battle=_with(b, step="roll"))
    if k == "roll":
        col, why = odds(s, b)
        res = r.crt[a.die][col]
        events.append(
            Event("combat", f"Attack on {hex_id(b.target)}: {'; '.join(why)}; die {a.die}: {res}.", {})
        )
        return _resolve(s, _with(b, column=col, die=a.die, result=res), events)
    if k == "reduce":
        if b.step == "d3":
            units = tuple(s.units_at(b.target))
        else:
            units = _retreating(s, b, b.groups[0])
        s, gone = _reduce_all(s, units)
        events.append(Event("reduce", "Instead of retreating, all the units are reduced.", {}))
        if b.step == "d3":
            return _after_defender(
                s, _with(b, lost_unit=b.lost_unit or gone, eliminated=not s.units_at(b.target)), events
            )
        return _next_group(
            s, _with(b, groups=b.groups[1:], lost_unit=b.lost_unit or (gone and b.result[0] == "D")), events
        )
    if k == "retreat" and b.step == "d3":
        return s.replace(battle=_with(b, step="retreat", groups=(b.target,), length=3))
    if k == "retreat":
        at = b.groups[0]
        units = _retreating(s, b, at)
        end = _hid(a.path[-1])
        events.append(Event("retreat", f"Units on {hex_id(at)} retreat to {a.path[-1]}.", {}))
        ret = s.retreated
        dug = s.dug
        for u in units:
            ret |= 1 << u
            dug &= ~(1 << u)  # a retreating unit leaves its entrenchment (reading)
        s = _relocate(s, {u: end for u in units}, retreated=ret, dug=dug)
        return _next_group(s, _with(b, groups=b.groups[1:]), events)
    if k == "lose":
        u = _uid(s, a.unit)
        loc = list(s.loc)
        before = unit_cf(s, u)
        red, dug, gone = _reduce(s, loc, s.red, s.dug, u)
        s = s.replace(loc=tuple(loc), red=red, dug=dug)
        lost = before if gone else before - unit_cf(s, u)
        events.append(Event("loss", f"{a.unit} {'eliminated' if gone else 'reduced'}.", {}))
        if b.step == "penalty":
            return _to_advance(s, _with(b, step="advance"), events)
        nb = _with(b, losses=b.losses - lost)
        if nb.losses > 0 and any(s.loc[x] >= 0 for x in nb.attackers):
            return s.replace(battle=nb)
        return _after_defender(s, _with(nb, losses=0), events)
    if k == "advance":
        u, h = _uid(s, a.unit), _hid(a.hex)
        events.append(Event("advance", f"{a.unit} advances to {a.hex}.", {}))
        s = _relocate(s, {u: h})
        return s if _advance_options(s, b) else _finish(s, events)
    if k == "stay":
        return _finish(s, events)
    raise IllegalActionError(f"not an action here: {a!r}")


def _with(b: Battle, **kw: Any) -> Battle:
    from dataclasses import replace

    return replace(b, **kw)


def _reduce_all(s: State, units: tuple[int, ...] | list[int]) -> tuple[State, bool]:
    loc = list(s.loc)
    red, dug = s.red, s.dug
    gone = False
    for u in units:
        red, dug, g = _reduce(s, loc, red, dug, u)
        gone = gone or g
    return s.replace(loc=tuple(loc), red=red, dug=dug), gone


def _resolve(s: State, b: Battle, events: list[Event]) -> State:
    """Seed combat results: AE/DE eliminated, AR/DR reduced, A1/A2 and D1/D2 retreats, D3 the
    attacker routes the defender 3 hexes, EX defender eliminated and the attacker loses as many
    CFs as the defender had (terrain-modified)."""
    res = b.result
    if res == "AE":
        loc = list(s.loc)
        for u in b.attackers:
            loc[u] = ELIM
        return _finish(s.replace(loc=tuple(loc), red=s.red & ~sum(1 << u for u in b.attackers)), events)
    if res == "AR":
        s, _ = _reduce_all(s, b.attackers)
        return _finish(s, events)
    if res in ("A1", "A2"):
        groups = tuple(sorted({s.loc[u] for u in b.attackers}))
        return _next_group(s, _with(b, groups=groups, length=int(res[1])), events)
    defenders = tuple(s.units_at(b.target))
    if res == "DE" or res == "EX":
        dfs = sum(_defend_cf(s, u) for u in defenders)
        loc = list(s.loc)
        for u in defenders:
            loc[u] = ELIM
        s = s.replace(
            loc=tuple(loc),
            red=s.red & ~sum(1 << u for u in defenders),
            dug=s.dug & ~sum(1 << u for u in defenders),
        )
        nb = _with(b, eliminated=True, lost_unit=bool(defenders))
        if res == "EX":
            return s.replace(battle=_with(nb, step="loss", losses=dfs))
        return _after_defender(s, nb, events)
    if res == "DR":
        s, gone = _reduce_all(s, defenders)
        return _after_defender(s, _with(b, lost_unit=gone, eliminated=not s.units_at(b.target)), events)
    if res == "D3":
        return s.replace(battle=_with(b, step="d3"))
    # D1, D2
    return _next_group(s, _with(b, groups=(b.target,), length=int(res[1])), events)


def _next_group(s: State, b: Battle, events: list[Event]) -> State:
    while b.groups:
        at = b.groups[0]
        units = _retreating(s, b, at)
        if not units:
            b = _with(b, groups=b.groups[1:])
            continue
        if not retreat_paths(s, units, at, b.length):
            # No retreat possible: the units are reduced instead (seed: one or the other).
            s, gone = _reduce_all(s, units)
            events.append(Event("reduce", f"Units on {hex_id(at)} cannot retreat and are reduced.", {}))
            b = _with(b, groups=b.groups[1:], lost_unit=b.lost_unit or (gone and b.result[0] == "D"))
            continue
        return s.replace(battle=_with(b, step="retreat"))
    if b.result.startswith("A"):
        return _finish(s, events)
    return _after_defender(s, _with(b, eliminated=b.eliminated and not s.units_at(b.target)), events)


def _after_defender(s: State, b: Battle, events: list[Event]) -> State:
    gone = [s.loc[u] == ELIM for u in b.defenders]
    b = _with(b, eliminated=bool(gone) and all(gone), lost_unit=any(gone))
    if (
        s.rules.opt("opt4_followup_loss") == "on"
        and s.phase_spec.key in ("g_followup", "s_followup")
        and b.lost_unit
        and b.terrain_edge
        and any(s.loc[u] >= 0 for u in b.attackers)
    ):
        return s.replace(battle=_with(b, step="penalty"))
    return _to_advance(s, b, events)


def _to_advance(s: State, b: Battle, events: list[Event]) -> State:
    if _advance_options(s, b):
        return s.replace(battle=_with(b, step="advance"))
    return _finish(s, events)


def _finish(s: State, events: list[Event]) -> State:
    if s.phase_spec.key in ("g_followup", "s_followup") and s.battle is not None:
        fu = s.fu
        for u in s.battle.attackers:
            fu |= 1 << u  # inverted explosion marker: no exploitation (seed)
        s = s.replace(fu=fu)
    return s.replace(battle=None)


# ----------------------------------------------------------------------------- phases
def _skip(s: State, key: str) -> bool:
    if key in ("g_move2p", "g_combat2p"):
        return s.turn != 1
    if key in ("g_followup", "g_exploit"):
        return s.turn in _no_exploit(s.rules)  # seed: turns 5, 6, 8, 9, 10
    return False


def _no_exploit(r: Rules) -> tuple[int, ...]:
    return tuple(t["turn"] for t in r.calendar[1:] if t["german_mf_reduction"]["exploitation"] is None)


def _end_phase(s: State, events: list[Event]) -> State:
    if s.phase_spec.kind == "movement" and s.side == SOVIET:
        # Seed: a Soviet unit that stays on an interrupted rail hex a whole movement phase repairs it.
        cut = s.cut
        for u in _on_map(s, SOVIET):
            if not s.moved >> u & 1 and cut >> s.loc[u] & 1:
                cut &= ~(1 << s.loc[u])
                events.append(
                    Event("repair", f"{_spec(s, u).id} repairs the railway at {hex_id(s.loc[u])}.", {})
                )
        s = s.replace(cut=cut)
    s = s.replace(phase=s.phase + 1, moved=0, attacked=0, retreated=0, tried=0)
    return _advance(s, events)


def _start_turn(s: State, events: list[Event]) -> State:
    cal = s.rules.calendar[s.turn]
    return s.replace(
        air_g=int(cal["air"]["german"]),
        air_s=int(cal["air"]["soviet"]),
        rail_left=int(s.rules.tables["rail"]["capacity"]),
        airsup=0,
        rebuilt_turn=0,
    )


def _advance(s: State, events: list[Event]) -> State:
    """Run automatic phases until a player has a decision."""
    while s.result is None:
        if s.phase >= len(PHASES):
            if s.turn >= s.rules.last_turn:
                return _game_end(s, events)
            s = _start_turn(s.replace(turn=s.turn + 1, phase=0), events)
            events.append(Event("turn", f"Game turn {s.turn} ({s.rules.calendar[s.turn]['dates']}).", {}))
            continue
        p = PHASES[s.phase]
        if _skip(s, p.key):
            s = s.replace(phase=s.phase + 1)
            continue
        if p.kind == "supply":
            # Seed step 2: units that cannot trace supply are marked out of supply.
            oos = s.oos
            for u in _on_map(s, p.side):
                if not traces_supply(s, u):
                    oos |= 1 << u
            s = s.replace(oos=oos, phase=s.phase + 1)
            continue
        if p.kind == "control":
            s = _supply_control(s, p.side, events)
            s = s.replace(phase=s.phase + 1, fu=0, hit=0, dropped=0 if p.side == SOVIET else s.dropped)
            continue
        return s
    return s


def _supply_control(s: State, side: int, events: list[Event]) -> State:
    """Seed step 7: marked units that still cannot trace supply are reduced (reduced units and
    Soviet 1-CF infantry destroyed); then every marker of the side is removed."""
    hit = [u for u in _on_map(s, side) if s.oos >> u & 1 and not traces_supply(s, u)]
    if hit:
        s, _ = _reduce_all(s, hit)
        events.append(Event("supply", f"{len(hit)} unit(s) out of supply reduced.", {}))
    mask = 0
    for u, sp in enumerate(s.rules.units):
        if sp.side == side:
            mask |= 1 << u
    return s.replace(oos=s.oos & ~mask)


def victory_points(s: State) -> int:
    """Seed: +1 for each calendar city captured in time (Moscow 8); -1 for each not captured in time
    or recaptured by the Soviets."""
    total = 0
    for h, _deadline, pts in s.rules.victory:
        if s.taken >> h & 1 and s.control >> h & 1:
            total += pts
        else:
            total -= 1
    return total


def result_margin(s: State) -> float:
    """How well the German did in a finished game (larger is better for him): the seed's point
    score, which decides the result (result_of). A match of paired games compares the two games
    of a seed by it (typhoon.ai.match)."""
    return float(victory_points(s))


def result_of(s: State, score: int) -> str:
    """Seed: 1-4 Soviet victory, 6-17 German victory; 5 (option score_five, default draw) and
    scores of 0 or less (Soviet, pack Q6) are not in the seed."""
    if score >= 6:
        return "german"
    if score == 5:
        return s.rules.opt("score_five")
    return "soviet"


def _game_end(s: State, events: list[Event]) -> State:
    score = victory_points(s)
    res = result_of(s, score)
    events.append(Event("game_over", f"Game over after turn {s.turn}: {score} points, {res}.", {}))
    return s.replace(result=res, score=score)
