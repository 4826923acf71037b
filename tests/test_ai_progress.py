"""Every AI level of every game makes progress and finishes its games (a test of the class).

Stop 21 found the same bug in two games' search: a declared attack that could only be
cancelled was declared again and again, because a cancel puts the position back as it was and
the search scored "declare, cancel" like "do nothing"; one match never ended. Nothing caught it
but a match that hung. The invariants checked here, for each registered game and AI level:

- the game ends within an action budget;
- an AI level never picks the same action in the same position three times in one game. An
  AI that is back in a position it has left and picks the same way again is in a cycle that
  only a cap (or the action budget) would break; once (a declaration it then had to call off)
  can be a search probing, twice more is a loop. The random level is exempt: it may repeat by
  chance.

``make test`` plays one fixed-seed game per game and level, with ``search:fast`` standing for the
search levels on a small budget (the same code, fewer roll-outs; Battle for Moscow's own table of
budgets is read at import, so its search:fast plays at its own budget, a game in seconds), so the
file takes about a minute; ``make soak`` (``TYPHOON_SLOW=1``) plays every named level at its own budget, three seeds
each (one for the search levels, whose larger games take many minutes).
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest

from typhoon.ai.budget import SEARCH_LEVELS, Budget
from typhoon.game import CHANCE, Game
from typhoon.games import game_keys, game_module
from typhoon.players import make_player, player_names

# Far above any game's length at any level (a Moscow Campaign random game of scenario 1 is about
# 3,400 actions, MOCKBA's about 3,300): reaching it means the game is not ending.
ACTION_BUDGET = 12_000
REPEATS_ALLOWED = 2
# The named search levels; search:16 ... search:512 are `search` with other budgets.
SEARCH_NAMED = ("search:fast", "search", "search:strong")
# make test: the search levels' code on a budget small enough for a full game in seconds.
SMALL = Budget(rollouts=4, candidates=2, horizon=6)


def _levels(game: str) -> list[str]:
    """Every level that plays ``game``; of the search ladder, the named levels (search:16 ...
    search:512 are ``search`` with other budgets)."""
    return [n for n in player_names(game) if not n.startswith("search") or n in SEARCH_NAMED]


def _quick_levels(game: str) -> list[str]:
    """make test: every level but one search level stands for the three."""
    return [n for n in _levels(game) if n not in SEARCH_NAMED or n == "search:fast"]


def _cases(levels_of: Any) -> list[Any]:
    return [pytest.param(g, lvl, id=f"{g}-{lvl}") for g in game_keys() for lvl in levels_of(g)]


def play_checked(game: str, level: str, seed: int, players: list[Any] | None = None) -> tuple[Game, int]:
    """Play ``level`` against itself from ``seed`` (or ``players``); fail on a loop or an endless
    game. Returns the game and the most times one (position, action) pair was chosen."""
    module = game_module(game)
    g = Game(game, None, None, seed=seed)
    if players is None:
        players = [make_player(level, seed * 2 + 1), make_player(level, seed * 2 + 2)]
    picked: Counter[tuple[str, str]] = Counter()
    worst = 0
    while not g.is_over:
        assert len(g.history) < ACTION_BUDGET, (
            f"{game} {level} seed {seed}: no end after {ACTION_BUDGET} actions"
        )
        who = g.current_player()
        if who == CHANCE:
            g.roll()
            continue
        actions = g.legal_actions()
        action = players[who].choose(g.state, actions)
        if level != "random" and len(actions) > 1:
            key = (module.position_to_text(g.state), module.action_to_text(action))
            picked[key] += 1
            worst = max(worst, picked[key])
            assert picked[key] <= REPEATS_ALLOWED, (
                f"{game} {level} seed {seed}: chose {module.action_to_text(action)!r} in the same position"
                f" {picked[key]} times (action {len(g.history)}): a loop"
            )
        g.play(action)  # raises on an illegal action
    assert g.result in ("german", "soviet", "draw")
    return g, worst


@pytest.mark.parametrize(("game", "level"), _cases(_quick_levels))
def test_every_level_finishes_a_game_without_looping(game: str, level: str, monkeypatch: Any) -> None:
    if level in SEARCH_LEVELS:
        monkeypatch.setitem(SEARCH_LEVELS, level, SMALL)
    play_checked(game, level, seed=1)


def _soak_cases() -> list[Any]:
    # a search:strong game of the larger games is many minutes: the search levels play one seed
    return [
        pytest.param(g, lvl, seed, id=f"{g}-{lvl}-{seed}")
        for g in game_keys()
        for lvl in _levels(g)
        for seed in ((2,) if lvl in SEARCH_NAMED else (2, 3, 4))
    ]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("TYPHOON_SLOW"), reason="soak: TYPHOON_SLOW=1 (make soak)")
@pytest.mark.parametrize(("game", "level", "seed"), _soak_cases())
def test_every_level_finishes_games_at_its_own_budget(game: str, level: str, seed: int) -> None:
    play_checked(game, level, seed)


def test_the_check_catches_a_player_that_loops() -> None:
    """The detector itself: a player that declares the first attack it may and calls it off
    whenever it can (the shape of stop 21's bug) is caught as a loop, not run to the budget."""
    module = game_module("ma")

    class DeclareAndCancel:
        name = "declare-and-cancel"

        def choose(self, state: Any, actions: Any) -> Any:
            by_text = {module.action_to_text(a): a for a in actions}
            for prefix in ("cancel", "attack "):
                hits = sorted(t for t in by_text if t.startswith(prefix))
                if hits:
                    return by_text[hits[0]]
            return actions[0]

    with pytest.raises(AssertionError, match="a loop"):
        play_checked("ma", "looper", seed=1, players=[DeclareAndCancel(), DeclareAndCancel()])
