"""The TMC ``operational`` level (issue 14 items 1-2): legal decisions to the end of a short game
for both sides, and its plans on hand-built positions (rules_en.md §11 supply, §14 overruns,
§20 rail movement, §23 Moscow)."""

from __future__ import annotations

from typing import Any

import pytest

from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import Entrain, Move
from typhoon.games.tmc.ai import LEVELS
from typhoon.games.tmc.ai.heuristic import TmcHeuristic
from typhoon.games.tmc.ai.operational import OperationalPlanner, TmcOperational, soviet_supplied
from typhoon.games.tmc.rules import GERMAN, SOVIET
from typhoon.games.tmc.supply import supply_now

from .engine_fixtures import make_map, make_rules, position, started, unit
from .test_ai_tmc import _play_phase, play_checked


def test_operational_is_a_tmc_level_and_heuristic_is_unchanged() -> None:
    """The new player is its own level name; ``heuristic`` stays the rules-of-thumb player
    (its fixed-seed games are pinned by tests/test_speed_identity.py)."""
    assert isinstance(LEVELS["operational"](1), TmcOperational)
    h = LEVELS["heuristic"](1)
    assert type(h) is TmcHeuristic


def test_soviet_supply_with_extra_german_units_matches_the_engine() -> None:
    """§11.2: the AI's hypothetical supply (German units added) is the engine's supply when
    nothing is added, and a German unit can only shrink Soviet supply."""
    s = engine.new_game("1")
    while s.phase_spec.kind == "setup":
        s, _ = engine.apply(s, engine.legal_actions(s)[0])
    base = soviet_supplied(s)
    assert base == supply_now(s, SOVIET).in_supply
    h = (
        s.rules.grid.index["3040"]
        if "3040" in s.rules.grid.index
        else s.rules.grid.hexes[len(s.rules.grid.hexes) // 2]
    )
    assert soviet_supplied(s, 1 << h) & ~base == 0


def _short_rules() -> Any:
    row = tuple(f"{c:02d}05" for c in range(1, 13))
    m = make_map(rails=(row,), repaired=row[:5], moscow=("1208", "1209", "1210"))
    units = [
        unit("GA1", "german", 6, 10, "0403", kind="armour"),
        unit("GA2", "german", 6, 10, "0407", kind="armour"),
        unit("GI1", "german", 2, 5, "0502"),
        unit("GI2", "german", 2, 5, "0505"),
        unit("GI3", "german", 2, 5, "0508"),
        unit("GI4", "german", 2, 5, "0510"),
        unit("SR1", "soviet", 2, 4, "0702"),
        unit("SR2", "soviet", 2, 4, "0705"),
        unit("SR3", "soviet", 2, 4, "0708"),
        unit("SR4", "soviet", 2, 4, "0710"),
        unit("SR5", "soviet", 2, 4, "1208"),
    ]
    return make_rules(units, m, first=1, last=2)


@pytest.mark.parametrize("side", [GERMAN, SOVIET])
def test_operational_plays_a_short_game_to_the_end(side: int) -> None:
    """Two game turns on a small map: every decision is legal (Game.play refuses any other)
    and the game ends with a §24 level."""
    from typhoon.game import CHANCE

    ai = TmcOperational(5)
    other = TmcHeuristic(6)
    players = (ai, other) if side == GERMAN else (other, ai)
    s = started(_short_rules())
    n = 0
    while not s.is_terminal:
        if s.is_chance:
            s = engine.apply_unchecked(s, engine.ROLLS[n % 6])
            n += 1
            continue
        acts = engine.legal_actions(s)
        who = s.current_player()
        assert who != CHANCE
        a = players[who].choose(s, acts)
        assert a in acts
        s, _ = engine.apply(s, a)
    assert s.result in ("german", "soviet") and s.level
    assert ai.explain()


@pytest.mark.parametrize("side", [GERMAN, SOVIET])
def test_operational_plays_a_turn_of_scenario_1_either_side(side: int) -> None:
    """The real map: one game turn, each side, against the heuristic."""
    ai = TmcOperational(5)
    other = TmcHeuristic(6)
    players = (ai, other) if side == GERMAN else (other, ai)
    g = play_checked(players, "1", seed=41 + side, last_turn=1)
    assert g.state.turn >= 2 or g.is_over
    assert ai.explain()


def _gap_position() -> Any:
    """German mechanised phase: a Soviet line in column 08 with a gap at rows 4-6 (SR1's ZOC
    ends at row 3, SR2's starts at row 7) and a panzer division west of it."""
    row = tuple(f"{c:02d}05" for c in range(1, 13))
    m = make_map(rails=(row,), repaired=row[:5], moscow=("1208", "1209", "1210"))
    rules = make_rules(
        [
            unit("GA1", "german", 6, 10, kind="armour"),
            unit("SR1", "soviet", 2, 4),
            unit("SR2", "soviet", 2, 4),
            unit("SR3", "soviet", 2, 4),
        ],
        m,
    )
    return rules, position(
        rules, {"GA1": "0505", "SR1": "0802", "SR2": "0808", "SR3": "0809"}, phase="german_mechanised"
    )


def test_a_gap_in_the_soviet_line_is_exploited_by_a_panzer() -> None:
    """Issue 14 item 1: in the mechanised phase the panzer drives through the gap behind the
    Soviet units (nearer Moscow than they are), and says so."""
    rules, s = _gap_position()
    player = TmcOperational(1)
    after, taken = _play_phase(s, player)
    moves = [a for a in taken if isinstance(a, Move) and a.unit == "GA1"]
    assert moves, "the panzer moves"
    end = after.loc[rules.unit_index["GA1"]]
    col = rules.grid.coords[end][0]
    assert col >= 9, f"GA1 ends in {rules.grid.ids[end]}, not behind the line"
    assert "exploit" in player.planner(s).plan.notes[rules.unit_index["GA1"]]


def _moscow_threat() -> tuple[Any, Any]:
    """Soviet movement: a German spearhead 4 hexes from Moscow, Moscow garrisoned, and a rifle
    division far east on normal rail (24 columns; rail along row 05)."""
    row = tuple(f"{c:02d}05" for c in range(1, 25))
    m = make_map(cols=24, rails=(row,), repaired=row[:5], moscow=("1208", "1209", "1210"))
    rules = make_rules(
        [
            unit("GA1", "german", 6, 10, kind="armour"),
            unit("SG1", "soviet", 3, 4),
            unit("SG2", "soviet", 3, 4),
            unit("SG3", "soviet", 3, 4),
            unit("SR9", "soviet", 3, 4),
        ],
        m,
    )
    return rules, position(
        rules,
        {"GA1": "0806", "SG1": "1208", "SG2": "1209", "SG3": "1210", "SR9": "2405"},
        phase="soviet_movement",
    )


def test_a_threatened_moscow_gets_reserves_by_rail() -> None:
    """Issue 14 item 2 (§20): the far reserve entrains and rides toward the threatened sector;
    the heuristic (rail for arriving reinforcements only) walks it 4 hexes."""
    rules, s = _moscow_threat()
    dist = rules.grid.distance
    moscow = rules.grid.index["1208"]
    sr9 = rules.unit_index["SR9"]
    after, taken = _play_phase(s, TmcOperational(1))
    assert Entrain("SR9") in taken
    op_dist = dist(after.loc[sr9], moscow)
    h_after, _ = _play_phase(s, TmcHeuristic(1))
    h_dist = dist(h_after.loc[sr9], moscow)
    assert op_dist <= 6 < h_dist, (op_dist, h_dist)


def _weak_moscow() -> tuple[Any, Any]:
    """Soviet movement: a German panzer 3 hexes from Moscow; Moscow hex 1208 held by two 1-CF
    militia, two strong rifle divisions two hexes east, the other Moscow hexes held."""
    row = tuple(f"{c:02d}05" for c in range(1, 15))
    m = make_map(cols=14, rails=(row,), repaired=row[:5], moscow=("1208", "1209", "1210"))
    rules = make_rules(
        [
            unit("GA1", "german", 6, 10, kind="armour"),
            unit("SM1", "soviet", 1, 4),
            unit("SM2", "soviet", 1, 4),
            unit("SS1", "soviet", 4, 4),
            unit("SS2", "soviet", 3, 4),
            unit("SG9", "soviet", 2, 4),
            unit("SG8", "soviet", 2, 4),
        ],
        m,
    )
    return rules, position(
        rules,
        {
            "GA1": "0908",
            "SM1": "1208",
            "SM2": "1208",
            "SS1": "1408",
            "SS2": "1409",
            "SG9": "1209",
            "SG8": "1210",
        },
        phase="soviet_movement",
    )


def test_a_threatened_moscow_is_held_by_its_strongest_defenders() -> None:
    """Issue 14 item 2 (§23 Moscow): with the Germans 3 hexes away, the strongest divisions that
    can reach the hex garrison Moscow and a weaker unit makes room; the heuristic keeps whoever
    stands there."""
    rules, s = _weak_moscow()
    idx = rules.unit_index
    moscow = rules.grid.index["1208"]
    after, _ = _play_phase(s, TmcOperational(1))
    assert after.loc[idx["SS1"]] == moscow and after.loc[idx["SS2"]] == moscow
    assert [after.loc[idx[u]] for u in ("SM1", "SM2")].count(moscow) == 1
    h_after, _ = _play_phase(s, TmcHeuristic(1))
    assert h_after.loc[idx["SM1"]] == moscow and h_after.loc[idx["SM2"]] == moscow
    assert h_after.loc[idx["SS1"]] != moscow


def test_two_spearheads_close_a_pocket_together() -> None:
    """Issue 14 item 1 ("close pockets (cut supply behind Soviet groups)", plans explained in
    words): in scenario 1's first German mechanised phase (operational against operational,
    seed 1) the plan sends two arms that cut supply together to Soviet units that neither cuts
    alone, and says where they meet. The greedy exploitation alone never sends the first arm
    of such a pair (it cuts nothing by itself)."""
    from typhoon.game import CHANCE, Game
    from typhoon.games.tmc.ai.board import elim_vp
    from typhoon.games.tmc.ai.operational import PINCER_MIN, OperationalPlanner

    g = Game("tmc", "1", seed=1)
    players = {GERMAN: TmcOperational(1), SOVIET: TmcOperational(2)}
    while not (g.state.side == GERMAN and g.state.rules.phases[g.state.phase].movers == "mech"):
        if g.current_player() == CHANCE:
            g.roll()
        else:
            g.play(players[g.current_player()].choose(g.state, g.legal_actions()))
    s = g.state
    p = OperationalPlanner(s, notes=True)
    pocket = [line for line in p.summary if "close a pocket near" in line]
    assert pocket, p.summary
    arms = [u for u, note in p.plan.notes.items() if "close a pocket" in note]
    assert len(arms) == 2
    d1, d2 = (p.plan.targets[u] for u in arms)
    base = soviet_supplied(s)

    def cut(extra: int) -> float:
        sup = soviet_supplied(s, extra)
        return sum(
            float(elim_vp(s, u))
            for u in s.rules.side_units[SOVIET]
            if s.loc[u] >= 0 and (base >> s.loc[u]) & 1 and not (sup >> s.loc[u]) & 1
        )

    assert cut((1 << d1) | (1 << d2)) - cut(1 << d1) - cut(1 << d2) >= PINCER_MIN


LEADERS = ("1804", "1904", "2004", "1811", "1911", "2011")  # six panzers near Moscow


def _pocket_position(
    phase: str = "german_mechanised",
    panzers: tuple[str, ...] = ("0703", "1003", "1303", "0711", "1011", "1311"),
    infantry: tuple[str, ...] = (),
    slow: str | None = None,
) -> tuple[Any, Any]:
    """A 20 x 14 map with one rail line along row 07 (its east end the Soviet supply source,
    §11.2): seven Soviet units round a town called Bryansk (0907), a German infantry line in
    column 05 (plus ``infantry``), panzer divisions GA0.. on ``panzers`` (by default three
    north and three south of the Soviet group, mechanised phase), six more near Moscow (the
    leading units, which drive on and take no part in rings) and, on ``slow``, a motorised
    unit of MA 3 (GM)."""
    row = tuple(f"{c:02d}07" for c in range(1, 21))
    m = make_map(cols=20, rows=14, rails=(row,), repaired=row[:5], moscow=("1907", "1908", "2007"))
    m.places = {"Bryansk": m.grid.index["0907"]}  # type: ignore[attr-defined]
    soviet = ("0806", "0808", "0906", "0908", "1006", "1008", "1007")
    line = ("0503", "0506", "0509", "0512", *infantry)
    armour = (*panzers, *LEADERS)
    units = [unit(f"S{i}", "soviet", 2, 4) for i in range(len(soviet))]
    units += [unit(f"GI{i}", "german", 2, 5) for i in range(len(line))]
    units += [unit(f"GA{i}", "german", 6, 10, kind="armour") for i in range(len(armour))]
    place = {f"S{i}": h for i, h in enumerate(soviet)}
    place |= {f"GI{i}": h for i, h in enumerate(line)}
    place |= {f"GA{i}": h for i, h in enumerate(armour)}
    if slow is not None:
        units.append(unit("GM", "german", 3, 3, kind="motorised"))
        place["GM"] = slow
    rules = make_rules(units, m)
    return rules, position(rules, place, phase=phase)


def test_the_cheapest_ring_around_a_pocket_cuts_its_units_off() -> None:
    """§11.2, §11.4: the minimum cut of pocket_cut, blocked (German units on its hexes: they and
    their ZOC block Soviet supply lines), puts every Soviet unit inside out of supply; the
    German infantry line's hexes and ZOC are walls already and are not in the ring."""
    from typhoon.games.tmc.ai.operational import pocket_cut

    rules, s = _pocket_position()
    g = rules.grid
    soviet = [u for u in rules.side_units[SOVIET]]
    assert all((soviet_supplied(s) >> s.loc[u]) & 1 for u in soviet)
    infantry = 0
    for u in rules.side_units[GERMAN]:
        if not s.is_mech(u):
            infantry |= 1 << s.loc[u]
    cost, ring = pocket_cut(s, g.index["0907"], infantry, g.all_mask, [s.loc[u] for u in soviet])
    assert 0 < cost == len(ring) < 30
    assert not any(g.distance(h, x) <= 1 for h in ring for x in (g.index["0506"], g.index["0509"]))
    walls = infantry
    for h in ring:
        walls |= 1 << h
    sup = soviet_supplied(s, german=walls)
    assert not any((sup >> s.loc[u]) & 1 for u in soviet)


def test_panzers_close_a_ring_around_a_pocket_town() -> None:
    """Issue 14 item 1 ("close pockets", explained in words): in the mechanised phase the
    panzers north and south of the Soviet group take the hexes of the cheapest ring around the
    town, the plan says so, and once they stand there every Soviet unit of the group is out of
    supply (the engine's own supply trace, §11.2)."""
    rules, s = _pocket_position()
    p = OperationalPlanner(s, notes=True)
    assert any("close the ring around Bryansk: 7 Soviet units cut off" in line for line in p.summary), (
        p.summary
    )
    ring = [u for u, note in p.plan.notes.items() if "close the ring" in note]
    assert 3 <= len(ring) <= 6
    ids = {rules.units[u].id for u in ring}
    assert not ids & {f"GA{i}" for i in range(6, 12)}, ids  # the leaders drive on
    after, _ = _play_phase(s, TmcOperational(1))
    sup = supply_now(after, SOVIET).in_supply
    assert not any((sup >> after.loc[u]) & 1 for u in rules.side_units[SOVIET])


def test_the_first_movement_phase_places_the_arms_and_sends_a_spearhead_at_the_gap() -> None:
    """Issue 14 item 1, a plan over two phases: in the first movement phase three panzers take
    ring hexes (three quarters of the ring blocked: the arms placed), and a slow motorised unit
    that cannot reach the ring this phase drives on its open part, to close it in the
    mechanised phase; both say so."""
    rules, s = _pocket_position("german_movement", panzers=("0702", "1002", "1302"), slow="0414")
    p = OperationalPlanner(s, notes=True)
    assert any("ring around Bryansk: 75% of 12 hexes blocked" in line for line in p.summary), p.summary
    assert any(
        "1 spearhead(s) drive on the open part of the ring around Bryansk" in line for line in p.summary
    )
    idx = rules.unit_index
    arms = [u for u, note in p.plan.notes.items() if note.startswith("ring around Bryansk")]
    assert {rules.units[u].id for u in arms} == {"GA0", "GA1", "GA2"}
    gm = idx["GM"]
    assert p.plan.notes[gm].startswith("spearhead of the ring around Bryansk: drives on")
    goal = p.goals[gm]
    g = rules.grid
    assert g.distance(p.plan.targets[gm], goal) < g.distance(s.loc[gm], goal)


def test_a_closed_pocket_releases_its_ring() -> None:
    """Once the Soviet units round the town are out of supply at the start of a German phase
    (German infantry rings them), the pocket is closed: no unit is held for the ring."""
    ring = ("0804", "1004", "1105", "1207", "1109", "1010", "0810")
    rules, s = _pocket_position("german_movement", panzers=("0702",), infantry=ring)
    sup = soviet_supplied(s)
    assert not any((sup >> s.loc[u]) & 1 for u in rules.side_units[SOVIET])
    p = OperationalPlanner(s, notes=True)
    assert "the pocket at Bryansk is closed: its ring is released" in p.summary
    assert not any("ring" in note for note in p.plan.notes.values())
    assert not p.goals
