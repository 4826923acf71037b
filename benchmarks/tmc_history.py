"""The Moscow Campaign: AI-versus-AI games set beside the historical course (calibration).

    .venv/bin/python benchmarks/tmc_history.py --scenario 1 --games 10 [--german heuristic]
        [--soviet heuristic] [--seed 1]

Plays ``--games`` games of one scenario and prints, per game and on average, the figures that
can be compared with the campaign of 1941 (docs/TMC_CALIBRATION.md):

- Soviet units eliminated, as a share of the Soviet units that started (the Vyazma and Bryansk
  pockets destroyed most of three fronts in the first week of October);
- the German units' closest approach to Moscow (hex distance to the nearest Moscow hex, over
  every position of the game) and whether the Germans ever held Moscow (they never did);
- the key towns each side took: a town counts as taken by a side if one of its units stood
  in the town's hex at some point after the start while the other side held it at the start
  (Vyazma, Bryansk, Orel, Kaluga, Kalinin, Mozhaisk fell in October; Kalinin, Kaluga, Klin,
  Volokolamsk, Yelets were retaken in December).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from dataclasses import dataclass

from typhoon.games.tmc.rules import GERMAN, SOVIET
from typhoon.games.tmc.state import OFF, State
from typhoon.players import make_player
from typhoon.selfplay import play_game

TOWNS = (
    "Vyazma",
    "Bryansk",
    "Orel",
    "Kaluga",
    "Rzhev",
    "Kalinin",
    "Mozhaisk",
    "Maloyaroslavets",
    "Volokolamsk",
    "Klin",
    "Istra",
    "Tula",
    "Mtsensk",
    "Yelets",
    "Yefremov",
    "Serpukhov",
)


@dataclass
class Figures:
    level: str
    vp: tuple[int, int]
    soviet_lost: float
    german_lost: float
    kg: int
    closest: int
    moscow_held: bool
    taken: dict[int, list[str]]


def _holder(s: State, h: int) -> int:
    us = s.stacks.get(h, ())
    if not us:
        return -1
    return s.rules.units[us[0]].side


def measure(states: list[State]) -> Figures:
    last = states[-1]
    rules = last.rules
    m = rules.map
    places = m.places  # type: ignore[attr-defined]
    towns = {name: places[name] for name in TOWNS if name in places}
    grid = rules.grid
    moscow = tuple(m.moscow)
    start = next(s for s in states if s.turn >= 1)  # after set-up
    start_owner = {}
    for name, h in towns.items():
        # The side on whose side of the start line the town lies held it at the start.
        start_owner[name] = GERMAN if (rules.west_mask >> h) & 1 else SOVIET
    taken: dict[int, list[str]] = {GERMAN: [], SOVIET: []}
    closest = 99
    moscow_held = False
    for s in states:
        if s.turn < 1:
            continue
        for name, h in towns.items():
            side = _holder(s, h)
            if side >= 0 and side != start_owner[name] and name not in taken[side]:
                taken[side].append(name)
        for u in rules.side_units[GERMAN]:
            h = s.loc[u]
            if h != OFF:
                closest = min(closest, min(grid.distance(h, mh) for mh in moscow))
        if s.moscow_holder() == GERMAN:
            moscow_held = True

    def lost(side: int) -> float:
        began = [u for u in rules.side_units[side] if start.loc[u] != OFF]
        gone = [u for u in began if (last.eliminated >> u) & 1]
        return len(gone) / max(1, len(began))

    return Figures(
        str(last.level),  # type: ignore[attr-defined]
        (int(last.vp[GERMAN]), int(last.vp[SOVIET])),
        lost(SOVIET),
        lost(GERMAN),
        bin(last.kg).count("1"),
        closest,
        moscow_held,
        taken,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="1")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--german", default="heuristic")
    ap.add_argument("--soviet", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rows: list[Figures] = []
    for i in range(args.games):
        seed = args.seed + i
        players = [make_player(args.german, 2 * seed + 1), make_player(args.soviet, 2 * seed + 2)]
        g = play_game(players, game="tmc", edition=args.scenario, seed=seed)
        states = [e.before for e in g.history] + [g.state]
        f = measure(states)
        rows.append(f)
        print(
            f"scenario {args.scenario} seed {seed}: {f.level} VP {f.vp[0]}:{f.vp[1]}; "
            f"Soviet units lost {f.soviet_lost:.0%}, German {f.german_lost:.0%} (KGs {f.kg}); "
            f"closest German approach to Moscow {f.closest} hexes; Germans held Moscow: "
            f"{'yes' if f.moscow_held else 'no'}; German took {', '.join(f.taken[GERMAN]) or '-'}; "
            f"Soviet took {', '.join(f.taken[SOVIET]) or '-'}",
            flush=True,
        )
    levels = Counter(f.level for f in rows)
    print(f"\nscenario {args.scenario}, {len(rows)} games, {args.german} (German) vs {args.soviet} (Soviet)")
    print("levels: " + ", ".join(f"{k} {v}" for k, v in sorted(levels.items())))
    print(
        f"mean VP German {statistics.mean(f.vp[0] for f in rows):.1f}, Soviet {statistics.mean(f.vp[1] for f in rows):.1f}"
    )
    print(
        f"mean Soviet units lost {statistics.mean(f.soviet_lost for f in rows):.0%}, "
        f"German {statistics.mean(f.german_lost for f in rows):.0%}; "
        f"closest approach to Moscow: median {statistics.median(f.closest for f in rows)} hexes; "
        f"Moscow held by the Germans in {sum(f.moscow_held for f in rows)} of {len(rows)} games"
    )
    for side, word in ((GERMAN, "German"), (SOVIET, "Soviet")):
        c = Counter(t for f in rows for t in f.taken[side])
        print(
            f"{word} captures (games out of {len(rows)}): "
            + (", ".join(f"{t} {n}" for t, n in c.most_common()) or "-")
        )


if __name__ == "__main__":
    main()
