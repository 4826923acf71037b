"""Advance after combat (seed 002, «Бой», step 6).

"If the defending unit is no longer in its hex (eliminated or forced to retreat), one of the
attacking units may immediately advance into that hex."
"""

from __future__ import annotations

from .helpers import VPG, fight, legal, phase, play, pos, result_of, step, steps, where

# 16A (full) in 1208; XL (1108) and XXXIV (1109) attack: 12 against 8 = 1:1. 3A in 1309 is
# next to 1208, so the vacated hex is in a Soviet zone of control.
BASE = {"G": "XL@1108,XXXIV@1109,XXIV@0101", "S": "16A@1208,3A@1309/h,5A@1410/h", "t": 2}


def after_dr():  # type: ignore[no-untyped-def]
    s, ev = fight(pos(**BASE), "1208", "XL", "XXXIV", die=1)
    assert result_of(ev) == "DR"
    return play(s, "retreat 1308-1307")


def test_one_attacker_may_advance_or_none() -> None:
    """Step 6: after the defender retreats, one of the attacking units (attacker's choice)
    may advance into its hex; advancing is optional."""
    s = after_dr()
    assert step(s) == "advance" and s.current_player() == 0
    assert legal(s) == {"advance XL", "advance XXXIV", "advance none"}


def test_advance_moves_exactly_one_unit_into_vacated_hex() -> None:
    """Step 6: the advancing unit enters the defender's hex (even though it is in 3A's zone
    of control); only one unit advances, the battle is then over."""
    s = play(after_dr(), "advance XXXIV")
    assert where(s, "XXXIV") == "1208" and where(s, "XL") == "1108"
    assert steps(s, "XXXIV") == 2
    assert phase(s) == "german_movement"


def test_advance_none_leaves_hex_empty() -> None:
    """Step 6: "may advance" -- the attacker may also leave the hex empty."""
    s = play(after_dr(), "advance none")
    assert s.at[s.rules.map.idx("1208")] < 0
    assert where(s, "XL") == "1108" and where(s, "XXXIV") == "1109"


def test_illegal_advances() -> None:
    """Step 6: only an attacking unit of this battle may advance, and only one."""
    from .helpers import assert_illegal

    s = after_dr()
    for bad in ("advance XXIV", "advance 16A", "advance ZZZ", "lose XL", "end"):
        assert_illegal(s, bad)


def test_advance_after_de() -> None:
    """Step 6: after an eliminated defender (DE) the attackers may advance too. 40 against 8,
    5:1, die 5."""
    s = pos(G="XXIV@1108,XLI@1109,LVII@1207,XXXIV@1209", S="16A@1208,3A@1410/h", t=2)
    s, ev = fight(s, "1208", "XXIV", "XLI", "LVII", "XXXIV", die=5)
    assert result_of(ev) == "DE"
    assert legal(s) == {"advance XXIV", "advance XLI", "advance LVII", "advance XXXIV", "advance none"}


def test_no_advance_when_defender_stays() -> None:
    """Step 6 only applies when the defender's hex is empty: after NE and AL the battle ends
    without an advance."""
    for die, result in ((4, "NE"), (6, "AL")):
        s, ev = fight(pos(**BASE), "1208", "XL", "XXXIV", die=die)
        assert result_of(ev) == result
        if result == "AL":
            s = play(s, "lose XXXIV")
        assert where(s, "16A") == "1208"
        assert phase(s) == "german_movement"


def test_eliminated_attacker_cannot_advance() -> None:
    """Step 6 names the attacking units; one eliminated paying an exchange is gone. EX (die 2),
    the attacker pays with XXXIV twice (eliminated), 16A retreats: only XL may advance."""
    s, ev = fight(pos(**BASE), "1208", "XL", "XXXIV", die=2)
    assert result_of(ev) == "EX"
    s = play(s, "lose XXXIV", "lose XXXIV", "retreat 1308-1307")
    assert legal(s) == {"advance XL", "advance none"}


def test_no_advance_after_stand_fast_vpg() -> None:
    """VPG stand fast: a defender in Tula that turns its DR into a step loss stays in its hex,
    so there is no advance."""
    s = pos(ed=VPG, G="XXIV@1007,XLI@1108,XXXIV@0101", S="16A@1107,3A@1410/h", t=2)
    s, ev = fight(s, "1107", "XXIV", "XLI", die=1)  # 24 against 8: 3:1, -2 (fort., major city)
    assert result_of(ev) == "DR"
    s = play(s, "standfast yes")
    assert where(s, "16A") == "1107" and steps(s, "16A") == 1
    assert phase(s) == "german_movement"
