"""Rule rows that had no test of their own (docs/MA_RULE_INDEX.md review): Spent attackers
(R1, rules_en.md 4.1, 2.1), the interceptors' limits (8.4), Moscow as a Soviet supply source and
a line through empty hexes next to the enemy (9.2, R17, no ZOC), the German victory checked
only at the end of the German player-turn (R23, Q1)."""

from __future__ import annotations

from typhoon.games.ma.engine import MOSCOW, legal_actions, supply_line
from typhoon.games.ma.rules import GERMAN, SOVIET, hex_index
from typhoon.games.ma.state import PHASE_INDEX, SPENT

from .world import play, texts, world


def test_attackers_are_spent_and_may_not_move_but_movers_attack_in_operational() -> None:
    # 4.1: a Spent unit may not move or attack for the rest of the game-turn; R1.
    s = world({"4PzGp": "B5", "46PzK": "B5", "43A": "B6"}, turn=2)
    s = play(s, "attack 4PzGp B6", "attack 46PzK B6", "fire", "roll 1")  # 2:1, die 1: no effect
    assert s.battle is None and s.status[s.rules.unit_index["4PzGp"]] == SPENT
    s = play(s, "end")
    assert s.phase == PHASE_INDEX["g_movement"]
    assert not [t for t in texts(s) if t.startswith(("move 4PzGp", "move 46PzK"))]
    # A unit that moved may still attack in Operational Attacks (2.1).
    m = world({"2PzGp": "B3", "43A": "B6"}, phase="g_movement")
    m = play(m, "move 2PzGp B5", "end")
    assert m.phase == PHASE_INDEX["g_operational"] and "attack 2PzGp B6" in texts(m)


def test_interceptor_korpus_only_near_moscow_and_bombers_never_intercept() -> None:
    # 8.4 (reconstruction): 6. Interceptor Korpus only within 2 hexes of Moscow; Strategic
    # Bombers never intercept.
    far = world({"4PzGp": "B5", "46PzK": "B5", "43A": "B6"}, turn=1, base=MOSCOW)
    far = play(far, "attack 4PzGp B6", "attack 46PzK B6", "air VIIIFK", "fire")
    assert set(texts(far)) == {"intercept WestAir", "intercept BryAir", "pass"}
    near = world({"4PzGp": "H5", "16A": "H6"}, turn=1, base=MOSCOW)
    near = play(near, "attack 4PzGp H6", "air VIIIFK", "fire")
    assert "intercept 6IK" in texts(near) and "intercept StratBomb" not in texts(near)


def test_moscow_is_a_soviet_source_unless_german_units_stand_in_it() -> None:
    s = world({"16A": "I7", "4A": "B1"})
    assert supply_line(s, SOVIET, MOSCOW) == 0
    held = world({"4A": "I7", "16A": "A9"})
    assert supply_line(held, SOVIET, MOSCOW) > 0


def test_a_supply_line_passes_empty_hexes_next_to_the_enemy_but_not_enemy_hexes() -> None:
    # 9.1 / R17: what blocks a line is enemy units, not zones of control (6.1).
    h = hex_index("F2")
    open_line = world({"13A": "E3", "4PzGp": "F2"})
    base = supply_line(open_line, GERMAN, h)
    assert base <= 5  # supplied in Good weather
    ring = {
        x: y
        for x, y in zip(
            ("13A", "3A", "50A", "43A", "33A", "24A"), ("E2", "E3", "F1", "F3", "G2", "G3"), strict=True
        )
    }
    cut = world({**ring, "4PzGp": "F2"})
    assert supply_line(cut, GERMAN, h) == 99  # every neighbour holds a Soviet unit


def test_german_victory_is_judged_at_the_end_of_the_german_player_turn_only() -> None:
    # Q1 (reading): at the end of each German player-turn; not in the Russian player-turn.
    s = world({"4A": "I7", "2A": "D3", "5K": "H1", "43A": "M9"}, phase="s_operational")
    s = s.replace(control=s.control | 1 << hex_index("I7") | 1 << hex_index("D3"))
    after = play(s, "end")
    assert after.result is None and after.turn == 2 and legal_actions(after)
