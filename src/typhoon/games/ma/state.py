"""Moscow Attacked! states (immutable values), actions and the phase table.

Sequence of play: rules_en.md section 2 (reconstruction assembled from the phases the seed and the
designer's CRT page name). Unit status: READY, SPENT, DISPERSED (rules_en.md section 4).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .rules import GERMAN, SOVIET, Rules

CHANCE, TERMINAL = -1, -2
OFF, ELIM = -1, -2  # unit location: not (yet) on the map / eliminated
READY, SPENT, DISPERSED = 0, 1, 2
STATUS_WORDS = ("ready", "spent", "dispersed")


class PhaseSpec(NamedTuple):
    key: str
    name: str
    side: int
    kind: str  # recover, reinforce, combat, movement, isolation, victory, reface


PHASES: tuple[PhaseSpec, ...] = (
    # 13 (seed): the Soviet sets up the Strategic Bombers "on any city or town" he chooses; a
    # decision only before game-turn 1, skipped on every later turn.
    PhaseSpec("setup", "Soviet set-up: Strategic Bombers base", SOVIET, "setup"),
    PhaseSpec("g_initial", "German Initial Phase", GERMAN, "recover"),
    PhaseSpec("g_prepared", "German Prepared Attacks", GERMAN, "combat"),
    PhaseSpec("g_movement", "German Operational Movement", GERMAN, "movement"),
    PhaseSpec("g_operational", "German Operational Attacks", GERMAN, "combat"),
    PhaseSpec("g_isolation", "German Isolation Determination", GERMAN, "isolation"),
    PhaseSpec("g_victory", "German Victory Determination", GERMAN, "victory"),
    PhaseSpec("s_initial", "Russian Initial Phase", SOVIET, "recover"),
    PhaseSpec("s_reinforce", "Russian Replacement, Reinforcement and Rail Movement", SOVIET, "reinforce"),
    PhaseSpec("s_prepared", "Russian Prepared Attacks", SOVIET, "combat"),
    PhaseSpec("s_movement", "Russian Operational Movement", SOVIET, "movement"),
    PhaseSpec("s_operational", "Russian Operational Attacks", SOVIET, "combat"),
    PhaseSpec("s_isolation", "Russian Isolation Determination", SOVIET, "isolation"),
    PhaseSpec("s_victory", "Russian Victory Determination", SOVIET, "victory"),
    PhaseSpec("reface", "Re-facing of Spent units", GERMAN, "reface"),
)
PHASE_INDEX = {p.key: i for i, p in enumerate(PHASES)}


# Actions: immutable named tuples with a fixed ``kind``; unit and hex ids as text ("13A", "D3").
class Move(NamedTuple):
    unit: str
    dst: str
    kind: str = "move"


class Rail(NamedTuple):
    unit: str
    dst: str
    kind: str = "rail"


class Reinforce(NamedTuple):
    unit: str
    hex: str
    kind: str = "reinforce"


class Replace(NamedTuple):
    unit: str
    hex: str
    kind: str = "replace"


class Base(NamedTuple):
    unit: str  # the Strategic Bombers choose (set-up) or change (Replacement phase) their base city
    hex: str
    kind: str = "base"


class Disband(NamedTuple):
    unit: str
    kind: str = "disband"


class Order(NamedTuple):
    mode: str  # the Soviet "No Retreat!" order: none, all, front (all but Moscow), moscow (Moscow only)
    kind: str = "order"


class Attack(NamedTuple):
    unit: str
    target: str
    kind: str = "attack"


class Air(NamedTuple):
    unit: str
    kind: str = "air"


class Airdrop(NamedTuple):
    unit: str
    hex: str
    kind: str = "airdrop"


class Bomb(NamedTuple):
    unit: str  # a German air unit bombing Moscow (rules_en.md 8.3)
    kind: str = "bomb"


class Fire(NamedTuple):
    kind: str = "fire"


class Cancel(NamedTuple):
    kind: str = "cancel"


class Intercept(NamedTuple):
    unit: str
    kind: str = "intercept"


class Pass(NamedTuple):
    kind: str = "pass"


class NoRetreat(NamedTuple):
    accept: bool
    kind: str = "noretreat"


class Exchange(NamedTuple):
    accept: bool
    kind: str = "exchange"


class Lose(NamedTuple):
    unit: str
    kind: str = "lose"


class Disperse(NamedTuple):
    unit: str
    kind: str = "disperse"


class Retreat(NamedTuple):
    path: tuple[str, ...]  # () = the attacker retreats the defenders 0 hexes
    kind: str = "retreat"


class Stay(NamedTuple):
    kind: str = "stay"


class Advance(NamedTuple):
    unit: str
    hex: str
    kind: str = "advance"


class End(NamedTuple):
    kind: str = "end"


class Roll(NamedTuple):
    die: int
    kind: str = "roll"


ROLLS = tuple(Roll(d) for d in range(1, 7))


@dataclass(frozen=True)
class Battle:
    """One attack (or an air-resupply mission, ``drop``) being declared or resolved."""

    target: int
    attackers: tuple[int, ...] = ()
    air: tuple[int, ...] = ()
    step: str = "declare"  # declare, intercept, icpt_roll, roll, noretreat, exchange, loss, retreat,
    # extra, advance
    drop: bool = False
    bomb: bool = False  # a bombing raid on Moscow
    interceptor: int = -1
    column: int = -1  # CRT column index fixed at the roll
    die: int = 0
    result: str = ""  # the defender's result after conversions
    losses: int = 0  # attack factors the attacker still has to lose (AE) or disperse (AD)
    loss_kind: str = ""  # "AE", "AD"
    defenders: tuple[int, ...] = ()
    at: int = -1  # where the defenders are now
    retreated: int = 0
    advanced: tuple[int, ...] = ()
    attack_from: int = 0  # bitset of the attackers' hexes
    hold: bool = False  # No Retreat! (or surrounded) applies to this attack


@dataclass(frozen=True)
class State:
    rules: Rules
    turn: int
    phase: int
    loc: tuple[int, ...]
    status: tuple[int, ...]
    control: int  # bitset over place hexes: set = last occupied by a German unit
    repl: int = 0  # Soviet replacement factors banked
    noretreat: str = "none"  # the Soviet order for this game-turn: none, all, moscow
    ordered: bool = False  # the order was given this phase
    moved: int = 0  # bitset of units that moved this phase
    br_used: int = 0  # bitset of units that have had their breakthrough bonus attack this phase
    air_used: int = 0  # bitset of air units flown this game-turn
    down: tuple[int, ...] = ()  # per unit: shot down until the end of this game-turn (0 none)
    dropped: int = 0  # bitset of hexes air-supplied for the rest of the game-turn
    entered: int = 0  # bitset of hexes where a replacement entered this phase
    hit: int = 0  # bitset of units attacked this phase (mandatory attacks)
    att_from: int = 0  # bitset of hexes from which the phasing side attacked this phase
    panic: bool = False  # Moscow bombed to PANIC this game-turn: +1 column to German attacks
    iso: tuple[tuple[int, ...], ...] = ()  # isolated groups still to lose a unit
    base: int = -1  # the Strategic Bombers' base city (8.1, 8.4), -1 = not (yet) chosen
    based: bool = False  # the base was changed this phase
    battle: Battle | None = None
    result: str | None = None
    _memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    @property
    def phase_spec(self) -> PhaseSpec:
        return PHASES[self.phase]

    @property
    def side(self) -> int:
        return PHASES[self.phase].side

    @property
    def weather(self) -> str:
        return self.rules.weather[self.turn]

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
        if b.step in ("roll", "icpt_roll", "bomb_roll"):
            return CHANCE
        if b.step in ("intercept", "noretreat", "extra"):
            return 1 - self.side
        return self.side

    def copy(self) -> State:
        return dataclasses.replace(self, _memo={})

    def replace(self, **kw: Any) -> State:
        return dataclasses.replace(self, _memo={}, **kw)

    def units_at(self, h: int) -> list[int]:
        if h < 0:
            return [u for u, x in enumerate(self.loc) if x == h]
        at = self._memo.get("at")
        if at is None:
            at = {}
            for u, x in enumerate(self.loc):
                if x >= 0:
                    at.setdefault(x, []).append(u)
            self._memo["at"] = at
        return list(at.get(h, ()))  # a copy: callers may extend it

    def occupied(self, side: int) -> int:
        key = "occ0" if side == 0 else "occ1"
        memo = self._memo.get(key)
        if memo is not None:
            return memo  # type: ignore[no-any-return]
        units = self.rules.units
        out = 0
        for u, x in enumerate(self.loc):
            if x >= 0 and units[u].side == side:
                out |= 1 << x
        self._memo[key] = out
        return out

    def controller(self, h: int) -> int:
        return GERMAN if self.control >> h & 1 else SOVIET
