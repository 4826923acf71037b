"""Zones of control (seed 002, «Зона контроля»).

Every unit has a zone of control: the six hexes around it, including hexes occupied by enemy
units. Movement: a unit entering an enemy zone must stop at once. Combat: units may not end
(or, in the DR definition, enter) a retreat in an enemy zone; they are eliminated if forced to.
Replacements: zones affect the paths replacements come along (test_communication).
"""

from __future__ import annotations

from .helpers import fight, legal, moves, pos, ref_destinations, ref_neighbours, ref_retreats, step, where


def ids_of(s, mask: int) -> set[str]:  # type: ignore[no-untyped-def]
    g = s.rules.map.grid
    return {g.ids[h] for h in g.hexes if (mask >> h) & 1}


def test_zone_is_the_six_surrounding_hexes() -> None:
    """«Зона контроля»: the six hexes around the unit (fewer at the map edge), including hexes
    with units in them -- friendly or enemy -- but not the unit's own hex."""
    s = pos(G="XXIV@1208,XLI@0101,LVII@1108", S="16A@1308/h", t=5, ph="german_movement")
    german = ids_of(s, s.zoc(0))
    assert german == ref_neighbours("1208") | ref_neighbours("0101") | ref_neighbours("1108")
    assert "1308" in german  # an enemy-occupied hex is in the zone
    assert {"1108", "1208"} <= german  # so are hexes of the owner's side
    assert len(ref_neighbours("0101")) == 2
    soviet = ids_of(s, s.zoc(1))
    assert soviet == ref_neighbours("1308") and "1208" in soviet


def test_zone_not_blocked_by_terrain() -> None:
    """The rules give no terrain exception: a zone reaches across rivers and into forests and
    fortifications. XXXV in Moscow has 1002, 1003 and 1104 (across river hexsides) in its
    zone; the army's moves agree with the plain six-neighbour zone of the reference search."""
    s = pos(G="XXXV@1103", S="16A@0903/h", t=5, ph="soviet_movement", ctl="0204,0307,1103")
    assert {"1002", "1003", "1104"} <= ids_of(s, s.zoc(0))
    assert moves(s, "16A") == ref_destinations(s, "16A")


def test_own_zone_does_not_affect_own_units() -> None:
    """Only *enemy* zones matter: a Soviet army moving past other Soviet armies is not
    stopped."""
    s = pos(G="XXIV@0101", S="5A@1208/h,3A@1308/h,10A@1209/h", t=5, ph="soviet_movement")
    assert "1408" in moves(s, "5A") and "1210" in moves(s, "5A")


def test_zone_stops_units_of_either_side() -> None:
    """The rule is the same for both sides: a German corps entering a Soviet zone stops. XXXV
    (1006) can reach 1408 in four clear hexes (1107-1207-1308-1408) when 16A is not there;
    with 16A in 1208, 1207 and 1308 are in its zone and 1408 is out of reach (1407, by way of
    1106-1206-1307, is not)."""
    s = pos(G="XXXV@1006", S="16A@1208/h", t=5, ph="german_movement")
    got = moves(s, "XXXV")
    assert "1207" in got and "1407" in got and "1408" not in got
    free = pos(G="XXXV@1006", S="16A@0101/h", t=5, ph="german_movement")
    assert "1408" in moves(free, "XXXV")


def test_retreat_may_not_enter_zone_even_through_friends() -> None:
    """«Зона контроля», combat, with the zone including occupied hexes: see test_retreat for
    the full sets; here a retreat whose every path leads into zones is impossible, and the
    unit is eliminated."""
    s = pos(G="XL@1310,XXIV@1309", S="16A@1410,3A@1409/h", t=2)
    assert ref_retreats(s, "16A") == set()
    s, _ = fight(s, "1410", "XL", die=1)
    assert where(s, "16A") is None and step(s) == "advance"
    assert "advance XL" in legal(s)
