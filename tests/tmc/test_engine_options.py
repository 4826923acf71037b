"""Options for the [Qn] readings that change movement and sequence (data/options.json), and the
Kampfgruppe counter's movement (§8)."""

from __future__ import annotations

from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import END, Overrun
from typhoon.games.tmc.movement_phase import allowance
from typhoon.games.tmc.rules import TICKS

from .engine_fixtures import dests, make_map, make_rules, position, unit, within

ROSTER = [
    unit("G1", "german", 2, 5),
    unit("GP", "german", 6, 10, kind="armour"),
    unit("GR", "german", 2, 5, arrive=2),
    unit("S1", "soviet", 2, 4),
    unit("SB1", "soviet", 12, 4),
    unit("SB2", "soviet", 10, 4),
]


def test_forest_reading_option_non_mechanised_two() -> None:
    """[Q71] alternative reading forest_reading=mp2_nodrm: non-mechanised units pay 2 MP."""
    forest = tuple(f"{c:02d}{r:02d}" for c in range(1, 13) for r in range(1, 11))
    r = make_rules(ROSTER, make_map(forest=forest), options={"forest_reading": "mp2_nodrm"})
    s = position(r, {"G1": "0305"})
    assert dests(s, "G1") == within(r, "0305", 1, 2)


def test_zoc_across_lakes_option() -> None:
    """[Q6]: ZOC crosses lake hexsides (literal default); option zoc_across_lakes=no blocks it
    across unfrozen lake hexsides. S1 at 0505 with a lake between 0505 and 0405."""
    gm = make_map(lakes=(("0505", "0405"),))
    lit = position(make_rules(ROSTER, gm), {"G1": "0305", "S1": "0505"})
    assert (lit.zoc(1) >> lit.rules.grid.index["0405"]) & 1
    alt_rules = make_rules(ROSTER, gm, options={"zoc_across_lakes": "no"})
    alt = position(alt_rules, {"G1": "0305", "S1": "0505"})
    assert not (alt.zoc(1) >> alt_rules.grid.index["0405"]) & 1
    # entering 0405 costs 1 MP instead of 1 + 3: G1 (MA 5) gets farther past it
    assert "0406" in dests(alt, "G1")
    assert dests(lit, "G1") < dests(alt, "G1")


def test_overrun_by_german_only_option() -> None:
    """[Q33]: both sides may overrun (default); overrun_by=german denies it to the Soviets.
    SB1 (12) + SB2 (10) against G1 (2): 22:2 = 11-1 (no shift for the Soviets)."""
    for option, expected in (("both", True), ("german", False)):
        r = make_rules(ROSTER, make_map(), options={"overrun_by": option})
        s = position(r, {"G1": "0505", "SB1": "0604", "SB2": "0605", "GP": "0101"}, phase="soviet_movement")
        got = [a for a in engine.legal_actions(s) if isinstance(a, Overrun)]
        assert bool(got) is expected
        if expected:
            assert got == [Overrun("0505", ("SB1", "SB2"))]


def test_german_reinforcement_delay_option() -> None:
    """[Q60]: German reinforcements must enter when they can (default); the option lets the
    German player hold them back."""
    r = make_rules(ROSTER, make_map(), last=3)
    s = position(r, {"G1": "0305", "S1": "0905"}, turn=2)
    assert END not in engine.legal_actions(s)
    r2 = make_rules(ROSTER, make_map(), last=3, options={"german_reinforcement_delay": "yes"})
    s2 = position(r2, {"G1": "0305", "S1": "0905"}, turn=2)
    assert END in engine.legal_actions(s2)


def test_kampfgruppe_moves_as_mechanised_two_eight() -> None:
    """§8.1: a KG is a mechanised 2-8: MA 8, moves in the mechanised phase, forest costs 3."""
    r = make_rules(ROSTER, make_map(), last=3)
    s = position(r, {"GP": "0305", "G1": "0101"}, phase="german_mechanised")
    gp = r.unit_index["GP"]
    s.kg |= 1 << gp
    s._cache = {}
    s._legal = None
    assert s.cf(gp) == 2 and s.ma(gp) == 8
    assert allowance(s, gp) == 8 * TICKS
    assert dests(s, "GP") == within(r, "0305", 1, 8)
    assert "G1" not in {a.unit for a in engine.legal_actions(s) if a.kind == "move"}
