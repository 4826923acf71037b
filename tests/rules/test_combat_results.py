"""Combat procedure and results (seed 002, «Бой», «Таблица результатов боя», «Результаты боя»;
bfm_data §6).

Most positions use a Soviet army in the clear hex 1208 (no river around it) and German
attackers on its west side::

          11          12          13
       1107                    1307
                  1207                    1407
       1108                    1308
                  1208 16A                1408
       1109                    1309
                  1209                    1409
       1110                    1310
"""

from __future__ import annotations

import pytest

from typhoon.games.bfm.state import CHANCE

from .helpers import (
    GDW,
    VPG,
    act,
    assert_illegal,
    fight,
    legal,
    phase,
    play,
    pos,
    result_of,
    rules_for,
    step,
    steps,
    where,
)

# bfm_data §6 (VPG chart image; the 4:1 / die 3 cell is EX there, GDW value UNVERIFIED).
CRT = {
    1: ["DR", "DR", "DR", "DR", "DR", "DRL"],
    2: ["EX", "DR", "DR", "DR", "DRL", "DRL"],
    3: ["EX", "EX", "DR", "EX", "DRL", "DE"],
    4: ["NE", "EX", "EX", "DRL", "DRL", "DE"],
    5: ["NE", "NE", "EX", "DRL", "DE", "DE"],
    6: ["AL", "NE", "DRL", "DE", "DE", "DE"],
}


def table(rules) -> dict[int, list[str]]:  # type: ignore[no-untyped-def]
    return {die: [rules.crt[die][col] for col in range(1, 7)] for die in range(1, 7)}


def test_crt_vpg() -> None:
    """bfm_data §6: the Combat Results Table, 1:1 to 6:1 by die 1-6, as on the VPG chart."""
    assert table(rules_for(VPG)) == CRT


def test_crt_gdw_default_and_option() -> None:
    """bfm_data §6: the GDW chart is the same except possibly the 4:1 / die 3 cell, which one
    transcription of the GDW chart gives as DR (UNVERIFIED). The engine's GDW default follows
    that transcription (a documented reading, option ``crt_4to1_die3``); EX gives the VPG
    chart."""
    gdw = table(rules_for(GDW))
    want = {d: list(row) for d, row in CRT.items()}
    want[3][3] = "DR"
    assert gdw == want
    assert table(rules_for(GDW, crt_4to1_die3="EX")) == CRT
    assert table(rules_for(VPG, crt_4to1_die3="DR")) == want


def test_result_words_defined_exactly_six() -> None:
    """«Результаты боя»: there are six possible results: NE, DR, DRL, AL, DE, EX."""
    cells = {rules_for(GDW).crt[d][c] for d in range(1, 7) for c in range(1, 7)}
    assert cells == {"NE", "DR", "DRL", "AL", "DE", "EX"}


# -- the results --------------------------------------------------------------------------------


def test_ne_nothing_happens() -> None:
    """«Результаты боя», Н (NE): nothing happens. XL (8) against a full army (8): 1:1, die 4."""
    s = pos(G="XL@1108,XXIV@0101", S="16A@1208,3A@1410/h", t=2)
    s2, ev = fight(s, "1208", "XL", die=4)
    assert result_of(ev) == "NE"
    assert (where(s2, "16A"), steps(s2, "16A"), where(s2, "XL"), steps(s2, "XL")) == ("1208", 2, "1108", 2)
    assert phase(s2) == "german_movement"


def test_dr_defender_retreats_two_hexes_attacker_chooses() -> None:
    """«Результаты боя», оО (DR): the attacking player moves the defender two hexes; it keeps
    its strength. 1:1, die 1. The choice of path is the German (attacking) player's."""
    s = pos(G="XL@1108,XXIV@0101", S="16A@1208,3A@1410/h", t=2)
    s2, ev = fight(s, "1208", "XL", die=1)
    assert result_of(ev) == "DR"
    assert step(s2) == "retreat" and s2.current_player() == 0
    s3 = play(s2, "retreat 1309-1409")
    assert where(s3, "16A") == "1409" and steps(s3, "16A") == 2


def test_drl_full_defender_loses_step_then_retreats() -> None:
    """«Результаты боя», опО (DRL): the defender first takes a loss (full strength is replaced
    by its half-strength side), then, having survived, retreats as for DR. 24 against 8 is
    3:1; die 6."""
    s = pos(G="XXIV@1108,XLI@1109", S="16A@1208,3A@1410/h", t=2)
    s2, ev = fight(s, "1208", "XXIV", "XLI", die=6)
    assert result_of(ev) == "DRL"
    assert steps(s2, "16A") == 1 and where(s2, "16A") == "1208"
    assert step(s2) == "retreat"
    s3 = play(s2, "retreat 1308-1408")
    assert where(s3, "16A") == "1408" and steps(s3, "16A") == 1


def test_drl_half_defender_eliminated() -> None:
    """«Результаты боя», опО: a half-strength unit that takes a loss is eliminated (so it does
    not retreat); an attacker may advance into the hex."""
    s = pos(G="XXIV@1108", S="16A@1208/h,3A@1410/h", t=2)
    s2, ev = fight(s, "1208", "XXIV", die=6)  # 12 against 4: 3:1
    assert result_of(ev) == "DRL"
    assert where(s2, "16A") is None and steps(s2, "16A") == 0
    assert step(s2) == "advance"


def test_al_attacker_chooses_unit_that_loses_a_step() -> None:
    """«Результаты боя», пА (AL): one attacking unit, chosen by the attacker, takes a loss as
    in DRL but does not retreat; the defender is untouched. XL 8 + XXXIV 4 against 8 = 1:1,
    die 6."""
    s = pos(G="XL@1108,XXXIV@1109,XXIV@0101", S="16A@1208,3A@1410/h", t=2)
    s2, ev = fight(s, "1208", "XL", "XXXIV", die=6)
    assert result_of(ev) == "AL"
    assert legal(s2) == {"lose XL", "lose XXXIV"}
    assert s2.current_player() == 0
    s3 = play(s2, "lose XL")
    assert (where(s3, "XL"), steps(s3, "XL")) == ("1108", 1)
    assert (where(s3, "XXXIV"), steps(s3, "XXXIV")) == ("1109", 2)
    assert (where(s3, "16A"), steps(s3, "16A")) == ("1208", 2)
    assert phase(s3) == "german_movement"  # no retreat, no advance


def test_al_half_strength_attacker_eliminated() -> None:
    """«Результаты боя», пА: a half-strength attacker that takes the loss is eliminated (the
    only attacker: no choice to make)."""
    s = pos(G="XL@1108/h,XXIV@0101", S="16A@1208/h,3A@1410/h", t=2)
    s2, ev = fight(s, "1208", "XL", die=6)  # 4 against 4
    assert result_of(ev) == "AL"
    assert where(s2, "XL") is None and where(s2, "16A") == "1208"


def test_de_full_defender_eliminated() -> None:
    """«Результаты боя», уО (DE): the defender is eliminated outright, whether at full or half
    strength. 40 against a full army (8) = 5:1, die 5."""
    s = pos(G="XXIV@1108,XLI@1109,LVII@1207,XXXIV@1209", S="16A@1208,3A@1410/h", t=2)
    s2, ev = fight(s, "1208", "XXIV", "XLI", "LVII", "XXXIV", die=5)
    assert result_of(ev) == "DE"
    assert where(s2, "16A") is None and steps(s2, "16A") == 0
    assert all(steps(s2, u) == 2 for u in ("XXIV", "XLI", "LVII", "XXXIV"))
    assert step(s2) == "advance"


def test_chance_node_offers_six_rolls() -> None:
    """«Бой», step 4: roll one die: the engine asks for a roll of 1 to 6 (a chance event)."""
    s = pos(G="XL@1108,XXIV@0101", S="16A@1208,3A@1410/h", t=2)
    s2, _ = fight(s, "1208", "XL")
    assert s2.current_player() == CHANCE
    assert legal(s2) == {f"roll {d}" for d in range(1, 7)}
    for bad in ("retreat 1309-1409", "lose XL", "advance XL", "end"):
        assert_illegal(s2, bad)


# -- declaration and resolution ---------------------------------------------------------------

DECLARE = {"G": "XXIV@1108,XLI@1109,XXXIV@1410", "S": "16A@1208,3A@1110", "t": 2}


def test_declaration_choices_exact() -> None:
    """«Бой»: units may attack adjacent enemy units. XXIV (1108) is next to 16A only, XLI
    (1109) next to 16A and 3A (1110), XXXIV next to neither. Attacking is voluntary."""
    s = pos(**DECLARE)
    assert legal(s) == {"attack XXIV 1208", "attack XLI 1208", "attack XLI 1110", "end"}


def test_each_unit_attacks_once_each_defender_attacked_once() -> None:
    """«Бой»: a unit may attack only once per phase and an enemy unit may be attacked only
    once per phase: several units attacking the same defender make one battle."""
    s = play(pos(**DECLARE), "attack XLI 1208")
    assert legal(s) == {"attack XXIV 1208", "end"}  # XLI is committed; 3A is no longer a choice for it
    assert_illegal(s, "attack XLI 1110")
    assert_illegal(s, "attack XLI 1208")
    s = play(s, "attack XXIV 1208")
    assert s.battles == (
        (s.rules.unit_index["16A"], (s.rules.unit_index["XLI"], s.rules.unit_index["XXIV"])),
    )


@pytest.mark.parametrize(
    "bad",
    [
        "attack XXXIV 1208",  # not adjacent
        "attack XXIV 1109",  # own unit
        "attack XXIV 1207",  # empty hex
        "attack 16A 1108",  # the defender's unit
        "attack XXIV 1511",  # no such hex
        "resolve 1208",  # nothing declared yet, declarations still open
        "roll 3",
    ],
)
def test_illegal_declarations(bad: str) -> None:
    """«Бой»: only the attacking player's units, against adjacent enemy units; no resolution
    before the declarations are closed."""
    assert_illegal(pos(**DECLARE), bad)


def test_all_declared_before_any_resolved_then_attacker_chooses_order() -> None:
    """«Бой»: first the attacker declares all attacks; once declared he cannot change his
    mind; then the attacks are resolved one at a time in the order the attacker wishes."""
    s = play(pos(**DECLARE), "attack XXIV 1208", "attack XLI 1110")
    # XLI is committed against 3A, XXIV against 16A: nothing left to declare, so the engine
    # closes the declarations itself; the attacker now picks the order.
    assert step(s) == "choose"
    assert legal(s) == {"resolve 1208", "resolve 1110"}
    assert s.current_player() == 0
    assert_illegal(s, "attack XLI 1208")
    s = play(s, "resolve 1110")
    assert step(s) == "roll"
    s, ev = act(s, "roll 4")  # 12 against 8: 1:1, die 4: NE
    assert result_of(ev) == "NE"
    # the remaining battle comes next (one left: no choice needed)
    assert step(s) == "roll" and s.cur is not None and s.cur.defender == s.rules.unit_index["16A"]


def test_declarations_closed_by_end() -> None:
    """«Бой»: "once the attacks are declared the attacker cannot change his mind": after
    ending the declarations no further attack may be declared."""
    s = play(pos(**DECLARE), "attack XLI 1110", "end")
    assert step(s) == "roll"  # a single battle: it is resolved at once
    assert_illegal(s, "attack XXIV 1208")


def test_no_attacks_ends_phase() -> None:
    """«Бой»: attacks are optional; declaring none ends the combat phase."""
    s = play(pos(**DECLARE), "end")
    assert phase(s) == "german_movement"
