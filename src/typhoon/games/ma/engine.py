"""Moscow Attacked! engine: new_game, legal_actions (the exact list), apply, apply_unchecked,
chance_outcomes. Section numbers cite the reference pack's rules_en.md; "seed" is seed 001.
"""

from __future__ import annotations

import heapq
import weakref
from collections import deque
from collections.abc import Mapping
from typing import Any, NamedTuple

from typhoon.errors import IllegalActionError
from typhoon.events import Event

from .rules import GERMAN, SIDE_NAMES, SOVIET, Rules, UnitSpec, hex_id, hex_index, load_rules
from .state import (
    DISPERSED,
    ELIM,
    OFF,
    PHASES,
    READY,
    ROLLS,
    SPENT,
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
    State,
    Stay,
)

MOSCOW, TULA, VORONEZH = hex_index("I7"), hex_index("F6"), hex_index("A9")
GERMAN_VICTORY = tuple(hex_index(x) for x in ("H1", "D3", "I7"))  # Smolensk, Bryansk, Moscow (seed)
SOVIET_VICTORY = tuple(hex_index(x) for x in ("K5", "J3", "I7", "H3", "D3", "A9"))  # seed
BOMBERS = "StratBomb"
HEX_IDS = tuple(hex_id(h) for h in range(len(load_rules().terrain)))


# ----------------------------------------------------------------------------- derived tables
class _Derived(NamedTuple):
    """Tables computed once per rules object, so the legal-action search does no per-step lookups
    (issue 12 point 3; tests/ma/test_ma_speed_identity.py pins that every legal list is unchanged)."""

    costs: dict[tuple[bool, bool], tuple[tuple[tuple[int, int], ...], ...]]  # (armor, snow) -> per hex
    road_adj: tuple[tuple[int, ...], ...]  # per hex, its neighbours along a road, in nbrs order
    highway_adj: tuple[tuple[int, ...], ...]
    link_adj: dict[int, list[int]]  # road or rail (supply net)
    rail_adj: dict[int, list[int]]
    army_level: tuple[bool, ...]  # per unit
    stacking: int


_DERIVED: weakref.WeakKeyDictionary[Rules, _Derived] = weakref.WeakKeyDictionary()


def _adj(links: frozenset[tuple[int, int]]) -> dict[int, list[int]]:
    adj: dict[int, list[int]] = {}
    for a, b in links:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    return adj


def _derived(r: Rules) -> _Derived:
    d = _DERIVED.get(r)
    if d is None:
        terrain = r.tables["terrain"]
        river = int(terrain["major_river"]["cost"])
        costs = {}
        for armor in (False, True):
            for snow in (False, True):
                per = []
                for a in range(len(r.terrain)):
                    row = []
                    for b in r.nbrs[a]:
                        t = terrain[r.terrain[b]]
                        c = int(t["armor_cost"] if armor else t["cost"])
                        if not snow and _pair(a, b) in r.major_river:
                            c += river  # frozen in snow (seed)
                        row.append((b, c))
                    per.append(tuple(row))
                costs[(armor, snow)] = tuple(per)
        d = _Derived(
            costs=costs,
            road_adj=tuple(
                tuple(n for n in r.nbrs[h] if _pair(h, n) in r.road_links) for h in range(len(r.nbrs))
            ),
            highway_adj=tuple(
                tuple(n for n in r.nbrs[h] if _pair(h, n) in r.highway_links) for h in range(len(r.nbrs))
            ),
            link_adj=_adj(r.rail_links | r.road_links),
            rail_adj=_adj(r.rail_links),
            army_level=tuple(sp.army_level for sp in r.units),
            stacking=int(r.opt("stacking")),
        )
        _DERIVED[r] = d
    return d


# ----------------------------------------------------------------------------- geometry
def _cube(h: int) -> tuple[int, int]:
    r, c = divmod(h, 10)
    return c - (r - (r & 1)) // 2, r


def distance(a: int, b: int) -> int:
    """Hex distance on the odd-rows-east grid (map_draft.json meta.grid)."""
    (ax, az), (bx, bz) = _cube(a), _cube(b)
    dx, dz = ax - bx, az - bz
    return max(abs(dx), abs(dz), abs(dx + dz))


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


# ----------------------------------------------------------------------------- new game
def new_game(edition: str | None = None, options: Mapping[str, str] | None = None) -> State:
    rules = load_rules(edition, options)
    loc = tuple(u.setup if u.turn == 0 and not u.is_air else OFF for u in rules.units)
    control = 0
    for u, h in enumerate(loc):
        if h >= 0 and rules.units[u].side == GERMAN and rules.places >> h & 1:
            control |= 1 << h  # 13: places start with the side that occupies them (reading)
    s = State(
        rules=rules,
        turn=1,
        phase=0,
        loc=loc,
        status=(READY,) * len(loc),
        control=control,
        down=(0,) * len(loc),
    )
    return _advance(s, [])


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


def movement_allowance(s: State, u: int) -> int:
    """6.2: printed (good, frost); Mud: German armies 2, all others 3 (Q3: Soviets too, option);
    Snow: German infantry 2, other German units 3, Soviets unchanged (seed)."""
    sp, w = _spec(s, u), s.weather
    if w == "mud":
        if sp.side == GERMAN:
            return 2 if sp.echelon == "army" else 3
        return 3 if s.rules.opt("mud_soviet_ma") == "3" else sp.movement
    if w == "snow" and sp.side == GERMAN:
        return 2 if sp.kind == "infantry" else 3
    return sp.movement


def _stack_ok(s: State, h: int, adding: list[int], leaving: tuple[int, ...] = ()) -> bool:
    """5 (reconstruction): at most 3 (option) ground units, at most one army-level, per hex."""
    d = _derived(s.rules)
    if leaving or h < 0:
        units = [u for u in s.units_at(h) if u not in leaving] + adding
    else:
        counts = _stack_counts(s)
        n, armies = counts[h]
        return n + len(adding) <= d.stacking and armies + sum(d.army_level[u] for u in adding) <= 1
    return len(units) <= d.stacking and sum(d.army_level[u] for u in units) <= 1


def _fits(s: State, u: int) -> int:
    """Bitset of the hexes unit u may enter under the stacking limit (5): ``_stack_ok(s, h, [u])``
    for every hex at once (u itself counted where it stands, as there)."""
    d = _derived(s.rules)
    army = int(d.army_level[u])
    key = "fit1" if army else "fit0"
    memo = s._memo.get(key)
    if memo is None:
        memo = 0
        for h, (n, armies) in enumerate(_stack_counts(s)):
            if n + 1 <= d.stacking and armies + army <= 1:
                memo |= 1 << h
        s._memo[key] = memo
    return memo  # type: ignore[no-any-return]


def _stack_counts(s: State) -> list[tuple[int, int]]:
    """Per hex: (units, army-level units) there; cached on the state."""
    memo = s._memo.get("stack")
    if memo is None:
        army = _derived(s.rules).army_level
        n = [0] * len(s.rules.terrain)
        a = [0] * len(n)
        for u, x in enumerate(s.loc):
            if x >= 0:
                n[x] += 1
                a[x] += army[u]
        memo = list(zip(n, a, strict=True))
        s._memo["stack"] = memo
    return memo  # type: ignore[no-any-return]


def _ground(s: State, side: int) -> list[int]:
    units = s.rules.units
    return [u for u, x in enumerate(s.loc) if x >= 0 and units[u].side == side]


# ----------------------------------------------------------------------------- supply (9)
def supply_lengths(s: State, side: int) -> int:
    """9.1: 5 hexes in Good/Hard Frost; Mud/Snow 3 (German) / 4 (Soviet)."""
    return int(s.rules.tables["supply"][s.weather][side])


def _exit_ok(s: State, side: int, h: int, edge: str) -> bool:
    if edge == ("west" if side == GERMAN else "east"):
        return True
    if edge in ("north", "south") and s.rules.opt("edge_exits") == "half":
        col = h % 10 + 1
        return col <= 5 if side == GERMAN else col >= 6  # Q8 reading
    return False


def _source_dist(s: State, side: int) -> list[int]:
    """Distance (hexes) from every hex to the side's supply net, through hexes free of enemy units;
    the net = road/rail hexes joined by road/rail to an exit off the side's own edge (9.1), plus
    Moscow for the Soviets (9.2). Cached on the state."""
    key = f"dist{side}"
    if key in s._memo:
        return s._memo[key]  # type: ignore[no-any-return]
    dist = supply_dist(s, side, s.occupied(1 - side))
    s._memo[key] = dist
    return dist


def supply_dist(s: State, side: int, enemy: int) -> list[int]:
    """:func:`_source_dist` with ``enemy`` (a bitset) the hexes that block the line: the AI asks
    what a unit moved to one more hex would cut (uncached)."""
    r = s.rules
    adj = _derived(r).link_adj
    net = 0
    todo = [h for h, e in r.exits if not enemy >> h & 1 and _exit_ok(s, side, h, e)]
    for h in todo:
        net |= 1 << h
    while todo:
        h = todo.pop()
        for n in adj.get(h, ()):
            if not net >> n & 1 and not enemy >> n & 1:
                net |= 1 << n
                todo.append(n)
    if side == SOVIET and not enemy >> MOSCOW & 1:
        net |= 1 << MOSCOW
    big = 99
    dist = [big] * len(r.terrain)
    q: deque[int] = deque()
    for h in range(len(dist)):
        if net >> h & 1:
            dist[h] = 0
            q.append(h)
    while q:
        h = q.popleft()
        for n in r.nbrs[h]:
            if dist[n] == big and not enemy >> n & 1:
                dist[n] = dist[h] + 1
                q.append(n)
    return dist


def supply_line(s: State, side: int, h: int) -> int:
    """Length of the shortest supply line from hex h (99 if none)."""
    if side == SOVIET and h == TULA:
        return 0  # 9.2: Tula supplies the Soviet units on it
    if side == GERMAN and s.dropped >> h & 1:
        return 0  # 8.2: air resupply
    return _source_dist(s, side)[h]


def in_supply(s: State, u: int) -> bool:
    sp = _spec(s, u)
    return supply_line(s, sp.side, s.loc[u]) <= supply_lengths(s, sp.side)


def isolated(s: State, u: int) -> bool:
    """9.4: a supply line over twice the required length."""
    sp = _spec(s, u)
    return supply_line(s, sp.side, s.loc[u]) > 2 * supply_lengths(s, sp.side)


def isolated_groups(s: State, side: int) -> tuple[tuple[int, ...], ...]:
    """9.4: groups of isolated units able to trace a line to each other (hexes free of enemy units)."""
    iso = [u for u in _ground(s, side) if isolated(s, u)]
    enemy = s.occupied(1 - side)
    seen: set[int] = set()
    groups: list[tuple[int, ...]] = []
    for u in iso:
        if u in seen:
            continue
        reach = {s.loc[u]}
        todo = [s.loc[u]]
        while todo:
            h = todo.pop()
            for n in s.rules.nbrs[h]:
                if n not in reach and not enemy >> n & 1:
                    reach.add(n)
                    todo.append(n)
        g = tuple(x for x in iso if s.loc[x] in reach)
        seen.update(g)
        groups.append(g)
    return tuple(groups)


# ----------------------------------------------------------------------------- movement (6)
def _move_cost(s: State, u: int, a: int, b: int) -> int:
    r = s.rules
    t = r.tables["terrain"][r.terrain[b]]
    cost = int(t["armor_cost"] if _spec(s, u).kind == "armor" else t["cost"])
    if s.weather != "snow" and _pair(a, b) in r.major_river:
        cost += int(r.tables["terrain"]["major_river"]["cost"])  # frozen in snow (seed)
    return cost


def move_options(s: State, u: int) -> dict[int, int]:
    """Hexes unit u can reach (-> cost). No ZOC (6.1); enemy-occupied hexes are closed; a whole
    move along a road gets a bonus of 2 hexes (3.4, Mud: the highway only, seed); a unit may always
    move one hex (6.4)."""
    r = s.rules
    d = _derived(r)
    sp = r.units[u]
    enemy = s.occupied(1 - sp.side)
    start = s.loc[u]
    ma = movement_allowance(s, u)
    weather = r.weather[s.turn]
    costs = d.costs[(sp.kind == "armor", weather == "snow")]  # _move_cost, tabled
    best: dict[int, int] = {start: 0}
    heap = [(0, start)]
    pop, push, get = heapq.heappop, heapq.heappush, best.get
    while heap:
        c, h = pop(heap)
        if c > get(h, 99):
            continue
        for n, k in costs[h]:
            if enemy >> n & 1:
                continue
            nc = c + k
            if nc <= ma and nc < get(n, 99):
                best[n] = nc
                push(heap, (nc, n))
    road = d.highway_adj if weather == "mud" else d.road_adj
    bonus = int(r.tables["terrain"]["road_bonus"])
    frontier, seen, steps = [start], {start}, 0
    while frontier and steps < ma + bonus:
        steps += 1
        nxt = []
        for h in frontier:
            for n in road[h]:
                if n not in seen and not enemy >> n & 1:
                    seen.add(n)
                    nxt.append(n)
                    best.setdefault(n, steps)
        frontier = nxt
    for n in r.nbrs[start]:
        if not enemy >> n & 1:
            best.setdefault(n, ma)
    best.pop(start, None)
    return best


def rail_options(s: State, u: int) -> list[int]:
    """11.4: along rail lines, not through German units or empty hexes next to German korps/armies."""
    r = s.rules
    german = s.occupied(GERMAN)
    blocked = s._memo.get("railblock")
    if blocked is None:
        blocked = german
        for g in _ground(s, GERMAN):
            if _spec(s, g).echelon in ("korps", "army", "panzer_group"):
                for n in r.nbrs[s.loc[g]]:
                    blocked |= 1 << n
        s._memo["railblock"] = blocked
    # a blocked hex is still passable when Soviet-held and free of German units
    passable = ~blocked | (s.occupied(SOVIET) & ~german)
    adj = _derived(r).rail_adj
    start = s.loc[u]
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in adj.get(h, ()):
            if n not in seen and passable >> n & 1:
                seen.add(n)
                todo.append(n)
    seen.discard(start)
    fits = _fits(s, u)
    return sorted(h for h in seen if fits >> h & 1)


def _rail_to_east(s: State) -> int:
    """Rail hexes joined by rail to the east edge, not through German-held hexes (11.2)."""
    r = s.rules
    german = s.occupied(GERMAN)
    adj = _derived(r).rail_adj
    out = 0
    todo = [h for h, e in r.exits if e == "east" and r.rail_exits_east >> h & 1 and not german >> h & 1]
    for h in todo:
        out |= 1 << h
    while todo:
        h = todo.pop()
        for n in adj.get(h, ()):
            if not out >> n & 1 and not german >> n & 1:
                out |= 1 << n
                todo.append(n)
    return out


# ----------------------------------------------------------------------------- combat (7)
def _is_city(s: State, h: int) -> bool:
    return s.rules.place_class[h] is not None


def _air_shift(s: State, b: Battle) -> int:
    r = s.rules
    air = r.tables["air"]
    if s.side == GERMAN:
        closed = _is_city(s, b.target) or r.terrain[b.target] != "clear"
        per = int(air["german_support"]["city_or_forest" if closed else "open"])
    else:
        per = int(air["soviet_support"])
    return per * len(b.air)


def odds(s: State, b: Battle) -> tuple[int, list[str]]:
    """CRT column index (-1 = below 1:5, not allowed) and the reasons for the shifts (7.3, 7.4)."""
    r = s.rules
    defenders = s.units_at(b.target)
    att = sum(_spec(s, u).attack for u in b.attackers)
    dfs = sum(_spec(s, u).defense for u in defenders)
    if dfs == 0 or att * 5 < dfs:
        return -1, ["below 1:5"]
    col = 0
    for i, (n, d) in enumerate(r.crt_ratios):
        if att * d >= n * dfs:
            col = i  # Q4: between printed columns use the lower one
    why = [f"{att}:{dfs} -> {r.columns[col]}"]
    disp_def = sum(_spec(s, u).defense for u in defenders if s.status[u] == DISPERSED)
    if r.opt("dispersed_shift") == "half":
        dispersed = 2 * disp_def >= dfs and disp_def > 0
    else:
        dispersed = disp_def > 0
    shift = 0
    if dispersed:
        shift += 1
        why.append("+1 Dispersed defenders (4.2)")
    else:
        ter = r.tables["terrain"]
        t = 0
        t += int(ter[r.terrain[b.target]]["shift"])
        if r.place_class[b.target]:
            t += int(ter[str(r.place_class[b.target])]["shift"])
        if s.weather != "snow" and all(_pair(s.loc[u], b.target) in r.major_river for u in b.attackers):
            t += int(ter["major_river"]["shift"])
        cap = int(ter["shift_cap"])
        if b.target == MOSCOW:  # MA-T1 option: Moscow's shift (and its cap) one column more at -3
            extra = int(r.opt("moscow_shift")) - int(ter["capital"]["shift"])
            t, cap = t + extra, cap + extra
        t = max(t, cap)
        if t:
            shift += t
            why.append(f"{t} terrain (3.4)")
    if all(not in_supply(s, u) for u in defenders):
        shift += 1
        why.append("+1 defenders unsupplied (9.3)")
    if s.side == SOVIET and s.weather == "snow" and not _is_city(s, b.target):
        shift += 1
        why.append("+1 Soviet attack in Snow (10)")
    if s.panic and s.side == GERMAN:
        shift += 1
        why.append("+1 PANIC in Moscow (8.3)")
    if b.air:
        shift += _air_shift(s, b)
        why.append(f"+{_air_shift(s, b)} air support (8.3)")
    return max(0, min(len(r.columns) - 1, col + shift)), why


def _attack_die_mod(s: State, b: Battle) -> int:
    return -1 if any(not in_supply(s, u) for u in b.attackers) else 0  # 9.3 (any attacker: reading)


def _can_retreat_paths(s: State, b: Battle, start: int, length: int) -> list[tuple[int, ...]]:
    """7.7: each hex farther from the attacked hex, never closer to the attackers, never next to a
    hex the attack came from, never onto enemy units; stacking at the end."""
    r = s.rules
    side = _spec(s, b.defenders[0]).side
    enemy = s.occupied(1 - side)
    froms = [h for h in range(len(r.terrain)) if b.attack_from >> h & 1]
    near = 0
    for f in froms:
        near |= 1 << f
        for n in r.nbrs[f]:
            near |= 1 << n
    out: list[tuple[int, ...]] = []

    def step(cur: int, path: tuple[int, ...]) -> None:
        if len(path) == length:
            if _stack_ok(s, cur, list(b.defenders), b.defenders):
                out.append(path)
            return
        dmin = min(distance(cur, f) for f in froms)
        for n in r.nbrs[cur]:
            if enemy >> n & 1 or near >> n & 1 or n in path:
                continue
            if distance(n, b.target) <= distance(cur, b.target):
                continue
            if min(distance(n, f) for f in froms) < dmin:
                continue
            step(n, (*path, n))

    step(start, ())
    return out


def surrounded(s: State, h: int, attack_from: int) -> bool:
    """7.7, 7.8: the units at ``h`` could not retreat one hex from an attack made from the hexes of
    the bitset ``attack_from`` (so R1 becomes D, R2 DE and DE BR): the pocket the AI looks for."""
    b = Battle(h, defenders=tuple(s.units_at(h)), attack_from=attack_from)
    return bool(b.defenders) and attack_from != 0 and not _can_retreat_paths(s, b, h, 1)


def _overrun(s: State, b: Battle) -> bool:
    """7.9: armour overrun (not in Mud, not German in Snow, Hard Frost = Good by option, not into
    forest)."""
    r = s.rules
    w, side = s.weather, s.side
    if w == "mud" or (w == "snow" and side == GERMAN) or (w == "frost" and r.opt("frost_overrun") == "no"):
        return False
    if not r.tables["terrain"][r.terrain[b.target]]["overrun"]:
        return False
    arm = sum(_spec(s, u).attack for u in b.attackers if _spec(s, u).is_armor and s.status[u] != DISPERSED)
    if arm == 0:
        return False
    d_arm = sum(_spec(s, u).defense for u in b.defenders if _spec(s, u).is_armor)
    inf = [u for u in b.defenders if not _spec(s, u).is_armor]
    inf_def = sum(_spec(s, u).defense for u in inf)
    need = inf_def if inf and all(s.status[u] == DISPERSED for u in inf) else 2 * inf_def
    return arm - d_arm >= need


def _no_retreat(s: State, b: Battle) -> bool:
    if b.hold:
        return True
    if _spec(s, b.defenders[0]).side == SOVIET:
        if b.target == MOSCOW:
            return s.noretreat in ("all", "moscow")
        return s.noretreat in ("all", "front")
    return False


def _eliminate(loc: list[int], units: list[int] | tuple[int, ...]) -> None:
    for u in units:
        loc[u] = ELIM


def _set_status(st: list[int], units: list[int] | tuple[int, ...], value: int) -> None:
    for u in units:
        st[u] = max(st[u], value) if value != READY else READY


def _after_roll(s: State, b: Battle, events: list[Event]) -> State:
    """Apply the CRT result (7.6, 7.8-7.11)."""
    r = s.rules
    die = b.die
    code = r.crt[max(1, min(6, die + _attack_die_mod(s, b)))][b.column]
    events.append(Event("combat", f"Die {die} at {r.columns[b.column]}: {code}.", {"result": code}))
    st = list(s.status)
    if s.phase_spec.key.endswith("operational"):
        lim = 1 if s.side == GERMAN else 2  # 7.11 breakdown, natural die
        if die <= lim:
            broke = [u for u in b.attackers if _spec(s, u).kind == "armor"]
            _set_status(st, broke, DISPERSED)
            if broke:
                events.append(Event("breakdown", f"Breakdown: {', '.join(_names(s, broke))} Dispersed.", {}))
        if code == "BR":
            code = "DE"  # 7.6: BR is DE in Operational Attacks
    att_part, def_part = "", code
    if code in ("AE", "AD"):
        att_part, def_part = code, "-"
    elif code == "D/AE":
        att_part, def_part = "AE", ("D" if r.opt("d_ae") == "both" else "-")
    s = s.replace(status=tuple(st))
    dfs = sum(_spec(s, u).defense for u in b.defenders)
    b = Battle(**{**b.__dict__, "result": def_part, "loss_kind": att_part, "losses": dfs if att_part else 0})
    if def_part in ("R1", "R2") and _spec(s, b.defenders[0]).side == GERMAN:
        return s.replace(battle=_with(b, step="noretreat"))
    return _convert(s, b, _no_retreat(s, b), events)


def _with(b: Battle, **kw: Any) -> Battle:
    return Battle(**{**b.__dict__, **kw})


def _convert(s: State, b: Battle, hold: bool, events: list[Event]) -> State:
    """7.8: surrounded / No Retreat: R1 -> D (exchange possible), R2 -> DE, DE -> BR; 7.9 overrun."""
    code = b.result
    surrounded = not _can_retreat_paths(s, b, b.target, 1)
    if (hold or surrounded) and code in ("R1", "R2", "DE"):
        new = {"R1": "D", "R2": "DE", "DE": "BR"}[code]
        why = "No Retreat!" if hold else "no retreat possible"
        b = _with(b, hold=True)
        events.append(Event("convert", f"{why}: {code} becomes {new}.", {}))
        if code == "R1" and s.rules.opt("exchange") == "no_retreat_r1":
            dfs = sum(_spec(s, u).defense for u in b.defenders)
            if sum(_spec(s, u).attack for u in b.attackers) >= dfs:
                return s.replace(battle=_with(b, result="D", step="exchange"))
        code = new
    if code in ("R2", "DE") and _overrun(s, b):
        new = "DE" if code == "R2" else "BR"
        events.append(Event("overrun", f"Armour overrun: {code} becomes {new}.", {}))
        code = new
    if s.phase_spec.key.endswith("operational") and code == "BR":
        code = "DE"
    return _losses_or_defender(s, _with(b, result=code), events)


def _losses_or_defender(s: State, b: Battle, events: list[Event]) -> State:
    if b.loss_kind and b.losses > 0 and _battle_actions(s, _with(b, step="loss")):
        return s.replace(battle=_with(b, step="loss"))
    if b.loss_kind == "AE":
        st = list(s.status)
        _set_status(st, [u for u in b.attackers if s.loc[u] >= 0], DISPERSED)
        s = s.replace(status=tuple(st))
    return _defender(s, b, events)


def _defender(s: State, b: Battle, events: list[Event]) -> State:
    code = b.result
    loc, st = list(s.loc), list(s.status)
    if code in ("DE", "BR"):
        _eliminate(loc, b.defenders)
        events.append(Event("eliminated", f"{', '.join(_names(s, b.defenders))} eliminated.", {}))
        s = s.replace(loc=tuple(loc))
        return _to_advance(s, _with(b, retreated=0), events)
    if code in ("R1", "R2"):
        return s.replace(battle=_with(b, step="retreat"))
    if code in ("S", "D"):
        _set_status(st, b.defenders, SPENT if code == "S" else DISPERSED)
        s = s.replace(status=tuple(st))
        if _can_retreat_paths(s, b, b.at, 1) and not _no_retreat(s, b):
            return s.replace(battle=_with(b, step="extra"))
    return _finish(s, b, events)


def _to_advance(s: State, b: Battle, events: list[Event]) -> State:
    b = _with(b, step="advance")
    if not _advance_options(s, b):
        return _finish(s, b, events)
    return s.replace(battle=b)


def _advance_options(s: State, b: Battle) -> list[Advance]:
    """7.12: into the vacated hex; armour in Good/Hard Frost up to 2 hexes, the first the vacated hex,
    never farther than the defender retreated (DE: 2)."""
    if s.units_at(b.target) or b.step != "advance":
        return []
    out = []
    two = b.retreated != 1
    enemy = s.occupied(1 - s.side)
    for u in b.attackers:
        if s.loc[u] < 0 or s.status[u] == DISPERSED or u in b.advanced:
            continue
        if _stack_ok(s, b.target, [u]):
            out.append(Advance(_spec(s, u).id, hex_id(b.target)))
        sp = _spec(s, u)
        armour_two = s.weather in ("good", "frost") and sp.is_armor
        cavalry_two = s.weather == "snow" and sp.side == SOVIET and sp.kind == "cavalry"  # 7.12 proposal
        if two and (armour_two or cavalry_two):
            for n in s.rules.nbrs[b.target]:
                if not enemy >> n & 1 and n != s.loc[u] and _stack_ok(s, n, [u]):
                    out.append(Advance(_spec(s, u).id, hex_id(n)))
    return out


def _finish(s: State, b: Battle, events: list[Event]) -> State:
    """Attackers are Spent after their attack (4.1, 2.1) unless a Prepared BR gives them one more
    attack (7.6; once per phase, reading)."""
    st = list(s.status)
    br = s.br_used
    bonus = b.result == "BR" and s.phase_spec.key.endswith("prepared")
    for u in b.attackers:
        if s.loc[u] < 0 or st[u] == DISPERSED:
            continue
        if bonus and not br >> u & 1:
            br |= 1 << u
        else:
            st[u] = SPENT
    return _update_control(s.replace(status=tuple(st), br_used=br, battle=None))


def _update_control(s: State) -> State:
    c = s.control
    units = s.rules.units
    for u, h in enumerate(s.loc):
        if h >= 0 and s.rules.places >> h & 1:
            c = c | (1 << h) if units[u].side == GERMAN else c & ~(1 << h)
    return s if c == s.control else s.replace(control=c)


def _names(s: State, units: Any) -> list[str]:
    return [_spec(s, u).id for u in units]


# ----------------------------------------------------------------------------- air (8)
def _air_available(s: State, u: int) -> bool:
    sp = _spec(s, u)
    return (
        sp.is_air
        and s.rules.opt("air") == "on"
        and sp.turn <= s.turn
        and not s.air_used >> u & 1
        and s.down[u] < s.turn
        and (sp.id != BOMBERS or bombers_based(s))
    )


def _tracks_base(s: State) -> bool:
    return (
        s.rules.opt("air") == "on" and s.rules.opt("bomber_base") == "track" and BOMBERS in s.rules.unit_index
    )


def bombers_based(s: State) -> bool:
    """8.1, 8.4 (reading): the Strategic Bombers fly only from a base city or town that is
    Soviet-held (last occupied by a Soviet unit) and free of German units; a lost base grounds
    them until the Soviet rebases them in a Russian Replacement phase."""
    if not _tracks_base(s):
        return True
    h = s.base
    return h >= 0 and s.controller(h) == SOVIET and not s.occupied(GERMAN) >> h & 1


def _base_actions(s: State, setup: bool) -> list[Any]:
    """Set-up (13, seed): any city or town the Soviet holds; later (reading): a Soviet-held city
    or town in Soviet supply, once a phase."""
    r = s.rules
    german = s.occupied(GERMAN)
    length = supply_lengths(s, SOVIET)
    out: list[Any] = []
    for h in range(len(r.terrain)):
        if not r.places >> h & 1 or german >> h & 1 or s.controller(h) != SOVIET or h == s.base:
            continue
        if setup or supply_line(s, SOVIET, h) <= length:
            out.append(Base(BOMBERS, hex_id(h)))
    return out


def _german_air_left(s: State) -> bool:
    """8.1 (seed): only one German air unit in Mud and in Snow."""
    if s.weather not in ("mud", "snow"):
        return True
    used = sum(
        1 for u, sp in enumerate(s.rules.units) if sp.is_air and sp.side == GERMAN and s.air_used >> u & 1
    )
    return used < int(s.rules.tables["air"]["german_in_mud_or_snow"])


def _interceptors(s: State, b: Battle) -> list[int]:
    side = 1 - s.side
    out: list[int] = []
    if side == GERMAN and not _german_air_left(s):
        return out  # 8.1: one German air unit a turn in Mud and Snow, interceptions included
    for u, sp in enumerate(s.rules.units):
        if sp.side != side or not _air_available(s, u) or sp.id == BOMBERS:
            continue
        if sp.id == "6IK" and distance(b.target, MOSCOW) > int(
            s.rules.tables["air"]["interceptor_range_of_moscow"]
        ):
            continue  # 8.4 reading
        out.append(u)
    return out


# ----------------------------------------------------------------------------- legal actions
def legal_actions(s: State) -> list[Any]:
    cached = s._memo.get("legal")
    if cached is None:
        cached = _legal(s)
        s._memo["legal"] = cached
    return cached  # type: ignore[no-any-return]


def _legal(s: State) -> list[Any]:
    if s.result is not None:
        return []
    b = s.battle
    if b is not None:
        return _battle_actions(s, b)
    kind = s.phase_spec.kind
    if kind == "combat":
        return _declare_actions(s)
    if kind == "movement":
        out: list[Any] = []
        for u in _ground(s, s.side):
            if s.status[u] != READY or s.moved >> u & 1:
                continue
            fits, uid = _fits(s, u), _spec(s, u).id
            out += [Move(uid, HEX_IDS[h]) for h in sorted(move_options(s, u)) if fits >> h & 1]
        return [*out, End()]
    if kind == "reinforce":
        return _reinforce_actions(s)
    if kind == "setup":
        return _base_actions(s, setup=True)
    if kind == "isolation" and s.iso:
        return [Lose(_spec(s, u).id) for u in s.iso[0]]
    return [End()]


def _ready_attackers(s: State) -> list[int]:
    return [u for u in _ground(s, s.side) if s.status[u] == READY]


def _declare_actions(s: State) -> list[Any]:
    out: list[Any] = []
    enemy = s.occupied(1 - s.side)
    for u in _ready_attackers(s):
        for n in s.rules.nbrs[s.loc[u]]:
            if enemy >> n & 1:
                out.append(Attack(_spec(s, u).id, hex_id(n)))
    if s.side == GERMAN and s.phase_spec.key == "g_prepared" and _german_air_left(s):
        mine = s.occupied(GERMAN)
        for u, sp in enumerate(s.rules.units):
            if sp.side == GERMAN and _air_available(s, u):
                for h in range(len(s.rules.terrain)):
                    if mine >> h & 1 and not s.dropped >> h & 1:
                        out.append(Airdrop(sp.id, hex_id(h)))
                if not mine >> MOSCOW & 1:
                    out.append(Bomb(sp.id))
    if not _mandatory_unmet(s):
        out.append(End())
    return out


def _mandatory_unmet(s: State) -> list[int]:
    """7.2: every UnDispersed German army/korps next to a Soviet unit that attacked this phase must
    be attacked this phase, unless no attack on it can be made (reading: below 1:5 with every ready
    adjacent Soviet unit)."""
    if s.side != SOVIET or not s.att_from:
        return []
    out = []
    r = s.rules
    for g in _ground(s, GERMAN):
        sp = _spec(s, g)
        if not sp.supporting or s.status[g] == DISPERSED or s.hit >> g & 1:
            continue
        h = s.loc[g]
        if not any(s.att_from >> n & 1 for n in r.nbrs[h]):
            continue
        ready = [u for u in _ready_attackers(s) if s.loc[u] in r.nbrs[h]]
        if ready and odds(s, Battle(h, tuple(ready)))[0] >= 0:
            out.append(g)
    return out


def _battle_actions(s: State, b: Battle) -> list[Any]:
    r = s.rules
    step = b.step
    if step in ("roll", "icpt_roll", "bomb_roll"):
        return list(ROLLS)
    if step == "declare":
        out: list[Any] = []
        if not b.drop:
            for u in _ready_attackers(s):
                if u not in b.attackers and b.target in r.nbrs[s.loc[u]]:
                    out.append(Attack(_spec(s, u).id, hex_id(b.target)))
            out += _air_choices(s, b)
            if odds(s, b)[0] >= 0:
                out.append(Fire())
        return [*out, Cancel()]
    if step == "intercept":
        return [*(Intercept(_spec(s, u).id) for u in _interceptors(s, b)), Pass()]
    if step in ("noretreat", "exchange"):
        cls = NoRetreat if step == "noretreat" else Exchange
        return [cls(True), cls(False)]
    if step == "loss":
        cls2 = Disperse if b.loss_kind == "AD" else Lose  # AE, or EX (an exchange)
        return [
            cls2(_spec(s, u).id)
            for u in b.attackers
            if s.loc[u] >= 0 and (b.loss_kind != "AD" or s.status[u] != DISPERSED)
        ]
    if step == "retreat":
        n = 2 if b.result == "R2" else 1
        paths = [Retreat(())]
        for k in range(1, n + 1):
            paths += [Retreat(tuple(hex_id(h) for h in p)) for p in _can_retreat_paths(s, b, b.target, k)]
        return paths
    if step == "extra":
        return [*(Retreat((hex_id(p[0]),)) for p in _can_retreat_paths(s, b, b.at, 1)), Stay()]
    if step == "advance":
        return [*_advance_options(s, b), End()]
    raise AssertionError(step)


def _air_choices(s: State, b: Battle) -> list[Any]:
    if not b.attackers or s.rules.opt("air") != "on":
        return []
    # 8.3 range: from a supplied ground unit (reading); 8.4 the bombers: any range from their base.
    ranged = any(in_supply(s, u) for u in b.attackers)
    air = s.rules.tables["air"]
    if s.side == GERMAN:
        if len(b.air) >= int(air["german_per_target"]) or not _german_air_left(s):
            return []
    elif len(b.air) >= int(air["soviet_per_target"]):
        return []
    out = []
    for u, sp in enumerate(s.rules.units):
        flies = ranged or (sp.id == BOMBERS and _tracks_base(s))
        if flies and sp.side == s.side and sp.id != "6IK" and _air_available(s, u) and u not in b.air:
            out.append(Air(sp.id))
    return out


def _reinforce_actions(s: State) -> list[Any]:
    r = s.rules
    out: list[Any] = []
    german = s.occupied(GERMAN)
    length = supply_lengths(s, SOVIET)
    sov = _ground(s, SOVIET)
    spots = 0
    for u in sov:
        if in_supply(s, u):
            spots |= 1 << s.loc[u]
            for n in r.nbrs[s.loc[u]]:
                spots |= 1 << n
    for h in range(len(r.terrain)):
        if r.places >> h & 1 and s.controller(h) == SOVIET and supply_line(s, SOVIET, h) <= length:
            spots |= 1 << h
    spots &= ~german
    pending = [
        u
        for u, sp in enumerate(r.units)
        if sp.side == SOVIET and not sp.is_air and 0 < sp.turn <= s.turn and s.loc[u] == OFF
    ]
    placeable = False
    for u in pending:
        ok = spots & _fits(s, u)
        for h in range(len(r.terrain)):
            if ok >> h & 1:
                out.append(Reinforce(r.units[u].id, HEX_IDS[h]))
                placeable = True
    if s.turn >= int(_replacement_table()["from_turn"]):
        east = _rail_to_east(s)
        entry = []
        for h in range(len(r.terrain)):
            if german >> h & 1 or s.entered >> h & 1 or not r.places >> h & 1:
                continue
            if h in (MOSCOW, VORONEZH) or (east >> h & 1 and supply_line(s, SOVIET, h) <= length):
                entry.append(h)
        for u, sp in enumerate(r.units):
            if sp.side == SOVIET and s.loc[u] == ELIM and _replaceable(sp) and _cost(s, sp) <= s.repl:
                fits = _fits(s, u)
                out += [Replace(sp.id, HEX_IDS[h]) for h in entry if fits >> h & 1]
    for u in sov:
        if s.status[u] != DISPERSED and r.rail_hexes >> s.loc[u] & 1:
            out += [Rail(r.units[u].id, HEX_IDS[h]) for h in rail_options(s, u)]
    out += [Disband(r.units[u].id) for u in sov]
    if _tracks_base(s) and not s.based:
        out += _base_actions(s, setup=False)
    if not s.ordered:
        out += [Order(m) for m in ("none", "all", "front", "moscow") if m != s.noretreat]
    if not placeable:
        out.append(End())
    return out


def _replacement_table() -> dict[str, Any]:
    from .rules import _calendar

    return _calendar()["replacements"]  # type: ignore[no-any-return]


def _replaceable(sp: UnitSpec) -> bool:
    """11.1: infantry armies only (shock armies count as infantry armies: reading)."""
    return sp.echelon == "army" and sp.kind in ("infantry", "shock")


def _cost(s: State, sp: UnitSpec) -> int:
    return sp.defense if s.rules.opt("replacement_cost") == "defense" else sp.attack


def chance_outcomes(s: State) -> list[tuple[Any, float]]:
    return [(r, 1 / 6) for r in ROLLS] if s.current_player() == -1 else []


# ----------------------------------------------------------------------------- apply
def apply(s: State, action: Any) -> tuple[State, list[Event]]:
    if action not in legal_actions(s):
        raise IllegalActionError(f"{action!r} is not legal now ({s.phase_spec.name})")
    events: list[Event] = []
    return _step(s, action, events), events


def apply_unchecked(s: State, action: Any) -> State:
    return _step(s, action, [])


def _step(s: State, a: Any, events: list[Event]) -> State:
    k = a.kind
    r = s.rules
    b = s.battle
    if k == "end" and b is None:
        return _end_phase(s, events)
    if k == "move":
        u, h = _uid(s, a.unit), _hid(a.dst)
        loc = list(s.loc)
        loc[u] = h
        events.append(Event("move", f"{a.unit} moves to {a.dst}.", {}))
        return _update_control(s.replace(loc=tuple(loc), moved=s.moved | 1 << u))
    if k == "rail":
        u, h = _uid(s, a.unit), _hid(a.dst)
        loc, st = list(s.loc), list(s.status)
        loc[u], st[u] = h, DISPERSED
        events.append(Event("rail", f"{a.unit} moves by rail to {a.dst} (Dispersed).", {}))
        return _update_control(s.replace(loc=tuple(loc), status=tuple(st)))
    if k in ("reinforce", "replace"):
        u, h = _uid(s, a.unit), _hid(a.hex)
        loc, st = list(s.loc), list(s.status)
        loc[u] = h
        st[u] = READY if k == "reinforce" else DISPERSED
        extra: dict[str, Any] = {}
        if k == "replace":
            extra = {"repl": s.repl - _cost(s, r.units[u]), "entered": s.entered | 1 << h}
        events.append(Event(k, f"{a.unit} enters at {a.hex}.", {}))
        return _update_control(s.replace(loc=tuple(loc), status=tuple(st), **extra))
    if k == "base":
        h = _hid(a.hex)
        events.append(Event("base", f"The Strategic Bombers are based at {a.hex}.", {}))
        if s.phase_spec.kind == "setup":
            return _end_phase(s.replace(base=h), events)
        return s.replace(base=h, based=True)
    if k == "disband":
        loc = list(s.loc)
        loc[_uid(s, a.unit)] = ELIM
        events.append(Event("disband", f"{a.unit} is voluntarily eliminated.", {}))
        return s.replace(loc=tuple(loc))
    if k == "order":
        events.append(Event("order", f"No Retreat! order: {a.mode}.", {}))
        return s.replace(noretreat=a.mode, ordered=True)
    if k == "lose" and b is None:  # isolation
        loc = list(s.loc)
        loc[_uid(s, a.unit)] = ELIM
        events.append(Event("isolation", f"{a.unit} is lost to isolation.", {}))
        s = s.replace(loc=tuple(loc), iso=s.iso[1:])
        return s if s.iso else _end_phase(s, events)
    if k == "airdrop":
        u, h = _uid(s, a.unit), _hid(a.hex)
        nb = Battle(h, (), (u,), drop=True, step="intercept")
        s = s.replace(battle=nb, air_used=s.air_used | 1 << u)
        return s if _interceptors(s, nb) else _air_done(s, nb, events)
    if k == "bomb":
        u = _uid(s, a.unit)
        nb = Battle(MOSCOW, (), (u,), bomb=True, step="intercept")
        s = s.replace(battle=nb, air_used=s.air_used | 1 << u)
        return s if _interceptors(s, nb) else _air_done(s, nb, events)
    if k == "attack":
        u, h = _uid(s, a.unit), _hid(a.target)
        if b is None:
            b = Battle(h)
        return s.replace(
            battle=_with(b, attackers=(*b.attackers, u), attack_from=b.attack_from | 1 << s.loc[u])
        )
    assert b is not None, a
    if k == "air":
        u = _uid(s, a.unit)
        return s.replace(battle=_with(b, air=(*b.air, u)), air_used=s.air_used | 1 << u)
    if k == "cancel":
        return s.replace(battle=None, air_used=s.air_used & ~sum(1 << x for x in b.air))
    if k == "fire":
        col, why = odds(s, b)
        defenders = tuple(s.units_at(b.target))
        events.append(Event("attack", f"Attack on {hex_id(b.target)}: {'; '.join(why)}.", {}))
        hit = s.hit
        for d in defenders:
            hit |= 1 << d
        nb = _with(b, column=col, defenders=defenders, at=b.target, step="intercept" if b.air else "roll")
        s = s.replace(battle=nb, hit=hit, att_from=s.att_from | b.attack_from)
        if nb.step == "intercept" and not _interceptors(s, nb):
            s = s.replace(battle=_with(nb, step="roll"))
        return s
    if k == "intercept":
        u = _uid(s, a.unit)
        return s.replace(battle=_with(b, interceptor=u, step="icpt_roll"), air_used=s.air_used | 1 << u)
    if k == "pass":
        return _air_done(s, b, events)
    if k == "roll" and b.step == "icpt_roll":
        res = r.tables["air"]["interception"][str(a.die)]
        events.append(Event("interception", f"Interception die {a.die}: {res}.", {}))
        down = list(s.down)
        air = b.air
        if res == "bomber_down":
            down[air[0]] = s.turn + 1
            air = air[1:]
        elif res == "intercepted":
            air = air[1:]
        elif res == "interceptor_down":
            down[b.interceptor] = s.turn + 1
        s = s.replace(down=tuple(down))
        if not (b.drop or b.bomb):
            col, _ = odds(s, _with(b, air=air))
            b = _with(b, air=air, column=col)
        else:
            b = _with(b, air=air)
        return _air_done(s, b, events)
    if k == "roll" and b.step == "bomb_roll":
        if a.die == 6:
            events.append(
                Event("panic", "Bombing of Moscow, die 6: PANIC (+1 column to German attacks).", {})
            )
            return s.replace(battle=None, panic=True)
        if a.die == 1:
            down = list(s.down)
            down[b.air[0]] = s.turn + 1
            events.append(Event("shot_down", "Bombing of Moscow, die 1: the air unit is shot down.", {}))
            return s.replace(battle=None, down=tuple(down))
        events.append(Event("bombing", f"Bombing of Moscow, die {a.die}: no effect.", {}))
        return s.replace(battle=None)
    if k == "roll":
        return _after_roll(s, _with(b, die=a.die), events)
    if k == "noretreat":
        return _convert(s, b, a.accept, events)
    if k == "exchange":
        if a.accept:
            loc = list(s.loc)
            _eliminate(loc, b.defenders)
            events.append(Event("exchange", "Exchange: the defenders are eliminated.", {}))
            s = s.replace(loc=tuple(loc))
            dfs = sum(_spec(s, u).defense for u in b.defenders)
            # 7.10: the attacker loses factors equal to the defense; the survivors are not Dispersed.
            nb = _with(b, result="DE", loss_kind="EX", losses=dfs)
            return _losses_or_defender(s, nb, events)
        return _convert2(s, b, events)
    if k in ("lose", "disperse"):
        u = _uid(s, a.unit)
        loc, st = list(s.loc), list(s.status)
        if k == "lose":
            loc[u] = ELIM
        else:
            st[u] = DISPERSED
        events.append(
            Event(k, f"{a.unit} {'eliminated' if k == 'lose' else 'Dispersed'} ({b.loss_kind}).", {})
        )
        s = s.replace(loc=tuple(loc), status=tuple(st))
        nb = _with(b, losses=b.losses - r.units[u].attack)
        if nb.losses > 0 and [x for x in _battle_actions(s, _with(nb, step="loss"))]:
            return s.replace(battle=_with(nb, step="loss"))
        return _losses_or_defender(s, _with(nb, losses=0), events)
    if k == "retreat" and b.step == "retreat":
        path = tuple(_hid(x) for x in a.path)
        loc, st = list(s.loc), list(s.status)
        end = path[-1] if path else b.target
        for d in b.defenders:
            loc[d] = end
        _set_status(st, b.defenders, DISPERSED if b.result == "R2" else SPENT)
        events.append(
            Event(
                "retreat", f"Defenders retreat {len(path)} hex(es){' to ' + hex_id(end) if path else ''}.", {}
            )
        )
        s = _update_control(s.replace(loc=tuple(loc), status=tuple(st)))
        nb = _with(b, at=end, retreated=len(path))
        if b.result == "R1" and _can_retreat_paths(s, nb, end, 1) and not _no_retreat(s, nb):
            return s.replace(battle=_with(nb, step="extra"))
        return _to_advance(s, nb, events) if path else _finish(s, nb, events)
    if k == "retreat":  # the defender's extra hex (7.6 R1, S, D)
        h = _hid(a.path[0])
        loc, st = list(s.loc), list(s.status)
        for d in b.defenders:
            loc[d] = h
        _set_status(st, b.defenders, DISPERSED)
        events.append(Event("retreat", f"Defenders fall back to {a.path[0]} (Dispersed).", {}))
        s = _update_control(s.replace(loc=tuple(loc), status=tuple(st)))
        return _to_advance(s, _with(b, at=h, retreated=b.retreated + 1), events)
    if k == "stay":
        if b.at != b.target:
            return _to_advance(s, b, events)
        return _finish(s, b, events)
    if k == "advance":
        u, h = _uid(s, a.unit), _hid(a.hex)
        loc = list(s.loc)
        loc[u] = h
        events.append(Event("advance", f"{a.unit} advances to {a.hex}.", {}))
        s = _update_control(s.replace(loc=tuple(loc)))
        nb = _with(b, advanced=(*b.advanced, u))
        return s.replace(battle=nb) if _advance_options(s, nb) else _finish(s, nb, events)
    if k == "end":
        return _finish(s, b, events)
    raise IllegalActionError(f"not an action here: {a!r}")


def _convert2(s: State, b: Battle, events: list[Event]) -> State:
    """An exchange declined: the converted D stands."""
    return _losses_or_defender(s, _with(b, result="D"), events)


def _air_done(s: State, b: Battle, events: list[Event]) -> State:
    if b.bomb:
        return s.replace(battle=_with(b, step="bomb_roll") if b.air else None)
    if b.drop:
        if b.air:
            events.append(Event("airdrop", f"Air resupply of {hex_id(b.target)}.", {}))
            return s.replace(battle=None, dropped=s.dropped | 1 << b.target)
        return s.replace(battle=None)
    return s.replace(battle=_with(b, step="roll"))


# ----------------------------------------------------------------------------- phases
def _end_phase(s: State, events: list[Event]) -> State:
    if s.phase_spec.kind == "combat" and s.br_used:
        # 2.1: a unit that attacked in Prepared Attacks may not also move: the BR bonus lapses.
        s = s.replace(
            status=tuple(SPENT if (s.br_used >> u & 1 and x == READY) else x for u, x in enumerate(s.status))
        )
    s = s.replace(
        phase=s.phase + 1, moved=0, br_used=0, hit=0, att_from=0, entered=0, ordered=False, based=False
    )
    return _advance(s, events)


def _advance(s: State, events: list[Event]) -> State:
    """Run automatic phases until a player has a decision."""
    while s.result is None:
        if s.phase >= len(PHASES):
            if s.turn >= s.rules.last_turn:
                return _game_end(s, events)
            s = s.replace(turn=s.turn + 1, phase=0, air_used=0, dropped=0, noretreat="none", panic=False)
            events.append(Event("turn", f"Game-turn {s.turn} ({s.rules.dates[s.turn]}, {s.weather}).", {}))
            continue
        p = PHASES[s.phase]
        if p.kind == "setup":
            if s.turn == 1 and s.base < 0 and _tracks_base(s):
                return s  # the Soviet chooses the bombers' base before the German's first player-turn
            s = s.replace(phase=s.phase + 1)
            continue
        if p.kind == "recover":
            st = tuple(
                READY if (x == DISPERSED and s.rules.units[u].side == p.side) else x
                for u, x in enumerate(s.status)
            )
            repl = s.repl
            table = _replacement_table()
            if p.side == SOVIET and s.turn >= int(table["from_turn"]):
                repl += int(table["per_turn"])  # 11.1: from turn 2, 4 a turn, banked
            s = s.replace(status=st, phase=s.phase + 1, repl=repl)
            continue
        if p.kind == "reface":
            s = s.replace(status=tuple(READY if x == SPENT else x for x in s.status), phase=s.phase + 1)
            continue
        if p.kind == "victory":
            won = _victory(s, p.side)
            if won:
                events.append(Event("game_over", f"Game over: {SIDE_NAMES[p.side]} victory (12).", {}))
                return s.replace(result=SIDE_NAMES[p.side])
            s = s.replace(phase=s.phase + 1)
            continue
        if p.kind == "isolation":
            groups = isolated_groups(s, p.side)
            if not groups:
                s = s.replace(phase=s.phase + 1)
                continue
            return s.replace(iso=groups)
        return s
    return s


def _victory(s: State, side: int) -> bool:
    """12.1, 12.2 (seed): the cities in the side's supply and last occupied by it."""
    if side == GERMAN:
        cities = GERMAN_VICTORY
    else:
        if s.rules.last_turn <= 6 or s.turn <= 6:
            return False
        cities = SOVIET_VICTORY
    length = supply_lengths(s, side)
    return all(s.controller(h) == side and supply_line(s, side, h) <= length for h in cities)


def _game_end(s: State, events: list[Event]) -> State:
    if s.rules.last_turn <= 6:
        res = "soviet"  # 12.3: basic game, the German has not won
    else:
        res = "draw" if s.rules.opt("campaign_end") == "draw" else "soviet"  # Q10
    events.append(Event("game_over", f"Game over after turn {s.turn}: {res}.", {}))
    # the game ends after the last phase of the last turn: the position stays on that phase
    return s.replace(result=res, phase=len(PHASES) - 1)
