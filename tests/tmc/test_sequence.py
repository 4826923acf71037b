"""Sequence of play, scoring at phase ends and the end of the game (rules_en.md §2, §14, §15,
§21, §23, §24, §25; [Q14], [Q39], [Q59], [Q64])."""

from __future__ import annotations

from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import END, SETUP_STANDARD, Enter
from typhoon.games.tmc.rules import GERMAN, SOVIET

from .engine_fixtures import RAIL_ROW_05, REPAIRED_WEST, hx, line_units, make_map, make_rules, position, unit

RAIL = RAIL_ROW_05
REPAIRED = REPAIRED_WEST


ROSTER = line_units("german", 4, "G") + line_units("soviet", 8, "S")


def _phases(events) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.data["phase"] for e in events if e.kind == "phase"]


def test_setup_soviet_first_then_german_then_game_turn_one() -> None:
    """§25.2: the Soviet player sets up first, then the German; then GT 1 begins (§2)."""
    from typhoon.games.tmc.flow import enter_phase
    from typhoon.games.tmc.state import State

    r = make_rules(ROSTER, make_map(rails=(RAIL,), repaired=REPAIRED), last=2)
    s = State(r)
    enter_phase(s, [])
    assert s.phase_spec.key == "setup_soviet" and s.turn == 0
    assert s.current_player() == SOVIET
    assert SETUP_STANDARD in engine.legal_actions(s)
    t, ev = engine.apply(s, SETUP_STANDARD)
    assert [e.data["side"] for e in ev if e.kind == "setup"] == ["soviet"]
    assert _phases(ev) == ["setup_german"] and t.current_player() == GERMAN
    t, ev = engine.apply(t, SETUP_STANDARD)
    assert [e.data["side"] for e in ev if e.kind == "setup"] == ["german"]
    assert _phases(ev)[0] == "german_movement"
    assert t.turn == 1


def test_phase_order_each_game_turn() -> None:
    """§2: German first movement, German combat, German mechanised movement, Soviet movement
    (with the EB relocation step first), Soviet combat; then the next game turn."""
    r = make_rules(ROSTER, make_map(rails=(RAIL,), repaired=REPAIRED), last=2)
    s = position(r, {u["id"]: u["setup"] for u in ROSTER})
    seen: list[str] = ["german_movement"]
    while s.turn == 1:
        s, ev = engine.apply(s, END)
        seen += _phases(ev)
    assert seen == [
        "german_movement",
        "german_combat",
        "german_mechanised",
        "soviet_movement",
        "soviet_combat",
        "german_movement",
    ]
    assert s.turn == 2


def test_game_ends_after_last_turn_with_victory_level() -> None:
    """§24: after the scenario's last game turn the game ends with the VP ratio's level."""
    r = make_rules(ROSTER, make_map(rails=(RAIL,), repaired=REPAIRED), last=1)
    s = position(r, {u["id"]: u["setup"] for u in ROSTER})
    events = []
    while not s.is_terminal:
        s, ev = engine.apply(s, END)
        events += ev
    assert s.result in ("german", "soviet")
    assert s.level.startswith(s.result)
    assert any(e.kind == "game_over" for e in events)
    assert engine.legal_actions(s) == []


def test_front_gaps_score_for_the_opponent_at_end_of_player_turn() -> None:
    """§15, [Q38], [Q39]: at the end of the German player turn each gap hex in the German front
    scores 1 VP for the Soviets. Four German units in column 04 (rows 2, 5, 8, 10) cover every
    row: no gap. Remove the row-10 unit: rows 10 (and nothing else: row 9 is covered by 0408's
    ZOC) -> the cheapest north-south chain crosses 1 uncovered hex."""
    r = make_rules(ROSTER, make_map(rails=(RAIL,), repaired=REPAIRED), last=2)
    full = position(r, {u["id"]: u["setup"] for u in ROSTER}, phase="german_mechanised")
    t, ev = engine.apply(full, END)
    assert t.vp[SOVIET] == full.vp[SOVIET]
    placements = {u["id"]: u["setup"] for u in ROSTER if u["id"] != "G10"}
    gap = position(r, placements, phase="german_mechanised")
    t2, ev2 = engine.apply(gap, END)
    assert t2.vp[SOVIET] == gap.vp[SOVIET] + 1
    assert any(e.kind == "front" for e in ev2)


def test_disruption_lasts_until_end_of_next_german_player_turn() -> None:
    """§7 De,Ad, [Q14]: a unit disrupted in the German combat phase of GT n may not move until the
    end of the German player turn of GT n+1 (option one_game_turn: until the end of that turn's
    German combat phase, so back for its mechanised phase)."""
    for option, back_between in (
        ("next_german_turn", ("german_mechanised", "soviet_movement")),
        ("one_game_turn", ("german_combat", "german_mechanised")),
    ):
        r = make_rules(
            ROSTER, make_map(rails=(RAIL,), repaired=REPAIRED), last=3, options={"disruption_length": option}
        )
        s = position(r, {u["id"]: u["setup"] for u in ROSTER}, turn=2)
        g = r.unit_index["G2"]
        s.disrupted[g] = 2  # disrupted in GT 1
        s._legal = None
        assert "G2" not in {a.unit for a in engine.legal_actions(s) if a.kind == "move"}
        trail: list[str] = ["german_movement"]
        while s.turn == 2:
            s, ev = engine.apply(s, END)
            for e in ev:
                if e.kind == "phase":
                    trail.append(e.data["phase"])
                if e.kind == "recover":
                    trail.append("RECOVER")
        i = trail.index("RECOVER")
        assert (trail[i - 1], trail[i + 1]) == back_between
        assert g not in s.disrupted


def test_german_replacement_returns_an_eliminated_2_5_unit() -> None:
    """§21, [Q59]: in replacement scenarios one eliminated German 2-5 unit comes back at the start
    of the German first movement phase and enters like a reinforcement (west edge)."""
    roster = ROSTER + [unit("GP", "german", 6, 10, "0303", kind="armour")]
    r = make_rules(roster, make_map(rails=(RAIL,), repaired=REPAIRED), last=3, replacements=True)
    placements = {u["id"]: u["setup"] for u in roster if u["id"] != "G2"}
    s = position(r, placements, turn=1, phase="soviet_combat")
    g2 = r.unit_index["G2"]
    s.lost &= ~(1 << g2)  # eliminated, not out of the game
    s, ev = engine.apply(s, END)
    assert s.turn == 2 and s.phase_spec.key == "german_movement"
    assert any(e.kind == "replacement" for e in ev)
    assert s.rules.units[g2].cf == 2 and s.rules.units[g2].ma == 5
    assert not (s.eliminated >> g2) & 1
    assert Enter("G2", "0101") in engine.legal_actions(s)
    assert END not in engine.legal_actions(s)  # [Q60]: it must enter when it can


def test_moscow_capture_scores_fifty_once_at_end_of_soviet_combat() -> None:
    """§23, [Q64]: the Germans score 50 VP once, the first time they hold Moscow in supply at the
    end of a Soviet combat phase (a unit in a Moscow hex, no Soviet unit in any)."""
    roster = ROSTER + [unit("GM", "german", 2, 5)]
    r = make_rules(roster, make_map(rails=(RAIL,), repaired=REPAIRED), last=3)
    placements = {u["id"]: u["setup"] for u in ROSTER}
    placements["GM"] = "1105"
    s = position(r, placements, turn=1, phase="soviet_combat")
    g0 = s.vp[GERMAN]
    t, ev = engine.apply(s, END)
    assert t.vp[GERMAN] == g0 + 50 and t.moscow_award
    assert any(e.kind == "moscow" for e in ev)
    count = 0
    while t.turn < 3:
        t, ev = engine.apply(t, END)
        count += sum(1 for e in ev if e.kind == "moscow")
    assert count == 0  # once per game ([Q64])
    assert t.loc[r.unit_index["GM"]] == hx(r, "1105")
