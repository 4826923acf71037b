"""A tiny test game (issue 11 point 4): five hexes in a row, two units a side, one die roll per
attack. It is registered only by the tests (``typhoon.games.register_game``) and has no line
outside this package: what it plays through proves those front ends know no game by name.

Rules: turns 1..N (N: 3 in "standard", 5 in "long"); each turn German then Soviet, and in its
phase a side plays one action: ``move UNIT HEX`` (to an empty adjacent hex), ``attack UNIT HEX``
(an adjacent enemy; then ``roll D``: 4-6 eliminates the defender) or ``end``. A side without
units loses; after the last turn the side with more units wins, else it is a draw.
"""

KEY = "tiny"
PACKAGE = "tinygame"
