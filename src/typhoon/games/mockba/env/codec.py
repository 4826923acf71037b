"""MOCKBA's :class:`typhoon.env.codec.EnvCodec`.

Actions: one fixed integer space for every edition and option (the order of battle and the map
are shared), in blocks: unit x hex for ``move`` and for ``place`` (``reinforce`` of a unit not
yet on the map, ``rebuild`` of an eliminated one: a unit is never both); unit x railway hex for
``rail``; unit x direction for ``attack`` (the target is next to the attacker); ``place`` also holds the free set-up's
placements, and one last code is the set-up's ``standard``; unit for
``dig``, ``undig``, ``airsupply``, ``lose`` and ``advance`` (seed: an advance is only into the
attacked hex); hex for ``drop``; the eight bare actions; yes/no for ``support``; the six die
faces; the retreats as directions from the hex that retreats (0 to 3 hexes: 1 + 6 + 36 + 216).

Observation: per hex (33 x 40) 21 planes (terrain, city, victory city, fortification, railway
and its interruptions, German control, each side's units, factors, reduced, dug-in and
unsupplied shares, the battle) then the game-wide facts (turn, phase, side to move, battle step,
air points, rail capacity, victory points), all in [0, 1], flattened to one float32 vector.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from typhoon.env.codec import BlockLayout, CodecBase, EncodingError, MaskedCodec

from ..engine import legal_actions, traces_supply, victory_points
from ..rules import SIDE_NAMES, Rules, hex_id, hex_index, load_rules
from ..state import (
    BARE_KINDS,
    ELIM,
    PHASES,
    ROLLS,
    STANDARD,
    Advance,
    AirSupply,
    Attack,
    Bare,
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
from ..structure import STEPS

UNIT_ONLY = ("dig", "undig", "airsupply", "lose", "advance")
_UNIT_CLS = {"dig": Dig, "undig": Undig, "airsupply": AirSupply, "lose": Lose}
# The bridge roll (optional rule 3) shares the para drop's plane (both one die outside a combat),
# so the observation keeps its size.
STEP_ORDER = tuple(sorted(STEPS - {"blow_roll"}))
RETREATS = 1 + 6 + 36 + 216


def _neighbour(r: Rules, h: int, d: int) -> int:
    """The hex in direction d (0..5, rules._neighbours' order) of h, or -1 off the map."""
    c, row = divmod(h, r.rows)
    offs = (
        ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
        if c & 1
        else ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
    )
    dc, dr = offs[d]
    return (c + dc) * r.rows + row + dr if 0 <= c + dc < r.cols and 0 <= row + dr < r.rows else -1


def _direction(r: Rules, a: int, b: int) -> int:
    """0..5: b's direction from a, -1 if b is not next to a."""
    for d in range(6):
        if _neighbour(r, a, d) == b:
            return d
    return -1


def _path_code(ds: list[int]) -> int:
    """0 for no hex; then 1 + 6 one-hex, 36 two-hex and 216 three-hex paths of directions."""
    if len(ds) > 3:
        raise EncodingError("a retreat of more than three hexes")
    base = (0, 1, 7, 43)[len(ds)]
    code = 0
    for d in ds:
        code = code * 6 + d
    return base + code


def _path_dirs(i: int) -> list[int]:
    n = 0 if i < 1 else 1 if i < 7 else 2 if i < 43 else 3
    code = i - (0, 1, 7, 43)[n]
    out = []
    for _ in range(n):
        code, d = divmod(code, 6)
        out.append(d)
    return out[::-1]


class Layout(BlockLayout):
    def __init__(self, rules: Rules):
        n, hexes = len(rules.units), len(rules.terrain)
        self.n, self.hexes = n, hexes
        self.rail = tuple(h for h in range(hexes) if rules.rail_hexes >> h & 1)
        self.rail_index = {h: i for i, h in enumerate(self.rail)}
        sizes = [
            ("move", n * hexes),
            ("place", n * hexes),
            ("rail", n * len(self.rail)),
            ("attack", n * 6),
            *((k, n) for k in UNIT_ONLY),
            ("drop", hexes),
            ("bare", len(BARE_KINDS)),
            ("support", 2),
            ("roll", 6),
            ("retreat", RETREATS),
            ("standard", 1),  # free set-up (option setup=free): last, so no earlier code moves
            ("blow", n * 6),  # optional rule 3: unit x direction of the hex across the bridge
        ]
        self.blocks = {}
        at = 0
        for name, size in sizes:
            self.blocks[name] = (at, size)
            at += size
        self.size = at


@cache
def layout() -> Layout:
    return Layout(load_rules())


class MockbaActionCodec(MaskedCodec):
    def __init__(self, rules: Rules):
        self.rules = rules
        self.layout = layout()
        self.size = self.layout.size
        self.hexes = len(rules.terrain)

    @staticmethod
    def _legal_actions(s: Any, /) -> Any:
        return legal_actions(s)

    def _direction(self, a: int, b: int) -> int:
        return _direction(self.rules, a, b)

    def _retreat_start(self, s: State) -> int:
        b = s.battle
        if b is None:
            raise EncodingError("a retreat outside a battle")
        return b.groups[0] if b.step == "retreat" and b.groups else b.target

    def encode(self, s: Any, a: Any, /) -> int:
        r, lay = self.rules, self.layout
        bl = lay.blocks
        k = a.kind
        try:
            if k == "move":
                return bl["move"][0] + r.unit_index[a.unit] * self.hexes + hex_index(a.dst)
            if k in ("reinforce", "rebuild", "place"):
                return bl["place"][0] + r.unit_index[a.unit] * self.hexes + hex_index(a.hex)
            if k == "rail":
                return bl["rail"][0] + r.unit_index[a.unit] * len(lay.rail) + lay.rail_index[hex_index(a.dst)]
            if k == "attack":
                d = self._direction(s.loc[r.unit_index[a.unit]], hex_index(a.target))
                if d < 0:
                    raise EncodingError(f"{a!r}: the target is not next to the attacker")
                return bl["attack"][0] + r.unit_index[a.unit] * 6 + d
            if k in UNIT_ONLY:
                return bl[k][0] + r.unit_index[a.unit]
            if k == "drop":
                return bl["drop"][0] + hex_index(a.hex)
            if k == "standard":
                return bl["standard"][0]
            if k == "blow":
                d = self._direction(s.loc[r.unit_index[a.unit]], hex_index(a.dst))
                if d < 0:
                    raise EncodingError(f"{a!r}: the bridge is not next to the unit")
                return bl["blow"][0] + r.unit_index[a.unit] * 6 + d
            if k in BARE_KINDS:
                return bl["bare"][0] + BARE_KINDS.index(k)
            if k == "support":
                return bl["support"][0] + (1 if a.accept else 0)
            if k == "roll":
                return bl["roll"][0] + a.die - 1
            if k == "retreat":
                return bl["retreat"][0] + _path_code(self._dirs(s, a))
        except KeyError as exc:
            raise EncodingError(f"{a!r}: {exc}") from None
        raise EncodingError(f"{a!r}: not expressible in this action space")

    def _dirs(self, s: State, a: Any) -> list[int]:
        cur = self._retreat_start(s)
        out = []
        for hid in a.path:
            h = hex_index(hid)
            d = self._direction(cur, h)
            if d < 0:
                raise EncodingError(f"{a!r}: not a path of adjacent hexes")
            out.append(d)
            cur = h
        return out

    def legal_codes(self, s: Any, /) -> npt.NDArray[np.int64]:
        return np.fromiter((self.encode(s, a) for a in legal_actions(s)), dtype=np.int64)

    def decode(self, s: State, code: int) -> Any:
        """The action with this code in ``s`` (legal or not); EncodingError if none can be."""
        r, lay = self.rules, self.layout
        name = lay.block_of(code)
        i = code - lay.blocks[name][0]
        if name == "move":
            return Move(r.units[i // self.hexes].id, hex_id(i % self.hexes))
        if name == "place":
            u, h = divmod(i, self.hexes)
            cls = Place if s.setup >= 0 else Rebuild if s.loc[u] == ELIM else Reinforce
            return cls(r.units[u].id, hex_id(h))
        if name == "rail":
            u, j = divmod(i, len(lay.rail))
            return Rail(r.units[u].id, hex_id(lay.rail[j]))
        if name == "attack":
            u, d = divmod(i, 6)
            h = s.loc[u]
            t = _neighbour(r, h, d) if h >= 0 else -1
            if t < 0:
                raise EncodingError(f"action code {code}: no target")
            return Attack(r.units[u].id, hex_id(t))
        if name == "advance":
            if s.battle is None:
                raise EncodingError(f"action code {code}: an advance outside a battle")
            return Advance(r.units[i].id, hex_id(s.battle.target))
        if name in _UNIT_CLS:
            return _UNIT_CLS[name](r.units[i].id)
        if name == "drop":
            return Drop(hex_id(i))
        if name == "bare":
            return Bare(BARE_KINDS[i])
        if name == "standard":
            return STANDARD
        if name == "blow":
            u, d = divmod(i, 6)
            h = s.loc[u]
            t = _neighbour(r, h, d) if h >= 0 else -1
            if t < 0:
                raise EncodingError(f"action code {code}: no bridge there")
            return Blow(r.units[u].id, hex_id(t))
        if name == "support":
            return Support(bool(i))
        if name == "roll":
            return ROLLS[i]
        cur = self._retreat_start(s)
        path = []
        for d in _path_dirs(i):
            cur = _neighbour(r, cur, d)
            if cur < 0:
                raise EncodingError(f"action code {code}: off the map")
            path.append(hex_id(cur))
        return Retreat(tuple(path))

    def text(self, s: Any, code: int, /) -> str:
        from ..notation import action_to_text

        return action_to_text(self.decode(s, int(code)))


PLANES = 21
GLOBALS = 1 + len(PHASES) + 1 + 3 + len(STEP_ORDER) + 4
TERRAINS = ("clear", "rough", "lake")


def obs_shape() -> tuple[int]:
    r = load_rules()
    return (len(r.terrain) * PLANES + GLOBALS,)


class MockbaObservationCodec:
    def __init__(self, rules: Rules):
        self.rules = rules
        n = len(rules.terrain)
        static = np.zeros((n, 8), dtype=np.float32)
        victory = {h for h, _, _ in rules.victory}
        for h in range(n):
            static[h, TERRAINS.index(rules.terrain[h])] = 1.0
            static[h, 3] = 1.0 if rules.city_hexes >> h & 1 else 0.0
            static[h, 4] = 1.0 if h in victory else 0.0
            static[h, 5] = 1.0 if h in rules.forts else 0.0
            static[h, 6] = 1.0 if rules.rail_hexes >> h & 1 else 0.0
        self.static = static
        self.cities = [h for h in range(n) if rules.city_hexes >> h & 1]

    def observe(self, s: Any, side: int, /) -> npt.NDArray[np.float32]:
        r = self.rules
        planes = np.zeros((len(r.terrain), PLANES), dtype=np.float32)
        planes[:, :8] = self.static
        cut = s.cut
        while cut:  # interrupted railway hexes
            low = cut & -cut
            planes[low.bit_length() - 1, 7] = 1.0
            cut ^= low
        for h in self.cities:
            planes[h, 8] = 1.0 if (s.control >> h & 1) == (side == 0) else 0.0  # held by the observer
        for u, h in enumerate(s.loc):
            if h < 0:
                continue
            sp = r.units[u]
            base = 9 + 5 * (0 if sp.side == side else 1)  # per side: count, factors, reduced, dug, supplied
            planes[h, base] += 1 / 4
            planes[h, base + 1] += sp.cf / 24
            planes[h, base + 2] += (1 / 4) if s.red >> u & 1 else 0.0
            planes[h, base + 3] += (1 / 4) if s.dug >> u & 1 else 0.0
            planes[h, base + 4] += (1 / 4) if traces_supply(s, u) else 0.0
        b = s.battle
        if b is not None:
            planes[b.target, 19] = 1.0
            for u in b.attackers:
                if s.loc[u] >= 0:
                    planes[s.loc[u], 20] = 1.0
        g = np.zeros(GLOBALS, dtype=np.float32)
        g[0] = s.turn / max(1, r.last_turn)
        i = 1
        g[i + min(s.phase, len(PHASES))] = 1.0
        i += len(PHASES) + 1
        p = s.current_player()
        g[i + (0 if p == side else 1 if p in (0, 1) else 2)] = 1.0
        i += 3
        if b is not None:
            g[i + STEP_ORDER.index("drop_roll" if b.step == "blow_roll" else b.step)] = 1.0
        i += len(STEP_ORDER)
        g[i] = min(s.air_g, 20) / 20
        g[i + 1] = min(s.air_s, 20) / 20
        g[i + 2] = min(s.rail_left, 20) / 20
        g[i + 3] = (max(-20, min(20, victory_points(s))) + 20) / 40
        out = np.concatenate([np.clip(planes, 0.0, 1.0).ravel(), g])
        return out.astype(np.float32, copy=False)


@cache
def _actions_for(rules: Rules) -> MockbaActionCodec:
    return MockbaActionCodec(rules)


@cache
def _obs_for(rules: Rules) -> MockbaObservationCodec:
    return MockbaObservationCodec(rules)


def max_game_length(rules: Rules) -> int:
    """A loose bound on the actions (chance included) of a game: per game-turn, 16 phases and for
    each unit at most 40 actions (a move, rail, declarations, air, dice, losses, retreats)."""
    return 2 + rules.last_turn * len(PHASES) * len(rules.units) * 40


class MockbaCodec(CodecBase):
    @property
    def obs_shape(self) -> tuple[int, ...]:  # type: ignore[override]
        return obs_shape()

    @property
    def num_actions(self) -> int:
        return layout().size

    def actions(self, rules: Rules, /) -> MockbaActionCodec:
        return _actions_for(rules)

    def observation(self, rules: Rules, /) -> MockbaObservationCodec:
        return _obs_for(rules)

    def max_game_length(self, rules: Rules, /) -> int:
        return max_game_length(rules)


CODEC = MockbaCodec(SIDE_NAMES)

__all__ = ["CODEC", "MockbaActionCodec", "MockbaCodec", "MockbaObservationCodec", "layout", "max_game_length"]
