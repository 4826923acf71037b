"""A game's own AI level (games.own_levels, e.g. The Moscow Campaign's operational heuristic of
issue 14): every command knows its name, it plays the games that list it, and every other game
refuses it with a typed error, in the library and in the web service (never a level the lobby
offers and the game cannot play)."""

from __future__ import annotations

import importlib
import warnings

import pytest

from typhoon.errors import OptionError
from typhoon.game import Game
from typhoon.games import game_keys, game_module, own_levels
from typhoon.players import make_player
from typhoon.players.levels import player_names

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_each_own_level_is_in_its_games_levels_table() -> None:
    assert own_levels(), "no game declares an own level: this test would test nothing"
    for level, keys in own_levels().items():
        for key in keys:
            name = game_module(key).front_ends.ai
            assert name is not None
            assert level in importlib.import_module(name).LEVELS, (key, level)


def test_an_own_level_plays_its_game_and_refuses_the_others() -> None:
    for level, keys in own_levels().items():
        assert level in player_names()
        for key in game_keys():
            g = Game(key, seed=1)
            p = make_player(level, 1)
            if key in keys:
                assert level in player_names(key)
                assert p.choose(g.state, g.legal_actions()) in g.legal_actions()
            else:
                assert level not in player_names(key)
                with pytest.raises(OptionError, match="has no AI level"):
                    p.choose(g.state, g.legal_actions())


def test_the_lobby_offers_an_own_level_only_with_its_game(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    own = own_levels()
    for g in meta["games"]:
        for level, keys in own.items():
            assert (level in g["levels"]) == (g["key"] in keys), (g["key"], level)
    level, keys = next(iter(own.items()))
    other = next(k for k in game_keys() if k not in keys)
    r = client.post("/api/games", json={"game": other, "mode": "ai", "level": level})
    assert r.status_code == 400 and "unknown AI level" in r.json()["error"]
    r = client.post("/api/games", json={"game": keys[0], "mode": "ai", "level": level})
    assert r.status_code == 201, r.text
