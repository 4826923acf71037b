"""Moscow Attacked! through the game-blind front ends once registered (issue 12 point 4): a
scripted terminal session with the game's text map (labelled a reconstruction), and the AI
framework's levels (the game's own heuristic, the generic players over ``evaluate``)."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from typhoon.game import Game
from typhoon.games import game_keys, register_game, unregister_game
from typhoon.games.ma.terminal import MaSession
from typhoon.games.ma.words import NOTICE

KEY = "ma"


@pytest.fixture
def registered() -> Iterator[None]:
    added = KEY not in game_keys()
    if added:
        register_game(KEY, "Moscow Attacked!", "typhoon.games.ma")
    yield
    if added:
        unregister_game(KEY)


def test_terminal_session_shows_the_map_and_plays(registered: None) -> None:
    from typhoon.tui.session import make_session

    out = io.StringIO()
    session = make_session(Game(KEY, seed=3), {0: None, 1: None}, out=out)
    assert isinstance(session, MaSession)
    rc = session.run(io.StringIO("base StratBomb I7\nmap\nhex I7\nquit\n"))
    text = out.getvalue()
    assert rc == 0 and "I7 MOS" in text and NOTICE in text
    assert "Strategic Bombers' base" in text and "| good" in text
    assert session.state.base == 86


def test_framework_levels_play_moscow_attacked(registered: None) -> None:
    from typhoon.games.ma.ai import MaHeuristicPlayer
    from typhoon.players.levels import make_player

    g = Game(KEY, seed=2)
    h = make_player("heuristic", 1)
    a = h.choose(g.state, g.legal_actions())
    assert a in g.legal_actions() and isinstance(h.player_for(g.state), MaHeuristicPlayer)  # type: ignore[attr-defined]
