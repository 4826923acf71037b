"""Moscow Attacked!'s :class:`typhoon.env.codec.EnvCodec`.

Actions: one fixed integer space for both editions (the order of battle is shared), in blocks:
unit x hex for ``move``, ``rail``, ``reinforce``, ``replace``, ``advance`` and ``airdrop``;
unit x direction for ``attack`` (the target is next to the attacker); hex for ``base``; unit for
``disband``, ``air``, ``bomb``, ``intercept``, ``lose``, ``disperse``; the four ``order`` modes;
``fire``, ``cancel``, ``pass``, ``stay``, ``end``; yes/no for ``noretreat`` and ``exchange``;
the six die faces; and the retreats as directions from the hex the defenders stand on (0, 1 or 2
hexes: 1 + 6 + 36 codes).

Observation: per hex (130) 22 planes (terrain, place, who holds it, each side's units, factors,
Dispersed and Spent shares, supply, the battle) then the game-wide facts (turn, phase, weather,
side to move, the battle step, replacement factors, the No Retreat! order, PANIC, air units
ready), all in [0, 1], flattened to one float32 vector.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from typhoon.env.codec import CodecBase, EncodingError, MaskedCodec

from ..engine import in_supply, legal_actions
from ..rules import COLS, ROWS, SIDE_NAMES, WEATHERS, Rules, hex_id, hex_index, load_rules
from ..state import (
    DISPERSED,
    PHASES,
    ROLLS,
    SPENT,
    Advance,
    Air,
    Airdrop,
    Attack,
    Base,
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

N_HEX = len(ROWS) * COLS
UNIT_HEX = ("move", "rail", "reinforce", "replace", "advance", "airdrop")
UNIT_ONLY = ("disband", "air", "bomb", "intercept", "lose", "disperse")
ORDERS = ("none", "all", "front", "moscow")
BARE = ("fire", "cancel", "pass", "stay", "end")
_BARE_CLS = {"fire": Fire, "cancel": Cancel, "pass": Pass, "stay": Stay, "end": End}
_UNIT_HEX_CLS = {
    "move": Move,
    "rail": Rail,
    "reinforce": Reinforce,
    "replace": Replace,
    "advance": Advance,
    "airdrop": Airdrop,
}
_UNIT_CLS = {
    "disband": Disband,
    "air": Air,
    "bomb": Bomb,
    "intercept": Intercept,
    "lose": Lose,
    "disperse": Disperse,
}
STEPS = (
    "declare",
    "intercept",
    "icpt_roll",
    "bomb_roll",
    "roll",
    "noretreat",
    "exchange",
    "loss",
    "retreat",
    "extra",
    "advance",
)


def _direction(a: int, b: int) -> int:
    """0..5: b's direction from a on the odd-rows-east grid (rules._neighbours' order), -1 if not adjacent."""
    r, c = divmod(a, COLS)
    rb, cb = divmod(b, COLS)
    d = (-1, 0) if r % 2 == 0 else (0, 1)
    offs = [(0, -1), (0, 1), (-1, d[0]), (-1, d[1]), (1, d[0]), (1, d[1])]
    try:
        return offs.index((rb - r, cb - c))
    except ValueError:
        return -1


def _step(a: int, k: int) -> int:
    """The hex in direction k of a, or -1 off the map."""
    r, c = divmod(a, COLS)
    d = (-1, 0) if r % 2 == 0 else (0, 1)
    dr, dc = [(0, -1), (0, 1), (-1, d[0]), (-1, d[1]), (1, d[0]), (1, d[1])][k]
    rr, cc = r + dr, c + dc
    return rr * COLS + cc if 0 <= rr < len(ROWS) and 0 <= cc < COLS else -1


class Layout:
    def __init__(self, n_units: int):
        self.n = n_units
        blocks: dict[str, tuple[int, int]] = {}
        at = 0
        for k in UNIT_HEX:
            blocks[k] = (at, n_units * N_HEX)
            at += n_units * N_HEX
        blocks["attack"] = (at, n_units * 6)
        at += n_units * 6
        blocks["base"] = (at, N_HEX)
        at += N_HEX
        for k in UNIT_ONLY:
            blocks[k] = (at, n_units)
            at += n_units
        for name, size in (
            ("order", 4),
            ("bare", len(BARE)),
            ("noretreat", 2),
            ("exchange", 2),
            ("roll", 6),
            ("retreat", 43),
        ):
            blocks[name] = (at, size)
            at += size
        self.blocks = blocks
        self.size = at


@cache
def layout() -> Layout:
    return Layout(len(load_rules().units))


class MaActionCodec(MaskedCodec):
    def __init__(self, rules: Rules):
        self.rules = rules
        self.layout = layout()
        self.size = self.layout.size

    @staticmethod
    def _legal_actions(s: Any, /) -> Any:
        return legal_actions(s)

    def _retreat_start(self, s: State) -> int:
        b = s.battle
        if b is None:
            raise EncodingError("a retreat outside a battle")
        return b.target if b.step == "retreat" else b.at

    def encode(self, s: Any, a: Any, /) -> int:
        r, bl = self.rules, self.layout.blocks
        k = a.kind
        try:
            if k in UNIT_HEX:
                return bl[k][0] + r.unit_index[a.unit] * N_HEX + hex_index(a[1])
            if k == "attack":
                d = _direction(s.loc[r.unit_index[a.unit]], hex_index(a.target))
                if d < 0:
                    raise EncodingError(f"{a!r}: the target is not next to the attacker")
                return bl["attack"][0] + r.unit_index[a.unit] * 6 + d
            if k == "base":
                return bl["base"][0] + hex_index(a.hex)
            if k in UNIT_ONLY:
                return bl[k][0] + r.unit_index[a.unit]
            if k == "order":
                return bl["order"][0] + ORDERS.index(a.mode)
            if k in BARE:
                return bl["bare"][0] + BARE.index(k)
            if k in ("noretreat", "exchange"):
                return bl[k][0] + (1 if a.accept else 0)
            if k == "roll":
                return bl["roll"][0] + a.die - 1
            if k == "retreat":
                cur = self._retreat_start(s)
                ds = []
                for hid in a.path:
                    h = hex_index(hid)
                    d = _direction(cur, h)
                    if d < 0:
                        raise EncodingError(f"{a!r}: not a path of adjacent hexes")
                    ds.append(d)
                    cur = h
                code = 0 if not ds else (1 + ds[0] if len(ds) == 1 else 7 + 6 * ds[0] + ds[1])
                return bl["retreat"][0] + code
        except KeyError as exc:
            raise EncodingError(f"{a!r}: {exc}") from None
        raise EncodingError(f"{a!r}: not expressible in this action space")

    def legal_codes(self, s: Any, /) -> npt.NDArray[np.int64]:
        return np.fromiter((self.encode(s, a) for a in legal_actions(s)), dtype=np.int64)

    def decode(self, s: State, code: int) -> Any:
        """The action with this code in ``s`` (legal or not); EncodingError if none can be."""
        r = self.rules
        for name, (start, n) in self.layout.blocks.items():
            if not start <= code < start + n:
                continue
            i = code - start
            if name in UNIT_HEX:
                return _UNIT_HEX_CLS[name](r.units[i // N_HEX].id, hex_id(i % N_HEX))
            if name == "attack":
                u, d = divmod(i, 6)
                h = s.loc[u]
                t = _step(h, d) if h >= 0 else -1
                if t < 0:
                    raise EncodingError(f"action code {code}: no target")
                return Attack(r.units[u].id, hex_id(t))
            if name == "base":
                return Base("StratBomb", hex_id(i))
            if name in UNIT_ONLY:
                return _UNIT_CLS[name](r.units[i].id)
            if name == "order":
                return Order(ORDERS[i])
            if name == "bare":
                return _BARE_CLS[BARE[i]]()
            if name == "noretreat":
                return NoRetreat(bool(i))
            if name == "exchange":
                return Exchange(bool(i))
            if name == "roll":
                return ROLLS[i]
            if name == "retreat":
                ds = [] if i == 0 else ([i - 1] if i < 7 else list(divmod(i - 7, 6)))
                cur = self._retreat_start(s)
                path = []
                for d in ds:
                    cur = _step(cur, d)
                    if cur < 0:
                        raise EncodingError(f"action code {code}: off the map")
                    path.append(hex_id(cur))
                return Retreat(tuple(path))
        raise EncodingError(f"action code {code} is outside 0..{self.size - 1}")

    def text(self, s: Any, code: int, /) -> str:
        from ..notation import action_to_text

        return action_to_text(self.decode(s, int(code)))


PLANES = 22
GLOBALS = 1 + len(PHASES) + len(WEATHERS) + 3 + len(STEPS) + 1 + len(ORDERS) + 1 + 2
OBS_SHAPE = (N_HEX * PLANES + GLOBALS,)
TERRAINS = ("clear", "forest", "forest_swamp")
PLACES = ("town", "city", "capital")


class MaObservationCodec:
    def __init__(self, rules: Rules):
        self.rules = rules
        static = np.zeros((N_HEX, 6), dtype=np.float32)
        for h in range(N_HEX):
            static[h, TERRAINS.index(rules.terrain[h])] = 1.0
            if rules.place_class[h]:
                static[h, 3 + PLACES.index(str(rules.place_class[h]))] = 1.0
        self.static = static

    def observe(self, s: Any, side: int, /) -> npt.NDArray[np.float32]:
        r = self.rules
        planes = np.zeros((N_HEX, PLANES), dtype=np.float32)
        planes[:, :6] = self.static
        for h in range(N_HEX):
            if r.places >> h & 1:
                planes[h, 6] = 1.0 if s.controller(h) == side else 0.5
        for u, h in enumerate(s.loc):
            if h < 0:
                continue
            sp = r.units[u]
            mine = 0 if sp.side == side else 1
            base = 7 + 7 * mine  # per side: count, attack, defense, army-level, Dispersed, Spent, supplied
            planes[h, base] += 1 / 3
            planes[h, base + 1] += sp.attack / 15
            planes[h, base + 2] += sp.defense / 15
            planes[h, base + 3] += 1.0 if sp.army_level else 0.0
            planes[h, base + 4] += (1 / 3) if s.status[u] == DISPERSED else 0.0
            planes[h, base + 5] += (1 / 3) if s.status[u] == SPENT else 0.0
            planes[h, base + 6] += (1 / 3) if in_supply(s, u) else 0.0
        b = s.battle
        if b is not None:
            planes[b.target, 21] = 1.0
            for u in b.attackers:
                if s.loc[u] >= 0:
                    planes[s.loc[u], 21] = 0.5
        g = np.zeros(GLOBALS, dtype=np.float32)
        i = 0
        g[i] = s.turn / 10
        i += 1
        g[i + s.phase] = 1.0
        i += len(PHASES)
        g[i + WEATHERS.index(s.weather)] = 1.0
        i += len(WEATHERS)
        p = s.current_player()
        g[i + (0 if p == side else 1 if p in (0, 1) else 2)] = 1.0
        i += 3
        if b is not None:
            g[i + STEPS.index(b.step)] = 1.0
        i += len(STEPS)
        g[i] = min(s.repl, 20) / 20
        i += 1
        g[i + ORDERS.index(s.noretreat)] = 1.0
        i += len(ORDERS)
        g[i] = 1.0 if s.panic else 0.0
        i += 1
        for k in (0, 1):
            ready = [
                u for u, sp in enumerate(r.units) if sp.is_air and sp.side == (side if k == 0 else 1 - side)
            ]
            free = sum(
                1
                for u in ready
                if not s.air_used >> u & 1 and s.down[u] < s.turn and r.units[u].turn <= s.turn
            )
            g[i + k] = free / max(1, len(ready))
        out = np.concatenate([np.clip(planes, 0.0, 1.0).ravel(), g])
        return out.astype(np.float32, copy=False)


@cache
def _actions_for(rules: Rules) -> MaActionCodec:
    return MaActionCodec(rules)


@cache
def _obs_for(rules: Rules) -> MaObservationCodec:
    return MaObservationCodec(rules)


def max_game_length(rules: Rules) -> int:
    """A loose bound on the actions (chance included) of a game: per game-turn, 14 phases and for
    each unit at most 60 actions (moves, rail, declarations, air, dice, losses, retreats)."""
    return 2 + rules.last_turn * len(PHASES) * len(rules.units) * 60


class MaCodec(CodecBase):
    obs_shape = OBS_SHAPE

    @property
    def num_actions(self) -> int:
        return layout().size

    def actions(self, rules: Rules, /) -> MaActionCodec:
        return _actions_for(rules)

    def observation(self, rules: Rules, /) -> MaObservationCodec:
        return _obs_for(rules)

    def max_game_length(self, rules: Rules, /) -> int:
        return max_game_length(rules)


CODEC = MaCodec(SIDE_NAMES)

__all__ = [
    "CODEC",
    "OBS_SHAPE",
    "MaActionCodec",
    "MaCodec",
    "MaObservationCodec",
    "layout",
    "max_game_length",
]
