"""Retreats (seed 002, «Результаты боя», оО (DR); «Зона контроля», combat).

DR: the attacking player moves the defender two hexes. It must end two hexes away from the hex
it defended in and may not enter an enemy zone of control; if no path meets both conditions it
is eliminated. It must also end in a hex free of friendly units, retreating two more hexes to
reach an empty one.

Reading (engine, mechanics/retreat.py): every hex of the retreat lies one hex further from the
start than the one before (so the two extra hexes take it to 3 and then 4 hexes away). The
rules only say the first leg ends two hexes away; the engine keeps moving the unit away.
"""

from __future__ import annotations

from .helpers import fight, legal, play, pos, ref_retreats, step, steps, where

# 16A (full) in 1208, XL in 1108: XL's zone is 1007 1008 1107 1109 1207 1208.
R1 = {"G": "XL@1108,XXIV@0101", "S": "16A@1208,3A@1410/h", "t": 2}
R1_PATHS = {
    "retreat 1209-1110",
    "retreat 1209-1210",
    "retreat 1209-1310",
    "retreat 1308-1307",
    "retreat 1308-1407",
    "retreat 1308-1408",
    "retreat 1309-1310",
    "retreat 1309-1408",
    "retreat 1309-1409",
}


def dr(G: str, S: str, target: str, attacker: str = "XL"):  # type: ignore[no-untyped-def]
    """The state after a DR (1:1, die 1) against the unit in ``target``."""
    s, _ = fight(pos(G=G, S=S, t=2), target, attacker, die=1)
    return s


def test_retreat_paths_exact() -> None:
    """оО: two hexes, ending exactly two hexes away, never into XL's zone (1109, 1207 are in
    it; 1108 is XL's hex). From 1208 the first hex is 1209, 1308 or 1309; the second any hex
    next to it two hexes from 1208. Nine paths, no others (1209-1309 would end one hex away)."""
    s = dr(R1["G"], R1["S"], "1208")
    assert step(s) == "retreat"
    assert legal(s) == R1_PATHS
    assert ref_retreats(s, "16A") == R1_PATHS


def test_attacker_chooses_path() -> None:
    """оО: "the defending unit is moved two hexes by the attacking player": the German player
    picks the path, and the unit ends where he says."""
    s = dr(R1["G"], R1["S"], "1208")
    assert s.current_player() == 0
    for path in ("retreat 1308-1307", "retreat 1209-1110"):
        end = path.split("-")[-1]
        s2 = play(s, path)
        assert where(s2, "16A") == end and steps(s2, "16A") == 2


def test_soviet_attacker_chooses_german_retreat() -> None:
    """оО works the same for a German defender: the Soviet (attacking) player chooses."""
    s, _ = fight(
        pos(G="XL@1208,XXIV@0101", S="16A@1108,3A@1410/h", t=2, ph="soviet_combat"), "1208", "16A", die=1
    )
    assert step(s) == "retreat" and s.current_player() == 1
    assert legal(s) == ref_retreats(s, "XL")


def test_illegal_retreats_rejected() -> None:
    """оО: a path that ends one hex away, enters the zone, is too long, or starts elsewhere is
    not a retreat: IllegalActionError and nothing changes."""
    from .helpers import assert_illegal

    s = dr(R1["G"], R1["S"], "1208")
    for bad in (
        "retreat 1209",
        "retreat 1209-1309",
        "retreat 1207-1206",
        "retreat 1209-1210-1211",
        "retreat 1110-1010",
    ):
        assert_illegal(s, bad)


def test_zoc_includes_hexes_holding_units() -> None:
    """«Зона контроля»: the zone is the six hexes around a unit, including hexes occupied by
    units. A friendly army in 1209 does not stop a retreat passing through it; but with
    XXXIV in 1110, 1209 is in a German zone, and no retreat may enter it -- even though a
    Soviet unit stands there."""
    s = dr("XL@1108,XXIV@0101", "16A@1208,3A@1209/h", "1208")
    assert {p for p in legal(s) if p.startswith("retreat 1209-")} == {
        "retreat 1209-1110",
        "retreat 1209-1210",
        "retreat 1209-1310",
    }
    s = dr("XL@1108,XXXIV@1110", "16A@1208,3A@1209/h", "1208")
    assert not any(p.startswith("retreat 1209-") for p in legal(s))
    assert legal(s) == ref_retreats(s, "16A")


def test_ending_on_friendly_unit_goes_two_more_hexes() -> None:
    """оО: the unit must end in a hex not occupied by a friendly unit and retreats two more
    hexes to reach an empty one. 16A in 0707 retreats from XL (0606); 3A stands in 0907, two
    hexes away: every retreat reaching 0907 goes on two more hexes (reading: away from the
    start, to 3 and 4 hexes) and ends in 1106, 1107 or 1108."""
    s = dr("XL@0606,XXIV@0101", "16A@0707,3A@0907/h", "0707")
    want = {
        "retreat 0708-0608",
        "retreat 0708-0709",
        "retreat 0708-0808",
        "retreat 0806-0805",
        "retreat 0806-0906",
        "retreat 0807-0808",
        "retreat 0807-0908",
    }
    for first in ("0806", "0807"):
        for tail in ("1006-1106", "1006-1107", "1007-1107", "1007-1108"):
            want.add(f"retreat {first}-0907-{tail}")
    assert legal(s) == want
    s2 = play(s, "retreat 0807-0907-1007-1108")
    assert where(s2, "16A") == "1108" and where(s2, "3A") == "0907"


def test_goes_on_while_end_hex_is_occupied() -> None:
    """оО: "must retreat two more hexes to reach an empty hex" -- again if need be: with 1106,
    1107 and 1108 also held by Soviet armies, every retreat through 0907 runs six hexes."""
    s = dr("XL@0606,XXIV@0101", "16A@0707,3A@0907/h,5A@1107/h,10A@1106/h,13A@1108/h", "0707")
    long = {p for p in legal(s) if "0907" in p}
    assert long and all(len(p.split()[1].split("-")) == 6 for p in long)
    assert legal(s) == ref_retreats(s, "16A")


def test_no_retreat_path_eliminates() -> None:
    """оО: if no path meets the conditions the unit is eliminated. 16A in the corner hex
    1410 (neighbours 1310 and 1409 only): XL in 1310 attacks and XXIV in 1309 puts 1409 in
    its zone."""
    s = dr("XL@1310,XXIV@1309", "16A@1410,3A@1401/h", "1410")
    assert where(s, "16A") is None
    assert step(s) == "advance"


def test_occupied_end_with_no_continuation_is_no_path() -> None:
    """оО: a path that would end on a friendly unit and cannot go on is not a retreat. In R1
    with a Soviet army in 1408 (column 14 is the east edge: no hex three away beyond it), the
    paths 1308-1408 and 1309-1408 disappear."""
    s = dr("XL@1108,XXIV@0101", "16A@1208,3A@1408/h", "1208")
    assert legal(s) == R1_PATHS - {"retreat 1308-1408", "retreat 1309-1408"}


def test_single_path_taken_by_engine() -> None:
    """Engine convention: a decision with one possible answer is taken by the engine. 16A in
    the corner hex 1401 attacked by XL from 1301 (zone 1201 1302 1401); XXIV in 1203 puts
    1303 in its zone: the only retreat is 1402-1403."""
    s0 = pos(G="XL@1301,XXIV@1203", S="16A@1401,3A@1410/h", t=2)
    assert ref_retreats(s0, "16A") == {"retreat 1402-1403"}
    s, ev = fight(s0, "1401", "XL", die=1)
    assert where(s, "16A") == "1403"
    assert any(e.kind == "retreat" for e in ev)
