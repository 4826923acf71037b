"""The command line (issue 2 items 7 and 9): selfplay summary and records, replay, bench,
soak, and one-line errors instead of tracebacks."""

import json
from pathlib import Path

import pytest

from typhoon.cli import main


def test_selfplay_json_and_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "selfplay",
            "--players",
            "random,random",
            "--games",
            "3",
            "--seed",
            "1",
            "--json",
            "--records",
            str(tmp_path),
        ]
    )
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 3
    assert summary["german_wins"] + summary["soviet_wins"] + summary["draws"] == 3
    files = sorted(tmp_path.iterdir())
    assert len(files) == 3
    assert main(["replay", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "3 of 3 records replayed" in out


def test_selfplay_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["selfplay", "--games", "2", "--seed", "9", "--json", "--edition", "vpg2009"])
    a = json.loads(capsys.readouterr().out)
    main(["selfplay", "--games", "2", "--seed", "9", "--json", "--edition", "vpg2009"])
    b = json.loads(capsys.readouterr().out)
    for k in ("german_wins", "soviet_wins", "draws", "mean_actions_per_game"):
        assert a[k] == b[k]


def test_replay_reports_a_corrupt_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "bfm"]\n[Edition "gdw1986"]\n\n1. S move XXIV 0101-0202\n')
    assert main(["replay", str(bad)]) == 1
    assert "FAILED" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["selfplay", "--players", "random"],
        ["selfplay", "--players", "random,deep-blue"],
        ["selfplay", "--edition", "nope"],
        ["selfplay", "-o", "soviet_replacements=12"],
        ["selfplay", "--games", "0"],
        ["replay", "/no/such/file"],
    ],
)
def test_user_errors_are_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc != 0 or "FAILED" in err
    assert "Traceback" not in err


def test_bench_prints_name_value_lines(capsys: pytest.CaptureFixture[str]) -> None:
    from typhoon.bench import core_figures

    figures = dict(core_figures(quick=True))
    for key in ("random_games_per_s", "us_per_legal_actions", "us_per_apply"):
        assert float(figures[key]) > 0  # type: ignore[arg-type]


def test_soak_runs_a_few_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["soak", "--games", "4", "--seed", "77"]) == 0
    assert "every invariant held" in capsys.readouterr().out


def test_rules_lists_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "crt_4to1_die3" in out and "vpg2009" in out


def test_rules_prints_each_option_once(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 15, Terminal: `typhoon rules --game tmc` printed the same options 24 times.
    assert main(["rules", "--game", "tmc"]) == 0
    out = capsys.readouterr().out
    assert out.count("-o forest_reading=VALUE") == 1
    assert "24:" in out


def test_rules_options_pointer_exists(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 15, Terminal: `--help` pointed to `typhoon rules --options`, which did not exist.
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "rules --options" not in capsys.readouterr().out
    assert main(["rules", "--options"]) == 0
    assert "crt_4to1_die3" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["match", "study", "tournament"])
def test_help_prints_percent_once(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 15, Terminal: `match --help` printed "95%%".
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "95%" in out and "%%" not in out


def test_play_default_opponent_is_heuristic() -> None:
    # Issue 15, Terminal: the default opponent was `random`; the browser's (and README's) is the computer.
    from typhoon.cli.play import default_opponent
    from typhoon.game import Game

    assert default_opponent(Game("bfm", seed=1)) == "heuristic"


def test_make_play_takes_a_port() -> None:
    # Issue 15, Terminal: `make play` could not choose a port (`make play PORT=8080`).
    import subprocess

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", "play", "PORT=8080"], cwd=root, capture_output=True, text=True
    ).stdout
    assert "--port 8080" in out
