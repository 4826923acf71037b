"""Issue 15, "What to add": overlays a player switches on (enemy zones of control, supply and
where a replacement may enter, the victory status now) and the rules reference in the page
(the sequence of play with the phase in force, the CRT, the terrain chart, the weather track),
from every game's kit (FrontEnds.overlays, FrontEnds.rules_reference): hand-checked positions
of each game, every registered game's sampled random positions, and the API's typed errors."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from rules.helpers import pos
from typhoon.game import CHANCE, Game
from typhoon.games import game_keys, game_module


def _layer(o: dict[str, Any], key: str) -> dict[str, Any]:
    return next(layer for layer in o["layers"] if layer["key"] == key)


def _hexes(layer: dict[str, Any]) -> set[str]:
    return {h if isinstance(h, str) else h["hex"] for h in layer.get("hexes", [])}


# -- Battle for Moscow ---------------------------------------------------------------------

# tests/rules/test_communication.py's wall: German units in 0701..0709 cut column 07.
WALL = "XXIV@0701,XLI@0703,LVII@0705,XLVI@0707,XLVII@0709"


def test_bfm_cut_off_units_and_replacement_hexes_for_either_side_in_any_phase() -> None:
    """Seed 002 «Пополнения»: behind the German wall 3A (0305) has no communication with the east
    edge, 5A (1208) has; Bryansk, Rzhev and Vyazma behind the wall take no replacement, Kaluga
    (0805) does. Judged for the Soviet player during a German phase (the overlay asks the
    Soviet replacement phase's question of any position)."""
    s = pos(G=WALL, S="3A@0305/h,5A@1208/h", t=2, ph="german_movement")
    o = game_module("bfm").front_ends.overlays(s, 1)  # type: ignore[misc]
    assert _layer(o, "cut")["units"] == ["3A"]
    entry = _hexes(_layer(o, "entry"))
    assert "0805" in entry and not {"0509", "0601", "0603"} & entry
    # Zones of control (seed 002 «Зона контроля»: the six hexes around a unit): 0702 lies
    # between XXIV (0701) and XLI (0703); 0305, far behind, is in none.
    zoc = _hexes(_layer(o, "zoc"))
    assert {"0702", "0801", "0602"} <= zoc and "0305" not in zoc and "1208" not in zoc
    # The German player sees no German unit cut off, and the Soviet ZOC around 3A.
    g = game_module("bfm").front_ends.overlays(s, 0)  # type: ignore[misc]
    assert _layer(g, "cut")["units"] == [] and {"0304", "0306"} <= _hexes(_layer(g, "zoc"))


def test_bfm_victory_status_of_the_start() -> None:
    """Seed 002 "Victory conditions" (GDW: whoever holds Moscow wins): at the start the Soviet
    holds Moscow and nine cities, the German Smolensk and Roslavl; the game ended now would be
    a Soviet win; no victory points."""
    s = Game("bfm", seed=1).state
    v = game_module("bfm").front_ends.overlays(s, 0)["victory"]  # type: ignore[misc]
    lines = v["lines"]
    assert lines[0] == "Moscow: held by the Soviet"
    assert lines[1] == "German holds 2: Smolensk, Roslavl"
    assert lines[2].startswith("Soviet holds 9: ")
    assert any("whoever holds Moscow" in x for x in lines)
    assert lines[-1] == "If the game ended now: the Soviet wins."


def test_bfm_rules_reference_marks_the_phase_and_has_the_edition_crt() -> None:
    """The reference is the edition's own: GDW's 4:1 die 3 is DR by default, EX with the option;
    the phase in force and the turn are marked; mud turns 3 and 4 (seed 002 turn track)."""
    g = Game("bfm", seed=1)
    g.play_text("setup standard")
    g.play_text("setup standard")
    fe = game_module("bfm").front_ends
    ref = fe.rules_reference(g.state)  # type: ignore[misc]
    sec = {x["key"]: x for x in ref["sections"]}
    assert sec["sequence"]["rows"][sec["sequence"]["current"]][0] == g.state.phase_spec.name
    assert sec["crt"]["head"][4] == "4:1" and sec["crt"]["rows"][2][4] == "DR"
    assert sec["weather"]["current"] == 0
    assert [r[2] for r in sec["weather"]["rows"]][2:4] == ["mud", "mud"]
    assert ["Forest", "2", "1 column left for the defender"] in sec["terrain"]["rows"]
    other = Game("bfm", seed=1, options={"crt_4to1_die3": "EX"}).state
    assert {x["key"]: x for x in fe.rules_reference(other)["sections"]}["crt"]["rows"][2][4] == "EX"  # type: ignore[misc]


# -- The Moscow Campaign -------------------------------------------------------------------


def _tmc_started() -> Game:
    g = Game("tmc", seed=1)
    g.play_text("setup standard")
    g.play_text("setup standard")
    return g


def test_tmc_overlays_of_the_standard_start() -> None:
    """§4: every Soviet non-EB unit exerts a ZOC into its six neighbours; §11: after the standard
    set-up four German units trace no supply line; §23/§24 [Q67]: 0 : 0 VP is a Soviet decisive victory
    and one German VP makes it a German one."""
    g = _tmc_started()
    s = g.state
    r = s.rules
    o = game_module("tmc").front_ends.overlays(s, 0)  # type: ignore[misc]
    zoc = _hexes(_layer(o, "zoc"))
    u = next(u for u in s.on_map(1) if not (r.eb_mask >> u) & 1)
    assert {r.grid.ids[n] for n in r.grid.neighbours[s.loc[u]]} <= zoc
    # The four infantry units of the standard set-up's north-west (1702-1707) trace no supply
    # line on this map; the engine's own phase-start judgement (State.in_supply) agrees.
    cut = _layer(o, "cut")["units"]
    assert cut == ["G253Inf", "G251Inf", "G102Inf", "G256Inf"]
    assert cut == [r.units[u].id for u in s.on_map(0) if not s.in_supply(u)]
    entry = _hexes(_layer(o, "entry"))
    assert entry and all(r.grid.ids.index(h) >= 0 for h in entry)
    lines = o["victory"]["lines"]
    assert lines[0] == "Victory points so far: German 0, Soviet 0"
    assert any(x.startswith("Level now: Soviet decisive victory") for x in lines)
    assert any("needs at least 1 VP against 0" in x for x in lines)


def test_tmc_rules_reference_both_crts_and_weather_of_the_scenario() -> None:
    """§2 sequence with the phase in force; both CRTs of data/crt.json (11-1 the top column);
    the weather chart: GT 1-4 fair, GT 5 rain (data/weather.json), the turn in force marked."""
    g = _tmc_started()
    ref = game_module("tmc").front_ends.rules_reference(g.state)  # type: ignore[misc]
    sec = {x["key"]: x for x in ref["sections"]}
    assert sec["sequence"]["rows"][sec["sequence"]["current"]][0] == "German first movement phase"
    assert sec["crt-german"]["head"][-1] == "11-1" and sec["crt-soviet"]["rows"]
    w = sec["weather"]
    assert w["rows"][0][1] == "fair" and w["rows"][4][1] == "rain" and w["current"] == 0


# -- Moscow Attacked! and MOCKBA -----------------------------------------------------------


def test_ma_says_it_has_no_zones_of_control_and_lists_its_victory_cities() -> None:
    """6.1: no ZOC (the layer is offered as unavailable, with the reason); 12.1: the German
    victory cities Smolensk, Bryansk, Moscow; at the start nobody has won."""
    s = Game("ma", seed=1).state
    o = game_module("ma").front_ends.overlays(s, 0)  # type: ignore[misc]
    z = _layer(o, "zoc")
    assert z["available"] is False and "no zones of control" in z["words"]
    assert o["victory"]["lines"][0].startswith("German victory cities: Smolensk (German")
    assert o["victory"]["lines"][-1].startswith("Victory now: neither side")
    assert _layer(o, "entry")["available"] is False  # the German has no replacements (11)
    ref = game_module("ma").front_ends.rules_reference(s)  # type: ignore[misc]
    sec = {x["key"]: x for x in ref["sections"]}
    assert sec["crt"]["head"][1] == "1:5" and sec["weather"]["rows"][1][2] == "mud"


def test_mockba_zoc_and_victory_points_of_the_start() -> None:
    """Seed: ZOC the six hexes around each unit; at the start no city is taken, so each of the
    ten calendar cities counts -1 were the game to end now (a Soviet victory)."""
    s = Game("mockba", seed=1).state
    r = s.rules
    o = game_module("mockba").front_ends.overlays(s, 0)  # type: ignore[misc]
    assert len(r.victory) == 10
    assert o["victory"]["lines"][len(r.victory)] == "Points were the game to end now: -10 (soviet)."
    from typhoon.games.mockba.engine import zoc
    from typhoon.games.mockba.rules import hex_id

    assert _hexes(_layer(o, "zoc")) == {hex_id(h) for h in range(len(r.terrain)) if zoc(s, 1) >> h & 1}
    assert _hexes(_layer(o, "zoc"))
    ref = game_module("mockba").front_ends.rules_reference(s)  # type: ignore[misc]
    assert [x["key"] for x in ref["sections"]] == ["sequence", "crt", "terrain", "weather"]


# -- every registered game, sampled random positions ----------------------------------------

SAMPLE = 8


def _positions(key: str, seed: int) -> list[Any]:
    g = Game(key, seed=seed)
    rng = random.Random(seed)
    states = [g.state]
    while not g.is_over and len(states) < 20_000:
        if g.current_player() == CHANCE:
            g.roll()
        else:
            acts = g.legal_actions()
            g.play(acts[rng.randrange(len(acts))])
        states.append(g.state)
    step = max(1, len(states) // SAMPLE)
    return [*states[::step], states[-1]]


@pytest.mark.parametrize("key", game_keys())
def test_every_games_overlays_and_reference_over_random_positions(key: str) -> None:
    fe = game_module(key).front_ends
    if fe.overlays is None and fe.rules_reference is None:
        pytest.skip(f"{key} offers neither")
    sides = game_module(key).sides
    for state in _positions(key, 3):
        hexes = set()
        if fe.overlays is not None:
            for side in range(len(sides)):
                o = fe.overlays(state, side)
                json.dumps(o)
                assert {layer["key"] for layer in o["layers"]} >= {"zoc", "entry"}
                for layer in o["layers"]:
                    assert layer["label"] and layer.get("class")
                    hexes |= _hexes(layer)
                assert o["victory"]["lines"]
        if fe.rules_reference is not None:
            ref = fe.rules_reference(state)
            json.dumps(ref)
            for sec in ref["sections"]:
                assert sec["title"]
                cur = sec.get("current")
                assert cur is None or 0 <= cur < len(sec["rows"])
        # Every hex named is a hex of the map (the client draws by id).
        for h in list(hexes)[:50]:
            fe.hex_view(state, h)


# -- the API ---------------------------------------------------------------------------------


def _new(client: Any, game: str) -> dict[str, Any]:
    r = client.post("/api/games", json={"mode": "hotseat", "seed": 5, "game": game})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_api_overlays_and_reference_and_their_typed_errors(client: Any) -> None:
    g = _new(client, "bfm")
    base = f"/api/games/{g['id']}"
    r = client.get(base + "/overlays")
    assert r.status_code == 200 and r.json()["side"] == "soviet"  # the side to move (set-up)
    assert client.get(base + "/overlays?side=german").json()["side"] == "german"
    assert client.get(base + "/overlays?side=martian").status_code == 400
    assert client.get(base + "/overlays?step=x").status_code == 400
    assert client.get(base + "/overlays?step=0").status_code == 200
    ref = client.get(base + "/reference")
    assert ref.status_code == 200 and ref.json()["sections"][0]["key"] == "sequence"
    assert client.get("/api/games/nosuchgame/overlays").status_code == 404
    assert client.get("/api/games/nosuchgame/reference").status_code == 404


# Words a player should never meet (issue 15, "Words"; tests/browser/test_browser_pass.py).
JARGON = re.compile(
    r"rules of seed|\bseed \d{3}\b|UNVERIFIED|https?://|www\.|\.com\b|\.md\b|docs/|\b[a-z0-9]+_[a-z0-9_]+\b"
)


@pytest.mark.parametrize("key", game_keys())
def test_overlay_and_reference_words_have_no_project_jargon(key: str) -> None:
    """Issue 15, "Words": no raw option keys, seed numbers or addresses in what the page shows."""
    fe = game_module(key).front_ends
    s = Game(key, seed=1).state
    shown: list[str] = []
    if fe.overlays is not None:
        for side in range(len(game_module(key).sides)):
            o = fe.overlays(s, side)
            shown += o["victory"]["lines"] + [o["victory"]["title"]]
            shown += [f"{layer['label']} {layer.get('words', '')}" for layer in o["layers"]]
    if fe.rules_reference is not None:
        ref = fe.rules_reference(s)
        shown.append(ref["title"])
        for sec in ref["sections"]:
            shown += [sec["title"], *sec.get("lines", []), *sec.get("head", [])]
            shown += [" ".join(map(str, row)) for row in sec.get("rows", [])]
    bad = [t for t in shown if JARGON.search(t)]
    assert not bad, bad
