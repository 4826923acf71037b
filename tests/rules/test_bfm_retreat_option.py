"""The retreat-extension reading as a named option (issue 15, "What to add": one rules reading
made switchable).

Seed 002, «Результаты боя», оО (DR): a unit that would end its retreat on a friendly unit "must
retreat another two hexes to reach an empty hex". Two readings:

- ``retreat_extension=four_from_start`` (the default, docs/RULES.md reading 5): the n-th hex of
  the whole retreat is n hexes from the start, so the extended retreat ends four hexes away;
- ``retreat_extension=two_beyond_occupied``: the two extra hexes are a retreat of their own from
  the occupied hex (the n-th of them n hexes from it), never nearer the start than that hex and
  never entering a hex twice.

Hand-worked position (the one of test_retreat.py): 16A in 0707 retreats from XL in 0606 (XL's
zone: 0506 0507 0605 0607 0706 0707); 3A stands in 0907, two hexes from 0707, so every retreat
reaching 0907 goes on. 0907's neighbours: 0906 0908 (2 from 0707), 1006 1007 (3 from 0707), 0806
0807 (1 from 0707, already nearer the start: excluded under the second reading).
"""

from __future__ import annotations

import pytest

from typhoon.errors import OptionError
from typhoon.game import Game
from typhoon.games.bfm.rules import load_rules, option_specs
from typhoon.record import Record

from .helpers import fight, legal, play, pos, where

OPTION = "retreat_extension"
BEYOND = "retreat_extension:two_beyond_occupied"
G, S = "XL@0606,XXIV@0101", "16A@0707,3A@0907/h"
# Retreats that never touch 0907: the same under both readings.
SHORT = {
    "retreat 0708-0608",
    "retreat 0708-0709",
    "retreat 0708-0808",
    "retreat 0806-0805",
    "retreat 0806-0906",
    "retreat 0807-0808",
    "retreat 0807-0908",
}


def _dr(opt: str = "-"):  # type: ignore[no-untyped-def]
    s, _ = fight(pos(G=G, S=S, t=2, opt=opt), "0707", "XL", die=1)
    return s


def _ends_via_0907(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {p.split("-")[-1] for p in legal(s) if "-0907-" in p}


def test_default_reading_ends_four_hexes_from_the_start() -> None:
    """Default: 0907 + two more hexes, each one hex further from 0707: via 1006 or 1007 to
    1106, 1107 or 1108 (all four hexes from 0707)."""
    s = _dr()
    assert _ends_via_0907(s) == {"1106", "1107", "1108"}
    assert {p for p in legal(s) if "0907" not in p} == SHORT
    assert len(legal(s)) == len(SHORT) + 8  # two ways into 0907 x four tails


def test_second_reading_ends_two_hexes_beyond_the_occupied_hex() -> None:
    """two_beyond_occupied: from 0907 the first extra hex is a neighbour of 0907 no nearer
    0707 (0906, 0908, 1006, 1007), the second a hex two from 0907 and at least two from 0707:
    ends 0805 0905 1005 (via 0906), 0808 0909 1008 (via 0908), 1005 1106 1107 (via 1006),
    1008 1107 1108 (via 1007). Ends one hex from the start (0708, 0806, 0807) are not reached:
    the extension does not double back."""
    s = _dr(BEYOND)
    assert _ends_via_0907(s) == {"0805", "0905", "1005", "0808", "0909", "1008", "1106", "1107", "1108"}
    assert {p for p in legal(s) if "0907" not in p} == SHORT
    assert "retreat 0806-0907-0807-0708" not in legal(s)  # back towards the start
    assert "retreat 0806-0907-0906-0805" in legal(s)
    s2 = play(s, "retreat 0807-0907-0908-0909")  # 2 from 0907, 3 from 0707
    assert where(s2, "16A") == "0909" and where(s2, "3A") == "0907"


def test_default_reading_rejects_the_other_readings_path() -> None:
    from .helpers import assert_illegal

    assert_illegal(_dr(), "retreat 0807-0907-0908-0909")


def test_option_is_named_documented_and_checked() -> None:
    for edition in ("gdw1986", "vpg2009"):
        spec = option_specs(edition)[OPTION]
        assert spec.default == "four_from_start"
        assert spec.choices == ("four_from_start", "two_beyond_occupied")
        assert "Seed 002" in spec.note and "another two hexes" in spec.note
    with pytest.raises(OptionError):
        load_rules("gdw1986", {OPTION: "three"})


def test_default_is_not_written_into_records_the_other_reading_is() -> None:
    """Games at the default read exactly as before the option existed (tests/test_speed_identity
    pins their record digests); the other reading travels in records and replays."""
    assert OPTION not in Game("bfm", seed=1).options
    assert OPTION not in Game("bfm", options={OPTION: "four_from_start"}, seed=1).options
    g = Game("bfm", options={OPTION: "two_beyond_occupied"}, seed=1)
    assert g.options[OPTION] == "two_beyond_occupied"
    text = Record.from_game(g).to_text()
    assert "retreat_extension=two_beyond_occupied" in text
    assert Record.from_text(text).replay().state.rules.opt(OPTION) == "two_beyond_occupied"


# A position met in random play (seed 13, action 472) where the readings part: 5A in 0503 has
# a retreat only under two_beyond_occupied (16 of 310,277 defender positions in 40 random
# games differ in "has any retreat"; this is one).
PARTING = (
    "bfm ed=gdw1986 opt=retreat_extension:two_beyond_occupied t=6 ph=soviet_movement "
    "G=XXIV@0708,XLI@0105/h,LVII@0204/h,XLVI@0407,XLVII@0608,LVI@0706,XL@0306,XLVIII@0102/h,"
    "XXII@0304,XXXV@0502,VII@0303/h,VIII@0707,IX@0805,V@0203/h,XIII@0807,XX@0908,XXVII@0206/h,"
    "LIII@0305,VI@0308,XII@0104,XLII@0602 "
    "S=1SA@1103/h!,3A@1304!,5A@0503!,10A@0909!,13A@0903!,16A@0604!,19A@1001!,20A@1104!,"
    "24A@1408/h!,29A@0905!,30A@0505/h,32A@1309,33A@0804!,40A@1206!,43A@1007!,49A@1203!,50A@0704! "
    "ctl=0204,0307,0509,0805,0809 repl=0 arr=1SA stack=- step=declare battles=- cur=- res=-"
)


@pytest.mark.parametrize("reading", ["four_from_start", "two_beyond_occupied"])
def test_the_ai_estimates_retreats_under_the_reading_in_force(reading: str) -> None:
    """The German AI asks of planned positions whether a Soviet defender would have no retreat
    (a trapped defender is eliminated by a DR): its estimate gives the engine's answer under the
    reading in force. The position where the readings part, then every Soviet unit of
    positions along random games."""
    import random

    from typhoon.game import CHANCE
    from typhoon.games.bfm.ai.scoring import GermanScorer
    from typhoon.games.bfm.combat_phase import retreat_paths_of
    from typhoon.games.bfm.notation import position_from_text
    from typhoon.games.bfm.rules import GERMAN, SOVIET

    s = position_from_text(PARTING.replace("two_beyond_occupied", reading))
    d = s.rules.unit_index["5A"]
    trapped = reading == "four_from_start"
    assert (not retreat_paths_of(s, d)) is trapped
    assert GermanScorer(s, before_combat=True)._no_retreat(s.loc[d], s.occ[GERMAN]) is trapped
    checked = 0
    for seed in range(3):
        g = Game("bfm", options={OPTION: reading}, seed=seed)
        rng = random.Random(seed)
        while not g.state.is_terminal and len(g.history) < 400:
            if g.current_player() == CHANCE:
                g.roll()
                continue
            s = g.state
            if len(g.history) % 7 == 0 and s.turn > 1:
                scorer = GermanScorer(s, before_combat=True)
                for d in s.on_map(SOVIET):
                    assert scorer._no_retreat(s.loc[d], s.occ[GERMAN]) == (not retreat_paths_of(s, d))
                    checked += 1
            g.play(rng.choice(g.legal_actions()))
    assert checked > 300
