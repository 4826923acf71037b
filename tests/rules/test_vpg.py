"""The VPG 2009 edition's differences (issue 2, item 5; bfm_data §1, §2, §5, §6, §8, §10, §11).

Map and set-up hexes (test_map_data), 17 Soviet edge hexes, the German turn 1 starting with
combat, mud halving only panzers (test_mud), 1st Shock Army as a free turn-4 reinforcement,
"stand fast" in the major cities Moscow and Tula (a defender may turn a DR into a one-step loss
without retreat), and victory with a draw (test_victory).
"""

from __future__ import annotations

import pytest

from typhoon.games.bfm.engine import new_game

from .helpers import (
    GDW,
    VPG,
    assert_illegal,
    battle_data,
    fight,
    legal,
    moves,
    phase,
    play,
    pos,
    result_of,
    step,
    steps,
    where,
)
from .test_map_data import SETUP_GERMAN_VPG, SETUP_SOVIET_VPG

VPG_SOVIET_EDGE = {"1101", "1201", "1301", "1010", "1111", "1210", "1311"} | {
    f"14{r:02d}" for r in range(1, 11)
}


def test_vpg_setup_hexes_in_play() -> None:
    """bfm_data §2: VPG has 14 Soviet set-up hexes (0503, 0511 and 0608 instead of GDW's 0504
    and 0505) and 22 German ones (0404 instead of 0107)."""
    s = new_game(VPG)
    assert {a.split()[2] for a in legal(s) if a.startswith("place")} == SETUP_SOVIET_VPG
    s = play(s, "setup standard")
    assert {a.split()[2] for a in legal(s) if a.startswith("place")} == SETUP_GERMAN_VPG


def test_vpg_soviet_edge_for_replacements() -> None:
    """bfm_data §1: the VPG Soviet edge is the 17 red-bordered hexes (north 1101 1201 1301,
    east 1401-1410, south 1010 1111 1210 1311): new armies may appear on any empty one."""
    s = pos(ed=VPG, G="XXIV@0202", S="5A@1408/h", t=2, ph="soviet_replacement", repl=5)
    places = {a.split()[2] for a in legal(s) if a.startswith("rebuild 16A ")}
    assert VPG_SOVIET_EDGE - {"1408"} <= places
    cities = {"0509", "0601", "0603", "0803", "0805", "0809", "1103", "1107"}
    assert places == (VPG_SOVIET_EDGE - {"1408"}) | cities
    gdw = pos(ed=GDW, G="XXIV@0202", S="5A@1408/h", t=2, ph="soviet_replacement", repl=5)
    assert "rebuild 16A 1101" not in legal(gdw)


def test_vpg_turn1_starts_with_combat() -> None:
    """bfm_data §8 (UNVERIFIED there; engine option turn1_combat_first, default yes): the
    German turn 1 starts directly with the combat phase, no panzer movement."""
    s = play(new_game(VPG), "setup standard", "setup standard")
    assert (s.turn, phase(s)) == (1, "german_combat")
    assert any(a.startswith("attack ") for a in legal(s))
    assert not any(a.startswith("move ") for a in legal(s))


# -- 1st Shock Army -----------------------------------------------------------------------------

REINF = {"ed": VPG, "G": "XXIV@0202", "S": "5A@1408/h", "ph": "soviet_replacement"}


def test_first_shock_free_reinforcement_turn_4() -> None:
    """bfm_data §10 (VPG/oberlabs): 1st Shock Army arrives as a reinforcement on turn 4, free
    (no replacement spent). It must be placed before the phase can end; it goes where a new
    army could. Strength: full by default (option first_shock_strength, UNVERIFIED)."""
    s = pos(**REINF, t=4, repl=4)
    acts = legal(s)
    assert "end" not in acts
    reinforce = {a.split()[2] for a in acts if a.startswith("reinforce 1SA ")}
    rebuild = {a.split()[2] for a in acts if a.startswith("rebuild 16A ")}
    assert reinforce == rebuild and "1101" in reinforce
    assert not any(a.startswith("rebuild 1SA") for a in acts)
    assert_illegal(s, "end")
    s = play(s, "reinforce 1SA 1101")
    assert where(s, "1SA") == "1101" and steps(s, "1SA") == 2
    assert s.repl == 4  # free
    assert not any("1SA" in a for a in legal(s))


def test_first_shock_half_strength_option() -> None:
    """Option first_shock_strength=half (bfm_data §10: the arrival strength is not in the
    sources): 1st Shock Army arrives at half strength."""
    s = pos(**REINF, t=4, repl=4, opt="first_shock_strength:half")
    s = play(s, "reinforce 1SA 1401")
    assert steps(s, "1SA") == 1


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_first_shock_not_before_turn_4(turn: int) -> None:
    """Before turn 4 1st Shock Army is neither a reinforcement nor a replacement."""
    s = pos(**REINF, t=turn, repl=5)
    assert not any("1SA" in a for a in legal(s))


def test_first_shock_rebuilt_after_arrival() -> None:
    """Once arrived and later eliminated, 1st Shock Army is an eliminated army like any other
    and may be rebuilt with a replacement."""
    s = pos(**REINF, t=5, repl=5, arr="1SA")
    assert "rebuild 1SA 1401" in legal(s)
    assert not any(a.startswith("reinforce") for a in legal(s))


# -- stand fast --------------------------------------------------------------------------------


def test_stand_fast_in_moscow() -> None:
    """VPG stand fast (bfm_data §6): a defender in a major city (Moscow 1103, Tula 1107) may
    turn a DR into a one-step loss without retreat. The defender's player decides. Moscow:
    24 against 8, 3:1; -1 major city, -1 river (1002|1103, 1103|1104): 1:1, die 1 DR."""
    s = pos(ed=VPG, G="XXIV@1002,XLI@1104", S="16A@1103,3A@1410/h", t=2)
    s, ev = fight(s, "1103", "XXIV", "XLI", die=1)
    assert result_of(ev) == "DR" and battle_data(ev)["final"] == 1
    assert step(s) == "standfast" and s.current_player() == 1
    assert legal(s) == {"standfast yes", "standfast no"}
    held = play(s, "standfast yes")
    assert where(held, "16A") == "1103" and steps(held, "16A") == 1
    ran = play(s, "standfast no")
    assert step(ran) == "retreat" and ran.current_player() == 0


def test_stand_fast_half_strength_eliminated() -> None:
    """Stand fast costs a step: a half-strength defender that stands fast is eliminated (and
    the attacker may advance)."""
    s = pos(ed=VPG, G="XXIV@1002,XLI@1104", S="16A@1103/h,3A@1410/h", t=2)
    s, ev = fight(s, "1103", "XXIV", "XLI", die=1)  # 24 against 4: 6:1 -> 4:1, die 1 DR
    assert result_of(ev) == "DR"
    s = play(s, "standfast yes")
    assert where(s, "16A") is None and step(s) == "advance"


def test_stand_fast_only_for_dr_in_major_cities() -> None:
    """Stand fast applies to DR only, in Moscow and Tula only, and only in VPG: DRL in Tula is
    taken as usual; a DR in Kaluga (another fortified city) or in GDW Moscow means retreat."""
    tula = pos(ed=VPG, G="XXIV@1007,XLI@1108,XLVI@1206", S="16A@1107,3A@1410/h", t=2)
    s, ev = fight(tula, "1107", "XXIV", "XLI", "XLVI", die=6)  # 34 against 8: 4:1 -> 2:1, die 6
    assert result_of(ev) == "NE"
    s, ev = fight(tula, "1107", "XXIV", "XLI", "XLVI", die=2)  # 2:1, die 2: DR
    assert result_of(ev) == "DR" and step(s) == "standfast"
    kaluga = pos(ed=VPG, G="XXIV@0705,XLI@0804", S="16A@0805,3A@1410/h", t=2)
    s, ev = fight(kaluga, "0805", "XXIV", "XLI", die=1)
    assert result_of(ev) == "DR" and step(s) == "retreat"
    gdw = pos(ed=GDW, G="XXIV@1002,XLI@1104", S="16A@1103,3A@1410/h", t=2)
    s, ev = fight(gdw, "1103", "XXIV", "XLI", die=1)
    assert result_of(ev) == "DR" and step(s) == "retreat"


def test_stand_fast_not_on_drl() -> None:
    """A DRL in a major city is a step loss and a retreat as usual (no choice offered): 36
    against 8 in Moscow from 1102, 1202 and 1203 (no river between them and Moscow) is 4:1,
    3:1 after the major-city shift; die 6 is DRL."""
    s = pos(ed=VPG, G="XXIV@1102,XLI@1202,LVII@1203", S="16A@1103,3A@1410/h", t=2)
    s, ev = fight(s, "1103", "XXIV", "XLI", "LVII", die=6)
    assert result_of(ev) == "DRL" and battle_data(ev)["final"] == 3
    assert steps(s, "16A") == 1
    assert step(s) == "retreat"


def test_vpg_tula_two_shifts() -> None:
    """bfm_data §7: a Soviet unit in Tula gets the fortification shift and the major-city
    shift (VPG): 24 against 8 is 3:1 -> 1:1. In GDW only the fortification: 2:1."""
    for ed, final in ((VPG, 1), (GDW, 2)):
        s = pos(ed=ed, G="XXIV@1007,XLI@1108,XXXIV@0101", S="16A@1107,3A@1410/h", t=2)
        _, ev = fight(s, "1107", "XXIV", "XLI")
        assert battle_data(ev)["final"] == final


def test_vpg_rail_differences() -> None:
    """bfm_data §5: VPG has no Orel spur (0809-0810) but runs the Bryansk line on to 0511."""
    g = pos(ed=GDW, G="XXIV@0101", S="16A@0809/h", t=2, ph="soviet_rail_movement")
    v = pos(ed=VPG, G="XXIV@0101", S="16A@0809/h", t=2, ph="soviet_rail_movement")
    assert "0810" in moves(g, "16A") and "0810" not in moves(v, "16A")
    v = pos(ed=VPG, G="XXIV@0101", S="16A@0509/h", t=2, ph="soviet_rail_movement")
    assert "0511" in moves(v, "16A")


def test_first_shock_waits_when_no_hex_can_take_it() -> None:
    """Engine reading (flow.reinforcement_due): if no hex can take 1st Shock Army on turn 4
    (here German units on all 17 Soviet edge hexes and every city German-held), the phase may
    end and the army arrives in a later Soviet replacement phase."""
    germans = [
        "XXIV",
        "XLI",
        "LVII",
        "XLVI",
        "XLVII",
        "LVI",
        "XL",
        "XLVIII",
        "XXII",
        "XXXV",
        "VII",
        "VIII",
        "IX",
        "V",
        "XIII",
        "XX",
        "XXVII",
    ]
    edge = sorted(VPG_SOVIET_EDGE)
    G = ",".join(f"{u}@{h}" for u, h in zip(germans, edge))
    cities = "0204,0307,0509,0601,0603,0803,0805,0809,1103,1107,1405"
    s = pos(ed=VPG, G=G, S="5A@0808/h", t=4, ph="soviet_replacement", repl=4, ctl=cities)
    assert legal(s) == {"end"}
    later = pos(ed=VPG, G="XXIV@0202", S="5A@0808/h", t=5, ph="soviet_replacement", repl=5)
    assert "reinforce 1SA 1401" in legal(later) and "end" not in legal(later)
