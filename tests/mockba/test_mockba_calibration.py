"""MOCKBA calibration (issue 13 point 4): the victory cities against the 1941 course (rules_en.md
11, gaps.md MO-V1) and the calibration script's report (docs/MOCKBA_CALIBRATION.md)."""

from __future__ import annotations

from itertools import product

from typhoon.games.mockba.ai_calibrate import MARKERS, GameLog, historical_captures, historical_score, report
from typhoon.games.mockba.engine import new_game, result_of, victory_points


def test_the_1941_course_scores_five_a_draw_under_the_pack_cities() -> None:
    """MO-V1: ten cities at their historical capture weeks plus Moscow: 8 taken in time, Tula,
    Serpukhov and Moscow held: 8 - 2 - 1 = 5, the seed's undefined score (rules_en.md 11.2: a draw)."""
    s = new_game(None, {"victory_cities": "pack18"})
    assert historical_score(s) == 5 and result_of(s, 5) == "draw"


def test_the_1941_course_under_the_seed17_default_scores_four() -> None:
    """rules_en.md 11.1 (seed: 10 calendar cities, Moscow one of them, 17 in all): without Kursk the
    same course scores 7 - 3 = 4, a narrow Soviet win."""
    s = new_game(None, {})
    assert historical_score(s) == 4 and result_of(s, 4) == "soviet"


def test_no_seed17_list_scores_five_while_moscow_holds() -> None:
    """Why the calibration needs the pack's eleventh entry: with ten entries (nine cities at +/-1,
    Moscow -1 when held) every outcome is a sum of ten odd numbers, so even; 5 is out of reach."""
    s = new_game(None, {})
    r = s.rules
    moscow = r.cities["Moscow"]
    others = [h for h, _, _ in r.victory if h != moscow]
    scores = set()
    for bits in product((0, 1), repeat=len(others)):
        mask = sum(1 << h for h, b in zip(others, bits, strict=True) if b)
        scores.add(victory_points(s.replace(taken=mask, control=mask)))
    assert 5 not in scores and all(v % 2 == 0 for v in scores) and {4, 6} <= scores


def test_historical_captures_cover_every_victory_city_and_respect_the_deadlines() -> None:
    """MO-V1's deadlines are the capture weeks (Vyazma, Kalinin, Rzhev with a week's grace)."""
    hist = historical_captures()
    r = new_game(None, {"victory_cities": "pack18"}).rules
    names = {h: n for n, h in r.cities.items()}
    for h, deadline, _ in r.victory:
        t = hist[names[h]]
        assert t is None or t <= deadline


def test_calibration_report_has_every_marker() -> None:
    s = new_game(None, {})

    log = GameLog(result="soviet", score=4, turns=1, at_end_of={1: s})
    lines = report([log])
    assert sum(1 for line in lines if line.startswith("| ") and "(T" in line) == len(MARKERS) + 1
    assert "| Orel, Bryansk German (T1) | yes (3, 6 Oct) | 0/1 |" in lines
    assert any("the 1941 course scores 4 (soviet)" in line for line in lines)
