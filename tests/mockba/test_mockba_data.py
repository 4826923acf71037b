"""MOCKBA data: every reconstructed table as data with provenance, the seed's cells kept exactly,
the map generator reproducible, the set-up within the seed's limits (seed 000 "Game preparation")."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from typhoon.errors import OptionError
from typhoon.games.mockba import mapgen
from typhoon.games.mockba.engine import _fits, distance, new_game
from typhoon.games.mockba.rules import SOVIET, editions, load_rules, option_specs

FILES = ("map.json", "units.json", "calendar.json", "tables.json")


def _data(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads(
        resources.files("typhoon.games.mockba").joinpath("data", name).read_text(encoding="utf-8")
    )


@pytest.mark.parametrize("name", FILES)
def test_every_data_file_names_its_source_and_provenance(name: str) -> None:
    d = _data(name)
    assert d["provenance"] == "reconstruction" and len(d["source"]) > 40


def test_crt_continuation_rule_each_row_the_last_moved_one_column_left() -> None:
    """gaps.md MO-C1 (alternative A): rows 3-6 each = the row above moved one column left, DE added;
    alternative B as option crt=b differs in row 3, 1:2 only (A1)."""
    r = load_rules()
    for d in (3, 4, 5, 6):
        assert r.crt[d][:-1] == r.crt[d - 1][1:] and r.crt[d][-1] == "DE"
    b = load_rules(options={"crt": "b"})
    diff = [(d, i) for d in range(1, 7) for i in range(9) if r.crt[d][i] != b.crt[d][i]]
    assert diff == [(3, 1)] and b.crt[3][1] == "A1"
    assert _data("tables.json")["crt"]["row_provenance"]["1"] == "seed"


def test_calendar_keeps_the_seeds_fixed_points() -> None:
    """Seed calendar/TEC: 10 turns; turn 1 river +1 and air 10 : 3; turn 2 river +1; turns 4-5 river
    +2; no German exploitation on 5, 6, 8, 9, 10, restricted on 3, 4, 7; MF 2 never reduced."""
    r = load_rules()
    cal = r.calendar[1:]
    assert len(cal) == 10 and r.last_turn == 10
    assert (cal[0]["air"]["german"], cal[0]["air"]["soviet"]) == (10, 3)
    assert [t["river"] for t in cal[:5]] == [1, 1, 1, 2, 2]
    assert [t["turn"] for t in cal if t["german_mf_reduction"]["exploitation"] is None] == [5, 6, 8, 9, 10]
    for t in (3, 4, 7):
        assert any(cal[t - 1]["german_mf_reduction"]["exploitation"].values())
    assert all("2" not in t["german_mf_reduction"]["first"] for t in cal)
    assert cal[2]["rebuild"] > 0 and cal[1]["rebuild"] == 0  # rebuilt units from turn 3 (seed)


def test_seed_order_of_battle_lines() -> None:
    """Seed OOB table: German 9 Army 13 x 4-3, 1 x 3-2; 3 Panzer 4 x 4-3, 2 x 5-6, 3 x 7-6;
    Soviet 3 Army 6 x 1-3, 2-4, 2-4 armoured, 2-3; 13 Army 7, 1, 1, 1; 16 Army 7 x 1-3, 1 x 2-4."""
    r = load_rules()

    def count(army: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for u in r.units:
            if u.army == army:
                key = f"{u.cf}-{u.mf}{'A' if u.kind == 'armor' and u.side == SOVIET else ''}"
                out[key] = out.get(key, 0) + 1
        return out

    assert count("G9A") == {"4-3": 13, "3-2": 1}
    assert count("G3P") == {"4-3": 4, "5-6": 2, "7-6": 3}
    assert count("3A") == {"1-3": 6, "2-4": 1, "2-4A": 1, "2-3": 1}
    assert count("13A") == {"1-3": 7, "2-4": 1, "2-4A": 1, "2-3": 1}
    assert count("16A") == {"1-3": 7, "2-4": 1}


def test_victory_cities_ten_with_moscow_and_the_map_eleven_major_cities() -> None:
    """Seed: 11 major cities on the map; the calendar's 10 cities, Moscow 8 (17 in all)."""
    r = load_rules()
    assert len(r.cities) == 11 and len(r.victory) == 10
    assert {h for h, _, _ in r.victory} < set(r.cities.values())


def test_options_and_editions() -> None:
    assert "standard" in editions()
    specs = option_specs("standard")
    assert {"crt", "victory_cities", "score_five", "opt1_dug_in_zoc", "opt7_das_reich"} <= set(specs)
    with pytest.raises(OptionError):
        load_rules(options={"crt": "z"})
    with pytest.raises(OptionError):
        load_rules(options={"nonsense": "1"})
    with pytest.raises(OptionError):
        load_rules("campaign")


def test_map_generator_rebuilds_map_json_exactly() -> None:
    """The map is generated, reproducibly, from the project's own copy of the geography."""
    text = resources.files("typhoon.games.mockba").joinpath("data", "map.json").read_text(encoding="utf-8")
    assert mapgen.dumps(mapgen.build()) == text


def test_map_is_16_km_hexes_with_the_seeds_features() -> None:
    """Seed 'The game board': cities, fortifications, rivers and lakes, the Minsk-Moscow highway,
    railways, the initial front line, rough terrain; Lake Seliger (supply rule)."""
    d = _data("map.json")
    assert d["grid"]["km_per_hex"] == 16.0
    assert (
        d["rough"] and d["lake"] and d["rivers"] and d["rails"] and d["forts"] and d["front"] and d["seliger"]
    )
    assert len(d["highway"]) > 15 and d["cities"]["Moscow"] in d["highway"]
    assert d["rail_exits"]["north"] and d["rail_exits"]["east"] and d["rail_exits"]["south"]
    svg = mapgen.svg(d)
    assert svg.startswith("<svg") and "RECONSTRUCTION" in svg


def test_setup_follows_the_game_preparation_rules() -> None:
    """Seed: Soviet front armies at most 6 hexes east of the front line, at least 3 units on it;
    reserve armies 31, 32, 49 on or next to their army hex; German units west of the line;
    stacking respected."""
    s = new_game()
    r = s.rules
    front = set(r.front)
    on_line = 0
    for u, sp in enumerate(r.units):
        h = s.loc[u]
        if sp.turn:
            assert h < 0
            continue
        if sp.side == SOVIET:
            assert not r.german_zone >> h & 1
            if sp.deploy == "reserve":
                rh = r.reserve_hexes[sp.army]
                assert h == rh or h in r.nbrs[rh]
            else:
                assert min(distance(r, h, f) for f in front) <= 6
                on_line += h in front
        else:
            assert r.german_zone >> h & 1
    assert on_line >= 3
    for h in {x for x in s.loc if x >= 0}:
        assert _fits(s, s.units_at(h))
