"""The OpenSpiel game: pyspiel's random simulation test, chance nodes, clones, MCTS."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from typhoon.env.openspiel_game import GAME_NAME  # noqa: E402
from typhoon.games.bfm.engine import legal_actions  # noqa: E402
from typhoon.games.bfm.env.actions import EDITIONS, NUM_ACTIONS  # noqa: E402
from typhoon.games.bfm.env.codec import MAX_GAME_LENGTH  # noqa: E402
from typhoon.games.bfm.env.observation import OBS_SHAPE  # noqa: E402

pytestmark = pytest.mark.rl


@pytest.mark.parametrize("edition", EDITIONS)
def test_random_sim_test(edition: str) -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(edition={edition})")
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 6
    assert list(game.observation_tensor_shape()) == list(OBS_SHAPE)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_options_parameter() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(options=soviet_replacements:4;crt_4to1_die3:EX)")
    state = game.new_initial_state()
    assert state.engine_state.rules.options["soviet_replacements"] == "4"


def test_chance_nodes_clones_and_length() -> None:
    game = pyspiel.load_game(GAME_NAME)
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    chance_seen = 0
    cloned = False
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == list(range(6))
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            chance_seen += 1
            state.apply_action(int(rng.integers(6)))
            continue
        legal = state.legal_actions()
        assert legal == sorted(legal) and len(legal) == len(legal_actions(state.engine_state))
        if chance_seen and not cloned:  # a clone is independent of the original
            cloned = True
            clone = state.clone()
            clone.apply_action(legal[0])
            assert clone.engine_state is not state.engine_state
            assert state.legal_actions() == legal
            assert clone.history()[:-1] == state.history()
        state.apply_action(int(rng.choice(legal)))
    assert chance_seen > 0 and cloned
    assert len(state.history()) <= MAX_GAME_LENGTH
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_mcts_bot_plays() -> None:
    game = pyspiel.load_game(GAME_NAME)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=np.random.RandomState(2)
    )
    state = game.new_initial_state()
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        assert state.action_to_string(state.current_player(), action).startswith(("setup", "place"))
        state.apply_action(action)
