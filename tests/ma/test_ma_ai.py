"""Moscow Attacked!'s AI pieces (KIT2.md "The AI contract", issue 12 point 4): ``evaluate`` in
[-1, 1], deterministic, zero-sum, reading the seed 001 victory conditions (section 12); the
game's heuristic player plays only legal actions, explains itself and beats random play."""

from __future__ import annotations

import random

import pytest

from typhoon.games.ma import ai
from typhoon.games.ma.engine import MOSCOW, apply, legal_actions, new_game
from typhoon.games.ma.rules import GERMAN, SOVIET
from typhoon.players.base import RandomPlayer

from .world import world


def test_evaluate_is_bounded_deterministic_and_zero_sum() -> None:
    s = new_game()
    v = ai.evaluate(s, GERMAN)
    assert -1.0 < v < 1.0 and v == ai.evaluate(new_game(), GERMAN)
    assert ai.evaluate(s, SOVIET) == -v
    for result, g in (("german", 1.0), ("soviet", -1.0), ("draw", 0.0)):
        end = s.replace(result=result)
        assert ai.evaluate(end, GERMAN) == g and ai.evaluate(end, SOVIET) == -g


def test_evaluate_reads_moscow_and_the_distance_to_it() -> None:
    # 12.1: Moscow (with Smolensk and Bryansk, in supply) is the German goal.
    near = world({"4PzGp": "H6", "50A": "A9"})
    far = world({"4PzGp": "F1", "50A": "A9"})
    assert ai.moscow_distance(near) == 1 and ai.moscow_distance(far) > 1
    assert ai.evaluate(near, GERMAN) > ai.evaluate(far, GERMAN)
    taken = near.replace(control=near.control | 1 << MOSCOW)
    assert ai.evaluate(taken, GERMAN) > ai.evaluate(near, GERMAN)


def test_evaluate_reads_the_strength_balance() -> None:
    few = world({"4PzGp": "F1", "50A": "D9"})
    more = world({"4PzGp": "F1", "2PzGp": "A1", "50A": "D9"})
    assert ai.evaluate(more, GERMAN) > ai.evaluate(few, GERMAN)


def _play(hside: int, seed: int, edition: str = "basic") -> str | None:
    rng = random.Random(seed)
    players: list = [None, None]
    players[hside] = ai.LEVELS["heuristic"](seed)
    players[1 - hside] = RandomPlayer(seed)
    s = new_game(edition)
    while not s.is_terminal:
        acts = legal_actions(s)
        p = s.current_player()
        a = acts[rng.randrange(len(acts))] if p < 0 else players[p].choose(s, acts)
        assert a in acts
        s, _ = apply(s, a)
    return s.result


@pytest.mark.parametrize("hside", [GERMAN, SOVIET])
def test_heuristic_beats_random_play(hside: int) -> None:
    assert _play(hside, 1) == ("german", "soviet")[hside]


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["basic", "campaign"])
def test_heuristic_beats_random_play_nine_games_in_ten(edition: str) -> None:
    # Issue 12 "Done when": heuristic >= 90% against random, for both sides.
    for hside in (GERMAN, SOVIET):
        wins = sum(_play(hside, seed, edition) == ("german", "soviet")[hside] for seed in range(10))
        assert wins >= 9


def test_heuristic_explains_itself() -> None:
    p = ai.LEVELS["heuristic"](0)
    assert p.name == "heuristic" and "2:1" in p.explain()


def test_calibration_table_reports_every_marker() -> None:
    # Issue 12 point 5: the marker table of heuristic-v-heuristic games (docs/MA_CALIBRATION.md).
    from typhoon.games.ma import ai_calibrate

    log = ai_calibrate.play_one(3, "basic")
    assert log.result in ("german", "soviet") and 1 in log.at_end_of
    lines = ai_calibrate.report([log])
    assert len([x for x in lines if x.startswith("| ") and "(T" in x]) == len(ai_calibrate.MARKERS)
    assert any(x.startswith("Results: ") for x in lines)
