"""Every registered game's positions through every view its kit declares (the class test of
issue 10's "a game could become unopenable": a view that fails on one position makes the game
unopenable there). For each game, fixed-seed random games to the end, a sample of positions of
each (the first, the last, the finished game and evenly spread ones between) through the state,
legal and hex views, the SVG map, the turn label, the odds preview of every attack the legal
view offers, and the plain words; every view JSON-ready. tests/test_every_view.py walks the two
first games more deeply."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from typhoon.game import CHANCE, Game
from typhoon.games import game_keys, game_module

GAMES = game_keys()
SAMPLE = 40  # positions a game, spread over its length


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


def _views(key: str, state: Any) -> int:
    """Every view of ``state``; the number of odds previews asked."""
    m = game_module(key)
    fe = m.front_ends
    sv = fe.state_view(state)
    json.dumps(sv)
    assert {"turn", "phase", "to_move", "result", "units"} <= set(sv), sorted(sv)
    legal = [] if state.is_terminal or state.current_player() == CHANCE else m.legal_actions(state)
    lv = fe.legal_view(state, legal, m.action_to_text)
    json.dumps(lv)
    assert len(lv["actions"]) == len(legal)
    for a in lv["actions"]:
        assert a["text"] and a["kind"]
    hexes = [u["hex"] for u in sv["units"] if u.get("hex")][:3]
    for hid in hexes:
        json.dumps(fe.hex_view(state, hid))
    svg = fe.render_map(state, True)
    assert svg.startswith("<svg") and "viewBox" in svg
    assert fe.turn_label(state.rules, state.turn)  # (rules, turn): the contract
    if fe.position_words is not None:
        assert fe.position_words(state, legal, "", 100) is not None
    previews = 0
    if fe.preview is not None:
        for a in lv["actions"]:
            if "group" in a and a.get("units"):
                json.dumps(fe.preview(state, a["group"], [*a.get("with", []), *a["units"]][:4]))
                previews += 1
                break
    return previews


@pytest.mark.parametrize("key", GAMES)
def test_every_view_of_sampled_positions_to_the_end(key: str) -> None:
    walked = previews = finished = 0
    for seed in (1, 2):
        positions = _positions(key, seed)
        for state in positions:
            previews += _views(key, state)
            walked += 1
        finished += positions[-1].is_terminal
    assert walked >= 2 * min(SAMPLE, 10)
    assert finished >= 1, "no sampled game reached its end: the finished position was not viewed"
    print(f"{key}: {walked} positions through every view, {previews} odds previews, {finished} finished")
