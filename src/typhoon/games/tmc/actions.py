"""Actions of The Moscow Campaign: small immutable values, one class per kind of decision.

Units are named by their counter id and hexes by CCRR id, so an action reads the same in
every scenario and in a record. Actions are named tuples whose last field ``kind`` is fixed
per class (actions of different kinds never compare equal). Text notation:
:mod:`typhoon.games.tmc.notation`.

Movement is by legs: ``Move`` takes a unit from where it stands to any hex it can reach with
the movement points it has left, along the cheapest path (ties: the path found first by the
engine's search, which visits neighbours in hex order). A unit with points left may move
again, so any path can be followed exactly by moving hex by hex; side effects (rail
destroyed or repaired, defence-line hexsides crossed, lone [#] units removed) are those of
the path taken. Combat actions are used by the COMBAT helper's combat_phase.py/overrun.py.
"""

from __future__ import annotations

from typing import NamedTuple


class SetupStandard(NamedTuple):
    """Set-up: place every remaining unit of the side on its reconstructed deployment hex."""

    kind: str = "setupstandard"


class Place(NamedTuple):
    """Set-up: put ``unit`` on ``hex`` (§25 constraints)."""

    unit: str
    hex: str
    kind: str = "place"


class Move(NamedTuple):
    """Movement leg of ``unit`` from ``src`` to ``dst`` (cheapest path)."""

    unit: str
    src: str
    dst: str
    kind: str = "move"


class Enter(NamedTuple):
    """German reinforcement (or replacement) enters the map on west-edge entry hex ``hex``,
    paying that hex's cost (§22.2); it may move on with what is left."""

    unit: str
    hex: str
    kind: str = "enter"


class Arrive(NamedTuple):
    """Soviet reinforcement arrives entrained on east-edge rail hex ``hex`` (§22.3, [Q57])."""

    unit: str
    hex: str
    kind: str = "arrive"


class Entrain(NamedTuple):
    """Soviet unit on a normal rail hex entrains for half its MA (§20.3)."""

    unit: str
    kind: str = "entrain"


class RailMove(NamedTuple):
    """Entrained Soviet unit moves along normal rail from ``src`` to ``dst`` (§20.4)."""

    unit: str
    src: str
    dst: str
    kind: str = "railmove"


class Detrain(NamedTuple):
    """Entrained Soviet unit detrains for a quarter of its MA, rounded up (§20.5)."""

    unit: str
    kind: str = "detrain"


class Relocate(NamedTuple):
    """Start of the Soviet movement phase: pick up a Soviet EB unit and put it on another
    normal rail hex (§17, [Q45])."""

    unit: str
    hex: str
    kind: str = "relocate"


class Overrun(NamedTuple):
    """Declare an overrun of the enemy units on ``hex`` by ``units`` (adjacent, 11-1 or
    better, §14); they stop moving and the defenders are flipped until phase end."""

    hex: str
    units: tuple[str, ...]
    kind: str = "overrun"


class JoinOverrun(NamedTuple):
    """Add an adjacent unit to an overrun already declared this phase (§14.5)."""

    unit: str
    hex: str
    kind: str = "join"


class End(NamedTuple):
    """Finish the current step: the EB relocation step, a movement phase, the set-up, or a
    combat-phase step (the COMBAT helper decides what End means there)."""

    kind: str = "end"


class Attack(NamedTuple):
    """Combat: ``units`` attack the enemy hex ``target`` (declaration, COMBAT helper)."""

    target: str
    units: tuple[str, ...]
    kind: str = "attack"


class Odds(NamedTuple):
    """Combat: the attacker resolves on a lower odds column ``column`` (e.g. "3-1"), §5.4."""

    column: str
    kind: str = "odds"


class Ignore(NamedTuple):
    """Combat: declare (True) or not (False) that the ignorable result (Dr, [Q8]) is ignored."""

    accept: bool
    kind: str = "ignore"


class Roll(NamedTuple):
    """Chance: one die roll."""

    die: int
    kind: str = "roll"


class Lose(NamedTuple):
    """Combat: eliminate attacking ``unit`` toward an Ex / half-Ex quota (§7)."""

    unit: str
    kind: str = "lose"


class Disrupt(NamedTuple):
    """Combat: disrupt attacking ``unit`` toward a De,Ad quota (§7)."""

    unit: str
    kind: str = "disrupt"


class Retreat(NamedTuple):
    """Combat: retreat ``unit`` one hex to ``hex`` (chosen by the opposing player, §12)."""

    unit: str
    hex: str
    kind: str = "retreat"


class Advance(NamedTuple):
    """After combat: ``unit`` advances into vacated ``hex`` (§9); unit None ends advancing."""

    unit: str | None
    hex: str
    kind: str = "advance"


Action = (
    SetupStandard
    | Place
    | Move
    | Enter
    | Arrive
    | Entrain
    | RailMove
    | Detrain
    | Relocate
    | Overrun
    | JoinOverrun
    | End
    | Attack
    | Odds
    | Ignore
    | Roll
    | Lose
    | Disrupt
    | Retreat
    | Advance
)

ACTION_TYPES: tuple[type, ...] = (
    SetupStandard,
    Place,
    Move,
    Enter,
    Arrive,
    Entrain,
    RailMove,
    Detrain,
    Relocate,
    Overrun,
    JoinOverrun,
    End,
    Attack,
    Odds,
    Ignore,
    Roll,
    Lose,
    Disrupt,
    Retreat,
    Advance,
)

END = End()
SETUP_STANDARD = SetupStandard()
ROLLS = tuple(Roll(d) for d in range(1, 7))
