"""Exchange (seed 002, «Результаты боя», Р (EX); «Грязь»).

EX: first the defender takes a loss as in DRL. Then the attacker must lose at least as many
strength points from the attacking units. In both cases a full-strength unit reduced to half
strength counts its full strength minus its half strength (a 9-strength panzer corps flipped
to its 4 side counts 5). Then the defender, if it survived, retreats as for DR. (The defender
may be eliminated during that retreat, and the attacker does not pay for that.) In mud the
attacker's EX loss is counted from printed strengths, not the halved ones.
"""

from __future__ import annotations

from .helpers import event_kinds, fight, legal, play, pos, ref_retreats, result_of, step, steps, where

# 16A (8-4, full) in 1208; XL (8-6: a flip costs 4) and XXXIV (4-4: a flip costs 2) attack:
# 12 against 8 is 1:1, die 2 is EX.
BASE = {"G": "XL@1108,XXXIV@1109,XXIV@0101", "S": "16A@1208,3A@1410/h", "t": 2}


def ex(**over):  # type: ignore[no-untyped-def]
    s, ev = fight(pos(**{**BASE, **over}), "1208", "XL", "XXXIV", die=2)
    assert result_of(ev) == "EX"
    return s, ev


def test_defender_loses_first_then_attacker_chooses() -> None:
    """Р: the defender takes its loss first (16A is now half strength, still in 1208); then
    the attacker chooses which attacking unit takes a step."""
    s, ev = ex()
    assert steps(s, "16A") == 1 and where(s, "16A") == "1208"
    assert step(s) == "loss" and s.current_player() == 0
    assert legal(s) == {"lose XL", "lose XXXIV"}
    kinds = event_kinds(ev)
    assert kinds.index("loss") > kinds.index("roll")


def test_one_flip_that_covers_the_loss_is_enough_then_retreat() -> None:
    """Р: the defender lost 8 - 4 = 4 points; flipping XL (8 - 4 = 4) pays it all. Then the
    surviving defender retreats as for DR, on a path the attacker chooses."""
    s, _ = ex()
    s = play(s, "lose XL")
    assert steps(s, "XL") == 1 and steps(s, "XXXIV") == 2
    assert step(s) == "retreat"
    assert legal(s) == ref_retreats(s, "16A")
    s = play(s, "retreat 1309-1409")
    assert where(s, "16A") == "1409"
    assert step(s) == "advance"


def test_losses_accumulate_until_at_least_as_many() -> None:
    """Р: "at least as many strength points": flipping XXXIV costs only 2 of the 4 owed, so
    the attacker must take another step (XXXIV again: eliminated at half strength, 2 more; or
    XL)."""
    s, _ = ex()
    s = play(s, "lose XXXIV")
    assert steps(s, "XXXIV") == 1
    assert step(s) == "loss"
    assert legal(s) == {"lose XL", "lose XXXIV"}
    s2 = play(s, "lose XXXIV")  # 2 + 2 = 4: paid
    assert where(s2, "XXXIV") is None and steps(s2, "XL") == 2
    assert step(s2) == "retreat"
    s3 = play(s, "lose XL")  # 2 + 4 = 6 >= 4: also paid
    assert steps(s3, "XL") == 1 and steps(s3, "XXXIV") == 1
    assert step(s3) == "retreat"


def test_seed_example_panzer_9_flip_counts_5() -> None:
    """Р: "if a panzer unit of strength 9 takes a loss (and is replaced by its 4 side) the loss
    is 5". 1st Shock Army (10-4 -> 5: a loss of 5) attacked by XLVII (9) and XXXIV (4):
    13 against 10, 1:1, EX. Flipping XLVII (5) pays the 5 in one step; flipping XXXIV (2)
    does not."""
    base = {"G": "XLVII@1108,XXXIV@1109,XXIV@0101", "S": "1SA@1208,3A@1410/h", "t": 5}
    s, ev = fight(pos(**base), "1208", "XLVII", "XXXIV", die=2)
    assert result_of(ev) == "EX" and steps(s, "1SA") == 1
    assert step(play(s, "lose XLVII")) == "retreat"
    assert step(play(s, "lose XXXIV")) == "loss"
    # XXXIV twice is 4 of the 5: not yet; XLVII, the only attacker left, must also flip (the
    # engine takes a decision with one answer by itself).
    s2 = play(s, "lose XXXIV", "lose XXXIV")
    assert where(s2, "XXXIV") is None and steps(s2, "XLVII") == 1
    assert step(s2) == "retreat"


def test_half_strength_defender_eliminated_attacker_pays_half_value() -> None:
    """Р: a half-strength defender taking the loss is eliminated; it lost its half strength
    (4), so the attacker owes 4: XL (8 against 4 = 2:1, die 3 EX) flips, paying exactly 4 (the
    only attacker: the engine takes it). No retreat; XL may advance."""
    s, ev = fight(pos(G="XL@1108,XXIV@0101", S="16A@1208/h,3A@1410/h", t=2), "1208", "XL", die=3)
    assert result_of(ev) == "EX"
    assert where(s, "16A") is None
    assert steps(s, "XL") == 1
    assert legal(s) == {"advance XL", "advance none"}


def test_elimination_in_retreat_does_not_raise_attacker_loss() -> None:
    """Р (note): the defender may be eliminated during its retreat, and the attacker does not
    have to lose more for it. 16A (full) in the corner hex 1410 is attacked by XL from 1310;
    XXIV in 1309 puts the only other neighbour, 1409, in its zone. EX: 16A to half strength,
    XL flips (4 for 4), then 16A has no retreat and is eliminated -- XL stays at half, XXIV is
    untouched, and XL may advance."""
    s, ev = fight(pos(G="XL@1310,XXIV@1309", S="16A@1410,3A@1401/h", t=2), "1410", "XL", die=2)
    assert result_of(ev) == "EX"
    assert where(s, "16A") is None
    assert steps(s, "XL") == 1 and steps(s, "XXIV") == 2
    assert step(s) == "advance"
    kinds = event_kinds(ev)
    assert kinds.count("loss") == 2  # one for 16A, one for XL; nothing more


def test_mud_exchange_counts_printed_strength() -> None:
    """«Грязь»: the attacker's EX losses are counted from printed strength, not the halved
    one. Turn 3: XL (8, halved 4), XLVII (9, halved 4.5) and XXXIV (4, halved 2) make 10.5
    against 8, 1:1; EX: 16A flips (4 points). Flipping XL pays the 4 in printed points
    (counted halved it would be only 2); flipping XXXIV counts 2 (not 1), so after it and
    XXXIV's elimination (2 more) the debt is paid too."""
    base = {"G": "XL@1108,XLVII@1109,XXXIV@1207,XXIV@0101", "S": "16A@1208,3A@1410/h", "t": 3}
    s, ev = fight(pos(**base), "1208", "XL", "XLVII", "XXXIV", die=2)
    assert result_of(ev) == "EX"
    assert step(play(s, "lose XL")) == "retreat"
    assert step(play(s, "lose XXXIV")) == "loss"
    assert step(play(s, "lose XXXIV", "lose XXXIV")) == "retreat"
