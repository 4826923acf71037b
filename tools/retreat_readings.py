"""How often the two readings of the Battle for Moscow retreat extension (option
``retreat_extension``, issue 15) give different sets of end hexes, over the retreats of
random-play games. Plays with the default reading; at every retreat it also asks the other.

    .venv/bin/python tools/retreat_readings.py [GAMES] [FIRST_SEED]
"""

from __future__ import annotations

import sys

from typhoon.game import CHANCE, Game
from typhoon.games.bfm import combat_phase
from typhoon.mechanics.zoc import zoc_mask
from typhoon.players import RandomPlayer


def main(games: int = 40, first: int = 1) -> None:
    seen: dict[tuple[object, ...], tuple[frozenset[int], frozenset[int]]] = {}
    original = combat_phase.retreat_paths_of
    game_no = 0

    def spy(s, defender):  # type: ignore[no-untyped-def]
        paths = original(s, defender)
        key = (game_no, s.turn, s.phase, defender, s.loc[defender], s.occ[0], s.occ[1])
        if key not in seen:
            grid = s.rules.map.grid
            side = s.rules.units[defender].side
            enemy = 1 - side
            forbidden = s.occ[enemy] | zoc_mask(s.occ[enemy], grid.expand)
            occupied = s.occ[side] & ~(1 << s.loc[defender])
            other = combat_phase.retreat_paths_beyond(
                s.loc[defender],
                combat_phase.RETREAT_LENGTH,
                grid.neighbours,
                grid.distance,
                forbidden,
                occupied,
            )
            seen[key] = (frozenset(p[-1] for p in paths), frozenset(p[-1] for p in other))
        return paths

    combat_phase.retreat_paths_of = spy  # type: ignore[assignment]
    for seed in range(first, first + games):
        game_no = seed
        g = Game("bfm", seed=seed)
        players = [RandomPlayer(seed), RandomPlayer(seed + 1)]
        while not g.is_over:
            side = g.current_player()
            if side == CHANCE:
                g.roll()
            else:
                g.play(players[side].choose(g.state, g.legal_actions()))
    combat_phase.retreat_paths_of = original  # type: ignore[assignment]
    any_path = [v for v in seen.values() if v[0] or v[1]]
    differ = [v for v in any_path if v[0] != v[1]]
    print(
        f"games {games} (seeds {first}-{first + games - 1}), random v random, gdw1986, default reading played"
    )
    print(f"retreats looked at: {len(seen)}; with a path under either reading: {len(any_path)}")
    print(f"end-hex sets differ: {len(differ)} ({100 * len(differ) / max(1, len(any_path)):.1f}%)")
    only_default = sum(1 for a, b in any_path if a and not b)
    only_other = sum(1 for a, b in any_path if b and not a)
    print(
        f"eliminated under one reading only: default-only path {only_default}, other-only path {only_other}"
    )


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*args)
