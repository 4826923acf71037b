"""Communication (seed 002, «Пополнения»: "«Связанный коммуникациями» означает возможность
провести путь любой длины (без того, чтобы вступить в поле, занятое вражеской частью или Зоной
контроля) до восточного края карты"; «Зона контроля»: zones of control affect the paths along
which replacements arrive).

A path of any length to the own map edge that never enters a hex holding an enemy unit or in
an enemy zone of control.

Readings (engine, mechanics/zoc.py, replacement_phase.py): the hex the path starts from is not
"entered", so a unit (or city) in an enemy zone can still trace from it; a unit on its own
edge hex is in communication.

The wall: German units in 0701 0703 0705 0707 0709 put every hex of column 07 in a German
zone or under a German unit; every path from the west to the east edge crosses column 07.
"""

from __future__ import annotations

from .helpers import legal, pos

WALL = "XXIV@0701,XLI@0703,LVII@0705,XLVI@0707,XLVII@0709"
GAP = "XXIV@0701,XLI@0703,LVII@0705,XLVI@0707"  # 0709 and 0710 are free


def sov(G: str, S: str):  # type: ignore[no-untyped-def]
    return pos(G=G, S=S, t=2, ph="soviet_replacement", repl=5)


def restorable(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {a.split()[1] for a in legal(s) if a.startswith("restore ")}


def placeable(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {a.split()[2] for a in legal(s) if a.startswith("rebuild ")}


def test_any_length_path() -> None:
    """«Пополнения»: a path of any length: an army in 0101, at the far west corner, is in
    communication with the east edge when nothing stands in the way."""
    s = sov("XXIV@1410", "3A@0101/h")
    assert restorable(s) == {"3A"}


def test_zoc_wall_cuts_communication() -> None:
    """«Пополнения»: the path may not enter an enemy zone of control: behind the German wall
    3A (0305) cannot be restored and the Soviet cities behind it (Bryansk, Rzhev, Vyazma) take
    no new units; 5A (1208) east of the wall can, and Kaluga (0805) can."""
    s = sov(WALL, "3A@0305/h,5A@1208/h")
    assert restorable(s) == {"5A"}
    assert not {"0509", "0601", "0603"} & placeable(s)
    assert "0805" in placeable(s)


def test_gap_in_the_wall() -> None:
    """A single free hex is enough: without XLVII in 0709, 0709 and 0710 are outside every
    German zone and the path runs through them."""
    s = sov(GAP, "3A@0305/h,5A@1208/h")
    assert restorable(s) == {"3A", "5A"}
    assert {"0509", "0601", "0603"} <= placeable(s)


def test_friendly_units_do_not_block() -> None:
    """The path is blocked only by enemy units and zones: a Soviet army standing in the gap
    (0709) does not cut it."""
    s = sov(GAP, "3A@0305/h,5A@1208/h,10A@0709/h")
    assert restorable(s) == {"3A", "5A", "10A"}


def test_unit_in_enemy_zone_can_trace_out() -> None:
    """Reading: 13A in 0806 is next to XLVI (0707), in its zone, but its neighbours 0906 and
    0907 are free: the path starts in 0806 without entering it, so 13A is in communication."""
    s = sov(WALL, "13A@0806/h")
    assert restorable(s) == {"13A"}


def test_unit_on_edge_is_in_communication() -> None:
    """Reading: an army on an east-edge hex is in communication even if every hex around it is
    in an enemy zone (13A in the corner 1401 next to XXIV in 1302)."""
    s = sov("XXIV@1302", "13A@1401/h")
    assert restorable(s) == {"13A"}


def test_enemy_units_block() -> None:
    """The path may not enter a hex held by an enemy unit: 3A in the corner 0101 with German
    units on both its neighbours (0102, 0201) is cut off."""
    s = sov("XXIV@0102,XLI@0201", "3A@0101/h")
    assert restorable(s) == set()


def test_german_communication_to_west_edge() -> None:
    """«Пополнения»: German communication is traced to the west edge in the same way. A
    Soviet wall in column 07 (armies in 0701 ... 0709) cuts XXIV (1208, half strength) off;
    XLI (0305) west of it is in communication."""
    s = pos(
        G="XXIV@1208/h,XLI@0305/h",
        S="3A@0701/h,5A@0703/h,10A@0705/h,13A@0707/h,16A@0709/h",
        t=2,
        ph="german_replacement",
        repl=1,
    )
    assert restorable(s) == {"XLI"}


def test_city_in_enemy_zone_can_take_a_new_unit() -> None:
    """Reading: an empty friendly city next to an enemy unit (Tula 1107, XXIV in 1007) is in
    communication when a path leads from it to the edge through free hexes (the city itself
    is the start of the path, not entered)."""
    s = sov("XXIV@1007", "5A@1408/h")
    assert "1107" in placeable(s)


def test_german_moscow_has_no_exception() -> None:
    """«Пополнения»: "Moscow gives the Germans no advantage": a German-held, empty Moscow
    ringed by Soviet zones takes no German replacement; Soviet-held Moscow ringed by German
    zones does take Soviet ones (the Soviet exception)."""
    g = pos(
        G="XXIV@0405/h",
        S="3A@1002/h,5A@1104/h,10A@1202/h",
        t=2,
        ph="german_replacement",
        repl=1,
        ctl="0204,0307,1103",
    )
    assert "1103" not in placeable(g)
    s = sov("XXIV@1002,XLI@1104,LVII@1202", "5A@1408/h")
    assert "1103" in placeable(s)
