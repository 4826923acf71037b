"""The Moscow Attacked! heuristic's plans (issue 12 item 1, calibration against gaps.md
"Calibration targets"): the Soviet holds Moscow in depth (its strongest army in it, the hexes next
to it screened, the side facing the German first), the German pockets (attacks first where the
defenders cannot retreat, rules_en.md 7.7-7.8; closes the ring with one more attacker; drives its
armour onto a stack's far side in Operational Movement; keeps the armour out of Prepared Attacks
unless a breakthrough is likely, 2.1, 7.6). Each position is hand-built; each test fails without
the behaviour it names."""

from __future__ import annotations

from typing import Any

from typhoon.games.ma import ai
from typhoon.games.ma.engine import MOSCOW, apply, legal_actions, new_game, surrounded
from typhoon.games.ma.notation import action_to_text
from typhoon.games.ma.rules import SOVIET, hex_index
from typhoon.games.ma.state import READY, State

from .world import at, world


def _phase(s: State) -> tuple[State, list[str]]:
    """Play the heuristic to the end of the current phase; the actions as text."""
    p = ai.MaHeuristicPlayer(0)
    phase, done = s.phase, []
    while s.phase == phase and not s.is_terminal:
        a = p.choose(s, legal_actions(s))
        done.append(action_to_text(a))
        s, _ = apply(s, a)
    return s, done


def _bits(*hexes: str) -> int:
    out = 0
    for h in hexes:
        out |= 1 << hex_index(h)
    return out


def test_soviet_moscow_is_held_by_its_strongest_army() -> None:
    # 5 (one army-level unit a hex): 20A (defense 3) makes room for 24A (defense 4), next to Moscow.
    s = world({"20A": "I7", "24A": "I8", "4PzGp": "F2"}, phase="s_movement", turn=3)
    s, done = _phase(s)
    assert at(s, "24A") == "I7" and at(s, "20A") != "I7", done
    assert done.index("move 20A " + str(at(s, "20A"))) < done.index("move 24A I7")


def test_soviet_small_units_leave_moscow_room_for_an_army() -> None:
    # 5: three units a hex, one army-level. Two rifle divisions (defense 1) fill Moscow with
    # Lelyushenko; one of them leaves so that 24A (defense 4) can hold the city.
    s = world(
        {"32RD": "I7", "316RD": "I7", "Lelyushenko": "I7", "24A": "I8", "4PzGp": "F2"},
        phase="s_movement",
        turn=3,
    )
    s, done = _phase(s)
    assert at(s, "24A") == "I7", done
    assert len(s.units_at(MOSCOW)) == 3


def test_soviet_screens_every_hex_next_to_moscow_german_side_first() -> None:
    # 7.1: an attack on Moscow comes from the hexes next to it; with all six Soviet-held the German
    # cannot attack Moscow at all this turn, so he cannot mass three stacks against it.
    units = {"24A": "I7", "29A": "J8", "22A": "H8", "30A": "I9", "31A": "K7", "43A": "G7", "49A": "G8"}
    s = world({**units, "4PzGp": "G4", "9A": "I4"}, phase="s_movement", turn=3)
    s, done = _phase(s)
    ring = s.rules.nbrs[MOSCOW]
    assert all(s.units_at(h) and s.rules.units[s.units_at(h)[0]].side == SOVIET for h in ring), done
    assert done[0].endswith(" I6")  # the screen hex facing the German stacks (I4, G4) first


def test_german_declares_first_where_the_defenders_cannot_retreat() -> None:
    # 7.7-7.8: 33A at G5, attacked from G4 and G6, has no retreat (R1 -> D, R2 -> DE, DE -> BR);
    # 32A at C6 has one; both attacks are 6:2 (3:1) on clear ground. C6 comes first in the list.
    s = world(
        {"33A": "G5", "32A": "C6", "2K": "G4", "23K": "G6", "9A": "C5", "6K": "C5"}, phase="g_operational"
    )
    assert surrounded(s, hex_index("G5"), _bits("G4", "G6"))
    assert not surrounded(s, hex_index("C6"), _bits("C5"))
    a = ai.MaHeuristicPlayer(0).choose(s, legal_actions(s))
    assert a.kind == "attack" and a.target == "G5"


def test_german_adds_the_attacker_that_closes_the_ring() -> None:
    # Vatutin (defense 1) at G5: 9A, 2K, 6K at G4 make 9:1 (more than 5:1, enough) alone, but one
    # more attacker from G6 leaves no retreat (7.7), so R1 and R2 eliminate.
    s = world({"Vatutin": "G5", "9A": "G4", "2K": "G4", "6K": "G4", "23K": "G6"}, phase="g_operational")
    p = ai.MaHeuristicPlayer(0)
    for _ in range(3):  # declare with 9A, then 2K and 6K (the best column), then close the ring
        a = p.choose(s, legal_actions(s))
        if a.kind != "attack":
            break
        s, _ = apply(s, a)
    b = s.battle
    assert b is not None and s.rules.unit_index["23K"] in b.attackers


def test_german_armour_drives_onto_the_far_side_of_a_soviet_stack() -> None:
    # Operational Movement in Good weather: 2K (ready, already moved) attacks 33A at G5 from G4;
    # 46PzK's move to G6 leaves 33A no retreat for the Operational Attacks (7.7). Bryansk is
    # German, so Moscow is the only goal (12.1); without the pocket 46PzK went to H6.
    control = new_game().control | 1 << hex_index("D3")
    s = world(
        {"33A": "G5", "Lelyushenko": "I7", "2K": "G4", "46PzK": "F3"},
        phase="g_movement",
        control=control,
        moved=1 << new_game().rules.unit_index["2K"],
    )
    s, done = _phase(s)
    assert at(s, "46PzK") == "G6", done
    assert surrounded(s, hex_index("G5"), _bits("G4", "G6"))


def _prepared(units: dict[str, str], **kw: Any) -> tuple[State, list[str]]:
    s = world(units, phase="g_prepared", **kw)
    p = ai.MaHeuristicPlayer(0)
    done = []
    while s.battle is None or s.battle.step == "declare":
        a = p.choose(s, legal_actions(s))
        done.append(action_to_text(a))
        if a.kind in ("fire", "end", "cancel"):
            break
        s, _ = apply(s, a)
    return s, done


def test_german_infantry_breaks_the_line_and_the_armour_stays_ready() -> None:
    # Good weather, Prepared Attacks: 7K (3, infantry) alone makes 3:1 on Vatutin (defense 1, clear), so
    # 4PzGp (5, armour) does not attack and can still move through the gap (2.1).
    s, done = _prepared({"Vatutin": "C6", "4PzGp": "C5", "7K": "C5"})
    assert done[0] == "attack 7K C6" and done[-1] == "fire", done
    assert s.status[s.rules.unit_index["4PzGp"]] == READY
    assert s.battle is not None and s.rules.unit_index["4PzGp"] not in s.battle.attackers


def test_german_armour_attacks_in_prepared_attacks_only_for_a_breakthrough() -> None:
    # 20A (defense 3) at C6: 7K alone is 1:1, so the infantry cannot attack; 4PzGp + 7K (8:3, 2:1)
    # is short of 4:1, so no attack; in Mud (no pockets) the heuristic attacks at 2:1 as before.
    _, done = _prepared({"20A": "C6", "4PzGp": "C5", "7K": "C5"})
    assert done == ["end"]
    _, mud = _prepared({"20A": "C6", "4PzGp": "C5", "7K": "C5"}, turn=2)
    assert mud[0].startswith("attack ")
