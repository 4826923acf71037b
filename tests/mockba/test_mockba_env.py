"""MOCKBA research codec (KIT2.md "The env contract", issue 13): the action
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
from typhoon.games.mockba.engine import apply, legal_actions, new_game  # noqa: E402
from typhoon.games.mockba.env.codec import CODEC, layout  # noqa: E402

KEY = "mockba"
OBS_SHAPE = CODEC.obs_shape


@pytest.fixture
def registered() -> Iterator[None]:
    added = KEY not in game_keys()
    if added:
        register_game(KEY, "MOCKBA", "typhoon.games.mockba")
    yield
    if added:
        unregister_game(KEY)


def test_codes_are_distinct_and_read_back_over_a_random_game() -> None:
    rng = random.Random(5)
    s = new_game()
    acts_codec = CODEC.actions(s.rules)
    obs_codec = CODEC.observation(s.rules)
    assert acts_codec.size == CODEC.num_actions == layout().size
    seen_kinds = set()
    steps = 0
    while not s.is_terminal and steps < 300:
        legal = legal_actions(s)
        codes = acts_codec.legal_codes(s)
        assert len(set(codes.tolist())) == len(legal)
        assert all(0 <= c < CODEC.num_actions for c in codes)
        pairs = list(zip(legal, codes, strict=True))
        for a, c in pairs if len(pairs) < 200 else rng.sample(pairs, 200):
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
    assert {"move", "rail", "reinforce", "attack", "fire", "roll", "end"} <= seen_kinds


@pytest.mark.rl
def test_openspiel_game_loads_and_plays_a_few_steps(registered: None) -> None:
    """The fast half of the OpenSpiel check (the whole random game is slow): sizes, and a few
    random steps through chance nodes."""
    pyspiel = pytest.importorskip("pyspiel")
    from typhoon.env import openspiel_game

    openspiel_game.register()
    game = pyspiel.load_game(openspiel_game.game_name(KEY))
    assert game.num_distinct_actions() == CODEC.num_actions
    assert list(game.observation_tensor_shape()) == list(OBS_SHAPE)
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert len(outcomes) <= CODEC.max_chance_outcomes
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.observation_tensor(0)) == OBS_SHAPE[0]


def test_retreat_paths_round_trip() -> None:
    from typhoon.games.mockba.env.codec import _path_code, _path_dirs

    for ds in ([], [0], [5], [1, 2], [5, 5], [0, 3, 4], [5, 5, 5]):
        assert _path_dirs(_path_code(list(ds))) == list(ds)
    assert len({_path_code([a, b, c]) for a in range(6) for b in range(6) for c in range(6)}) == 216


def test_illegal_code_is_an_encoding_error() -> None:
    from typhoon.env.codec import EncodingError

    s = new_game()
    codec = CODEC.actions(s.rules)
    with pytest.raises(EncodingError):
        codec.legal_action(s, CODEC.num_actions + 3)
    with pytest.raises(EncodingError):
        codec.legal_action(s, layout().blocks["bare"][0] + 4)  # "cancel" outside a battle


@pytest.mark.rl
def test_pettingzoo_api_test(registered: None) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from typhoon.env.aec import env_module

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env_module(KEY).env(edition="standard"), num_cycles=100)


@pytest.mark.rl
def test_gymnasium_env_checker(registered: None) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from typhoon.env.gym_env import GameGymEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(GameGymEnv(game=KEY, side="german"), skip_render_check=True)


@pytest.mark.rl
@pytest.mark.slow  # a whole random game of 10 turns and ~190 counters: about a minute
def test_openspiel_random_simulation(registered: None) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from typhoon.env import openspiel_game

    openspiel_game.register()
    game = pyspiel.load_game(openspiel_game.game_name(KEY))
    assert game.num_distinct_actions() == CODEC.num_actions
    assert list(game.observation_tensor_shape()) == list(OBS_SHAPE)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
