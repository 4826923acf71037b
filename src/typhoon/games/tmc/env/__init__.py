"""The Moscow Campaign's research codec (the env layer's adapter; docs/RESEARCH.md):
:mod:`.actions` the fixed-size action space, :mod:`.observation` the observation planes,
:mod:`.codec` the :class:`typhoon.env.codec.EnvCodec` the kit names (``CODEC``)."""
