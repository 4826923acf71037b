"""The AI levels play The Moscow Campaign: legal decisions only, whole games, and rules of thumb
checked on hand-built positions (rules_en.md §14 overruns, §5-§6 odds and the CRT, §15 the
continuous front)."""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest

from typhoon.ai import LevelPlayer, SearchLevelPlayer
from typhoon.game import CHANCE, Game
from typhoon.games import module_of_state
from typhoon.games.tmc import engine, front
from typhoon.games.tmc.actions import Attack, JoinOverrun, Overrun
from typhoon.games.tmc.ai import evaluate
from typhoon.games.tmc.ai.evaluate import german_score, level_score, vp_estimate
from typhoon.games.tmc.ai.heuristic import TmcHeuristic
from typhoon.games.tmc.ai.search import TmcSearch, TmcSearchConfig, tmc_config
from typhoon.games.tmc.rules import GERMAN, SOVIET
from typhoon.players import make_player

from .engine_fixtures import make_map, make_rules, position, unit

TINY = TmcSearchConfig(rollouts=2, candidates=2)


def play_checked(players: tuple[Any, Any], scenario: str, seed: int, last_turn: int | None = None) -> Game:
    """Play through Game.play (which refuses any illegal action) until the game ends or
    ``last_turn`` is over; every decision must come from the legal list."""
    g = Game("tmc", scenario, seed=seed)
    while not g.is_over and (last_turn is None or g.state.turn <= last_turn):
        who = g.current_player()
        if who == CHANCE:
            g.roll()
            continue
        actions = g.legal_actions()
        a = players[who].choose(g.state, actions)
        assert a in actions
        g.play(a)
    return g


# -- dispatch ----------------------------------------------------------------------------------


def test_level_players_hand_tmc_positions_to_the_tmc_ai() -> None:
    """Issue 11: the level players find the game's AI module (FrontEnds.ai) from the state."""
    s = engine.new_game("1")
    assert module_of_state(s).front_ends.ai == "typhoon.games.tmc.ai"
    h = make_player("heuristic", 1)
    a = h.choose(s, engine.legal_actions(s))
    assert a in engine.legal_actions(s)
    assert isinstance(h, LevelPlayer) and isinstance(h.player_for(s), TmcHeuristic)
    p = make_player("search:fast", 2)
    p.choose(s, engine.legal_actions(s))
    assert isinstance(p, SearchLevelPlayer) and isinstance(p.player_for(s), TmcSearch)
    assert p.player_for(s).config == tmc_config(24, 4)  # type: ignore[attr-defined]
    assert make_player("search:strong", 3).name == "search:strong"
    assert tmc_config(192, 12).horizon == "opponent"


# -- short games (normal suite) ----------------------------------------------------------------


@pytest.mark.parametrize("side", [GERMAN, SOVIET])
def test_heuristic_plays_two_turns_of_scenario_1_either_side(side: int) -> None:
    ai = make_player("heuristic", 5)
    other = make_player("random", 6)
    players = (ai, other) if side == GERMAN else (other, ai)
    g = play_checked(players, "1", seed=11 + side, last_turn=2)
    assert g.state.turn >= 3 or g.is_over
    assert ai.explain()  # type: ignore[attr-defined]


@pytest.mark.parametrize("side", [GERMAN, SOVIET])
def test_search_plays_a_turn_of_scenario_1_either_side(side: int) -> None:
    ai = TmcSearch(3, config=TINY)
    other = TmcHeuristic(4)
    players = (ai, other) if side == GERMAN else (other, ai)
    g = play_checked(players, "1", seed=21 + side, last_turn=1)
    assert g.state.turn >= 2
    assert ai.reports, "the search planned at least one phase"
    assert all(r.rollouts >= 2 for r in ai.reports)


def test_search_is_reproducible() -> None:
    """The same seed gives the same phase plan (dice of the roll-outs drawn from the seed)."""
    s = engine.new_game("1")
    while s.phase_spec.kind == "setup":
        s, _ = engine.apply(s, engine.legal_actions(s)[0])
    plans = [TmcSearch(9, config=TINY).make_planner(s).signature() for _ in range(2)]
    assert plans[0] == plans[1]
    assert plans[0]


def test_heuristic_decides_quickly() -> None:
    """Per-decision time over one game turn of scenario 1 (both sides): median well under a
    millisecond, the 95th percentile (plan-making decisions) well under a second."""
    times: list[float] = []

    class Timed:
        def __init__(self, inner: TmcHeuristic) -> None:
            self.inner = inner

        def choose(self, s: Any, acts: Any) -> Any:
            t = time.perf_counter()
            a = self.inner.choose(s, acts)
            times.append(time.perf_counter() - t)
            return a

    play_checked((Timed(TmcHeuristic(1)), Timed(TmcHeuristic(2))), "1", seed=3, last_turn=1)
    times.sort()
    assert statistics.median(times) < 0.02
    assert times[int(0.95 * len(times))] < 1.0


# -- hand-checked positions ----------------------------------------------------------------------


def _rail_map() -> Any:
    row = tuple(f"{c:02d}05" for c in range(1, 13))
    return make_map(rails=(row,), repaired=row[:5], moscow=("1208", "1209", "1210"))


def _play_phase(s: Any, player: Any) -> tuple[Any, list[Any]]:
    """Let ``player`` play the current phase (dice: 6s) and return the state after it and
    the decisions taken."""
    key = (s.turn, s.phase)
    taken = []
    while (s.turn, s.phase) == key and not s.is_terminal:
        if s.is_chance:
            s = engine.apply_unchecked(s, engine.ROLLS[5])
            continue
        acts = engine.legal_actions(s)
        a = player.choose(s, acts)
        assert a in acts
        taken.append(a)
        s, _ = engine.apply(s, a)
    return s, taken


def test_heuristic_takes_an_11_to_1_overrun() -> None:
    """rules_en.md §14.1, §14.5: two German armoured units that can reach the lone Soviet 1-CF
    unit overrun it (11-1 with the GT 1-4 shift, §5.9), and an infantry unit joins so that an Ex
    (§7) would cost it rather than turn a panzer into a KG (§8); a random mover almost never
    overruns."""
    rules = make_rules(
        [
            unit("GA1", "german", 6, 10, kind="armour"),
            unit("GA2", "german", 6, 10, kind="armour"),
            unit("GI1", "german", 2, 5),
            unit("SR1", "soviet", 1, 4),
        ],
        _rail_map(),
    )
    s = position(rules, {"GA1": "0303", "GA2": "0304", "GI1": "0506", "SR1": "0707"})
    after, taken = _play_phase(s, TmcHeuristic(1))
    overruns = [a for a in taken if isinstance(a, Overrun)]
    assert overruns and overruns[0].hex == "0707"
    assert JoinOverrun("GI1", "0707") in taken
    # The random level, on the same position: the first decision is almost always a plain move.
    rnd = make_player("random", 1)
    first = rnd.choose(s, engine.legal_actions(s))
    assert not isinstance(first, Overrun)


def test_heuristic_attacks_at_high_odds_and_not_at_low_odds() -> None:
    """§5, §6 CRT: three armoured units and an infantry unit next to a lone 2-CF infantry (11-1
    with the GT 1-4 shift; the infantry pays an Ex) are worth an attack; one 2-CF German
    infantry against a stack of three 3-CF units (below 1-2: Ae on every roll) is not."""
    rules = make_rules(
        [
            unit("GA1", "german", 6, 10, kind="armour"),
            unit("GA2", "german", 6, 10, kind="armour"),
            unit("GA3", "german", 6, 10, kind="armour"),
            unit("GI1", "german", 2, 5),
            unit("GI2", "german", 2, 5),
            unit("SR1", "soviet", 2, 4),
            unit("SR2", "soviet", 3, 4),
            unit("SR3", "soviet", 3, 4),
            unit("SR4", "soviet", 3, 4),
        ],
        _rail_map(),
    )
    placements = {
        "GA1": "0404",
        "GA2": "0405",
        "GA3": "0604",
        "GI2": "0504",
        "SR1": "0505",
        "GI1": "0309",
        "SR2": "0409",
        "SR3": "0409",
        "SR4": "0409",
    }
    s = position(rules, placements, phase="german_combat")
    acts = engine.legal_actions(s)
    assert any(isinstance(a, Attack) and a.target == "0409" for a in acts)
    s2, taken = _play_phase(s, TmcHeuristic(1))
    targets = {a.target for a in taken if isinstance(a, Attack)}
    assert "0505" in targets
    assert "0409" not in targets


def test_soviet_heuristic_closes_a_front_gap() -> None:
    """§15: the Soviet line covers rows 1-6 only; the heuristic moves its reserves so that the
    front has no gap hex at the end of its movement (each gap hex would give the Germans 1 VP);
    the Moscow garrison (SR5, §23) stays."""
    rules = make_rules(
        [
            unit("GI1", "german", 2, 5),
            unit("GI2", "german", 2, 5),
            unit("SR1", "soviet", 2, 4),
            unit("SR2", "soviet", 2, 4),
            unit("SR3", "soviet", 2, 4),
            unit("SR4", "soviet", 2, 4),
            unit("SR5", "soviet", 2, 4),
        ],
        _rail_map(),
    )
    placements = {"GI1": "0203", "GI2": "0208", "SR1": "0802", "SR2": "0805", "SR3": "1108", "SR4": "1109"}
    s = position(rules, placements | {"SR5": "1208"}, phase="soviet_movement")
    m = rules.map

    def gaps(t: Any) -> int:
        return front.front_gaps(
            rules.grid,
            t.occ[SOVIET],
            t.zoc_units_mask(SOVIET),
            north=m.edges["north"],
            south=m.edges["south"],
        )

    assert gaps(s) > 0
    after, _ = _play_phase(s, TmcHeuristic(1))
    assert gaps(after) == 0
    assert after.loc[rules.unit_index["SR5"]] == rules.grid.index["1208"]


# -- evaluation ----------------------------------------------------------------------------------


def test_evaluation_follows_the_victory_ratio() -> None:
    """§24: German marginal victory needs more than 3:1; the score is 1/2 there and rises with
    the German share."""
    assert level_score(300, 100) == pytest.approx(0.5, abs=0.01)
    assert level_score(600, 100) > 0.8 > 0.2 > level_score(100, 100)
    s = engine.new_game("1")
    g, so = vp_estimate(s)
    assert g >= 0 and so >= 0
    assert 0.0 <= german_score(s) <= 1.0
    assert (
        evaluate(s, GERMAN) == pytest.approx(2 * german_score(s) - 1) == pytest.approx(-evaluate(s, SOVIET))
    )


# -- whole games (slow) ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("level", ["random", "heuristic", "search:fast", "search", "search:strong"])
@pytest.mark.parametrize("side", [GERMAN, SOVIET])
def test_every_level_plays_scenario_1_to_the_end(level: str, side: int) -> None:
    """A whole game of scenario 1 (GT 1-8) ends with a result and a §24 victory level."""
    ai = make_player(level, 7)
    other = make_player("heuristic", 8)
    players = (ai, other) if side == GERMAN else (other, ai)
    g = play_checked(players, "1", seed=31 + side)
    assert g.is_over
    assert g.result in ("german", "soviet")
    assert g.state.level
