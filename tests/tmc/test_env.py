"""The Moscow Campaign research environment (docs/RESEARCH.md, "The Moscow Campaign"): the
action space (layout, exact masks, decoding), the observation planes, the PettingZoo AEC
environment (api_test, seed_test, rewards), the Gymnasium wrapper and the OpenSpiel game."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from typhoon.env import tmc_v0  # noqa: E402
from typhoon.env.codec import EncodingError  # noqa: E402
from typhoon.games.tmc.actions import END, ROLLS, SETUP_STANDARD, Move, Place  # noqa: E402
from typhoon.games.tmc.engine import apply_unchecked, legal_actions, load_rules, new_game  # noqa: E402
from typhoon.games.tmc.env.actions import axial, describe_layout, disc, layout, tmc_codec_for  # noqa: E402
from typhoon.games.tmc.env.observation import CH, FIRST_GLOBAL, NUM_CHANNELS, OBS_SHAPE, tmc_obs_codec_for  # noqa: E402
from typhoon.games.tmc.rules import GERMAN, SOVIET  # noqa: E402
from typhoon.games.tmc.state import State  # noqa: E402

pytestmark = pytest.mark.rl

EXPECTED_ADVICE = (
    "Observation is not a NumPy array",
    "Observation space for each agent",
    "We recommend agents",
)


def _standard_start(scenario: str = "1") -> State:
    """Both sides' standard set-ups: the German first movement phase of the first turn."""
    s = new_game(scenario)
    while s.rules.phases[s.phase].kind == "setup":
        assert SETUP_STANDARD in legal_actions(s)
        s = apply_unchecked(s, SETUP_STANDARD)
    return s


def _check_state(codec: Any, s: State, rng: random.Random, sample: int = 40) -> Any:
    """Exact mask: one distinct code per legal action, and decoding gives the action back."""
    acts = legal_actions(s)
    codes = codec.legal_codes(s)
    assert len(codes) == len(acts) == len(np.unique(codes))
    assert ((codes >= 0) & (codes < codec.size)).all()
    for i in rng.sample(range(len(acts)), min(sample, len(acts))):
        assert codec.decode(s, int(codes[i])) == acts[i]
        assert codec.encode(s, acts[i]) == codes[i]
    return codes


# -- the action space --------------------------------------------------------------------------


def test_layout_blocks_are_contiguous_and_sized() -> None:
    blocks = describe_layout()
    pos = 0
    for _name, start, n in blocks:
        assert start == pos and n > 0
        pos += n
    L = layout()
    assert pos == L.size == 261_159
    assert len(L.units) == 301 and len(L.hex_ids) == 78 * 63 and len(L.rail) == 912
    sizes = dict((name, n) for name, _, n in blocks)
    assert sizes["ROLL"] == 6 and blocks[0][1] == 0  # OpenSpiel chance outcome ids are die codes
    assert sizes["MOVE"] == sum(3 * r * (r + 1) for r in L.radius)
    assert sizes["RAIL"] == 203 * 912
    assert max(L.radius) == 10


def test_disc_offsets_are_the_hexes_within_the_radius() -> None:
    for r in (1, 4, 10):
        offs = disc(r)
        assert len(offs) == len(set(offs)) == 3 * r * (r + 1)
        assert all(0 < max(abs(dq), abs(dr), abs(dq + dr)) <= r for dq, dr in offs)


def test_axial_coordinates_agree_with_grid_distance() -> None:
    grid = load_rules("1").grid
    rng = random.Random(3)
    hexes = list(grid.hexes)
    for _ in range(500):
        a, b = rng.choice(hexes), rng.choice(hexes)
        (q0, r0), (q1, r1) = axial(grid, a), axial(grid, b)
        dq, dr = q1 - q0, r1 - r0
        assert max(abs(dq), abs(dr), abs(dq + dr)) == grid.distance(a, b)


def test_fixed_codes_and_a_hand_worked_move() -> None:
    s = _standard_start()
    codec = tmc_codec_for(s.rules)
    L = layout()
    assert [codec.encode(s, r) for r in ROLLS] == [0, 1, 2, 3, 4, 5]
    assert codec.encode(s, END) == 6
    move = next(a for a in legal_actions(s) if isinstance(a, Move))
    g = s.rules.grid
    (q0, r0), (q1, r1) = axial(g, g.index[move.src]), axial(g, g.index[move.dst])
    sl = L.units.index(move.unit)
    expected = dict((n, st) for n, st, _ in describe_layout())["MOVE"] + L.move_offset[sl]
    expected += disc(L.radius[sl]).index((q1 - q0, r1 - r0))
    assert codec.encode(s, move) == expected
    assert codec.decode(s, expected) == move
    assert codec.text(s, expected) == f"move {move.unit} {move.src}-{move.dst}"


def test_illegal_codes_raise_encoding_error() -> None:
    s = _standard_start()
    codec = tmc_codec_for(s.rules)
    legal = set(codec.legal_codes(s).tolist())
    bad = next(c for c in range(codec.size) if c not in legal)
    with pytest.raises(EncodingError):
        codec.legal_action(s, bad)
    with pytest.raises(EncodingError):
        codec.legal_action(s, codec.size)
    with pytest.raises(EncodingError):
        codec.decode(s, -1)


def test_exact_masks_in_random_play_from_the_standard_set_up() -> None:
    """Set-up, German movement, combat declarations and resolution, Soviet movement with rail
    moves: every state's codes are distinct, one per legal action, and decode back."""
    rng = random.Random(11)
    s = _standard_start()
    codec = tmc_codec_for(s.rules)
    kinds: set[str] = set()
    for i in range(500):
        if s.result is not None:
            break
        acts = legal_actions(s)
        if not s.is_chance:
            codes = _check_state(codec, s, rng, sample=10)
            if i % 25 == 0:  # the cached fast path agrees with encoding one by one
                assert codes.tolist() == codec.codes_of(s, acts)
        a = acts[rng.randrange(len(acts))]
        kinds.add(a.kind)
        s = apply_unchecked(s, a)
    assert {"move", "attack", "odds"} <= kinds, kinds


def test_place_codes_name_the_next_unit_to_set_up() -> None:
    """§25: set-up places the scenario's next unit; the PLACE block is a hex index."""
    s = new_game("1")
    codec = tmc_codec_for(s.rules)
    rng = random.Random(5)
    for _ in range(5):
        codes = _check_state(codec, s, rng)
        place = [a for a in legal_actions(s) if isinstance(a, Place)]
        assert place and len({a.unit for a in place}) == 1
        s = apply_unchecked(s, place[rng.randrange(len(place))])
    assert len(codes) > 100


def _overrun_position() -> tuple[State, str, list[str]]:
    """Scenario 1, German first movement phase of GT 1 (standard set-ups), rearranged: the
    weakest Soviet unit alone on a clear hex far from every other unit, and the four
    strongest German mechanised units on four of its neighbours (it takes two or three of them,
    as supply there decides, to reach 11-1, rules_en.md §14.1)."""
    s = _standard_start()
    r, g = s.rules, s.rules.grid
    m: Any = r.map
    mech = sorted(
        (u for u in r.side_units[GERMAN] if s.loc[u] >= 0 and r.units[u].mech),
        key=lambda u: (-r.units[u].cf, u),
    )[:4]
    weak = min(
        (u for u in r.side_units[SOVIET] if s.loc[u] >= 0 and not r.units[u].eb and not r.units[u].bracket),
        key=lambda u: (r.units[u].cf, u),
    )
    near = s.occ[0] | s.occ[1]
    for _ in range(3):
        near |= g.expand(near)

    def clear(h: int) -> bool:
        return not (m.forest_mask >> h) & 1 and not (m.lake_hexes >> h) & 1 and not m.lake_mask[h]

    h = next(
        h
        for h in g.hexes
        if not (near >> h) & 1
        and len(g.neighbours[h]) == 6
        and clear(h)
        and all(clear(n) for n in g.neighbours[h])
    )
    t = s.copy()
    t.lift(weak)
    t.put(weak, h)
    for d, u in enumerate(mech):
        t.lift(u)
        t.put(u, g.neighbours_by_dir[h][d])
    t._legal = None
    return t, g.ids[h], [r.units[u].id for u in mech]


def test_overrun_join_and_resolution_codes() -> None:
    """§14: overrun declarations (minimal groups ranked per lowest member and target), a
    unit joining (§14.5), then for every die the resolution's loss / disruption quota (§7)
    and advances (§9): exact masks and decoding at every decision."""
    from typhoon.games.tmc.actions import JoinOverrun, Overrun

    t, target, _ = _overrun_position()
    codec = tmc_codec_for(t.rules)
    rng = random.Random(0)
    _check_state(codec, t, rng, sample=10_000)
    overruns = [a for a in legal_actions(t) if isinstance(a, Overrun)]
    assert len(overruns) >= 2 and all(a.hex == target and 2 <= len(a.units) <= 3 for a in overruns)
    offsets = sorted(codec.overrun_ranks(t).values())
    assert len(set(offsets)) == len(overruns)
    t = apply_unchecked(t, overruns[0])
    joins = [a for a in legal_actions(t) if isinstance(a, JoinOverrun)]
    assert joins
    _check_state(codec, t, rng, sample=10_000)
    t = apply_unchecked(apply_unchecked(t, joins[0]), END)
    assert t.is_chance
    kinds: set[str] = set()
    for die in range(1, 7):
        x = apply_unchecked(t, ROLLS[die - 1])
        for _ in range(20):
            if x.phase != t.phase or x.is_chance or x.result is not None:
                break
            _check_state(codec, x, rng, sample=10_000)
            a = legal_actions(x)[0]
            kinds.add(a.kind)
            x = apply_unchecked(x, a)
    assert {"lose", "disrupt", "advance"} <= kinds, kinds


# -- observations --------------------------------------------------------------------------------


def test_observation_planes() -> None:
    s = _standard_start()
    oc = tmc_obs_codec_for(s.rules)
    o = oc.observe(s, GERMAN)
    assert o.shape == OBS_SHAPE == (NUM_CHANNELS, 78, 63) and o.dtype == np.float32
    assert o.min() >= 0.0 and o.max() <= 1.0
    assert o[CH["moscow"]].sum() == 3  # 5622 5623 5723
    assert o[CH["on_map"]].sum() == 78 * 63
    assert o[CH["rail"]].sum() == 912
    assert sum(o[CH[f"river_{d}"]].sum() for d in ("n", "ne", "se", "s", "sw", "nw")) > 0
    for side, name in ((GERMAN, "german"), (SOVIET, "soviet")):
        on = sum(1 for u in s.rules.side_units[side] if s.loc[u] >= 0)
        assert round(float(o[CH[f"{name}_units"]].sum()) * 3) == on > 0
    # a hex's unit plane: the stack size over 3
    h, us = next(iter(s.stacks.items()))
    col, row = s.rules.grid.coords[h]
    who = "german" if s.rules.units[us[0]].side == GERMAN else "soviet"
    assert o[CH[f"{who}_units"], col - 1, row - 1] == pytest.approx(len(us) / 3)
    # globals: German to act in the German movement phase, observer German, turn 1
    assert o[CH["to_act_german"]].min() == 1.0 and o[CH["observer_german"]].min() == 1.0
    assert o[CH["phase_german_movement"]].max() == 1.0 and o[CH["turn"], 0, 0] == pytest.approx(1 / 31)
    assert oc.observe(s, SOVIET)[CH["observer_soviet"]].min() == 1.0
    assert CH["turn"] == FIRST_GLOBAL


def test_observation_before_set_up_has_empty_unit_planes() -> None:
    """Every region of the tensor is written on each call (the buffer is not pre-zeroed): a
    position with no unit on the map right after one full of units shows none."""
    full = _standard_start()
    oc = tmc_obs_codec_for(full.rules)
    for _ in range(3):
        del_me = oc.observe(full, GERMAN)
        del del_me
        o = oc.observe(new_game("1"), SOVIET)
        assert np.isfinite(o).all()
        assert o[CH["german_units"] : CH["flipped"]].sum() == 0.0
        assert o[CH["zoc_german"]].sum() == 0.0


def test_match_caches_observations_read_only() -> None:
    m = tmc_v0.TmcMatch("1")
    m.reset(seed=1)
    a = m.observe(1)
    with pytest.raises(ValueError):
        a[:] = 0
    assert m.observe(1) is a and m.observe(0) is not a
    assert a[CH["on_map"]].sum() == 78 * 63
    m.play(m.code_of(SETUP_STANDARD))
    assert m.observe(1) is not a  # a new state, a new observation


# -- PettingZoo ------------------------------------------------------------------------------------


def _api_test(env: object, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    other = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_ADVICE)]
    assert not other, other


def test_pettingzoo_api_test() -> None:
    _api_test(tmc_v0.env(scenario="1"), 100)


def test_pettingzoo_api_test_raw_env_other_scenario() -> None:
    _api_test(tmc_v0.raw_env(scenario="11"), 60)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: tmc_v0.env(scenario="1"), num_cycles=100)


def test_reward_schemes_from_victory_levels() -> None:
    """§24 levels: 'win' gives +-1 to the level's side; 'level' grades them 1, 2/3, 1/3."""
    win = tmc_v0.TmcMatch("1")
    graded = tmc_v0.TmcMatch("1", reward="level")
    for level, w, g in (
        ("german_decisive", (1.0, -1.0), (1.0, -1.0)),
        ("german_marginal", (1.0, -1.0), (1 / 3, -1 / 3)),
        ("soviet_substantial", (-1.0, 1.0), (-2 / 3, 2 / 3)),
    ):
        for m, want in ((win, w), (graded, g)):
            s = m.state.copy()
            s.result, s.level = level.split("_")[0], level
            m.state = s
            assert m.scores() == pytest.approx(want)
    with pytest.raises(ValueError):
        tmc_v0.TmcMatch("1", reward="vp")


def test_env_masks_agents_and_truncation() -> None:
    env = tmc_v0.raw_env(scenario="1", max_steps=40)
    env.reset(seed=4)
    rng = random.Random(4)
    seen = set()
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        if term or trunc:
            assert trunc and reward == 0.0
            env.step(None)
            continue
        seen.add(agent)
        mask = obs["action_mask"]
        assert mask.shape == (env.match.num_actions,) and mask.dtype == np.int8
        assert mask.sum() == len(legal_actions(env.match.state))
        other = next(a for a in env.agents if a != agent)
        assert not env.observe(other)["action_mask"].any()
        legal = np.flatnonzero(mask)
        code = int(legal[rng.randrange(len(legal))])
        assert env.action_text(code)
        env.step(code)
    assert env.steps == 40 and seen == {"soviet"}  # the Soviet player sets up first (§25)


def test_illegal_action_raises_in_raw_env() -> None:
    env = tmc_v0.raw_env(scenario="1")
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(EncodingError):
        env.step(int(np.flatnonzero(mask == 0)[0]))


def test_episode_replays_as_a_game_record() -> None:
    m = tmc_v0.TmcMatch("1")
    m.reset(seed=9)
    rng = random.Random(9)
    m.play(m.code_of(SETUP_STANDARD))
    for _ in range(150):
        if m.over:
            break
        codes = m.legal_codes()
        m.play(int(codes[rng.randrange(len(codes))]))
    g = m.to_game()
    assert g.state == m.state and g.rolls_drawn == m.rolls_drawn


# -- Gymnasium and OpenSpiel --------------------------------------------------------------------


def test_gymnasium_wrapper() -> None:
    import gymnasium as gym

    import typhoon.env.gym_env as ge

    env: Any = gym.make(ge.TMC_ENV_ID, side="german", opponent="random")
    obs, info = env.reset(seed=2)
    assert obs.shape == OBS_SHAPE and info["phase"] == "setup_german"  # the Soviet set up first
    obs, reward, term, trunc, info = env.step(env.unwrapped.match.code_of(SETUP_STANDARD))
    assert info["turn"] == 1
    rng = np.random.default_rng(2)
    for _ in range(60):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.sum() == len(legal_actions(env.unwrapped.match.state))
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not term and reward == 0.0


def test_openspiel_truncated_random_simulation() -> None:
    """pyspiel's random_sim_test on the first 120 actions (max_moves=120): a whole game is
    some 3,500 actions and runs in the slow test below."""
    pyspiel = pytest.importorskip("pyspiel")
    from typhoon.env.openspiel_game import TMC_GAME_NAME

    game = pyspiel.load_game(f"{TMC_GAME_NAME}(max_moves=120)")
    assert game.num_distinct_actions() == layout().size
    assert list(game.observation_tensor_shape()) == list(OBS_SHAPE)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_parameters_and_truncation() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from typhoon.env.openspiel_game import TMC_GAME_NAME
    from typhoon.games.tmc.env.codec import tmc_max_game_length

    game = pyspiel.load_game(f"{TMC_GAME_NAME}(scenario=11,reward=level,max_moves=5)")
    state = game.new_initial_state()
    assert state.engine_state.rules.edition == "11" and game.max_game_length() == 5
    assert tmc_max_game_length(state.engine_state.rules) > 31 * 285
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 5 and state.returns() == [0.0, 0.0]
    with pytest.raises(ValueError):
        pyspiel.load_game(f"{TMC_GAME_NAME}(reward=vp)")


# -- slow: whole games ------------------------------------------------------------------------


@pytest.mark.slow
def test_openspiel_whole_game_random_simulation() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from typhoon.env.openspiel_game import TMC_GAME_NAME

    game = pyspiel.load_game(TMC_GAME_NAME)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("scenario,steps", [("1", 0), ("11", 6000)])
def test_random_play_never_fails_to_encode(scenario: str, steps: int) -> None:
    """Random masked play (a whole game of scenario 1; the first 6,000 steps of the campaign):
    every legal action is encoded, masks are exact, rewards are +-1 at the end."""
    env = tmc_v0.raw_env(scenario=scenario)
    env.reset(seed=21)
    rng = random.Random(21)
    n = 0
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += float(reward)
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(legal_actions(env.match.state))
        env.step(int(legal[rng.randrange(len(legal))]))
        n += 1
        if steps and n >= steps:
            return
    assert sorted(totals.values()) == [-1.0, 1.0]
