"""Movement (seed 002, «Движение» / "Movement", «Зона контроля», stacking limits).

The seed's movement example has a figure we do not have; the positions below rebuild each of
its paths A-F on the GDW map. Local map (even columns drawn half a hex lower; F forest)::

         09         10         11         12         13         14
      0906 F                 1106                  1306 XLI
                 1006                  1206                  1406
      0907                   1107                  1307
                 1007                  1207                  1407
      0908                   1108                  1308
                 1008 5A               1208                  1408
      0909                   1109                  1309
                 1009                  1209                  1409
      0910                   1110                  1310
                 1010 XXIV             1210                  1410

Soviet 5th Army (half strength 4-4: movement 4) in 1008; German XXIV in 1010 (zone of
control 0910 1009 1110) and XLI in 1306 (zone of control 1205 1206 1305 1307 1405 1406).
"""

from __future__ import annotations

import pytest

from typhoon.games.bfm.actions import Move

from .helpers import assert_illegal, hexes, legal, moves, phase, play, pos, ref_destinations, where

EXAMPLE = {"G": "XXIV@1010,XLI@1306", "S": "5A@1008/h", "t": 5, "ph": "soviet_movement"}

# Every hex the 5th Army can end on in the example position: all hexes within four (forest
# two) not behind a zone of control -- listed from the reference search written from the rules
# (helpers.ref_destinations) and checked by hand around the zones and the forests.
EXAMPLE_DESTINATIONS = hexes(
    "0606 0607 0608 0609 0610 0706 0707 0708 0709 0710 0806 0807 0808 0809 0810 "
    "0906 0907 0908 0909 0910 1004 1005 1006 1007 1009 1105 1106 1107 1108 1109 1110 "
    "1205 1206 1207 1208 1209 1210 1307 1308 1309 1310 1407 1408 1409 1410"
)


def example():  # type: ignore[no-untyped-def]
    return pos(**EXAMPLE)


def test_example_path_a_four_clear_hexes() -> None:
    """Seed 002, «Пример движения», path A: a unit with movement 4 may move four hexes:
    1008-1108-1208-1308-1408, all clear and outside enemy zones of control."""
    s = example()
    assert "1408" in moves(s, "5A")
    s2 = play(s, "move 5A 1008-1408")
    assert where(s2, "5A") == "1408"


def test_example_path_b_forest_counts_two() -> None:
    """Seed 002, «Движение»: a forest hex counts as two hexes. Path B: 1008-0908-0907-0906,
    the third hex entered is forest, counts 2: the 4 hexes are spent and the unit stops."""
    s = example()
    assert "0906" in moves(s, "5A")


def test_example_path_c_zoc_on_first_hex() -> None:
    """Seed 002, «Зона контроля», path C: the unit enters an enemy zone of control with its
    first hex (1009, next to XXIV) and must stop there."""
    s = example()
    assert "1009" in moves(s, "5A")
    assert "1010" not in moves(s, "5A")  # the enemy's own hex is never entered


def test_example_path_d_zoc_on_second_hex() -> None:
    """Path D: 1008-0909-0910, entering XXIV's zone of control with the second hex; it
    stops there."""
    s = example()
    assert "0910" in moves(s, "5A")


def test_example_path_e_ends_in_zoc_on_fourth_hex() -> None:
    """Path E: 1008-1007-1107-1106-1205; the unit enters XLI's zone of control with its
    fourth hex, where it has spent its movement anyway. (1407, four clear hexes away by
    1108-1208-1308, is outside every zone and reachable too.)"""
    s = example()
    assert "1205" in moves(s, "5A")
    assert "1407" in moves(s, "5A")


def test_example_zoc_stops_movement() -> None:
    """«Зона контроля»: a unit entering an enemy zone of control must stop at once. 1406 is
    clear and four hexes from 1008, but the only four-hex route (1008-1108-1207-1307-1406)
    enters XLI's zone at 1307, where the move ends: 1406 is out of reach. Without the German
    units it is reachable."""
    s = example()
    assert "1406" not in moves(s, "5A")
    free = pos(G="XXIV@0101", S="5A@1008/h", t=5, ph="soviet_movement")
    assert "1406" in moves(free, "5A")


def test_example_path_f_impossible() -> None:
    """Path F: 1008-0908-0907-0906-0805 would need 5 hexes counting the forest as 2: Kaluga
    (0805) is out of reach, as is the forest 0905, four hexes away (it would cost 5)."""
    s = example()
    assert "0805" not in moves(s, "5A")
    assert "0905" not in moves(s, "5A")
    assert_illegal(s, "move 5A 1008-0805")
    assert_illegal(s, "move 5A 1008-0905")


def test_example_exact_legal_actions() -> None:
    """The legal action list is exact (issue 2, item 6): in the example position the only
    legal actions are the 5th Army's moves to the 45 hexes it can reach, and ending the
    phase. German units do not move in the Soviet movement phase."""
    s = example()
    assert legal(s) == {f"move 5A 1008-{h}" for h in EXAMPLE_DESTINATIONS} | {"end"}
    assert ref_destinations(s, "5A") == EXAMPLE_DESTINATIONS


def test_forest_costs_two_for_panzers() -> None:
    """«Движение»: forest counts two for every unit. A panzer corps (movement 6) in 0602,
    with the forest block 0701-0704 to its east: it can enter 0702 (2), 0701 or 0703 through
    the forest (4), and the destinations agree with the reference search."""
    s = pos(G="XLVII@0602", S="16A@1410/h", t=5, ph="german_movement")
    got = moves(s, "XLVII")
    assert {"0702", "0703", "0701", "0704"} <= got
    assert got == ref_destinations(s, "XLVII")


def test_panzer_allowance_six() -> None:
    """Seed 002, counter list: panzer corps move 6. From 1208 (open country, no enemy near)
    XLVII reaches clear hexes six away (0607, 1202) but not seven away (0507, 1201 forest
    aside, 0508)."""
    s = pos(G="XLVII@1208", S="16A@0101/h", t=5, ph="german_movement")
    got = moves(s, "XLVII")
    assert got == ref_destinations(s, "XLVII")
    assert {"0607", "0606", "1202"} <= got
    assert not {"0507", "0508", "0506"} & got


def test_cannot_enter_enemy_hex() -> None:
    """«Движение», «Ограничения»: a unit may never enter a hex holding an enemy unit (nor pass
    through it)."""
    s = pos(G="XXXV@1208", S="16A@1308/h", t=5, ph="german_movement")
    assert "1308" not in moves(s, "XXXV")
    assert_illegal(s, "move XXXV 1208-1308")


def test_leaving_zoc_is_free_and_zoc_to_zoc() -> None:
    """«Зона контроля»: only *entering* an enemy zone of control ends a move. A unit that
    starts next to an enemy may leave and move on; it may also step directly into another
    hex of the same zone (and stop there)."""
    s = pos(G="XXXV@1208", S="16A@1308/h", t=5, ph="german_movement")
    got = moves(s, "XXXV")
    assert "1209" in got  # 1209 is also next to 16A: zone to zone, then stop
    assert "1006" in got  # away from 16A and on: 1108-1107-1006 is out of its zone
    assert got == ref_destinations(s, "XXXV")


def test_pass_through_friendly_units() -> None:
    """«Ограничения»: a unit may enter hexes holding friendly units (and so move through
    them). 5A in 1408 with friendly armies on all four neighbours still reaches 1208 and 1206
    beyond them."""
    s = pos(
        G="XXIV@0101", S="5A@1408/h,3A@1308/h,10A@1309/h,13A@1407/h,16A@1409/h", t=5, ph="soviet_movement"
    )
    got = moves(s, "5A")
    assert {"1208", "1206", "1210"} <= got
    assert got == ref_destinations(s, "5A")


def test_end_on_friendly_unit_that_then_moves_off() -> None:
    """«Ограничения»: a unit may enter a friendly unit's hex, but at the end of the phase only
    one unit may be there. The engine lets a unit end its move on a friendly unit that has
    not moved yet; that unit must then move off at once (the phase cannot end, and it may not
    stay)."""
    s = pos(G="XXIV@0101", S="5A@1208/h,3A@1308/h,10A@1410/h", t=5, ph="soviet_movement")
    s = play(s, "move 5A 1208-1308")
    assert s.stack == s.rules.unit_index["3A"]
    got = legal(s)
    assert "end" not in got
    assert all(a.startswith("move 3A 1308-") for a in got)
    assert "move 3A 1308-1208" in got  # it may take the hex 5A left (a swap)
    assert_illegal(s, "end")
    assert_illegal(s, "move 10A 1410-1409")
    s = play(s, "move 3A 1308-1208")
    assert where(s, "5A") == "1308" and where(s, "3A") == "1208"
    assert s.stack == -1 and "end" in legal(s)


def test_cannot_end_on_a_unit_that_has_moved() -> None:
    """«Ограничения»: only one unit per hex at the end of the phase: a hex holding a friendly
    unit that has already moved (and cannot move again) may be passed through but not ended
    on."""
    s = pos(G="XXIV@0101", S="5A@1208/h,3A@1306/h,10A@1410/h", t=5, ph="soviet_movement")
    s = play(s, "move 3A 1306-1308")
    assert "1308" not in moves(s, "5A")
    assert "1408" in moves(s, "5A")  # through 1308 and on
    assert_illegal(s, Move("5A", "1208", "1308"))


def test_panzer_cannot_end_on_infantry_in_panzer_phase() -> None:
    """«Движение» and «Как играть» phase 2: in the panzer movement phase the infantry cannot
    move, so a panzer may pass through an infantry corps but not end its move on it."""
    s = pos(G="XLVII@1208,XXXV@1308", S="16A@0101/h", t=2, ph="german_panzer_movement")
    got = moves(s, "XLVII")
    assert "1308" not in got and "1408" in got
    assert moves(s, "XXXV") == set()


@pytest.mark.parametrize(
    "bad",
    [
        Move("5A", "1008", "1408", ("1308",)),  # no enemy-held city there to pass through
        Move("5A", "1009", "1108"),  # wrong starting hex
        Move("5A", "1008", "1008"),  # not a move
        Move("5A", "1008", "1511"),  # off the map
        Move("XXIV", "1010", "1110"),  # a German unit in the Soviet phase
        Move("3A", "1008", "1108"),  # a unit that is not on the map
        Move("ZZZ", "1008", "1108"),  # no such unit
        Move("5A", "1008", "0805"),  # out of reach (path F)
        Move("5A", "1008", "1010"),  # enemy hex
    ],
)
def test_illegal_moves_raise_and_change_nothing(bad: Move) -> None:
    """Issue 2, item 6: an illegal or malformed action raises IllegalActionError and leaves
    the state unchanged."""
    assert_illegal(example(), bad)


def test_phase_ends_by_itself_when_nothing_can_move() -> None:
    """Engine convention (engine.py): a decision with one possible answer is taken by the
    engine; once the only unit has moved, the phase ends."""
    s = play(example(), "move 5A 1008-1408")
    assert phase(s) != "soviet_movement"


def _final_arrangements_engine(s, units: list[str]) -> set[tuple[str | None, ...]]:  # type: ignore[no-untyped-def]
    """Every arrangement of ``units`` in which the engine lets the phase end, over all move
    sequences (depth-first over engine states)."""
    from typhoon.games.bfm.engine import apply_unchecked, legal_actions
    from typhoon.games.bfm.notation import action_to_text

    seen = set()
    finals = set()
    todo = [s]
    while todo:
        x = todo.pop()
        k = x.key()
        if k in seen:
            continue
        seen.add(k)
        for a in legal_actions(x):
            if action_to_text(a) == "end":
                finals.add(tuple(where(x, u) for u in units))
                continue
            y = apply_unchecked(x, a)
            if (y.turn, y.phase) != (s.turn, s.phase):  # the phase ended by itself
                finals.add(tuple(where(y, u) for u in units))
            else:
                todo.append(y)
    return finals


def _final_arrangements_rules(s, units: list[str]) -> set[tuple[str, ...]]:  # type: ignore[no-untyped-def]
    """From the rules: each unit moves at most once, anywhere it could reach (friendly units
    may be passed and entered), and at the end of the phase there is one unit per hex."""
    import itertools

    options = [sorted(ref_destinations(s, u) | {where(s, u)}) for u in units]
    return {c for c in itertools.product(*options) if len(set(c)) == len(c)}


@pytest.mark.parametrize(
    ("S", "t", "ph"),
    [
        ("5A@1208/h,3A@1308/h,10A@1209/h", 3, "soviet_movement"),  # mud: one hex each
        ("5A@1208/h,3A@1308/h,10A@1209/h,13A@1309/h", 3, "soviet_movement"),
        ("16A@1402/h,5A@1303/h,3A@1202/h", 5, "soviet_rail_movement"),  # three on one line
    ],
)
def test_stacking_final_arrangements_exact(S: str, t: int, ph: str) -> None:
    """«Ограничения»: units move one at a time, may enter and pass friendly units, and at the
    end of the phase each hex holds one unit. So the positions in which the phase can end
    are exactly the one-unit-per-hex assignments of each unit to a hex it can reach (or its
    own): swaps, rotations and moves through a crowd included. Checked exhaustively for a
    tight group of armies (XXIV's zone in 1110 touches 1209)."""
    s = pos(G="XXIV@1110", S=S, t=t, ph=ph)
    units = [x.split("@")[0] for x in S.split(",")]
    assert _final_arrangements_engine(s, units) == _final_arrangements_rules(s, units)
