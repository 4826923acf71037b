"""The Moscow Campaign observation tensor: float32 planes over the 78 x 63 hex grid.

``obs[c, x, y]`` is channel ``c`` at column ``x + 1``, row ``y + 1`` (the dense hex index
``x * 63 + y`` of :mod:`typhoon.games.tmc.env.actions`). Every value lies in [0, 1]. Global
features (turn, phase, weather, victory points, the battle in progress...) are planes holding
one value everywhere, so the observation is one tensor a convolutional network takes as it
is. :data:`CHANNELS` lists the channels; docs/RESEARCH.md describes them.

Cost: the static planes (terrain, rivers, lakes, rail lines, defence lines, start line, entry
hexes) are built once per scenario; an observation (2.3 MB) copies them and writes every
other region once, with a few vectorised numpy writes (unit planes by one ``bincount``, hex
sets by one ``unpackbits``, globals by one broadcast). The environments build it only when
asked, at most once per state and observer (the environments' match, :class:`typhoon.env.match.Match`).

Supply planes show movement supply as the engine judged it at the start of the current
movement phase (``State.supply``; all hexes before any judgement); combat supply is judged
by the engine at each combat and is not shown.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from typhoon.env.bitplanes import BitPlanes
from typhoon.games.tmc.rules import ENTRAIN_LIMIT, GERMAN, PHASES, SOVIET, Rules
from typhoon.games.tmc.state import MOVEMENT_STEP_NAMES, State
from typhoon.hexgrid import bit_list

COLS = 78
ROWS = 63
NUM_HEXES = COLS * ROWS  # 4914
MAX_TURN = 31
STACK_SCALE = 3.0
CF_SCALE = 30.0
VP_SCALE = 200.0
CF_UNIT_SCALE = 12.0
MA_UNIT_SCALE = 10.0
DRM_SCALE = 6.0
OWED_SCALE = 20.0
BATTLE_STAGES = ("odds", "ignore", "roll", "loss", "disrupt", "retreat", "advance")
WEATHER_NAMES = ("fair", "rain", "mud", "freeze", "winter")

_DIRS = ("n", "ne", "se", "s", "sw", "nw")
_UNIT_PLANES = ("units", "cf", "mech", "eb", "kg_or_entrained", "disrupted", "bracket", "moved", "committed")

CHANNELS: tuple[str, ...] = (
    # static: the map and the scenario's start line
    "on_map",
    "forest",
    "lake",
    "city",
    "moscow",
    *(f"river_{d}" for d in _DIRS),
    *(f"lake_side_{d}" for d in _DIRS),
    "rail",
    *(f"rail_{d}" for d in _DIRS),
    "defence_outer",
    "defence_inner",
    "start_line",
    "west_of_line",
    "east_of_line",
    "german_entry",
    "soviet_entry",
    # dynamic: units by side (german_kg_or_entrained is KGs, soviet_... entrained units)
    *(f"german_{p}" for p in _UNIT_PLANES),
    *(f"soviet_{p}" for p in _UNIT_PLANES),
    # dynamic: hex sets
    "flipped",
    "zoc_german",
    "zoc_soviet",
    "supply_german",
    "supply_soviet",
    "rail_normal",
    "rail_german",
    "rail_soviet",
    "rail_destroyed",
    "rail_cut",
    "defence_intact_outer",
    "overrun_pending",
    "battle_defender",
    "battle_attacker",
    "declared_target",
    "declared_attacker",
    "draft_target",
    "draft_attacker",
    "retreating",
    # global features, one value over the whole plane
    "turn",
    "scenario_progress",
    *(f"phase_{p.key}" for p in PHASES),
    *(f"step_{n}" for n in MOVEMENT_STEP_NAMES),
    *(f"battle_{n}" for n in BATTLE_STAGES),
    "to_act_german",
    "to_act_soviet",
    "observer_german",
    "observer_soviet",
    *(f"weather_{n}" for n in WEATHER_NAMES),
    "german_ma_factor",
    "german_mech_ma_factor",
    "soviet_ma_factor",
    "german_one_hex",
    "frozen",
    "german_column_shift",
    "vp_german",
    "vp_soviet",
    "vp_german_share",
    "moscow_award",
    "moscow_german",
    "moscow_soviet",
    "entrainings",
    "battle_column",
    "battle_drm",
    "battle_owed",
    "battle_overrun",
    "setup_cf",
    "setup_ma",
    "setup_mech",
    "setup_eb",
)
CH = {name: i for i, name in enumerate(CHANNELS)}
NUM_CHANNELS = len(CHANNELS)
FIRST_UNIT = CH["german_units"]
NUM_UNIT_PLANES = len(_UNIT_PLANES)
NUM_UNIT_CH = 2 * NUM_UNIT_PLANES
FIRST_HEXSET = CH["flipped"]
FIRST_GLOBAL = CH["turn"]
OBS_SHAPE = (NUM_CHANNELS, COLS, ROWS)


_NO_CELLS = np.zeros(0, dtype=np.int64)


class TmcObservationCodec(BitPlanes):
    """Builds observation tensors for the states of one scenario. Use :func:`tmc_obs_codec_for`."""

    def __init__(self, rules: Rules):
        from typhoon.games.tmc import weather

        self.rules = rules
        grid = rules.grid
        m = rules.map
        if grid.columns != COLS or max(grid.rows_odd, grid.rows_even) != ROWS:
            raise ValueError(f"scenario {rules.edition}: the map is not {COLS} x {ROWS}")
        dense_hexes = sorted(grid.hexes, key=lambda h: grid.coords[h])
        self.dense_of = np.full(grid.size + 1, 0, dtype=np.int64)
        for i, h in enumerate(dense_hexes):
            self.dense_of[h] = i
        # dense slot -> padded index (the bit to read from a hex bitset)
        self.gather = np.array(dense_hexes, dtype=np.int64)
        self.nbytes = grid.size // 8 + 1
        t = np.zeros((NUM_CHANNELS, NUM_HEXES), dtype=np.float32)
        t[CH["on_map"]] = self.bits(grid.all_mask)
        t[CH["forest"]] = self.bits(m.forest_mask)
        t[CH["lake"]] = self.bits(m.lake_hexes)  # type: ignore[attr-defined]
        t[CH["city"]] = self.bits(m.city_mask)  # type: ignore[attr-defined]
        t[CH["moscow"]] = self.bits(m.moscow_mask)
        t[CH["rail"]] = self.bits(m.rail_mask)
        for i, h in enumerate(dense_hexes):
            for d, n in enumerate(grid.neighbours_by_dir[h]):
                if n < 0:
                    continue
                if (m.river_mask[h] >> n) & 1:
                    t[CH[f"river_{_DIRS[d]}"], i] = 1.0
                if (m.lake_mask[h] >> n) & 1:
                    t[CH[f"lake_side_{_DIRS[d]}"], i] = 1.0
                if n in m.rail_neighbours[h]:
                    t[CH[f"rail_{_DIRS[d]}"], i] = 1.0
        t[CH["defence_outer"]] = self.bits(grid.mask(o for _, o, _ in rules.dl_sides))
        t[CH["defence_inner"]] = self.bits(grid.mask(n for _, _, n in rules.dl_sides))
        t[CH["start_line"]] = self.bits(rules.start_line_mask)
        t[CH["west_of_line"]] = self.bits(rules.west_mask)
        t[CH["east_of_line"]] = self.bits(rules.east_mask)
        t[CH["german_entry"]] = self.bits(rules.german_entry)
        t[CH["soviet_entry"]] = self.bits(grid.mask(rules.soviet_entry))
        self.template = t
        # per-turn weather features (index = game turn, 0 = set-up)
        wt = weather.load_weather()
        self.weather: list[list[float]] = []
        for gt in range(MAX_TURN + 1):
            g = max(gt, 1)
            names = wt.names(g)
            limit = weather.german_hex_limit(g)
            self.weather.append(
                [float(n in names) for n in WEATHER_NAMES]
                + [
                    float(weather.german_ma_factor(g, mechanised=False)),
                    float(weather.german_ma_factor(g, mechanised=True)),
                    float(weather.soviet_ma_factor(g)),
                    1.0 if limit is not None else 0.0,
                    float(weather.rivers_and_lakes_frozen(g)),
                    min(1.0, max(0.0, wt.german_column_shift(g) / 2.0)),
                ]
            )
        units = rules.units
        self.n_units = len(units)
        self.u_side = np.array([u.side for u in units], dtype=np.int64)
        self.u_cf = np.array([u.cf for u in units], dtype=np.float32)
        self.u_mech = np.array([u.mech for u in units], dtype=np.float32)
        self.u_eb = np.array([u.eb for u in units], dtype=np.float32)
        self.u_bracket = np.array([u.bracket for u in units], dtype=np.float32)
        self.ubytes = self.n_units // 8 + 1
        k = len(_UNIT_PLANES)
        # cell offset of feature f for a unit of side s: ((s * k) + f) * NUM_HEXES
        self.side_base = self.u_side * k * NUM_HEXES
        self.feature_offsets = np.arange(k, dtype=np.int64) * NUM_HEXES
        self.feature_index = np.arange(k, dtype=np.int64)
        self._dl_intact: dict[int, int] = {}  # destroyed hexsides -> outer hexes still intact

    # -- bitsets -------------------------------------------------------------------------------

    def _unit_bits(self, mask: int) -> npt.NDArray[np.float32]:
        raw = np.unpackbits(
            np.frombuffer(mask.to_bytes(self.ubytes, "little"), dtype=np.uint8), bitorder="little"
        )
        return raw[: self.n_units].astype(np.float32)

    # -- observing -----------------------------------------------------------------------------

    def observe(self, s: State, observer: int) -> npt.NDArray[np.float32]:
        """The observation of ``s`` for player ``observer`` (0 German, 1 Soviet), a fresh
        float32 array of shape :data:`OBS_SHAPE`."""
        return self.observe_into(s, observer)[0]

    def observe_into(
        self, s: State, observer: int, out: npt.NDArray[np.float32] | None = None, meta: Any = None
    ) -> tuple[npt.NDArray[np.float32], Any]:
        """(observation, what it was made from). With ``out``: an earlier observation of this
        codec, made from ``meta``, rewritten in place as this one, region by region, only
        where ``meta`` says it differs (the static planes never; a unit plane cell, a hex set
        or a global feature only if changed). The values are those of :meth:`observe`."""
        from typhoon.games.tmc.combat_phase import Battle, PhaseData

        rules = self.rules
        if out is None or meta is None:
            # Each region written once (no copy of the whole 2.3 MB template).
            out = np.empty(OBS_SHAPE, dtype=np.float32)
            meta = None
        flat2 = out.reshape(NUM_CHANNELS, NUM_HEXES)
        if meta is None:
            flat2[:FIRST_UNIT] = self.template[:FIRST_UNIT]
        up = flat2[FIRST_UNIT : FIRST_UNIT + NUM_UNIT_CH].reshape(-1)
        if meta is None:
            up[...] = 0.0
        else:
            up[meta[0]] = 0.0  # the cells the earlier observation's units filled
        used: npt.NDArray[np.int64] = _NO_CELLS
        loc = np.array(s.loc, dtype=np.int64)
        on = np.flatnonzero(loc >= 0)
        if len(on):
            kg = self._unit_bits(s.kg)
            entrained = self._unit_bits(s.entrained)
            kg_or_ent = np.where(self.u_side == GERMAN, kg, entrained)
            disrupted = np.zeros(self.n_units, dtype=np.float32)
            if s.disrupted:
                disrupted[list(s.disrupted)] = 1.0
            moved = np.zeros(self.n_units, dtype=np.float32)
            if s.spent:
                moved[list(s.spent)] = 1.0
            committed = self._unit_bits(s.overran)
            cf = np.where(kg > 0, 2.0, self.u_cf).astype(np.float32)
            mech = np.maximum(self.u_mech, kg)
            feats = np.stack(
                [
                    np.full(self.n_units, 1.0 / STACK_SCALE, dtype=np.float32),
                    cf / CF_SCALE,
                    mech / STACK_SCALE,
                    self.u_eb / STACK_SCALE,
                    kg_or_ent / STACK_SCALE,
                    disrupted / STACK_SCALE,
                    self.u_bracket / STACK_SCALE,
                    moved / STACK_SCALE,
                    committed / STACK_SCALE,
                ],
                axis=1,
            )[on]
            # Per cell the sum of its units' features, only over the cells units fill: bins
            # (stack, feature), the stacks being the distinct (side, hex) first cells; bincount
            # adds in input order whatever the bins' numbering (so the sums are those of one
            # bin per plane cell). min(sum, 1) after the cast to float32: the same values as
            # capping in float64 first (rounding keeps x <= 1 at or below 1).
            stacks, inv = np.unique(self.side_base[on] + self.dense_of[loc[on]], return_inverse=True)
            bins = (inv.reshape(-1, 1) * NUM_UNIT_PLANES + self.feature_index).ravel()
            sums = np.bincount(bins, weights=feats.ravel(), minlength=len(stacks) * NUM_UNIT_PLANES)
            vals = sums.astype(np.float32)
            vals[vals > 1.0] = 1.0
            used = (stacks[:, None] + self.feature_offsets).ravel()
            up[used] = vals
        # hex sets
        flipped = 0
        if s.flipped:
            for u in bit_list(s.flipped):
                if s.loc[u] >= 0:
                    flipped |= 1 << s.loc[u]
        valid = rules.grid.all_mask
        sup = [valid if m < 0 else m for m in s.supply]
        dl_intact = self._dl_intact.get(s.dl_destroyed)
        if dl_intact is None:
            dl_intact = 0
            for k, (_, outer, _) in enumerate(rules.dl_sides):
                if not (s.dl_destroyed >> k) & 1:
                    dl_intact |= 1 << outer
            if len(self._dl_intact) > 1000:  # pragma: no cover - bounded memory
                self._dl_intact.clear()
            self._dl_intact[s.dl_destroyed] = dl_intact
        pending = 0
        for p in s.overruns:
            pending |= 1 << p.hex
        bdef = batt = dtgt = datt = ftgt = fatt = retr = 0
        b = s.combat
        if isinstance(b, Battle):
            for h in b.hexes:
                bdef |= 1 << h
            batt = self._unit_hexes(s, b.attackers)
            retr = self._unit_hexes(s, bit_list(b.retreating))
        cd = s.cdata
        if isinstance(cd, PhaseData):
            dtgt = cd.hit
            datt = self._unit_hexes(s, bit_list(cd.used))
            if cd.draft is not None:
                for h in cd.draft.hexes:
                    ftgt |= 1 << h
                fatt = self._unit_hexes(s, cd.draft.attackers)
        rows = [
            flipped,
            s.zoc(GERMAN),
            s.zoc(SOVIET),
            sup[GERMAN],
            sup[SOVIET],
            s.rail_normal,
            s.rail_german,
            s.rail_soviet,
            s.rail_destroyed(),
            s.rail_cut,
            dl_intact,
            pending,
            bdef,
            batt,
            dtgt,
            datt,
            ftgt,
            fatt,
            retr,
        ]
        g = np.array(self.globals(s, observer), dtype=np.float32)
        if meta is None:
            self.write_planes(flat2[FIRST_HEXSET:FIRST_GLOBAL], rows)
            flat2[FIRST_GLOBAL:] = g[:, None]
        else:
            for i, (m, was) in enumerate(zip(rows, meta[1], strict=True)):
                if m != was:
                    self.write_planes(flat2[FIRST_HEXSET + i : FIRST_HEXSET + i + 1], [m])
            for i in np.flatnonzero(g != meta[2]).tolist():
                flat2[FIRST_GLOBAL + i] = g[i]
        return out, (used, rows, g)

    def _unit_hexes(self, s: State, units: object) -> int:
        m = 0
        for u in units:  # type: ignore[attr-defined]
            if s.loc[u] >= 0:
                m |= 1 << s.loc[u]
        return m

    def globals(self, s: State, observer: int) -> list[float]:
        """The global features (the values of the planes from ``turn`` on)."""
        from typhoon.games.tmc.combat_phase import Battle

        rules = self.rules
        g: list[float] = [s.turn / MAX_TURN]
        span = rules.last_turn - rules.first_turn + 1
        g.append(min(1.0, max(0.0, (s.turn - rules.first_turn + 1) / span)) if s.turn else 0.0)
        phase = [0.0] * len(PHASES)
        phase[s.phase] = 1.0
        g += phase
        step = [0.0] * len(MOVEMENT_STEP_NAMES)
        if rules.phases[s.phase].kind == "movement" and 0 <= s.step < len(step):
            step[s.step] = 1.0
        g += step
        stage = [0.0] * len(BATTLE_STAGES)
        b = s.combat
        battle = b if isinstance(b, Battle) else None
        if battle is not None and 0 <= battle.stage < len(stage):
            stage[battle.stage] = 1.0
        g += stage
        who = s.current_player()
        g += [float(who == GERMAN), float(who == SOVIET)]
        g += [float(observer == GERMAN), float(observer == SOVIET)]
        g += self.weather[min(s.turn, MAX_TURN)]
        vg, vs = s.vp
        g += [min(1.0, vg / VP_SCALE), min(1.0, vs / VP_SCALE), vg / (vg + vs) if vg + vs else 0.5]
        holder = s.moscow_holder()
        g += [float(s.moscow_award), float(holder == GERMAN), float(holder == SOVIET)]
        g.append(min(1.0, s.entrainings / ENTRAIN_LIMIT))
        if battle is not None:
            g += [
                battle.column / 11.0,
                min(1.0, max(0.0, 0.5 + battle.drm / (2 * DRM_SCALE))),
                min(1.0, float(battle.owed) / OWED_SCALE),
                float(battle.overrun),
            ]
        else:
            g += [0.0, 0.0, 0.0, 0.0]
        su = [0.0, 0.0, 0.0, 0.0]
        if rules.phases[s.phase].kind == "setup":
            from typhoon.games.tmc.setup_phase import next_unit

            u = next_unit(s)
            if u >= 0:
                spec = rules.units[u]
                su = [
                    min(1.0, spec.cf / CF_UNIT_SCALE),
                    min(1.0, spec.ma / MA_UNIT_SCALE),
                    float(spec.mech),
                    float(spec.eb),
                ]
        g += su
        return g


@lru_cache(maxsize=32)
def tmc_obs_codec_for(rules: Rules) -> TmcObservationCodec:
    return TmcObservationCodec(rules)


__all__ = ["CHANNELS", "NUM_CHANNELS", "OBS_SHAPE", "TmcObservationCodec", "tmc_obs_codec_for"]
