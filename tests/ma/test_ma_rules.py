"""Seed 001 rules on hand-worked positions: calendar and weather, movement, supply and isolation,
replacements, reinforcements, rail movement, victory; and the data files' provenance."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from typhoon.errors import DataError, OptionError
from typhoon.games.ma import rules as ma_rules
from typhoon.games.ma.engine import (
    in_supply,
    isolated,
    move_options,
    movement_allowance,
    new_game,
    rail_options,
    supply_lengths,
)
from typhoon.games.ma.rules import hex_id, hex_index, load_rules
from typhoon.games.ma.state import DISPERSED, ELIM, OFF, READY

from .world import at, play, texts, world


def _u(s, name):  # type: ignore[no-untyped-def]
    return s.rules.unit_index[name]


# ---------------------------------------------------------------- data and set-up
def test_every_data_file_has_a_source_and_every_item_a_provenance() -> None:
    for name in ("map.json", "units.json", "calendar.json", "tables.json"):
        data = json.loads(resources.files("typhoon.games.ma").joinpath("data").joinpath(name).read_text())
        assert data["source"] and data["provenance"]
    m = json.loads(resources.files("typhoon.games.ma").joinpath("data").joinpath("map.json").read_text())
    assert len(m["hexes"]) == 130 and all("provenance" in h for h in m["hexes"])
    assert all("provenance" in x for x in m["rivers"] + m["railways"] + m["roads"])


def test_a_bad_data_file_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ma_rules._load

    def bad(name: str) -> dict[str, object]:
        data = real(name)
        if name == "units.json":
            data["units"][0]["attack"] = "many"
        return data

    ma_rules._base.cache_clear()
    monkeypatch.setattr(ma_rules, "_load", bad)
    try:
        with pytest.raises(DataError, match="bad attack"):
            ma_rules._base()
    finally:
        monkeypatch.setattr(ma_rules, "_load", real)
        ma_rules._base.cache_clear()


def test_set_up_is_seed_001() -> None:
    s = new_game()
    seed = {
        "2K": "M2",
        "23K": "L1",
        "9A": "K1",
        "106ID": "K1",
        "6K": "J1",
        "35ID": "J1",
        "3PzGp": "I2",
        "56PzK": "I2",
        "7PzDiv": "I2",
        "5K": "H1",
        "5PzDiv": "H1",
        "4A": "G2",
        "7K": "G2",
        "87ID": "G2",
        "4PzGp": "F1",
        "46PzK": "F1",
        "6PzDiv": "F1",
        "40PzK": "E2",
        "12K": "E2",
        "2PzDiv": "E2",
        "2A": "D1",
        "13K": "D1",
        "35K": "C1",
        "47PzK": "B1",
        "34K": "B1",
        "17PzDiv": "B1",
        "2PzGp": "A2",
        "24PzK": "A2",
        "4PzDiv": "A2",
        "Yermakov": "A3",
        "13A": "B2",
        "3A": "C2",
        "50A": "D2",
        "Reiter": "D3",
        "43A": "E3",
        "33A": "E4",
        "24A": "F2",
        "20A": "G3",
        "16A": "H2",
        "Boldin": "H2",
        "32A": "H3",
        "19A": "I3",
        "49A": "I4",
        "Lelyushenko": "I7",
        "30A": "J2",
        "Dovator": "J2",
        "31A": "J3",
        "29A": "K2",
        "22A": "L2",
        "Vatutin": "M4",
    }
    assert {n: at(s, n) for n in seed} == seed
    assert at(s, "5A") is None and s.loc[_u(s, "5A")] == OFF  # a turn-3 reinforcement
    r = s.rules
    assert (r.place[hex_index("H1")], r.place[hex_index("J3")], r.place[hex_index("I7")]) == (
        "Smolensk",
        "Rzhev",
        "Moscow",
    )


def test_calendar_and_editions_are_seed_001() -> None:
    r = load_rules("campaign")
    assert r.weather[1:] == ("good", "mud", "frost", "frost", *["snow"] * 6)
    assert r.last_turn == 10 and load_rules("basic").last_turn == 6
    names = [[r.units[u].id for u in r.reinforcements[t]] for t in range(1, 11)]
    assert names[1] == ["32RD", "316RD"] and names[6] == ["3ShockA", "4ShockA"] and names[7] == []


def test_bad_options_are_refused() -> None:
    with pytest.raises(OptionError):
        load_rules("basic", {"d_ae": "sometimes"})
    with pytest.raises(OptionError):
        load_rules("nope")


# ---------------------------------------------------------------- movement and weather
def test_movement_allowances_by_weather() -> None:
    """Seed: Mud German armies 2, all others 3; Snow German infantry 2, other German 3, Soviets
    unchanged; Hard Frost as Good."""
    s = world({"4A": "B5", "7K": "B6", "4PzGp": "B7", "Boldin": "C9"})
    mud = s.replace(turn=2)
    snow = s.replace(turn=5)
    frost = s.replace(turn=3)
    ma = lambda st, n: movement_allowance(st, _u(st, n))  # noqa: E731
    assert [ma(mud, n) for n in ("4A", "7K", "4PzGp", "Boldin")] == [2, 3, 3, 3]
    assert [ma(snow, n) for n in ("4A", "7K", "4PzGp", "Boldin")] == [2, 2, 3, 5]
    assert [ma(frost, n) for n in ("4A", "7K", "4PzGp", "Boldin")] == [4, 4, 6, 5]
    assert (
        movement_allowance(
            mud.replace(rules=load_rules("basic", {"mud_soviet_ma": "printed"})), _u(s, "Boldin")
        )
        == 5
    )


def test_no_zones_of_control_but_no_entering_enemy_hexes() -> None:
    """6.1: no ZOC stops movement; enemy-occupied hexes cannot be entered."""
    s = world({"4PzGp": "B5", "43A": "B6", "13A": "C6"}, phase="g_movement")
    reach = {hex_id(h) for h in move_options(s, _u(s, "4PzGp"))}
    assert "B6" not in reach and "C6" not in reach
    assert "B7" in reach  # past the Soviet units, no zone of control


def test_stacking_at_most_one_army_level_unit() -> None:
    s = world({"4A": "B5", "2A": "B6"}, phase="g_movement")
    assert "move 4A B6" not in texts(s)


# ---------------------------------------------------------------- supply and isolation
def test_supply_lengths_by_weather() -> None:
    s = new_game("campaign")
    assert [supply_lengths(s.replace(turn=t), 0) for t in (1, 2, 3, 5)] == [5, 3, 5, 3]
    assert [supply_lengths(s.replace(turn=t), 1) for t in (1, 2, 3, 5)] == [5, 4, 5, 4]


def test_surrounded_unit_is_isolated_and_lost_in_its_isolation_phase() -> None:
    """9.4: a group of isolated units loses one unit of the owner's choice."""
    ring = ["B5", "B7", "A6", "A7", "C6", "C7"]
    units = {n: h for n, h in zip(["4A", "7K", "2A", "13K", "9A", "12K"], ring, strict=True)}
    units.update({"43A": "B6", "33A": "B6"})
    s = world(units, phase="s_operational", turn=2)
    assert isolated(s, _u(s, "43A")) and not in_supply(s, _u(s, "33A"))
    iso = play(s, "end")  # into the Russian isolation phase
    assert sorted(texts(iso)) == ["lose 33A", "lose 43A"]
    iso = play(iso, "lose 33A")
    assert iso.loc[_u(iso, "33A")] == ELIM and iso.loc[_u(iso, "43A")] >= 0


def test_tula_supplies_only_units_on_it() -> None:
    """9.2: Tula is a Soviet supply source for the units on it only."""
    ring = {"4A": "F5", "7K": "F7", "2A": "E6", "13K": "E7", "9A": "G6", "12K": "G7"}
    on = world({**ring, "49A": "F6"}, turn=2)
    assert in_supply(on, _u(on, "49A")) and not isolated(on, _u(on, "49A"))


# ---------------------------------------------------------------- replacements, reinforcements, rail
def test_replacement_factors_from_turn_two_and_entry_dispersed() -> None:
    """Seed: from turn 2, 4 infantry-army factors a turn, banked; a replacement enters Dispersed on a
    city in supply with a rail line east, always on Moscow."""
    s = play(world({"16A": "I6"}, phase="g_operational", turn=2), "end")
    assert s.phase_spec.key == "s_reinforce" and s.repl == 4
    assert "replace 19A I7" in texts(s)  # 19A (defense 3) was eliminated by world()
    assert not any(t.startswith("replace Dovator") for t in texts(s))  # groups are never replaced
    s = play(s, "replace 19A I7")
    assert s.status[_u(s, "19A")] == DISPERSED and s.repl == 1
    assert not any(t.endswith(" I7") and t.startswith("replace") for t in texts(s))  # one per city


def test_reinforcements_arrive_ready_next_to_a_supplied_unit() -> None:
    s = world({"16A": "I6"}, phase="s_reinforce", turn=2)
    opts = [t for t in texts(s) if t.startswith("reinforce 32RD")]
    assert "reinforce 32RD I5" in opts and "end" not in texts(s)  # they must be placed
    s = play(s, "reinforce 32RD I5")
    assert s.status[_u(s, "32RD")] == READY


def test_rail_movement_blocked_next_to_german_korps_and_ends_dispersed() -> None:
    s = world({"16A": "I7", "12K": "H4"}, phase="s_reinforce", turn=1)
    dests = {hex_id(h) for h in rail_options(s, _u(s, "16A"))}
    assert "I5" not in dests and "I4" not in dests  # empty I5 is next to the korps in H4
    assert "K5" in dests
    s = play(s, "rail 16A K5")
    assert s.status[_u(s, "16A")] == DISPERSED


def test_voluntary_elimination() -> None:
    s = world({"16A": "I7"}, phase="s_reinforce", turn=1)
    s = play(s, "disband 16A")
    assert s.loc[_u(s, "16A")] == ELIM


# ---------------------------------------------------------------- victory
def test_german_victory_smolensk_bryansk_moscow_supplied() -> None:
    s = world({"4A": "I7", "2A": "D3", "5K": "H1", "43A": "M9"}, phase="g_operational")
    s = s.replace(control=s.control | 1 << hex_index("I7") | 1 << hex_index("D3"))
    assert play(s, "end").result == "german"
    # Moscow last occupied by a Soviet unit: no German victory.
    s2 = s.replace(control=s.control & ~(1 << hex_index("I7")))
    assert play(s2, "end").result is None


def test_basic_game_is_soviet_if_the_german_has_not_won() -> None:
    s = play(world({"4A": "B5", "43A": "M9"}, phase="s_operational", turn=6), "end")
    assert s.result == "soviet"


def test_campaign_end_without_winner_is_a_draw() -> None:
    """Q10 (reading): draw. 12.2: the Soviet wins a Campaign game from turn 7 if the six cities are
    his and in his supply, so Rzhev is made German-held here."""
    s = world({"4A": "B5", "43A": "M9"}, phase="s_operational", turn=10, edition="campaign")
    assert play(s, "end").result == "soviet"  # all six cities Soviet and supplied
    held = s.replace(control=s.control | 1 << hex_index("J3"))
    assert play(held, "end").result == "draw"


def test_tula_does_not_supply_its_neighbours() -> None:
    ring = {"4A": "F5", "7K": "F7", "2A": "E6", "13K": "E7", "9A": "G6", "12K": "G7"}
    s = world({**ring, "49A": "F6"}, turn=2)
    from typhoon.games.ma.engine import supply_line

    assert supply_line(s, 1, hex_index("F6")) == 0 and supply_line(s, 1, hex_index("F5")) > 0


def test_recovery_and_re_facing() -> None:
    """§2 (reading R2): the owner's Dispersed units recover in his Initial Phase; every Spent unit
    re-faces at the end of the game-turn."""
    s = world({"4A": "B5", "43A": "M9"}, phase="s_operational", status={"4A": 1, "43A": 2})
    s = play(s, "end")  # Soviet isolation, victory, re-facing, then German Initial of turn 2
    assert s.turn == 2 and s.status[_u(s, "4A")] == READY
    assert s.status[_u(s, "43A")] == DISPERSED  # the Soviet recovers in his own Initial Phase
    s = play(s, "end", "end", "end")  # German prepared, movement, operational
    assert s.phase_spec.key == "s_reinforce" and s.status[_u(s, "43A")] == READY


def test_road_bonus_and_river_cost() -> None:
    """§3.4 (reconstruction): a move wholly along a road gets 2 hexes more; Mud: only the
    Moscow-Smolensk highway."""
    good = world({"7K": "H1"}, phase="g_movement")
    reach = {hex_id(h) for h in move_options(good, _u(good, "7K"))}
    assert "I6" in reach  # H1-H2-H3-I4-I5-I6 along the highway: 5 hexes with MA 4
    mud = good.replace(turn=2)
    assert "I4" in {hex_id(h) for h in move_options(mud, _u(mud, "7K"))}  # MA 3 + 2 on the highway


def test_a_city_changes_hands_when_entered() -> None:
    s = world({"4PzGp": "F4", "43A": "M9"}, phase="g_movement")
    assert s.controller(hex_index("F5")) == 1
    s = play(s, "move 4PzGp F5")
    assert s.controller(hex_index("F5")) == 0
