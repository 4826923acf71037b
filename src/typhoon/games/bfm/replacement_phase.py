"""Replacement phases (seed 002, "Replacements", "1st Shock Army", "Game balance").

- German: one replacement a turn from turn 2 (option: turns 2, 4 and 6 only); Soviet: five
  (options: four or three; VPG default 5,5,4,4,5,5,5). Unused replacements are lost.
- A replacement either rebuilds an eliminated unit at half strength or brings a half-strength
  unit to full strength; a unit rebuilt this phase may not also be restored (two replacements
  never make a full-strength unit from nothing in one phase).
- A rebuilt unit appears on an empty hex of its side's map edge, or in an empty friendly city
  in communication with that edge (hence at most one per city). A restored unit must be in
  communication with its edge. The Soviet player may rebuild or restore in Moscow even
  without communication.
- Communication: a path of any length to the edge that never enters a hex holding an enemy
  unit or in an enemy zone of control.
- 1st Shock Army: not a replacement before turn 4 (GDW); VPG: arrives free on turn 4.
"""

from __future__ import annotations

from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.bfm.actions import END, Action, End, Rebuild, Reinforce, Restore
from typhoon.games.bfm.flow import end_phase, reinforcement_due, unit_available
from typhoon.games.bfm.rules import SOVIET
from typhoon.games.bfm.state import OFF, State
from typhoon.hexgrid import bit_list
from typhoon.mechanics.zoc import communication_mask, zoc_mask


def _facts(s: State) -> dict[str, Any]:
    c = s._cache
    if "comm" not in c:
        rules = s.rules
        side = rules.phases[s.phase].side
        enemy = 1 - side
        grid = rules.map.grid
        blocked = s.occ[enemy] | zoc_mask(s.occ[enemy], grid.expand)
        c["comm"] = communication_mask(
            rules.map.edge_mask[_side_key(side)], blocked, grid.expand, grid.all_mask
        )
        # Moscow exception: Soviet units may be rebuilt or restored there without communication.
        c["exempt"] = rules.map.moscow_mask if side == SOVIET else 0
    return c


def _side_key(side: int) -> str:
    return "german" if side == 0 else "soviet"


def in_communication(s: State, h: int) -> bool:
    f = _facts(s)
    return bool(((f["comm"] | f["exempt"]) >> h) & 1)


def placement_mask(s: State) -> int:
    """Hexes where a rebuilt unit (or a reinforcement) may appear now."""
    rules = s.rules
    side = rules.phases[s.phase].side
    f = _facts(s)
    empty = rules.map.grid.all_mask & ~(s.occ[0] | s.occ[1])
    cities = s.controlled_city_mask(side)
    return empty & (rules.map.edge_mask[_side_key(side)] | (cities & (f["comm"] | f["exempt"])))


def legal(s: State) -> list[Action]:
    rules = s.rules
    side = rules.phases[s.phase].side
    ids = rules.map.grid.ids
    out: list[Action] = []
    due = reinforcement_due(s)
    places: list[int] | None = None
    if due >= 0:
        places = bit_list(placement_mask(s))
        uid = rules.units[due].id
        out.extend(Reinforce(uid, ids[h]) for h in places)
    if s.repl > 0:
        if places is None:
            places = bit_list(placement_mask(s))
        for u in rules.side_units[side]:
            if s.loc[u] == OFF:
                if u != due and unit_available(s, u):
                    uid = rules.units[u].id
                    out.extend(Rebuild(uid, ids[h]) for h in places)
            elif s.steps[u] == 1 and not (s.rebuilt >> u) & 1 and in_communication(s, s.loc[u]):
                out.append(Restore(rules.units[u].id))
    if due < 0 or not places:
        out.append(END)
    return out


def apply(s: State, a: Action, events: list[Event]) -> None:
    rules = s.rules
    side = rules.phases[s.phase].side
    grid = rules.map.grid
    if isinstance(a, End):
        due = reinforcement_due(s)
        if due >= 0 and placement_mask(s):
            raise IllegalActionError(f"{rules.units[due].name} must be placed before the phase ends")
        end_phase(s, events)
        return
    if isinstance(a, Restore):
        u = _own_unit(s, a.unit, side)
        if s.repl <= 0:
            raise IllegalActionError("no replacements left this phase")
        if s.loc[u] == OFF or s.steps[u] != 1:
            raise IllegalActionError(f"{rules.units[u].name} is not a half-strength unit on the map")
        if (s.rebuilt >> u) & 1:
            raise IllegalActionError(
                f"{rules.units[u].name} was rebuilt this phase and cannot also be restored"
            )
        if not in_communication(s, s.loc[u]):
            raise IllegalActionError(f"{rules.units[u].name} is not in communication with its map edge")
        s.steps[u] = 2
        s.repl -= 1
        events.append(
            Event("restore", f"{rules.units[u].name} is restored to full strength.", {"unit": a.unit})
        )
        return
    if isinstance(a, Rebuild | Reinforce):
        u = _own_unit(s, a.unit, side)
        h = grid.index.get(a.hex, -1)
        if s.loc[u] != OFF:
            raise IllegalActionError(f"{rules.units[u].name} is already on the map")
        due = reinforcement_due(s)
        if isinstance(a, Reinforce):
            if u != due:
                raise IllegalActionError(f"{rules.units[u].name} is not a reinforcement due now")
        else:
            if s.repl <= 0:
                raise IllegalActionError("no replacements left this phase")
            if u == due or not unit_available(s, u):
                raise IllegalActionError(f"{rules.units[u].name} cannot be taken as a replacement now")
        if h < 0 or not (placement_mask(s) >> h) & 1:
            raise IllegalActionError(
                f"{a.hex} is not an empty hex of the map edge or an empty friendly city in communication"
            )
        if isinstance(a, Reinforce):
            s.steps[u] = 2 if rules.first_shock_full else 1
            s.arrived |= 1 << u
            words = "arrives as a reinforcement"
        else:
            s.steps[u] = 1
            s.repl -= 1
            s.rebuilt |= 1 << u
            if u == rules.first_shock:
                s.arrived |= 1 << u
            words = "is rebuilt at half strength"
        s.put(u, h)
        s.take_cities(side, 1 << h)
        events.append(
            Event("rebuild", f"{rules.units[u].name} {words} in {a.hex}.", {"unit": a.unit, "hex": a.hex})
        )
        return
    raise IllegalActionError(f"{type(a).__name__} is not possible in a replacement phase")


def _own_unit(s: State, uid: str, side: int) -> int:
    u = s.rules.unit_index.get(uid, -1)
    if u < 0:
        raise IllegalActionError(f"there is no unit {uid}")
    if s.rules.units[u].side != side:
        raise IllegalActionError(f"{s.rules.units[u].name} is not a unit of the side taking replacements")
    return u
