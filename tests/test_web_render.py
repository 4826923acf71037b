"""What the browser is shown (issue 4 items 3, 4, 6): the SVG map drawn from the map data,
hexes and units in words, and a drawable path for every legal move."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from typhoon.game import Game
from typhoon.games.bfm.notation import position_from_text
from typhoon.games.bfm.paths import move_paths
from typhoon.games.bfm.websvg import Layout, render_map
from typhoon.games.bfm.webview import action_dict, hex_words, legal_view, state_view, unit_words

NS = "{http://www.w3.org/2000/svg}"


def started(edition: str = "gdw1986", seed: int = 11) -> Game:
    g = Game(edition=edition, seed=seed)
    g.play_text("setup standard")
    g.play_text("setup standard")
    return g


def test_hex_and_unit_words_read_like_the_issue_example() -> None:
    g = started()
    # Put the 16th Army, half strength, in the forest hex 0604 (a position written by hand).
    pos = g.position()
    sov = next(f for f in pos.split() if f.startswith("S="))
    units = [u for u in sov[2:].split(",") if not u.startswith("16A@")]
    s = position_from_text(pos.replace(sov, "S=" + ",".join(["16A@0604/h", *units])))
    h = s.rules.map.idx("0604")
    words = hex_words(s, h)
    assert words.startswith("0604 forest, ")
    assert words.endswith("Soviet 16th Army, half strength 4-4")
    assert "river to the" in words
    u = s.rules.unit_index["XXIV"]
    assert unit_words(s, u) == "German XXIV Panzer Corps, full strength 12-6"
    moscow = hex_words(s, s.rules.map.idx("1103"))
    assert moscow.startswith("1103 clear, Moscow, Soviet-held") and moscow.endswith("empty")
    assert "fortification" in hex_words(s, s.rules.map.idx("0803"))


def test_state_view_has_track_phase_cities_and_units() -> None:
    g = started()
    v = state_view(g.state)
    assert v["turn"] == 1 and v["turn_label"] and len(v["turn_track"]) == 7
    assert [t["turn"] for t in v["turn_track"] if t["mud"]] == [3, 4]
    assert v["phase"]["key"] == "german_panzer_movement" and v["to_move"] == "german"
    assert v["rules"].startswith("Battle for Moscow") and "gdw1986" in v["rules"]
    assert {c["name"] for c in v["cities"]} >= {"Moscow", "Tula", "Smolensk"}
    on_map = [u for u in v["units"] if u["hex"]]
    assert len(on_map) == 13 + 22
    assert set(v["hexes"]) == {g.state.rules.map.grid.ids[h] for h in g.state.rules.map.grid.hexes}


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_svg_is_drawn_from_the_map_data(edition: str) -> None:
    g = started(edition)
    s = g.state
    m = s.rules.map
    svg = render_map(s, numbers=True)
    root = ET.fromstring(svg)  # well-formed XML
    assert "numbers" in root.get("class", "")
    hexes = [e for e in root.iter(NS + "g") if "hex" in (e.get("class") or "").split()]
    assert len(hexes) == m.grid.count
    assert all(e.find(NS + "title") is not None for e in hexes)
    forests = [e for e in root.iter(NS + "polygon") if e.get("class") == "terrain forest"]
    assert len(forests) == len(m.forest)
    assert len([e for e in root.iter(NS + "polygon") if e.get("class") == "fort"]) == len(m.fortification)
    assert len([e for e in root.iter(NS + "line") if e.get("class") == "river"]) == len(m.rivers)
    assert len([e for e in root.iter(NS + "line") if e.get("class") == "rail"]) == len(m.rail)
    labels = [
        t.text
        for t in root.iter(NS + "text")
        if t.text and t.text.lstrip("\u2605 ") in {c.name for c in m.cities}
    ]
    assert len(labels) == len(m.cities)
    units = [e for e in root.iter(NS + "g") if "unit" in (e.get("class") or "").split()]
    assert len(units) == sum(1 for h in s.loc if h >= 0)
    kinds = {
        tuple(
            sorted(
                set(e.get("class", "").split()) & {"german", "soviet", "panzer", "infantry", "full", "half"}
            )
        )
        for e in units
    }
    assert ("full", "german", "panzer") in kinds and ("half", "infantry", "soviet") in kinds


def test_river_sides_are_shared_hex_edges() -> None:
    s = started().state
    lay = Layout(s.rules.map.grid)
    for a, b in s.rules.map.rivers:
        side = lay.shared_side(a, b)
        assert side is not None
        (x1, y1), (x2, y2) = side
        assert abs(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 - lay.r) < 0.01


def test_city_control_shows_on_the_map() -> None:
    s = started().state
    svg = render_map(s)
    assert 'class="citydot german"' in svg and 'class="citydot soviet"' in svg


@pytest.mark.parametrize(("edition", "seed"), [("gdw1986", 3), ("vpg2009", 4), ("gdw1986", 7)])
def test_every_legal_move_gets_a_valid_path(edition: str, seed: int) -> None:
    """Random play through whole games: in every movement phase (rail and mud included) each
    legal move has a drawable path that agrees with it."""
    rng = random.Random(seed)
    g = Game(edition=edition, seed=seed)
    checked = 0
    kinds = set()
    while not g.is_over:
        if g.current_player() == -1:
            g.roll()
            continue
        acts = g.legal_actions()
        moves = [a for a in acts if type(a).__name__ == "Move"]
        if moves:
            s = g.state
            m = s.rules.map
            grid = m.grid
            paths = move_paths(s, moves)
            rail, mud = s.phase_spec.movers == "rail", s.is_mud()
            kinds.add((s.phase_spec.movers, mud))
            enemy = 1 - s.phase_spec.side
            stop = s.zoc(enemy)
            cities = s.controlled_city_mask(enemy) & ~s.occ[enemy]
            for mv in moves:
                p = paths[mv]
                assert p[0] == mv.src and p[-1] == mv.dst
                for x, y in zip(p, p[1:]):
                    assert grid.adjacent(grid.index[x], grid.index[y])
                hexes = [grid.index[x] for x in p]
                assert not any((s.occ[enemy] >> h) & 1 for h in hexes)
                if not rail and mud:
                    assert len(p) == 2
                else:  # within the allowance, never on through an enemy zone of control
                    cost = m.rail_cost if rail else m.move_cost
                    assert sum(cost[h] for h in hexes[1:]) <= s.rules.units[s.rules.unit_index[mv.unit]].move
                    assert not any((stop >> h) & 1 for h in hexes[1:-1])
                    taken = {x for x, h in zip(p[1:-1], hexes[1:-1]) if (cities >> h) & 1}
                    assert taken - {mv.dst} == set(mv.via)
                checked += 1
            # legal_view attaches them
            lv = legal_view(s, acts)
            assert all("path" in d for d in lv["actions"] if d["kind"] == "move")
        g.play(acts[rng.randrange(len(acts))])
    assert checked > 100
    assert ("rail", False) in kinds and any(mud for _, mud in kinds)


def test_action_dicts_carry_their_fields() -> None:
    g = started()
    mv = next(a for a in g.legal_actions() if type(a).__name__ == "Move")
    d = action_dict(mv)
    assert d["kind"] == "move" and d["unit"] == mv.unit and d["text"].startswith("move ")
    assert isinstance(d["via"], list)
