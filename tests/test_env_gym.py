"""The Gymnasium single-agent environment: gymnasium's env checker, masks, opponents."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from typhoon.env.gym_env import ENV_ID, BfmGymEnv  # noqa: E402
from typhoon.errors import OptionError  # noqa: E402
from typhoon.games.bfm.env.actions import EDITIONS, NUM_ACTIONS, EncodingError  # noqa: E402
from typhoon.players import LEVELS, player_names  # noqa: E402

pytestmark = pytest.mark.rl


def _check(env: object) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    bad = [str(w.message) for w in caught if "spec" not in str(w.message)]
    assert not bad, bad


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("side", ["german", "soviet"])
def test_gymnasium_env_checker(edition: str, side: str) -> None:
    _check(BfmGymEnv(side=side, edition=edition))


def test_registered_id_and_checker_through_make() -> None:
    env = gym.make(ENV_ID, side="soviet")
    _check(env.unwrapped)
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and "turn" in info


def _episode(env: BfmGymEnv, seed: int) -> tuple[float, int]:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps, done, reward = 0, False, 0.0
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (NUM_ACTIONS,)
        assert env.match.to_act == env.side
        obs, reward, done, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated and obs in env.observation_space
        steps += 1
    assert not env.action_masks().any()
    return float(reward), steps


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_episode_to_the_end(side: str) -> None:
    env = BfmGymEnv(side=side)
    reward, steps = _episode(env, seed=4)
    assert reward in (-1.0, 0.0, 1.0) and steps > 10
    result = env.match.state.result
    assert reward == {"german": 1.0, "soviet": -1.0, "draw": 0.0}[result] * (1 if side == "german" else -1)
    assert _episode(BfmGymEnv(side=side), seed=4) == (reward, steps)  # reproducible


def test_illegal_action_modes() -> None:
    bad = NUM_ACTIONS - 1
    env = BfmGymEnv(illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(EncodingError):
        env.step(bad)
    env = BfmGymEnv(illegal_action="lose")
    env.reset(seed=1)
    _, reward, done, _, info = env.step(bad)
    assert done and reward == -1.0 and info["illegal_action"]
    env = BfmGymEnv(illegal_action="random", mask_in_info=True)
    env.reset(seed=1)
    _, _, _, _, info = env.step(bad)
    assert info["illegal_action"] and info["action_mask"].any()


class FirstPlayer:
    name = "first"

    def choose(self, state: object, actions: list[object]) -> object:
        return actions[0]


def test_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(OptionError):
        BfmGymEnv(opponent="no such level")
    monkeypatch.setitem(LEVELS, "first", lambda seed: FirstPlayer())
    env = BfmGymEnv(side="soviet", opponent="first")  # any registered level name
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.match.to_act == env.side or env.match.over
    for name in player_names():  # "random", "heuristic", ... whatever is installed
        if name in player_names("bfm"):
            BfmGymEnv(opponent=name).reset(seed=0)
        else:  # another game's own level (games.own_levels): refused at once, typed
            with pytest.raises(OptionError, match="has no AI level"):
                BfmGymEnv(opponent=name)
