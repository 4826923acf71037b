"""Set-up (seed 002, «Начало игры» / "Starting the game"; bfm_data §2 set-up hexes)."""

from __future__ import annotations

import pytest

from typhoon.games.bfm.engine import new_game

from .helpers import GDW, VPG, assert_illegal, controller, legal, phase, play, steps, where
from .test_map_data import (
    SETUP_GERMAN_GDW,
    SETUP_GERMAN_VPG,
    SETUP_SOVIET_GDW,
    SETUP_SOVIET_VPG,
    SOVIET_ARMIES,
)

SOVIET_SETUP_UNITS = [f"{n}A" for n in SOVIET_ARMIES]  # every army but 1st Shock


def german_ids(s) -> list[str]:  # type: ignore[no-untyped-def]
    return [s.rules.units[u].id for u in s.rules.side_units[0]]


@pytest.mark.parametrize(("edition", "hexes"), [(GDW, SETUP_SOVIET_GDW), (VPG, SETUP_SOVIET_VPG)])
def test_soviet_setup_choices_exact(edition: str, hexes: set[str]) -> None:
    """«Начало игры»: the Soviet player sets up first, one army on each hammer-and-sickle hex;
    any army may go anywhere ("all Soviet units are alike"), but not 1st Shock Army (the
    10-strength army appears later). Plus the engine's one-command standard set-up."""
    s = new_game(edition)
    assert phase(s) == "setup_soviet" and s.turn == 0
    want = {f"place {u} {h}" for u in SOVIET_SETUP_UNITS for h in hexes} | {"setup standard"}
    assert legal(s) == want
    assert not any("1SA" in a for a in legal(s))


def test_soviet_units_set_up_at_half_strength() -> None:
    """«Начало игры»: one Soviet unit *at half strength* on each marked hex; after the last one
    the German player sets up."""
    s = new_game(GDW)
    placed = sorted(SETUP_SOVIET_GDW)
    s = play(s, *(f"place {u} {h}" for u, h in zip(SOVIET_SETUP_UNITS, placed)))
    assert phase(s) == "setup_german"
    for u, h in zip(SOVIET_SETUP_UNITS, placed):
        assert where(s, u) == h and steps(s, u) == 1
    # Left over: the three armies not placed and 1st Shock Army. (The translation says six are
    # left over; with 17 armies and 13 hexes it is four: a slip, bfm_data §2.)
    left = [u for u in [*SOVIET_SETUP_UNITS, "1SA"] if where(s, u) is None]
    assert sorted(left) == sorted([*SOVIET_SETUP_UNITS[13:], "1SA"])
    assert len(left) == 4


def test_soviet_placement_partial_choices() -> None:
    """After some placements only the remaining armies and the remaining empty marked hexes
    are offered, and the standard set-up is no longer offered (it places the whole side)."""
    s = play(new_game(GDW), "place 16A 0304", "place 5A 0509")
    hexes = SETUP_SOVIET_GDW - {"0304", "0509"}
    units = [u for u in SOVIET_SETUP_UNITS if u not in ("16A", "5A")]
    assert legal(s) == {f"place {u} {h}" for u in units for h in hexes}


@pytest.mark.parametrize(
    "bad",
    [
        "place 1SA 0301",  # 1st Shock Army may not start on the map
        "place 16A 0304",  # already placed
        "place 19A 0509",  # hex already taken
        "place 19A 0601",  # not a set-up hex
        "place 19A 0103",  # a German set-up hex
        "place XXIV 0301",  # not a Soviet unit
        "place ZZZ 0301",  # no such unit
        "move 19A 0301-0302",  # not a set-up action
        "end",
    ],
)
def test_illegal_soviet_placements(bad: str) -> None:
    """«Начало игры»: only the Soviet armies (not 1st Shock) go on the Soviet marked hexes,
    one per hex. Anything else raises IllegalActionError and changes nothing."""
    s = play(new_game(GDW), "place 16A 0304", "place 5A 0509")
    assert_illegal(s, bad)


@pytest.mark.parametrize(("edition", "hexes"), [(GDW, SETUP_GERMAN_GDW), (VPG, SETUP_GERMAN_VPG)])
def test_german_setup_choices_exact(edition: str, hexes: set[str]) -> None:
    """«Начало игры»: then the German player puts one full-strength unit on each cross, his
    choice of unit for each hex ("careful set-up matters")."""
    s = play(new_game(edition), "setup standard")
    assert phase(s) == "setup_german"
    want = {f"place {u} {h}" for u in german_ids(s) for h in hexes} | {"setup standard"}
    assert legal(s) == want
    assert len(want) == 22 * 22 + 1


def test_german_units_full_strength_then_panzer_phase() -> None:
    """«Начало игры»: German units set up at full strength; after set-up the German player
    begins with his panzer movement phase: all German units are at full strength, so there is
    no German replacement phase on turn 1."""
    s = play(new_game(GDW), "setup standard")
    units = german_ids(s)
    # The 22nd unit has one hex left: a decision with one answer, which the engine takes.
    s = play(s, *(f"place {u} {h}" for u, h in list(zip(units, sorted(SETUP_GERMAN_GDW)))[:21]))
    assert s.turn == 1 and phase(s) == "german_panzer_movement"
    for u, h in zip(units, sorted(SETUP_GERMAN_GDW)):
        assert where(s, u) == h and steps(s, u) == 2


@pytest.mark.parametrize("edition", [GDW, VPG])
def test_standard_setup_fills_every_marked_hex(edition: str) -> None:
    """The engine's quick start fills every marked hex of each side with one unit of that side,
    Soviet at half strength, German at full, 1st Shock Army off the map."""
    s = play(new_game(edition), "setup standard", "setup standard")
    m = s.rules.map
    for side, want_steps in (("soviet", 1), ("german", 2)):
        for h in m.setup[side]:
            u = s.at[h]
            assert u >= 0 and s.rules.units[u].side == ("german", "soviet").index(side)
            assert s.steps[u] == want_steps
    assert where(s, "1SA") is None
    on_map = sum(1 for u in s.rules.side_units[1] if s.loc[u] >= 0)
    assert on_map == len(m.setup["soviet"])
    assert sum(1 for u in s.rules.side_units[0] if s.loc[u] >= 0) == 22


def test_city_control_after_setup() -> None:
    """«Пополнения»: all cities start Soviet-controlled except those already occupied by a
    German unit: Smolensk (0204) and Roslavl (0307) are German set-up hexes."""
    s = play(new_game(GDW), "setup standard", "setup standard")
    cities = ("0204", "0307", "0509", "0601", "0603", "0803", "0805", "0809", "1103", "1107", "1405")
    assert {h for h in cities if controller(s, h) == "german"} == {"0204", "0307"}


def test_german_place_illegal() -> None:
    """«Начало игры»: German units only on crosses, one per hex, each unit once."""
    s = play(new_game(GDW), "setup standard", "place XXIV 0103")
    for bad in ("place XXIV 0104", "place XLI 0103", "place XLI 0301", "place 16A 0104", "place XLI 0108"):
        assert_illegal(s, bad)
    assert_illegal(s, "setup standard")  # only before any unit of the side is placed
