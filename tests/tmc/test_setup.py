"""Set-up (rules_en.md §25; [Q68]-[Q70])."""

from __future__ import annotations

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import SETUP_STANDARD, Place
from typhoon.games.tmc.flow import enter_phase
from typhoon.games.tmc.setup_phase import place_hexes, standard_problems
from typhoon.games.tmc.state import State

from .engine_fixtures import make_map, make_rules, unit


def _fresh(r):  # type: ignore[no-untyped-def]
    s = State(r)
    enter_phase(s, [])
    return s


def _cols(r, hexes):  # type: ignore[no-untyped-def]
    return {r.grid.coords[h][0] for h in hexes}


def test_sides_of_the_start_line_and_never_on_it() -> None:
    """§25.5: Soviet units east of the start line, German units west, none on it."""
    units = [unit(f"S{i}", "soviet", 2, 4, f"07{i:02d}") for i in range(1, 11)] + [
        unit(f"G{i}", "german", 2, 5, f"05{i:02d}") for i in range(1, 11)
    ]
    r = make_rules(units, make_map())
    s = _fresh(r)
    first = place_hexes(s, r.unit_index["S1"])
    assert first and _cols(r, first) <= set(range(7, 13))
    s, _ = engine.apply(s, SETUP_STANDARD)
    assert s.phase_spec.key == "setup_german"
    g = place_hexes(s, r.unit_index["G1"])
    assert g and _cols(r, g) <= set(range(1, 6))


def test_units_are_placed_in_order_and_stacking_limit_holds() -> None:
    """§25.3: at most 3 units per hex; Place offers the next unit only."""
    units = [unit(f"S{i}", "soviet", 2, 4, "0705") for i in range(1, 5)]
    r = make_rules(units, make_map(), options={"german_must_cover_start_line": "no"})
    s = _fresh(r)
    # Coverage is impossible with 4 units on a 10-hex line: the rule cannot be met, so the
    # placement filter only keeps what the units could still cover. Use hexes directly.
    s.placed = 0
    for i in range(1, 4):
        u = r.unit_index[f"S{i}"]
        s.put(u, r.grid.index["0905"])
        s.placed |= 1 << u
    s._legal = None
    assert r.grid.index["0905"] not in place_hexes(s, r.unit_index["S4"])
    with pytest.raises(IllegalActionError):
        engine.apply(s, Place("S1", "0705"))  # not the next unit


def test_soviet_depth_eight_hexes_except_any_ten() -> None:
    """§25.6, [Q69]: Soviet units within 8 hexes of the start line, except any 10 anywhere east."""
    gm = make_map(cols=20, line_col=3)
    units = [unit(f"S{i:02d}", "soviet", 2, 4, f"04{(i % 10) + 1:02d}") for i in range(1, 17)]
    r = make_rules(units, gm)
    s = _fresh(r)
    far = r.grid.index["1505"]  # 12 hexes east of the line
    u0 = r.unit_index["S01"]
    assert far in place_hexes(s, u0)
    for i in range(1, 11):
        u = r.unit_index[f"S{i:02d}"]
        s.put(u, r.grid.index[f"15{i:02d}"])
        s.placed |= 1 << u
    nxt = r.unit_index["S11"]
    hexes = place_hexes(s, nxt)
    assert far not in hexes
    assert all(min(r.grid.distance(h, x) for x in r.start_line_hexes) <= 8 for h in hexes)


def test_start_line_zoc_cover_is_kept_reachable() -> None:
    """§25.4, [Q68]: every start-line hex must end in the side's ZOC. With exactly as many units
    as the cover needs, each placement must cover new start-line hexes."""
    # 10-hex line in column 06; column-07 hexes touch two line hexes each: 5 units needed.
    units = [unit(f"S{i}", "soviet", 2, 4, f"07{2 * i - 1:02d}") for i in range(1, 6)]
    r = make_rules(units, make_map())
    s = _fresh(r)
    hexes = place_hexes(s, r.unit_index["S1"])
    assert hexes and _cols(r, hexes) == {7}
    # and a full manual set-up is possible and ends the Soviet set-up
    rows = []
    while s.phase_spec.key == "setup_soviet":
        acts = [a for a in engine.legal_actions(s) if isinstance(a, Place)]
        rows.append([a.hex for a in acts])
        s, _ = engine.apply(s, acts[0])  # the last one is forced: played inside apply
    assert rows[0] == ["0702", "0704", "0706", "0708", "0710"]  # each covers two line hexes
    assert rows[-1] == ["0708", "0710"]
    z = s.zoc(1)
    assert all((z >> h) & 1 for h in r.start_line_hexes)


def test_eb_units_on_rail_and_german_eb_on_designated_hex() -> None:
    """§25.7: German EB units on their designated hexes; [Q69]: Soviet EB units on rail hexes."""
    rail = tuple(f"{c:02d}05" for c in range(1, 13))
    units = [
        unit("SE", "soviet", 1, 4, "0905", kind="eb", eb=True),
        unit("GE", "german", 1, 4, "0305", kind="eb", eb=True, fixed=True),
        unit("G1", "german", 2, 5, "0503"),
    ]
    r = make_rules(units, make_map(rails=(rail,)), options={"german_must_cover_start_line": "no"})
    s = _fresh(r)
    soviet_eb = place_hexes(s, r.unit_index["SE"])
    assert soviet_eb and all((r.rail_mask >> h) & 1 for h in soviet_eb)
    s.put(r.unit_index["SE"], r.grid.index["0905"])
    s.placed = 1 << r.unit_index["SE"]
    s.phase = 1  # German set-up
    s.placed = 0
    assert place_hexes(s, r.unit_index["GE"]) == [r.grid.index["0305"]]


@pytest.mark.parametrize("scenario", [str(n) for n in range(1, 25)])
def test_real_scenarios_standard_deployment(scenario: str) -> None:
    """§25 on the reconstructed deployments (OOB data): every scenario's standard set-up breaks
    no rule; December's line hex 5010, whose only German-side neighbour is Moscow Sea water,
    is the one line hex no set-up can cover and is not asked for (§25.4 read as "every
    coverable start-line hex")."""
    from typhoon.games.tmc.rules import load_rules

    assert standard_problems(load_rules(scenario)) == []


def test_lake_hexes_are_not_set_up_hexes() -> None:
    """§25 with §3.3: units are not set up in water (the Moscow Sea hexes beside line hex
    5010 in December would otherwise let a German unit cover it from the lake)."""
    from typhoon.games.tmc.rules import load_rules
    from typhoon.games.tmc.setup_phase import side_area

    r = load_rules("21")
    lakes = r.map.lake_hexes  # type: ignore[attr-defined]
    assert lakes
    for side in (0, 1):
        assert side_area(r, side) & lakes == 0
