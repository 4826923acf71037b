"""Sequence of play (seed 002, «Как играть» / "How to play"; bfm_data §8)."""

from __future__ import annotations

import pytest

from typhoon.games.bfm.engine import new_game
from typhoon.games.bfm.state import CHANCE, TERMINAL

from .helpers import GDW, VPG, act, assert_illegal, legal, phase, play, pos

GDW_SEQUENCE = [
    "german_replacement",
    "german_panzer_movement",
    "german_combat",
    "german_movement",
    "soviet_replacement",
    "soviet_rail_movement",
    "soviet_combat",
    "soviet_movement",
]


def started(edition: str = GDW, **options: str):  # type: ignore[no-untyped-def]
    return play(new_game(edition, options), "setup standard", "setup standard")


def walk_ends(s):  # type: ignore[no-untyped-def]
    """End every phase in turn (no moves, no attacks, no replacements) to the end of the game;
    returns the (turn, phase) pairs entered, in order, and the final state."""
    seen = [(s.turn, phase(s))]
    while not s.is_terminal:
        choices = legal(s)
        # VPG: 1st Shock Army must be placed before the turn-4 Soviet replacement phase ends.
        first = "end" if "end" in choices else min(a for a in choices if a.startswith("reinforce 1SA"))
        s, events = act(s, first)
        for e in events:
            if e.kind == "phase":
                seen.append((e.data["turn"], e.data["phase"]))
    return seen, s


@pytest.mark.parametrize("edition", [GDW, VPG])
def test_eight_phases_in_order(edition: str) -> None:
    """«Как играть»: each turn has eight phases in this exact order; the first four are the
    German player's turn, the last four the Soviet player's."""
    r = new_game(edition).rules
    keys = [p.key for p in r.phases[r.first_turn_phase :]]
    assert keys == GDW_SEQUENCE
    sides = [p.side for p in r.phases[r.first_turn_phase :]]
    assert sides == [0, 0, 0, 0, 1, 1, 1, 1]
    kinds = [(p.kind, p.movers) for p in r.phases[r.first_turn_phase :]]
    assert kinds == [
        ("replacement", ""),
        ("movement", "panzer"),
        ("combat", ""),
        ("movement", "all"),
        ("replacement", ""),
        ("movement", "rail"),
        ("combat", ""),
        ("movement", "all"),
    ]


def test_whole_game_sequence_gdw() -> None:
    """«Как играть» and «Начало игры»: seven turns of eight phases; on turn 1 the German
    replacement phase is skipped (all German units start at full strength), so the game
    starts with the German panzer movement phase. Every later turn has all eight phases. The
    game ends after the Soviet movement phase of turn 7."""
    seen, s = walk_ends(started(GDW))
    want = [(1, p) for p in GDW_SEQUENCE[1:]] + [(t, p) for t in range(2, 8) for p in GDW_SEQUENCE]
    assert seen == want
    assert s.is_terminal and s.turn == 7
    assert s.current_player() == TERMINAL
    assert legal(s) == set()


def test_whole_game_sequence_vpg() -> None:
    """VPG 2009 (bfm_data §8, UNVERIFIED there, engine option ``turn1_combat_first``, default
    yes): the German turn 1 starts directly with the combat phase (no replacement, no panzer
    movement phase); later turns as GDW."""
    seen, _ = walk_ends(started(VPG))
    want = [(1, p) for p in GDW_SEQUENCE[2:]] + [(t, p) for t in range(2, 8) for p in GDW_SEQUENCE]
    assert seen == want


def test_vpg_turn1_panzer_phase_option() -> None:
    """VPG with ``turn1_combat_first=no``: turn 1 runs as in GDW (panzer movement first)."""
    s = started(VPG, turn1_combat_first="no")
    assert (s.turn, phase(s)) == (1, "german_panzer_movement")


def _movers(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {a.split()[1] for a in legal(s) if a.startswith("move ")}


def test_panzer_phase_moves_only_panzers() -> None:
    """«Как играть», phase 2 and «Движение»: in the German panzer movement phase only panzer
    units may move; infantry corps have no move."""
    s = started(GDW)
    assert phase(s) == "german_panzer_movement"
    r = s.rules
    panzers = {u.id for u in r.units if u.panzer}
    assert _movers(s) == panzers  # every panzer has somewhere to go at the start
    assert_illegal(s, "move XXXV 0310-0410")  # an infantry corps


def test_general_movement_moves_all_including_panzers_again() -> None:
    """«Как играть», phase 4: in the German movement phase all German units may move,
    including those that moved in phase 2."""
    s = started(GDW)
    s = play(s, "move XXIV 0409-0308")  # moves in the panzer phase ...
    s = play(s, "end", "end")  # ... no attacks ...
    assert phase(s) == "german_movement"
    movers = _movers(s)
    assert "XXIV" in movers  # ... and may move again
    assert "XXXV" in movers and "VIII" in movers  # infantry too
    assert not any(s.rules.units[s.rules.unit_index[u]].side == 1 for u in movers)


def test_a_unit_moves_once_per_phase() -> None:
    """«Движение»: units move one at a time; a unit that has moved in this phase has no
    further move in it."""
    s = started(GDW)
    s = play(s, "move XXIV 0409-0308")
    assert "XXIV" not in _movers(s)
    assert_illegal(s, "move XXIV 0308-0409")


def test_current_player_by_phase() -> None:
    """«Как играть»: phases 1-4 are the German player's, 5-8 the Soviet player's; a die roll
    is a chance event."""
    s = started(GDW)
    assert s.current_player() == 0
    s = play(s, "end", "end", "end")
    assert phase(s) == "soviet_replacement" and s.current_player() == 1
    c = pos(
        G="XXIV@0403!",
        S="16A@0504/h",
        step="roll",
        cur="16A<XXIV:0504:1:-:0",
        ph="german_combat",
    )
    assert c.current_player() == CHANCE


@pytest.mark.parametrize(
    ("ph", "bad"),
    [
        ("german_panzer_movement", "attack XXIV 0504"),
        ("german_panzer_movement", "rebuild XXXV 0101"),
        ("german_combat", "move XXIV 0403-0402"),
        ("german_combat", "roll 3"),
        ("german_movement", "restore XXIV"),
        ("german_replacement", "move XXIV 0403-0402"),
    ],
)
def test_actions_of_another_phase_are_illegal(ph: str, bad: str) -> None:
    """«Как играть»: all actions of a phase must be finished before the next phase starts;
    an action belonging to another phase raises IllegalActionError and changes nothing."""
    s = pos(G="XXIV@0403/h,XXXV@0303", S="16A@0504/h", t=2, ph=ph, repl=1 if "replacement" in ph else 0)
    assert_illegal(s, bad)
