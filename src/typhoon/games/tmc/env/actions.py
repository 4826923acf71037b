"""A fixed-size integer action space for The Moscow Campaign, the same for all 24 scenarios.

Every engine action (:mod:`typhoon.games.tmc.actions`) legal in a state has exactly one integer
code in ``range(NUM_ACTIONS)``, distinct from the codes of the other legal actions of that
state, so the legal-action mask is exact (``mask.sum() == len(legal_actions(state))``), and
:meth:`TmcActionCodec.decode` inverts :meth:`TmcActionCodec.encode` on the legal actions.
Layout (sizes for the bundled map and counter catalogue; ``describe_layout()`` lists them):

=================  ==========================  ===============================================
block              size                        meaning
=================  ==========================  ===============================================
``ROLL``           6                           die roll 1..6 (chance; OpenSpiel outcome ids)
``END``            1                           end the step / phase / attack being declared
``SETUP_STANDARD`` 1                           the side's standard set-up
``IGNORE``         2                           declare the ignorable result ignored: yes, no
``ADVANCE_NONE``   1                           stop advancing
``ODDS``           12                          resolve on CRT column k (1-2 .. 11-1)
``PLACE``          4,914                       set the next unit up on hex h (dense hex index)
``MOVE``           sum over units of           move leg: unit x destination offset within the
                   3r(r+1), r = unit's radius  unit's radius (its largest possible MA)
``ENTER``          German units x 37           German reinforcement enters on entry hex k
``ARRIVE``         Soviet units x 4            Soviet reinforcement arrives on east rail hex k
``ENTRAIN``        Soviet units                entrain
``DETRAIN``        Soviet units                detrain
``RAIL``           Soviet units x 912          rail move: Soviet unit to rail hex j
``RELOCATE``       12 x 912                    Soviet EB unit k relocated to rail hex j
``OVERRUN``        units x 6 x 8               overrun: lowest-numbered member u, target in
                                               direction d from u, r-th such group (ranked by
                                               its members' numbers) among this state's legal
                                               overruns
``JOIN``           units x 6                   unit joins the pending overrun in direction d
``ATTACK``         units x 6                   unit joins / opens the attack on direction d
``ATTACK_HEX``     6                           the attack being built also takes the hex in
                                               direction d of its first attacker
``LOSE``           units                       attacker eliminated toward a loss quota
``DISRUPT``        units                       attacker disrupted toward a De,Ad quota
``RETREAT``        units x 6                   unit retreats to its neighbour in direction d
``ADVANCE``        units x 6                   unit advances to its neighbour in direction d
=================  ==========================  ===============================================

Units are the 301 counters of ``units.json`` that are not Kampfgruppe counters, in catalogue
order (a KG is a flag on the unit it replaces); "German units" / "Soviet units" are that list
split by side, "Soviet EB units" its 12 EB counters. Hexes are numbered densely,
``(column - 1) * 63 + (row - 1)``. Directions are the grid's N, NE, SE, S, SW, NW. A move's
destination is an offset in axial hex coordinates inside the disc of the unit's radius
(printed MA, or 8 for a German mechanised unit of CF 4+ that may become a KG, §8): a leg costs
at least 1 MP a hex and never exceeds the printed MA, and the one-hex minimum ([Q4]) is one
hex. Limits (``EncodingError`` if ever exceeded; never seen in the random-play measurements of
docs/RESEARCH.md): 8 minimal overrun groups sharing a lowest member and a target.

Only numpy is needed here (no gymnasium, pettingzoo or pyspiel).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from typhoon.env.codec import BlockLayout, EncodingError, MaskedCodec, PartCodes
from typhoon.games.driver import LazyLegal, LazyPart
from typhoon.games.tmc.actions import (
    END,
    ROLLS,
    SETUP_STANDARD,
    Action,
    Advance,
    Arrive,
    Attack,
    Detrain,
    Disrupt,
    Enter,
    Entrain,
    Ignore,
    JoinOverrun,
    Lose,
    Move,
    Odds,
    Overrun,
    Place,
    RailMove,
    Relocate,
    Retreat,
)
from typhoon.games.tmc.engine import legal_actions
from typhoon.games.tmc.movement_phase import Reach
from typhoon.games.tmc.rules import GERMAN, KG_MA, SOVIET, Rules
from typhoon.games.tmc.setup_phase import place_part_hexes
from typhoon.games.tmc.state import State
from typhoon.hexgrid import HexGrid, bit_list

NUM_DIRECTIONS = 6
OVERRUN_RANKS = 8
_CACHE_LIMIT = 400_000  # codes remembered by value
# Kinds whose code depends on the action alone (not on where units stand): cached by value.
_STATELESS = frozenset(
    {"move", "railmove", "place", "enter", "arrive", "entrain", "detrain", "relocate", "roll", "end"}
    | {"setupstandard", "ignore", "odds", "lose", "disrupt"}
)


def axial(grid: HexGrid, h: int) -> tuple[int, int]:
    """Axial coordinates (q, r) of hex index ``h`` (odd-q layout: 1-based even columns low)."""
    c, r = grid.coords[h]
    q = c - 1
    if grid.shifted_down == "even":
        return q, (r - 1) - (q - (q & 1)) // 2
    return q, (r - 1) - (q + (q & 1)) // 2


def disc(radius: int) -> tuple[tuple[int, int], ...]:
    """The axial offsets (dq, dr) at distance 1..radius, in a fixed order (3r(r+1) of them)."""
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            if dq or dr:
                out.append((dq, dr))
    return tuple(out)


@dataclass(frozen=True)
class TmcLayout(BlockLayout):
    """Where each kind of action lives in the integer space (see the module docstring)."""

    units: tuple[str, ...]  # slot -> counter id
    sides: tuple[int, ...]
    radius: tuple[int, ...]
    move_offset: tuple[int, ...]  # slot -> first code of its moves, relative to MOVE
    side_rank: tuple[int, ...]  # slot -> index among its side's counters
    eb_rank: dict[int, int]  # Soviet EB slot -> index among them
    hex_ids: tuple[str, ...]  # dense hex -> CCRR
    entry_german: tuple[str, ...]  # CCRR of the German entry hexes (ENTER's k)
    entry_soviet: tuple[str, ...]  # CCRR of the Soviet arrival hexes (ARRIVE's k)
    rail: tuple[str, ...]  # CCRR of the rail hexes (RAIL's / RELOCATE's j)
    columns: tuple[str, ...]  # CRT columns
    blocks: dict[str, tuple[int, int]]
    size: int


@lru_cache(maxsize=1)
def layout() -> TmcLayout:
    """The layout for the bundled map, counters and CRT (built once, about 0.3 s)."""
    from typhoon.games.tmc.combat import load_crt
    from typhoon.games.tmc.oob import load_units
    from typhoon.games.tmc.tmcmap import load_map

    m = load_map()
    grid = m.grid
    cat = load_units()
    specs = [u for u in cat.units.values() if u.type != "kg"]
    units = tuple(u.id for u in specs)
    sides = tuple(GERMAN if u.side == "german" else SOVIET for u in specs)
    radius = tuple(
        max(u.ma, KG_MA) if (u.side == "german" and u.mechanised and u.cf >= 4 and u.type != "eb") else u.ma
        for u in specs
    )
    counts = [0, 0]
    side_rank = []
    for s in sides:
        side_rank.append(counts[s])
        counts[s] += 1
    eb_rank: dict[int, int] = {}
    for i, u in enumerate(specs):
        if u.side == "soviet" and u.type == "eb":
            eb_rank[i] = len(eb_rank)
    hex_ids = tuple(grid.ids[h] for h in sorted(grid.hexes, key=lambda h: grid.coords[h]))
    entry_german = tuple(grid.ids[h] for h in sorted(bit_list(m.german_entry), key=lambda h: grid.coords[h]))
    entry_soviet = tuple(grid.ids[h] for h in m.soviet_entry)
    rail = tuple(grid.ids[h] for h in sorted(bit_list(m.rail_mask), key=lambda h: grid.coords[h]))
    columns = tuple(load_crt().columns)
    nu = len(units)
    n_g, n_s = counts
    blocks: dict[str, tuple[int, int]] = {}
    pos = 0
    move_offset = []
    move_total = 0
    for r in radius:
        move_offset.append(move_total)
        move_total += 3 * r * (r + 1)
    for name, n in (
        ("ROLL", 6),
        ("END", 1),
        ("SETUP_STANDARD", 1),
        ("IGNORE", 2),
        ("ADVANCE_NONE", 1),
        ("ODDS", len(columns)),
        ("PLACE", len(hex_ids)),
        ("MOVE", move_total),
        ("ENTER", n_g * len(entry_german)),
        ("ARRIVE", n_s * len(entry_soviet)),
        ("ENTRAIN", n_s),
        ("DETRAIN", n_s),
        ("RAIL", n_s * len(rail)),
        ("RELOCATE", len(eb_rank) * len(rail)),
        ("OVERRUN", nu * NUM_DIRECTIONS * OVERRUN_RANKS),
        ("JOIN", nu * NUM_DIRECTIONS),
        ("ATTACK", nu * NUM_DIRECTIONS),
        ("ATTACK_HEX", NUM_DIRECTIONS),
        ("LOSE", nu),
        ("DISRUPT", nu),
        ("RETREAT", nu * NUM_DIRECTIONS),
        ("ADVANCE", nu * NUM_DIRECTIONS),
    ):
        blocks[name] = (pos, n)
        pos += n
    return TmcLayout(
        units,
        sides,
        radius,
        tuple(move_offset),
        tuple(side_rank),
        eb_rank,
        hex_ids,
        entry_german,
        entry_soviet,
        rail,
        columns,
        blocks,
        pos,
    )


def describe_layout() -> list[tuple[str, int, int]]:
    """(block, first code, size) for every block of the action space."""
    return [(name, start, n) for name, (start, n) in layout().blocks.items()]


def num_actions() -> int:
    return layout().size


class TmcActionCodec(MaskedCodec):
    """Encodes and decodes the actions of one scenario (with options) in the common space.
    Build with :func:`tmc_codec_for`; one codec is shared by every state of its rules."""

    _legal_actions = staticmethod(legal_actions)

    def __init__(self, rules: Rules):
        L = layout()
        self.layout = L
        self.rules = rules
        self.size = L.size
        self.b = {name: start for name, (start, _) in L.blocks.items()}
        grid = rules.grid
        self.grid = grid
        if tuple(grid.ids[h] for h in sorted(grid.hexes, key=lambda h: grid.coords[h])) != L.hex_ids:
            raise EncodingError(f"scenario {rules.edition}: the map differs from the action layout's")
        self.dense = {hid: i for i, hid in enumerate(L.hex_ids)}
        self._dense_by_index: npt.NDArray[np.int64] | None = None  # grid index -> dense, -1 if none
        self._lazy_memo: dict[int, tuple[LazyPart, npt.NDArray[np.int64]]] = {}  # see _lazy_codes
        self._disc_tabs: Any = None  # see _make_disc_tabs
        self.ax = {grid.ids[h]: axial(grid, h) for h in grid.hexes}
        self.at_ax = {v: k for k, v in self.ax.items()}
        self.slot_of_id = {uid: i for i, uid in enumerate(L.units)}
        # rules unit index -> slot
        slots = []
        for u in rules.units:
            sl = self.slot_of_id.get(u.id)
            if sl is None:
                raise EncodingError(f"scenario {rules.edition}: unit {u.id} is not in the action layout")
            if max(u.ma, KG_MA if u.kg_capable else 0) > L.radius[sl]:
                raise EncodingError(f"scenario {rules.edition}: {u.id} moves farther than its layout radius")
            slots.append(sl)
        self.slot = tuple(slots)
        self.rules_of_slot = {sl: u for u, sl in enumerate(slots)}
        self.disc_index = {r: {off: i for i, off in enumerate(disc(r))} for r in set(L.radius)}
        self.disc_list = {r: disc(r) for r in set(L.radius)}
        self.entry_g = {hid: i for i, hid in enumerate(L.entry_german)}
        self.entry_s = {hid: i for i, hid in enumerate(L.entry_soviet)}
        self.rail_rank = {hid: i for i, hid in enumerate(L.rail)}
        self.nbd = grid.neighbours_by_dir
        self.n_entry_g = len(L.entry_german)
        self.n_entry_s = len(L.entry_soviet)
        self.n_rail = len(L.rail)
        self.side_slots = tuple(tuple(sl for sl, sd in enumerate(L.sides) if sd == side) for side in (0, 1))
        self._move_codes: dict[Any, int] = {}  # codes of _STATELESS kinds, by value
        self._parts = PartCodes()  # codes of the engine's per-unit lists, by identity
        self._by_kind = {
            "move": self._move,
            "roll": lambda s, a, x: self.b["ROLL"] + a.die - 1,
            "end": lambda s, a, x: self.b["END"],
            "setupstandard": lambda s, a, x: self.b["SETUP_STANDARD"],
            "ignore": lambda s, a, x: self.b["IGNORE"] + (0 if a.accept else 1),
            "odds": self._odds,
            "place": lambda s, a, x: self.b["PLACE"] + self._dense(a.hex),
            "enter": self._enter,
            "arrive": self._arrive,
            "entrain": lambda s, a, x: self.b["ENTRAIN"] + self._side_rank(a.unit, SOVIET),
            "detrain": lambda s, a, x: self.b["DETRAIN"] + self._side_rank(a.unit, SOVIET),
            "railmove": self._railmove,
            "relocate": self._relocate,
            "overrun": self._overrun,
            "join": lambda s, a, x: self.b["JOIN"] + self._unit_dir(s, a.unit, a.hex),
            "attack": self._attack,
            "lose": lambda s, a, x: self.b["LOSE"] + self._slot(a.unit),
            "disrupt": lambda s, a, x: self.b["DISRUPT"] + self._slot(a.unit),
            "retreat": lambda s, a, x: self.b["RETREAT"] + self._unit_dir(s, a.unit, a.hex),
            "advance": self._advance,
        }

    # -- pieces ------------------------------------------------------------------------------

    def _slot(self, uid: str) -> int:
        sl = self.slot_of_id.get(uid)
        if sl is None:
            raise EncodingError(f"there is no unit {uid}")
        return sl

    def _side_rank(self, uid: str, side: int) -> int:
        sl = self._slot(uid)
        if self.layout.sides[sl] != side:
            raise EncodingError(f"{uid} is not a {('German', 'Soviet')[side]} unit")
        return self.layout.side_rank[sl]

    def _dense(self, hid: str) -> int:
        d = self.dense.get(hid)
        if d is None:
            raise EncodingError(f"{hid} is not a hex of the map")
        return d

    def _index(self, hid: str) -> int:
        h = self.grid.index.get(hid, -1)
        if h < 0:
            raise EncodingError(f"{hid} is not a hex of the map")
        return h

    def _dir(self, src: int, dst_hid: str) -> int:
        dst = self._index(dst_hid)
        row = self.nbd[src]
        if src < 0 or dst not in row:
            raise EncodingError(
                f"{dst_hid} is not next to {self.grid.ids[src] if src >= 0 else 'an off-map unit'}"
            )
        return row.index(dst)

    def _loc(self, s: State, uid: str) -> int:
        u = s.rules.unit_index.get(uid, -1)
        if u < 0:
            raise EncodingError(f"there is no unit {uid} in scenario {s.rules.edition}")
        return s.loc[u]

    def _unit_dir(self, s: State, uid: str, hid: str) -> int:
        return self._slot(uid) * NUM_DIRECTIONS + self._dir(self._loc(s, uid), hid)

    # -- kinds -------------------------------------------------------------------------------

    def _move(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        code = self._move_codes.get(a)
        if code is None:
            sl = self._slot(a.unit)
            if a.src not in self.ax or a.dst not in self.ax:
                raise EncodingError(f"move {a.src}-{a.dst}: not hexes of the map")
            q0, r0 = self.ax[a.src]
            q1, r1 = self.ax[a.dst]
            rad = self.layout.radius[sl]
            i = self.disc_index[rad].get((q1 - q0, r1 - r0))
            if i is None:
                raise EncodingError(f"move of {a.unit} {a.src}-{a.dst} is beyond its radius {rad}")
            code = self.b["MOVE"] + self.layout.move_offset[sl] + i
            self._remember(a, code)
        return code

    def _remember(self, a: Any, code: int) -> None:
        if len(self._move_codes) >= _CACHE_LIMIT:  # pragma: no cover - bounded memory
            self._move_codes.clear()
        self._move_codes[a] = code

    def _odds(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        try:
            return self.b["ODDS"] + self.layout.columns.index(a.column)
        except ValueError:
            raise EncodingError(f"no CRT column {a.column}") from None

    def _enter(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        k = self.entry_g.get(a.hex)
        if k is None:
            raise EncodingError(f"{a.hex} is not a German entry hex")
        return self.b["ENTER"] + self._side_rank(a.unit, GERMAN) * self.n_entry_g + k

    def _arrive(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        k = self.entry_s.get(a.hex)
        if k is None:
            raise EncodingError(f"{a.hex} is not a Soviet arrival hex")
        return self.b["ARRIVE"] + self._side_rank(a.unit, SOVIET) * self.n_entry_s + k

    def _rail_j(self, hid: str) -> int:
        j = self.rail_rank.get(hid)
        if j is None:
            raise EncodingError(f"{hid} is not a rail hex")
        return j

    def _railmove(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        code = self._move_codes.get(a)
        if code is None:
            code = self.b["RAIL"] + self._side_rank(a.unit, SOVIET) * self.n_rail + self._rail_j(a.dst)
            self._remember(a, code)
        return code

    def _relocate(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        k = self.layout.eb_rank.get(self._slot(a.unit))
        if k is None:
            raise EncodingError(f"{a.unit} is not a Soviet EB unit")
        return self.b["RELOCATE"] + k * self.n_rail + self._rail_j(a.hex)

    def _overrun_key(self, s: State, a: Overrun) -> tuple[int, int, tuple[int, ...]]:
        slots = tuple(sorted(self._slot(uid) for uid in a.units))
        if not slots:
            raise EncodingError("an overrun needs units")
        lead = slots[0]
        return lead, self._dir(self._loc(s, self.layout.units[lead]), a.hex), slots

    def overrun_ranks(self, s: State) -> dict[Overrun, int]:
        """The code offsets (within OVERRUN) of this state's legal overrun declarations."""
        groups: dict[tuple[int, int], list[tuple[tuple[int, ...], Overrun]]] = {}
        for a in legal_actions(s):
            if isinstance(a, Overrun):
                lead, d, slots = self._overrun_key(s, a)
                groups.setdefault((lead, d), []).append((slots, a))
        out: dict[Overrun, int] = {}
        for (lead, d), items in groups.items():
            items.sort(key=lambda t: t[0])
            if len(items) > OVERRUN_RANKS:
                raise EncodingError(
                    f"more than {OVERRUN_RANKS} overrun groups led by {self.layout.units[lead]} "
                    "against one hex (see docs/RESEARCH.md)"
                )
            for r, (_, a) in enumerate(items):
                out[a] = (lead * NUM_DIRECTIONS + d) * OVERRUN_RANKS + r
        return out

    def _overrun(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        if s is None:
            raise EncodingError("overruns are encoded relative to a state")
        ranks = x.get("overrun")
        if ranks is None:
            ranks = x["overrun"] = self.overrun_ranks(s)
        off = ranks.get(a)
        if off is None:
            raise EncodingError(f"overrun of {a.hex} by {','.join(a.units)} is not legal here")
        return self.b["OVERRUN"] + off

    def _draft(self, s: State) -> Any:
        from typhoon.games.tmc.combat_phase import data

        d = data(s).draft if s.rules.phases[s.phase].kind == "combat" else None
        if d is None:
            raise EncodingError("no attack is being declared")
        return d

    def _attack(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        if s is None:
            raise EncodingError("attacks are encoded relative to a state")
        if a.units:
            if len(a.units) != 1:
                raise EncodingError("attack declarations name one unit at a time")
            return self.b["ATTACK"] + self._unit_dir(s, a.units[0], a.target)
        first = self._draft(s).attackers[0]
        return self.b["ATTACK_HEX"] + self._dir(s.loc[first], a.target)

    def _advance(self, s: State | None, a: Any, x: dict[str, Any]) -> int:
        if a.unit is None:
            return self.b["ADVANCE_NONE"]
        if s is None:
            raise EncodingError("advances are encoded relative to a state")
        return self.b["ADVANCE"] + self._unit_dir(s, a.unit, a.hex)

    # -- public ------------------------------------------------------------------------------

    def encode(self, s: State, a: Action) -> int:
        """The code of action ``a`` in state ``s`` (attacks, retreats, advances, rail moves
        and overruns are relative to the units' positions)."""
        fn = self._by_kind.get(getattr(a, "kind", ""))
        if fn is None:
            raise EncodingError(f"not an action: {a!r}")
        return int(fn(s, a, {}))

    def legal_codes(self, s: State) -> npt.NDArray[np.int64]:
        """The codes of ``legal_actions(s)``, in the same order (distinct by construction)."""
        acts = legal_actions(s)
        if not acts:
            return np.zeros(0, dtype=np.int64)
        if isinstance(acts, LazyLegal):
            if s.rules.phases[s.phase].kind != "setup":
                return self._lazy_codes(s, acts)
            got = self._setup_codes(s, acts)
            if got is not None:
                return got
        # A movement listing is a LazyLegal (or LegalList) whose parts are the units' memoised
        # lists (moves, rail actions, relocations): their codes are kept by the part's identity.
        got = self._parts.codes(acts, self._part_codes, lambda rest: self._codes(s, rest))
        if got is not None:
            return got
        return np.array(self._codes(s, acts), dtype=np.int64)

    def _lazy_codes(self, s: State, acts: LazyLegal) -> npt.NDArray[np.int64]:
        """The codes of a lazy movement listing: each part's codes kept under the part's
        identity (the engine keeps a unit's part unchanged while it lives); a part of moves
        coded from its reach's destinations without making the actions."""
        memo = self._lazy_memo
        if len(memo) > 20_000:
            memo.clear()
        arrays = []
        for p in acts.lazy_parts:
            got = memo.get(id(p))
            if got is None or got[0] is not p:
                arr = self._move_part_codes(p) if isinstance(p.data, Reach) else None
                if arr is None:
                    arr = np.array(self._part_codes(p.get()), dtype=np.int64)
                got = memo[id(p)] = (p, arr)
            arrays.append(got[1])
        if acts.tail:
            arrays.append(np.array(self._codes(s, acts.tail), dtype=np.int64))
        if not arrays:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate(arrays) if len(arrays) > 1 else arrays[0].copy()

    def _move_part_codes(self, p: LazyPart) -> npt.NDArray[np.int64] | None:
        """The codes of a unit's moves (``p.data`` its Reach, ``p.arg`` the full hexes left
        out) from the destinations' axial offsets (None: a unit or offset the layout lacks,
        then the actions are made and coded the checked way)."""
        sl = self.slot_of_id.get(p.key)
        if sl is None:
            return None
        r: Reach = p.data
        full: int = p.arg
        dsts = r.dsts
        if r.dmask() & full:
            dsts = [d for d in dsts if not (full >> d) & 1]
        tabs = self._disc_tabs
        if tabs is None:
            tabs = self._disc_tabs = self._make_disc_tabs()
        qa, ra, tab_of = tabs
        rad = self.layout.radius[sl]
        tab = tab_of[rad]
        d = np.array(dsts, dtype=np.int64)
        dq = qa[d] - qa[r.start] + rad
        dr = ra[d] - ra[r.start] + rad
        w = 2 * rad
        if dq.min() < 0 or dr.min() < 0 or dq.max() > w or dr.max() > w:
            return None
        idx = tab[dq, dr]
        if (idx < 0).any():
            return None
        return idx + (self.b["MOVE"] + self.layout.move_offset[sl])

    def _make_disc_tabs(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], dict[int, npt.NDArray[np.int64]]]:
        """Axial q and r by grid index, and per radius the disc index by offset (+radius), -1
        off the disc."""
        grid = self.grid
        qa = np.zeros(grid.size, dtype=np.int64)
        ra = np.zeros(grid.size, dtype=np.int64)
        for h in grid.hexes:
            qa[h], ra[h] = self.ax[grid.ids[h]]
        tab_of = {}
        for rad, di in self.disc_index.items():
            tab = np.full((2 * rad + 1, 2 * rad + 1), -1, dtype=np.int64)
            for (oq, orr), i in di.items():
                tab[oq + rad, orr + rad] = i
            tab_of[rad] = tab
        return qa, ra, tab_of

    def _setup_codes(self, s: State, acts: LazyLegal) -> npt.NDArray[np.int64] | None:
        """The codes of a set-up listing, its Place actions coded from the hexes without
        making them (None if a hex has no code: the checked way then says why)."""
        dense = self._dense_by_index
        if dense is None:
            ids = self.grid.ids
            dense = self._dense_by_index = np.array([self.dense.get(h, -1) for h in ids], dtype=np.int64)
        arrays = []
        for p in acts.lazy_parts:
            hexes = place_part_hexes(p)
            if hexes is None:
                arrays.append(np.array(self._codes(s, p.get()), dtype=np.int64))
                continue
            d = dense[hexes]
            if (d < 0).any():
                return None
            arrays.append(d + self.b["PLACE"])
        if acts.tail:
            arrays.append(np.array(self._codes(s, acts.tail), dtype=np.int64))
        return np.concatenate(arrays) if len(arrays) > 1 else arrays[0]

    def _part_codes(self, part: Sequence[Action]) -> list[int]:
        """The codes of a part of a legal list: stateless kinds only (coded by value). A part
        is one unit's list: its moves (one source hex), its rail moves (one source hex; then
        detrain) or its relocations, worked out here without the by-value memo (anything
        else, or anything a table lacks, goes the checked way: ``_value_codes``)."""
        try:
            got = self._part_fast(part)
        except KeyError:
            got = None
        return self._value_codes(part) if got is None else got

    def _part_fast(self, part: Sequence[Any]) -> list[int] | None:
        first = part[0]
        kind0 = first[-1]
        uid = first[0]
        if kind0 == "relocate":
            k = self.layout.eb_rank.get(self.slot_of_id[uid])
            if k is None or not all(a[-1] == "relocate" and a[0] == uid for a in part):
                return None
            base = self.b["RELOCATE"] + k * self.n_rail
            rr = self.rail_rank
            return [base + rr[a[1]] for a in part]
        if kind0 != "move" and kind0 != "railmove":
            return None
        src = first[1]
        n = 0
        for a in part:
            if a[-1] != kind0 or a[1] != src or a[0] != uid:
                break
            n += 1
        head = part[:n] if n < len(part) else part
        sl = self.slot_of_id[uid]
        if kind0 == "move":
            base = self.b["MOVE"] + self.layout.move_offset[sl]
            ax = self.ax
            q0, r0 = ax[src]
            di = self.disc_index[self.layout.radius[sl]]
            out = [base + di[(ax[a[2]][0] - q0, ax[a[2]][1] - r0)] for a in head]
        else:
            if self.layout.sides[sl] != SOVIET:
                return None
            base = self.b["RAIL"] + self.layout.side_rank[sl] * self.n_rail
            rr = self.rail_rank
            out = [base + rr[a[2]] for a in head]
        return out + self._value_codes(part[n:]) if n < len(part) else out

    def _value_codes(self, part: Sequence[Action]) -> list[int]:
        by = self._by_kind
        out = []
        for a in part:
            kind = a[-1]  # type: ignore[index]
            if kind not in _STATELESS:
                raise EncodingError(f"a legal list's part holds a state-relative action: {a!r}")
            code = self._move_codes.get(a)
            if code is None:
                code = by[kind](None, a, {})
                self._remember(a, code)
            out.append(code)
        return out

    def _codes(self, s: State, acts: Sequence[Action]) -> list[int]:
        by = self._by_kind
        x: dict[str, Any] = {}
        # Stateless kinds by value from the cache (state-relative kinds are never stored).
        cached: Any = self._move_codes.get
        codes: list[int | None] = list(map(cached, acts))
        if None in codes:
            for i, c in enumerate(codes):
                if c is None:
                    a = acts[i]
                    kind = a[-1]  # type: ignore[index]
                    fn = by.get(kind)
                    if fn is None:
                        raise EncodingError(f"the action space has no block for {a!r}")
                    code = codes[i] = fn(s, a, x)
                    if kind in _STATELESS:
                        self._remember(a, code)
        return codes  # type: ignore[return-value]

    def decode(self, s: State, code: int) -> Action:
        """The engine action with this code in state ``s`` (whether or not it is legal there;
        :meth:`legal_action` is the checked lookup)."""
        code = int(code)
        L = self.layout
        name = L.block_of(code)
        rel = code - self.b[name]
        ids = self.grid.ids
        if name == "ROLL":
            return ROLLS[rel]
        if name == "END":
            return END
        if name == "SETUP_STANDARD":
            return SETUP_STANDARD
        if name == "IGNORE":
            return Ignore(rel == 0)
        if name == "ADVANCE_NONE":
            return Advance(None, "")
        if name == "ODDS":
            return Odds(L.columns[rel])
        if name == "PLACE":
            from typhoon.games.tmc.setup_phase import next_unit

            if s.rules.phases[s.phase].kind != "setup" or next_unit(s) < 0:
                raise EncodingError(f"code {code}: no unit is being set up")
            return Place(s.rules.units[next_unit(s)].id, L.hex_ids[rel])
        if name == "MOVE":
            sl = bisect.bisect_right(L.move_offset, rel) - 1
            uid = L.units[sl]
            src = self._loc(s, uid)
            if src < 0:
                raise EncodingError(f"code {code}: {uid} is not on the map")
            dq, dr = self.disc_list[L.radius[sl]][rel - L.move_offset[sl]]
            q, r = self.ax[ids[src]]
            dst = self.at_ax.get((q + dq, r + dr))
            if dst is None:
                raise EncodingError(f"code {code}: that destination is off the map")
            return Move(uid, ids[src], dst)
        if name == "ENTER":
            k, e = divmod(rel, self.n_entry_g)
            return Enter(self._side_unit(GERMAN, k), L.entry_german[e])
        if name == "ARRIVE":
            k, e = divmod(rel, self.n_entry_s)
            return Arrive(self._side_unit(SOVIET, k), L.entry_soviet[e])
        if name in ("ENTRAIN", "DETRAIN"):
            uid = self._side_unit(SOVIET, rel)
            return Entrain(uid) if name == "ENTRAIN" else Detrain(uid)
        if name == "RAIL":
            k, j = divmod(rel, self.n_rail)
            uid = self._side_unit(SOVIET, k)
            src = self._loc(s, uid)
            if src < 0:
                raise EncodingError(f"code {code}: {uid} is not on the map")
            return RailMove(uid, ids[src], L.rail[j])
        if name == "RELOCATE":
            k, j = divmod(rel, self.n_rail)
            sl = next(sl for sl, r in L.eb_rank.items() if r == k)
            return Relocate(L.units[sl], L.rail[j])
        if name == "OVERRUN":
            for a, off in self.overrun_ranks(s).items():
                if off == rel:
                    return a
            raise EncodingError(f"code {code}: no such overrun is legal here")
        if name in ("JOIN", "ATTACK", "RETREAT", "ADVANCE"):
            sl, d = divmod(rel, NUM_DIRECTIONS)
            uid = L.units[sl]
            tgt = self._neighbour(s, uid, d, code)
            if name == "JOIN":
                return JoinOverrun(uid, tgt)
            if name == "ATTACK":
                return Attack(tgt, (uid,))
            if name == "RETREAT":
                return Retreat(uid, tgt)
            return Advance(uid, tgt)
        if name == "ATTACK_HEX":
            first = self._draft(s).attackers[0]
            n = self.nbd[s.loc[first]][rel]
            if n < 0:
                raise EncodingError(f"code {code}: no hex that way")
            return Attack(ids[n], ())
        if name in ("LOSE", "DISRUPT"):
            uid = L.units[rel]
            return Lose(uid) if name == "LOSE" else Disrupt(uid)
        raise EncodingError(f"code {code}: unknown block {name}")  # pragma: no cover

    def _side_unit(self, side: int, k: int) -> str:
        units = self.side_slots[side]
        if not 0 <= k < len(units):
            raise EncodingError(f"no {('German', 'Soviet')[side]} unit number {k}")  # pragma: no cover
        return self.layout.units[units[k]]

    def _neighbour(self, s: State, uid: str, d: int, code: int) -> str:
        h = self._loc(s, uid)
        n = self.nbd[h][d] if h >= 0 else -1
        if n < 0:
            raise EncodingError(f"code {code}: {uid} has no neighbour that way")
        return self.grid.ids[n]

    def text(self, s: State, code: int) -> str:
        """The engine notation of the action with this code (e.g. 'move G1Pz 1020-1322')."""
        from typhoon.games.tmc.notation import action_to_text

        return action_to_text(self.decode(s, code))

    def codes_of(self, s: State, actions: Sequence[Action]) -> list[int]:
        """The codes of ``actions`` in ``s`` one by one (the reference for ``legal_codes``)."""
        return [self.encode(s, a) for a in actions]


@lru_cache(maxsize=32)
def tmc_codec_for(rules: Rules) -> TmcActionCodec:
    """The (shared) action codec of a scenario's rules."""
    return TmcActionCodec(rules)


__all__ = [
    "NUM_DIRECTIONS",
    "OVERRUN_RANKS",
    "TmcActionCodec",
    "TmcLayout",
    "axial",
    "describe_layout",
    "disc",
    "layout",
    "num_actions",
    "tmc_codec_for",
]
