"""The Moscow Campaign engine interface: registration, legality, purity, notation, records."""

from __future__ import annotations

import random

import pytest

from typhoon.errors import IllegalActionError, NotationError, OptionError
from typhoon.game import Game
from typhoon.games import game_keys, game_module
from typhoon.games.tmc import engine, invariants
from typhoon.games.tmc.actions import (
    END,
    SETUP_STANDARD,
    Advance,
    Arrive,
    Attack,
    Detrain,
    Disrupt,
    Enter,
    Entrain,
    Ignore,
    JoinOverrun,
    Lose,
    Move,
    Odds,
    Overrun,
    Place,
    RailMove,
    Relocate,
    Retreat,
    Roll,
)
from typhoon.games.tmc.notation import action_from_text, action_to_text, position_from_text, position_to_text
from typhoon.games.tmc.rules import load_rules, option_specs
from typhoon.record import Record

from .engine_fixtures import make_map, make_rules, position, unit

ALL_KINDS = [
    SETUP_STANDARD,
    Place("G251Inf", "1234"),
    Move("G1Pz", "1020", "1322"),
    Enter("G5Inf", "0105"),
    Arrive("S1Gds", "7830"),
    Entrain("S16A"),
    RailMove("S16A", "6020", "6630"),
    Detrain("S16A"),
    Relocate("SEB3", "5522"),
    Overrun("1422", ("G1Pz", "G6Pz")),
    JoinOverrun("G7Pz", "1422"),
    END,
    Attack("1422", ("G1Pz",)),
    Attack("1423", ()),
    Odds("3-1"),
    Ignore(True),
    Ignore(False),
    Roll(4),
    Lose("G1Pz"),
    Disrupt("G1Pz"),
    Retreat("S16A", "1523"),
    Advance("G1Pz", "1422"),
    Advance(None, "1422"),
    Advance(None, ""),
]


def test_registered_as_a_game_module() -> None:
    assert "tmc" in game_keys()
    m = game_module("tmc")
    assert m.default_edition == "1" and set(m.editions()) == {str(n) for n in range(1, 25)}
    assert "ignorable_result" in m.option_specs("1")


def test_every_action_kind_round_trips_through_text() -> None:
    for a in ALL_KINDS:
        assert action_from_text(action_to_text(a)) == a


@pytest.mark.parametrize("bad", ["", "fly G1 0101", "move G1 0101", "roll 7", "odds x", "ignore maybe"])
def test_malformed_action_text_is_a_notation_error(bad: str) -> None:
    with pytest.raises(NotationError):
        action_from_text(bad)


def test_options_are_validated() -> None:
    """data/options.json: one option per [Qn] reading; unknown names and values are refused."""
    specs = option_specs("1")
    assert specs["ignorable_result"].q == "Q8" and specs["ignorable_result"].choices == ("Dr", "Br")
    with pytest.raises(OptionError):
        load_rules("1", {"ignorable_result": "Ar"})
    with pytest.raises(OptionError):
        load_rules("1", {"no_such_option": "yes"})
    with pytest.raises(OptionError):
        load_rules("25")


def test_illegal_action_changes_nothing_and_apply_copies() -> None:
    r = make_rules([unit("G1", "german", 2, 5), unit("S1", "soviet", 2, 4)], make_map())
    s = position(r, {"G1": "0305", "S1": "0905"})
    text = position_to_text(s)
    with pytest.raises(IllegalActionError):
        engine.apply(s, Move("G1", "0305", "0905"))  # enemy-occupied (§3.1)
    with pytest.raises(IllegalActionError):
        engine.apply(s, Move("G1", "0305", "1205"))  # out of reach
    t, events = engine.apply(s, Move("G1", "0305", "0505"))
    assert position_to_text(s) == text
    assert t.loc[r.unit_index["G1"]] == r.grid.index["0505"] and events


def test_scenario_one_plays_through_game_and_record() -> None:
    """typhoon.game.Game("tmc", "1") works with records: a few random actions replay exactly."""
    g = Game("tmc", "1", seed=3)
    rng = random.Random(3)
    for _ in range(60):
        if g.is_over:
            break
        g.roll_dice()
        acts = g.legal_actions()
        ends = [a for a in acts if a.kind == "end"]
        g.play(ends[0] if ends and rng.random() < 0.3 else rng.choice(acts))
    rec = Record.from_text(Record.from_game(g).to_text())
    again = rec.replay(check_result=False)
    assert position_to_text(again.state) == position_to_text(g.state)
    assert position_from_text(position_to_text(g.state)) == g.state
    assert invariants.problems(g.state) == []


def test_position_text_round_trips_mid_movement() -> None:
    r = make_rules([unit("G1", "german", 2, 5), unit("S1", "soviet", 2, 4)], make_map())
    s = position(r, {"G1": "0305", "S1": "0905"})
    t, _ = engine.apply(s, Move("G1", "0305", "0505"))
    assert position_from_text(position_to_text(t), r) == t
