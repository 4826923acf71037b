"""MOCKBA free set-up (option ``setup=free``; issue 13): seed 000 "Game preparation", the pack's
rules_en.md 2.2 (the Soviet first: front-line armies within 6 hexes east of the front line, at
least 3 units on it; reserve armies 31, 32, 49 on or next to their army hex), 2.3 (then the
German, inside his army boundaries), 2.4 (stacking). Hand-worked placements, legal and illegal;
docs/MOCKBA_RULES.md "Set-up" has the readings (zones, the one-unit-at-a-time order, the guards)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from typhoon.errors import IllegalActionError
from typhoon.game import Game
from typhoon.games import game_module
from typhoon.games.mockba.ai import MockbaHeuristicPlayer
from typhoon.games.mockba.engine import FRONT_LINE_MIN, apply, distance, legal_actions, new_game, setup_next
from typhoon.games.mockba.env.codec import MockbaActionCodec
from typhoon.games.mockba.invariants import legal_problems, phase_problems, problems
from typhoon.games.mockba.notation import (
    action_from_text,
    action_to_text,
    position_from_text,
    position_to_text,
)
from typhoon.games.mockba.rules import SOVIET, hex_id, hex_index
from typhoon.games.mockba.state import OFF, STANDARD, Place, State
from typhoon.record import Record

FREE = {"setup": "free"}


def _free() -> State:
    return new_game(None, FREE)


def _places(s: State) -> set[str]:
    return {a.hex for a in legal_actions(s) if a.kind == "place"}


def _with(s: State, units: dict[str, str]) -> State:
    loc = list(s.loc)
    for name, hx in units.items():
        loc[s.rules.unit_index[name]] = hex_index(hx)
    return s.replace(loc=tuple(loc))


def test_default_is_the_fixed_layout_and_free_starts_with_the_soviet_setup() -> None:
    """Option setup: `standard` (default) is today's fixed lay-out, no set-up phase; `free` opens
    with the Soviet set-up (seed: 'the Soviet player sets up first'), every unit off the map."""
    std = new_game()
    assert std.setup == -1 and std.phase_spec.key == "g_air"
    assert '"setup"' not in position_to_text(std)
    s = _free()
    assert s.setup == 0 and s.phase_spec.key == "s_setup" and s.current_player() == SOVIET
    assert all(x == OFF for x in s.loc)
    assert all(a.kind in ("place", "standard") for a in legal_actions(s))
    assert {a.unit for a in legal_actions(s) if a.kind == "place"} == {s.rules.units[setup_next(s)].id}
    with pytest.raises(IllegalActionError):
        apply(s, Place("G9A.inf1", "0101"))  # the German waits for the Soviet (2.2)
    g = Game("mockba", None, {})
    assert "setup" not in Record.from_game(g).to_text()


def test_soviet_front_army_within_six_hexes_east_of_the_front_line() -> None:
    """Pack 2.2: a front-line army's unit on the line or up to 6 hexes east of it, never west of
    it (the German zone), never 7 hexes away."""
    s = _free()
    r = s.rules
    u = setup_next(s)
    assert r.units[u].deploy == "front"
    legal = _places(s)
    front = r.front
    f0 = front[len(front) // 2]
    assert hex_id(f0) in legal  # on the line
    ring = {h: min(distance(r, h, f) for f in front) for h in range(len(r.terrain))}
    east6 = next(
        h for h, d in ring.items() if d == 6 and not r.german_zone >> h & 1 and r.terrain[h] != "lake"
    )
    east7 = next(h for h, d in ring.items() if d == 7 and not r.german_zone >> h & 1)
    west1 = next(h for h, d in ring.items() if d == 1 and r.german_zone >> h & 1)
    assert hex_id(east6) in legal
    assert hex_id(east7) not in legal
    assert hex_id(west1) not in legal
    with pytest.raises(IllegalActionError):
        apply(s, Place(r.units[u].id, hex_id(east7)))
    s2, _ = apply(s, Place(r.units[u].id, hex_id(east6)))
    assert s2.loc[u] == east6 and setup_next(s2) == u + 1


def test_reserve_armies_on_or_next_to_their_army_hex() -> None:
    """Pack 2.2: reserve armies 31, 32 and 49 on or adjacent to their printed army hex (MO-S1:
    31 A 1311)."""
    s = _free()
    r = s.rules
    # Every front-army unit set up, on the line where there is room: 31 A's turn.
    loc = list(s.loc)
    free_line = list(r.front)
    load: dict[int, int] = {}
    for u, sp in enumerate(r.units):
        if sp.side == SOVIET and sp.turn == 0 and sp.deploy == "front":
            while load.get(free_line[0], 0) + sp.halves > 8:
                free_line.pop(0)
            loc[u] = free_line[0]
            load[free_line[0]] = load.get(free_line[0], 0) + sp.halves
    s = s.replace(loc=tuple(loc))
    u = setup_next(s)
    assert r.units[u].army == "31A"
    rh = hex_index("1311")
    assert _places(s) == {hex_id(h) for h in (rh, *r.nbrs[rh]) if r.terrain[h] != "lake"}
    far = next(h for h in range(len(r.terrain)) if distance(r, h, rh) == 2)
    with pytest.raises(IllegalActionError):
        apply(s, Place(r.units[u].id, hex_id(far)))


def test_at_least_three_on_the_front_line_can_never_be_missed() -> None:
    """Pack 2.2 'at least 3 units on the front line': enforced as a guard on each placement (a
    front-army unit may leave the line only while enough front-army units remain to put 3 on it),
    so the set-up can never end with fewer nor get stuck."""
    s = _free()
    r = s.rules
    front = [u for u, sp in enumerate(r.units) if sp.side == SOVIET and sp.turn == 0 and sp.deploy == "front"]
    behind = next(
        h for h in range(len(r.terrain)) if r.setup_zones["22A"] >> h & 1 and not r.front_bits >> h & 1
    )
    # All but the last 3 front-army units set up off the line, one a hex.
    spots = [h for h in range(len(r.terrain)) if r.setup_zones["22A"] >> h & 1 and not r.front_bits >> h & 1]
    loc = list(s.loc)
    for i, u in enumerate(front[:-FRONT_LINE_MIN]):
        loc[u] = spots[i % len(spots)] if i < len(spots) else behind
    s = s.replace(loc=tuple(loc))
    assert not problems(s)
    legal = _places(s)
    assert legal and all(r.front_bits >> hex_index(h) & 1 for h in legal)
    # The standard rest is offered only if it would put 3 on the line.
    on_line = sum(1 for u in front[-FRONT_LINE_MIN:] if r.front_bits >> r.units[u].setup & 1)
    assert (STANDARD in legal_actions(s)) == (on_line >= FRONT_LINE_MIN)
    # With one more unit to spare, the hexes behind the line open again.
    s2 = s.replace(loc=tuple(OFF if u == front[-FRONT_LINE_MIN - 1] else x for u, x in enumerate(s.loc)))
    assert any(not r.front_bits >> hex_index(h) & 1 for h in _places(s2))


def test_front_armies_never_take_the_room_a_reserve_army_needs() -> None:
    """Guard (docs): a front-army unit may not fill the last room of a reserve army's hexes, so
    31, 32 and 49 A can always set up (2.2 with stacking, 2.4). 32 A's hexes (1215 and around) lie
    within 6 hexes of the front line."""
    s = _free()
    r = s.rules
    zone = [h for h in range(len(r.terrain)) if r.setup_zones["32A"] >> h & 1]
    assert all(r.setup_zones["22A"] >> h & 1 for h in zone)
    soviet_front = [
        u for u, sp in enumerate(r.units) if sp.side == SOVIET and sp.turn == 0 and sp.kind == "infantry"
    ]
    need = sum(1 for sp in r.units if sp.army == "32A")
    loc = list(s.loc)
    k = 0
    # Fill the zone so that exactly `need` divisions' room is left: one more unit there is barred.
    for h in zone[1:]:
        for _ in range(4):
            loc[soviet_front[k]] = h
            k += 1
    for _ in range(4 - need % 4 if need % 4 else 0):
        loc[soviet_front[k]] = zone[0]
        k += 1
    s = s.replace(loc=tuple(loc))
    nxt = setup_next(s)
    assert r.units[nxt].deploy == "front" and r.setup_zones[r.units[nxt].army] >> zone[0] & 1
    room = sum((8 - 2 * sum(1 for x in s.loc if x == h)) // 2 for h in zone)
    assert room == need
    assert hex_id(zone[0]) not in _places(s)


def test_german_sets_up_inside_his_army_boundaries() -> None:
    """Pack 2.3: then the German places all his units inside his army boundaries (reading: the
    army's band of rows west of the front line)."""
    s = _free()
    s, _ = apply(s, STANDARD)
    assert s.setup == 1 and s.phase_spec.key == "g_setup" and s.current_player() == 0
    r = s.rules
    u = setup_next(s)
    assert r.units[u].army == "G9A"
    legal = _places(s)
    assert "0101" in legal  # 9th Army: the north-west corner
    assert "0135" not in legal  # deep in the south: the 2nd Panzer Army's band
    soviet_hex = hex_id(r.front[0])
    assert soviet_hex not in legal  # east of the line
    with pytest.raises(IllegalActionError):
        apply(s, Place(r.units[u].id, "0135"))
    # Every band holds its army with room to spare and every fixed lay-out hex is in its band.
    for sp in r.units:
        if sp.side == 0 and sp.turn == 0:
            assert r.setup_zones[sp.army] >> sp.setup & 1
    for army in ("G9A", "G3P", "G4A", "G4P", "G2A", "G2P"):
        assert bin(r.setup_zones[army]).count("1") * 3 >= 2 * sum(1 for sp in r.units if sp.army == army)


def test_stacking_in_the_setup() -> None:
    """Pack 2.4 / seed stacking: a Soviet hex holds 4 divisions, a German hex 3 divisions and a
    regiment."""
    s = _free()
    r = s.rules
    f0 = hex_id(r.front[10])
    s4 = _with(s, {"22A.rif2": f0, "22A.rif3": f0, "22A.rif4": f0, "22A.rif5": f0})
    assert f0 not in _places(s4)
    s3 = _with(s, {"22A.rif2": f0, "22A.rif3": f0, "22A.rif4": f0})
    assert f0 in _places(s3)
    g, _ = apply(s, STANDARD)
    # German: fill a hex of 2nd Panzer Army's band with 3 divisions; its regiment still fits.
    band = [h for h in range(len(r.terrain)) if r.setup_zones["G2P"] >> h & 1]
    hx = hex_id(band[0])
    names = [sp.id for sp in r.units if sp.army == "G2P"]
    divs = [n for n in names if not n.startswith("G2P.reg")]
    loc = list(g.loc)
    for sp_i, sp in enumerate(r.units):
        if sp.side == 0 and sp.turn == 0 and sp.id not in names:
            loc[sp_i] = sp.setup  # every other German army set up as standard
    g = g.replace(loc=tuple(loc))
    g = _with(g, {divs[0]: hx, divs[1]: hx, divs[2]: hx})
    # Place the rest in order until the regiment is next.
    while r.units[setup_next(g)].size != "regiment":
        nxt = r.units[setup_next(g)]
        assert hx not in _places(g)  # a 4th division does not fit
        g, _ = apply(g, Place(nxt.id, next(h for h in sorted(_places(g)) if h != hx)))
    assert hx in _places(g)


def test_standard_action_places_the_fixed_layout_and_is_barred_when_it_overstacks() -> None:
    """The 'standard set-up' action: the remaining units of the side as in the fixed lay-out; both
    sides' standard gives exactly the default game; it is not offered when it would overstack."""
    s = _free()
    s, _ = apply(s, STANDARD)
    s, _ = apply(s, STANDARD)
    std = new_game()
    assert s.setup == -1 and s.loc == std.loc and s.cut == std.cut and s.phase == std.phase
    assert (s.air_g, s.air_s, s.rail_left) == (std.air_g, std.air_s, std.rail_left)
    # A Soviet standard hex already full (4 divisions of 22A put there): no standard action.
    f = _free()
    r = f.rules
    target = r.units[r.unit_index["29A.rif1"]].setup
    f = _with(f, {f"22A.rif{i}": hex_id(target) for i in (1, 2, 3, 4)})
    assert STANDARD not in legal_actions(f)


def test_free_setup_through_notation_invariants_codec_and_ai() -> None:
    """Set-up positions read back exactly, every legal placement reads back and encodes, the
    invariants hold, and the heuristic AI plays the free set-up (the standard action)."""
    s = _free()
    codec = MockbaActionCodec(s.rules)
    for _ in range(3):
        legal = legal_actions(s)
        assert not problems(s) and not phase_problems(s) and not legal_problems(s, legal)
        for a in (legal[0], legal[-1]):
            assert codec.decode(s, codec.encode(s, a)) == a
        assert action_from_text(action_to_text(legal[0])) == legal[0]
        s, _ = apply(s, legal[0])
    text = position_to_text(s)
    assert json.loads(text.split(" ", 2)[2])["setup"] == 0
    assert position_from_text(text) == s
    ai = MockbaHeuristicPlayer(0)
    assert ai.choose(s, legal_actions(s)) == STANDARD
    while s.setup >= 0:
        s, _ = apply(s, ai.choose(s, legal_actions(s)))
    assert s.phase_spec.key == "g_air" and not problems(s)


def test_every_view_in_the_setup_phase() -> None:
    """The kit's views (state, legal, hex, SVG, words) and the terminal work in both set-up
    phases; a placement is clicked on its hex."""
    from typhoon.tui.session import make_session

    fe = game_module("mockba").front_ends
    g = Game("mockba", None, FREE)
    for _ in range(2):
        s = g.state
        legal = g.legal_actions()
        sv = fe.state_view(s)
        json.dumps(sv)
        assert sv["phase"]["key"] in ("s_setup", "g_setup")
        assert sv["phase"]["key"] in [p["key"] for p in sv["phases"]]  # the phase track shows it
        lv = fe.legal_view(s, legal, action_to_text)
        places = [a for a in lv["actions"] if a["kind"] == "place"]
        assert places and all(a["hexes"] == [a["hex"]] and a["units"] == [a["unit"]] for a in places)
        assert "Set-up" in lv["prompt"]
        json.dumps(fe.hex_view(s, places[0]["hex"]))
        assert fe.render_map(s, True).startswith("<svg")
        assert fe.position_words(s, legal, "", 100)
        g.play(STANDARD)
    assert g.state.phase_spec.key == "g_air"
    out = io.StringIO()
    session = make_session(Game("mockba", None, FREE, seed=3), {0: None, 1: None}, out=out, width=120)
    assert session.run(io.StringIO("standard\nmap\nquit\n")) == 0
    assert session.state.phase_spec.key == "g_setup"


def test_free_setup_through_the_web_api(client: Any) -> None:
    """The one browser client's API plays the set-up: a game made with setup=free, a placement
    posted as its text, then the standard rest for both sides."""
    from webapi import act, view
    from webapi import new_game as web_new_game

    g = web_new_game(client, game="mockba", mode="hotseat", seed=4, options=FREE)
    v = view(client, g["id"])
    assert v["phase"]["key"] == "s_setup" and v["to_move"] == "soviet"
    legal = client.get(f"/api/games/{g['id']}/legal").json()["actions"]
    place = next(a for a in legal if a["kind"] == "place")
    assert act(client, g["id"], g["token"], place["text"]).status_code == 200
    r = act(client, g["id"], g["token"], "standard", "standard")
    assert r.status_code == 200, r.text
    legal = client.get(f"/api/games/{g['id']}/legal").json()["actions"]
    assert {a["kind"] for a in legal} <= {"counterair", "interdict", "airsupply", "end"}
