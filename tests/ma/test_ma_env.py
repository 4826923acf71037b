"""Moscow Attacked!'s research codec (KIT2.md "The env contract", issue 12 point 4): the action
codes of every legal action are distinct and read back, observations keep their shape and bounds,
and the generic environments pass PettingZoo's api_test, Gymnasium's env checker and OpenSpiel's
random simulation test."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import pytest

np = pytest.importorskip("numpy")

from typhoon.games import game_keys, register_game, unregister_game  # noqa: E402
from typhoon.games.ma.engine import apply, legal_actions, new_game  # noqa: E402
from typhoon.games.ma.env.codec import CODEC, OBS_SHAPE, layout  # noqa: E402

KEY = "ma"


@pytest.fixture
def registered() -> Iterator[None]:
    added = KEY not in game_keys()
    if added:
        register_game(KEY, "Moscow Attacked!", "typhoon.games.ma")
    yield
    if added:
        unregister_game(KEY)


def test_codes_are_distinct_and_read_back_over_a_random_game() -> None:
    rng = random.Random(5)
    s = new_game("basic")
    acts_codec = CODEC.actions(s.rules)
    obs_codec = CODEC.observation(s.rules)
    assert acts_codec.size == CODEC.num_actions == layout().size
    seen_kinds = set()
    steps = 0
    while not s.is_terminal and steps < 1500:
        legal = legal_actions(s)
        codes = acts_codec.legal_codes(s)
        assert len(set(codes.tolist())) == len(legal)
        assert all(0 <= c < CODEC.num_actions for c in codes)
        for a, c in zip(legal, codes, strict=True):
            assert acts_codec.decode(s, int(c)) == a
            assert acts_codec.legal_action(s, int(c), codes) == a
            seen_kinds.add(a.kind)
        if steps % 25 == 0:
            for side in (0, 1):
                o = obs_codec.observe(s, side)
                assert o.shape == OBS_SHAPE and o.dtype == np.float32
                assert float(o.min()) >= 0.0 and float(o.max()) <= 1.0
        ends = [a for a in legal if a.kind == "end"]
        a = ends[0] if ends and rng.random() < 0.3 else legal[rng.randrange(len(legal))]
        s, _ = apply(s, a)
        steps += 1
    assert {"move", "attack", "fire", "roll", "base", "end"} <= seen_kinds


def test_illegal_code_is_an_encoding_error() -> None:
    from typhoon.env.codec import EncodingError

    s = new_game()
    codec = CODEC.actions(s.rules)
    with pytest.raises(EncodingError):
        codec.legal_action(s, CODEC.num_actions + 3)
    with pytest.raises(EncodingError):
        codec.legal_action(s, layout().blocks["bare"][0])  # "fire" outside a battle


@pytest.mark.rl
def test_pettingzoo_api_test(registered: None) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from typhoon.env.aec import env_module

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env_module(KEY).env(edition="basic"), num_cycles=300)


@pytest.mark.rl
def test_gymnasium_env_checker(registered: None) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from typhoon.env.gym_env import GameGymEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(GameGymEnv(game=KEY, side="german"), skip_render_check=True)


@pytest.mark.rl
def test_openspiel_random_simulation(registered: None) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from typhoon.env import openspiel_game

    openspiel_game.register()
    game = pyspiel.load_game(openspiel_game.game_name(KEY))
    assert game.num_distinct_actions() == CODEC.num_actions
    assert list(game.observation_tensor_shape()) == list(OBS_SHAPE)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
