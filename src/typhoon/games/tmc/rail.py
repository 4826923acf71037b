"""Soviet rail movement, reinforcement arrival and EB relocation (rules_en.md §17, §20, §22.3).

- ``Entrain``: a Soviet unit on a usable rail hex (where it began the phase or reached by
  ordinary movement) spends half its MA (exact, [Q54]) and is entrained (§20.3). At most 9
  entrainings per movement phase, arriving reinforcements included ([Q53]).
- ``RailMove``: an entrained unit moves along rail links over usable rail at 30 hexes per MP
  (1/30 MP per hex; option rail_partial_mp=no: whole MPs per started 30 hexes) (§20.4, [Q55]).
  Usable rail = normal rail (plus Soviet-repaired rail with option
  soviet_repair_restores_normal... which turns repairs into normal rail anyway, [Q42]), never
  destroyed or cut (§16). Rail movement may cross lake hexsides (§3.3).
- ``Detrain``: costs a quarter of the unit's MA this phase, rounded up to whole MP (§20.5).
- No entraining, rail movement or detraining in a hex occupied by or adjacent to an enemy
  unit (§20.9; [Q58]: so a rail move never enters such a hex).
- Entrained units may not attack or move normally ([Q56]); they defend at half (combat).
- ``Arrive``: a Soviet reinforcement due this turn or delayed from earlier ([Q60]) is placed
  entrained on an east-edge rail hex of usable rail, not in German ZOC and not next to a German
  unit (§20.9), counting toward the 9 (§22.3, [Q57]: it pays no entraining cost).
- Relocation (§17, [Q45]): at the start of the Soviet movement phase a Soviet EB unit may be
  put on any normal rail hex free of German units with room to stack.
"""

from __future__ import annotations

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.driver import LazyPart
from typhoon.games.tmc.actions import Action, Arrive, Detrain, Entrain, RailMove
from typhoon.games.tmc.flow import due_reinforcements
from typhoon.games.tmc.moving import (
    LegMaker,
    Legs,
    allowance,
    bits_from,
    full_hexes,
    keep_facts,
    remaining,
)
from typhoon.games.tmc.rules import ENTRAIN_LIMIT, GERMAN, RAIL_TICKS_PER_HEX, SOVIET, STACK_LIMIT, TICKS
from typhoon.games.tmc.state import MOVE, State
from typhoon.hexgrid import bit_list

_tuple_new = tuple.__new__


def usable_rail(s: State) -> int:
    """Rail that carries Soviet rail movement: normal rail (§20.10, [Q42])."""
    return s.rail_normal & ~s.rail_cut


def _enemy_near(s: State) -> int:
    """Hexes occupied by or adjacent to a German unit (§20.9). Flipped units count as absent."""
    c = s._cache
    got = c.get("rail_near")
    if got is None:
        occ = 0
        for h, us in s.stacks.items():
            if s.rules.units[us[0]].side == GERMAN and any(not (s.flipped >> u) & 1 for u in us):
                occ |= 1 << h
        got = c["rail_near"] = occ | s.rules.grid.expand(occ)
    return int(got)


def relocation_hexes(s: State) -> list[int]:
    """Normal rail hexes free of German units with room to stack ([Q45])."""
    # Room to stack: not a full hex (moving.full_hexes, kept in the state cache).
    return bits_from(usable_rail(s) & ~s.occ[GERMAN] & ~full_hexes(s), 0)


def entrain_cost(s: State, u: int) -> int:
    return allowance(s, u) // 2


def detrain_cost(s: State, u: int) -> int:
    """A quarter of the MA this phase, rounded up to whole MP (§20.5)."""
    quarter_ticks = allowance(s, u)  # ticks; a quarter of it, rounded up to a multiple of TICKS
    return -(-quarter_ticks // (4 * TICKS)) * TICKS


def _rail_hexes_for(s: State, budget: int) -> int:
    """The most rail hexes ``budget`` ticks pay for: the largest d with rail_cost(s, d) <= budget."""
    if s.rules.flag("rail_partial_mp"):
        return budget // RAIL_TICKS_PER_HEX
    return budget // TICKS * 30


def rail_cost(s: State, hexes: int) -> int:
    if s.rules.flag("rail_partial_mp"):
        return hexes * RAIL_TICKS_PER_HEX
    return -(-hexes // 30) * TICKS


def _remaining(s: State, u: int) -> int:
    return remaining(s, u)


def _can_act(s: State, u: int) -> bool:
    rules = s.rules
    return (
        rules.units[u].side == SOVIET
        and s.loc[u] >= 0
        and s.step == MOVE
        and s.side == SOVIET
        and not (s.overran >> u) & 1
        and u not in s.disrupted
    )


def may_entrain(s: State, u: int) -> bool:
    h = s.loc[u]
    return (
        _can_act(s, u)
        and not (s.entrained >> u) & 1
        and s.entrainings < ENTRAIN_LIMIT
        and bool((usable_rail(s) >> h) & 1)
        and not (_enemy_near(s) >> h) & 1
        and _remaining(s, u) >= entrain_cost(s, u)
    )


def may_detrain(s: State, u: int) -> bool:
    h = s.loc[u]
    return (
        _can_act(s, u)
        and bool((s.entrained >> u) & 1)
        and not (_enemy_near(s) >> h) & 1
        and _remaining(s, u) >= detrain_cost(s, u)
    )


class _RailReach(Legs):
    """One entrained unit's rail destinations (hex -> rail hexes travelled) and its actions
    (``moves``, made when first read)."""

    __slots__ = ("dist",)

    def __init__(self, dist: dict[int, int], dsts: list[int], mk: LegMaker):
        super().__init__(dsts, None, -1, mk)
        self.dist = dist


def _reach(s: State, u: int) -> _RailReach:
    cache: dict[tuple[int, int, int], _RailReach] = s._cache.setdefault("rail", {})
    start = s.loc[u]
    key = (u, start, s.spent.get(u, 0))
    got = cache.get(key)
    if got is not None:
        return got
    dist: dict[int, int] = {}
    if (s.entrained >> u) & 1 and _can_act(s, u):
        ok = usable_rail(s) & ~_enemy_near(s)
        if (ok >> start) & 1:
            budget = _remaining(s, u)
            links = s.rules.map.rail_neighbours
            # The rail links inside a mask (hex -> linked hexes also in it), memoised by the mask
            # itself (always exact; it changes only when German units or the rail do), so the
            # search below tests one membership per link instead of two.
            oks: dict[int, dict[int, list[int]]] = s._cache.setdefault("railok", {})
            adj = oks.get(ok)
            if adj is None:
                okset = set(bit_list(ok))
                adj = oks[ok] = {h: [n for n in links[h] if n in okset] for h in okset}
            dist = {start: 0}
            frontier = [start]
            d = 0
            far = _rail_hexes_for(s, budget)
            while frontier:
                d += 1
                if d > far:  # rail_cost(s, d) > budget
                    break
                nxt = []
                for h in frontier:
                    for n in adj[h]:
                        if n not in dist:
                            dist[n] = d
                            nxt.append(n)
                frontier = nxt
            del dist[start]
    ids = s.rules.grid.ids
    uid = s.rules.units[u].id
    src = ids[start]
    dsts = sorted(dist)
    got = cache[key] = _RailReach(dist, dsts, (RailMove, uid, src, ids, "railmove"))
    return got


def add_legal(s: State, full: int, parts: list[LazyPart]) -> list[Action]:
    """Append the Soviet rail parts (each unit's memoised :class:`LazyPart`) to ``parts``;
    return the arrivals (fresh)."""
    rules = s.rules
    # Called by movement_phase.legal in step MOVE of the Soviet phase (so _can_act's side and
    # step tests hold). may_entrain / may_detrain are split: their side-wide conditions (usable
    # rail, no German near, entrainings left) are tested here per hex, and the unit's own part
    # (not overrunning, not disrupted, MP for the cost) is memoised per unit with the phase facts
    # ("rmay"; keep_facts drops the movers', and everything else that changes a unit resets it).
    near = _enemy_near(s)
    usable = usable_rail(s)
    room = s.entrainings < ENTRAIN_LIMIT
    entrain_hexes = usable & ~near if room else 0
    f = s._cache.get("mv")
    if f is None:  # pragma: no cover - movement_phase.legal builds the facts first
        f = {"rmay": {}, "rseg": (None, {})}
    own: dict[int, bool] = f["rmay"]
    # Each unit's rail actions, kept across the phase's states like its moves: they depend on
    # the unit's own fields (keep_facts drops the movers' parts) and on the side-wide key below
    # (full hexes, German-near hexes, usable rail, entrainings left), which remakes them all.
    key = (full, near, usable, room)
    seg_key, seg = f["rseg"]
    if seg_key != key:
        seg = {}
        f["rseg"] = (key, seg)
    units = rules.side_units[SOVIET]
    for u in [u for u in units if u not in seg]:  # after a move, the mover's
        seg[u] = _unit_legal(s, u, full, near, entrain_hexes, own)
    parts.extend([p for p in map(seg.__getitem__, units) if p is not None])
    return _legal_arrivals(s, full)


def _rail_part(arg: tuple[_RailReach, int, Action | None]) -> list[Action]:
    """An entrained unit's rail moves (less those to ``full`` hexes), then its detrain."""
    rr, full, detrain = arg
    out = list(rr.without(full))
    if detrain is not None:
        out.append(detrain)
    return out


def _rail_at(arg: tuple[_RailReach, int, Action | None], i: int) -> Action:
    rr, full, detrain = arg
    if detrain is not None and i == rr.count(full):
        return detrain
    return rr.item(full, i)


def _single(a: Action) -> list[Action]:
    return [a]


def _single_at(a: Action, i: int) -> Action:
    return a


def _unit_legal(
    s: State, u: int, full: int, near: int, entrain_hexes: int, own: dict[int, bool]
) -> LazyPart | None:
    """One Soviet unit's rail actions (rail moves then detrain, or entrain) as a part made
    when first read (None: no rail action)."""
    h = s.loc[u]
    if h < 0:
        return None
    uid = s.rules.units[u].id
    if (s.entrained >> u) & 1:
        rr = _reach(s, u)
        detrain: Action | None = None
        if not (near >> h) & 1:
            ok = own.get(u)
            if ok is None:
                ok = own[u] = _own_ok(s, u, detrain_cost(s, u))
            if ok:
                detrain = _tuple_new(Detrain, (uid, "detrain"))
        n = rr.count(full) + (detrain is not None)
        return LazyPart(n, uid, _rail_part, (rr, full, detrain), _rail_at) if n else None
    if (entrain_hexes >> h) & 1:
        ok = own.get(u)
        if ok is None:
            ok = own[u] = _own_ok(s, u, entrain_cost(s, u))
        if ok:
            return LazyPart(1, uid, _single, _tuple_new(Entrain, (uid, "entrain")), _single_at)
    return None


def _own_ok(s: State, u: int, cost: int) -> bool:
    """The unit's own part of may_entrain / may_detrain (entrained or not decides which)."""
    return not (s.overran >> u) & 1 and u not in s.disrupted and _remaining(s, u) >= cost


def arrival_hexes(s: State, full: int) -> list[int]:
    """§22.3: east-edge rail entry hexes not in German ZOC, with room. The units come by train,
    so the hex must carry rail movement (normal, uncut rail: §16.1.5, §20.10) and have no German
    unit in or next to it (§20.9, [Q58]: German EB units have no ZOC but still bar it)."""
    bad = _enemy_near(s) | s.zoc(GERMAN) | full
    ok = usable_rail(s)
    return [h for h in s.rules.soviet_entry if (ok >> h) & 1 and not (bad >> h) & 1]


def _legal_arrivals(s: State, full: int) -> list[Action]:
    if s.step != MOVE or s.side != SOVIET or s.entrainings >= ENTRAIN_LIMIT:
        return []
    hexes = arrival_hexes(s, full)
    if not hexes:
        return []
    ids = s.rules.grid.ids
    out: list[Action] = []
    for u in due_reinforcements(s, SOVIET):
        uid = s.rules.units[u].id
        out.extend(Arrive(uid, ids[h]) for h in hexes)
    return out


def apply(s: State, a: Action, events: list[Event]) -> None:
    rules = s.rules
    u = rules.unit_index.get(getattr(a, "unit", ""), -1)
    if u < 0:
        raise IllegalActionError(f"there is no unit {getattr(a, 'unit', '?')}")
    name = rules.units[u].name
    if isinstance(a, Entrain):
        if not may_entrain(s, u):
            raise IllegalActionError(f"{a.unit} cannot entrain now")
        s.spent[u] = s.spent.get(u, 0) + entrain_cost(s, u)
        s.entrained |= 1 << u
        s.entrainings += 1
        _drop(s, u)
        events.append(
            Event("entrain", f"{name} entrains ({s.entrainings}/{ENTRAIN_LIMIT}).", {"unit": a.unit})
        )
    elif isinstance(a, Detrain):
        if not may_detrain(s, u):
            raise IllegalActionError(f"{a.unit} cannot detrain now")
        s.spent[u] = s.spent.get(u, 0) + detrain_cost(s, u)
        s.entrained &= ~(1 << u)
        _drop(s, u)
        events.append(Event("detrain", f"{name} detrains.", {"unit": a.unit}))
    elif isinstance(a, RailMove):
        dst = rules.grid.index.get(a.dst, -1)
        r = _reach(s, u).dist
        if rules.grid.ids[s.loc[u]] != a.src or dst not in r:
            raise IllegalActionError(f"{a.unit} cannot rail-move to {a.dst}")
        if len(s.stacks.get(dst, ())) >= STACK_LIMIT:
            raise IllegalActionError(f"{a.dst} already holds {STACK_LIMIT} units")
        s.spent[u] = s.spent.get(u, 0) + rail_cost(s, r[dst])
        src = a.src
        old = s._cache
        s.relocate(u, dst)  # normal rail is Soviet rail: entering it changes nothing (§16, [Q40])
        keep_facts(s, old, (u,))
        events.append(
            Event("railmove", f"{name} moves by rail {src} to {a.dst} ({r[dst]} hexes).", {"unit": a.unit})
        )
    elif isinstance(a, Arrive):
        h = rules.grid.index.get(a.hex, -1)
        if (
            u not in due_reinforcements(s, SOVIET)
            or s.entrainings >= ENTRAIN_LIMIT
            or h not in arrival_hexes(s, full_hexes(s))
            or s.step != MOVE
        ):
            raise IllegalActionError(f"{a.unit} cannot arrive at {a.hex} now")
        old = s._cache
        s.put(u, h)
        keep_facts(s, old, (u,))
        s.arrived |= 1 << u
        s.entrained |= 1 << u
        if not s.supplied_hex(SOVIET, h):
            s.oos |= 1 << u  # judged by its entry hex (§11)
        s.entrainings += 1
        events.append(
            Event(
                "arrive",
                f"{name} arrives entrained at {a.hex} ({s.entrainings}/{ENTRAIN_LIMIT}).",
                {"unit": a.unit},
            )
        )
    else:
        raise IllegalActionError(f"{type(a).__name__} is not a rail action")


def _drop(s: State, u: int) -> None:
    """This unit's cached reaches are stale (its MP or entrained state changed); its cached
    rail reach is keyed by its MP spent, so that needs nothing."""
    keep_facts(s, s._cache, (u,))
