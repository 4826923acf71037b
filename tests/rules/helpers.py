"""Helpers for the rules tests: building hand-worked positions, reading legal actions as text,
and small reference implementations written from the rulebook (not from the engine).

Positions are written in the engine's position notation (see ``position_to_text``)::

    bfm ed=gdw1986 opt=- t=5 ph=soviet_movement G=XXIV@1010 S=5A@1008/h ctl=0204,0307 ...

Legal actions are compared as sets of notation strings, so a test reads like the rulebook.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.bfm.engine import apply, legal_actions
from typhoon.games.bfm.notation import action_from_text, action_to_text, position_from_text, position_to_text
from typhoon.games.bfm.rules import load_rules
from typhoon.games.bfm.state import STEP_NAMES, State

GDW = "gdw1986"
VPG = "vpg2009"
START_CONTROL = "0204,0307"  # Smolensk and Roslavl start German-controlled


def hexes(text: str) -> set[str]:
    """A set of hex ids written as one space-separated string."""
    return set(text.split())


def pos(
    *,
    G: str = "-",
    S: str = "-",
    t: int = 1,
    ph: str = "german_combat",
    ed: str = GDW,
    opt: str = "-",
    ctl: str = START_CONTROL,
    repl: int = 0,
    arr: str = "-",
    stack: str = "-",
    step: str = "declare",
    battles: str = "-",
    cur: str = "-",
    res: str = "-",
    done: str | None = None,
) -> State:
    """A position from its parts, in the engine's position notation."""
    text = (
        f"bfm ed={ed} opt={opt} t={t} ph={ph} G={G} S={S}"
        + (f" done={done}" if done else "")
        + f" ctl={ctl} repl={repl} arr={arr} stack={stack} step={step} battles={battles} cur={cur} res={res}"
    )
    return position_from_text(text)


def legal(s: State) -> set[str]:
    """The legal actions as a set of notation strings (asserting there are no duplicates)."""
    acts = legal_actions(s)
    texts = [action_to_text(a) for a in acts]
    assert len(texts) == len(set(texts)), "the legal action list repeats an action"
    return set(texts)


def act(s: State, text: str) -> tuple[State, list]:
    """Apply one action written in notation; returns the new state and the events."""
    return apply(s, action_from_text(text))


def play(s: State, *texts: str) -> State:
    """Apply actions in turn (each must be legal) and return the final state."""
    for t in texts:
        assert t in legal(s), f"{t!r} is not legal in {position_to_text(s)}\nlegal: {sorted(legal(s))}"
        s, _ = act(s, t)
    return s


def play_events(s: State, *texts: str) -> tuple[State, list]:
    events: list = []
    for t in texts:
        s, ev = act(s, t)
        events.extend(ev)
    return s, events


def where(s: State, uid: str) -> str | None:
    """Hex id of a unit, or None when it is off the map."""
    u = s.rules.unit_index[uid]
    h = s.loc[u]
    return None if h < 0 else s.rules.map.grid.ids[h]


def steps(s: State, uid: str) -> int:
    """2 full strength, 1 half strength, 0 off the map."""
    return s.steps[s.rules.unit_index[uid]]


def phase(s: State) -> str:
    return s.rules.phases[s.phase].key


def moves(s: State, uid: str) -> set[str]:
    """Destinations of the unit's legal moves (any via), other than its own hex (a unit may
    leave through an enemy-held city and come back, which takes the city)."""
    out = set()
    for a in legal(s):
        w = a.split()
        if w[0] == "move" and w[1] == uid:
            src, dst = w[2].split("-")
            if dst != src:
                out.add(dst)
    return out


def controller(s: State, hid: str) -> str:
    side = s.city_controller_at(s.rules.map.grid.index[hid])
    assert side is not None, f"{hid} is not a city"
    return ("german", "soviet")[side]


def assert_illegal(s: State, action) -> None:  # type: ignore[no-untyped-def]
    """Applying ``action`` (an action or its notation) raises IllegalActionError and changes
    nothing."""
    a = action_from_text(action) if isinstance(action, str) else action
    before = position_to_text(s)
    key = s.key()
    with pytest.raises(IllegalActionError):
        apply(s, a)
    assert position_to_text(s) == before
    assert s.key() == key


def event_kinds(events: Iterable) -> list[str]:
    return [e.kind for e in events]


# -- reference geometry (bfm_data.md section 1, written independently of typhoon.hexgrid) ---


def ref_hexes(edition: str) -> set[str]:
    out = set()
    for c in range(1, 15):
        rows = 11 if (edition == VPG and c % 2 == 1) else 10
        for r in range(1, rows + 1):
            out.add(f"{c:02d}{r:02d}")
    return out


def ref_neighbours(hid: str, edition: str = GDW) -> set[str]:
    """Odd columns are high: N (c,r-1), NE (c+1,r-1), SE (c+1,r), S (c,r+1), SW (c-1,r),
    NW (c-1,r-1). Even columns: N, NE (c+1,r), SE (c+1,r+1), S, SW (c-1,r+1), NW (c-1,r)."""
    c, r = int(hid[:2]), int(hid[2:])
    if c % 2 == 1:
        cand = [(c, r - 1), (c + 1, r - 1), (c + 1, r), (c, r + 1), (c - 1, r), (c - 1, r - 1)]
    else:
        cand = [(c, r - 1), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c - 1, r + 1), (c - 1, r)]
    hexes = ref_hexes(edition)
    return {f"{a:02d}{b:02d}" for a, b in cand if f"{a:02d}{b:02d}" in hexes}


def ref_distance(a: str, b: str, edition: str = GDW) -> int:
    """Breadth-first hex distance on the full grid (no terrain)."""
    if a == b:
        return 0
    seen = {a}
    frontier = [a]
    d = 0
    while frontier:
        d += 1
        nxt = []
        for h in frontier:
            for n in ref_neighbours(h, edition):
                if n == b:
                    return d
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    raise AssertionError("unreachable")


# -- reference movement (seed 002, "Движение", "Зона контроля", "Грязь") ----------------------


def ref_destinations(s: State, uid: str) -> set[str]:
    """Hexes ``uid`` could end its move on in the current movement phase, friendly units
    ignored, computed from the rules with a plain Dijkstra:

    - entering a hex costs 1, a forest 2 (rail phase: every rail hex 1, along rail links only);
    - never into a hex holding an enemy unit; entering an enemy ZOC ends the move;
    - mud turns (not in the rail phase): exactly one adjacent hex, whatever the terrain.
    """
    rules = s.rules
    m = rules.map
    ids = m.grid.ids
    ed = rules.edition
    u = rules.unit_index[uid]
    side = rules.units[u].side
    start = ids[s.loc[u]]
    enemy = {ids[h] for h in m.grid.hexes if s.at[h] >= 0 and rules.units[s.at[h]].side != side}
    zoc = set()
    for e in enemy:
        zoc |= ref_neighbours(e, ed)
    rail = rules.phases[s.phase].movers == "rail"
    if rail:
        links: dict[str, set[str]] = {}
        for a, b in m.rail:
            links.setdefault(ids[a], set()).add(ids[b])
            links.setdefault(ids[b], set()).add(ids[a])

        def nbrs(h: str) -> set[str]:
            return links.get(h, set())

        def cost(h: str) -> int:
            return 1

    else:

        def nbrs(h: str) -> set[str]:
            return ref_neighbours(h, ed)

        def cost(h: str) -> int:
            return 2 if m.is_forest(m.grid.index[h]) else 1

    if s.is_mud() and not rail:
        return {n for n in ref_neighbours(start, ed) if n not in enemy}
    out = ref_reach(start, rules.units[u].move, nbrs, cost, enemy, zoc)
    out.discard(start)
    return out


def ref_reach(start, allowance, nbrs, cost, enemy, zoc) -> set[str]:  # type: ignore[no-untyped-def]
    """Dijkstra over hexes: every hex enterable with ``allowance`` points (the start itself
    only if the mover can leave and come back)."""
    best = {start: 0}
    todo = [(0, start)]
    out = set()
    while todo:
        spent, h = heapq.heappop(todo)
        if spent > best[h]:
            continue
        for n in nbrs(h):
            if n in enemy:
                continue
            c = spent + cost(n)
            if c > allowance:
                continue
            out.add(n)
            if n in zoc:
                continue  # may enter, must stop
            if c < best.get(n, 99):
                best[n] = c
                heapq.heappush(todo, (c, n))
    return out


def rules_for(edition: str = GDW, **options: str):  # type: ignore[no-untyped-def]
    return load_rules(edition, options)


# -- combat ----------------------------------------------------------------------------------


def step(s: State) -> str:
    """The combat step, as the position notation names it (declare, choose, roll, ...)."""
    return STEP_NAMES[s.cstep]


def fight(s: State, target: str, *attackers: str, die: int | None = None) -> tuple[State, list]:
    """Declare ``attackers`` against the unit in ``target``, close the declarations (unless
    the engine already did: it does when nothing else could be declared), pick this battle
    if several wait, and roll ``die`` if given. Returns the state and all events."""
    events: list = []
    for a in attackers:
        s, ev = act(s, f"attack {a} {target}")
        events += ev
    if step(s) == "declare" and phase(s).endswith("combat"):
        s, ev = act(s, "end")
        events += ev
    if step(s) == "choose":
        s, ev = act(s, f"resolve {target}")
        events += ev
    if die is not None:
        assert step(s) == "roll", f"no die roll due: {position_to_text(s)}"
        s, ev = act(s, f"roll {die}")
        events += ev
    return s, events


def battle_data(events: Iterable) -> dict:
    """The data of the last 'battle' event: attack, defense, column, shifts, final."""
    found = [e.data for e in events if e.kind == "battle"]
    assert found, "no battle was resolved"
    return found[-1]


def result_of(events: Iterable) -> str:
    found = [e.data["result"] for e in events if e.kind == "roll"]
    assert found, "no die was rolled"
    return found[-1]


def ref_retreats(s: State, uid: str, length: int = 2) -> set[str]:
    """Retreat paths of a unit, from the rules («Результаты боя», оО): ``length`` hexes, the
    last one ``length`` hexes from the start, never entering a hex with an enemy unit or in
    an enemy zone of control; if it would end on a friendly unit it goes on two more hexes
    (the engine's reading: the k-th hex of the whole retreat is k hexes from the start), until
    it ends on an empty hex. Returned as notation strings ``retreat A-B[-C-D]``."""
    rules = s.rules
    m = rules.map
    ids = m.grid.ids
    ed = rules.edition
    u = rules.unit_index[uid]
    side = rules.units[u].side
    origin = ids[s.loc[u]]
    enemy = {ids[h] for h in m.grid.hexes if s.at[h] >= 0 and rules.units[s.at[h]].side != side}
    friends = {ids[h] for h in m.grid.hexes if s.at[h] >= 0 and rules.units[s.at[h]].side == side} - {origin}
    forbidden = set(enemy)
    for e in enemy:
        forbidden |= ref_neighbours(e, ed)
    out: set[str] = set()

    def extend(path: list[str]) -> None:
        here = path[-1] if path else origin
        for n in ref_neighbours(here, ed):
            if n in forbidden or ref_distance(origin, n, ed) != len(path) + 1:
                continue
            p = [*path, n]
            if len(p) % length == 0 and n not in friends:
                out.add("retreat " + "-".join(p))
            else:
                extend(p)

    extend([])
    return out


def ref_odds(s: State, defender: str, attackers: Iterable[str]) -> tuple[float, int, int]:
    """(attack strength, column before shifts, final column) from the rules («Бой» steps 1-3,
    «Грязь»): strengths summed (halved in mud: every unit in GDW, panzers only in VPG,
    fractions kept), divided by the defender's and rounded down, capped at 6; then one column
    left for a defender in forest, in Moscow (VPG: Moscow or Tula) or a Soviet defender in a
    fortification, and one more if every attacker is across a river."""
    rules = s.rules
    m = rules.map
    ui = rules.unit_index
    mud = s.turn in (3, 4)
    attack = 0.0
    for a in attackers:
        st = s.strength(ui[a])
        halved = mud and (rules.edition == GDW or rules.units[ui[a]].panzer)
        attack += st / 2 if halved else st
    d = ui[defender]
    h = s.loc[d]
    column = min(int(attack // s.strength(d)), 6)
    hid = m.grid.ids[h]
    cities = {"1103"} if rules.edition == GDW else {"1103", "1107"}
    shifts = int(m.is_forest(h)) + int(hid in cities)
    shifts += int(m.is_fortification(h) and rules.units[d].side == 1)
    if all(m.river_between(s.loc[ui[a]], h) for a in attackers):
        shifts += 1
    return attack, column, column - shifts


def ref_moves_with_via(s: State, uid: str) -> set[tuple[str, frozenset[str]]]:
    """(destination, enemy-held cities passed through on the way) for every move of ``uid``
    in a non-mud, non-rail movement phase, by exhaustive search over walks: the last side to
    enter a city controls it, so each distinct set of cities a path can pass is a distinct
    move. The destination itself is not counted as passed; not moving at all is no move."""
    rules = s.rules
    m = rules.map
    ids = m.grid.ids
    ed = rules.edition
    u = rules.unit_index[uid]
    side = rules.units[u].side
    start = ids[s.loc[u]]
    enemy = {ids[h] for h in m.grid.hexes if s.at[h] >= 0 and rules.units[s.at[h]].side != side}
    zoc = set()
    for e in enemy:
        zoc |= ref_neighbours(e, ed)
    notable = {ids[c.hex] for i, c in enumerate(m.cities) if s.controller(i) != side} - enemy
    out: set[tuple[str, frozenset[str]]] = set()
    seen: set[tuple[str, int, frozenset[str]]] = set()
    todo = [(start, rules.units[u].move, frozenset())]
    while todo:
        h, left, passed = todo.pop()
        if (h, left, passed) in seen:
            continue
        seen.add((h, left, passed))
        for n in ref_neighbours(h, ed):
            c = 2 if m.is_forest(m.grid.index[n]) else 1
            if n in enemy or c > left:
                continue
            out.add((n, passed - {n}))
            if n not in zoc:
                todo.append((n, left - c, passed | ({n} & notable)))
    out.discard((start, frozenset()))
    return out


def ref_replacement_actions(s: State) -> set[str]:
    """The legal actions of a replacement phase from the rules («Пополнения», «Первая ударная
    армия»), with the engine's readings of communication (the path starts in the unit's or
    city's hex without entering it; a unit on its own edge is in communication; edge hexes
    take new units whatever the zones around them)."""
    rules = s.rules
    m = rules.map
    ids = m.grid.ids
    ed = rules.edition
    side = rules.phases[s.phase].side
    edge = {ids[h] for h in m.edges[("german", "soviet")[side]]}
    occupied = {ids[h] for h in m.grid.hexes if s.at[h] >= 0}
    enemy = {ids[h] for h in m.grid.hexes if s.at[h] >= 0 and rules.units[s.at[h]].side != side}
    blocked = set(enemy)
    for e in enemy:
        blocked |= ref_neighbours(e, ed)
    region = {h for h in edge if h not in blocked}
    frontier = list(region)
    while frontier:
        h = frontier.pop()
        for n in ref_neighbours(h, ed):
            if n not in blocked and n not in region:
                region.add(n)
                frontier.append(n)
    comm = set(region) | edge
    for h in region:
        comm |= ref_neighbours(h, ed)
    if side == 1:
        comm.add("1103")  # the Soviet Moscow exception
    own_cities = {ids[c.hex] for i, c in enumerate(m.cities) if s.controller(i) == side}
    places = (edge | (own_cities & comm)) - occupied
    out = set()
    first_shock_due = (
        side == 1 and ed == VPG and s.turn >= 4 and not (s.arrived >> rules.unit_index["1SA"]) & 1
    )
    if first_shock_due:
        out |= {f"reinforce 1SA {h}" for h in places}
    if s.repl > 0:
        for u in rules.side_units[side]:
            uid = rules.units[u].id
            if s.loc[u] < 0:
                if uid == "1SA" and (s.turn < 4 if ed == GDW else not (s.arrived >> u) & 1):
                    continue
                out |= {f"rebuild {uid} {h}" for h in places}
            elif s.steps[u] == 1 and not (s.rebuilt >> u) & 1 and ids[s.loc[u]] in comm:
                out.add(f"restore {uid}")
    if not first_shock_due or not places:
        out.add("end")
    return out
