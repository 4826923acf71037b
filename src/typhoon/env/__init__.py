"""Research environments for every registered game with a research codec (the optional
``typhoon[rl]`` extra). The environments name no game: each game's package supplies its codec
(action space, observation, rewards; :mod:`typhoon.env.codec`), named in its kit.

- :mod:`typhoon.env.codec`: the env contract (:class:`~typhoon.env.codec.EnvCodec`) and
  helpers for codecs (numpy)
- :mod:`typhoon.env.match`: the match (state, seeded dice, cached codes and observations)
- :mod:`typhoon.env.aec`: the PettingZoo AEC environment; ``typhoon.env.<key>_v0`` per game
  (``from typhoon.env import <key>_v0``; ``<key>_v0.env(edition=...)``)
- :mod:`typhoon.env.gym_env`: Gymnasium single-agent wrapper against a bundled player
  (``typhoon/<Title>-v0`` per game)
- :mod:`typhoon.env.openspiel_game`: the OpenSpiel games ``python_typhoon_<key>``
- :mod:`typhoon.env.bitplanes`: hex bitsets as observation planes (for codecs)

Nothing is imported here, so ``import typhoon.env`` works without the extra; each module
needs numpy, and the framework adapters need their framework. See docs/RESEARCH.md.
"""

from __future__ import annotations

import re
from typing import Any

_ENV_MODULE = re.compile(r"^(\w+)_v0$")


def __getattr__(name: str) -> Any:
    """``typhoon.env.<key>_v0``: the PettingZoo module of a registered game (made on first
    use by :func:`typhoon.env.aec.env_module`)."""
    m = _ENV_MODULE.match(name)
    if m:
        from typhoon.games import game_keys

        if m.group(1) in game_keys():
            from typhoon.env.aec import env_module

            return env_module(m.group(1))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
