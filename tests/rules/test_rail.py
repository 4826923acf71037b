"""Soviet rail movement (seed 002, «Движение», «Железнодорожное движение»; «Как играть» phase 6;
«Грязь»; bfm_data §5).

Rail lines used below (bfm_data §3): east 1402-1303(forest)-1202-1103 (Moscow, a junction
with links to 1102, 1002, 1003, 1104, 1203 and 1202) and east 1406-1405-1305-1204-1203.
"""

from __future__ import annotations

import pytest

from .helpers import assert_illegal, hexes, legal, moves, phase, play, pos, ref_destinations

FROM_1402 = {"1303", "1202", "1103", "1102", "1002", "1003", "1104", "1203"}
FROM_1406 = {"1405", "1305", "1204", "1203"}


def rail(G: str = "XXIV@0101", S: str = "16A@1402/h,3A@1407/h,5A@1406/h", t: int = 5):  # type: ignore[no-untyped-def]
    return pos(G=G, S=S, t=t, ph="soviet_rail_movement")


def test_rail_moves_exact() -> None:
    """«Железнодорожное движение»: Soviet units that begin the phase on a rail hex may move,
    only along the railway, up to their movement (4); every hex, forest too, counts 1. 16A
    in 1402: 1303 (forest, 1), 1202 (2), Moscow 1103 (3), then any of Moscow's other links
    (4). 5A in 1406 runs down the other line to 1203. 3A in 1407 is not on a rail hex and
    may not move. Nothing else is legal but ending the phase."""
    s = rail()
    want = {f"move 16A 1402-{h}" for h in FROM_1402} | {f"move 5A 1406-{h}" for h in FROM_1406} | {"end"}
    assert legal(s) == want
    assert moves(s, "16A") == ref_destinations(s, "16A")


def test_forest_counts_one_by_rail() -> None:
    """«Железнодорожное движение»: forest counts as one hex in this phase. From Rzhev (0601)
    the line 0601-0702(forest)-0802-0902(forest)-1002 takes an army the full four hexes to
    1002; by rail it reaches exactly the hexes of its lines within four links. In the general
    movement phase forests cost 2, and neither 0902 nor 1002 is within reach."""
    s = pos(G="XXIV@1410", S="16A@0601/h", t=5, ph="soviet_rail_movement")
    west, via_vyazma, through_forests = (
        "0502 0401 0302 0201",
        "0602 0603 0504 0404 0704 0803",
        "0702 0802 0902 1002",
    )
    assert moves(s, "16A") == hexes(f"{west} {via_vyazma} {through_forests}")
    general = pos(G="XXIV@1410", S="16A@0601/h", t=5, ph="soviet_movement")
    assert not {"0902", "1002"} & moves(general, "16A")


def test_only_units_starting_on_rail() -> None:
    """«Как играть» phase 6: only units that begin the phase on a railway move in it."""
    s = rail()
    assert moves(s, "3A") == set()
    assert_illegal(s, "move 3A 1407-1406")
    assert_illegal(s, "move 3A 1407-1408")


def test_only_along_connected_rail() -> None:
    """«Железнодорожное движение»: units must move along the railway only: 1401 is a
    neighbour of 1402 and a rail hex, but on another line (1401-1302-1201), so it is not a
    rail move; nor is the clear neighbour 1403's line reachable."""
    s = rail()
    for h in ("1401", "1403", "1302", "1304"):
        assert h not in moves(s, "16A")
        assert_illegal(s, f"move 16A 1402-{h}")


def test_enemy_zoc_stops_rail_movement() -> None:
    """«Зона контроля» applies to rail movement as to any movement: entering an enemy zone of
    control ends the move. XXIV in 1302 has 1303 in its zone: 16A can only get that far
    (starting in the zone, 1402, costs nothing)."""
    s = rail(G="XXIV@1302")
    assert moves(s, "16A") == {"1303"}


def test_enemy_unit_blocks_rail_line() -> None:
    """«Ограничения»: a unit never enters an enemy-held hex, so an enemy unit on the line
    blocks it; its zone also stops the mover. XXIV in 1204: 5A gets 1405 and 1305 (in
    XXIV's zone) but not 1204 or beyond; 16A on the other line still reaches 1203 (entering
    the zone as its last hex)."""
    s = rail(G="XXIV@1204")
    assert moves(s, "5A") == {"1405", "1305"}
    assert moves(s, "16A") == FROM_1402


@pytest.mark.parametrize("turn", [3, 4])
def test_mud_does_not_affect_rail(turn: int) -> None:
    """«Грязь»: all movement except Soviet rail movement is one hex per phase in mud; rail
    movement is not affected."""
    s = rail(t=turn)
    assert moves(s, "16A") == FROM_1402
    assert moves(s, "5A") == FROM_1406


def test_pass_through_friendly_on_rail() -> None:
    """«Ограничения»: friendly units may be passed through by rail too: 13A sits on the
    forest 1303 on 16A's line, and 16A still reaches every hex beyond it."""
    s = rail(S="16A@1402/h,13A@1303/h")
    assert FROM_1402 - {"1303"} <= moves(s, "16A")


def test_rail_moved_unit_moves_again_in_movement_phase() -> None:
    """«Как играть» phase 8: all Soviet units may move in the Soviet movement phase, including
    those that moved by rail in phase 6."""
    s = rail(S="16A@1402/h,3A@1407/h")
    # 16A is the only unit that can move by rail; once it has, the phase (and the combat
    # phase, with no enemy adjacent) ends by itself.
    s = play(s, "move 16A 1402-1103")
    assert phase(s) == "soviet_movement"
    assert moves(s, "16A")
    assert moves(s, "3A")
