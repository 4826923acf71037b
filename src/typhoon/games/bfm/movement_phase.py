"""Movement phases (seed 002, "Movement", "Zone of control", "Mud").

- A unit moves up to its movement allowance in hexes; entering a forest costs 2.
- It never enters a hex holding an enemy unit; entering an enemy zone of control ends its move.
- It may pass through friendly units; at the end of the phase each hex holds one unit.
- Panzer movement phase: panzers only. General movement: every unit, panzers again.
- Soviet rail movement: only units that begin the phase on a rail hex, only along the rail
  line, each hex (forest too) counting 1; zones of control and enemy units as above; mud does
  not slow it.
- Mud turns: every other movement is one hex per phase.

Moves are actions of one unit to a destination. Which path it took matters only for the
enemy-held cities it passed through (a city belongs to the side whose unit was last in it),
so a move names those cities; every combination a path can achieve is offered.

A unit may end its move on a friendly unit that has not moved yet. That unit must then move
off before anything else happens (a chain that ends on an empty hex, or on the hex the first
mover left). This keeps every final arrangement the rules allow, swaps and rotations
included, and never lets a phase reach a point where it cannot end with one unit per hex.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.bfm.actions import END, Action, End, Move
from typhoon.games.bfm.flow import end_phase
from typhoon.games.bfm.rules import Rules
from typhoon.games.bfm.state import State
from typhoon.games.driver import LegalList
from typhoon.hexgrid import bit_list, bits
from typhoon.mechanics.movement import reach, reach_on_grid
from typhoon.mechanics.zoc import zoc_mask

_UNIT_CACHE = "moves"


def movable(s: State, u: int) -> bool:
    """May unit ``u`` still move in this phase?"""
    return bool((_phase_facts(s)["eligible"] & ~s.done) >> u & 1)


def movable_units(s: State) -> int:
    """Bitset over units of those that may still move in this phase."""
    return int(_phase_facts(s)["eligible"] & ~s.done)


def _eligible(s: State) -> int:
    """Units that may move in this phase at all (bitset): the phasing side's units on the
    map; in the panzer phase only panzers, in the rail phase only units on a rail hex
    (units do not leave or join the map during a movement phase, and a unit that has not
    moved is still on the hex it began the phase on)."""
    rules = s.rules
    spec = rules.phases[s.phase]
    out = 0
    for u in rules.side_units[spec.side]:
        h = s.loc[u]
        if h < 0:
            continue
        if spec.movers == "panzer" and not rules.units[u].panzer:
            continue
        if spec.movers == "rail" and not rules.map.is_rail(h):
            continue
        out |= 1 << u
    return out


def _phase_facts(s: State) -> dict[str, Any]:
    """Facts fixed for the rest of the phase: the enemy's units and zone of control do not
    move while one side moves. Recomputed only when a city changes hands."""
    c = s._cache
    if "enemy_occ" not in c:
        rules = s.rules
        enemy = 1 - rules.phases[s.phase].side
        c["enemy_occ"] = s.occ[enemy]
        c["enemy_zoc"] = zoc_mask(s.occ[enemy], rules.map.grid.expand)
        # Cities the mover would take by entering: enemy-held (and so empty of his units).
        c["notable"] = s.controlled_city_mask(enemy) & ~s.occ[enemy]
        c["eligible"] = _eligible(s)
        c[_UNIT_CACHE] = {}
    return c


class UnitMoves:
    """All moves of one unit in this phase, ignoring friendly units."""

    __slots__ = ("moves", "dsts", "dmask", "anymask", "filtered", "_by_key", "near")

    def __init__(self, moves: list[Move], dsts: list[int], start: int, dmask: int = -1, near: int = -1):
        self.moves = moves
        self.near = near  # the hexes these moves depend on (all, if -1)
        self.dsts = dsts  # ascending: the moves to one destination are consecutive
        if dmask < 0:
            dmask = 0
            for d in dsts:
                dmask |= 1 << d
        self.anymask = dmask  # every destination, the unit's own hex included (a move out and back)
        self.dmask = dmask & ~(1 << start)  # destinations other than the unit's own hex
        # Moves left once the destinations in a bitset are excluded (memoised by bitset).
        self.filtered: dict[int, list[Move]] = {0: moves}
        self._by_key: dict[tuple[str, tuple[str, ...]], Move] | None = None

    def without(self, bad: int) -> list[Move]:
        got = self.filtered.get(bad)
        if got is None:
            # Cut the excluded destinations' runs out of the (destination-ordered) list: a few
            # slices instead of a test per move; the order of the moves left is unchanged.
            moves = self.moves
            hit = bad & self.anymask
            if not hit:
                got = moves
            else:
                dsts = self.dsts
                got = []
                lo = 0
                while hit:
                    low = hit & -hit
                    hit ^= low
                    d = low.bit_length() - 1
                    i = bisect_left(dsts, d, lo)
                    got += moves[lo:i]
                    lo = bisect_right(dsts, d, i)
                got += moves[lo:]
            self.filtered[bad] = got
        return got

    def find(self, dst: str, via: tuple[str, ...]) -> Move | None:
        if self._by_key is None:
            self._by_key = {(m.dst, m.via): m for m in self.moves}
        return self._by_key.get((dst, via))


def options(s: State, u: int) -> UnitMoves:
    """All moves of unit ``u`` ignoring friendly units (cached for the phase)."""
    facts = _phase_facts(s)
    cache: dict[int, UnitMoves] = facts[_UNIT_CACHE]
    hit = cache.get(u)
    if hit is not None:
        return hit
    rules = s.rules
    m = rules.map
    grid = m.grid
    start = s.loc[u]
    rail = rules.phases[s.phase].movers == "rail"
    allowance = rules.units[u].move
    mud = s.is_mud() and not rail
    # What the move can depend on: hexes within range of the start. Units away from the
    # fighting see the same surroundings phase after phase, so results are memoised.
    near = grid.within(start, 1 if mud else allowance)
    notable = facts["notable"] & near
    key = (u, start, rail, mud, facts["enemy_occ"] & near, facts["enemy_zoc"] & near, notable)
    memo = _MEMO.get(rules)
    if memo is None:
        memo = _MEMO[rules] = {}
    got = memo.get(key)
    if got is not None:
        cache[u] = got
        return got
    if len(memo) > _MEMO_LIMIT:
        memo.clear()  # bounded: long training runs must not grow without end
    if rail:
        found = reach(
            start,
            allowance,
            m.rail_neighbours,
            m.rail_cost,
            facts["enemy_occ"],
            facts["enemy_zoc"],
            notable,
        )
        got = _with_via(rules, u, start, sorted({(dst, seen & ~(1 << dst)) for dst, seen in found}), near)
    elif mud:
        # One hex, whatever the terrain or zones of control: every neighbour free of the enemy
        # (``expand`` of one hex is exactly its neighbours on the map).
        got = _plain(rules, u, start, True, grid.expand(1 << start) & ~facts["enemy_occ"], near)
    else:
        layers = reach_on_grid(
            start, allowance, grid.expand, m.forest_mask, facts["enemy_occ"], facts["enemy_zoc"], notable
        )
        if len(layers) <= 1 and 0 in layers or not layers:
            # Common case: no city to take on the way.
            got = _plain(rules, u, start, False, layers.get(0, 0), near)
        else:
            pairs = sorted({(d, seen & ~(1 << d)) for seen, dm in layers.items() for d in bits(dm)})
            got = _with_via(rules, u, start, pairs, near)
    cache[u] = memo[key] = got
    return got


def _sub_memo(name: str, rules: Rules) -> dict[Any, Any]:
    """A memo kept in ``_MEMO`` under its own key (so clearing ``_MEMO`` clears it too, and it
    never crowds out the surroundings memo)."""
    key = (name, rules)
    memo = _MEMO.get(key)
    if memo is None:
        memo = _MEMO[key] = {}
    return memo


def _plain(rules: Rules, u: int, start: int, mud: bool, dmask: int, near: int) -> UnitMoves:
    """The moves of ``u`` from ``start`` to the hexes of ``dmask``, taking no city on the way.
    Memoised by the destinations as well as by the surroundings: a unit whose surroundings
    changed somewhere that does not change where it can go reuses its moves. ``near``
    depends only on the key's fields."""
    memo: dict[tuple[int, int, bool, int], UnitMoves] = _sub_memo("dst", rules)
    rkey = (u, start, mud, dmask)
    got = memo.get(rkey)
    if got is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        dsts = bit_list(dmask)  # hex order, as the rules' listing order
        # The Move tuples of one unit from one hex, by destination: made once, then shared by
        # every listing that offers them (making them was most of a cold listing's cost).
        rows: dict[tuple[int, int], dict[int, Move]] = _sub_memo("row", rules)
        row = rows.get((u, start))
        if row is None:
            if len(rows) > _ROW_LIMIT:
                rows.clear()
            row = rows[(u, start)] = {}
        try:
            moves = [row[d] for d in dsts]
        except KeyError:
            ids = rules.map.grid.ids
            uid = rules.units[u].id
            src = ids[start]
            for d in dsts:
                if d not in row:
                    # tuple.__new__ skips Move's generated __new__ (the engine's hottest loop).
                    row[d] = _tuple_new(Move, (uid, src, ids[d], (), "move"))
            moves = [row[d] for d in dsts]
        got = memo[rkey] = UnitMoves(moves, dsts, start, dmask, near)
    return got


def _with_via(rules: Rules, u: int, start: int, pairs: list[tuple[int, int]], near: int) -> UnitMoves:
    """The moves of ``u`` for sorted (destination, cities passed) pairs."""
    ids = rules.map.grid.ids
    uid = rules.units[u].id
    src = ids[start]
    vias = _VIAS.get(rules)
    if vias is None:
        vias = _VIAS[rules] = {0: ()}
    elif len(vias) > _MEMO_LIMIT:
        vias.clear()
        vias[0] = ()
    moves: list[Move] = []
    dsts: list[int] = []
    for dst, via_mask in pairs:
        via = vias.get(via_mask)
        if via is None:
            via = vias[via_mask] = tuple([ids[h] for h in bit_list(via_mask)])
        moves.append(_tuple_new(Move, (uid, src, ids[dst], via, "move")))
        dsts.append(dst)
    return UnitMoves(moves, dsts, start, -1, near)


# Rules -> hex ids of the cities of a via bitset (few distinct sets: bounded by the map's cities).
_VIAS: dict[object, dict[int, tuple[str, ...]]] = {}


# Rules -> memo of unit moves by surroundings (see ``options``); bounded, cleared when full.
_MEMO: dict[object, dict[Any, Any]] = {}
_MEMO_LIMIT = 10_000  # entries of ~25 moves each: a few tens of MB at most
_ROW_LIMIT = 5_000  # (unit, hex) rows of Move tuples, ~30 each


_tuple_new = tuple.__new__


def _movers(s: State) -> list[int]:
    return bit_list(movable_units(s))


class _Chains:
    """Which unmoved units could be pushed off their hex by a unit moving onto it: those
    with a chain of moves ending on an empty hex (or, for a given first mover, on the hex it
    leaves). Built only when some unit has no empty hex within reach."""

    def __init__(self, s: State, units: list[int], exclude: int = -1):
        occupied = s.occ[0] | s.occ[1]
        self.edges: dict[int, list[int]] = {}
        terminal = []
        units = [u for u in units if u != exclude]
        hex_owner = {s.loc[u]: u for u in units}
        unmoved_mask = 0
        for u in units:
            unmoved_mask |= 1 << s.loc[u]
        for u in units:
            dmask = options(s, u).dmask
            if dmask & ~occupied:
                terminal.append(u)
            hit = dmask & unmoved_mask
            while hit:
                low = hit & -hit
                v = hex_owner[low.bit_length() - 1]
                self.edges.setdefault(v, []).append(u)  # reverse edge: u can move onto v
                hit ^= low
        self.good = self._ancestors(terminal)
        self._reaching: dict[int, set[int]] = {}

    def _ancestors(self, targets: list[int]) -> set[int]:
        seen = set(targets)
        todo = list(targets)
        while todo:
            v = todo.pop()
            for u in self.edges.get(v, ()):
                if u not in seen:
                    seen.add(u)
                    todo.append(u)
        return seen

    def can_displace(self, z: int, mover: int) -> bool:
        """Can unit ``z`` leave its hex when ``mover`` moves onto it? With no unit waiting to
        move off, ``mover``'s own hex is freed by the move; with one waiting, nothing is."""
        if z in self.good:
            return True
        if mover < 0:
            return False
        r = self._reaching.get(mover)
        if r is None:
            r = self._reaching[mover] = self._ancestors([mover])
        return z in r


def _displaceable(s: State, movers: list[int]) -> tuple[int, _Chains | None]:
    """Hexes of unmoved units that can move directly to an empty hex, and (only if some
    unmoved unit cannot) the chain structure for the others. ``movers`` is ``_movers(s)``.

    Worked out once per position and shared by the listing and by ``apply``'s check of a
    move onto an occupied hex (one reasoning for both). Within a phase it depends only on
    which units moved, the occupied hexes and the waiting unit: unmoved units are still on
    their phase-start hexes, their moves are the phase's, and the enemy does not move."""
    facts = _phase_facts(s)
    occupied = s.occ[0] | s.occ[1]
    seen: dict[tuple[int, int, int], tuple[int, _Chains | None]] | None = facts.get(_DISP)
    if seen is None:
        seen = facts[_DISP] = {}
    key = (s.done, occupied, s.stack)
    got = seen.get(key)
    if got is None:
        if len(seen) > _DISP_LIMIT:
            seen.clear()  # search reuses one phase's facts across many roll-outs
        got = seen[key] = _displaceable_now(s, movers, occupied, facts[_UNIT_CACHE])
    return got


_DISP = "disp"
_DISP_LIMIT = 4096


def _displaceable_now(
    s: State, movers: list[int], occupied: int, cache: dict[int, UnitMoves]
) -> tuple[int, _Chains | None]:
    free = ~occupied
    direct = 0
    stuck = False
    loc = s.loc
    for z in movers:
        um = cache.get(z) or options(s, z)
        if um.dmask & free:
            direct |= 1 << loc[z]
        else:
            stuck = True
    if s.stack >= 0 and s.stack in movers:
        direct &= ~(1 << s.loc[s.stack])  # its hex keeps the unit that moved in
    chains = _Chains(s, movers, exclude=s.stack) if stuck else None
    return direct, chains


def legal(s: State) -> list[Action]:
    everyone = _movers(s)
    movers = [s.stack] if s.stack >= 0 else everyone
    # Each unit's list is memoised with its UnitMoves (``moves`` or a ``without`` result) and
    # never changed: the parts of a LegalList (the env codec keeps their codes by identity).
    out = LegalList()
    extend = out.extend
    add = out.parts.append  # with extend: LegalList.add_part, inlined
    occupied = s.occ[0] | s.occ[1]
    direct = -1
    chains: _Chains | None = None
    at = s.at
    cache = _phase_facts(s)[_UNIT_CACHE]
    for u in movers:
        um = cache.get(u) or options(s, u)
        hit = um.dmask & occupied
        if not hit and s.stack != u:
            got = um.moves
            if got:
                extend(got)
                add(got)
            continue
        if direct < 0:
            direct, chains = _displaceable(s, everyone)
        bad = hit & ~direct
        if bad and chains is not None:
            # Units without an empty hex in reach may still be pushed along a chain.
            h_bits = bad
            while h_bits:
                low = h_bits & -h_bits
                h_bits ^= low
                z = at[low.bit_length() - 1]
                if z != s.stack and movable(s, z) and chains.can_displace(z, -1 if s.stack >= 0 else u):
                    bad &= ~low
        if s.stack == u:
            bad |= 1 << s.loc[u]  # it has to leave
        got = um.without(bad)
        if got:
            extend(got)
            add(got)
    if s.stack < 0:
        out.append(END)
    return out


def _can_enter(s: State, u: int, dst: int) -> bool:
    """May ``u`` end its move on ``dst`` (given the move reaches it)?"""
    start = s.loc[u]
    if dst == start:
        return s.stack != u
    z = s.at[dst]
    if z < 0:
        return True
    if z == s.stack or not movable(s, z):
        return False
    movers = _movers(s)
    direct, chains = _displaceable(s, movers)
    if (direct >> dst) & 1:
        return True
    return chains is not None and chains.can_displace(z, -1 if s.stack >= 0 else u)


def apply(s: State, a: Action, events: list[Event]) -> None:
    rules = s.rules
    if isinstance(a, End):
        if s.stack >= 0:
            name = rules.units[s.stack].name
            raise IllegalActionError(f"{name} shares a hex and must move off before the phase ends")
        end_phase(s, events)
        return
    if not isinstance(a, Move):
        raise IllegalActionError(f"{type(a).__name__} is not possible in a movement phase")
    u = rules.unit_index.get(a.unit, -1)
    if u < 0:
        raise IllegalActionError(f"there is no unit {a.unit}")
    if s.stack >= 0 and u != s.stack:
        raise IllegalActionError(f"{rules.units[s.stack].name} must first move off the hex it shares")
    if not movable(s, u):
        raise IllegalActionError(why_not_movable(s, u))
    grid = rules.map.grid
    if a.src != grid.ids[s.loc[u]]:
        raise IllegalActionError(f"{a.unit} is in {grid.ids[s.loc[u]]}, not {a.src}")
    dst = grid.index.get(a.dst, -1)
    um = options(s, u)
    m = a if any(a is x for x in um.moves) else um.find(a.dst, tuple(a.via))
    if m is None:
        raise IllegalActionError(
            f"{a.unit} cannot reach {a.dst}" + (f" via {', '.join(a.via)}" if a.via else "")
        )
    start = s.loc[u]
    if not _can_enter(s, u, dst):
        if dst == start:
            raise IllegalActionError(f"{a.unit} must leave the hex it shares")
        raise IllegalActionError(f"{a.dst} holds a unit that could not then move off it this phase")
    z = s.at[dst] if dst != start else -1
    _do_move(s, u, start, dst, m, z, events)


def _do_move(s: State, u: int, start: int, dst: int, m: Move, z: int, events: list[Event]) -> None:
    rules = s.rules
    side = rules.units[u].side
    grid = rules.map.grid
    if dst != start:
        if s.stack == u:
            s.stack = -1  # the unit that moved in stays, this one leaves
        else:
            s.at[start] = -1
            s.occ[side] &= ~(1 << start)
        s.loc[u] = dst
        s.at[dst] = u
        s.occ[side] |= 1 << dst
        if z >= 0:
            s.stack = z
    s.done |= 1 << u
    taken = 1 << dst
    for h in m.via:
        taken |= 1 << grid.index[h]
    changed = s.take_cities(side, taken)
    text = f"{rules.units[u].name} moves {m.src} to {m.dst}"
    if m.via:
        text += " through " + ", ".join(f"{rules.map.city_name(grid.index[h])} ({h})" for h in m.via)
    if z >= 0:
        text += f"; {rules.units[z].name} must now move off"
    events.append(Event("move", text + ".", {"unit": m.unit, "from": m.src, "to": m.dst, "via": list(m.via)}))
    if changed:
        names = [
            rules.map.cities[i].name
            for i in range(len(rules.map.cities))
            if (taken >> rules.map.cities[i].hex) & 1
        ]
        events.append(
            Event(
                "control",
                f"{', '.join(names)} now {'German' if side == 0 else 'Soviet'}-controlled.",
                {"cities": names, "side": side},
            )
        )
        _cities_changed(s)


def _cities_changed(s: State) -> None:
    """After a city changed hands: only the cities a move can take changed (the enemy's units
    and zone of control stay), so a unit's moves stay valid unless one of those cities lies
    within its range (the hexes its moves were computed from)."""
    old = s._cache
    s._cache = {}  # copies of the state share the old dict: never change it in place
    if "enemy_occ" not in old:
        return
    c = _phase_facts(s)
    flipped = old["notable"] ^ c["notable"]
    kept = c[_UNIT_CACHE]
    for u, um in old[_UNIT_CACHE].items():
        if um.near >= 0 and not um.near & flipped:
            kept[u] = um


def why_not_movable(s: State, u: int) -> str:
    """In words, why unit ``u`` cannot move now (for front ends)."""
    rules = s.rules
    spec = rules.phases[s.phase]
    name = rules.units[u].name
    if rules.units[u].side != spec.side:
        return f"{name} is not a unit of the side moving now"
    if s.loc[u] < 0:
        return f"{name} is not on the map"
    if (s.done >> u) & 1:
        return f"{name} has already moved this phase"
    if spec.movers == "panzer":
        return f"only panzer units move in the panzer movement phase; {name} is not one"
    return f"{name} did not begin the rail movement phase on a rail hex"
