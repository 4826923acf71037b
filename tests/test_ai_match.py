"""`typhoon match`: Wilson intervals, reproducibility, records, the JSON object."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from typhoon.ai.match import GameResult, MatchResult, german_key, run_match, wilson
from typhoon.cli import main
from typhoon.errors import OptionError
from typhoon.record import Record


def test_wilson_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4)
    assert hi == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(180, 200)
    assert lo == pytest.approx(0.8506, abs=1e-3)
    assert hi == pytest.approx(0.9343, abs=1e-3)


def test_sides_alternate_and_counts_add_up() -> None:
    r = run_match("heuristic", "random", 4, 10)
    assert [g.a_side for g in r.games] == ["german", "soviet", "german", "soviet"]
    d = r.as_dict()
    assert d["games"] == 4
    assert d["a_wins"] + d["b_wins"] + d["draws"] == 4
    per = d["by_side"]
    assert per["a_german"]["games"] == per["a_soviet"]["games"] == 2
    assert per["a_german"]["a_wins"] + per["a_soviet"]["a_wins"] == d["a_wins"]


def test_reproducible_whatever_the_jobs(tmp_path: Path) -> None:
    one = run_match("heuristic", "random", 4, 3, jobs=1, records=tmp_path / "one")
    two = run_match("heuristic", "random", 4, 3, jobs=2, records=tmp_path / "two")
    assert [(g.seed, g.a_side, g.result, g.actions) for g in one.games] == [
        (g.seed, g.a_side, g.result, g.actions) for g in two.games
    ]
    files_one = sorted(p.name for p in (tmp_path / "one").iterdir())
    files_two = sorted(p.name for p in (tmp_path / "two").iterdir())
    assert files_one == files_two and len(files_one) == 4
    for name in files_one:
        a = Record.load(tmp_path / "one" / name)
        b = Record.load(tmp_path / "two" / name)
        assert a.actions == b.actions
    # Records replay to the recorded result and name the players.
    rec = Record.load(tmp_path / "one" / files_one[0])
    assert rec.players == {"german": "heuristic", "soviet": "random"}
    assert rec.replay().result == rec.result


def test_cli_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(
        ["match", "heuristic", "random", "--games", "2", "--seed", "5", "--json", "--records", str(tmp_path)]
    )
    assert code == 0
    d = json.loads(capsys.readouterr().out)
    for key in ("games", "a_wins", "b_wins", "draws", "by_side", "a_win_ci95", "edition", "seed"):
        assert key in d
    assert d["games"] == 2
    assert set(d["by_side"]) == {"a_german", "a_soviet"}
    for side in d["by_side"].values():
        assert {"games", "a_wins", "b_wins", "draws", "a_win_ci95"} <= set(side)
    assert len(list(tmp_path.iterdir())) == 2


def test_cli_table_and_edition(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "match",
            "random",
            "heuristic",
            "--games",
            "2",
            "--edition",
            "vpg2009",
            "-o",
            "soviet_replacements=4",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "vpg2009" in out
    assert "German" in out and "Soviet" in out and "both" in out
    assert "95% CI" in out


def test_bad_arguments() -> None:
    with pytest.raises(OptionError):
        run_match("heuristic", "nobody", 2, 1)
    with pytest.raises(OptionError):
        run_match("heuristic", "random", 0, 1)
    assert main(["match", "heuristic", "nobody", "--games", "1"]) == 2
    with pytest.raises(OptionError):
        run_match("heuristic", "random", 1, 1, game="nogame")
    assert main(["match", "heuristic", "random", "--games", "1", "--game", "nogame"]) == 2


def _result(index: int, seed: int, a_side: str, result: str, margin: float | None) -> GameResult:
    return GameResult(index, seed, a_side, result, 8, 100, 1.0, margin=margin)


def test_paired_score_hand_worked() -> None:
    """Each seed's pair is scored by who did better with the German side: the result first,
    then the margin; an incomplete pair counts for nothing."""
    games = [
        _result(0, 1, "german", "soviet", 1.2),  # A as German 1.2 : B as German 0.9 -> A better
        _result(1, 1, "soviet", "soviet", 0.9),
        _result(2, 2, "german", "soviet", 1.0),  # equal -> half
        _result(3, 2, "soviet", "soviet", 1.0),
        _result(4, 3, "german", "soviet", 0.8),  # 0.8 : 1.0 -> B better
        _result(5, 3, "soviet", "soviet", 1.0),
        _result(6, 4, "german", "german", 3.5),  # a German win beats any Soviet win's margin
        _result(7, 4, "soviet", "soviet", 9.0),
        _result(8, 5, "german", "german", 9.0),  # no partner: not scored
    ]
    m = MatchResult("x", "y", 1, "1", {}, games, 1.0, 1, None, paired=True)
    p = m.pairs()
    assert (p["pairs"], p["a_better"], p["equal"], p["b_better"]) == (4, 2, 1, 1)
    assert p["a_score"] == 0.625
    lo, hi = p["a_score_ci95"]
    assert lo < 0.625 < hi
    assert m.as_dict()["paired"] == p
    assert "A paired score 62.5%" in m.table()
    # German key: the result outranks the margin; no margin counts as 0.
    assert german_key(games[6]) > german_key(games[7])
    assert german_key(_result(0, 1, "german", "draw", None)) == (1, 0.0)


def test_paired_games_share_a_seed_and_swap_sides() -> None:
    r = run_match("heuristic", "random", 4, 7, paired=True)
    assert [(g.seed, g.a_side) for g in r.games] == [
        (7, "german"),
        (7, "soviet"),
        (8, "german"),
        (8, "soviet"),
    ]
    assert r.pairs()["pairs"] == 2
    assert all(g.margin is None for g in r.games)  # Battle for Moscow's result is all there is
    with pytest.raises(OptionError):
        run_match("heuristic", "random", 3, 1, paired=True)
    assert main(["match", "heuristic", "random", "--games", "3", "--paired"]) == 2


def test_games_with_graded_results_give_a_margin() -> None:
    from typhoon.games import game_module

    assert game_module("tmc").result_margin is not None
    assert game_module("mockba").result_margin is not None
    assert game_module("bfm").result_margin is None
