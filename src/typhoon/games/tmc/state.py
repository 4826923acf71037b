"""The state of a Moscow Campaign game.

A State is a plain record of the position. The engine never changes a State it was given:
``apply`` works on a copy (``State.copy``: a few lists, dicts and ints). Sets of units are
Python-int bitsets over unit indices (``1 << u``); sets of hexes are bitsets over hex
indices (``1 << h``, see typhoon.hexgrid). Per-phase caches of derived facts live in
``_cache`` and are shared by copies until the positions they depend on change (the code
that changes such a position resets ``_cache``).

Field by field (the COMBAT and SUPPLY helpers read and write these; engine use only on a
fresh copy):

Position
- ``loc[u]``: hex index of unit ``u``, or OFF (not on the map: not yet arrived, waiting as
  a delayed reinforcement, or eliminated).
- ``stacks``: hex -> tuple of the units on it, in arrival order; only occupied hexes are keys.
  At most STACK_LIMIT (3) at the end of every movement phase and throughout combat (§10);
  units may pass through fuller hexes during a move (a move's path is not stored).
- ``occ[side]``: bitset of hexes holding at least one unit of that side.
Per-unit flags (bitsets over units unless said otherwise)
- ``arrived``: units that have entered play (starting forces once set up; reinforcements
  once they entered). A unit with arrived set and loc OFF is eliminated.
- ``eliminated``: units off the map because they were eliminated (may return: Soviet EB
  units in Moscow §17, German 2-5 replacements §21).
- ``lost``: eliminated for good (never returns): German EB units, KGs, Soviet EB units
  while the Germans hold Moscow. ``lost`` is a subset of ``eliminated``.
- ``kg``: German mechanised units replaced by a Kampfgruppe (§8): the counter is now a
  mechanised 2-8 (printed CF 2, MA 8). Use ``cf(u)``/``ma(u)``, never the spec's values.
- ``entrained``: Soviet units carrying an entrained marker (§20).
- ``flipped``: defenders flipped by a pending overrun (§14): their hex counts as empty for
  the phasing side (pass through, no ZOC) until the overrun is resolved at phase end.
- ``disrupted``: unit -> game turn in whose German player turn's end it recovers ([Q14]);
  a unit in this dict may neither move nor attack. Only disrupted units are keys.
Movement phase bookkeeping (reset at every phase start)
- ``spent``: unit -> movement points spent this phase, in ticks (rules.TICKS per MP). A
  unit is "moved" iff it is a key.
- ``entered``: unit -> hexes entered this phase (German mud: one per phase [Q48]).
- ``overran``: units committed to an overrun this phase (they may not move further, §14.2).
- ``relocated``: Soviet EB units relocated this phase (§17).
- ``entrainings``: entrainings plus entrained reinforcement arrivals this phase (limit 9, §20.2, [Q53]).
- ``overruns``: pending overruns, resolved at the end of the movement phase:
  tuple of PendingOverrun(hex, attackers, defenders).
- ``supply``: per side, a bitset of the HEXES on which that side's units are in supply as
  judged at the start of the current movement phase (§11); -1 means "not judged" (all in
  supply). Combat judges supply at the moment of combat itself (COMBAT calls supply.py).
Rail and defence lines (bitsets over hexes; rules.rail_mask is every rail hex)
- ``rail_normal``: normal rail (Soviet-owned, [Q40]).
- ``rail_german``: rail repaired by German EB units (German-owned).
- ``rail_soviet``: rail repaired by Soviet EB units ([Q42], supply only unless the option).
- destroyed rail = rules.rail_mask & ~(normal | german | soviet) (``rail_destroyed()``).
- ``rail_cut``: destroyed hexes carrying a cut marker (destroyed during play, §16.2); a
  subset of destroyed rail.
- ``dl_destroyed``: bitset over rules.dl_sides (global defence-line front-hexside index) of
  destroyed hexsides (§19.3); ``dl_count(line)`` gives the per-line count for §19.5.
Score and clock
- ``vp[side]``: victory points (§23), only ever increase.
- ``moscow_award``: the once-per-game German 50 VP for capturing Moscow was given ([Q64]).
- ``turn``: game turn (0 during set-up); ``phase``: index into rules.phases; ``step``: the
  phase's sub-step (movement: RELOCATE, MOVE, OVERRUN; setup: 0; combat: COMBAT's own use).
- ``combat``: the :class:`Battle` in progress (combat phase or overrun), or None; ``cdata``:
  the combat phase's :class:`PhaseData`, or ("overrun", i) during the OVERRUN step; reset at
  phase start. The records are defined here so that the state answers whose turn it is
  without importing the phase modules (they import it).
- ``result``: None while the game goes on, then "german", "soviet" or "draw";
  ``level``: the victory level text at the end ("Soviet decisive", ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from typhoon.games.statebase import CHANCE, OFF, TERMINAL, StateBase
from typhoon.games.tmc.rules import GERMAN, KG_CF, KG_MA, SOVIET, STACK_LIMIT, PhaseSpec, Rules
from typhoon.hexgrid import bit_list

# Movement-phase steps.
RELOCATE = 0  # Soviet movement phase only: EB relocation (§17) before any move
MOVE = 1
OVERRUN = 2  # end of a movement phase: resolving the pending overruns (§14.3)
MOVEMENT_STEP_NAMES = ("relocate", "move", "overrun")


class PendingOverrun(NamedTuple):
    """An overrun declared this movement phase (§14): resolved at phase end."""

    hex: int
    attackers: tuple[int, ...]
    defenders: tuple[int, ...]


# Stages of the battle being resolved (Battle.stage).
ODDS, IGNORE, ROLL, LOSS, DISRUPT, RETREAT, ADVANCE = range(7)


class Declared(NamedTuple):
    """One declared attack: defending hexes and attacking units, in declaration order."""

    hexes: tuple[int, ...]
    attackers: tuple[int, ...]


class PhaseData(NamedTuple):
    """Combat-phase bookkeeping (kept in ``State.cdata``)."""

    declaring: bool = True
    used: int = 0  # units that attack this phase (bitset over units)
    hit: int = 0  # hexes attacked this phase (bitset over hexes)
    battles: tuple[Declared, ...] = ()  # declared, not yet resolved
    draft: Declared | None = None  # the attack being declared


class Battle(NamedTuple):
    """The combat being resolved (``State.combat``), in the combat phase or an overrun."""

    hexes: tuple[int, ...]
    attackers: tuple[int, ...]
    defenders: tuple[int, ...]
    side: int  # the attacking side
    stage: int
    attack: Fraction = Fraction(0)
    defence: Fraction = Fraction(0)
    top: int = 0  # highest column the odds allow
    column: int = 0
    drm: int = 0
    ignore: bool = False
    result: str = ""
    owed: Fraction = Fraction(0)  # Ex / 1/2Ex / De,Ad quota still owed
    chosen: int = 0  # attackers already taken as losses or disrupted (bitset)
    retreating: int = 0  # units still to retreat (bitset)
    then_attackers: bool = False  # Br: the attackers retreat once the defenders have
    advance: bool = False  # advance after the retreats (Dr)
    advanced: int = 0  # units that advanced (bitset)
    overrun: bool = False


class State(StateBase):
    __slots__ = (
        "rules",
        "turn",
        "phase",
        "step",
        "loc",
        "stacks",
        "occ",
        "arrived",
        "eliminated",
        "lost",
        "kg",
        "entrained",
        "flipped",
        "disrupted",
        "spent",
        "entered",
        "overran",
        "relocated",
        "entrainings",
        "overruns",
        "supply",
        "oos",
        "rail_normal",
        "rail_german",
        "rail_soviet",
        "rail_cut",
        "dl_destroyed",
        "vp",
        "moscow_award",
        "combat",
        "cdata",
        "placed",
        "result",
        "level",
        "_cache",
        "_legal",
    )

    rules: Rules
    turn: int
    phase: int
    step: int
    loc: list[int]
    stacks: dict[int, tuple[int, ...]]
    occ: list[int]
    arrived: int
    eliminated: int
    lost: int
    kg: int
    entrained: int
    flipped: int
    disrupted: dict[int, int]
    spent: dict[int, int]
    entered: dict[int, int]
    overran: int
    relocated: int
    entrainings: int
    overruns: tuple[PendingOverrun, ...]
    supply: list[int]
    oos: int
    rail_normal: int
    rail_german: int
    rail_soviet: int
    rail_cut: int
    dl_destroyed: int
    vp: list[int]
    moscow_award: bool
    combat: Any
    cdata: tuple[Any, ...]
    placed: int  # set-up: units placed by the side setting up (bitset)
    result: str | None
    level: str

    def __init__(self, rules: Rules, *, blank: bool = False) -> None:
        self.rules = rules
        if blank:  # copy() fills in every field (a compiled class has no bare __new__)
            return
        n_units = len(rules.units)
        self.turn = 0
        self.phase = 0
        self.step = 0
        self.loc = [OFF] * n_units
        self.stacks = {}
        self.occ = [0, 0]
        self.arrived = 0
        self.eliminated = 0
        self.lost = 0
        self.kg = 0
        self.entrained = 0
        self.flipped = 0
        self.disrupted = {}
        self.spent = {}
        self.entered = {}
        self.overran = 0
        self.relocated = 0
        self.entrainings = 0
        self.overruns = ()
        self.supply = [-1, -1]
        self.oos = 0
        self.rail_normal = rules.initial_normal
        self.rail_german = rules.initial_repaired_german
        self.rail_soviet = 0
        self.rail_cut = 0
        self.dl_destroyed = 0
        self.vp = [0, 0]
        self.moscow_award = False
        self.combat = None
        self.cdata = ()
        self.placed = 0
        self.result = None
        self.level = ""
        self._cache: dict[str, Any] = {}
        self._legal: Sequence[Any] | None = None  # a list or a LazyLegal

    def copy(self) -> State:
        s = State(self.rules, blank=True)
        s.turn = self.turn
        s.phase = self.phase
        s.step = self.step
        s.loc = self.loc[:]
        s.stacks = self.stacks.copy()
        s.occ = self.occ[:]
        s.arrived = self.arrived
        s.eliminated = self.eliminated
        s.lost = self.lost
        s.kg = self.kg
        s.entrained = self.entrained
        s.flipped = self.flipped
        s.disrupted = self.disrupted.copy()
        s.spent = self.spent.copy()
        s.entered = self.entered.copy()
        s.overran = self.overran
        s.relocated = self.relocated
        s.entrainings = self.entrainings
        s.overruns = self.overruns
        s.supply = self.supply[:]
        s.oos = self.oos
        s.rail_normal = self.rail_normal
        s.rail_german = self.rail_german
        s.rail_soviet = self.rail_soviet
        s.rail_cut = self.rail_cut
        s.dl_destroyed = self.dl_destroyed
        s.vp = self.vp[:]
        s.moscow_award = self.moscow_award
        s.combat = self.combat
        s.cdata = self.cdata
        s.placed = self.placed
        s.result = self.result
        s.level = self.level
        s._cache = self._cache
        s._legal = None
        return s

    # -- identity (the caches are not part of it) ------------------------------------------

    def key(self) -> tuple[Any, ...]:
        return (
            self.rules.edition,
            tuple(sorted(self.rules.options.items())),
            self.turn,
            self.phase,
            self.step,
            tuple(self.loc),
            tuple(sorted(self.stacks.items())),
            self.arrived,
            self.eliminated,
            self.lost,
            self.kg,
            self.entrained,
            self.flipped,
            tuple(sorted(self.disrupted.items())),
            tuple(sorted(self.spent.items())),
            tuple(sorted(self.entered.items())),
            self.overran,
            self.relocated,
            self.entrainings,
            self.overruns,
            tuple(self.supply),
            self.oos,
            self.rail_normal,
            self.rail_german,
            self.rail_soviet,
            self.rail_cut,
            self.dl_destroyed,
            tuple(self.vp),
            self.moscow_award,
            self.combat,
            self.cdata,
            self.placed,
            self.result,
            self.level,
        )

    def __repr__(self) -> str:
        return f"State(tmc {self.rules.edition} GT{self.turn} {self.phase_spec.key} step {self.step})"

    # -- reading the position ---------------------------------------------------------------

    @property
    def phase_spec(self) -> PhaseSpec:
        return self.rules.phases[self.phase]

    @property
    def is_chance(self) -> bool:
        """A die roll is due (combat or overrun resolution; their modules say when)."""
        if self.result is not None:
            return False
        kind = self.rules.phases[self.phase].kind
        if kind == "combat" or (kind == "movement" and self.step == OVERRUN):
            return battle_is_chance(self)
        return False

    def current_player(self) -> int:
        """GERMAN (0) or SOVIET (1) to decide, CHANCE (-1) for a die roll, TERMINAL (-2)."""
        if self.result is not None:
            return TERMINAL
        spec = self.rules.phases[self.phase]
        if spec.kind == "combat" or (spec.kind == "movement" and self.step == OVERRUN):
            return battle_player(self)
        return spec.side

    def units_at(self, h: int) -> tuple[int, ...]:
        return self.stacks.get(h, ())

    def cf(self, u: int) -> int:
        """Printed CF of the counter now standing for unit ``u`` (a KG's is 2)."""
        return KG_CF if (self.kg >> u) & 1 else self.rules.units[u].cf

    def ma(self, u: int) -> int:
        """Printed MA of the counter now standing for unit ``u`` (a KG's is 8)."""
        return KG_MA if (self.kg >> u) & 1 else self.rules.units[u].ma

    def is_mech(self, u: int) -> bool:
        return bool((self.rules.mech_mask | self.kg) >> u & 1)

    def in_supply(self, u: int) -> bool:
        """Movement supply as judged at the start of this movement phase (§11): units then on
        the map by their hex (``oos``), units entering later by their entry hex."""
        if u in self.spent:
            return not (self.oos >> u) & 1  # it has moved: its phase-start judgement
        return self.loc[u] < 0 or self.supplied_hex(self.rules.units[u].side, self.loc[u])

    def supplied_hex(self, side: int, h: int) -> bool:
        """Would a unit of ``side`` on ``h`` have been in supply at the start of this phase?"""
        m = self.supply[side]
        return m < 0 or bool((m >> h) & 1)

    def zoc_units_mask(self, side: int) -> int:
        """Hexes holding a unit of ``side`` that exerts a ZOC: not EB (§4.1), not flipped by a
        pending overrun ([Q7]). Disrupted units keep their ZOC. (A hex never holds both sides'
        units, so this is the hexes of the side's exerting units on the map.)"""
        # The side's occupied hexes, less those where every unit is EB or flipped: only the few
        # non-exerting units are looked at (a shift of the whole mask per unit was the cost).
        rules = self.rules
        loc = self.loc
        stacks = self.stacks
        quiet = rules.eb_mask | self.flipped
        drop = 0
        for u in bit_list(rules.side_unit_mask[side] & quiet):
            h = loc[u]
            if h >= 0 and not (drop >> h) & 1 and all((quiet >> x) & 1 for x in stacks[h]):
                drop |= 1 << h
        return self.occ[side] & ~drop if drop else self.occ[side]

    def zoc(self, side: int) -> int:
        """Hexes in the ZOC of ``side``'s units (the six neighbours of each ZOC-exerting
        unit). With option zoc_across_lakes=no, not across unfrozen lake hexsides ([Q6])."""
        c = self._cache
        key = "zoc0" if side == GERMAN else "zoc1"
        got = c.get(key)
        if got is None:
            src = self.zoc_units_mask(side)
            grid = self.rules.grid
            if self.rules.opt("zoc_across_lakes") == "no" and not self.frozen() and self.rules.lake_pairs_any:
                got = 0
                lake = self.rules.map.lake_mask
                for h in bit_list(src):
                    got |= grid.neighbour_mask[h] & ~lake[h]
            else:
                got = grid.expand(src)
            c[key] = got
        return int(got)

    def frozen(self) -> bool:
        """§18: from GT 16 lakes and rivers are frozen (clear hexsides)."""
        return self.turn >= 16

    def rail_destroyed(self) -> int:
        return self.rules.rail_mask & ~(self.rail_normal | self.rail_german | self.rail_soviet)

    def dl_count(self, line: int) -> int:
        """Destroyed front hexsides of defence line ``line`` (§19.5)."""
        return (self.dl_destroyed & self.rules.dl_line_masks[line]).bit_count()

    def moscow_holder(self) -> int:
        """§23 definition: a side holds Moscow with a unit in at least one Moscow hex and no
        enemy unit in any Moscow hex; -1 if neither does."""
        mm = self.rules.map.moscow_mask
        g = bool(self.occ[GERMAN] & mm)
        s = bool(self.occ[SOVIET] & mm)
        if g and not s:
            return GERMAN
        if s and not g:
            return SOVIET
        return -1

    # -- changing the position (engine use only: on a fresh copy) --------------------------

    def put(self, u: int, h: int) -> None:
        """Put an off-map unit on hex ``h`` (set-up, arrival, return)."""
        side = self.rules.units[u].side
        self.loc[u] = h
        self.stacks[h] = self.stacks.get(h, ()) + (u,)
        self.occ[side] |= 1 << h
        self._cache = {}

    def lift(self, u: int) -> None:
        """Take unit ``u`` off the map (elimination bookkeeping is the caller's)."""
        h = self.loc[u]
        if h < 0:
            return
        side = self.rules.units[u].side
        rest = tuple(x for x in self.stacks[h] if x != u)
        if rest:
            self.stacks[h] = rest
        else:
            del self.stacks[h]
            self.occ[side] &= ~(1 << h)
        self.loc[u] = OFF
        self.entrained &= ~(1 << u)
        self.flipped &= ~(1 << u)
        self.disrupted.pop(u, None)
        self._cache = {}

    def relocate(self, u: int, h: int) -> None:
        """Move unit ``u`` from its hex to ``h`` (move leg end, retreat, advance)."""
        self.lift_keep(u)
        self.put(u, h)

    def lift_keep(self, u: int) -> None:
        """Remove ``u`` from its hex keeping its flags (used by ``relocate``)."""
        h = self.loc[u]
        side = self.rules.units[u].side
        rest = tuple(x for x in self.stacks[h] if x != u)
        if rest:
            self.stacks[h] = rest
        else:
            del self.stacks[h]
            self.occ[side] &= ~(1 << h)
        self.loc[u] = OFF

    def eliminate(self, u: int, permanent: bool = False) -> None:
        """Eliminate unit ``u`` (no VP, no KG rule: callers apply §8 and §23 first)."""
        self.lift(u)
        self.eliminated |= 1 << u
        spec = self.rules.units[u]
        if permanent or (self.kg >> u) & 1 or (spec.eb and spec.side == GERMAN):
            self.lost |= 1 << u

    def add_vp(self, side: int, n: int) -> None:
        if n < 0:
            raise AssertionError("victory points never decrease")
        self.vp[side] += n


def battle_is_chance(s: State) -> bool:
    """A battle's die roll is due (combat phase or overrun resolution)."""
    b = s.combat
    return isinstance(b, Battle) and b.stage == ROLL


def battle_player(s: State) -> int:
    """Who decides during a combat phase or an overrun resolution: CHANCE for the die roll,
    the retreating units' opponent during retreats (§12.1), else the attacker; with no
    battle in progress, the phasing side (declarations)."""
    b = s.combat
    if isinstance(b, Battle):
        if b.stage == ROLL:
            return CHANCE
        if b.stage == RETREAT:
            u = (b.retreating & -b.retreating).bit_length() - 1
            return 1 - s.rules.units[u].side  # §12.1: the opponent routes the retreat
        return b.side
    return s.side


__all__ = [
    "ADVANCE",
    "CHANCE",
    "DISRUPT",
    "GERMAN",
    "IGNORE",
    "LOSS",
    "ODDS",
    "RETREAT",
    "ROLL",
    "Battle",
    "Declared",
    "PhaseData",
    "battle_is_chance",
    "battle_player",
    "GERMAN",
    "MOVE",
    "MOVEMENT_STEP_NAMES",
    "OFF",
    "OVERRUN",
    "RELOCATE",
    "SOVIET",
    "STACK_LIMIT",
    "PendingOverrun",
    "State",
    "TERMINAL",
]
