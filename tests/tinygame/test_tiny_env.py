"""The tiny test game through the research environments (issue 11 point 4): PettingZoo's
api_test and seed_test, Gymnasium's env checker, OpenSpiel's random simulation test, with no
line for it outside this package: the environments take its codec (env_codec.py) from its
kit, and derive its names from the registry."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from tinygame import KEY, PACKAGE  # noqa: E402
from tinygame.env_codec import OBS_SHAPE, SIZE  # noqa: E402
from typhoon.env import gym_env, openspiel_game  # noqa: E402
from typhoon.env.aec import env_module  # noqa: E402
from typhoon.env.codec import EncodingError, env_codec, env_games  # noqa: E402
from typhoon.games import game_module, register_game, unregister_game  # noqa: E402
from typhoon.record import Record  # noqa: E402

pytestmark = pytest.mark.rl

# Advice api_test gives every environment not on its own lists (dict observations, agent names).
EXPECTED_ADVICE = (
    "Observation is not a NumPy array",
    "Observation space for each agent",
    "We recommend agents",
)


@pytest.fixture(autouse=True)
def tiny() -> Iterator[None]:
    register_game(KEY, "Tiny game", PACKAGE)
    gym_env.register()
    openspiel_game.register()
    yield
    unregister_game(KEY)


def test_the_names_come_from_the_registry() -> None:
    assert KEY in env_games()
    import typhoon.env

    mod: Any = getattr(typhoon.env, f"{KEY}_v0")  # from typhoon.env import tiny_v0
    assert mod is env_module(KEY) and mod.raw_env().metadata["name"] == f"typhoon_{KEY}_v0"
    assert gym_env.gym_id(KEY) == "typhoon/TinyGame-v0" and gym_env.gym_id(KEY) in gym.registry
    assert openspiel_game.game_name(KEY) in pyspiel.registered_names()


def _api_test(env: object, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    other = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_ADVICE)]
    assert not other, other


@pytest.mark.parametrize("edition", ["standard", "long"])
def test_pettingzoo_api_test(edition: str) -> None:
    _api_test(env_module(KEY).env(edition=edition), 200)
    _api_test(env_module(KEY).raw_env(edition=edition), 200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env_module(KEY).env(edition="long"), num_cycles=100)


def test_random_episodes_masks_rewards_and_records() -> None:
    """Masks are exact, each legal code decodes to its action, and an episode is a record."""
    env = env_module(KEY).raw_env(edition="long")
    module = game_module(KEY)
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _info = env.last()
            totals[agent] += float(reward)
            if term or trunc:
                env.step(None)
                continue
            assert obs["observation"].shape == OBS_SHAPE and obs["action_mask"].shape == (SIZE,)
            s = env.match.state
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) == len(module.legal_actions(s))
            assert sorted(module.action_to_text(env.match.action_of(c)) for c in legal) == sorted(
                module.action_to_text(a) for a in module.legal_actions(s)
            )
            env.step(int(legal[rng.randrange(len(legal))]))
        assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
        g = env.match.to_game()
        text = Record.from_game(g).to_text()
        assert Record.from_text(text).replay().state == env.match.state
    with pytest.raises(EncodingError):
        env.reset(seed=0)
        env.step(SIZE - 1)  # an attack that is not on at the start


def _check(env: object) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    bad = [str(w.message) for w in caught if "spec" not in str(w.message)]
    assert not bad, bad


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_gymnasium_env_checker(side: str) -> None:
    _check(gym_env.GameGymEnv(side=side, game=KEY))
    env: Any = gym.make(gym_env.gym_id(KEY), side=side, edition="long")
    _check(env.unwrapped)
    obs, info = env.reset(seed=1)
    done, reward = False, 0.0
    rng = np.random.default_rng(1)
    while not done:
        mask = env.unwrapped.action_masks()
        obs, reward, done, _trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert info["result"] in ("german", "soviet", "draw") and reward in (-1.0, 0.0, 1.0)


@pytest.mark.parametrize("edition", ["standard", "long"])
def test_openspiel_random_simulation(edition: str) -> None:
    game = pyspiel.load_game(f"{openspiel_game.game_name(KEY)}(edition={edition})")
    assert game.num_distinct_actions() == SIZE and game.max_chance_outcomes() == 6
    assert list(game.observation_tensor_shape()) == list(OBS_SHAPE)
    assert game.max_game_length() == env_codec(KEY).max_game_length(
        game.new_initial_state().engine_state.rules
    )
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_openspiel_chance_nodes() -> None:
    """A die is an explicit chance node: outcome ids 0..5 are the rolls 1..6."""
    game = pyspiel.load_game(openspiel_game.game_name(KEY))
    state = game.new_initial_state()
    while not state.is_chance_node() and not state.is_terminal():
        legal = state.legal_actions()
        words = [state.action_to_string(state.current_player(), a) for a in legal]
        pick = next((a for a, w in zip(legal, words) if w.startswith("attack")), None)
        pick = (
            pick
            if pick is not None
            else next((a for a, w in zip(legal, words) if w.startswith("move")), legal[0])
        )
        state.apply_action(pick)
    assert state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == list(range(6))
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1.0) < 1e-9
    assert state.action_to_string(int(pyspiel.PlayerId.CHANCE), 3) == "roll 4"
    state.apply_action(5)  # a 6: the defender is eliminated
    assert not state.is_chance_node()
