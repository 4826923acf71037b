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
