"""MOCKBA's kit (issue 13; docs/ENGINE.md "How to add a game"): the terminal session with the
game's text map (labelled a reconstruction), the browser's legal view (each move with its unit and
hexes, each attack grouped by its target), the odds preview, and the position reader refusing a
damaged field with a typed error, field by field."""

from __future__ import annotations

import html
import io
import json

import pytest

from typhoon.errors import IllegalActionError, NotationError
from typhoon.game import Game
from typhoon.games import game_module
from typhoon.games.mockba import kit
from typhoon.games.mockba.engine import legal_actions, new_game
from typhoon.games.mockba.notation import action_to_text, position_from_text, position_to_text
from typhoon.games.mockba.terminal import MockbaSession
from typhoon.games.mockba.termmap import map_lines, map_width
from typhoon.games.mockba.words import NOTICE

from .world import world


def test_terminal_session_shows_the_map_and_plays() -> None:
    from typhoon.tui.session import make_session

    out = io.StringIO()
    session = make_session(Game("mockba", seed=3), {0: None, 1: None}, out=out, width=120)
    assert isinstance(session, MockbaSession)
    rc = session.run(io.StringIO("end\nmap\nhex 2912\nquit\n"))
    text = out.getvalue()
    assert rc == 0 and NOTICE in text and "| air G" in text
    assert session.state.phase_spec.key == "g_move"  # the air allocation was ended
    assert any(line.startswith("29 ") for line in text.splitlines())  # row 29 of the text map


def test_text_map_marks_units_cities_and_the_battle() -> None:
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")
    lines = map_lines(s)
    assert len(lines) == 1 + s.rules.rows + 3 and lines[-1] == NOTICE
    assert max(len(x) for x in lines[: 1 + s.rules.rows]) <= map_width()
    col = 3 + 2 * 17  # hex 1836: column 18, row 36
    assert lines[36][col] == "G"
    marked = map_lines(s, highlight=[0])
    assert marked[1][3] == "#"  # hex 0101 highlighted


def test_legal_view_gives_units_and_hexes() -> None:
    s = new_game()
    s = s.replace(phase=2)  # the German first movement
    fe = game_module("mockba").front_ends
    view = fe.legal_view(s, legal_actions(s), action_to_text)
    moves = [a for a in view["actions"] if a["kind"] == "move"]
    assert moves and all(len(a["hexes"]) == 2 and a["units"] == [a["unit"]] for a in moves)
    assert view["prompt"].startswith("Click one of your units")
    c = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")
    attacks = [
        a for a in fe.legal_view(c, legal_actions(c), action_to_text)["actions"] if a["kind"] == "attack"
    ]
    assert attacks and all(a["group"] == a["target"] and a["with"] == [] for a in attacks)


def test_preview_gives_each_die_and_refuses_a_bad_attack() -> None:
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")
    p = kit.preview(s, "1937", ["G9A.inf1"])
    assert p["column"] == "4:1" and len(p["by_die"]) == 6 and abs(sum(p["chances"].values()) - 1) < 1e-9
    assert p["table"]["rows"][0][1:] == [s.rules.crt[d][5] for d in range(1, 7)]
    for target, units in (("1937", ["G9A.inf1", "G9A.inf1"]), ("1937", []), ("1937", ["16A.rif1"])):
        with pytest.raises(IllegalActionError):
            kit.preview(s, target, units)


def test_svg_map_carries_the_notice_and_every_counter() -> None:
    s = new_game()
    svg = kit.render_map(s, False)
    on_map = sum(1 for h in s.loc if h >= 0)
    assert svg.count('class="unit"') == on_map and f"<title>{html.escape(NOTICE)}</title>" in svg
    assert svg.count("<g data-hex=") == len(s.rules.terrain) and 'id="overlay"' in svg


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("turn", 0),
        ("turn", True),
        ("phase", 17),
        ("loc", [0]),
        ("red", -1),
        ("control", "1"),
        ("air_g", 1000),
        ("result", "nobody"),
        ("score", 1.5),
        ("battle", {"target": 99999}),
        ("battle", {"target": 0, "step": "nowhere"}),
        ("battle", {"target": 0, "step": "retreat", "result": "D1"}),  # no hex to retreat from
        ("battle", {"target": 0, "fog": 1}),
        ("extra", 1),
    ],
)
def test_position_reader_refuses_a_damaged_field(field: str, value: object) -> None:
    """A damaged position is a NotationError naming the field (never a state the engine cannot
    play, never another exception)."""
    text = position_to_text(new_game())
    head, body = text[: text.index("{")], json.loads(text[text.index("{") :])
    body[field] = value
    with pytest.raises(NotationError):
        position_from_text(head + json.dumps(body))


def test_a_unit_on_a_lake_is_refused() -> None:
    s = new_game()
    lake = s.rules.terrain.index("lake")
    text = position_to_text(s.replace(loc=(lake, *s.loc[1:])))
    with pytest.raises(NotationError, match="lake"):
        position_from_text(text)
