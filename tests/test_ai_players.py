"""AI levels play whole games of both editions, for either side, with legal actions only."""

from __future__ import annotations

import pytest

from typhoon.ai import SearchLevelPlayer
from typhoon.game import CHANCE, Game
from typhoon.games.bfm.ai import HeuristicPlayer, SearchConfig, SearchPlayer
from typhoon.players import LEVELS, Player, make_player, player_names

TINY = SearchConfig(rollouts=4, candidates=2)


def play_checked(german: Player, soviet: Player, edition: str, seed: int) -> Game:
    """Play a game through Game.play, which refuses (raises) any illegal action."""
    g = Game(edition=edition, seed=seed)
    players = (german, soviet)
    while not g.is_over:
        who = g.current_player()
        if who == CHANCE:
            g.roll()
            continue
        actions = g.legal_actions()
        a = players[who].choose(g.state, actions)
        assert a in actions
        g.play(a)
    return g


def test_levels_registered() -> None:
    names = player_names()
    for level in ("random", "heuristic", "search", "search:fast", "search:strong"):
        assert level in names
        assert level in LEVELS
    p = make_player("search:fast", 3)
    assert isinstance(p, SearchLevelPlayer)
    assert p.name == "search:fast"
    # Issue 11: the level finds the game's own player (games/bfm/ai) from the state.
    inner = p.player_for(Game().state)
    assert isinstance(inner, SearchPlayer)
    # issue 17 item 4: the named levels spend twice the framework's roll-outs (the plan cache made them cheaper)
    assert inner.name == "search:fast" and inner.config == SearchConfig(rollouts=48, candidates=4)


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
@pytest.mark.parametrize("side", [0, 1])
def test_heuristic_plays_either_side(edition: str, side: int) -> None:
    ai = HeuristicPlayer(5)
    other = make_player("random", 6)
    players = (ai, other) if side == 0 else (other, ai)
    g = play_checked(players[0], players[1], edition, seed=40 + side)
    assert g.result in ("german", "soviet", "draw")
    assert ai.explain()


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_heuristic_against_itself(edition: str) -> None:
    g = play_checked(HeuristicPlayer(1), HeuristicPlayer(2), edition, seed=7)
    assert g.is_over


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
@pytest.mark.parametrize("side", [0, 1])
def test_search_plays_either_side(edition: str, side: int) -> None:
    ai = SearchPlayer(3, config=TINY)
    other = HeuristicPlayer(4)
    players = (ai, other) if side == 0 else (other, ai)
    g = play_checked(players[0], players[1], edition, seed=11 + side)
    assert g.is_over
    assert ai.reports, "the search planned at least one phase"
    assert all(r.rollouts >= 1 for r in ai.reports)
    assert ai.explain()


def test_search_is_reproducible() -> None:
    def moves(seed: int) -> list[str]:
        g = play_checked(SearchPlayer(seed, config=TINY), HeuristicPlayer(9), "gdw1986", seed=21)
        return [g.text(e.action) for e in g.history]

    assert moves(5) == moves(5)


def test_random_level_from_the_setup() -> None:
    # The random player places units one by one; the AI must take over any set-up state.
    g = Game(seed=3)
    rnd = make_player("random", 1)
    for _ in range(5):
        g.play(rnd.choose(g.state, g.legal_actions()))
    ai = HeuristicPlayer(2)
    while g.state.turn == 0 and not g.is_over:
        acts = g.legal_actions()
        g.play(ai.choose(g.state, acts))
    assert g.state.turn == 1
