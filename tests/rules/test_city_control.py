"""City control (seed 002, «Пополнения»: "«Свой город» означает, что Ваши части были последними
в этом городе. Все города начинают игру «своими» для советской стороны, за исключением уже
оккупированных немецкой частью"; «Условие победы»: a player holds Moscow if one of his units
was the last unit to have been in the city).

"Last to have been in" includes passing through during a move and during a retreat, and
advancing after combat. A move names the enemy-held cities it passes through (``via``).
"""

from __future__ import annotations

import pytest

from .helpers import (
    GDW,
    controller,
    fight,
    legal,
    play,
    pos,
    ref_moves_with_via,
    ref_neighbours,
    ref_reach,
    rules_for,
)


def test_initial_control() -> None:
    """All cities start Soviet except those occupied by German units at the start: Smolensk
    and Roslavl (bfm_data §2)."""
    r = rules_for(GDW)
    german = {r.map.grid.ids[c.hex] for c in r.map.cities if c.initial_control == "german"}
    assert german == {"0204", "0307"}


def test_move_through_city_takes_it() -> None:
    """A unit that passes through an enemy-held city was the last unit in it: the city
    changes hands. XXXV (1208, movement 4) may reach 1006 by way of Tula (1107) or around it;
    both moves are offered, and only the one through Tula takes it."""
    s = pos(G="XXXV@1208", S="16A@1410/h", t=5, ph="german_movement")
    assert {"move XXXV 1208-1006", "move XXXV 1208-1006 via 1107"} <= legal(s)
    through = play(s, "move XXXV 1208-1006 via 1107")
    assert controller(through, "1107") == "german"
    around = play(s, "move XXXV 1208-1006")
    assert controller(around, "1107") == "soviet"


def test_via_moves_exact() -> None:
    """The moves through Tula are exactly those whose path can enter Tula and go on: Tula is
    two clear hexes from 1208, so with the 2 points left XXXV reaches any hex within 2 of Tula
    (forest 2), its own start hex included (out through Tula and back: Tula is taken)."""
    s = pos(G="XXXV@1208", S="16A@1410/h", t=5, ph="german_movement")
    m = s.rules.map
    via = {a.split()[2].split("-")[1] for a in legal(s) if a.endswith(" via 1107")}
    want = ref_reach(
        "1107",
        2,
        lambda h: ref_neighbours(h),
        lambda h: 2 if m.is_forest(m.idx(h)) else 1,
        set(),
        set(),
    ) - {"1107"}  # a move that ends in Tula is an ordinary move to it
    assert via == want
    back = play(s, "move XXXV 1208-1208 via 1107")
    assert controller(back, "1107") == "german"


def test_ending_in_city_takes_it_and_leaving_keeps_it() -> None:
    """Control stays with the side that last entered: XXXV ends in Tula (German), then the
    next turn leaves it: still German until a Soviet unit enters; then Soviet."""
    s = pos(G="XXXV@1208", S="16A@1410/h", t=5, ph="german_movement")
    s = play(s, "move XXXV 1208-1107")
    assert controller(s, "1107") == "german"
    s = pos(G="XXXV@1208", S="16A@1007/h", t=5, ph="soviet_movement", ctl="0204,0307,1107")
    assert controller(s, "1107") == "german"
    s = play(s, "move 16A 1007-1107")
    assert controller(s, "1107") == "soviet"


def test_zoc_city_cannot_be_passed() -> None:
    """«Зона контроля»: a city in an enemy zone can be entered (and taken) but not passed
    through: with 16A in 1106 next to Tula, XXXV has no move through Tula, only to it."""
    s = pos(G="XXXV@1208", S="16A@1106/h", t=5, ph="german_movement")
    assert not any(a.endswith("via 1107") for a in legal(s))
    assert "move XXXV 1208-1107" in legal(s)


def test_retreat_through_city_takes_it() -> None:
    """A retreat passing through an enemy-held city takes it: 16A (1108) attacked by XL
    (1109) retreats 1107-1006 through German-held Tula, which becomes Soviet again."""
    s = pos(G="XL@1109,XXIV@0101", S="16A@1108,3A@1410/h", t=2, ctl="0204,0307,1107")
    s, _ = fight(s, "1108", "XL", die=1)
    assert "retreat 1107-1006" in legal(s)
    s = play(s, "retreat 1107-1006")
    assert controller(s, "1107") == "soviet"


def test_advance_into_city_takes_it() -> None:
    """Advancing after combat into the defender's city takes it: 16A in Tula (GDW: a
    fortification, one column) attacked by XXIV and XLI, 24 against 8 = 3:1 -> 2:1, die 1 DR;
    16A retreats (Tula stays Soviet: nobody has entered it), XLI advances: German."""
    s = pos(G="XXIV@1007,XLI@1108,XXXIV@0101", S="16A@1107,3A@1410/h", t=2)
    s, _ = fight(s, "1107", "XXIV", "XLI", die=1)
    s = play(s, "retreat 1106-1105")
    assert controller(s, "1107") == "soviet"
    s = play(s, "advance XLI")
    assert controller(s, "1107") == "german"


def _moves_with_via(s, uid: str) -> set[tuple[str, frozenset[str]]]:  # type: ignore[no-untyped-def]
    out = set()
    for a in legal(s):
        w = a.split()
        if w[0] == "move" and w[1] == uid:
            via = frozenset(w[4].split(",")) if len(w) == 5 else frozenset()
            out.add((w[2].split("-")[1], via))
    return out


@pytest.mark.parametrize(
    ("G", "S", "uid"),
    [
        ("XLVII@1208", "16A@0101/h", "XLVII"),  # Tula and Ryazan in reach
        ("XLVII@1106", "16A@0101/h", "XLVII"),  # Tula, Moscow, Kaluga, Orel, Ryazan
        ("XLVII@1208", "16A@1006/h", "XLVII"),  # 16A's zone in the way
    ],
)
def test_every_combination_of_cities_passed_is_a_move(G: str, S: str, uid: str) -> None:
    """Control goes to the last side to enter, so which enemy-held cities a move passes
    through matters: the moves offered are exactly the (destination, cities passed) pairs of
    all the unit's possible paths (exhaustive search over walks in helpers)."""
    s = pos(G=G, S=S, t=5, ph="german_movement")
    assert _moves_with_via(s, uid) == ref_moves_with_via(s, uid)


def test_rail_move_through_enemy_city_takes_it() -> None:
    """City control by passing applies to rail movement too: 16A running 1402-1303-1202-1103
    -1102 passes German-held Moscow and takes it; the move to 1202 may also go out through
    Moscow and back."""
    s = pos(G="XXIV@0101", S="16A@1402/h", t=5, ph="soviet_rail_movement", ctl="0204,0307,1103")
    assert "move 16A 1402-1102 via 1103" in legal(s)
    assert "move 16A 1402-1102" not in legal(s)
    assert {"move 16A 1402-1202", "move 16A 1402-1202 via 1103"} <= legal(s)
    s2 = play(s, "move 16A 1402-1102 via 1103")
    assert controller(s2, "1103") == "soviet"
