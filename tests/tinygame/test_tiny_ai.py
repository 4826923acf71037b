"""The AI framework's generic levels on the tiny test game (issue 11 point 4: "the random and
heuristic-framework players"): its AI module (tinygame/ai.py) writes only ``evaluate``, and the
heuristic and search levels play it, for either side, to the end."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

import pytest

from tinygame import KEY, PACKAGE
from tinygame.ai import evaluate
from tinygame.engine import Attack, State
from typhoon.ai import LevelPlayer, SearchLevelPlayer
from typhoon.ai.generic import OnePlyPlayer, RolloutSearchPlayer, one_ply_values
from typhoon.errors import OptionError
from typhoon.game import CHANCE, Game
from typhoon.games import game_module, register_game, unregister_game
from typhoon.players import Player, make_player
from typhoon.record import Record
from typhoon.selfplay import play_game


@pytest.fixture(autouse=True)
def tiny() -> Iterator[None]:
    register_game(KEY, "Tiny game", PACKAGE)
    yield
    unregister_game(KEY)


def _play_checked(players: Sequence[Player], seed: int, edition: str = "standard") -> Game:
    """Through Game.play, which refuses any illegal action."""
    g = Game(KEY, edition, {}, seed=seed)
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


@pytest.mark.parametrize(
    ("level", "kind"), [("heuristic", OnePlyPlayer), ("search:fast", RolloutSearchPlayer)]
)
@pytest.mark.parametrize("side", [0, 1])
def test_generic_levels_play_to_the_end_for_either_side(level: str, kind: type, side: int) -> None:
    me = make_player(level, 3)
    other = make_player("random", 4)
    assert isinstance(me, LevelPlayer)
    players = [me, other] if side == 0 else [other, me]
    g = _play_checked(players, seed=20 + side, edition="long")
    assert g.is_over and g.result in ("german", "soviet", "draw")
    inner = me.player_for(g.state)
    assert isinstance(inner, kind)  # the game lists no LEVELS: the framework's own player
    assert me.explain() and me.explain() != "No decision yet."
    if isinstance(inner, RolloutSearchPlayer):
        assert inner.reports and all(r.rollouts >= 1 for r in inner.reports)
        assert inner.rollouts_done == sum(r.rollouts for r in inner.reports)


def test_search_plays_the_heuristic_to_the_end_reproducibly() -> None:
    def record(seed: int) -> str:
        g = play_game([make_player("search", seed), make_player("heuristic", seed + 1)], game=KEY, seed=seed)
        assert g.is_over
        return Record.from_game(g).to_text()

    assert record(5) == record(5)


def test_the_heuristic_beats_random_clearly() -> None:
    """40 games, sides alternating. Measured: 23 wins, 16 draws, 1 loss (score 0.78); random
    against random scores about 0.5 for either player."""
    wins = draws = losses = 0
    for i in range(40):
        h, r = make_player("heuristic", 100 + i), make_player("random", 200 + i)
        g = play_game([h, r] if i % 2 == 0 else [r, h], game=KEY, seed=i)
        mine = "german" if i % 2 == 0 else "soviet"
        if g.result == "draw":
            draws += 1
        elif g.result == mine:
            wins += 1
        else:
            losses += 1
    assert (wins + draws / 2) / 40 >= 0.65
    assert wins >= 3 * max(1, losses)


def test_the_heuristic_expands_the_die_roll() -> None:
    """An attack's value is the mean over the six rolls (4-6 eliminate), not one sampled roll."""
    gm = game_module(KEY)
    s = State(gm.new_game().rules, loc=(0, 2, 3, 4))  # G2 next to S1: German to move
    actions = gm.legal_actions(s)
    attack = next(a for a in actions if isinstance(a, Attack))
    after = gm.apply_unchecked(s, attack)
    by_roll = [evaluate(gm.apply_unchecked(after, o), 0) for o, _ in gm.chance_outcomes(after)]
    values = one_ply_values(gm, s, actions, evaluate)
    assert values[actions.index(attack)] == pytest.approx(sum(by_roll) / 6)
    assert min(by_roll) < values[actions.index(attack)] < max(by_roll)
    assert make_player("heuristic", 1).choose(s, actions) == attack  # the best expected value


def test_ties_are_broken_by_the_seeded_generator() -> None:
    """G1 alone on 0101: moving to 0102 (no enemy next to it) and ending are worth the same."""
    gm = game_module(KEY)
    s = State(gm.new_game().rules, loc=(0, -1, 3, 4))
    actions = gm.legal_actions(s)
    assert len(actions) == 2 and len(set(one_ply_values(gm, s, actions, evaluate))) == 1

    def picks() -> list[object]:
        return [make_player("heuristic", seed).choose(s, actions) for seed in range(12)]

    assert picks() == picks()  # the same seeds, the same choices
    assert set(picks()) == set(actions)  # both tied actions are drawn


def test_a_search_level_takes_a_time_limit() -> None:
    p = make_player("search:strong", 1)
    assert isinstance(p, SearchLevelPlayer)
    p.config = dataclasses.replace(p.config, time_limit=0.5)  # as the web service cuts it
    s = game_module(KEY).new_game()
    inner = p.player_for(s)
    assert isinstance(inner, RolloutSearchPlayer) and inner.config.time_limit == 0.5
    assert inner.config.rollouts == 192  # the level's own budget otherwise


def test_a_game_without_an_ai_module_plays_only_random(monkeypatch: pytest.MonkeyPatch) -> None:
    gm = game_module(KEY)
    monkeypatch.setitem(gm.__dict__, "front_ends", dataclasses.replace(gm.front_ends, ai=None))
    s = gm.new_game()
    acts = gm.legal_actions(s)
    assert make_player("random", 1).choose(s, acts) in acts
    for level in ("heuristic", "search"):
        with pytest.raises(OptionError, match="Tiny game"):
            make_player(level, 1).choose(s, acts)
