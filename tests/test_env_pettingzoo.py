"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, masks, rewards."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from typhoon.env import bfm_v0  # noqa: E402
from typhoon.games.bfm.engine import legal_actions  # noqa: E402
from typhoon.games.bfm.env.actions import EDITIONS, NUM_ACTIONS, EncodingError  # noqa: E402
from typhoon.games.bfm.env.observation import OBS_SHAPE  # noqa: E402
from typhoon.record import Record  # noqa: E402

pytestmark = pytest.mark.rl

# Advice api_test gives every environment not on its own lists (dict observations, agent names).
EXPECTED_ADVICE = (
    "Observation is not a NumPy array",
    "Observation space for each agent",
    "We recommend agents",
)


def _api_test(env: object, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    other = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_ADVICE)]
    assert not other, other


@pytest.mark.parametrize("edition", EDITIONS)
def test_pettingzoo_api_test(edition: str) -> None:
    _api_test(bfm_v0.env(edition=edition), 1000)


def test_pettingzoo_api_test_raw_env() -> None:
    _api_test(bfm_v0.raw_env(), 300)


@pytest.mark.parametrize("edition", EDITIONS)
def test_pettingzoo_seed_test(edition: str) -> None:
    seed_test(lambda: bfm_v0.env(edition=edition), num_cycles=500)


def _play(env: bfm_v0.raw_env, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += float(reward)
        if term or trunc:
            env.step(None)
            continue
        s = env.match.state
        mask = obs["action_mask"]
        assert obs["observation"].shape == OBS_SHAPE and mask.shape == (NUM_ACTIONS,)
        legal = np.flatnonzero(mask)
        assert len(legal) == len(legal_actions(s))
        assert env.agents[s.current_player()] == agent
        other = [a for a in env.agents if a != agent][0]
        assert not env.observe(other)["action_mask"].any()
        env.step(int(legal[rng.randrange(len(legal))]))
    return totals


@pytest.mark.parametrize("edition", EDITIONS)
def test_full_game_masks_rewards_and_record(edition: str) -> None:
    env = bfm_v0.raw_env(edition=edition)
    totals = _play(env, seed=5)
    result = env.match.state.result
    assert result in ("german", "soviet", "draw")
    expected = {"german": (1.0, -1.0), "soviet": (-1.0, 1.0), "draw": (0.0, 0.0)}[result]
    assert (totals["german"], totals["soviet"]) == expected
    # the episode is an ordinary game: same seed, same dice, a record that replays
    text = Record.from_game(env.match.to_game()).to_text()
    replayed = Record.from_text(text).replay()
    assert replayed.state == env.match.state


def test_same_seed_same_game() -> None:
    a, b = bfm_v0.raw_env(), bfm_v0.raw_env()
    _play(a, seed=9)
    _play(b, seed=9)
    assert a.match.history == b.match.history


def test_illegal_actions() -> None:
    raw = bfm_v0.raw_env()
    raw.reset(seed=1)
    with pytest.raises(EncodingError):
        raw.step(NUM_ACTIONS - 1)
    wrapped = bfm_v0.env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(NUM_ACTIONS - 1)  # not legal: the game ends, the offender loses
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -1


def test_render_and_action_text() -> None:
    env = bfm_v0.raw_env(render_mode="ansi")
    env.reset(seed=2)
    assert env.render().startswith("bfm ed=gdw1986")
    assert env.action_text(7) == "setup standard"
