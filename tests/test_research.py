"""Issue 16 points 3-5: round-robin tournaments with ratings, balance studies with a report and
plots, and the same results on the local process pool, in one process and on Ray."""

from __future__ import annotations

import dataclasses
import json
import math
import time
from pathlib import Path
from typing import Any

import pytest

from typhoon.cli import main
from typhoon.errors import OptionError
from typhoon.games import game_module
from typhoon.research.study import (
    StudyGame,
    StudyResult,
    grid_cells,
    load_json,
    parse_grid,
    run_study,
    save_json,
    write_report,
)
from typhoon.research.tournament import bradley_terry, run_tournament


def _same(d: dict[str, Any]) -> dict[str, Any]:
    """A result without what depends on the backend (time, the backend's name)."""
    return {k: v for k, v in d.items() if k not in ("seconds", "backend")}


def test_bradley_terry_recovers_a_known_strength_gap() -> None:
    # 75% expected score is +190.8 Elo (400 log10 3); mean 0 means +-95.4.
    games = [(0, 1, 1.0)] * 300 + [(0, 1, 0.0)] * 100
    r = bradley_terry(2, games)
    assert abs(r[0] - r[1] - 400 * math.log10(3)) < 2
    assert abs(r[0] + r[1]) < 1e-6
    # A player who never loses stays finite (the virtual draws).
    assert all(math.isfinite(x) for x in bradley_terry(2, [(0, 1, 1.0)] * 5))


def test_tournament_round_robin_alternates_sides_and_rates_with_intervals() -> None:
    t = run_tournament(["random", "heuristic"], 6, 3)
    d = t.as_dict()
    assert [g.result.a_side for g in t.games] == ["german", "soviet"] * 3  # sides alternated
    assert [g.result.seed for g in t.games] == list(range(3, 9))  # seeded per game index
    top = d["ratings"][0]
    assert top["player"] == "heuristic" and top["wins"] == 6  # heuristic beats random every time
    lo, hi = top["ci95"]
    assert lo < top["rating"] <= hi and lo > 0
    assert d["cross"]["heuristic"]["random"] == 6
    assert "heuristic" in t.table() and "95% interval" in t.table()


def test_tournament_same_table_in_one_process_and_on_the_pool() -> None:
    args: tuple[list[str], int, int] = (["random", "heuristic"], 4, 11)
    one = run_tournament(*args, jobs=1).as_dict()
    pool = run_tournament(*args, jobs=2).as_dict()
    assert _same(one) == _same(pool)


def test_tournament_cli_prints_the_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.json"
    assert main(["tournament", "random", "heuristic", "--games", "2", "--json", str(out)]) == 0
    assert "Round robin: 2 players" in capsys.readouterr().out
    d = json.loads(out.read_text())
    assert {r["player"] for r in d["ratings"]} == {"random", "heuristic"}
    assert main(["tournament", "random", "--games", "2"]) == 2  # one player: a one-line error
    assert "at least two players" in capsys.readouterr().err


def test_study_grid_report_and_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    axes = parse_grid(["soviet_replacements=5,3"])
    r = run_study("heuristic", "random", 4, 1, axes=axes)
    assert [c.label for c in r.cells] == ["soviet_replacements=5", "soviet_replacements=3"]
    s = r.cell_summary(0)
    assert s["games"] == 4 and s["german_wins"] + s["soviet_wins"] + s["draws"] == 4
    assert s["a_wins"] == 4  # heuristic (A) beats random on both sides
    lo, hi = s["german_ci95"]
    assert lo <= s["german_rate"] <= hi
    for g in r.games:  # a decisive capture only in a game whose winner took Moscow
        assert g.decisive_turn is None or 1 <= g.decisive_turn <= g.turns
    files = write_report(r, tmp_path / "study.md", command="typhoon study ...")
    text = (tmp_path / "study.md").read_text()
    assert "| 3 | gdw1986 | 4 |" in text and "| soviet_replacements | edition | games |" in text
    pngs = [f for f in files if f.suffix == ".png"]
    assert len(pngs) == 3 and all(f.read_bytes()[:4] == b"\x89PNG" for f in pngs)
    assert all(f"]({f.name})" in text for f in pngs)
    assert "## Headline" in text and "`soviet_replacements` (other axes pooled)" in text
    # A saved study writes the same report again without playing (typhoon study --from-json).
    save_json(r, tmp_path / "study.json")
    again = load_json(tmp_path / "study.json")
    assert [again.cell_summary(c) for c in range(2)] == [r.cell_summary(c) for c in range(2)]
    assert (
        main(["study", "--from-json", str(tmp_path / "study.json"), "--report", str(tmp_path / "b.md")]) == 0
    )
    tables = text.split("## Headline")[1].split("## Plots")[0]
    assert (tmp_path / "b.md").read_text().split("## Headline")[1].split("## Plots")[0] == tables


def test_decisive_capture_comes_from_the_games_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11: the study names no game; the objective's holder is the kit's
    (FrontEnds.objective_holder). Random play: the Germans took Moscow in two of these games
    and the Soviets took it back in turn 7 (the decisive capture); a game whose kit has no
    objective has none."""
    r = run_study("random", "random", 20, 1, game="bfm", edition="gdw1986")
    assert [(g.index, g.result, g.decisive_turn) for g in r.games if g.decisive_turn is not None] == [
        (13, "soviet", 7),
        (19, "soviet", 7),
    ]
    m = game_module("bfm")
    monkeypatch.setitem(m.__dict__, "front_ends", dataclasses.replace(m.front_ends, objective_holder=None))
    r = run_study("random", "random", 20, 1, game="bfm", edition="gdw1986")
    assert all(g.decisive_turn is None for g in r.games)


def test_study_tmc_reports_victory_levels(tmp_path: Path) -> None:
    # A played tmc game takes seconds; the tally and the report are checked on made-up games.
    cells = grid_cells([("edition", ["1", "24"])], None, {})
    games = [
        StudyGame(i, i // 3, i, "german", res, 8, 1000, None, level)
        for i, (res, level) in enumerate(
            [("soviet", "soviet_decisive"), ("soviet", "soviet_marginal"), ("german", "german_marginal")] * 2
        )
    ]
    r = StudyResult(
        "random", "random", "tmc", 1, 3, [("edition", ["1", "24"])], cells, games, 1.0, "test", ["1", "24"]
    )
    s = r.cell_summary(1)
    assert s["levels"] == {"german_marginal": 1, "soviet_decisive": 1, "soviet_marginal": 1}
    assert s["soviet_wins"] == 2 and s["edition"] == "24"
    files = write_report(r, tmp_path / "tmc.md")
    text = (tmp_path / "tmc.md").read_text()
    assert "## Victory levels" in text and "| 24 | 1 | 1 | 1 |" in text
    if any(f.suffix == ".png" for f in files):
        assert (tmp_path / "tmc_levels.png").exists()


def test_study_bad_grid_is_refused_before_any_game() -> None:
    with pytest.raises(OptionError):
        parse_grid(["soviet_replacements"])
    with pytest.raises(OptionError):
        parse_grid(["a=1", "a=2"])
    cells = grid_cells([("soviet_replacements", ["9"])], None, {})
    with pytest.raises(Exception, match="9"):
        run_study("random", "random", 1, 1, axes=[("soviet_replacements", ["9"])])
    assert len(cells) == 1


def test_ray_local_cluster_gives_the_same_tournament_table_as_the_pool() -> None:
    # Issue 16 point 5. Starting a local Ray cluster takes ~15 s on a 2-core machine.
    pytest.importorskip("ray")
    args: tuple[list[str], int, int] = (["random", "heuristic"], 4, 7)
    pool = run_tournament(*args, jobs=2)
    t0 = time.perf_counter()
    on_ray = run_tournament(*args, jobs=2, ray="local")
    assert time.perf_counter() - t0 < 120
    assert _same(on_ray.as_dict()) == _same(pool.as_dict())
    assert on_ray.table().split("\ntime:")[0] == pool.table().split("\ntime:")[0]
