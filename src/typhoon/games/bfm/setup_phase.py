"""Set-up (seed 002, "Starting the game").

The Soviet player puts one half-strength army on each hammer-and-sickle hex (never 1st Shock
Army; which army goes where is his choice and does not matter to play); the armies left over
are eliminated units, available as replacements. Then the German player puts one
full-strength unit on each cross, his choice of unit per hex.
"""

from __future__ import annotations

from functools import lru_cache

from typhoon.datafile import read_package_json
from typhoon.errors import DataError, IllegalActionError
from typhoon.events import Event
from typhoon.games.bfm.actions import Action, Place, SetupStandard
from typhoon.games.bfm.flow import end_phase
from typhoon.games.bfm.rules import GERMAN, SIDE_NAMES, Rules
from typhoon.games.bfm.state import State

SETUP_STANDARD = SetupStandard()


def setup_units(rules: Rules, side: int) -> tuple[int, ...]:
    """Units a side may put on the map in set-up."""
    return tuple(u for u in rules.side_units[side] if u != rules.first_shock)


@lru_cache(maxsize=8)
def standard_setup(rules: Rules) -> dict[int, tuple[tuple[int, int], ...]]:
    """side -> ((unit, hex), ...) of the quick-start arrangement, validated against the map."""
    raw = read_package_json("typhoon.games.bfm", "standard_setup.json")
    try:
        ed = raw[rules.edition]
    except KeyError:
        raise DataError(f"standard_setup.json has no arrangement for {rules.edition}") from None
    out: dict[int, tuple[tuple[int, int], ...]] = {}
    for side in (0, 1):
        name = SIDE_NAMES[side]
        pairs = []
        for hid, uid in ed[name].items():
            if uid not in rules.unit_index or rules.units[rules.unit_index[uid]].side != side:
                raise DataError(f"standard_setup.json: {uid} is not a {name} unit")
            if hid not in rules.map.grid or rules.map.idx(hid) not in rules.map.setup[name]:
                raise DataError(f"standard_setup.json: {hid} is not a {name} set-up hex")
            pairs.append((rules.unit_index[uid], rules.map.idx(hid)))
        if sorted(h for _, h in pairs) != list(rules.map.setup[name]):
            raise DataError(f"standard_setup.json: {name} arrangement does not fill every set-up hex")
        if len({u for u, _ in pairs}) != len(pairs):
            raise DataError(f"standard_setup.json: a {name} unit is placed twice")
        out[side] = tuple(pairs)
    return out


@lru_cache(maxsize=16)
def _place_table(rules: Rules, side: int) -> tuple[tuple[int, tuple[tuple[int, Place], ...]], ...]:
    """(unit, ((hex, Place), ...)) for every unit and set-up hex of a side, made once."""
    ids = rules.map.grid.ids
    hexes = rules.map.setup[SIDE_NAMES[side]]
    return tuple(
        (u, tuple((h, Place(rules.units[u].id, ids[h])) for h in hexes)) for u in setup_units(rules, side)
    )


def legal(s: State) -> list[Action]:
    out: list[Action] = []
    if not s.done:
        out.append(SETUP_STANDARD)
    at = s.at
    done = s.done
    for u, row in _place_table(s.rules, s.side):
        if not (done >> u) & 1:
            out.extend(a for h, a in row if at[h] < 0)
    return out


def standard_rest(s: State) -> list[Place]:
    """The placements that finish the side's set-up as standard once some units were placed
    by hand (issue 15: the "Standard set-up" button stayed away after one hand placement).
    Every unplaced unit goes to its standard hex when that is empty; the units whose hex a hand
    placement took, then any other unplaced unit, fill the empty set-up hexes left, in the
    standard's order. Not a legal action of its own: the page plays these places in one go, so
    the legal lists (and every pinned record) are unchanged. Empty before any placement (the
    standard set-up is legal then) and when nothing is left to place."""
    if not s.done:
        return []
    rules = s.rules
    ids = rules.map.grid.ids
    placed = s.done
    std = standard_setup(rules)[s.side]
    out: list[Place] = []
    taken: set[int] = set()
    displaced: list[int] = []
    for u, h in std:
        if (placed >> u) & 1:
            continue
        if s.at[h] < 0:
            out.append(Place(rules.units[u].id, ids[h]))
            taken.add(h)
        else:
            displaced.append(u)
    in_std = {u for u, _ in std}
    others = [u for u in setup_units(rules, s.side) if not (placed >> u) & 1 and u not in in_std]
    empty = [h for _, h in std if s.at[h] < 0 and h not in taken]
    out.extend(Place(rules.units[u].id, ids[h]) for h, u in zip(empty, displaced + others, strict=False))
    return out


def apply(s: State, a: Action, events: list[Event]) -> None:
    rules = s.rules
    side = s.side
    name = SIDE_NAMES[side]
    if isinstance(a, SetupStandard):
        if s.done:
            raise IllegalActionError("the standard set-up is only possible before any unit is placed")
        for u, h in standard_setup(rules)[side]:
            _place(s, u, h)
        events.append(Event("setup", f"{name.capitalize()} standard set-up placed.", {"side": name}))
    elif isinstance(a, Place):
        u = rules.unit_index.get(a.unit, -1)
        if u < 0 or u not in setup_units(rules, side):
            raise IllegalActionError(f"{a.unit} is not a {name} unit that can be set up")
        if (s.done >> u) & 1:
            raise IllegalActionError(f"{a.unit} is already placed")
        h = rules.map.grid.index.get(a.hex, -1)
        if h < 0 or h not in rules.map.setup[name]:
            raise IllegalActionError(f"{a.hex} is not a {name} set-up hex")
        if s.at[h] >= 0:
            raise IllegalActionError(f"{a.hex} already holds a unit")
        _place(s, u, h)
        events.append(
            Event("setup", f"{rules.units[u].name} set up in {a.hex}.", {"unit": a.unit, "hex": a.hex})
        )
    else:
        raise IllegalActionError(f"{type(a).__name__} is not a set-up action")
    if all(s.at[h] >= 0 for h in rules.map.setup[name]):
        end_phase(s, events)


def _place(s: State, u: int, h: int) -> None:
    s.steps[u] = 2 if s.rules.units[u].side == GERMAN else 1
    s.put(u, h)
    s.done |= 1 << u
    s.take_cities(s.rules.units[u].side, 1 << h)
