"""Build hook for the optional native extension (issue 17); everything else is in pyproject.toml.

``typhoon.games.bfm._bfmcore`` (Battle for Moscow's rules in C, src/typhoon/games/bfm/native/)
is ``optional``: without a C compiler the install still succeeds and the pure-Python engine is
used (``typhoon.games.bfm.native.available()`` is then False).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "typhoon.games.bfm._bfmcore",
            sources=["src/typhoon/games/bfm/native/bfmcore.c"],
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
