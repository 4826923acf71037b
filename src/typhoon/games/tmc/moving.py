"""What moving units share across the phase modules (movement_phase, rail, combat_phase).

A unit's movement allowance and MP left this phase (§11, §18 weather halvings), the upkeep of
the movement phase's cached facts after a move, the hexes at the stacking limit (§10), and
what entering a hex does (§16 rail, §19 defence lines, §13.2 lone [#] units), which moves,
rail arrivals, retreats and advances alike cause. It sits below the phase modules so that
they need not import one another for it; movement_phase re-exports these names.
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction
from itertools import accumulate, chain, repeat
from operator import add, itemgetter
from typing import Any

from typhoon.events import Event
from typhoon.games.tmc import victory, weather
from typhoon.games.tmc.rules import GERMAN, STACK_LIMIT, TICKS
from typhoon.games.tmc.state import State
from typhoon.hexgrid import bit_list

_tuple_new = tuple.__new__


def kept_index(dsts: list[int], hit: int, i: int) -> int:
    """The index in ``dsts`` (sorted hexes) of the ``i``-th destination not in ``hit`` (a
    bitset of some of them): a lazy listing's one action, made without filtering the list."""
    for h in bit_list(hit):  # skip the left-out destinations at or before it
        if bisect_left(dsts, h) <= i:
            i += 1
        else:
            break
    return i


def bits_from(mask: int, off: int) -> list[int]:
    """``off`` + the indices of the set bits of ``mask`` (>= 0), lowest first: the lengths of
    the runs of zeros between them, summed by C loops (faster than ``hexgrid.bit_list`` on a
    flood's blobs and on set-up areas of thousands of hexes)."""
    if not mask:
        return []
    gaps = bin(mask)[:1:-1].split("1")
    gaps.pop()
    return list(accumulate(map(add, map(len, gaps), chain((off,), repeat(1)))))


def leg_actions(
    cls: type[tuple[Any, ...]], uid: str, src: str, ids: list[str], dsts: list[int], kind: str
) -> list[Any]:
    """``cls(uid, src, ids[d], kind)`` for each destination ``d`` in order (Move, RailMove),
    built by C loops: ``tuple.__new__`` over zipped fields, the names gathered by itemgetter."""
    if len(dsts) < 2:
        return [_tuple_new(cls, (uid, src, ids[d], kind)) for d in dsts]
    names = itemgetter(*dsts)(ids)
    return list(map(_tuple_new, repeat(cls, len(dsts)), zip(repeat(uid), repeat(src), names, repeat(kind))))


LegMaker = tuple[type[tuple[Any, ...]], str, str, list[str], str]  # leg_actions' (cls, uid, src, ids, kind)


class Legs:
    """One unit's leg destinations ``dsts`` (sorted hex indices) and its actions to them
    (``moves``), made from ``mk`` when first read; ``without(bad)`` and ``item(bad, i)`` leave
    out the destinations in a bitset (the full hexes) without remaking or filtering them all.
    A move's reach (movement_phase.Reach) and a rail move's (rail._RailReach) are both this."""

    __slots__ = ("dsts", "_moves", "filtered", "_dm", "_mk")

    def __init__(self, dsts: list[int], moves: list[Any] | None, dm: int, mk: LegMaker | None):
        self.dsts = dsts
        self._moves = moves
        self.filtered: dict[int, list[Any]] = {}
        self._dm = dm  # the destinations as a bitset (-1: not made yet)
        self._mk = mk  # what the moves are made from when first read (None: given)

    @property
    def moves(self) -> list[Any]:
        """The action to each destination, in order (made when first read)."""
        got = self._moves
        if got is None:
            mk = self._mk
            assert mk is not None
            got = self._moves = leg_actions(*mk[:4], self.dsts, mk[4])
        return got

    def dmask(self) -> int:
        """The destinations as a bitset."""
        dm = self._dm
        if dm < 0:
            dm = 0
            for d in self.dsts:
                dm |= 1 << d
            self._dm = dm
        return dm

    def count(self, bad: int) -> int:
        """``len(self.without(bad))`` without making the moves."""
        return len(self.dsts) - (self.dmask() & bad).bit_count()

    def without(self, bad: int) -> list[Any]:
        """The actions to destinations not in ``bad`` (memoised by ``bad``: the same list
        object each time; ``moves`` itself when no destination is in ``bad``)."""
        got = self.filtered.get(bad)
        if got is None:
            if not self.dmask() & bad:
                got = self.moves
            else:
                got = [m for m, d in zip(self.moves, self.dsts) if not (bad >> d) & 1]
            self.filtered[bad] = got
        return got

    def item(self, bad: int, i: int) -> Any:
        """``self.without(bad)[i]``, made alone if the list is not made yet."""
        got = self.filtered.get(bad)
        if got is not None:
            return got[i]
        dsts = self.dsts
        hit = self.dmask() & bad
        if hit:
            i = kept_index(dsts, hit, i)
        moves = self._moves
        if moves is not None:
            return moves[i]
        mk = self._mk
        assert mk is not None
        cls, uid, src, ids, kind = mk
        return _tuple_new(cls, (uid, src, ids[dsts[i]], kind))


def full_hexes(s: State) -> int:
    """Hexes holding the stacking limit (a move, retreat or advance may not end there, §10).
    Kept in the state cache with the list of those hexes; keep_facts carries it past a move."""
    got = s._cache.get("full")
    if got is None:
        got = s._cache["full"] = _full(s, [h for h, us in s.stacks.items() if len(us) >= STACK_LIMIT])
    return got[0]


def _full(s: State, hexes: list[int]) -> tuple[int, list[int]]:
    # Only the few full hexes touch the (4,992-bit) mask: shifting a big int per stack was most
    # of the cost of this function, which every movement listing calls.
    m = 0
    for h in hexes:
        m |= 1 << h
    return m, hexes


def _weather_factor(s: State, u: int) -> Fraction:
    if s.rules.units[u].side == GERMAN:
        return weather.german_ma_factor(s.turn, mechanised=s.is_mech(u))
    return weather.soviet_ma_factor(s.turn)


def allowance(s: State, u: int) -> int:
    """Movement allowance of ``u`` this phase in ticks: printed MA with the halvings (§11, §18)."""
    memo: dict[tuple[int, int, bool, bool], int] = s._cache.setdefault("allow", {})
    key = (u, s.turn, s.in_supply(u), bool((s.kg >> u) & 1))
    got = memo.get(key)
    if got is None:
        # ma * TICKS * factor, halved out of supply, in integers (the Fraction's own numerator
        # and denominator; the floor of a non-negative quotient is the Fraction's int()).
        f = _weather_factor(s, u)
        got = memo[key] = (s.ma(u) * TICKS * f.numerator) // (f.denominator * (1 if key[2] else 2))
    return got


def remaining(s: State, u: int) -> int:
    return allowance(s, u) - s.spent.get(u, 0)


def keep_facts(s: State, old: dict[str, Any], movers: tuple[int, ...]) -> None:
    """After phasing units ``movers`` changed place or MP (nothing else changed): keep the
    phase facts and every other unit's cached reach (``put``/``lift`` cleared the cache)."""
    # "ovr" (minimal overrun groups by target, candidates and defenders) stays: a plain move
    # changes no strength, and supply is judged at phase start (State.in_supply).
    nc = {k: v for k, v in old.items() if k not in ("zoc0", "zoc1", "mv", "full")}
    full = old.get("full")
    if full is not None:
        # Only the movers changed place: a full hex stays full unless one left it, and a hex
        # becomes full only where one arrived.
        stacks = s.stacks
        mask, hexes = full
        left = [h for h in hexes if len(stacks.get(h, ())) < STACK_LIMIT]
        if left:
            hexes = [h for h in hexes if h not in left]
            for h in left:
                mask ^= 1 << h
        for u in movers:
            h = s.loc[u]
            if h >= 0 and not (mask >> h) & 1 and len(stacks.get(h, ())) >= STACK_LIMIT:
                hexes = [*hexes, h]
                mask |= 1 << h
        nc["full"] = (mask, hexes)
    f = old.get("mv")
    if f is not None:
        nf = dict(f)
        nu = dict(f["units"])
        nm = dict(f["may"])
        nr = dict(f["rmay"])
        for u in movers:
            nu.pop(u, None)
            nm.pop(u, None)
            nr.pop(u, None)
        nf["units"] = nu
        nf["may"] = nm
        nf["rmay"] = nr
        # Each unit's listed moves for one full-hexes mask (movement_phase.legal): all but the
        # movers' lists stay exact, since they depend only on the unit, the facts and the mask.
        for k in ("seg", "rseg"):
            key, seg = f[k]
            seg = dict(seg)
            for u in movers:
                seg.pop(u, None)
            nf[k] = (key, seg)
        nc["mv"] = nf
    side = s.rules.units[movers[0]].side if movers else -1
    for k in ("zoc0", "zoc1"):
        if k in old and k != f"zoc{side}":
            nc[k] = old[k]
    s._cache = nc


def enter_effects(s: State, u: int, a: int, b: int, events: list[Event]) -> tuple[bool, bool]:
    """What unit ``u`` entering hex ``b`` from ``a`` does: rail destroyed or repaired (§16,
    [Q40]-[Q42]), a defence-line hexside destroyed (German, §19, [Q50]), a lone enemy [#]
    unit removed (§13.2, [Q32]). Used by moves, advances and retreats alike (COMBAT calls it
    for advance and retreat). Returns (phase facts changed, rail changed)."""
    rules = s.rules
    spec = rules.units[u]
    side = spec.side
    ids = rules.grid.ids
    reset = False
    rail_changed = False
    bit = 1 << b
    if rules.rail_mask & bit:
        rail_changed = _rail_entry(s, u, b, events)
    if side == GERMAN:
        k = rules.dl_index.get((a, b))
        if k is not None and not (s.dl_destroyed >> k) & 1:
            s.dl_destroyed |= 1 << k
            line = rules.dl_sides[k][0]
            text = f"{rules.dl_names[line]} hexside {ids[a]}/{ids[b]} destroyed"
            if (
                s.dl_count(line) >= 5
                and s.dl_destroyed & rules.dl_line_masks[line] != rules.dl_line_masks[line]
            ):
                s.dl_destroyed |= rules.dl_line_masks[line]  # §19.5: five down, the whole line falls
                text += f"; five hexsides down, the whole {rules.dl_names[line]} falls"
            events.append(Event("defence_line", text + ".", {"line": rules.dl_names[line]}))
            reset = True
    others = s.stacks.get(b, ())
    lone = len(others) == 1 and rules.units[others[0]].side != side and rules.units[others[0]].bracket
    if lone and not (s.flipped >> others[0]) & 1:
        v = others[0]
        remove_unit(
            s, v, events, f"{rules.units[v].name} (lone [#]) is removed by {spec.name} entering {ids[b]}"
        )
        reset = True
    return reset, rail_changed


def _rail_entry(s: State, u: int, b: int, events: list[Event]) -> bool:
    rules = s.rules
    spec = rules.units[u]
    bit = 1 << b
    before = (s.rail_normal, s.rail_german, s.rail_soviet, s.rail_cut)
    if spec.side == GERMAN:
        enemy_rail = (s.rail_normal | s.rail_soviet) & bit
        if spec.eb:
            if not s.rail_german & bit:  # [Q41]: destroyed or Soviet rail becomes German-repaired
                s.rail_normal &= ~bit
                s.rail_soviet &= ~bit
                s.rail_cut &= ~bit
                s.rail_german |= bit
        elif enemy_rail:
            s.rail_normal &= ~bit
            s.rail_soviet &= ~bit
            s.rail_cut |= bit
    else:
        enemy_rail = s.rail_german & bit
        own = (s.rail_normal | s.rail_soviet) & bit
        if spec.eb:
            if not own:  # [Q42]: Soviet-repaired (or normal with the option)
                s.rail_german &= ~bit
                s.rail_cut &= ~bit
                if rules.flag("soviet_repair_restores_normal"):
                    s.rail_normal |= bit
                else:
                    s.rail_soviet |= bit
        elif enemy_rail:
            s.rail_german &= ~bit
            s.rail_cut |= bit
    changed = before != (s.rail_normal, s.rail_german, s.rail_soviet, s.rail_cut)
    if changed:
        ids = rules.grid.ids
        if (s.rail_cut & bit) and not (before[3] & bit):
            events.append(
                Event("rail", f"Rail at {ids[b]} destroyed and cut by {spec.name}.", {"hex": ids[b]})
            )
        else:
            events.append(Event("rail", f"Rail at {ids[b]} repaired by {spec.name}.", {"hex": ids[b]}))
    return changed


def remove_unit(s: State, v: int, events: list[Event], text: str) -> None:
    """Eliminate ``v`` outside combat (lone [#] removal) scoring its VP (§23, [Q62])."""
    spec = s.rules.units[v]
    vp = victory.elimination_vp(s.cf(v), mechanised=s.is_mech(v), kg=bool((s.kg >> v) & 1))
    s.eliminate(v)
    s.add_vp(1 - spec.side, vp)
    events.append(Event("eliminated", f"{text}: +{vp} VP.", {"unit": spec.id, "vp": vp}))


__all__ = [
    "allowance",
    "bits_from",
    "leg_actions",
    "enter_effects",
    "full_hexes",
    "keep_facts",
    "remaining",
    "remove_unit",
]
