"""Research environments for Battle for Moscow and The Moscow Campaign (the optional
``typhoon[rl]`` extra).

- :mod:`typhoon.env.actions`: the fixed-size integer action space and exact masks (numpy)
- :mod:`typhoon.env.observation`: the observation tensor (numpy)
- :mod:`typhoon.env.bfm_v0`: PettingZoo AEC environment (``bfm_v0.env()``)
- shared by both games: :mod:`typhoon.env.match` (the match: state, seeded dice, cached
  codes), :mod:`typhoon.env.aec` (the PettingZoo AEC base), :mod:`typhoon.env.bitplanes`
  (hex bitsets as observation planes)
- :mod:`typhoon.env.gym_env`: Gymnasium single-agent wrapper against a bundled player
- :mod:`typhoon.env.openspiel_game`: the OpenSpiel games ``python_typhoon_bfm`` and
  ``python_typhoon_tmc``
- :mod:`typhoon.env.tmc_actions`, :mod:`typhoon.env.tmc_observation`,
  :mod:`typhoon.env.tmc_v0`: The Moscow Campaign's action space, observation and PettingZoo
  environment (``tmc_v0.env(scenario="1")``); the Gymnasium wrapper is
  ``gym_env.TmcGymEnv`` (``typhoon/MoscowCampaign-v0``)

Nothing is imported here, so ``import typhoon.env`` works without the extra; each module
needs numpy, and the framework adapters need their framework. See docs/RESEARCH.md.
"""

from __future__ import annotations
