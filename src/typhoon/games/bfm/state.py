"""The state of a Battle for Moscow game.

A State is a plain record of the position: where each unit is and at what strength, who
controls each city, the turn and phase, and what the combat or replacement step in progress
still owes. The engine never changes a State it was given; ``apply`` works on a copy. Copies
are cheap (a few short lists) and share the per-phase caches of derived facts (zones of
control, movement ranges, communication), which stay valid until the positions they were
computed from change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

from typhoon.games.bfm.rules import GERMAN, SOVIET, PhaseSpec, Rules
from typhoon.games.statebase import CHANCE, OFF, TERMINAL, StateBase
from typhoon.mechanics.zoc import zoc_mask

# OFF (a unit's location): not on the map (eliminated, in the pool, or not yet arrived)

# Combat steps within a combat phase.
DECLARE, CHOOSE, ROLL, STAND, LOSS, RETREAT, ADVANCE = range(7)
STEP_NAMES = ("declare", "choose", "roll", "standfast", "loss", "retreat", "advance")


class Battle(NamedTuple):
    """The battle being resolved. ``owed`` is what the attacker still has to lose:
    strength points after EX, or -1 for the single step of AL."""

    defender: int
    attackers: tuple[int, ...]
    hex: int
    column: int = 0
    result: str = ""
    owed: int = 0


class State(StateBase):
    __slots__ = (
        "rules",
        "turn",
        "phase",
        "loc",
        "steps",
        "at",
        "occ",
        "control",
        "done",
        "repl",
        "rebuilt",
        "arrived",
        "stack",
        "battles",
        "cstep",
        "cur",
        "result",
        "_cache",
        "_legal",
    )

    rules: Rules
    turn: int  # 0 during set-up, then 1..last turn
    phase: int  # index into rules.phases
    loc: list[int]  # per unit: hex index or OFF
    steps: list[int]  # per unit: 2 full, 1 half, 0 off the map
    at: list[int]  # per hex: the unit there (the one that moved in, if two share it), or -1
    occ: list[int]  # per side: bitset of hexes holding that side's units
    control: int  # bitset over rules.map.cities: set = German-controlled
    done: int  # bitset over units: moved (movement), declared (combat), placed (set-up)
    repl: int  # replacements left in a replacement phase
    rebuilt: int  # units rebuilt this replacement phase (may not also be restored)
    arrived: int  # reinforcements that have arrived
    stack: int  # unit that must leave the hex it shares with a unit that moved in, or -1
    battles: tuple[tuple[int, tuple[int, ...]], ...]  # declared, unresolved: (defender, attackers)
    cstep: int
    cur: Battle | None
    result: str | None  # None while the game goes on; then "german", "soviet" or "draw"

    def __init__(self, rules: Rules, *, blank: bool = False) -> None:
        self.rules = rules
        if blank:  # copy() fills in every field (a compiled class has no bare __new__)
            return
        n_units = len(rules.units)
        self.turn = 0
        self.phase = 0
        self.loc = [OFF] * n_units
        self.steps = [0] * n_units
        self.at = [-1] * rules.map.grid.size
        self.occ = [0, 0]
        self.control = 0
        for i, c in enumerate(rules.map.cities):
            if c.initial_control == "german":
                self.control |= 1 << i
        self.done = 0
        self.repl = 0
        self.rebuilt = 0
        self.arrived = 0
        self.stack = -1
        self.battles = ()
        self.cstep = DECLARE
        self.cur = None
        self.result = None
        self._cache: dict[str, Any] = {}
        self._legal: list[Any] | None = None

    def copy(self) -> State:
        s = State(self.rules, blank=True)
        s.turn = self.turn
        s.phase = self.phase
        s.loc = self.loc[:]
        s.steps = self.steps[:]
        s.at = self.at[:]
        s.occ = self.occ[:]
        s.control = self.control
        s.done = self.done
        s.repl = self.repl
        s.rebuilt = self.rebuilt
        s.arrived = self.arrived
        s.stack = self.stack
        s.battles = self.battles
        s.cstep = self.cstep
        s.cur = self.cur
        s.result = self.result
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
            tuple(self.loc),
            tuple(self.steps),
            tuple(self.at),
            self.control,
            self.done,
            self.repl,
            self.rebuilt,
            self.arrived,
            self.stack,
            self.battles,
            self.cstep,
            self.cur,
            self.result,
        )

    # Set by typhoon.games.bfm.notation when it is imported (the notation builds on the state,
    # so the state does not import it: no import circle).
    position_text: ClassVar[Callable[[State], str] | None] = None

    def __repr__(self) -> str:
        text = State.position_text
        if text is None:
            return f"State(turn={self.turn}, phase={self.phase})"
        return f"State({text(self)!r})"

    # -- reading the position ---------------------------------------------------------------

    @property
    def phase_spec(self) -> PhaseSpec:
        return self.rules.phases[self.phase]

    @property
    def is_chance(self) -> bool:
        return self.result is None and self.cstep == ROLL and self.rules.phases[self.phase].kind == "combat"

    def current_player(self) -> int:
        """GERMAN (0) or SOVIET (1) to decide, CHANCE (-1) for a die roll, TERMINAL (-2)."""
        if self.result is not None:
            return TERMINAL
        spec = self.rules.phases[self.phase]
        if spec.kind == "combat":
            if self.cstep == ROLL:
                return CHANCE
            if self.cstep == STAND:
                return 1 - spec.side
        return spec.side

    def is_mud(self) -> bool:
        return self.turn in self.rules.mud_turns

    def units_at(self, h: int) -> list[int]:
        """All units on a hex (two only while one waits to move off a hex another entered)."""
        u = self.at[h]
        if u < 0:
            return []
        if self.stack >= 0 and self.loc[self.stack] == h:
            return [u, self.stack]
        return [u]

    def strength(self, unit: int) -> int:
        return self.rules.units[unit].strength(self.steps[unit])

    def controller(self, city_index: int) -> int:
        return GERMAN if (self.control >> city_index) & 1 else SOVIET

    def city_controller_at(self, h: int) -> int | None:
        i = self.rules.map.city_at.get(h)
        return None if i is None else self.controller(i)

    def controlled_city_mask(self, side: int) -> int:
        """Bitset of hexes of the cities ``side`` controls."""
        m = 0
        for i, c in enumerate(self.rules.map.cities):
            if self.controller(i) == side:
                m |= 1 << c.hex
        return m

    def zoc(self, side: int) -> int:
        """Hexes in the zone of control of ``side``'s units."""
        return zoc_mask(self.occ[side], self.rules.map.grid.expand)

    # -- changing the position (engine use only: on a fresh copy) --------------------------

    def put(self, unit: int, h: int) -> None:
        """Put an off-map unit on an empty hex."""
        self.loc[unit] = h
        self.at[h] = unit
        self.occ[self.rules.units[unit].side] |= 1 << h

    def lift(self, unit: int) -> None:
        """Take a unit off the map (eliminated). It keeps no strength."""
        h = self.loc[unit]
        self.loc[unit] = OFF
        self.steps[unit] = 0
        if h >= 0 and self.at[h] == unit:
            self.at[h] = -1
            self.occ[self.rules.units[unit].side] &= ~(1 << h)

    def relocate(self, unit: int, h: int) -> None:
        """Move a unit on the map to an empty hex (retreat, advance)."""
        src = self.loc[unit]
        side = self.rules.units[unit].side
        if self.at[src] == unit:
            self.at[src] = -1
            self.occ[side] &= ~(1 << src)
        self.loc[unit] = h
        self.at[h] = unit
        self.occ[side] |= 1 << h

    def take_cities(self, side: int, hexes_mask: int) -> bool:
        """Give ``side`` the cities on the hexes of ``hexes_mask``; True if any changed hands."""
        if not hexes_mask & self.rules.map.city_mask:
            return False
        before = self.control
        for i, c in enumerate(self.rules.map.cities):
            if (hexes_mask >> c.hex) & 1:
                if side == GERMAN:
                    self.control |= 1 << i
                else:
                    self.control &= ~(1 << i)
        return self.control != before

    def lose_step(self, unit: int) -> int:
        """One step loss; returns the strength points lost (full minus half for a flip)."""
        spec = self.rules.units[unit]
        lost = spec.loss(self.steps[unit])
        if self.steps[unit] == 2:
            self.steps[unit] = 1
        else:
            self.lift(unit)
        return lost
