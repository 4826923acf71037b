"""Moscow Attacked!'s research codec (typhoon.env reads it through FrontEnds.env_codec)."""
