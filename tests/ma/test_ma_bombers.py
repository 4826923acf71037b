"""The Strategic Bombers' base (seed 001 set-up: "any city or town the Soviet chooses";
rules_en.md 8.4 reconstruction: any range from the base city), option ``bomber_base``."""

from __future__ import annotations

from typhoon.games.ma.engine import bombers_based, legal_actions, new_game
from typhoon.games.ma.notation import position_from_text, position_to_text
from typhoon.games.ma.rules import SOVIET, hex_index
from typhoon.games.ma.state import PHASE_INDEX

from .world import at, play, texts, world


def test_soviet_chooses_the_bomber_base_at_set_up_before_the_german_moves() -> None:
    # Seed 001 set-up table: Strategic Bombers on any city or town (Soviet choice).
    s = new_game()
    assert s.phase_spec.key == "setup" and s.current_player() == SOVIET
    bases = texts(s)
    assert all(t.startswith("base StratBomb ") for t in bases)
    assert "base StratBomb I7" in bases and "base StratBomb K5" in bases
    assert "base StratBomb H1" not in bases  # Smolensk is German-held at set-up
    s = play(s, "base StratBomb K5")
    assert s.base == hex_index("K5") and s.phase_spec.key == "g_prepared" and s.turn == 1
    assert position_from_text(position_to_text(s)) == s


def test_bombers_fly_at_any_range_from_a_held_base_and_are_grounded_when_it_falls() -> None:
    # 8.4: any range from the base (no supplied attacker needed); reading: a lost base grounds them.
    s = world({"4PzGp": "B5", "43A": "B6"}, phase="s_prepared", base=hex_index("I7"))
    assert "air StratBomb" in texts(play(s, "attack 43A B5"))
    lost = world({"4PzGp": "B5", "43A": "B6", "3PzGp": "K5"}, phase="s_prepared", base=hex_index("K5"))
    lost = lost.replace(control=lost.control | 1 << hex_index("K5"))
    assert not bombers_based(lost)
    assert "air StratBomb" not in texts(play(lost, "attack 43A B5"))
    assert "air WestAir" in texts(play(lost, "attack 43A B5"))


def test_bombers_rebase_once_in_the_russian_replacement_phase() -> None:
    s = world({"43A": "B6", "3PzGp": "K5"}, phase="s_reinforce", base=hex_index("K5"))
    s = s.replace(control=s.control | 1 << hex_index("K5"))
    bases = [t for t in texts(s) if t.startswith("base ")]
    assert "base StratBomb I7" in bases and "base StratBomb K5" not in bases
    s = play(s, "base StratBomb I7")
    assert bombers_based(s) and not [t for t in texts(s) if t.startswith("base ")]
    assert at(s, "43A") == "B6"


def test_bomber_base_option_free_skips_the_set_up_choice() -> None:
    s = new_game(options={"bomber_base": "free"})
    assert s.phase == PHASE_INDEX["g_prepared"] and s.base == -1 and bombers_based(s)
    assert all(a.kind != "base" for a in legal_actions(s))
