"""The observation tensor: shape, bounds, and planes that agree with the engine state."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from typhoon.games.bfm.engine import apply_unchecked, legal_actions, new_game  # noqa: E402
from typhoon.games.bfm.env.actions import EDITIONS, codec_for  # noqa: E402
from typhoon.games.bfm.env.observation import (  # noqa: E402
    CH,
    CHANNELS,
    FIRST_GLOBAL,
    NUM_CHANNELS,
    OBS_SHAPE,
    obs_codec_for,
)
from typhoon.games.bfm.rules import GERMAN, SOVIET  # noqa: E402

pytestmark = pytest.mark.rl


def plane(obs: np.ndarray, name: str) -> np.ndarray:
    return obs[CH[name]].reshape(-1)


@pytest.mark.parametrize("edition", EDITIONS)
def test_static_planes(edition: str) -> None:
    s = new_game(edition)
    m = s.rules.map
    obs = obs_codec_for(s.rules).observe(s, GERMAN)
    assert obs.shape == OBS_SHAPE == (NUM_CHANNELS, 14, 11) and obs.dtype == np.float32
    assert len(CHANNELS) == NUM_CHANNELS == len(set(CHANNELS))
    assert plane(obs, "on_map").sum() == m.grid.count
    assert plane(obs, "forest").sum() == len(m.forest)
    assert plane(obs, "city").sum() == len(m.cities)
    pad = codec_for(s.rules).hid_pad
    moscow = pad[m.grid.ids[m.moscow[0]]]
    assert plane(obs, "moscow")[moscow] == 1 and plane(obs, "moscow").sum() == 1
    # each river hexside is seen from both sides, each rail link from both ends
    rivers = sum(plane(obs, f"river_{d}").sum() for d in ("n", "ne", "se", "s", "sw", "nw"))
    assert rivers == 2 * len(m.rivers)
    rails = sum(plane(obs, f"rail_{d}").sum() for d in ("n", "ne", "se", "s", "sw", "nw"))
    assert rails == 2 * len(m.rail)
    # x = column - 1, y = row - 1
    c, r = m.grid.coords[m.moscow[0]]
    assert obs[CH["moscow"], c - 1, r - 1] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_dynamic_planes_follow_the_state(edition: str) -> None:
    rng = random.Random(3)
    s = new_game(edition)
    oc = obs_codec_for(s.rules)
    pad = codec_for(s.rules).pad_of
    n = 0
    while s.result is None:
        who = s.current_player()
        obs = oc.observe(s, max(who, 0))
        assert obs.min() >= 0.0 and obs.max() <= 1.0 and np.isfinite(obs).all()
        for side, name in ((GERMAN, "german"), (SOVIET, "soviet")):
            on = [u for u in s.rules.side_units[side] if s.loc[u] >= 0]
            cells = {pad[s.loc[u]] for u in on}
            assert set(np.flatnonzero(plane(obs, f"{name}_unit")).tolist()) == cells
            full = {pad[s.loc[u]] for u in on if s.steps[u] == 2}
            if s.stack < 0:
                assert set(np.flatnonzero(plane(obs, f"{name}_full")).tolist()) == full
            zoc = set(np.flatnonzero(plane(obs, f"zoc_{name}")).tolist())
            assert zoc == {pad[h] for h in s.rules.map.grid.hexes if (s.zoc(side) >> h) & 1}
        german = plane(obs, "city_german").sum()
        assert german + plane(obs, "city_soviet").sum() == len(s.rules.map.cities)
        assert german == bin(s.control).count("1")
        g = obs[FIRST_GLOBAL:].reshape(NUM_CHANNELS - FIRST_GLOBAL, -1)
        assert (g == g[:, :1]).all()  # global planes are constant
        assert obs[CH[f"turn_{s.turn}"], 0, 0] == 1 and obs[CH[f"phase_{s.phase}"], 0, 0] == 1
        assert obs[CH["to_act_german"], 0, 0] == (who == GERMAN)
        assert obs[CH["observer_german"], 0, 0] == (max(who, 0) == GERMAN)
        if s.cur is not None:
            assert plane(obs, "current_defender")[pad[s.cur.hex]] == 1
        acts = legal_actions(s)
        s = apply_unchecked(s, acts[rng.randrange(len(acts))])
        n += 1
    assert n > 100
