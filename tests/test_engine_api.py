"""The engine facade (issue 2 item 6): exact legal lists, a pure step, typed errors, chance
nodes, forced decisions, undo back to the last die roll."""

import random

import pytest

from typhoon.errors import IllegalActionError
from typhoon.game import CHANCE, Game
from typhoon.games.bfm.actions import END, Attack, Lose, Move, Place, Roll
from typhoon.games.bfm.engine import apply, chance_outcomes, legal_actions, new_game
from typhoon.games.bfm.notation import position_to_text


def test_new_game_starts_with_the_soviet_setup() -> None:
    s = new_game()
    assert s.rules.phases[s.phase].key == "setup_soviet"
    assert s.current_player() == 1
    acts = legal_actions(s)
    # Standard set-up plus every (army, set-up hex) pair: 16 armies (1st Shock excluded) x 13 hexes.
    assert len(acts) == 1 + 16 * 13


def test_apply_is_pure_and_illegal_actions_change_nothing(started: Game) -> None:
    s = started.state
    before = position_to_text(s)
    for bad in (Move("XXIV", "0409", "1103"), Place("XXIV", "0409"), Roll(3), Attack("XXIV", "0509")):
        with pytest.raises(IllegalActionError):
            apply(s, bad)
        assert position_to_text(s) == before
    with pytest.raises(IllegalActionError):
        apply(s, "move XXIV 0409-0509")  # type: ignore[arg-type]
    a = legal_actions(s)[0]
    s2, events = apply(s, a)
    assert position_to_text(s) == before
    assert position_to_text(s2) != before
    assert events and all(e.text for e in events)


def test_every_legal_action_applies_and_no_listed_action_is_rejected() -> None:
    rng = random.Random(3)
    for edition in ("gdw1986", "vpg2009"):
        s = new_game(edition)
        for _ in range(400):
            if s.is_terminal:
                break
            acts = legal_actions(s)
            assert len(set(acts)) == len(acts), "duplicate legal actions"
            for a in rng.sample(acts, min(5, len(acts))):
                apply(s, a)  # must not raise
            s, _ = apply(s, rng.choice(acts))


def test_chance_node_lists_six_rolls(started: Game) -> None:
    g = started
    # Play to the first German combat with a declared attack.
    while g.state.rules.phases[g.state.phase].kind != "combat":
        g.play(END)
    attacks = [a for a in g.legal_actions() if isinstance(a, Attack)]
    g.play(attacks[0])
    g.play(END)
    assert g.current_player() == CHANCE
    assert [o[0].die for o in chance_outcomes(g.state)] == [1, 2, 3, 4, 5, 6]
    assert sum(p for _, p in chance_outcomes(g.state)) == pytest.approx(1)
    assert not g.can_undo() or g.history[-1].actor != CHANCE
    g.roll()
    assert g.history[-1].actor == CHANCE
    assert not g.can_undo()  # never across a die roll


def test_undo_reaches_back_across_a_phase_end_until_a_die_is_rolled(started: Game) -> None:
    """Issue 15: undo reaches back across phase ends as long as no die was rolled since (the
    engine's undo rule: never across a die roll), and never takes the move back from the other
    player once it has passed to them."""
    g = started
    start = g.position()
    move = next(a for a in g.legal_actions() if isinstance(a, Move))
    g.play(move)
    assert g.can_undo()
    g.undo()
    assert g.position() == start
    g.play(move)
    phase = g.state.phase
    g.play(END)  # ends the panzer movement phase: the German combat phase follows
    assert g.state.phase != phase
    assert g.can_undo() and g.can_undo(0)
    assert not g.can_undo(1)  # the last decision was the German's
    g.undo()
    assert g.state.phase == phase and g.can_undo()
    g.undo()
    assert g.position() == start
    # Across a die roll: never.
    g.play(END)
    while g.state.rules.phases[g.state.phase].kind != "combat":
        g.play(END)
    g.play(next(a for a in g.legal_actions() if isinstance(a, Attack)))
    g.play(END)
    g.roll_dice()
    assert not g.can_undo()
    with pytest.raises(IllegalActionError):
        g.undo()


def test_undo_never_takes_the_move_back_from_the_other_player() -> None:
    """A phase end that hands the move to the other player: that player's side may not be
    undone for him, and the mover may undo only where he is also the player to move now
    (``players``: hot seat plays both sides)."""
    g = Game(seed=3)
    g.play_text("setup standard")  # the Soviet set-up hands the move to the German
    assert g.current_player() == 0
    assert g.can_undo(1, players=(0, 1))  # hot seat: both sides at one screen
    assert not g.can_undo(1)  # remote: the German has the move now
    assert not g.can_undo(0)  # and it was not the German's decision
    with pytest.raises(IllegalActionError):
        g.undo(1)


def test_forced_decisions_are_taken_by_the_engine() -> None:
    """A German replacement phase with nothing to replace passes by itself (turn 2)."""
    g = Game(seed=5)
    g.play_text("setup standard")
    g.play_text("setup standard")
    while g.state.turn < 2:
        if g.current_player() == CHANCE:
            g.roll()
        else:
            g.play(END) if END in g.legal_actions() else g.play(g.legal_actions()[0])
    # No German unit was lost, so the German replacement phase was skipped to panzer movement.
    assert g.state.rules.phases[g.state.phase].key == "german_panzer_movement"


def test_ex_loss_choice_is_offered_only_among_surviving_attackers() -> None:
    rng = random.Random(8)
    seen = 0
    for seed in range(40):
        g = Game(seed=seed)
        while not g.is_over and seen < 3:
            if g.current_player() == CHANCE:
                g.roll()
                continue
            acts = g.legal_actions()
            loses = [a for a in acts if isinstance(a, Lose)]
            if loses:
                cur = g.state.cur
                ids = {g.state.rules.units[u].id for u in cur.attackers if g.state.loc[u] >= 0}
                assert {a.unit for a in loses} == ids
                seen += 1
            g.play(rng.choice(acts))
        if seen >= 3:
            break
    assert seen >= 1
