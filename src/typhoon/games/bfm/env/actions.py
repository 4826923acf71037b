"""A fixed-size integer action space for Battle for Moscow, the same for both editions.

Every engine action (:mod:`typhoon.games.bfm.actions`) has exactly one integer code in
``range(NUM_ACTIONS)``, and in every state the codes of ``legal_actions(state)`` are distinct:
the legal-action mask is exact (``mask.sum() == len(legal_actions(state))``), and
:meth:`ActionCodec.decode` inverts :meth:`ActionCodec.encode` on the legal actions. The
layout, with the reasons for it, is in ``docs/RESEARCH.md``; in short:

======================  ====================  ==============================================
block                   size                  meaning
======================  ====================  ==============================================
``ROLL``                6                     die roll 1..6 (chance; OpenSpiel outcome ids)
``END``                 1                     end the phase / the declarations
``SETUP_STANDARD``      1                     the side's standard set-up
``STAND_FAST``          2                     stand fast: yes, no
``ADVANCE_NONE``        1                     no unit advances
``TO``                  39 x 154              unit -> hex: place, move (no city passed),
                                              rebuild, reinforce
``ATTACK``              39 x 6                unit attacks its neighbour in direction d
``RESOLVE``             154                   resolve the battle against the unit on hex
``LOSE``                39                    attacker step loss
``ADVANCE``             39                    unit advances
``RESTORE``             39                    unit restored to full strength
``RETREAT_SHORT``       18                    2-hex retreat: first direction x turn
``RETREAT_LONG``        4096                  longer retreat: its rank among this
                                              state's longer retreats
``MOVE_VIA``            16,747                move that passes enemy cities: (unit,
                                              destination, city set) from a table
======================  ====================  ==============================================

Hexes use a padded index common to both editions: ``pad = (column - 1) * 11 + (row - 1)``
on a 14 x 11 grid (154 slots; GDW uses 140 of them, VPG 147). Units use the counter order
of ``units.json`` (39 counters, the same in both editions). Directions are the grid's
N, NE, SE, S, SW, NW.

Only numpy is needed here (no gymnasium, pettingzoo or pyspiel).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from typhoon.env.codec import BlockLayout, EncodingError, MaskedCodec, PartCodes
from typhoon.games.bfm.actions import (
    END,
    ROLLS,
    Action,
    Advance,
    Attack,
    End,
    Lose,
    Move,
    Place,
    Rebuild,
    Reinforce,
    Resolve,
    Restore,
    Retreat,
    Roll,
    SetupStandard,
    StandFast,
)
from typhoon.games.bfm.engine import legal_actions
from typhoon.games.bfm.flow import reinforcement_due
from typhoon.games.bfm.rules import Rules, load_rules
from typhoon.games.bfm.setup_phase import SETUP_STANDARD as _SETUP_STANDARD_ACTION
from typhoon.games.bfm.state import RETREAT, State
from typhoon.hexgrid import HexGrid, hex_id

EDITIONS = ("gdw1986", "vpg2009")

PAD_COLS = 14
PAD_ROWS = 11
NUM_HEXES = PAD_COLS * PAD_ROWS  # 154
NUM_DIRECTIONS = 6
RETREAT_SHORT_SHAPES = 18  # 6 first directions x 3 turns (left, straight, right)
RETREAT_LONG_SLOTS = 4096
_CACHE_LIMIT = 500_000  # moves through cities whose codes the codec remembers


# -- the common geometry and the move-via tables ---------------------------------------------

COMMON_GRID = HexGrid(PAD_COLS, PAD_ROWS, PAD_ROWS, "even")
"""The full 14 x 11 grid on which both editions' maps lie (same numbering and layout)."""


def _reference_rules() -> tuple[Rules, ...]:
    return tuple(load_rules(ed) for ed in EDITIONS)


def _pad_of_grid(grid: HexGrid) -> list[int]:
    """Edition hex index -> padded index (-1 for the spare slots)."""
    out = [-1] * grid.size
    for h in grid.hexes:
        c, r = grid.coords[h]
        if c > PAD_COLS or r > PAD_ROWS:
            raise EncodingError(f"hex {grid.ids[h]} lies outside the common {PAD_COLS}x{PAD_ROWS} grid")
        out[h] = (c - 1) * PAD_ROWS + (r - 1)
    return out


def via_table(
    allowance: int,
    hex_pads: Sequence[int],
    city_pads: Sequence[int],
    forest_pads: Sequence[int] = (),
    rail_links: Sequence[tuple[int, int]] = (),
) -> tuple[tuple[int, int], ...]:
    """Every (destination, set of cities passed) a move of ``allowance`` movement points
    could make, as (padded destination, bitset of padded city hexes), the set not empty,
    sorted.

    A superset of what the engine can ever offer a unit with that allowance: every walk over
    the hexes ``hex_pads`` (the union of the editions' maps, which share their numbering and
    layout) from any start, entering a hex of ``forest_pads`` (the forest of every edition)
    for 2 points and any other for 1, or walking along ``rail_links`` (padded pairs, both
    ways) for 1 point a hex; and every nonempty subset of the cities entered before the last
    hex, the destination itself excluded (the engine's ``Move.via``). The engine's moves are
    such walks (zones of control and enemy units only end or forbid some), and mud moves
    (one hex) pass no city."""
    grid = COMMON_GRID
    pad = _pad_of_grid(grid)
    allowed = set(hex_pads)
    common = {p: h for h, p in enumerate(pad) if p in allowed}  # padded -> common-grid index
    cities = set(city_pads)
    forest = set(forest_pads)
    links: dict[int, set[int]] = {p: set() for p in allowed}
    for a, b in rail_links:
        links[a].add(b)
        links[b].add(a)
    steps = {p: [pad[n] for n in grid.neighbours[common[p]] if pad[n] in allowed] for p in allowed}
    found: set[tuple[int, int]] = set()
    for rail in (False, True):
        # labels (hex, cities entered so far) -> most points left; a walk starts anywhere
        best = dict.fromkeys(((p, 0) for p in allowed), allowance)
        todo = [(p, 0, allowance) for p in allowed]
        while todo:
            h, passed, left = todo.pop()
            if best[(h, passed)] > left:
                continue
            for q in links[h] if rail else steps[h]:
                cost = 2 if (q in forest and not rail) else 1
                if cost > left:
                    continue
                via = passed & ~(1 << q)
                if via:
                    found.add((q, via))
                key = (q, passed | (1 << q if q in cities else 0))
                rest = left - cost
                if rest > 0 and best.get(key, -1) < rest:
                    best[key] = rest
                    todo.append((q, key[1], rest))
    out: set[tuple[int, int]] = set()
    for dst, via in found:
        members = [1 << i for i in range(via.bit_length()) if (via >> i) & 1]
        for k in range(1, len(members) + 1):
            for combo in itertools.combinations(members, k):
                out.add((dst, sum(combo)))
    return tuple(sorted(out))


@dataclass(frozen=True)
class Layout(BlockLayout):
    """Where each kind of action lives in the integer space (see the module docstring)."""

    units: tuple[str, ...]
    allowance: tuple[int, ...]
    via_tables: dict[int, tuple[tuple[int, int], ...]]
    via_index: dict[int, dict[tuple[int, int], int]]
    via_offset: tuple[int, ...]
    blocks: dict[str, tuple[int, int]]  # name -> (first code, number of codes)
    size: int


def _build_layout() -> Layout:
    refs = _reference_rules()
    units = tuple(u.id for u in refs[0].units)
    for r in refs[1:]:
        if tuple(u.id for u in r.units) != units:
            raise EncodingError("the editions do not share one counter list")
    allowance = tuple(max(r.units[i].move for r in refs) for i in range(len(units)))
    hex_pads: set[int] = set()
    city_pads: set[int] = set()
    forest_pads: set[int] | None = None
    rail_links: set[tuple[int, int]] = set()
    for r in refs:
        pad = _pad_of_grid(r.map.grid)
        hex_pads.update(pad[h] for h in r.map.grid.hexes)
        city_pads.update(pad[c.hex] for c in r.map.cities)
        forest = {pad[h] for h in r.map.forest}
        forest_pads = forest if forest_pads is None else forest_pads & forest
        rail_links.update((pad[a], pad[b]) for a, b in r.map.rail)
    tables = {
        a: via_table(a, sorted(hex_pads), sorted(city_pads), sorted(forest_pads or ()), sorted(rail_links))
        for a in sorted(set(allowance))
    }
    index = {a: {key: i for i, key in enumerate(t)} for a, t in tables.items()}
    nu = len(units)
    blocks: dict[str, tuple[int, int]] = {}
    pos = 0
    for name, n in (
        ("ROLL", 6),
        ("END", 1),
        ("SETUP_STANDARD", 1),
        ("STAND_FAST", 2),
        ("ADVANCE_NONE", 1),
        ("TO", nu * NUM_HEXES),
        ("ATTACK", nu * NUM_DIRECTIONS),
        ("RESOLVE", NUM_HEXES),
        ("LOSE", nu),
        ("ADVANCE", nu),
        ("RESTORE", nu),
        ("RETREAT_SHORT", RETREAT_SHORT_SHAPES),
        ("RETREAT_LONG", RETREAT_LONG_SLOTS),
    ):
        blocks[name] = (pos, n)
        pos += n
    offsets = []
    via_start = pos
    for a in allowance:
        offsets.append(pos - via_start)
        pos += len(tables[a])
    blocks["MOVE_VIA"] = (via_start, pos - via_start)
    return Layout(units, allowance, tables, index, tuple(offsets), blocks, pos)


LAYOUT = _build_layout()
NUM_ACTIONS = LAYOUT.size
NUM_UNITS = len(LAYOUT.units)

ROLL = LAYOUT.blocks["ROLL"][0]
END_CODE = LAYOUT.blocks["END"][0]
SETUP_STANDARD = LAYOUT.blocks["SETUP_STANDARD"][0]
STAND_FAST = LAYOUT.blocks["STAND_FAST"][0]
ADVANCE_NONE = LAYOUT.blocks["ADVANCE_NONE"][0]
TO = LAYOUT.blocks["TO"][0]
ATTACK = LAYOUT.blocks["ATTACK"][0]
RESOLVE = LAYOUT.blocks["RESOLVE"][0]
LOSE = LAYOUT.blocks["LOSE"][0]
ADVANCE = LAYOUT.blocks["ADVANCE"][0]
RESTORE = LAYOUT.blocks["RESTORE"][0]
RETREAT_SHORT = LAYOUT.blocks["RETREAT_SHORT"][0]
RETREAT_LONG = LAYOUT.blocks["RETREAT_LONG"][0]
MOVE_VIA = LAYOUT.blocks["MOVE_VIA"][0]
assert ROLL == 0  # OpenSpiel chance outcome ids are the die codes


# -- per-edition codec -----------------------------------------------------------------------


class ActionCodec(MaskedCodec):
    """Encodes and decodes the actions of one ruleset (edition + options) in the common
    space. Build with :func:`codec_for`; one codec is shared by every state of its rules."""

    size = NUM_ACTIONS
    _legal_actions = staticmethod(legal_actions)

    def __init__(self, rules: Rules):
        self.rules = rules
        grid = rules.map.grid
        self.grid = grid
        self.pad_of = _pad_of_grid(grid)
        self.ed_of = [-1] * NUM_HEXES
        for h in grid.hexes:
            self.ed_of[self.pad_of[h]] = h
        self.hid_pad = {grid.ids[h]: self.pad_of[h] for h in grid.hexes}
        self.pad_hid = [grid.ids[h] if h >= 0 else "" for h in self.ed_of]
        ids = tuple(u.id for u in rules.units)
        if ids != LAYOUT.units:
            raise EncodingError(f"{rules.edition}: counters differ from the common action layout")
        self.unit_of = dict(rules.unit_index)
        self.nbd = grid.neighbours_by_dir
        self._via_codes: dict[Move, int] = {}  # see ``_via_code``
        self._parts = PartCodes()  # codes of the engine's per-unit move lists, by identity

    # -- single actions ------------------------------------------------------------------------

    def encode(self, s: State, a: Action) -> int:
        """The code of action ``a`` in state ``s`` (``s`` is needed for attacks and
        retreats, whose codes are relative to the units' positions)."""
        return self._encode(s, a)

    def _encode(self, s: State | None, a: Action) -> int:
        if isinstance(a, Move):
            u = self._unit(a.unit)
            dst = self._pad(a.dst)
            if not a.via:
                return TO + u * NUM_HEXES + dst
            via = 0
            for h in a.via:
                via |= 1 << self._pad(h)
            idx = LAYOUT.via_index[LAYOUT.allowance[u]].get((dst, via))
            if idx is None:
                raise EncodingError(f"move {a} passes cities outside the move-via table")
            return MOVE_VIA + LAYOUT.via_offset[u] + idx
        if isinstance(a, Place | Rebuild | Reinforce):
            return TO + self._unit(a.unit) * NUM_HEXES + self._pad(a.hex)
        if isinstance(a, Roll):
            if not 1 <= a.die <= 6:
                raise EncodingError(f"no die roll {a.die}")
            return ROLL + a.die - 1
        if isinstance(a, End):
            return END_CODE
        if isinstance(a, SetupStandard):
            return SETUP_STANDARD
        if isinstance(a, StandFast):
            return STAND_FAST + (0 if a.accept else 1)
        if isinstance(a, Advance):
            return ADVANCE_NONE if a.unit is None else ADVANCE + self._unit(a.unit)
        if isinstance(a, Lose):
            return LOSE + self._unit(a.unit)
        if isinstance(a, Restore):
            return RESTORE + self._unit(a.unit)
        if isinstance(a, Resolve):
            return RESOLVE + self._pad(a.target)
        if s is None:
            raise EncodingError(f"{type(a).__name__} actions are encoded relative to a state")
        if isinstance(a, Attack):
            u = self._unit(a.unit)
            src = s.loc[u]
            tgt = self.grid.index.get(a.target, -2)
            if src < 0 or tgt not in self.nbd[src]:
                raise EncodingError(f"{a.unit} is not next to {a.target}")
            return ATTACK + u * NUM_DIRECTIONS + self.nbd[src].index(tgt)
        if isinstance(a, Retreat):
            return self._retreat_codes(s, [a.path])[0]
        raise EncodingError(f"not an action: {a!r}")

    def _unit(self, uid: str) -> int:
        u = self.unit_of.get(uid)
        if u is None:
            raise EncodingError(f"there is no unit {uid}")
        return u

    def _pad(self, hid: str) -> int:
        p = self.hid_pad.get(hid)
        if p is None:
            raise EncodingError(f"{hid} is not a hex of the {self.rules.edition} map")
        return p

    def _origin(self, s: State) -> int:
        if s.cur is None or s.cstep != RETREAT:
            raise EncodingError("no retreat is being chosen in this state")
        return s.cur.hex

    def _short_shape(self, origin: int, path: Sequence[int]) -> int:
        """0..17 for a 2-hex retreat (first direction x turn), or -1."""
        p1, p2 = path
        row = self.nbd[origin]
        if p1 not in row:
            return -1
        d1 = row.index(p1)
        row1 = self.nbd[p1]
        if p2 not in row1:
            return -1
        turn = (row1.index(p2) - d1 + 1) % NUM_DIRECTIONS  # 0 left, 1 straight, 2 right
        return d1 * 3 + turn if turn < 3 else -1

    def _long_paths(self, s: State) -> list[tuple[str, ...]]:
        """This state's legal retreats of more than two hexes, in rank order (the padded
        indices of the path, lexicographically)."""
        longs = [a.path for a in legal_actions(s) if isinstance(a, Retreat) and len(a.path) > 2]
        if len(longs) > RETREAT_LONG_SLOTS:
            raise EncodingError(
                f"more than {RETREAT_LONG_SLOTS} retreats of over two hexes in one state "
                "(see docs/RESEARCH.md, 'Retreats')"
            )
        hp = self.hid_pad
        longs.sort(key=lambda p: tuple(hp[h] for h in p))
        return longs

    def _retreat_codes(self, s: State, paths: Sequence[tuple[str, ...]]) -> list[int]:
        """The codes of retreat paths in ``s``, where a retreat is being chosen."""
        origin = self._origin(s)
        index = self.grid.index
        ranks: dict[tuple[str, ...], int] | None = None
        codes = []
        for path in paths:
            if len(path) == 2:
                p1, p2 = (index.get(h, -1) for h in path)
                shape = self._short_shape(origin, (p1, p2)) if p1 >= 0 and p2 >= 0 else -1
                if shape < 0:
                    raise EncodingError(
                        f"{'-'.join(path)} is not a 2-hex retreat from {self.grid.ids[origin]}"
                    )
                codes.append(RETREAT_SHORT + shape)
                continue
            if ranks is None:
                ranks = {p: i for i, p in enumerate(self._long_paths(s))}
            rank = ranks.get(tuple(path))
            if rank is None:
                raise EncodingError(f"retreat {'-'.join(path)} is not legal here")
            codes.append(RETREAT_LONG + rank)
        return codes

    def decode(self, s: State, code: int) -> Action:
        """The engine action with this code in state ``s`` (whether or not it is legal
        there; see :meth:`legal_action` for a checked lookup)."""
        code = int(code)
        if not 0 <= code < NUM_ACTIONS:
            raise EncodingError(f"action code {code} is outside 0..{NUM_ACTIONS - 1}")
        if code < TO:
            if code < ROLL + 6:
                return ROLLS[code - ROLL]
            if code == END_CODE:
                return END
            if code == SETUP_STANDARD:
                return _SETUP_STANDARD_ACTION
            if code < ADVANCE_NONE:
                return StandFast(code == STAND_FAST)
            return Advance(None)
        rules = self.rules
        if code < ATTACK:
            u, p = divmod(code - TO, NUM_HEXES)
            uid, hid = rules.units[u].id, self._hid(p)
            kind = s.phase_spec.kind
            if kind == "setup":
                return Place(uid, hid)
            if kind == "movement":
                src = s.loc[u]
                return Move(uid, self.grid.ids[src] if src >= 0 else "", hid, ())
            if kind == "replacement":
                return Reinforce(uid, hid) if reinforcement_due(s) == u else Rebuild(uid, hid)
            raise EncodingError(f"code {code} (unit to hex) means nothing in a {kind} phase")
        if code < RESOLVE:
            u, d = divmod(code - ATTACK, NUM_DIRECTIONS)
            src = s.loc[u]
            tgt = self.nbd[src][d] if src >= 0 else -1
            if tgt < 0:
                raise EncodingError(f"code {code}: {rules.units[u].id} has no neighbour that way")
            return Attack(rules.units[u].id, self.grid.ids[tgt])
        if code < LOSE:
            return Resolve(self._hid(code - RESOLVE))
        if code < ADVANCE:
            return Lose(rules.units[code - LOSE].id)
        if code < RESTORE:
            return Advance(rules.units[code - ADVANCE].id)
        if code < RETREAT_SHORT:
            return Restore(rules.units[code - RESTORE].id)
        if code < RETREAT_LONG:
            origin = self._origin(s)
            d1, turn = divmod(code - RETREAT_SHORT, 3)
            p1 = self.nbd[origin][d1]
            p2 = self.nbd[p1][(d1 + turn - 1) % NUM_DIRECTIONS] if p1 >= 0 else -1
            if p2 < 0:
                raise EncodingError(f"code {code}: that retreat leaves the map")
            return Retreat((self.grid.ids[p1], self.grid.ids[p2]))
        if code < MOVE_VIA:
            rank = code - RETREAT_LONG
            longs = self._long_paths(s)
            if rank >= len(longs):
                raise EncodingError(f"code {code}: there are only {len(longs)} long retreats here")
            return Retreat(longs[rank])
        rel = code - MOVE_VIA
        u = bisect.bisect_right(LAYOUT.via_offset, rel) - 1
        dst, via = LAYOUT.via_tables[LAYOUT.allowance[u]][rel - LAYOUT.via_offset[u]]
        src = s.loc[u]
        cities = tuple(self._hid(p) for p in range(via.bit_length()) if (via >> p) & 1)
        return Move(rules.units[u].id, self.grid.ids[src] if src >= 0 else "", self._hid(dst), cities)

    def _hid(self, p: int) -> str:
        hid = self.pad_hid[p]
        if not hid:
            c, r = divmod(p, PAD_ROWS)
            raise EncodingError(f"hex {hex_id(c + 1, r + 1)} is not on the {self.rules.edition} map")
        return hid

    # -- whole states --------------------------------------------------------------------------

    def legal_codes(self, s: State) -> npt.NDArray[np.int64]:
        """The codes of ``legal_actions(s)``, in the same order (distinct by construction)."""
        acts = legal_actions(s)
        if not acts:
            return np.zeros(0, dtype=np.int64)
        kind = s.rules.phases[s.phase].kind
        uo = self.unit_of
        hp = self.hid_pad
        if kind == "movement":  # the hot path: moves (by field index: they are tuples) and End
            got = self._parts.codes(acts, self._moves_codes, lambda rest: [self._encode(s, a) for a in rest])
            if got is not None:  # each unit's moves are a part whose codes are kept
                return got
            via = self._via_code
            codes = [
                ((TO + uo[a[0]] * NUM_HEXES + hp[a[2]]) if not a[3] else via(a))  # type: ignore[misc]
                if type(a) is Move
                else self._encode(s, a)
                for a in acts
            ]
        elif kind == "combat":
            paths = [a.path for a in acts if isinstance(a, Retreat)]
            if len(paths) == len(acts):  # a retreat step (it offers retreats only)
                codes = self._retreat_codes(s, paths)
            else:
                codes = [self._encode(s, a) for a in acts]
        else:  # set-up and replacement: mostly unit -> hex
            codes = [
                (TO + uo[a[0]] * NUM_HEXES + hp[a[1]])  # type: ignore[misc]
                if type(a) is Place or type(a) is Rebuild or type(a) is Reinforce
                else self._encode(s, a)
                for a in acts
            ]
        return np.array(codes, dtype=np.int64)

    def _moves_codes(self, moves: Sequence[Move]) -> list[int]:
        """The codes of moves (by value: a move's code does not depend on the state)."""
        uo = self.unit_of
        hp = self.hid_pad
        via = self._via_code
        return [
            (TO + uo[a[0]] * NUM_HEXES + hp[a[2]]) if not a[3] else via(a)  # type: ignore[misc]
            for a in moves
        ]

    def _via_code(self, a: Move) -> int:
        """The code of a move through cities, remembered by value (a dict lookup costs a
        seventh of encoding it; the table is bounded)."""
        code = self._via_codes.get(a)
        if code is None:
            if len(self._via_codes) >= _CACHE_LIMIT:  # pragma: no cover - bounded memory
                self._via_codes.clear()
            code = self._via_codes[a] = self._encode(None, a)
        return code

    def text(self, s: State, code: int) -> str:
        """The engine notation of the action with this code (e.g. 'move XXIV 0204-0405')."""
        from typhoon.games.bfm.notation import action_to_text

        return action_to_text(self.decode(s, code))


@lru_cache(maxsize=32)
def codec_for(rules: Rules) -> ActionCodec:
    """The (shared) action codec of a ruleset."""
    return ActionCodec(rules)


def describe_layout() -> list[tuple[str, int, int]]:
    """(block, first code, size) for every block of the action space."""
    return [(name, start, n) for name, (start, n) in LAYOUT.blocks.items()]


__all__ = [
    "LAYOUT",
    "NUM_ACTIONS",
    "NUM_DIRECTIONS",
    "NUM_HEXES",
    "NUM_UNITS",
    "ActionCodec",
    "EncodingError",
    "Layout",
    "codec_for",
    "describe_layout",
    "via_table",
]
