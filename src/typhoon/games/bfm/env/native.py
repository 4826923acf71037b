"""The research environments over Battle for Moscow's native core (issue 17).

:class:`NativeStepper` is what :class:`typhoon.env.match.Match` steps when the game's codec
offers one (:meth:`typhoon.games.bfm.env.codec.BfmCodec.native_stepper`): legal codes and the
mask, applying a code, the dice, and the observation tensor all come from the C core
(``typhoon.games.bfm._bfmcore``), with the same values as the pure-Python path
(:mod:`typhoon.games.bfm.env.actions`, :mod:`typhoon.games.bfm.env.observation`); the Python
State is built only when something asks for it. ``stepper_for`` gives None when the core is not
built or ``TYPHOON_NO_NATIVE=1`` is set: the match then keeps to the Python engine.

The core's tables are made here (:func:`tables`), with this action space's codes, so the
short forms live here too: :func:`from_state`, :func:`new_core`, :func:`random_games`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from typhoon.env.codec import EncodingError
from typhoon.games.bfm import native
from typhoon.games.bfm.env import actions as ea
from typhoon.games.bfm.env import observation as ob
from typhoon.games.bfm.env.actions import NUM_ACTIONS, ROLL
from typhoon.games.bfm.rules import GERMAN, SOVIET, Rules
from typhoon.games.bfm.state import State


def action_layout(rules: Rules) -> dict[str, Any]:
    """The codes of :mod:`typhoon.games.bfm.env.actions` in the form the core takes
    (:func:`typhoon.games.bfm.native.table_dict`)."""
    codec = ea.codec_for(rules)
    city_at = {c.hex: i for i, c in enumerate(rules.map.cities)}
    via: list[list[tuple[int, int]]] = []
    for u in range(len(rules.units)):
        rows: list[tuple[int, int]] = []
        base = ea.MOVE_VIA + ea.LAYOUT.via_offset[u]
        for i, (dst_pad, via_pad) in enumerate(ea.LAYOUT.via_tables[ea.LAYOUT.allowance[u]]):
            dst = codec.ed_of[dst_pad]
            cities = 0
            p = via_pad
            while p and dst >= 0:
                low = p & -p
                p ^= low
                h = codec.ed_of[low.bit_length() - 1]
                if h not in city_at:  # a slot off this edition's map, or no city of it
                    dst = -1
                    break
                cities |= 1 << city_at[h]
            if dst >= 0:
                rows.append((dst | (cities << 8), base + i))
        via.append(rows)
    return {
        "pad": list(codec.pad_of),
        "npad": ea.NUM_HEXES,
        "c_end": ea.END_CODE,
        "c_std": ea.SETUP_STANDARD,
        "c_stand": ea.STAND_FAST,
        "c_advnone": ea.ADVANCE_NONE,
        "c_to": ea.TO,
        "c_attack": ea.ATTACK,
        "c_resolve": ea.RESOLVE,
        "c_lose": ea.LOSE,
        "c_advance": ea.ADVANCE,
        "c_restore": ea.RESTORE,
        "c_rshort": ea.RETREAT_SHORT,
        "c_rlong": ea.RETREAT_LONG,
        "n_rlong": ea.RETREAT_LONG_SLOTS,
        "via": via,
    }


@lru_cache(maxsize=32)
def tables(rules: Rules) -> Any:
    """The core's tables of a ruleset, in this action space (made once, shared)."""
    return native.make_tables(rules, action_layout(rules))


def from_state(s: State) -> Any:
    """A native core at the position of ``s`` (which is not changed)."""
    if not isinstance(s, State):
        raise TypeError(f"a Battle for Moscow State is expected, not {type(s).__name__}")
    return native.core_at(tables(s.rules), s)


def new_core(rules: Rules) -> Any:
    """A native core at the start of a new game (the Soviet set-up)."""
    return native.core_new(tables(rules))


def random_games(rules: Rules, n: int, seed: int = 0) -> native.Outcomes:
    """``n`` whole random games, fully native (see :func:`typhoon.games.bfm.native.random_games`)."""
    return native.random_games(tables(rules), n, seed)


@lru_cache(maxsize=32)
def _tables(rules: Rules) -> Any:
    """The tables with the observation layout handed over as well."""
    t = tables(rules)
    oc = ob.obs_codec_for(rules)
    ch = ob.CH
    if ob._UNIT_PLANES != ("unit", "full", "strength", "move", "done"):
        raise EncodingError("the observation's unit planes changed: the native core needs updating")
    rows = (
        *("zoc_german", "zoc_soviet", "city_german", "city_soviet", "must_move", "movable"),
        *("battle_defender", "battle_attacker", "current_defender", "current_attacker"),
    )
    if [ch[r] for r in rows] != list(range(ch["zoc_german"], ch["zoc_german"] + len(rows))):
        raise EncodingError("the observation's hex-set planes changed: the native core needs updating")
    if ch["german_unit"] + 5 != ch["soviet_unit"]:
        raise EncodingError("the observation's unit planes moved: the native core needs updating")
    first = ob.FIRST_GLOBAL
    sides = [oc.side_count[GERMAN], oc.side_count[SOVIET], *oc.side_range[GERMAN], *oc.side_range[SOVIET]]
    t.set_observation(
        {
            "nch": ob.NUM_CHANNELS,
            "ch_unit": ch["german_unit"],
            "ch_rows": ch["zoc_german"],
            "first_global": first,
            "g_turn": oc.g_turn,
            "g_phase": oc.g_phase,
            "g_step": oc.g_step,
            "g_mud": oc.g_mud,
            "g_to_act": oc.g_to_act,
            "g_observer": oc.g_observer,
            "g_repl": oc.g_repl,
            "g_vpg": oc.g_vpg,
            "g_odds": oc.g_odds,
            "g_result": oc.g_result,
            "g_owed": oc.g_owed,
            "g_due": oc.g_due,
            "g_arrived": oc.g_arrived,
            "g_off": oc.g_off,
            "vpg": oc.vpg,
            "strength_scale": ob.STRENGTH_SCALE,
            "move_scale": ob.MOVE_SCALE,
            "repl_scale": ob.REPLACEMENT_SCALE,
            "odds_scale": 6.0,
            "sides": sides,
            "template": np.ascontiguousarray(oc.template, dtype=np.float32).tobytes(),
        }
    )
    return t


class NativeStepper:
    """One position of the native core, as a :class:`~typhoon.env.match.Match` steps it."""

    size = NUM_ACTIONS

    def __init__(self, rules: Rules):
        self.rules = rules
        self.tables = _tables(rules)
        self.core: Any = None

    def load(self, s: State) -> None:
        """Take the position of a Python State."""
        self.core = native.core_at(self.tables, s)

    def state(self) -> State:
        """The position as a Python State (a fresh one)."""
        return native.to_state(self.core, self.rules)

    def current_player(self) -> int:
        return int(self.core.current_player())

    @property
    def over(self) -> bool:
        return bool(self.core.result >= 0)

    def legal_codes(self) -> npt.NDArray[np.int64]:
        """The legal codes, ascending (the same set as the codec's ``legal_codes``)."""
        return np.array(sorted(self.core.legal_codes()), dtype=np.int64)

    def mask(self) -> npt.NDArray[np.int8]:
        m = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self.core.legal_mask(m)
        return m

    def apply(self, code: int) -> None:
        """Apply a legal code (then every forced decision); EncodingError if it is not legal."""
        try:
            self.core.apply(int(code))
        except ValueError:
            raise EncodingError(f"action code {code} is not legal here") from None

    def roll(self, index: int) -> int:
        """Roll the die with this outcome index (0 for a 1) at a chance node; returns its code."""
        self.apply(ROLL + index)
        return ROLL + index

    def chance_count(self) -> int:
        return int(self.core.num_legal())

    def observe(self, observer: int) -> npt.NDArray[np.float32]:
        out = np.empty(ob.OBS_SHAPE, dtype=np.float32)
        self.core.observe(out, observer)
        return out


def stepper_for(rules: Rules) -> NativeStepper | None:
    """A native stepper for the rules, or None when the core cannot be used."""
    if not native.available():
        return None
    return NativeStepper(rules)


__all__ = [
    "NativeStepper",
    "action_layout",
    "from_state",
    "new_core",
    "random_games",
    "stepper_for",
    "tables",
]
