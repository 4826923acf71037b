"""Whole MOCKBA games: random play with the invariants after every step, notation and position
round trips, records replayed through typhoon.game.Game and typhoon.record.Record, the kit's
views, the AI's evaluate."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator

import pytest

from typhoon.game import CHANCE, Game
from typhoon.games import game_keys, game_module, register_game, unregister_game
from typhoon.games.mockba import ai, invariants, kit
from typhoon.games.mockba.engine import apply, legal_actions, new_game
from typhoon.games.mockba.notation import (
    action_from_text,
    action_to_text,
    position_from_text,
    position_to_text,
)
from typhoon.games.mockba.state import State
from typhoon.record import Record

from .world import play, world

KEY = "mockba"
ENDS = ("end", "stay", "cancel")


@pytest.fixture
def registered() -> Iterator[None]:
    # Registered here until the registry line is in (docs/MOCKBA_RULES.md, "Registration").
    added = KEY not in game_keys()
    if added:
        register_game(KEY, "MOCKBA", "typhoon.games.mockba")
    yield
    if added:
        unregister_game(KEY)


def random_game(
    seed: int, check: bool, options: dict[str, str] | None = None, limit: int = 0
) -> tuple[State, int]:
    """Random play leaning towards ending phases (so games reach turn 10 quickly); with ``check``
    every invariant after every step and the position text once a phase."""
    rng = random.Random(seed)
    s = new_game(None, options)
    n = 0
    phase = -1
    while not s.is_terminal and (not limit or n < limit):
        acts = legal_actions(s)
        if check:
            assert not invariants.problems(s), invariants.problems(s)
            assert not invariants.legal_problems(s, acts)
            if s.phase != phase:
                assert not invariants.phase_problems(s)
                phase = s.phase
        ends = [a for a in acts if a.kind in ENDS]
        a = ends[0] if ends and rng.random() < 0.3 else acts[rng.randrange(len(acts))]
        s, _ = apply(s, a)
        n += 1
    return s, n


@pytest.mark.parametrize("seed", [1])
def test_random_games_keep_every_invariant(seed: int) -> None:
    s, n = random_game(seed, check=True)
    assert s.result in ("german", "soviet", "draw") and s.score is not None and n > 100
    assert not invariants.phase_problems(s)


def test_random_games_with_every_option_on() -> None:
    on = {
        "crt": "b",
        "victory_cities": "pack18",
        "opt1_dug_in_zoc": "on",
        "opt2_river_zoc": "on",
        "opt4_followup_loss": "on",
        "opt5_rebuild": "on",
        "opt7_das_reich": "on",
        "t1_followup": "others",
        "german_cf_panzer": "armour",
        "air_point": "none",
        "followup_targets": "any",
        "opt6_para": "on",
        "opt3_bridges": "on",
        "setup": "free",
    }
    s, _ = random_game(3, check=True, options=on)
    assert s.is_terminal


def test_soak_many_short_games_fast() -> None:
    """A soak that stays fast: 40 random game openings of 25 steps each (the costliest positions:
    every unit on the map), invariants at the end of each."""
    t = time.perf_counter()
    positions = 0
    for seed in range(40):
        s, n = random_game(1000 + seed, check=False, limit=25)
        positions += n
        assert not invariants.problems(s)
    assert positions == 40 * 25
    assert time.perf_counter() - t < 60


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 60))
def test_random_game_soak(seed: int) -> None:
    s, _ = random_game(seed, check=True)
    assert s.is_terminal


@pytest.mark.slow
def test_soak_figures_printed() -> None:
    """``TYPHOON_SOAK_GAMES=N`` prints the soak figures (games, positions, errors, seconds)."""
    games = int(os.environ.get("TYPHOON_SOAK_GAMES", "1"))
    t = time.perf_counter()
    positions = errors = 0
    for seed in range(games):
        try:
            s, n = random_game(5000 + seed, check=True)
            positions += n
        except AssertionError:
            errors += 1
    print(
        f"mockba soak: {games} games, {positions} positions, {errors} errors, {time.perf_counter() - t:.1f} s"
    )
    assert errors == 0


def test_position_text_round_trips_mid_battle() -> None:
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")
    s = play(s, "attack G9A.inf1 1937", "air", "fire")
    assert s.battle is not None
    text = position_to_text(s)
    back = position_from_text(text)
    assert back == s and position_to_text(back) == text and legal_actions(back) == legal_actions(s)


def test_every_action_word_round_trips() -> None:
    for t in (
        "move G9A.inf1 1836",
        "rail 16A.rif1 2912",
        "dig 16A.rif1",
        "undig 16A.rif1",
        "reinforce 5A.rif1 3312",
        "rebuild 16A.rif3 2912",
        "counterair",
        "interdict",
        "airsupply G2P.pz1",
        "attack G3P.pz1 1210",
        "air",
        "fire",
        "cancel",
        "support yes",
        "support no",
        "roll 4",
        "retreat 1210-1311",
        "retreat -",
        "reduce",
        "lose G3P.pz1",
        "advance G3P.pz1 1210",
        "drop 2412",
        "stay",
        "end",
    ):
        assert action_to_text(action_from_text(t)) == t


def test_bad_notation_is_a_notation_error() -> None:
    from typhoon.errors import NotationError

    for bad in ("", "move", "move X 0101", "move G9A.inf1 9999", "roll 7", "support maybe", "mockba"):
        with pytest.raises(NotationError):
            action_from_text(bad)
    with pytest.raises(NotationError):
        position_from_text("mockba standard {}")
    with pytest.raises(NotationError):
        position_from_text("ma basic {}")


def test_records_replay_through_game_and_record(registered: None) -> None:
    rng = random.Random(3)
    g = Game(KEY, "standard", seed=3)
    while len(g.history) < 200 and not g.is_over:
        if g.current_player() == CHANCE:
            g.roll()
        else:
            acts = g.legal_actions()
            ends = [a for a in acts if a.kind in ENDS]
            g.play(ends[0] if ends and rng.random() < 0.3 else acts[rng.randrange(len(acts))])
    text = Record.from_game(g).to_text()
    again = Record.from_text(text).replay()
    assert again.position() == g.position()
    assert Record.from_game(again).to_text() == text


def test_registry_interface_and_kit(registered: None) -> None:
    gm = game_module(KEY)
    assert gm.sides == ("german", "soviet") and gm.default_edition == "standard"
    s = gm.new_game("standard", {})
    fe = gm.front_ends
    assert fe.ai == "typhoon.games.mockba.ai" and fe.notice and "Reconstruction" in fe.notice
    view = fe.state_view(s)
    assert view["notice"] == kit.NOTICE and len(view["units"]) == len(s.rules.units)
    svg = fe.render_map(s, True)
    assert (
        svg.startswith("<svg")
        and 'data-hex="0101"' in svg
        and 'class="unit"' in svg
        and "Reconstruction" in svg
    )
    assert fe.hex_view(s, "2912")["words"].startswith("2912")
    with pytest.raises(KeyError):
        fe.hex_view(s, "9999")
    lv = fe.legal_view(s, gm.legal_actions(s), gm.action_to_text)
    assert lv["actions"] and all("text" in a and "kind" in a for a in lv["actions"])
    assert fe.position_words is not None and fe.position_words(s, [], "german to move", 0)[0] == kit.NOTICE
    assert fe.turn_label(s.rules, 1).startswith("T1")


def test_preview_words() -> None:
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")
    p = kit.preview(s, "1937", ["G9A.inf1"])
    assert p["column"] == "4:1"
    from typhoon.errors import IllegalActionError

    with pytest.raises(IllegalActionError):
        kit.preview(s, "1839", ["G9A.inf1"])


def test_ai_evaluate_is_bounded_symmetric_and_follows_the_score() -> None:
    """AI contract (KIT2.md): evaluate(state, side) in [-1, 1], 1 = won; cheap and deterministic."""
    s = new_game()
    v = ai.evaluate(s, 0)
    assert -1 <= v <= 1 and ai.evaluate(s, 1) == -v
    every = sum(1 << h for h, _, _ in s.rules.victory)
    better = s.replace(taken=every, control=every)
    assert ai.evaluate(better, 0) > v
    assert (
        ai.evaluate(s.replace(result="german"), 0) == 1.0 and ai.evaluate(s.replace(result="draw"), 1) == 0.0
    )
