"""The tiny game's research codec (typhoon.env.codec.EnvCodec), written against the env
contract only: what the PettingZoo, Gymnasium and OpenSpiel environments need from a game.

Action codes: ``0..5`` the die rolls 1..6 (chance; OpenSpiel's outcome ids), ``6`` end,
``7 + 2u + d`` unit ``u`` moves left (d=0) or right (d=1), ``15 + 2u + d`` it attacks there.
Observation (6 x 5 hexes): the observer's units, the other side's, the observer to act, the
turn (as a fraction of the last), the attacker and the defender of a battle awaiting its die.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from typhoon.env.codec import CodecBase, EncodingError, MaskedCodec

from .engine import ROLLS, Attack, End, Move, State, legal_actions
from .notation import action_to_text
from .rules import HEXES, SIDE_NAMES, SIDE_OF, UNITS, Rules

END, MOVE, ATTACK = 6, 7, 15
SIZE = ATTACK + 2 * len(UNITS)
OBS_SHAPE = (6, len(HEXES))


class TinyActions(MaskedCodec):
    size = SIZE
    _legal_actions = staticmethod(legal_actions)

    def encode(self, s: State, a: Any) -> int:
        if a.kind == "roll":
            return int(a.die) - 1
        if a.kind == "end":
            return END
        u = UNITS.index(a.unit)
        there = HEXES.index(a.dst if a.kind == "move" else a.target)
        d = 1 if there > s.loc[u] else 0
        return (MOVE if a.kind == "move" else ATTACK) + 2 * u + d

    def legal_codes(self, s: State) -> npt.NDArray[np.int64]:
        return np.array([self.encode(s, a) for a in legal_actions(s)], dtype=np.int64)

    def decode(self, s: State, code: int) -> Any:
        if 0 <= code < END:
            return ROLLS[code]
        if code == END:
            return End()
        if END < code < SIZE:
            base = MOVE if code < ATTACK else ATTACK
            u, d = divmod(code - base, 2)
            h = s.loc[u] + (1 if d else -1)
            if s.loc[u] >= 0 and 0 <= h < len(HEXES):
                return (Move if base == MOVE else Attack)(UNITS[u], HEXES[h])
        raise EncodingError(f"action code {code} means nothing here")

    def text(self, s: State, code: int) -> str:
        return action_to_text(self.decode(s, code))


class TinyObservation:
    def observe(self, s: State, side: int) -> npt.NDArray[np.float32]:
        o = np.zeros(OBS_SHAPE, dtype=np.float32)
        for u, h in enumerate(s.loc):
            if h >= 0:
                o[0 if SIDE_OF[u] == side else 1, h] = 1.0
        o[2, :] = float(s.current_player() == side)
        o[3, :] = s.turn / s.rules.last_turn
        if s.pending is not None:
            o[4, s.loc[s.pending[0]]] = 1.0
            o[5, s.loc[s.pending[1]]] = 1.0
        return o


class TinyCodec(CodecBase):
    num_actions = SIZE
    obs_shape = OBS_SHAPE

    def actions(self, rules: Rules, /) -> TinyActions:
        return TinyActions()

    def observation(self, rules: Rules, /) -> TinyObservation:
        return TinyObservation()

    def max_game_length(self, rules: Rules, /) -> int:
        return 4 * rules.last_turn  # per side and turn: one action, and a die if it attacks


CODEC = TinyCodec(SIDE_NAMES)

__all__ = ["CODEC", "OBS_SHAPE", "SIZE", "TinyCodec"]
