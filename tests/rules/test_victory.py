"""Victory (seed 002, «Условие победы»: "Побеждает тот, кто удерживает Москву в конце игры.
Игрок удерживает Москву, если одна из его частей была последней частью, которая была в
городе."; bfm_data §11 for VPG: German wins with Moscow; Soviet wins with Moscow and any one
other city; anything else is a draw)."""

from __future__ import annotations

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.bfm.engine import apply, legal_actions
from typhoon.games.bfm.notation import action_from_text
from typhoon.games.bfm.state import TERMINAL

from .helpers import GDW, VPG, act, pos

ALL_BUT_MOSCOW = "0204,0307,0509,0601,0603,0803,0805,0809,1107,1405"


def last_phase(
    ed: str = GDW, ctl: str = "0204,0307", G: str = "XXIV@0101", S: str = "16A@1410/h", t: int = 7
):  # type: ignore[no-untyped-def]
    return pos(ed=ed, G=G, S=S, t=t, ph="soviet_movement", ctl=ctl)


@pytest.mark.parametrize(
    ("ctl", "G", "winner"),
    [
        ("0204,0307", "XXIV@0101", "soviet"),  # Soviet-held from the start
        ("0204,0307,1103", "XXIV@1103", "german"),  # a German unit in Moscow
        ("0204,0307,1103", "XXIV@0101", "german"),  # a German unit was last in it, and left
        (ALL_BUT_MOSCOW, "XXIV@0101", "soviet"),  # GDW: only Moscow counts
    ],
)
def test_gdw_moscow_decides_at_end_of_turn_7(ctl: str, G: str, winner: str) -> None:
    """«Условие победы» (GDW): the player holding Moscow at the end of the game wins; holding
    means his unit was the last in the city. The game ends after the Soviet movement phase of
    turn 7."""
    s, ev = act(last_phase(ctl=ctl, G=G), "end")
    assert s.is_terminal and s.result == winner
    assert any(e.kind == "game_over" for e in ev)


def test_game_goes_on_before_turn_7_ends() -> None:
    """«Как играть» and «Условие победы»: victory is judged only at the end of the game (turn
    7). The Germans holding Moscow at the end of turn 6 does not end it; nor does the loss of
    every Soviet unit (no sudden death in the rules)."""
    s, _ = act(last_phase(ctl="0204,0307,1103", t=6), "end")
    assert not s.is_terminal and s.turn == 7
    s = pos(G="XXIV@1103", S="-", t=6, ph="german_movement", ctl="0204,0307,1103")
    s, _ = act(s, "end")
    assert not s.is_terminal


def test_finished_game_accepts_no_action() -> None:
    """After the end there is nothing to do: no legal action; any action raises
    IllegalActionError."""
    s, _ = act(last_phase(), "end")
    assert s.current_player() == TERMINAL
    assert legal_actions(s) == []
    with pytest.raises(IllegalActionError):
        apply(s, action_from_text("end"))


@pytest.mark.parametrize(
    ("ctl", "G", "winner"),
    [
        ("0204,0307,1103", "XXIV@1103", "german"),  # German holds Moscow
        ("0204,0307", "XXIV@0101", "soviet"),  # Moscow and other cities
        ("0204,0307,0509,0601,0603,0803,0805,0809,1107", "XXIV@0101", "soviet"),  # Moscow + Ryazan
        (ALL_BUT_MOSCOW, "XXIV@0101", "draw"),  # Moscow alone
    ],
)
def test_vpg_victory_with_draw(ctl: str, G: str, winner: str) -> None:
    """VPG (bfm_data §11): the German player wins if he controls Moscow after turn 7; the
    Soviet player wins if he controls Moscow and at least one other city; anything else is a
    draw."""
    s, _ = act(last_phase(ed=VPG, ctl=ctl, G=G), "end")
    assert s.is_terminal and s.result == winner
