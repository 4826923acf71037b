"""Moscow Attacked!'s front-end views (games/frontends.py, issue 12 point 4): the browser's state,
legal-action, hex and preview views, the SVG and text maps, the plain words; the reconstruction
is labelled wherever the map and the counters are shown."""

from __future__ import annotations

import json
import re

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.ma.engine import legal_actions, new_game
from typhoon.games.ma.kit import FRONT_ENDS as F
from typhoon.games.ma.notation import action_from_text, action_to_text
from typhoon.games.ma.termmap import map_lines, map_width
from typhoon.games.ma.words import NOTICE

from .world import play, world


def _legal(s):  # type: ignore[no-untyped-def]
    return F.legal_view(s, legal_actions(s), action_to_text)


def test_state_view_has_what_the_client_requires_and_the_notice() -> None:
    s = new_game("campaign")
    v = F.state_view(s)
    json.dumps(v)
    assert {"turn", "phase", "to_move", "result", "units"} <= set(v)
    assert v["notice"] == NOTICE and v["to_move"] == "soviet" and v["phase"]["key"] == "setup"
    assert len(v["turn_track"]) == 10 and v["turn_track"][1]["mud"] is True  # seed: turn 2 Mud
    assert v["turn_label"] == "GT 1 (1-15 Oct 41)" and F.turn_label(s.rules, 0) == "set-up"
    moscow = next(c for c in v["cities"] if c["hex"] == "I7")
    assert moscow["victory"] == ["german", "soviet"] and moscow["controller"] == "soviet"
    assert len(v["hexes"]) == 130
    u = next(x for x in v["units"] if x["id"] == "4PzGp")
    assert u["hex"] == "F1" and u["factors"] == "5-2-6" and u["in_supply"] is True


def test_legal_view_gives_each_action_its_hexes_and_units() -> None:
    s = new_game()
    lv = _legal(s)
    assert lv["prompt"].startswith("Soviet set-up")
    base = lv["actions"][0]
    assert base["kind"] == "base" and base["hexes"] == [base["hex"]] and base["units"] == ["StratBomb"]
    s = play(s, "base StratBomb I7")
    acts = _legal(s)["actions"]
    att = next(d for d in acts if d["text"] == "attack 4PzGp F2")
    assert (
        att["units"] == ["4PzGp"]
        and att["hexes"] == ["F1", "F2"]
        and att["group"] == "F2"
        and att["with"] == []
    )
    s = play(s, "attack 4PzGp F2")
    more = next(d for d in _legal(s)["actions"] if d["kind"] == "attack")
    assert more["with"] == ["4PzGp"]
    fire = next(d for d in _legal(s)["actions"] if d["kind"] == "fire")
    # a decision about the whole battle is a button: no units or hexes a click could hit by accident
    assert fire["hexes"] == [] and fire["units"] == [] and fire["label"] == "Resolve the attack on F2"
    cancel = next(d for d in _legal(s)["actions"] if d["kind"] == "cancel")
    assert cancel["hexes"] == [] and cancel["units"] == []
    for d in acts:
        assert action_from_text(d["text"]) in legal_actions(s.replace(battle=None)) or d["kind"] != "attack"
        assert d["label"] and isinstance(d["hexes"], list) and isinstance(d["units"], list)


def test_a_move_and_a_retreat_draw_their_paths() -> None:
    s = world({"13A": "D3"}, phase="s_movement")
    mv = next(d for d in _legal(s)["actions"] if d["kind"] == "move")
    assert mv["hexes"][0] == "D3" and mv["hexes"][-1] == mv["dst"]
    s = world({"4PzGp": "B5", "46PzK": "B5", "43A": "B6"}, turn=2)
    s = play(s, "attack 4PzGp B6", "attack 46PzK B6", "fire", "roll 6")
    assert s.battle is not None and s.battle.step == "retreat"
    for d in _legal(s)["actions"]:
        assert d["hexes"][0] == "B6" and d["units"] == ["43A"] and d["dst"] == d["hexes"][-1]


def test_render_map_marks_every_hex_and_counter_and_the_reconstruction() -> None:
    s = new_game()
    svg = F.render_map(s, True)
    assert svg.startswith("<svg") and "viewBox" in svg and 'class="numbers"' in svg
    assert len(re.findall(r'<g id="hex-[A-M]\d+" data-hex=', svg)) == 130
    on_map = sum(1 for h in s.loc if h >= 0)
    assert len(re.findall(r'<g class="unit" data-unit="', svg)) == on_map
    assert "Reconstruction" in svg and 'class="numbers"' not in F.render_map(s, False)


def test_text_map_fits_and_labels_the_reconstruction() -> None:
    lines = map_lines(new_game())
    assert len(lines) == 13 * 2 + 2 and lines[-1] == NOTICE
    assert all(len(x) <= map_width() for x in lines[:-2])
    assert "I7 MOS" in "\n".join(lines)


def test_preview_gives_the_column_and_each_die() -> None:
    s = play(new_game(), "base StratBomb I7")
    p = F.preview(s, "F2", ["4PzGp", "46PzK"])  # type: ignore[misc]
    assert p["column"] is not None and len(p["by_die"]) == 6
    assert abs(sum(p["chances"].values()) - 1.0) < 1e-9 and p["table"]["head"][0] == "Die"
    assert p["title"].startswith("4PzGp + 46PzK against")
    for bad in (("Z9", ["4PzGp"]), ("F2", ["nobody"]), ("F2", []), ("I7", ["4PzGp"])):
        with pytest.raises(IllegalActionError):
            F.preview(s, *bad)  # type: ignore[misc]


def test_words_show_position_hex_and_odds() -> None:
    s = play(new_game(), "base StratBomb I7")
    legal = legal_actions(s)
    lines = F.position_words(s, legal, "German to move", 0)  # type: ignore[misc]
    assert lines[0] == NOTICE and "German victory cities held" in "\n".join(lines)
    assert F.hex_words(s, 86).startswith("I7, clear, Moscow (capital, German and Soviet victory city")  # type: ignore[misc]
    assert "Strategic Bombers' base" in F.hex_words(s, 86)  # type: ignore[misc]
    words = F.odds_words(s, "F2", ["4PzGp"], legal, action_to_text)  # type: ignore[misc]
    assert "Final column" in words
    far = world({"106ID": "B5", "50A": "B6", "32RD": "B6", "316RD": "B6"})  # 1:6
    with pytest.raises(IllegalActionError):
        F.odds_words(far, "B6", ["106ID"], legal_actions(far), action_to_text)  # type: ignore[misc]
    assert F.edition_title("basic", "Basic game, turns 1-6").endswith("(reconstructed map and counters)")
    assert F.ai == "typhoon.games.ma.ai" and F.env_codec == "typhoon.games.ma.env.codec:CODEC"
