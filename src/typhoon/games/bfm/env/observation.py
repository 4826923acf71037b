"""The observation tensor: float32 planes over the common 14 x 11 hex grid.

``obs[c, x, y]`` is channel ``c`` at column ``x + 1``, row ``y + 1`` (the padded hex index is
``x * 11 + y``, as in :mod:`typhoon.games.bfm.env.actions`); slots that are not hexes of the edition's
map are 0 in every hex channel (``ON_MAP`` tells which are). Every value lies in [0, 1].
Global features (turn, phase, ...) are planes holding one value everywhere, so the whole
observation is one tensor a convolutional network can take as it is. The channels are
listed in :data:`CHANNELS` and documented in docs/RESEARCH.md.

Static planes (terrain, rivers, rails, edges, set-up hexes) are computed once per ruleset;
each observation copies them and fills the rest from the state with a few vectorised numpy
writes.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from typhoon.env.bitplanes import BitPlanes
from typhoon.games.bfm.env.actions import NUM_HEXES, PAD_COLS, PAD_ROWS, ActionCodec, codec_for
from typhoon.games.bfm.flow import reinforcement_due
from typhoon.games.bfm.movement_phase import movable_units
from typhoon.games.bfm.rules import GERMAN, RESULTS, SOVIET, Rules
from typhoon.games.bfm.state import STEP_NAMES, State
from typhoon.hexgrid import bit_list, bits

MAX_TURNS = 7
MAX_PHASES = 10
STRENGTH_SCALE = 12.0
MOVE_SCALE = 6.0
REPLACEMENT_SCALE = 5.0

_DIRS = ("n", "ne", "se", "s", "sw", "nw")
_UNIT_PLANES = ("unit", "full", "strength", "move", "done")

CHANNELS: tuple[str, ...] = (
    # static: the map
    "on_map",
    "forest",
    "fortification",
    "city",
    "moscow",
    "major_city",
    "stand_fast",
    "rail",
    *(f"river_{d}" for d in _DIRS),
    *(f"rail_{d}" for d in _DIRS),
    "edge_german",
    "edge_soviet",
    "setup_german",
    "setup_soviet",
    # dynamic: units, zones of control, cities, the decision in progress
    *(f"german_{p}" for p in _UNIT_PLANES),
    *(f"soviet_{p}" for p in _UNIT_PLANES),
    "zoc_german",
    "zoc_soviet",
    "city_german",
    "city_soviet",
    "must_move",
    "movable",
    "battle_defender",
    "battle_attacker",
    "current_defender",
    "current_attacker",
    # global features, one value over the whole plane
    *(f"turn_{t}" for t in range(MAX_TURNS + 1)),
    *(f"phase_{p}" for p in range(MAX_PHASES)),
    *(f"step_{name}" for name in STEP_NAMES),
    "mud",
    "to_act_german",
    "to_act_soviet",
    "observer_german",
    "observer_soviet",
    "replacements_left",
    "edition_vpg",
    "current_odds",
    *(f"current_result_{r.lower()}" for r in RESULTS),
    "current_owed",
    "reinforcement_due",
    "first_shock_arrived",
    "off_map_german",
    "off_map_soviet",
)
CH = {name: i for i, name in enumerate(CHANNELS)}
NUM_CHANNELS = len(CHANNELS)
NUM_STATIC = CH["german_unit"]
FIRST_GLOBAL = CH["turn_0"]
OBS_SHAPE = (NUM_CHANNELS, PAD_COLS, PAD_ROWS)


class ObservationCodec(BitPlanes):
    """Builds observation tensors for the states of one ruleset. Use :func:`obs_codec_for`."""

    def __init__(self, rules: Rules):
        if len(rules.phases) > MAX_PHASES or rules.last_turn > MAX_TURNS:
            raise ValueError(f"{rules.edition}: more phases or turns than the observation allows")
        self.rules = rules
        self.actions: ActionCodec = codec_for(rules)
        m = rules.map
        grid = m.grid
        pad = self.actions.pad_of
        self.pad = np.array([p if p >= 0 else 0 for p in pad], dtype=np.int64)
        # padded slot -> edition index, or grid.size (a bit that is never set) off the map
        self.gather = np.array([h if h >= 0 else grid.size for h in self.actions.ed_of], dtype=np.int64)
        self.nbytes = grid.size // 8 + 1
        t = np.zeros((NUM_CHANNELS, NUM_HEXES), dtype=np.float32)
        t[CH["on_map"]] = self.bits(grid.all_mask)
        t[CH["forest"]] = self.bits(m.forest_mask)
        t[CH["fortification"]] = self.bits(m.fortification_mask)
        t[CH["city"]] = self.bits(m.city_mask)
        t[CH["moscow"]] = self.bits(m.moscow_mask)
        t[CH["major_city"]] = self.bits(m.major_city_mask)
        t[CH["stand_fast"]] = self.bits(rules.stand_fast_mask)
        t[CH["rail"]] = self.bits(m.rail_mask)
        rail_links = {(a, b) for a, b in m.rail} | {(b, a) for a, b in m.rail}
        for h in grid.hexes:
            for d, n in enumerate(grid.neighbours_by_dir[h]):
                if n < 0:
                    continue
                if m.river_between(h, n):
                    t[CH[f"river_{_DIRS[d]}"], pad[h]] = 1.0
                if (h, n) in rail_links:
                    t[CH[f"rail_{_DIRS[d]}"], pad[h]] = 1.0
        t[CH["edge_german"]] = self.bits(m.edge_mask["german"])
        t[CH["edge_soviet"]] = self.bits(m.edge_mask["soviet"])
        t[CH["setup_german"]] = self.bits(m.setup_mask["german"])
        t[CH["setup_soviet"]] = self.bits(m.setup_mask["soviet"])
        t[CH["edition_vpg"]] = 1.0 if rules.edition == "vpg2009" else 0.0
        self.template = t
        units = rules.units
        self.side_count = [max(1, len(rules.side_units[s])) for s in (GERMAN, SOVIET)]
        self.result_index = {r: i for i, r in enumerate(RESULTS)}
        self._german_cities: dict[int, int] = {}
        self.side_range: list[tuple[int, int]] = []
        for side in (GERMAN, SOVIET):
            su = rules.side_units[side]
            if list(su) != list(range(su[0], su[0] + len(su))):
                raise ValueError(f"{rules.edition}: the {side} units are not numbered consecutively")
            self.side_range.append((su[0], su[0] + len(su)))
        # Unit planes: flat index of (the unit's side's first unit channel, slot 0), the
        # offsets of its channels, and its values by steps (0 off map, 1 half, 2 full).
        u_side = np.array([u.side for u in units], dtype=np.int64)
        self.u_cell = (CH["german_unit"] + u_side * len(_UNIT_PLANES)) * NUM_HEXES
        self.unit_offsets = np.arange(4, dtype=np.int64) * NUM_HEXES
        self.done_offset = 4 * NUM_HEXES
        vals = np.zeros((len(units), 3, 4), dtype=np.float32)
        for i, u in enumerate(units):
            vals[i, 1] = (1.0, 0.0, u.half / STRENGTH_SCALE, u.move / MOVE_SCALE)
            vals[i, 2] = (1.0, 1.0, u.full / STRENGTH_SCALE, u.move / MOVE_SCALE)
        self.u_values = vals
        self.vpg = 1.0 if rules.edition == "vpg2009" else 0.0
        first = FIRST_GLOBAL
        self.g_turn = CH["turn_0"] - first
        self.g_phase = CH["phase_0"] - first
        self.g_step = CH[f"step_{STEP_NAMES[0]}"] - first
        self.g_mud = CH["mud"] - first
        self.g_to_act = CH["to_act_german"] - first
        self.g_observer = CH["observer_german"] - first
        self.g_repl = CH["replacements_left"] - first
        self.g_vpg = CH["edition_vpg"] - first
        self.g_odds = CH["current_odds"] - first
        self.g_result = CH["current_result_ne"] - first
        self.g_owed = CH["current_owed"] - first
        self.g_due = CH["reinforcement_due"] - first
        self.g_arrived = CH["first_shock_arrived"] - first
        self.g_off = CH["off_map_german"] - first

    def observe(self, s: State, observer: int) -> npt.NDArray[np.float32]:
        """The observation of ``s`` for player ``observer`` (0 German, 1 Soviet), a fresh
        float32 array of shape :data:`OBS_SHAPE`."""
        out = self.template.copy()
        flat = out.reshape(-1)
        rules = self.rules
        sloc = s.loc
        loc = np.array(sloc, dtype=np.int64)
        units = np.flatnonzero(loc >= 0)
        spec = rules.phases[s.phase]
        done = s.done
        if len(units):
            steps = np.array(s.steps, dtype=np.int64)[units]
            cells = self.u_cell[units] + self.pad[loc[units]]
            flat[cells[:, None] + self.unit_offsets] = self.u_values[units, steps]
            if done:
                d = [u for u in bits(done) if sloc[u] >= 0]
                if d:
                    flat[self.u_cell[d] + self.pad[loc[d]] + self.done_offset] = 1.0
        expand = rules.map.grid.expand
        occ = s.occ
        movers = 0
        if spec.kind == "movement":
            for u in bit_list(movable_units(s)):  # the phasing side's units still to move
                movers |= 1 << sloc[u]
        bdef = batt = cdef = catt = 0
        for d_, atk in s.battles:
            if sloc[d_] >= 0:
                bdef |= 1 << sloc[d_]
            for a in atk:
                if sloc[a] >= 0:
                    batt |= 1 << sloc[a]
        cur = s.cur
        if cur is not None:
            cdef = 1 << cur.hex
            for a in cur.attackers:
                if sloc[a] >= 0:
                    catt |= 1 << sloc[a]
        german_cities = self._german_cities.get(s.control)
        if german_cities is None:
            german_cities = self._german_cities[s.control] = s.controlled_city_mask(GERMAN)
        rows = [
            expand(occ[GERMAN]),
            expand(occ[SOVIET]),
            german_cities,
            rules.map.city_mask & ~german_cities,
            (1 << sloc[s.stack]) if s.stack >= 0 else 0,
            movers,
            bdef,
            batt,
            cdef,
            catt,
        ]
        used = [i for i, m in enumerate(rows) if m]  # the template holds zeros already
        first = CH["zoc_german"]
        if len(used) == len(rows):
            out[first : first + len(rows)] = self._hex_planes(rows)
        elif used:
            out[[first + i for i in used]] = self._hex_planes([rows[i] for i in used])
        g = [0.0] * (NUM_CHANNELS - FIRST_GLOBAL)
        g[self.g_turn + s.turn] = 1.0
        g[self.g_phase + s.phase] = 1.0
        g[self.g_step + s.cstep] = 1.0
        if s.turn in rules.mud_turns:
            g[self.g_mud] = 1.0
        who = s.current_player()
        if who >= 0:
            g[self.g_to_act + who] = 1.0
        if 0 <= observer <= 1:
            g[self.g_observer + observer] = 1.0
        g[self.g_repl] = min(1.0, s.repl / REPLACEMENT_SCALE)
        g[self.g_vpg] = self.vpg
        if cur is not None:
            g[self.g_odds] = max(0, cur.column) / 6.0
            if cur.result:
                g[self.g_result + self.result_index[cur.result]] = 1.0
            g[self.g_owed] = max(0, cur.owed) / STRENGTH_SCALE
        if spec.kind == "replacement" and reinforcement_due(s) >= 0:
            g[self.g_due] = 1.0
        fs = rules.first_shock
        if fs >= 0 and (s.arrived >> fs) & 1:
            g[self.g_arrived] = 1.0
        for side in (GERMAN, SOVIET):
            a, b = self.side_range[side]
            g[self.g_off + side] = sloc[a:b].count(-1) / self.side_count[side]
        out[FIRST_GLOBAL:] = np.array(g, dtype=np.float32)[:, None]
        return out.reshape(OBS_SHAPE)


@lru_cache(maxsize=32)
def obs_codec_for(rules: Rules) -> ObservationCodec:
    return ObservationCodec(rules)


__all__ = [
    "CHANNELS",
    "NUM_CHANNELS",
    "OBS_SHAPE",
    "ObservationCodec",
    "obs_codec_for",
]
