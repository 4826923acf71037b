"""Battle for Moscow's research codec (the env layer's adapter; docs/RESEARCH.md):
:mod:`.actions` the fixed-size action space, :mod:`.observation` the observation tensor,
:mod:`.codec` the :class:`typhoon.env.codec.EnvCodec` the kit names (``CODEC``)."""
