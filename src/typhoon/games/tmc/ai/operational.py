"""The TMC ``operational`` player: the heuristic's tactics under phase-level operational plans
(issue 14 items 1 and 2).

German (:class:`OperationalPlanner`, German side):

- *first movement phase*: the heuristic's attack positions (the strongest units, the armour,
  go to the weakest enemy hexes first: the breakthrough sectors), and key towns as objectives;
- *mechanised phase*: exploitation before any overrun. Every mechanised unit that can move is
  sent, one at a time, to the hex of its reach that cuts the most Soviet supply (§11.2: a German
  unit and its ZOC block the Soviet supply trace) counted on the position planned so far (so a
  second spearhead closes what the first opened), else deep behind the Soviet units (hexes
  nearer Moscow than Soviet stacks close by: the start of a pocket), with the risk of an attack
  on the spearhead counted at half the heuristic's weight. Only the units left over take
  overrun positions (an overrun stops its units, §14.2), and only where an exploiting unit
  could not go instead;
- *pocket rings* (GT 1-4, both movement phases, before the rest): around Vyazma and Bryansk,
  the cheapest ring of hexes that cuts the Soviet units near the town off from supply
  (:func:`pocket_cut`, a minimum vertex cut; the infantry and the units that take no part are
  walls), blocked by mechanised units, the scarcest ring hex first: in the first movement phase
  the arms take their hexes once half the ring is blocked and the other mechanised units near
  the open part drive on it; in the mechanised phase the ring is closed when the supply trace
  then cuts off 6+ units; the 6 mechanised units nearest Moscow drive on instead;
- infantry: the heuristic's (attack positions, the front, the shoulders of the breakthrough by
  covering the front hexes they hold); towns as objectives.

Soviet (:class:`OperationalPlanner`, Soviet side):

- the heuristic's Moscow garrison and ring, plus a Tula garrison (two units once the Germans
  are within 6 hexes, three within 3);
- defence in depth: on the approaches to Moscow and Tula a second line 2-5 hexes behind the
  front scores as well as the front itself;
- rail reserves: units far from the front (6+ hexes, not holding Moscow or Tula; at most six
  a phase) entrain and ride toward the threatened sector (the rail goal: in front of the German unit
  nearest Moscow), then detrain and take a destination, using the entrainings arrivals leave;
- counter-attacks: battles against German units out of supply, disrupted, or in a salient
  (3+ neighbours held or covered by Soviet units) are worth more; from GT 24 (the December
  counter-offensive) every battle with a positive expected value is fought, the units move
  toward the German-held key towns and advance into them after combat.

Every decision is one of the legal actions it was given (the heuristic's plumbing), and
:meth:`TmcOperational.explain` gives the decision's reason with the phase's plan in words.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Sequence
from typing import Any

from typhoon.games.tmc import supply
from typhoon.games.tmc.actions import Action, Advance, Entrain
from typhoon.games.tmc.ai.board import FAR, distance_map, elim_vp
from typhoon.games.tmc.ai.combat import AttackPlan, plan_attacks
from typhoon.games.tmc.ai.heuristic import TmcHeuristic
from typhoon.games.tmc.ai.movement import DEFAULT_WEIGHTS, Planner, Weights
from typhoon.games.tmc.rules import GERMAN, SOVIET, STACK_LIMIT
from typhoon.games.tmc.state import State
from typhoon.hexgrid import bit_list

# The towns the campaign turned on (docs/TMC_CALIBRATION.md): German objectives while the
# Soviets hold them, Soviet objectives in the counter-offensive while the Germans do.
OBJECTIVES = (
    "Vyazma",
    "Bryansk",
    "Orel",
    "Kaluga",
    "Rzhev",
    "Kalinin",
    "Mozhaisk",
    "Maloyaroslavets",
    "Volokolamsk",
    "Klin",
    "Solnechnogorsk",
    "Istra",
    "Tula",
    "Mtsensk",
    "Yelets",
    "Yefremov",
    "Naro-Fominsk",
    "Serpukhov",
)
COUNTER_OFFENSIVE = 24  # GT 24 ≈ 8 December (docs/TMC_OOB.md §5)
CUT_WEIGHT = 1.0  # per VP of Soviet units a position puts out of supply
DEEP_WEIGHT = 0.25  # per VP of Soviet stacks within 3 hexes that a hex is behind
DEEP_CAP = 8.0
EXPLOIT_RISK = 0.5  # share of the heuristic's risk weight a mechanised unit exploiting counts
EXPLOIT_LINE = 0.2  # and of its weight for front-line hexes it alone covers (§15 gaps)
TOWN_BONUS = 3.0  # an objective town entered
RESERVE_DIST = 6  # Soviet units at least this far from the Germans may go by rail
CUT_CANDIDATES = 30  # hexes whose supply cut is computed exactly, per recount
CUT_RECOUNTS = 5
EXPLOIT_MIN = 2.0  # an exploitation move must be worth this much over staying (score units)
# Pincers: two spearheads that together cut supply to Soviet units neither cuts alone.
PINCER_UNITS = 8  # mechanised units tried, the best by their best exploitation hex
PINCER_HEXES = 3  # hexes tried per unit
PINCER_GAP = 3  # the two arms at least this far apart (two arms, not one stack)
PINCERS = 1  # pincers tried per mechanised phase
PINCER_MIN = 4.0  # VP the pair cuts beyond what its arms cut alone
# Pocket rings (OperationalPlanner._pocket_ring): the historical pockets, the Soviet units within
# POCKET_AREA hexes of the town, the cheapest ring of hexes that cuts them off (pocket_cut).
POCKETS = ("Vyazma", "Bryansk")
POCKET_LAST_TURN = 4  # GT 4 = 9 October: both pockets were closed by 7-9 October
POCKET_AREA = 5  # Soviet units within this many hexes of the town are the pocket's
POCKET_UNITS = 6  # a ring is planned around at least this many Soviet units
POCKET_WINDOW = 12  # the ring lies within this many hexes of the town
POCKET_FAR = 3  # what a ring hex costs that no unit can block this phase (one that can: 1)
POCKET_PARTIAL = 0.5  # first movement phase: a ring this much blocked is begun (arms placed)
ARM_WEIGHT = 2.0  # score per hex nearer the open part of the ring (a spearhead to close it)
ARM_REACH = 10  # mechanised units at most this far from the open part drive on it
LEAD_UNITS = 6  # the mechanised units nearest Moscow take no part in rings: they drive on

OPERATIONAL_WEIGHTS = (
    DEFAULT_WEIGHTS[GERMAN],
    Weights(risk=0.6),
)


def objective_hexes(s: State) -> dict[int, str]:
    places: dict[str, int] = getattr(s.rules.map, "places", {})
    return {places[n]: n for n in OBJECTIVES if n in places}


def soviet_supplied(s: State, extra: int = 0, german: int | None = None) -> int:
    """Soviet supply as the engine judges it (:func:`typhoon.games.tmc.supply.supply_now`) with
    German units also on the hexes of ``extra`` (exerting ZOC); with ``german``, German units
    (exerting ZOC) on those hexes only, instead of where they stand."""
    if german is not None:
        g = s.rules.grid
        return _soviet_supply(s, german, g.expand(german))
    return _soviet_supply(
        s, supply.unflipped_occ(s, GERMAN) | extra, s.zoc(GERMAN) | s.rules.grid.expand(extra)
    )


def _soviet_supply(s: State, german_occ: int, german_zoc: int) -> int:
    rules = s.rules
    g = rules.grid
    tmap = rules.map
    strict = not rules.flag("soviet_supply_west_of_start_line")
    return supply.soviet_supply(
        g.expand,
        g.all_mask,
        tmap.rail_neighbours,
        supply.edge_rail(tmap, supply.SOVIET_EDGES),
        s.rail_normal,
        s.rail_soviet,
        s.rail_cut,
        s.rail_destroyed(),
        german_occ,
        german_zoc,
        s.occ[SOVIET],
        g.all_mask & ~rules.west_mask if strict else None,
    ).in_supply


def pocket_cut(s: State, town: int, static: int, cheap: int, sinks: Sequence[int]) -> tuple[int, list[int]]:
    """The cheapest ring around a pocket: a minimum vertex cut, within POCKET_WINDOW hexes of
    ``town``, between the hexes of ``sinks`` (Soviet units) and the window's edge (or the map's
    Soviet supply edges inside it), through the
    hexes a German unit or its ZOC could block (§11.4: a hex holding a German unit, or in German
    ZOC and holding no Soviet unit, blocks a Soviet supply line; a line is at most 6 hexes
    overland and then along rail, so a ring that no path crosses cuts both). Hexes blocked by
    ``static`` (German units that stay, and their ZOC) are walls already; a Soviet-held hex
    cannot be blocked; a hex of ``cheap`` costs 1, any other POCKET_FAR. Returns (the ring's
    cost, its hexes); cost >= FAR when no ring exists (a Soviet chain reaches the edge)."""
    grid = s.rules.grid
    window = grid.within(town, POCKET_WINDOW)
    socc = s.occ[SOVIET]
    walls = static | (grid.expand(static) & ~socc)
    hexes = bit_list(window & ~walls)
    idx = {h: i for i, h in enumerate(hexes)}
    n = len(hexes)
    src, dst = 2 * n, 2 * n + 1
    graph: list[list[list[int]]] = [[] for _ in range(2 * n + 2)]  # [to, capacity, reverse index]

    def add(a: int, b: int, c: int) -> None:
        graph[a].append([b, c, len(graph[b])])
        graph[b].append([a, 0, len(graph[a]) - 1])

    edge = window & ~grid.within(town, POCKET_WINDOW - 1)
    for side in supply.SOVIET_EDGES:  # Soviet supply comes in over the map's edges (§11.2)
        edge |= window & s.rules.map.edges.get(side, 0)
    for h in hexes:
        i = idx[h]
        add(2 * i, 2 * i + 1, FAR if (socc >> h) & 1 else (1 if (cheap >> h) & 1 else POCKET_FAR))
        for nb in grid.neighbours[h]:
            j = idx.get(nb)
            if j is not None:
                add(2 * i + 1, 2 * j, FAR)
        if (edge >> h) & 1:
            add(src, 2 * i, FAR)
    for h in set(sinks):
        if h in idx:
            add(2 * idx[h] + 1, dst, FAR)
    flow = 0
    while flow < FAR:  # Edmonds-Karp: a ring is some 10-20 hexes, so as many searches
        parent: list[tuple[int, int] | None] = [None] * (2 * n + 2)
        parent[src] = (-1, -1)
        queue = deque([src])
        while queue and parent[dst] is None:
            a = queue.popleft()
            for k, (b, c, _) in enumerate(graph[a]):
                if c > 0 and parent[b] is None:
                    parent[b] = (a, k)
                    queue.append(b)
        if parent[dst] is None:
            break
        path: list[tuple[int, int]] = []
        b = dst
        while b != src:
            got = parent[b]
            assert got is not None
            path.append(got)
            b = got[0]
        f = min(graph[a][k][1] for a, k in path)
        for a, k in path:
            e = graph[a][k]
            e[1] -= f
            graph[e[0]][e[2]][1] += f
        flow += f
    if flow >= FAR:
        return flow, []
    seen = [False] * (2 * n + 2)
    seen[src] = True
    queue = deque([src])
    while queue:
        a = queue.popleft()
        for b, c, _ in graph[a]:
            if c > 0 and not seen[b]:
                seen[b] = True
                queue.append(b)
    return flow, [h for h in hexes if seen[2 * idx[h]] and not seen[2 * idx[h] + 1]]


class OperationalPlanner(Planner):
    """A movement phase's plan with the operational layer (module docstring)."""

    def __init__(self, s: State, **kw: Any) -> None:
        self.summary: list[str] = []
        self.objectives = objective_hexes(s)
        self.mech_phase = s.rules.phases[s.phase].movers == "mech"
        self.offensive = s.side == SOVIET and s.turn >= COUNTER_OFFENSIVE
        self.reserves: list[int] = []
        self.entrained: set[int] = set()
        self._cut_cache: dict[int, float] = {}
        self._cut_base: int | None = None
        self._cut_cands = 0
        self._recounts = 0
        self._tula = getattr(s.rules.map, "places", {}).get("Tula", -1)
        self._tula_dist: list[int] | None = None
        w = kw.get("weights") or DEFAULT_WEIGHTS[s.side]
        if self.offensive:  # the counter-offensive attacks whenever the odds favour it
            w = kw["weights"] = dataclasses.replace(w, attack_min_ev=0.0)
        self._w_exploit = dataclasses.replace(w, risk=w.risk * EXPLOIT_RISK, line=w.line * EXPLOIT_LINE)
        self.goals: dict[int, int] = {}  # spearhead -> the open ring hex it drives on
        self._goal_town: dict[int, str] = {}
        self._ring_occ = 0  # hexes of the units planned to hold pocket rings
        self._soviet_now: int | None = None
        self._lead: set[int] | None = None
        super().__init__(s, **kw)

    # -- the plan --------------------------------------------------------------------------------

    def _make(self, s: State) -> None:
        if self.side == GERMAN and self.mech_phase:
            self._setup_cut(s)
        super()._make(s)
        if self.side == SOVIET:
            self._pick_reserves(s)
        self._summarise(s)

    def _attack_positions(self, s: State, movers: list[int], overrun_only: bool) -> None:
        if self.side == GERMAN and s.turn <= POCKET_LAST_TURN:
            for name in POCKETS:
                self._pocket_ring(s, name, movers)
            movers = [u for u in movers if u not in self.plan.targets and u not in self.goals]
            if self.mech_phase and self._ring_occ:
                self._mech_occ |= self._ring_occ
                self._cut_base = soviet_supplied(s, self._mech_occ)
        if self.side == GERMAN and overrun_only:
            # Exploitation first (EXPLOIT_MIN): the mechanised units take their deep hexes, the
            # rest overrun. Measured against overruns first, docs/TMC_AI.md.
            self._exploit(s, movers)
            movers = [u for u in movers if u not in self.plan.targets]
            super()._attack_positions(s, movers, overrun_only)
            return
        if self.side == SOVIET:
            self._tula_garrison(s, movers)
            movers = [u for u in movers if u not in self.plan.targets]
        keep = self.unique
        if self.offensive:  # units holding the line alone may attack too (from where they stand)
            self.unique = {}
        try:
            super()._attack_positions(s, movers, overrun_only)
        finally:
            self.unique = keep

    # German pockets ----------------------------------------------------------------------------

    def _pocket_ring(self, s: State, name: str, movers: list[int]) -> None:
        """Close (or hold) a ring around the Soviet units near a pocket town: the cheapest ring
        (pocket_cut; the German units that take no part are walls where they stand), then, for
        the open ring hex that the fewest units can still block, the unit and hex of its reach
        that block most of the ring still open (the hex itself and, by ZOC, its neighbours free
        of Soviet units), until none is left that a unit can block. Mechanised phase: kept
        only if the ring closes and the engine's supply trace then puts at least POCKET_UNITS
        Soviet units near the town out of supply. First movement phase: kept when at least
        POCKET_PARTIAL of the ring is blocked (the arms placed), and the mechanised units near
        the open part drive on it (ARM_WEIGHT), to close it in the mechanised phase. The
        LEAD_UNITS mechanised units nearest Moscow take no part: they drive on Moscow. Once
        POCKET_UNITS of the town's units are out of supply at the start of a German phase, the
        pocket is closed and the ring is released (the infantry reduces it)."""
        town = getattr(s.rules.map, "places", {}).get(name)
        if town is None:
            return
        rules = s.rules
        grid = self.grid
        socc = s.occ[SOVIET]
        area = grid.within(town, POCKET_AREA)
        pocket = [u for u in rules.side_units[SOVIET] if s.loc[u] >= 0 and (area >> s.loc[u]) & 1]
        if len(pocket) < POCKET_UNITS:
            return
        if self._soviet_now is None:
            self._soviet_now = soviet_supplied(s)
        now = self._soviet_now
        if sum(1 for u in pocket if not (now >> s.loc[u]) & 1) >= POCKET_UNITS:
            self.summary.append(f"the pocket at {name} is closed: its ring is released")
            return
        if self._lead is None:
            dm = self.board.dist_moscow
            mech = [u for u in rules.side_units[GERMAN] if s.loc[u] >= 0 and s.is_mech(u) and s.cf(u) > 0]
            self._lead = set(sorted(mech, key=lambda u: (dm[s.loc[u]], u))[:LEAD_UNITS])
        units = [
            u
            for u in movers
            if u not in self.plan.targets
            and u in self.reach
            and u not in self._lead
            and not rules.units[u].eb
            and s.cf(u) > 0
            and s.is_mech(u)
        ]
        cover: dict[tuple[int, int], int] = {}
        cheap = 0
        nm = grid.neighbour_mask
        for u in units:
            for d in (s.loc[u], *self.reach[u].dsts):
                if (u, d) in cover or not self._room(d) or not self.sit.in_supply_at(GERMAN, d):
                    continue
                m = ((1 << d) | nm[d]) & ~socc
                cover[(u, d)] = m
                cheap |= m
        # Walls: every German unit but those that may take part (the infantry holds the front;
        # the leaders are counted where they stand: measured, 13 pockets of 20 against 10 when
        # they were not, docs/TMC_AI.md).
        free = set(units)
        static = self._ring_occ
        for u in rules.side_units[GERMAN]:
            if s.loc[u] >= 0 and u not in free and not rules.units[u].eb:
                static |= 1 << s.loc[u]
        sinks = [s.loc[u] for u in pocket]
        cost, ring = pocket_cut(s, town, static, cheap, sinks)
        if cost >= FAR or not ring:
            return
        need = 0
        for h in ring:
            need |= 1 << h
        open_ = need
        by_hex: dict[int, list[tuple[int, int]]] = {h: [] for h in ring}
        for (u, d), m in cover.items():
            for h in bit_list(m & need):
                by_hex[h].append((u, d))
        picks: list[tuple[int, int]] = []
        used: set[int] = set()
        stuck = 0  # ring hexes no unit left can block
        while open_ & ~stuck:
            # The open hex fewest units can still block first, by the pick that blocks most.
            scarce: tuple[int, int] | None = None
            for h in bit_list(open_ & ~stuck):
                n = len({u for u, _ in by_hex[h] if u not in used})
                if n == 0:
                    stuck |= 1 << h
                elif scarce is None or (n, h) < scarce:
                    scarce = (n, h)
            if scarce is None:
                break
            best: tuple[int, int, int, int] | None = None
            for u, d in by_hex[scarce[1]]:
                if u in used or sum(1 for _, x in picks if x == d) + self.count.get(d, 0) >= STACK_LIMIT:
                    continue
                key = ((cover[(u, d)] & open_).bit_count(), 1 if d == s.loc[u] else 0, -u, -d)
                if best is None or key > best:
                    best = key
            if best is None:
                stuck |= 1 << scarce[1]
                continue
            u, d = -best[2], -best[3]
            picks.append((u, d))
            used.add(u)
            open_ &= ~cover[(u, d)]
        blocked = (need & ~open_).bit_count() / max(1, len(ring))
        ids = grid.ids
        if self.mech_phase:
            extra = self._ring_occ
            for _, d in picks:
                extra |= 1 << d
            sup = soviet_supplied(s, extra, static | extra)
            cut = [u for u in pocket if not (sup >> s.loc[u]) & 1]
            if len(cut) < POCKET_UNITS:
                return
            what = f"close the ring around {name}: {len(cut)} Soviet units cut off"
        else:
            if blocked < POCKET_PARTIAL:
                return
            what = f"ring around {name}: {blocked:.0%} of {len(ring)} hexes blocked"
        for u, d in picks:
            self._claim(s, u, d, f"{what}; blocks it from {ids[d]}")
            self.held.add(u)
            self._ring_occ |= 1 << d
        names = ", ".join(rules.units[u].id for u, _ in picks)
        self.summary.append(f"{names} {what}" if picks else what)
        if open_ and not self.mech_phase:
            gaps = bit_list(open_)
            for u in units:
                if u in used or u in self.goals:
                    continue
                g = min(gaps, key=lambda h: (grid.distance(s.loc[u], h), h))
                if grid.distance(s.loc[u], g) <= ARM_REACH:
                    self.goals[u] = g
                    self._goal_town[u] = name
            if self.goals:
                self.summary.append(
                    f"{len(self.goals)} spearhead(s) drive on the open part of the ring around {name} "
                    f"({', '.join(ids[h] for h in gaps[:4])})"
                )

    def _assign(self, s: State, u: int, r: Any) -> None:
        goal = self.goals.get(u)
        if goal is None:
            super()._assign(s, u, r)
            return
        h, _ = self._best_dst(s, u, r)  # the score counts ARM_WEIGHT per hex nearer the goal
        ids = s.rules.grid.ids
        short = self.grid.distance(h, goal)
        self._claim(
            s,
            u,
            h,
            f"spearhead of the ring around {self._goal_town[u]}: drives on {ids[goal]}, ends at {ids[h]}"
            + (f" ({short} hexes short)" if short else ""),
        )

    # German exploitation -----------------------------------------------------------------------

    def _setup_cut(self, s: State) -> None:
        self._mech_occ = 0  # planned hexes of the exploiting units (and of the rings)
        self._soviet_units = [u for u in s.rules.side_units[SOVIET] if s.loc[u] >= 0]
        self._cut_base = soviet_supplied(s)

    def _cut_vp(self, s: State, h: int) -> float:
        """VP of the Soviet units in supply now that German units on the planned exploitation
        hexes plus ``h`` would put out of supply."""
        got = self._cut_cache.get(h)
        if got is not None:
            return got
        base = self._cut_base or 0
        sup = soviet_supplied(s, self._mech_occ | (1 << h))
        v = 0.0
        for u in self._soviet_units:
            x = s.loc[u]
            if (base >> x) & 1 and not (sup >> x) & 1:
                v += elim_vp(s, u)
        self._cut_cache[h] = v
        return v

    def _deep(self, s: State, h: int) -> float:
        """VP of the Soviet stacks within 3 hexes of ``h`` farther from Moscow than ``h``: a
        unit there stands behind them (the start of a pocket)."""
        dm = self.board.dist_moscow
        near = self.grid.within(h, 3) & self.sit.enemy_occ
        v = 0.0
        for x in bit_list(near):
            if dm[x] > dm[h]:
                v += self.sit.hex_vp(x)
        return min(DEEP_CAP, v)

    def _exploit(self, s: State, movers: list[int]) -> None:
        """Mechanised phase: each mechanised unit to the hex that cuts most supply, else the
        deepest safe hex behind the Soviet units; the best (unit, hex) first."""
        ids = s.rules.grid.ids
        mech = [u for u in movers if s.is_mech(u) and not s.rules.units[u].eb and s.cf(u) > 0]
        ed = self.sit.enemy_dist()
        proxy: list[tuple[float, int, int]] = []
        for u in mech:
            base_v = self.score(s, u, s.loc[u])
            for d in self.reach[u].dsts:
                if ed[d] > 3 or not self.sit.in_supply_at(GERMAN, d):
                    continue
                pv = DEEP_WEIGHT * self._deep(s, d)
                if pv > 0:
                    proxy.append((self.score(s, u, d) - base_v, u, d))
        proxy.sort(reverse=True)
        pending = set(mech)
        for _ in range(PINCERS):
            if not self._pincer(s, proxy, pending):
                break
        while pending and proxy:
            best: tuple[float, int, int, float] | None = None
            n = 0
            for v, u, d in proxy:
                if u not in pending or not self._room(d):
                    continue
                cut = CUT_WEIGHT * self._cut_vp(s, d)
                if best is None or v + cut > best[0]:
                    best = (v + cut, u, d, cut)
                n += 1
                if n >= CUT_CANDIDATES:
                    break
            if best is None or best[0] <= EXPLOIT_MIN:
                break
            _, u, d, cut = best
            pending.discard(u)
            self.held.add(u)
            what = (
                f"cuts supply to {cut:.0f} VP of Soviet units"
                if cut > 0
                else f"drives behind the Soviet units near {ids[d]}"
            )
            self._claim(s, u, d, f"exploits to {ids[d]}: {what}")
            self.summary.append(f"{s.rules.units[u].id} exploits to {ids[d]} ({what})")
            self._mech_occ |= 1 << d
            # The next unit is credited only with what it cuts beyond the planned position.
            self._cut_cache.clear()
            if self._recounts < CUT_RECOUNTS and cut > 0:
                self._recounts += 1
                self._cut_base = soviet_supplied(s, self._mech_occ)
            elif self._recounts >= CUT_RECOUNTS:
                self._cut_cache = dict.fromkeys((d2 for _, _, d2 in proxy), 0.0)  # recounts spent

    def _pincer(self, s: State, proxy: list[tuple[float, int, int]], pending: set[int]) -> bool:
        """Close a pocket with two arms: the greedy pick above credits a spearhead only with what
        it cuts by itself, so the first arm of a pincer, which cuts nothing alone, is never
        sent. Here pairs of candidate hexes of different units are valued together, and the
        best pair whose joint cut exceeds the sum of its arms' by PINCER_MIN takes both."""
        per_unit: dict[int, list[tuple[float, int]]] = {}
        for v, u, d in proxy:
            if u not in pending:
                continue
            hexes = per_unit.setdefault(u, [])
            if len(hexes) < PINCER_HEXES and self._room(d):
                hexes.append((v, d))
        units = sorted((u for u in per_unit if per_unit[u]), key=lambda u: -per_unit[u][0][0])[:PINCER_UNITS]
        cands = [(v, u, d) for u in units for v, d in per_unit[u]]
        alone = {d: self._cut_vp(s, d) for _, _, d in cands}
        base = self._cut_base or 0
        dist = self.grid.distance
        best: tuple[float, int, int, int, int, float] | None = None
        for i, (v1, u1, d1) in enumerate(cands):
            for v2, u2, d2 in cands[i + 1 :]:
                if u1 == u2 or dist(d1, d2) < PINCER_GAP:
                    continue
                sup = soviet_supplied(s, self._mech_occ | (1 << d1) | (1 << d2))
                cut = sum(
                    float(elim_vp(s, u))
                    for u in self._soviet_units
                    if (base >> s.loc[u]) & 1 and not (sup >> s.loc[u]) & 1
                )
                if cut - alone[d1] - alone[d2] < PINCER_MIN:
                    continue
                value = v1 + v2 + CUT_WEIGHT * cut
                if best is None or value > best[0]:
                    best = (value, u1, d1, u2, d2, cut)
        if best is None or best[0] <= 2 * EXPLOIT_MIN:
            return False
        _, u1, d1, u2, d2, joint = best
        ids = s.rules.grid.ids
        names = s.rules.units
        where = self._pocket_name(s, d1, d2)
        what = f"{names[u1].id} and {names[u2].id} close a pocket {where}: cut supply to {joint:.0f} VP"
        for u, d in ((u1, d1), (u2, d2)):
            pending.discard(u)
            self.held.add(u)
            self._claim(s, u, d, f"exploits to {ids[d]}: {what}")
            self._mech_occ |= 1 << d
        self.summary.append(what)
        self._cut_cache.clear()
        self._recounts += 1
        self._cut_base = soviet_supplied(s, self._mech_occ)
        return True

    def _pocket_name(self, s: State, d1: int, d2: int) -> str:
        """Words for where two arms meet: the objective town nearest to both."""
        if not self.objectives:
            return f"between {s.rules.grid.ids[d1]} and {s.rules.grid.ids[d2]}"
        dist = self.grid.distance
        town, name = min(self.objectives.items(), key=lambda kv: dist(kv[0], d1) + dist(kv[0], d2))
        return f"near {name}"

    # Soviet specials ---------------------------------------------------------------------------

    def _tula_dists(self) -> list[int]:
        if self._tula_dist is None:
            self._tula_dist = (
                distance_map(self.grid, 1 << self._tula, 12) if self._tula >= 0 else [FAR] * self.grid.size
            )
        return self._tula_dist

    def _tula_garrison(self, s: State, movers: list[int]) -> None:
        t = self._tula
        if t < 0 or (s.occ[GERMAN] >> t) & 1:
            return
        near = self.sit.enemy_dist()[t]
        if near > 6:
            return
        want = 2 if near > 3 else 3
        have = [u for u in s.stacks.get(t, ()) if u in self.reach]
        for u in have[:want]:
            self._claim(s, u, t, "holds Tula")
            self.held.add(u)
        n = len(s.stacks.get(t, ()))
        cands = [
            u
            for u in movers
            if u not in self.plan.targets and not s.rules.units[u].eb and t in self.reach[u].left
        ]
        cands.sort(key=lambda u: (-float(self.sit.defence_of(u, t)), u))
        for u in cands[: max(0, want - n)]:
            if self._room(t):
                self._claim(s, u, t, "garrisons Tula")
                self.held.add(u)
        self.summary.append(f"Tula held by {min(want, len(s.stacks.get(t, ())) + len(cands))} unit(s)")

    def _moscow_garrison(self, s: State, movers: list[int]) -> None:
        """With the Germans within five hexes, each Moscow hex is held by its strongest
        defenders: the strongest units that can be there (those there included) stay or come,
        and weaker ones and railway troops make room. The heuristic's garrison keeps whoever is
        there (in scenario 15 railway troops and 1-CF militia: the operational German took
        Moscow in 16 of 20 games against it). Farther out, the heuristic's garrison."""
        moscow = s.rules.map.moscow
        ed = self.sit.enemy_dist()
        near = min(ed[h] for h in moscow)
        if self.offensive or near > 5:
            super()._moscow_garrison(s, movers)
            return
        units = s.rules.units
        dm = self.board.dist_moscow
        mmask = s.rules.map.moscow_mask
        want = 3 if near <= 3 else 2
        for h in moscow:
            here = [u for u in s.stacks.get(h, ()) if units[u].side == SOVIET]
            fixed = [u for u in here if u not in self.reach or u in self.plan.targets]
            pool = [
                u
                for u in movers
                if u not in self.plan.targets
                and not units[u].eb
                and (s.loc[u] == h or (s.loc[u] not in moscow and h in self.reach[u].left))
            ]
            pool.sort(key=lambda u: (-float(self.sit.defence_of(u, h)), dm[s.loc[u]], u))
            chosen = pool[: max(0, want - len(fixed))]
            for u in here:  # the rest of the hex's movable units leave for the nearest free hex
                if u in fixed or u in chosen:
                    continue
                outside = [d for d in self.reach[u].dsts if not (mmask >> d) & 1 and self._room(d)]
                if outside:
                    d = min(outside, key=lambda d: (dm[d], d))
                    self._claim(s, u, d, f"makes room in Moscow ({s.rules.grid.ids[d]})")
                    self.held.add(u)
            for u in chosen:
                if s.loc[u] == h or self._room(h):
                    self._claim(s, u, h, "holds Moscow" if s.loc[u] == h else "garrisons Moscow")
                    self.held.add(u)
        self.summary.append(f"Moscow held by its strongest defenders ({want} a hex)")

    def _pick_reserves(self, s: State) -> None:
        """Units far from the Germans (marching on Moscow included), on normal rail, not
        holding Moscow or Tula: rail reserves for the threatened sector (the rail goal)."""
        if self.plan.goal < 0:
            return
        ed = self.sit.enemy_dist()
        dist = self.grid.distance
        goal = self.plan.goal
        garrison = s.rules.map.moscow_mask | ((1 << self._tula) if self._tula >= 0 else 0)
        cands = [
            u
            for u in self.reach
            if not s.rules.units[u].eb
            and not (garrison >> self.plan.targets.get(u, s.loc[u])) & 1
            and ed[s.loc[u]] >= RESERVE_DIST
            and (s.rail_normal >> s.loc[u]) & 1
            and not (s.rail_cut >> s.loc[u]) & 1
            and dist(s.loc[u], goal) > 6
        ]
        cands.sort(key=lambda u: (-s.cf(u), u))
        ids = s.rules.grid.ids
        for u in cands[:6]:
            self.reserves.append(u)
            self.plan.targets.pop(u, None)
            self.plan.notes.pop(u, None)
        gone = set(self.reserves)
        self.plan.order = [u for u in self.plan.order if u not in gone]
        if self.reserves:
            self.summary.append(f"{len(self.reserves)} reserve(s) by rail toward {ids[goal]}")

    def _summarise(self, s: State) -> None:
        n = sum(1 for u, h in self.plan.targets.items() if h != s.loc[u])
        if self.side == GERMAN and not self.mech_phase:
            att = {h for h in self.plan.targets.values() if h in self.objectives}
            self.summary.insert(0, f"{n} unit(s) to attack positions and the front")
            if att:
                self.summary.append("objectives: " + ", ".join(self.objectives[h] for h in att))

    # -- scoring -----------------------------------------------------------------------------------

    def score(self, s: State, u: int, h: int) -> float:
        goal = self.goals.get(u)
        if goal is not None:
            w = self.w  # a spearhead closing a ring accepts a spearhead's risk
            self.w = self._w_exploit
            try:
                v = super().score(s, u, h)
            finally:
                self.w = w
            return v - ARM_WEIGHT * self.grid.distance(h, goal)
        if self.side == GERMAN and self.mech_phase and s.is_mech(u):
            w = self.w  # a spearhead accepts more risk, and leaves the line to the infantry
            self.w = self._w_exploit
            try:
                v = super().score(s, u, h)
            finally:
                self.w = w
        else:
            v = super().score(s, u, h)
        if s.rules.units[u].eb:
            return v
        name = self.objectives.get(h)
        if self.side == GERMAN:
            taken = (s.occ[GERMAN] | self.sit.enemy_occ | s.rules.west_mask) >> h & 1
            if name is not None and not taken:
                v += TOWN_BONUS
            if s.is_mech(u) and self.mech_phase:
                v += DEEP_WEIGHT * self._deep(s, h)
            return v
        # Soviet
        ed = self.sit.enemy_dist()[h]
        if self.offensive:
            if name is not None and (s.rules.west_mask >> h) & 1 and not (self.sit.enemy_occ >> h) & 1:
                v += TOWN_BONUS
            # Toward the German-held towns: 0.3 a hex nearer the nearest one.
            v -= 0.3 * min(12, self._german_towns(s)[h])
        elif 2 <= ed <= 5 and (self.board.dist_moscow[h] <= 12 or self._tula_dists()[h] <= 6):
            # A second line on the approaches to Moscow and Tula: no penalty for depth.
            v += self.w.approach * max(0, ed - 3) + 0.5
        return v

    def _german_towns(self, s: State) -> list[int]:
        """Per hex: distance to the nearest German-held (west of the start line, no Soviet unit)
        objective town (capped at 12)."""
        got: list[int] | None = getattr(self, "_gtowns", None)
        if got is None:
            mask = 0
            for h in self.objectives:
                if (s.rules.west_mask >> h) & 1 and not (s.occ[SOVIET] >> h) & 1:
                    mask |= 1 << h
            got = distance_map(self.grid, mask, 12) if mask else [0] * self.grid.size
            self._gtowns = got
        return got

    # -- playing -----------------------------------------------------------------------------------

    def next_action(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        if self.reserves and any(a.kind == "entrain" for a in actions):
            for u in self.reserves:
                if u in self.entrained:
                    continue
                a = Entrain(s.rules.units[u].id)
                if a in actions:
                    self.entrained.add(u)
                    return a, f"{a.unit} entrains: a reserve for the threatened sector"
        a2, why = super().next_action(s, actions)
        return a2, why

    def fork(self) -> Planner:
        p = super().fork()
        assert isinstance(p, OperationalPlanner)
        p.entrained = set(self.entrained)
        p.summary = list(self.summary)
        return p


# -- the player ------------------------------------------------------------------------------------


def _salient(s: State, t: int) -> bool:
    """A German hex with 3+ neighbours held by Soviet units or in their ZOC."""
    nm = s.rules.grid.neighbour_mask[t]
    return (nm & (s.occ[SOVIET] | s.zoc(SOVIET))).bit_count() >= 3


class TmcOperational(TmcHeuristic):
    """The operational player (module docstring): the heuristic's tactics, operational plans."""

    def __init__(self, seed: int | None = None, *, name: str = "operational", **kw: Any) -> None:
        kw.setdefault("weights", OPERATIONAL_WEIGHTS)
        super().__init__(seed, name=name, **kw)
        self._summary = ""

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        a, why = self.decide(state, actions)
        self._why = f"{why} (plan: {self._summary})" if self._summary else why
        return a

    def decide(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        if len(actions) > 1 and any(isinstance(a, Advance) for a in actions):
            a = self._advance(s, actions)
            if a is not None:
                return a
        return super().decide(s, actions)

    def make_planner(self, s: State) -> Planner:
        p = OperationalPlanner(
            s, weights=self.weights[s.side], noise=self.noise, rng=self.rng, notes=self.explaining
        )
        self._summary = "; ".join(p.summary)
        return p

    def make_attack_plan(self, s: State) -> AttackPlan:
        if s.side == GERMAN:
            german = super().make_attack_plan(s)
            self._summary = f"{len(german.battles)} battle(s) where the odds pay"
            return german
        offensive = s.turn >= COUNTER_OFFENSIVE
        sup = supply.supply_now(s, GERMAN).in_supply

        def bonus(t: int) -> float:
            us = s.stacks.get(t, ())
            b = 0.0
            if any(not (sup >> t) & 1 for _ in us[:1]):
                b += 1.0
            if any(u in s.disrupted for u in us):
                b += 0.5
            if _salient(s, t):
                b += 0.5 if not offensive else 1.0
            return b

        min_ev = 0.0 if offensive else self.weights[SOVIET].attack_min_ev
        plan = plan_attacks(s, noise=self.noise, rng=self.rng, min_ev=min_ev, bonus=bonus)
        if plan.battles:
            self._summary = f"{len(plan.battles)} counter-attack(s)" + (
                " of the counter-offensive" if offensive else ""
            )
        return plan

    def _advance(self, s: State, actions: Sequence[Action]) -> tuple[Action, str] | None:
        """After combat: into an objective town when the side gains it (German: a Soviet-held
        town; Soviet, in the counter-offensive: a German-held one)."""
        objectives = objective_hexes(s)
        index = s.rules.grid.index
        side = s.current_player()
        for a in actions:
            if not isinstance(a, Advance) or a.unit is None:
                continue
            h = index[a.hex]
            name = objectives.get(h)
            if name is None:
                continue
            west = bool((s.rules.west_mask >> h) & 1)
            if (side == GERMAN and not west) or (side == SOVIET and west and s.turn >= COUNTER_OFFENSIVE):
                return a, f"advance {a.unit} into {name}: an objective"
        return None


__all__ = ["OBJECTIVES", "OperationalPlanner", "TmcOperational", "objective_hexes", "soviet_supplied"]
