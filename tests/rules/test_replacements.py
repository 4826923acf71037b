"""Replacements (seed 002, «Пополнения», «Первая ударная армия», «Игровой баланс», «Начало
игры»).

A replacement either creates a new half-strength unit (from one eliminated before) or brings a
half-strength unit to full strength. German 1 per turn, Soviet 5, each in its own replacement
phase; two replacements may not be used at once to make a full-strength unit from nothing.
New Soviet units appear on the east edge (any empty hex) or in any empty friendly city in
communication with the east edge (no more than one unit per city); units being restored must
be in communication with the east edge. Soviet exception: Moscow, even without communication.
German: the same with the west edge, Moscow gives no advantage. Unused replacements are lost.
"""

from __future__ import annotations

import pytest

from typhoon.games.bfm.engine import new_game

from .helpers import (
    GDW,
    VPG,
    act,
    assert_illegal,
    hexes,
    legal,
    phase,
    play,
    pos,
    rules_for,
    steps,
    where,
)

SOVIET_ALL = ["1SA"] + [f"{n}A" for n in (3, 5, 10, 13, 16, 19, 20, 24, 29, 30, 32, 33, 40, 43, 49, 50)]

# Soviet replacement phase, turn 2. XXIV (0202) cuts 3A in the corner hex 0101 off (both its
# neighbours, 0102 and 0201, are in XXIV's zone); XLI (1403) stands on the east edge.
SOV = {
    "G": "XXIV@0202,XLI@1403",
    "S": "3A@0101/h,5A@0603/h,10A@1103,13A@1408/h",
    "t": 2,
    "ph": "soviet_replacement",
    "repl": 5,
}
# East edge hexes that are empty, and the empty Soviet-held cities in communication.
SOV_PLACES = hexes("1401 1402 1404 1405 1406 1407 1409 1410 0509 0601 0803 0805 0809 1107")
SOV_OFF = [u for u in SOVIET_ALL if u not in ("3A", "5A", "10A", "13A", "1SA")]


def test_soviet_replacement_choices_exact() -> None:
    """«Пополнения»: every eliminated army (not 1st Shock before turn 4) may be rebuilt on an
    empty east-edge hex (1403 holds XLI, 1408 13A) -- 1402 and 1404 too, though in XLI's zone
    (reading: the edge needs no communication) -- or in an empty Soviet city in
    communication: Bryansk, Rzhev, Mozhaisk, Kaluga, Orel, Tula (Ryazan is an edge hex;
    Vyazma and Moscow are occupied; Smolensk and Roslavl are German). Restore: 5A and 13A are
    in communication; 3A is cut off; 10A is at full strength."""
    s = pos(**SOV)
    want = {f"rebuild {u} {h}" for u in SOV_OFF for h in SOV_PLACES}
    want |= {"restore 5A", "restore 13A", "end"}
    assert legal(s) == want


def test_rebuild_half_strength_and_no_restore_same_phase() -> None:
    """«Пополнения»: a rebuilt unit comes back at half strength; two replacements cannot be
    used at once to make a full-strength unit, so it cannot also be restored this phase.
    The city it went to is no longer free (one unit per city)."""
    s = play(pos(**SOV), "rebuild 16A 1107")
    assert where(s, "16A") == "1107" and steps(s, "16A") == 1
    assert s.repl == 4
    assert "restore 16A" not in legal(s)
    assert_illegal(s, "restore 16A")
    assert not any(a.startswith("rebuild") and a.endswith(" 1107") for a in legal(s))
    assert_illegal(s, "rebuild 19A 1107")


def test_restore_in_communication() -> None:
    """«Пополнения»: a half-strength unit in communication is brought to full strength."""
    s = play(pos(**SOV), "restore 5A")
    assert steps(s, "5A") == 2 and s.repl == 4
    assert "restore 5A" not in legal(s)


@pytest.mark.parametrize(
    "bad",
    [
        "restore 3A",  # cut off
        "restore 10A",  # already at full strength
        "restore XXIV",  # not a Soviet unit
        "rebuild 5A 1401",  # on the map
        "rebuild 1SA 1401",  # 1st Shock Army: not before turn 4
        "rebuild 16A 1403",  # occupied edge hex
        "rebuild 16A 1103",  # occupied city
        "rebuild 16A 0204",  # a German-held city
        "rebuild 16A 1308",  # neither edge nor city
        "rebuild 16A 0101",  # the German edge
        "move 5A 0603-0604",
        "attack 13A 1403",
    ],
)
def test_illegal_replacements(bad: str) -> None:
    """«Пополнения»: the conditions above; anything else raises and changes nothing."""
    assert_illegal(pos(**SOV), bad)


def test_five_soviet_replacements_then_phase_ends() -> None:
    """«Пополнения»: the Soviet player receives five replacements a turn. After five, nothing
    more can be taken: the phase is over."""
    s = play(pos(**SOV), "rebuild 16A 1401", "rebuild 19A 1402", "restore 5A", "restore 13A")
    assert s.repl == 1 and phase(s) == "soviet_replacement"
    s, ev = act(s, "rebuild 20A 1404")
    assert phase(s) != "soviet_replacement"
    assert where(s, "20A") == "1404"


def test_unused_replacements_lost() -> None:
    """«Пополнения»: replacements not used cannot be saved for later turns: ending the phase
    with 5 unused, the next Soviet replacement phase again has 5 (not 10)."""
    s, ev = act(pos(**SOV), "end")
    assert any(e.kind == "replacements_lost" for e in ev)
    while not (phase(s) == "soviet_replacement" and s.turn == 3):
        s, _ = act(s, "end")
    assert s.repl == 5


def test_german_replacement_choices_exact() -> None:
    """«Пополнения»: German replacements the same way, to the west edge (0101-0110); a new
    unit appears on an empty west-edge hex or in an empty German-held city in communication
    with it: Smolensk, Roslavl, and Vyazma (taken earlier); Kaluga (German-held) is cut off by
    13A and 16A; in Moscow LVII (half strength) is surrounded by Soviet zones and -- Moscow
    gives the Germans no advantage -- cannot be restored. XXIV (half) can. One replacement."""
    s = pos(
        G="XXIV@0405/h,LVII@1103/h",
        S="3A@1002/h,5A@1104/h,10A@1202/h,13A@0905/h,16A@0706/h",
        t=2,
        ph="german_replacement",
        repl=1,
        ctl="0204,0307,0603,0805,1103",
    )
    places = {f"01{r:02d}" for r in range(1, 11)} | {"0204", "0307", "0603"}
    off = [u.id for u in s.rules.units if u.side == 0 and u.id not in ("XXIV", "LVII")]
    want = {f"rebuild {u} {h}" for u in off for h in places} | {"restore XXIV", "end"}
    assert legal(s) == want
    s2 = play(s, "rebuild XLI 0603")
    assert where(s2, "XLI") == "0603" and steps(s2, "XLI") == 1
    assert phase(s2) != "german_replacement"  # one replacement only


def test_moscow_exception_soviet() -> None:
    """«Пополнения», exception: the Soviet player may restore a unit, or create a new one, in
    Moscow even if it cannot trace communication. Moscow (1103) is ringed by German zones
    (XXIV 1002, XLI 1104, LVII 1202): 3A there can be restored; with Moscow empty, armies may
    be rebuilt there."""
    s = pos(G="XXIV@1002,XLI@1104,LVII@1202", S="3A@1103/h,5A@1408/h", t=2, ph="soviet_replacement", repl=5)
    assert "restore 3A" in legal(s)
    empty = pos(G="XXIV@1002,XLI@1104,LVII@1202", S="5A@1408/h", t=2, ph="soviet_replacement", repl=5)
    assert "rebuild 3A 1103" in legal(empty)
    # No other city has the exception: Kaluga (Soviet-held, empty) ringed by German zones.
    kaluga = pos(G="XXIV@0905,XLI@0706", S="5A@1408/h", t=2, ph="soviet_replacement", repl=5)
    assert not any(a.endswith(" 0805") for a in legal(kaluga))


def test_first_shock_army_gdw() -> None:
    """«Первая ударная армия»: it does not start on the map and cannot be taken as a
    replacement before turn 4 (Nov I/II); from turn 4 it is rebuilt like any eliminated army
    (at half strength)."""
    for turn, allowed in ((1, False), (2, False), (3, False), (4, True), (5, True), (7, True)):
        s = pos(**{**SOV, "t": turn})
        assert ("rebuild 1SA 1401" in legal(s)) == allowed, turn
    s = play(pos(**{**SOV, "t": 4}), "rebuild 1SA 1401")
    assert where(s, "1SA") == "1401" and steps(s, "1SA") == 1


def test_turn1_soviet_pool() -> None:
    """«Начало игры»: the armies not set up (except 1st Shock) may be taken as replacements in
    the Soviet player's turn 1: with the standard set-up, three armies (40A, 5A, 10A in the
    engine's quick start) and 5 replacements."""
    s = play(new_game(GDW), "setup standard", "setup standard", "end", "end", "end")
    assert phase(s) == "soviet_replacement" and s.turn == 1 and s.repl == 5
    rebuildable = {a.split()[1] for a in legal(s) if a.startswith("rebuild")}
    off = {u for u in SOVIET_ALL if where(s, u) is None} - {"1SA"}
    assert rebuildable == off and len(off) == 3


@pytest.mark.parametrize(
    ("edition", "options", "soviet", "german"),
    [
        (GDW, {}, [5] * 7, [0, 1, 1, 1, 1, 1, 1]),
        (GDW, {"soviet_replacements": "4"}, [4] * 7, [0, 1, 1, 1, 1, 1, 1]),
        (GDW, {"soviet_replacements": "3"}, [3] * 7, [0, 1, 1, 1, 1, 1, 1]),
        (GDW, {"german_replacements": "turns_2_4_6"}, [5] * 7, [0, 1, 0, 1, 0, 1, 0]),
        (VPG, {}, [5, 5, 4, 4, 5, 5, 5], [0, 1, 1, 1, 1, 1, 1]),
    ],
)
def test_replacement_rates_and_balance_options(
    edition: str, options: dict[str, str], soviet: list[int], german: list[int]
) -> None:
    """«Пополнения»: German 1, Soviet 5 a turn (no German replacement on turn 1).
    «Игровой баланс»: to favour the German player reduce the Soviet replacements to 4 or even
    3; to favour the Soviet player give the Germans their replacement only on turns 2, 4 and
    6. VPG default: oberlabs' schedule 5,5,4,4,5,5,5 (UNVERIFIED in bfm_data §10; engine
    option ``soviet_replacements``)."""
    r = rules_for(edition, **options)
    assert [r.soviet_replacements[t] for t in range(1, 8)] == soviet
    assert [r.german_replacements[t] for t in range(1, 8)] == german


def test_balance_option_in_play() -> None:
    """«Игровой баланс»: with Soviet replacements at 3 the phase starts with 3; with German
    replacements on turns 2, 4, 6 only, the turn-3 German replacement phase gives none (it is
    passed over)."""
    s = pos(**{**SOV, "t": 1, "ph": "soviet_movement", "repl": 0, "opt": "soviet_replacements:3"})
    s, _ = act(s, "end")
    while phase(s) != "soviet_replacement":
        s, _ = act(s, "end")
    assert s.repl == 3
    g = pos(G="XXIV@0405/h", S="5A@1408/h", t=2, ph="soviet_movement", opt="german_replacements:turns_2_4_6")
    g, _ = act(g, "end")
    assert (g.turn, phase(g), steps(g, "XXIV")) == (3, "german_panzer_movement", 1)
    d = pos(G="XXIV@0405/h", S="5A@1408/h", t=2, ph="soviet_movement")
    d, _ = act(d, "end")
    assert (d.turn, phase(d), d.repl) == (3, "german_replacement", 1)
    assert "restore XXIV" in legal(d)
