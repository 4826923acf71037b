"""MOCKBA states (immutable values), actions and the phase table.

Sequence of play: seed 000 "The game turn" (reference pack rules_en.md section 4): seven steps a
player-turn, German first; on turn 1 the 2nd Panzer Army repeats steps 3 and 4 (g_move2p,
g_combat2p). The German air allocation is step 1 of the German player-turn, the Soviet
reinforcements step 1 of the Soviet one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .rules import GERMAN, SOVIET, Rules

CHANCE, TERMINAL = -1, -2
OFF, ELIM = -1, -2  # unit location: not (yet) on the map / eliminated


class PhaseSpec(NamedTuple):
    key: str
    name: str
    side: int
    kind: str  # air, reinforce, supply, movement, combat, control


PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("g_air", "German air force allocation", GERMAN, "air"),
    PhaseSpec("g_supply", "German supply determination", GERMAN, "supply"),
    PhaseSpec("g_move", "German first movement phase", GERMAN, "movement"),
    PhaseSpec("g_combat", "German first combat phase", GERMAN, "combat"),
    PhaseSpec("g_move2p", "2nd Panzer Army movement (turn 1)", GERMAN, "movement"),
    PhaseSpec("g_combat2p", "2nd Panzer Army combat (turn 1)", GERMAN, "combat"),
    PhaseSpec("g_followup", "German follow-up combat phase", GERMAN, "combat"),
    PhaseSpec("g_exploit", "German exploitation phase", GERMAN, "movement"),
    PhaseSpec("g_control", "German supply control", GERMAN, "control"),
    PhaseSpec("s_reinforce", "Soviet reinforcements and rebuilding", SOVIET, "reinforce"),
    PhaseSpec("s_supply", "Soviet supply determination", SOVIET, "supply"),
    PhaseSpec("s_move", "Soviet first movement phase", SOVIET, "movement"),
    PhaseSpec("s_combat", "Soviet first combat phase", SOVIET, "combat"),
    PhaseSpec("s_followup", "Soviet follow-up combat phase", SOVIET, "combat"),
    PhaseSpec("s_exploit", "Soviet exploitation phase", SOVIET, "movement"),
    PhaseSpec("s_control", "Soviet supply control", SOVIET, "control"),
)
PHASE_INDEX = {p.key: i for i, p in enumerate(PHASES)}
# Option setup=free (pack 2.2-2.3): before turn 1 the Soviet sets up, then the German
# (State.setup indexes this; -1 = no set-up phase, the game proper).
SETUP_PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("s_setup", "Soviet set-up", SOVIET, "setup"),
    PhaseSpec("g_setup", "German set-up", GERMAN, "setup"),
)


class Move(NamedTuple):
    unit: str
    dst: str
    kind: str = "move"


class Place(NamedTuple):
    unit: str  # free set-up (pack 2.2-2.3): the next unit of the side to set up
    hex: str
    kind: str = "place"


class Rail(NamedTuple):
    unit: str
    dst: str
    kind: str = "rail"


class Blow(NamedTuple):
    unit: str  # optional rule 3: a Soviet unit at a bridge, instead of attacking
    dst: str  # the hex across the bridge's river hexside
    kind: str = "blow"


class Reinforce(NamedTuple):
    unit: str
    hex: str
    kind: str = "reinforce"


class Rebuild(NamedTuple):
    unit: str
    hex: str
    kind: str = "rebuild"


class Attack(NamedTuple):
    unit: str
    target: str
    kind: str = "attack"


class Advance(NamedTuple):
    unit: str
    hex: str
    kind: str = "advance"


class Dig(NamedTuple):
    unit: str
    kind: str = "dig"


class Undig(NamedTuple):
    unit: str
    kind: str = "undig"


class AirSupply(NamedTuple):
    unit: str
    kind: str = "airsupply"


class Drop(NamedTuple):
    hex: str  # optional rule 6: the para unit's drop hex
    kind: str = "drop"


class Lose(NamedTuple):
    unit: str
    kind: str = "lose"


class Support(NamedTuple):
    accept: bool  # the defender adds its air point to the attacked hex
    kind: str = "support"


class Retreat(NamedTuple):
    path: tuple[str, ...]  # () = (D3) the defender retreats and the attacker picks the route
    kind: str = "retreat"


class Roll(NamedTuple):
    die: int
    kind: str = "roll"


class Bare(NamedTuple):
    kind: str  # counterair, interdict, air, fire, cancel, reduce, stay, end


COUNTERAIR, INTERDICT, AIR, FIRE, CANCEL, REDUCE, STAY, END = (
    Bare(k) for k in ("counterair", "interdict", "air", "fire", "cancel", "reduce", "stay", "end")
)
BARE_KINDS = ("counterair", "interdict", "air", "fire", "cancel", "reduce", "stay", "end")
ROLLS = tuple(Roll(d) for d in range(1, 7))
# Free set-up: the side's remaining units as in the fixed lay-out (kept out of BARE_KINDS so the
# env codec's existing codes do not move).
STANDARD = Bare("standard")


@dataclass(frozen=True)
class Battle:
    """One attack being declared or resolved."""

    target: int
    attackers: tuple[int, ...] = ()
    air: int = 0  # attacker's air points
    dair: int = 0  # defender's air point (0 or 1)
    step: str = "declare"  # declare, support, roll, retreat, d3, loss, penalty, advance
    column: int = -1
    die: int = 0
    result: str = ""
    defenders: tuple[int, ...] = ()
    losses: int = 0  # CF the attacker still has to lose (EX)
    groups: tuple[int, ...] = ()  # hexes whose units still have to retreat (A1/A2: attackers)
    length: int = 0  # hexes to retreat
    eliminated: bool = False  # every defender eliminated (fortification advance)
    terrain_edge: bool = False  # the defender had a terrain advantage (optional rule 4)
    lost_unit: bool = False  # the defender lost a unit


@dataclass(frozen=True)
class State:
    rules: Rules
    turn: int
    phase: int
    loc: tuple[int, ...]
    red: int = 0  # bitset of units on their reduced side
    dug: int = 0  # bitset of dug-in Soviet infantry
    oos: int = 0  # bitset of units marked out of supply
    airsup: int = 0  # bitset of German units air-supplied this turn
    moved: int = 0  # bitset of units that moved (or dug in, or entered) this phase
    attacked: int = 0  # bitset of units that attacked this phase
    fu: int = 0  # bitset of units that attacked in the follow-up phase (no exploitation)
    retreated: int = 0  # bitset of units retreated this phase (Q4: they add no strength)
    dropped: int = 0  # bitset of para units dropped this turn (no first movement, supplied)
    hit: int = 0  # bitset of enemy units attacked in this player turn's first combat phase(s)
    cut: int = 0  # bitset of interrupted rail hexes
    control: int = 0  # bitset of city hexes held by the German
    taken: int = 0  # bitset of victory-city hexes the German captured in time
    air_g: int = 0
    air_s: int = 0
    rail_left: int = 0
    rebuilt: int = 0  # units (or half-divisions with optional rule 5) rebuilt so far
    rebuilt_armour: int = 0
    rebuilt_turn: int = 0  # rebuilt this turn
    battle: Battle | None = None
    result: str | None = None
    score: int | None = None
    blown: int = 0  # optional rule 3: bitset of blown bridges (Rules.bridges indices)
    tried: int = 0  # optional rule 3: bridges tried this phase
    setup: int = -1  # option setup=free: index of SETUP_PHASES while setting up, else -1
    _memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    @property
    def phase_spec(self) -> PhaseSpec:
        # A finished game rests after the last phase (phase == len(PHASES)): shown as that phase.
        if self.setup >= 0:
            return SETUP_PHASES[self.setup]
        return PHASES[min(self.phase, len(PHASES) - 1)]

    @property
    def side(self) -> int:
        return self.phase_spec.side

    @property
    def is_terminal(self) -> bool:
        return self.result is not None

    @property
    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        b = self.battle
        if b is None:
            return self.side
        if b.step in ("roll", "drop_roll", "blow_roll"):
            return CHANCE
        if b.step == "support":
            return 1 - self.side
        if b.step == "retreat" and b.result in ("D1", "D2"):
            return 1 - self.side  # the owner retreats; D3: the attacker picks the route (seed)
        if b.step == "d3":
            return 1 - self.side
        return self.side

    def copy(self) -> State:
        return dataclasses.replace(self, _memo={})

    def replace(self, **kw: Any) -> State:
        return dataclasses.replace(self, _memo={}, **kw)

    def units_at(self, h: int) -> list[int]:
        if "at" not in self._memo:
            at: dict[int, list[int]] = {}
            for u, x in enumerate(self.loc):
                if x >= 0:
                    at.setdefault(x, []).append(u)
            self._memo["at"] = at
        return list(self._memo["at"].get(h, ()))

    def occupied(self, side: int) -> int:
        key = f"occ{side}"
        if key not in self._memo:
            units = self.rules.units
            out = 0
            for u, x in enumerate(self.loc):
                if x >= 0 and units[u].side == side:
                    out |= 1 << x
            self._memo[key] = out
        return self._memo[key]  # type: ignore[no-any-return]


__all__ = ["GERMAN", "SOVIET"]
