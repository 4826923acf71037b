"""Actions of Battle for Moscow: small immutable values, one class per kind of decision.

Units are named by their counter id ("XXIV", "16A", "1SA") and hexes by CCRR id ("0204"), so
an action means the same thing in every edition and reads well in a record. The text notation
is in :mod:`typhoon.games.bfm.notation`.

Actions are named tuples (cheap to make: the engine builds hundreds per phase) whose last field
``kind`` is fixed per class, so actions of different kinds never compare equal.
"""

from __future__ import annotations

from typing import NamedTuple


class SetupStandard(NamedTuple):
    """Place the whole side's set-up in the standard arrangement (quick start)."""

    kind: str = "setupstandard"


class Place(NamedTuple):
    """Set-up: put a unit on one of its side's set-up hexes."""

    unit: str
    hex: str
    kind: str = "place"


class Move(NamedTuple):
    """Move a unit from ``src`` to ``dst``. ``via`` lists the enemy-held cities it passes
    through on the way (and so takes), in hex order; the destination is not repeated there."""

    unit: str
    src: str
    dst: str
    via: tuple[str, ...] = ()
    kind: str = "move"


class Attack(NamedTuple):
    """Combat declaration: ``unit`` will attack the enemy unit in ``target``."""

    unit: str
    target: str
    kind: str = "attack"


class End(NamedTuple):
    """Finish the current step: end a movement or replacement phase, or close the
    combat declarations (battles are then resolved)."""

    kind: str = "end"


class Resolve(NamedTuple):
    """Resolve the declared battle against the unit in ``target`` next."""

    target: str
    kind: str = "resolve"


class Roll(NamedTuple):
    """Chance: the die roll of the battle being resolved."""

    die: int
    kind: str = "roll"


class Lose(NamedTuple):
    """Take one step loss from an attacking unit (AL, or the attacker's part of EX)."""

    unit: str
    kind: str = "lose"


class Retreat(NamedTuple):
    """Retreat the defender along ``path`` (hexes entered, last is where it ends)."""

    path: tuple[str, ...]
    kind: str = "retreat"


class StandFast(NamedTuple):
    """VPG: the defender in a major city takes a step loss instead of retreating (True),
    or retreats (False)."""

    accept: bool
    kind: str = "standfast"


class Advance(NamedTuple):
    """After combat: ``unit`` advances into the defender's vacated hex, or none does (None)."""

    unit: str | None
    kind: str = "advance"


class Rebuild(NamedTuple):
    """Replacement: return an eliminated unit at half strength on ``hex``."""

    unit: str
    hex: str
    kind: str = "rebuild"


class Restore(NamedTuple):
    """Replacement: bring a half-strength unit back to full strength."""

    unit: str
    kind: str = "restore"


class Reinforce(NamedTuple):
    """Place a free reinforcement (VPG: 1st Shock Army on turn 4) on ``hex``."""

    unit: str
    hex: str
    kind: str = "reinforce"


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
