"""Whole games: random play with the invariants, notation and position round trips, records and
replay through typhoon.game.Game and typhoon.record.Record, air units (rules_en.md section 8)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from typhoon.game import CHANCE, Game
from typhoon.games import game_keys, register_game, unregister_game
from typhoon.games.ma import invariants
from typhoon.games.ma.engine import apply, legal_actions, new_game, odds
from typhoon.games.ma.notation import action_from_text, action_to_text, position_from_text, position_to_text
from typhoon.games.ma.state import State
from typhoon.record import Record

from .world import play, texts, world

KEY = "ma"


@pytest.fixture
def registered() -> Iterator[None]:
    # Registered here until the registry line is in (docs/MA_RULES.md, "Registration").
    added = KEY not in game_keys()
    if added:
        register_game(KEY, "Moscow Attacked!", "typhoon.games.ma")
    yield
    if added:
        unregister_game(KEY)


def _random_game(seed: int, edition: str, check: bool) -> State:
    rng = random.Random(seed)
    s = new_game(edition)
    while not s.is_terminal:
        acts = legal_actions(s)
        if check:
            assert not invariants.problems(s), invariants.problems(s)
            assert not invariants.legal_problems(s, acts)
        # Lean towards "end" so that random games reach the end of the calendar quickly.
        ends = [a for a in acts if a.kind == "end"]
        a = ends[0] if ends and rng.random() < 0.3 else acts[rng.randrange(len(acts))]
        s, _ = apply(s, a)
    return s


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_keep_every_invariant(seed: int) -> None:
    s = _random_game(seed, "basic", check=True)
    assert s.result in ("german", "soviet")
    assert not invariants.phase_problems(s)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 23))
def test_random_campaign_soak(seed: int) -> None:
    s = _random_game(seed, "campaign", check=True)
    assert s.result in ("german", "soviet", "draw")


def test_position_text_round_trips_mid_battle() -> None:
    s = world({"4PzGp": "B5", "46PzK": "B5", "43A": "B6"}, turn=2)
    s = play(s, "attack 4PzGp B6", "attack 46PzK B6", "fire", "roll 6")
    assert s.battle is not None
    text = position_to_text(s)
    back = position_from_text(text)
    assert back == s and position_to_text(back) == text and legal_actions(back) == legal_actions(s)


def test_every_action_word_round_trips() -> None:
    for t in (
        "move 13A D4",
        "retreat -",
        "retreat B7-B8",
        "noretreat yes",
        "order moscow",
        "roll 3",
        "advance 7PzDiv I3",
        "airdrop IIFK H3",
        "air VIIIFK",
        "end",
        "stay",
        "lose 4A",
    ):
        assert action_to_text(action_from_text(t)) == t


def test_records_replay_through_game_and_record(registered: None) -> None:
    rng = random.Random(3)
    g = Game(KEY, "basic", seed=3)
    while len(g.history) < 150 and not g.is_over:
        if g.current_player() == CHANCE:
            g.roll()
        else:
            acts = g.legal_actions()
            g.play(acts[rng.randrange(len(acts))])
    text = Record.from_game(g).to_text()
    again = Record.from_text(text).replay()
    assert again.position() == g.position()
    assert Record.from_game(again).to_text() == text


def test_german_air_support_shifts_and_interception() -> None:
    """8.3 (analogue): German ground support +2 columns in open terrain; the Soviet may intercept;
    8.1 (seed): only one German air unit in Mud."""
    s = world({"4PzGp": "B5", "46PzK": "B5", "43A": "B6"}, turn=2)
    s = play(s, "attack 4PzGp B6", "attack 46PzK B6")
    assert "air VIIIFK" in texts(s)
    s = play(s, "air VIIIFK")
    assert s.battle is not None and s.rules.columns[odds(s, s.battle)[0]] == "4:1"  # 2:1 + 2
    assert not [t for t in texts(s) if t.startswith("air ")]  # one German air unit in Mud
    s = play(s, "fire")
    assert s.current_player() == 1 and "intercept WestAir" in texts(s)
    shot = play(s, "intercept WestAir", "roll 1")  # bomber shot down: no support
    assert shot.battle is not None and shot.rules.columns[shot.battle.column] == "2:1"
    assert shot.down[shot.rules.unit_index["VIIIFK"]] == 3  # out this turn and the next


def test_air_rules_off_by_option() -> None:
    s = world({"4PzGp": "B5", "46PzK": "B5", "43A": "B6"}, options={"air": "off"})
    s = play(s, "attack 4PzGp B6", "attack 46PzK B6")
    assert not [t for t in texts(s) if t.startswith("air")]


def test_bombing_moscow_panic_and_shot_down() -> None:
    """8.3 (analogue): German bombing of Moscow in Prepared Attacks: 6 = PANIC (+1 column to every
    German attack that turn), 1 = the air unit is shot down."""
    s = world({"4PzGp": "B5", "46PzK": "B5", "43A": "B6"}, turn=1)
    s = play(s, "bomb VIIIFK")
    assert s.current_player() == 1  # 6. Interceptor Korpus is within 2 hexes of Moscow
    s = play(s, "pass", "roll 6")
    assert s.panic
    s = play(s, "attack 4PzGp B6", "attack 46PzK B6")
    assert s.battle is not None and s.rules.columns[odds(s, s.battle)[0]] == "3:1"  # 2:1 + 1
    down = play(world({"4PzGp": "B5"}), "bomb IIFK", "pass", "roll 1")
    assert down.down[down.rules.unit_index["IIFK"]] == 2 and not down.panic


def test_moscow_no_retreat_decided_apart_from_the_front() -> None:
    """7.8: the Soviet order is front-wide, but Moscow's defenders may be decided individually."""
    s = world({"16A": "I7"}, phase="s_reinforce")
    assert {"order all", "order front", "order moscow"} <= set(texts(s))
    s = play(s, "order moscow")
    assert not [t for t in texts(s) if t.startswith("order")]  # once a phase


def test_german_air_resupply_supplies_the_hex_for_the_turn() -> None:
    """Seed: a German air unit may fly a resupply mission unless intercepted; all units in the drop
    hex are supplied for the rest of the game-turn."""
    from typhoon.games.ma.engine import in_supply

    ring = {"13A": "B4", "3A": "A5", "50A": "A6", "24A": "C5", "20A": "C6", "43A": "B6"}
    s = world({"4PzGp": "B5", **ring}, turn=2)
    u = s.rules.unit_index["4PzGp"]
    assert not in_supply(s, u)
    s = play(s, "airdrop IIFK B5", "pass")
    assert in_supply(s, u)
    failed = play(world({"4PzGp": "B5", **ring}, turn=2), "airdrop IIFK B5", "intercept WestAir", "roll 3")
    assert not in_supply(failed, u)  # intercepted: the mission fails
