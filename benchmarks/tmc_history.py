"""The Moscow Campaign: AI-versus-AI games set beside the historical course (calibration).

    .venv/bin/python benchmarks/tmc_history.py --scenario 1 --games 10 [--german heuristic]
        [--soviet heuristic] [--seed 1] [--jobs 1] [--quiet]

Plays ``--games`` games of one scenario and prints, per game and on average, the figures that
can be compared with the campaign of 1941 (docs/TMC_CALIBRATION.md), then the **marker table**:
the named historical markers of the scenario (:data:`MARKERS`), each with its tolerance, the
share of games that reproduce it, and one **score**: the share of (game, marker) pairs
reproduced (docs/TMC_AI.md, issue 14 item 4).

Figures per game:

- Soviet and German units eliminated, as a share of the units that started;
- the German units' closest approach to Moscow (hex distance to the nearest Moscow hex, over
  every position of the game) and whether the Germans ever held Moscow (they never did);
- the key towns each side took, with the game turn: a town counts as taken by a side in GT n
  if one of its units stood in the town's hex in GT n while the other side held it at the
  start (the side of the start line it lies on);
- pockets: at the start of every Soviet movement phase (where supply is judged, §11), the
  Soviet units out of supply within 5 hexes of Vyazma and of Bryansk.

Level names are the framework's (``heuristic``, ``search``, ...) or a TMC level of
``typhoon.games.tmc.ai.LEVELS`` that the framework does not list (``operational``).
Game turns are dated at 3 days a turn from GT 1 = 30 September (docs/TMC_OOB.md §5).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from typhoon.errors import OptionError
from typhoon.games.tmc.rules import GERMAN, SOVIET
from typhoon.games.tmc.state import OFF, State
from typhoon.players import make_player
from typhoon.players.base import Player
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
    "Solnechnogorsk",
    "Istra",
    "Tula",
    "Mtsensk",
    "Yelets",
    "Yefremov",
    "Serpukhov",
    "Naro-Fominsk",
)
POCKETS = ("Vyazma", "Bryansk")
POCKET_RADIUS = 5  # hexes around the town
POCKET_UNITS = 6  # Soviet units out of supply there: a pocket (the real ones held dozens of divisions)


@dataclass
class Figures:
    scenario: str
    seed: int
    level: str
    vp: tuple[int, int]
    soviet_lost: float
    german_lost: float
    kg: int
    closest: int
    moscow_held: bool
    taken: dict[int, dict[str, int]]  # side -> town -> first GT it stood there
    pocket: dict[str, int] = field(default_factory=dict)  # town -> first GT with a pocket


def _holder(s: State, h: int) -> int:
    us = s.stacks.get(h, ())
    if not us:
        return -1
    return s.rules.units[us[0]].side


def _soviet_supply(s: State) -> int:
    if s.supply[SOVIET] >= 0:
        return s.supply[SOVIET]
    from typhoon.games.tmc.supply import supply_now

    return supply_now(s, SOVIET).in_supply


def measure(states: list[State], scenario: str = "", seed: int = 0) -> Figures:
    last = states[-1]
    rules = last.rules
    m = rules.map
    places = m.places  # type: ignore[attr-defined]
    towns = {name: places[name] for name in TOWNS if name in places}
    grid = rules.grid
    moscow = tuple(m.moscow)
    start = next(s for s in states if s.turn >= 1 and s.phase_spec.kind != "setup")
    start_owner = {name: GERMAN if (rules.west_mask >> h) & 1 else SOVIET for name, h in towns.items()}
    taken: dict[int, dict[str, int]] = {GERMAN: {}, SOVIET: {}}
    pocket: dict[str, int] = {}
    pocket_area = {t: grid.within(places[t], POCKET_RADIUS) for t in POCKETS if t in places}
    closest = 99
    moscow_held = False
    seen_phase: tuple[int, int] | None = None
    for s in states:
        if s.turn < 1 or s.phase_spec.kind == "setup":
            continue
        for name, h in towns.items():
            side = _holder(s, h)
            if side >= 0 and side != start_owner[name] and name not in taken[side]:
                taken[side][name] = s.turn
        for u in rules.side_units[GERMAN]:
            h = s.loc[u]
            if h != OFF:
                closest = min(closest, min(grid.distance(h, mh) for mh in moscow))
        if s.moscow_holder() == GERMAN:
            moscow_held = True
        key = (s.turn, s.phase)
        if s.phase_spec.key == "soviet_movement" and key != seen_phase:
            seen_phase = key
            sup = _soviet_supply(s)
            for t, area in pocket_area.items():
                if t in pocket:
                    continue
                cut = sum(
                    1
                    for u in rules.side_units[SOVIET]
                    if s.loc[u] >= 0 and (area >> s.loc[u]) & 1 and not (sup >> s.loc[u]) & 1
                )
                if cut >= POCKET_UNITS:
                    pocket[t] = s.turn

    def lost(side: int) -> float:
        began = [u for u in rules.side_units[side] if start.loc[u] != OFF]
        gone = [u for u in began if (last.eliminated >> u) & 1]
        return len(gone) / max(1, len(began))

    return Figures(
        scenario,
        seed,
        str(last.level),  # type: ignore[attr-defined]
        (int(last.vp[GERMAN]), int(last.vp[SOVIET])),
        lost(SOVIET),
        lost(GERMAN),
        bin(last.kg).count("1"),
        closest,
        moscow_held,
        taken,
        pocket,
    )


# -- the markers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Marker:
    name: str
    history: str  # what happened, with the date
    tolerance: str  # what a game must do to reproduce it
    test: Callable[[Figures], bool]


def _taken_by(side: int, town: str, gt: int) -> Callable[[Figures], bool]:
    return lambda f: f.taken[side].get(town, 99) <= gt


def _german_by(town: str, gt: int, when: str) -> Marker:
    return Marker(
        f"{town} taken by GT {gt}",
        f"{town} fell {when}",
        f"a German unit in {town} by GT {gt}",
        _taken_by(GERMAN, town, gt),
    )


def _soviet_retakes(town: str, when: str) -> Marker:
    return Marker(
        f"{town} retaken",
        f"{town} retaken {when}",
        f"a Soviet unit in {town} by GT 31",
        _taken_by(SOVIET, town, 31),
    )


DECEMBER_TOWNS = ("Kalinin", "Klin", "Istra", "Solnechnogorsk", "Volokolamsk", "Yelets", "Yefremov", "Kaluga")

MARKERS: dict[str, tuple[Marker, ...]] = {
    "1": (
        Marker(
            "Vyazma or Bryansk pocket by GT 4",
            "both pockets closed 7 Oct (GT 3)",
            f"{POCKET_UNITS}+ Soviet units out of supply within {POCKET_RADIUS} hexes of Vyazma or Bryansk"
            " at a Soviet movement phase by GT 4 (one turn late allowed)",
            lambda f: min(f.pocket.values(), default=99) <= 4,
        ),
        _german_by("Orel", 4, "3 Oct (GT 2)"),
        _german_by("Bryansk", 4, "6 Oct (GT 3)"),
        _german_by("Vyazma", 5, "7 Oct (GT 3)"),
        _german_by("Kaluga", 6, "12 Oct (GT 5)"),
        _german_by("Kalinin", 7, "14 Oct (GT 6)"),
        _german_by("Mozhaisk", 8, "18 Oct (GT 7)"),
        Marker(
            "closest approach 7-12 hexes",
            "the front about 80-100 km (9-10 hexes) from Moscow by 21 Oct (GT 8)",
            "German closest approach to Moscow 7 to 12 hexes",
            lambda f: 7 <= f.closest <= 12,
        ),
        Marker(
            "Soviet losses >= 45%",
            "most of the Western, Reserve and Bryansk Fronts destroyed",
            "45% or more of the Soviet units that started eliminated",
            lambda f: f.soviet_lost >= 0.45,
        ),
        Marker(
            "German losses <= 15%",
            "German losses light in October",
            "15% or less of the German units that started eliminated",
            lambda f: f.german_lost <= 0.15,
        ),
        Marker(
            "Moscow not taken",
            "Moscow never fell",
            "no German unit ever held Moscow",
            lambda f: not f.moscow_held,
        ),
    ),
    "15": (
        Marker(
            "Tula holds",
            "Tula held throughout",
            "no German unit ever in Tula",
            lambda f: "Tula" not in f.taken[GERMAN],
        ),
        _german_by("Klin", 21, "23 Nov (GT 19)"),
        _german_by("Solnechnogorsk", 21, "23 Nov (GT 19)"),
        _german_by("Istra", 22, "27 Nov (GT 20)"),
        Marker(
            "closest approach 1-4 hexes",
            "Krasnaya Polyana and Khimki, 20-30 km (2-3 hexes) from Moscow, early December",
            "German closest approach to Moscow 1 to 4 hexes",
            lambda f: 1 <= f.closest <= 4,
        ),
        Marker(
            "Moscow not taken",
            "Moscow never fell",
            "no German unit ever held Moscow",
            lambda f: not f.moscow_held,
        ),
        Marker(
            "Kalinin stays German",
            "Kalinin held by the Germans until 16 Dec",
            "no Soviet unit in Kalinin",
            lambda f: "Kalinin" not in f.taken[SOVIET],
        ),
        Marker(
            "Soviet losses > German",
            "heavy Soviet losses in the November defence",
            "a larger share of the Soviet units eliminated than of the German",
            lambda f: f.soviet_lost > f.german_lost,
        ),
    ),
    "21": (
        *(
            _soviet_retakes(t, w)
            for t, w in (
                ("Kalinin", "16 Dec (GT 27)"),
                ("Klin", "15 Dec (GT 26)"),
                ("Istra", "about 16 Dec (GT 27)"),
                ("Solnechnogorsk", "12 Dec (GT 25)"),
                ("Volokolamsk", "20 Dec (GT 28)"),
                ("Yelets", "9 Dec (GT 24)"),
                ("Yefremov", "13 Dec (GT 25)"),
                ("Kaluga", "30 Dec (GT 31)"),
            )
        ),
        Marker(
            "four or more towns retaken",
            "all eight by 30 Dec (and Naro-Fominsk, on the start line here)",
            f"a Soviet unit in 4 or more of {', '.join(DECEMBER_TOWNS)} by GT 31",
            lambda f: sum(t in f.taken[SOVIET] for t in DECEMBER_TOWNS) >= 4,
        ),
        Marker(
            "Tula holds", "Tula held", "no German unit ever in Tula", lambda f: "Tula" not in f.taken[GERMAN]
        ),
        Marker(
            "German losses >= Soviet",
            "the German retreat cost them most of their heavy equipment",
            "a share of the German units eliminated at least that of the Soviet",
            lambda f: f.german_lost >= f.soviet_lost,
        ),
        Marker(
            "Moscow not taken",
            "Moscow never fell",
            "no German unit ever held Moscow",
            lambda f: not f.moscow_held,
        ),
    ),
}


def score(rows: list[Figures], markers: tuple[Marker, ...]) -> float:
    """Share of the (game, marker) pairs reproduced."""
    if not rows or not markers:
        return 0.0
    return sum(mk.test(f) for f in rows for mk in markers) / (len(rows) * len(markers))


# -- playing ---------------------------------------------------------------------------------


def player(level: str, seed: int) -> Player:
    """A framework level, else one of TMC's own levels (typhoon.games.tmc.ai.LEVELS)."""
    from typhoon.games.tmc.ai import LEVELS

    try:
        return make_player(level, seed)
    except OptionError:
        if level in LEVELS:
            return LEVELS[level](seed)
        raise


def play_one(args: tuple[str, str, str, int]) -> Figures:
    scenario, german, soviet, seed = args
    players = [player(german, 2 * seed + 1), player(soviet, 2 * seed + 2)]
    g = play_game(players, game="tmc", edition=scenario, seed=seed)
    states = [e.before for e in g.history] + [g.state]
    return measure(states, scenario, seed)


def _line(f: Figures) -> str:
    def towns(side: int) -> str:
        return ", ".join(f"{t} GT{n}" for t, n in f.taken[side].items()) or "-"

    pockets = ", ".join(f"{t} GT{n}" for t, n in f.pocket.items()) or "none"
    return (
        f"scenario {f.scenario} seed {f.seed}: {f.level} VP {f.vp[0]}:{f.vp[1]}; "
        f"Soviet units lost {f.soviet_lost:.0%}, German {f.german_lost:.0%} (KGs {f.kg}); "
        f"closest German approach to Moscow {f.closest} hexes; Germans held Moscow: "
        f"{'yes' if f.moscow_held else 'no'}; pockets: {pockets}; German took {towns(GERMAN)}; "
        f"Soviet took {towns(SOVIET)}"
    )


def report(rows: list[Figures], scenario: str, german: str, soviet: str) -> None:
    levels = Counter(f.level for f in rows)
    print(f"\nscenario {scenario}, {len(rows)} games, {german} (German) vs {soviet} (Soviet)")
    print("levels: " + ", ".join(f"{k} {v}" for k, v in sorted(levels.items())))
    print(
        f"mean VP German {statistics.mean(f.vp[0] for f in rows):.1f}, "
        f"Soviet {statistics.mean(f.vp[1] for f in rows):.1f}"
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
    markers = MARKERS.get(scenario, ())
    if not markers:
        print("no marker table for this scenario")
        return
    print("\n| marker | history | reproduced when | games |\n|---|---|---|---|")
    for mk in markers:
        print(f"| {mk.name} | {mk.history} | {mk.tolerance} | {sum(mk.test(f) for f in rows)}/{len(rows)} |")
    print(
        f"\nmarker score, scenario {scenario}: {score(rows, markers):.2f} ({len(rows)} games, {len(markers)} markers)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="1")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--german", default="heuristic")
    ap.add_argument("--soviet", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    args = ap.parse_args()
    work = [(args.scenario, args.german, args.soviet, args.seed + i) for i in range(args.games)]
    rows: list[Figures] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            for f in ex.map(play_one, work):
                rows.append(f)
                if not args.quiet:
                    print(_line(f), flush=True)
    else:
        for w in work:
            f = play_one(w)
            rows.append(f)
            if not args.quiet:
                print(_line(f), flush=True)
    report(rows, args.scenario, args.german, args.soviet)


if __name__ == "__main__":
    main()
