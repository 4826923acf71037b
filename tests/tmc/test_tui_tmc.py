"""Terminal play of The Moscow Campaign (issue 6 part 5, front ends): a scripted session of
scenario 1 through the command loop: the reconstruction banner, the status line, a unit's
moves, a legal and an illegal move, ending phases, and the `typhoon play --game tmc` command."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from typhoon.game import Game
from typhoon.games.bfm.terminal import BfmSession
from typhoon.games.tmc.terminal import TmcSession
from typhoon.games.tmc.termmap import render_overview, render_window, window_bounds
from typhoon.record import Record
from typhoon.tui.session import Session, make_session


def run_session(commands: Sequence[str], game: Game | None = None) -> tuple[Session, str, int]:
    out = io.StringIO()
    s = make_session(game or Game("tmc", "1", seed=5), {0: None, 1: None}, out=out, width=100)
    rc = s.run(io.StringIO("".join(c + "\n" for c in commands)))
    return s, out.getvalue(), rc


def answer_to(output: str, command: str) -> str:
    marker = f"> {command}\n"
    i = output.index(marker) + len(marker)
    rest = output[i:]
    m = re.search(r"^(German|Soviet|game over)> ", rest, re.M)
    return rest[: m.start()] if m else rest


def test_tmc_games_get_the_tmc_session_and_bfm_keeps_its_own() -> None:
    out = io.StringIO()
    assert isinstance(make_session(Game("tmc", "1", seed=1), {}, out=out), TmcSession)
    bfm = make_session(Game(seed=1), {}, out=out)
    assert type(bfm) is BfmSession


def test_scripted_scenario_1_banner_moves_legal_and_illegal_move_end_phase() -> None:
    session, out, rc = run_session(
        [
            "setup standard",  # Soviet
            "setup standard",  # German
            "moves g1pz",
            "move G1Pz 3040",
            "move G1Pz 0516",
            "hex 0516",
            "end",
        ]
    )
    assert rc == 0
    assert "Traceback" not in out and "internal error" not in out
    # The banner says the map and counters are reconstructions and names the scenario.
    head = out[: out.index("Soviet> ")]
    assert "RECONSTRUCTION: the map and the counters" in head
    assert "scenario 1: Typhoon, the September offensive, GT 1-8" in head
    assert "TMC scenario 1 (RECONSTRUCTION) | Set-up" in head
    # The unit's moves: a window centred on it, destinations marked and listed.
    moves = answer_to(out, "moves g1pz")
    assert "Map window around 1420" in moves
    assert "G1Pz 6-10 (1st Panzer Division) in 1420" in moves
    assert "move G1Pz 1420-0516" in moves
    assert "+" in moves
    # An illegal move is refused with the engine's reason and a hint; nothing is played.
    illegal = answer_to(out, "move G1Pz 3040")
    assert "Illegal: G1Pz cannot reach 3040" in illegal and "`moves G1Pz`" in illegal
    # A legal move (written without the starting hex) is played and reported.
    assert "1st Panzer Division moves 1420 to 0516." in answer_to(out, "move G1Pz 0516")
    assert "German 1st Panzer Division (G1Pz)" in answer_to(out, "hex 0516")
    # Ending the first movement phase leads (through a combat phase without attacks) to the
    # mechanised movement phase, and the status line says so.
    ended = answer_to(out, "end")
    assert "German combat phase" in ended
    assert "GT 1 of 1-8 | German mechanised movement phase | weather: fair | VP German 0, Soviet 0" in ended
    texts = [t for _, t in Record.from_game(session.game).actions]
    # The combat phase had no possible attack: its only action (end) was played by the engine.
    assert texts == ["setup standard", "setup standard", "move G1Pz 1420-0516", "end"]


def test_wrong_input_gets_one_line_answers() -> None:
    _, out, _ = run_session(
        ["setup standard", "setup standard", "move NoSuchUnit 0516", "move G1Pz 05", "roll 3"]
    )
    assert "there is no unit 'NoSuchUnit'" in answer_to(out, "move NoSuchUnit 0516")
    assert "is not a hex" in answer_to(out, "move G1Pz 05")
    assert "rolled automatically" in answer_to(out, "roll 3")


def test_map_recentres_on_a_hex_and_shows_the_overview() -> None:
    _, out, _ = run_session(["map 5623", "map overview", "map 9999"])
    assert "Map window around 5623" in answer_to(out, "map 5623")
    overview = answer_to(out, "map overview")
    assert overview.count("\n") >= 63  # every row of the map
    assert "not a hex of this map" in answer_to(out, "map 9999")


def test_window_and_overview_show_terrain_units_and_marks() -> None:
    """The window cell of Moscow 5622 reads M= (Moscow, rail); a unit's hex shows its side and
    how many units stand there."""
    g = Game("tmc", "1", seed=1)
    g.play_text("setup standard")
    s = g.state
    grid = s.rules.grid
    moscow = grid.index["5622"]
    assert window_bounds(grid, moscow, 10, 6) == (51, 60, 19, 24)
    text = render_window(s, moscow, cols=10, rows=6)
    assert "M=" in text
    u = s.rules.unit_index["S186RD"]
    h = s.loc[u]
    near = render_window(s, h, cols=6, rows=4)
    assert f"S{len(s.units_at(h))}" in near
    lines = render_overview(s, marks=[moscow]).splitlines()
    assert len(lines) == 2 + 63
    assert lines[2 + 21][3 + 55] == "+"  # row 22, column 56: the marked hex


def test_hex_lists_the_actions_with_it_in_combat() -> None:
    """After moving next to a Soviet unit, `hex` on the Soviet hex lists the possible attack."""
    _, out, _ = run_session(["setup standard", "setup standard", "move G253Inf 1801", "end", "hex 1902", "1"])
    listed = answer_to(out, "hex 1902")
    assert "Soviet" in listed and "1. attack 1902 with G253Inf" in listed
    assert "253rd Infantry Division will attack 1902." in answer_to(out, "1")


def test_help_lists_the_tmc_actions_only() -> None:
    """Issue 11: the session's help is the game's own (it once listed Battle for Moscow's actions)."""
    _, out, _ = run_session(["help"])
    text = answer_to(out, "help")
    assert "\n  moves" in text and "The Moscow Campaign actions" in text
    assert "standfast" not in text and "rebuild UNIT HEX" not in text
