"""Actions of Battle for Moscow: small frozen values, one class per kind of decision.

Units are named by their counter id ("XXIV", "16A", "1SA") and hexes by CCRR id ("0204"), so
an action means the same thing in every edition and reads well in a record. The text notation
is in :mod:`typhoon.games.bfm.notation`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SetupStandard:
    """Place the whole side's set-up in the standard arrangement (quick start)."""


@dataclass(frozen=True, slots=True)
class Place:
    """Set-up: put a unit on one of its side's set-up hexes."""

    unit: str
    hex: str


@dataclass(frozen=True, slots=True)
class Move:
    """Move a unit from ``src`` to ``dst``. ``via`` lists the enemy-held cities it passes
    through on the way (and so takes), in hex order; the destination is not repeated there."""

    unit: str
    src: str
    dst: str
    via: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Attack:
    """Combat declaration: ``unit`` will attack the enemy unit in ``target``."""

    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class End:
    """Finish the current step: end a movement or replacement phase, or close the
    combat declarations (battles are then resolved)."""


@dataclass(frozen=True, slots=True)
class Resolve:
    """Resolve the declared battle against the unit in ``target`` next."""

    target: str


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the die roll of the battle being resolved."""

    die: int


@dataclass(frozen=True, slots=True)
class Lose:
    """Take one step loss from an attacking unit (AL, or the attacker's part of EX)."""

    unit: str


@dataclass(frozen=True, slots=True)
class Retreat:
    """Retreat the defender along ``path`` (hexes entered, last is where it ends)."""

    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StandFast:
    """VPG: the defender in a major city takes a step loss instead of retreating (True),
    or retreats (False)."""

    accept: bool


@dataclass(frozen=True, slots=True)
class Advance:
    """After combat: ``unit`` advances into the defender's vacated hex, or none does (None)."""

    unit: str | None


@dataclass(frozen=True, slots=True)
class Rebuild:
    """Replacement: return an eliminated unit at half strength on ``hex``."""

    unit: str
    hex: str


@dataclass(frozen=True, slots=True)
class Restore:
    """Replacement: bring a half-strength unit back to full strength."""

    unit: str


@dataclass(frozen=True, slots=True)
class Reinforce:
    """Place a free reinforcement (VPG: 1st Shock Army on turn 4) on ``hex``."""

    unit: str
    hex: str


Action = (
    SetupStandard
    | Place
    | Move
    | Attack
    | End
    | Resolve
    | Roll
    | Lose
    | Retreat
    | StandFast
    | Advance
    | Rebuild
    | Restore
    | Reinforce
)

ACTION_TYPES: tuple[type, ...] = (
    SetupStandard,
    Place,
    Move,
    Attack,
    End,
    Resolve,
    Roll,
    Lose,
    Retreat,
    StandFast,
    Advance,
    Rebuild,
    Restore,
    Reinforce,
)

END = End()
ROLLS = tuple(Roll(d) for d in range(1, 7))
