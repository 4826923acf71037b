"""Issue 10, item 1: every view of every reachable position works.

Random games of both games (both Battle for Moscow editions, several Moscow Campaign
scenarios) are walked position by position through every view a player can ask for: the web
state view, the legal-action view, the SVG map, hex words, the odds preview of every declared
battle and of every legal attack, the terminal's description, and (through the HTTP API, for a
few whole games) the replay viewer at every step. One random game in four passes through a
battle whose attacker was eliminated by an exchange while the battle still needs a decision;
every view used to fail there ("negative shift count"), so the walk asserts it met such
positions. ``make soak`` (TYPHOON_SLOW=1) walks many more games.
"""

from __future__ import annotations

import contextlib
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from typhoon.errors import IllegalActionError
from typhoon.game import CHANCE, Game
from typhoon.games.bfm import termmap as mapview
from typhoon.games.bfm import websvg as svg
from typhoon.games.bfm import webview as views
from typhoon.games.bfm import words as describe
from typhoon.games.tmc import termmap as tmc_view
from typhoon.games.tmc import websvg as tmc_svg
from typhoon.games.tmc import webview as tmc_views
from typhoon.games.tmc import words as tmc_words
from typhoon.record import Record

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from typhoon.games.bfm.preview import preview


def random_positions(game: Game, seed: int, limit: int | None = None) -> Iterator[Game]:
    """Play ``game`` with uniformly random decisions, yielding it at every position."""
    rng = random.Random(seed)
    yield game
    while not game.is_over and (limit is None or len(game.history) < limit):
        if game.current_player() == CHANCE:
            game.roll()
        else:
            acts = game.legal_actions()
            game.play(acts[rng.randrange(len(acts))])
        yield game


def _attacker_gone(state: Any) -> bool:
    """A declared battle one of whose attackers (or whose defender) has left the map."""
    return any(state.loc[d] < 0 or any(state.loc[a] < 0 for a in atk) for d, atk in state.battles)


def walk_bfm(state: Any, legal: list[Any], rng: random.Random) -> None:
    grid = state.rules.map.grid
    v = views.state_view(state)
    assert v["phase"]["key"] and len(v["units"]) == len(state.rules.units)
    lv = views.legal_view(state, legal)
    assert len(lv["actions"]) == len(legal)
    assert svg.render_map(state).startswith("<svg")
    for h in rng.sample(grid.hexes, 3):
        assert views.hex_words(state, h)
        assert describe.hex_text(state, h)
    for d, atk in state.battles:
        if state.loc[d] >= 0 and all(state.loc[a] >= 0 for a in atk):
            try:
                pv = preview(state, grid.ids[state.loc[d]], list(atk))
            except IllegalActionError:
                continue  # the defender has retreated from its attackers meanwhile
            assert pv.odds.no_effect or sum(pv.results.values()) == 1
    for a in legal:
        if a.kind == "attack":
            # a typed refusal is a fine answer; anything else fails the walk
            with contextlib.suppress(IllegalActionError):
                preview(state, a.target, [a.unit])
    assert describe.status_line(state)
    assert describe.decision_text(state, legal) is not None
    describe.decision_hexes(state, legal)
    describe.battles_text(state)
    describe.units_table(state)
    assert mapview.render_map(state)


def walk_tmc(state: Any, legal: list[Any], game: Game, rng: random.Random) -> None:
    grid = state.rules.grid
    v = tmc_views.state_view(state)
    assert v["phase"]["key"]
    assert len(tmc_views.legal_view(state, legal, game.text)["actions"]) == len(legal)
    for h in rng.sample(grid.hexes, 3):
        assert tmc_views.hex_view(state, grid.ids[h])["words"]
    assert tmc_words.status_parts(state)
    assert tmc_words.decision_text(state, legal) is not None
    tmc_words.decision_hexes(state, legal)
    for u in range(len(state.rules.units)):
        tmc_words.unit_words(state, u)


def _bfm_walk(games: int, seed0: int) -> tuple[int, int]:
    positions = gone = 0
    for n in range(games):
        edition = ("gdw1986", "vpg2009")[n % 2]
        rng = random.Random(seed0 + n)
        for g in random_positions(Game(edition=edition, seed=seed0 + n), seed0 + n):
            st = g.state
            if g.current_player() == CHANCE:
                legal: list[Any] = []
            else:
                legal = g.legal_actions() if not g.is_over else []
            walk_bfm(st, legal, rng)
            positions += 1
            gone += _attacker_gone(st)
    return positions, gone


def test_every_bfm_position_through_every_view() -> None:
    positions, gone = _bfm_walk(8, 100)
    print(f"bfm: {positions} positions walked through every view, {gone} with a unit of a battle off the map")
    assert positions > 2000
    assert gone > 0, "the walk must meet a battle whose attacker was lost to an exchange"


def test_every_tmc_position_through_every_view() -> None:
    positions = 0
    for scenario, limit in (("1", 500), ("15", 400), ("21", 400)):
        rng = random.Random(7)
        for g in random_positions(Game("tmc", scenario, seed=7), 7, limit=limit):
            legal = g.legal_actions() if g.current_player() >= 0 else []
            walk_tmc(g.state, legal, g, rng)
            if len(g.history) % 50 == 0:
                assert tmc_svg.render_map(g.state).startswith("<svg")
                assert tmc_view.render_overview(g.state)
            positions += 1
    print(f"tmc: {positions} positions walked through every view")
    assert positions > 1000


def _upload(c: TestClient, game: Game) -> str:
    r = c.post("/api/records", json={"record": Record.from_game(game).to_text(), "mode": "hotseat"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_replay_viewer_and_endpoints_at_every_step(tmp_path: Path) -> None:
    """The real endpoints: a whole game with an exchange-eliminated attacker, step by step."""
    from typhoon.web.app import create_app

    found = None
    for seed in range(100, 160):
        g = Game(seed=seed)
        for pos in random_positions(g, seed):
            if _attacker_gone(pos.state):
                found = g
        if found is not None:
            break
    assert found is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(tmp_path / "data"), raise_server_exceptions=False) as c:
            gid = _upload(c, found)
            total = len(found.history)
            for step in range(total + 1):
                r = c.get(f"/api/games/{gid}/replay", params={"step": step})
                assert r.status_code == 200, (step, r.text)
            assert c.get(f"/api/games/{gid}", params={"svg": 1, "legal": 1}).status_code == 200
            assert c.get(f"/api/games/{gid}/log").status_code == 200
            dup = c.get(f"/api/games/{gid}/preview", params={"target": "0404", "attackers": "XXIV,XXIV"})
            assert dup.status_code in (404, 422), dup.text  # never a 500


def test_preview_refuses_a_repeated_attacker(started: Game) -> None:
    """Issue 10: `attackers=XXIV,XXIV` used to count XXIV twice."""
    st = started.state
    rules = st.rules
    german = [u for u in range(len(rules.units)) if rules.units[u].side == 0 and st.loc[u] >= 0]
    grid = rules.map.grid
    for u in german:
        for nb in grid.neighbours[st.loc[u]]:
            d = st.at[nb]
            if d >= 0 and rules.units[d].side == 1:
                uid = rules.units[u].id
                with pytest.raises(IllegalActionError, match="twice"):
                    preview(st, grid.ids[nb], [uid, uid])
                preview(st, grid.ids[nb], [uid])
                return
    pytest.skip("no German unit next to a Soviet one in this position")


@pytest.mark.slow
def test_every_bfm_position_soak() -> None:
    positions, gone = _bfm_walk(200, 1000)
    print(f"bfm soak: {positions} positions, {gone} with a battle unit off the map")
    assert gone > 0
