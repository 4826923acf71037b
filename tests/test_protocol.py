"""Issue 16 point 1: any program can play through the engine protocol (docs/PROTOCOL.md).

The example random engine draws with Python's ``random.Random(seed).choice`` over the legal
actions in the order the host lists them, exactly as the built-in ``random`` level does with
``randrange``; so a full game through the protocol must be move for move the built-in game,
which checks every position, legal list and answer of the game on the way.
"""

from __future__ import annotations

import logging
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from typhoon.cli import main
from typhoon.game import Game
from typhoon.players import make_player
from typhoon.players.external import ExternalPlayer
from typhoon.protocol import EngineClient, EngineError
from typhoon.selfplay import play_game

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
PY_ENGINE = f"cmd:{PY} {ROOT / 'examples/engines/random_engine.py'}"
JS_ENGINE = f"cmd:node {ROOT / 'examples/engines/random_engine.js'}"
BAD_ENGINE = f"cmd:{PY} {ROOT / 'tests/engines/bad_engine.py'}"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def _texts(g: Game) -> list[str]:
    return [g.text(e.action) for e in g.history]


def _client(p: Any) -> EngineClient:
    assert isinstance(p, ExternalPlayer) and p.client is not None
    return p.client


@pytest.mark.parametrize(("game", "edition", "seed"), [("bfm", None, 5), ("tmc", "1", 1)])
def test_engine_plays_a_full_game_move_for_move_like_the_builtin_level(
    game: str, edition: str | None, seed: int
) -> None:
    # "An external engine plays a full game of both games through the protocol" (issue 16).
    engine = make_player(f"{PY_ENGINE} 1")
    g = play_game([engine, make_player("random", 2)], game=game, edition=edition, seed=seed)
    ref = play_game(
        [make_player("random", 1), make_player("random", 2)], game=game, edition=edition, seed=seed
    )
    assert g.is_over and g.result == ref.result
    assert _texts(g) == _texts(ref)
    log = list(_client(engine).log)
    assert any(x.startswith("> go 5000") for x in log)
    engine.close()  # type: ignore[attr-defined]


@needs_node
def test_javascript_engine_plays_both_sides_and_hears_events_and_dice() -> None:
    ger, sov = make_player(JS_ENGINE), make_player(JS_ENGINE)
    g = play_game([ger, sov], game="bfm", seed=6)
    assert g.is_over and g.result in ("german", "soviet", "draw")
    log = list(_client(ger).log)
    assert _client(ger).name == "random-js"  # from its `ready` line
    # Issue 16: "events and die results are reported": the other side's moves, each die and events.
    assert any(x.startswith("> played soviet ") for x in log)
    assert any(x.startswith("> die ") for x in log)
    assert any(x.startswith("> event battle ") for x in log)
    client = _client(sov)
    sov.close()  # type: ignore[attr-defined]
    assert any(x.startswith("> gameover ") for x in client.log)
    assert client.proc.poll() is not None  # the engine exited
    ger.close()  # type: ignore[attr-defined]


def test_die_lines_give_the_die_that_was_rolled() -> None:
    engine = make_player(f"{PY_ENGINE} 3")
    g = play_game([engine, make_player("random", 4)], game="bfm", seed=9)
    rolled = [g.text(e.action) for e in g.history if e.actor < 0]  # "roll N"
    client = _client(engine)
    engine.close()  # type: ignore[attr-defined]
    sent = [x[len("> die ") :] for x in client.log if x.startswith("> die ")]
    # The log keeps the latest lines only (LOG_LINES): compare the rolls it still holds.
    assert len(sent) >= 5 and sent == [f"{t.split()[1]} {t}" for t in rolled][-len(sent) :]


def test_builtin_level_served_by_typhoon_engine_plays_a_full_game() -> None:
    served = make_player(f"cmd:{PY} -m typhoon engine --player heuristic --seed 4")
    g = play_game([make_player("random", 1), served], game="bfm", seed=2)
    assert g.is_over
    assert _client(served).name == "typhoon-heuristic"
    served.close()  # type: ignore[attr-defined]


def test_bad_answers_are_refused_with_a_reason_logged_then_forfeit(caplog: pytest.LogCaptureFixture) -> None:
    bad = make_player(BAD_ENGINE)
    g = Game("bfm", seed=1)
    with (
        caplog.at_level(logging.WARNING, logger="typhoon.protocol"),
        pytest.raises(EngineError, match="forfeits") as err,
    ):
        bad.choose(g.state, g.legal_actions())
    assert err.value.side == 1  # the Soviet sets up first
    log = "\n".join(_client_log(bad))
    assert "> refused malformed action '%%% not notation'" in log
    assert (
        "> refused illegal action 'setup nowhere'" in log
        or "> refused malformed action 'setup nowhere'" in log
    )
    assert "> refused expected 'move <action>' or 'legal', got 'hello'" in log
    assert "> forfeit 4 answers refused" in log
    assert len([r for r in caplog.records if "refused" in r.getMessage()]) == 4


def _client_log(p: Any) -> list[str]:
    # The client is kept after a failure (killed), so the log can be read.
    return list(_client(p).log)


def test_crashed_engine_forfeits_with_its_stderr_in_the_error() -> None:
    code = "import sys; print('ready crash', flush=True); sys.stdin.readline(); sys.stderr.write('boom: out of ideas\\n'); sys.exit(3)"
    dead = make_player(f'cmd:{PY} -c "{code}"')
    g = Game("bfm", seed=1)
    with pytest.raises(EngineError, match=r"exited \(code 3\).*boom: out of ideas"):
        dead.choose(g.state, g.legal_actions())
    assert "boom: out of ideas" in _client(dead).stderr


def test_engine_that_never_starts_or_never_greets_is_a_typed_error() -> None:
    g = Game("bfm", seed=1)
    with pytest.raises(EngineError, match="cannot start engine"):
        make_player("cmd:/no/such/engine").choose(g.state, g.legal_actions())
    with pytest.raises(EngineError, match="exited"):
        make_player(f"cmd:{PY} -c pass").choose(g.state, g.legal_actions())
    with pytest.raises(EngineError, match="did not answer 'ready'"):
        make_player(f"cmd:{PY} -c \"print('hello')\"").choose(g.state, g.legal_actions())


def test_hung_engine_times_out_forfeits_and_is_killed() -> None:
    hung = EngineClient(
        f"{PY} -c \"import time; print('ready hung', flush=True); time.sleep(30)\"", timeout=0.5
    )
    g = Game("bfm", seed=1)
    with pytest.raises(EngineError, match="in time"):
        hung.choose(g.state, g.legal_actions(), budget_ms=0)
    assert hung.proc.poll() is not None  # killed, not left behind


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "random", "cmd:/no/such/engine", "--games", "1"],
        ["selfplay", "--players", f"{BAD_ENGINE},random", "--games", "1"],
        ["tournament", "random", "cmd:/no/such/engine", "--games", "1", "--json", "-"],
    ],
)
def test_failing_engine_in_a_command_is_one_line_not_a_traceback(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(argv)
    err = capsys.readouterr()
    if argv[0] == "tournament":
        # A tournament goes on: the engine forfeits its games, and the reason is kept.
        assert rc == 0 and '"forfeit": "cannot start engine' in err.out
        return
    assert rc == 2
    assert "Traceback" not in err.err
    lines = err.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"typhoon {argv[0]}: error: ") and "engine" in lines[0]


def test_play_accepts_an_engine_player() -> None:
    from typhoon.cli.play import make_controller

    p = make_controller(f"{PY_ENGINE} 1", 1)
    assert isinstance(p, ExternalPlayer)


def test_web_service_refuses_to_run_commands(client: Any) -> None:
    # `typhoon serve` must never let a visitor start a program: only built-in levels.
    before = len(client.get("/api/games").json()["games"])
    r = client.post("/api/games", json={"mode": "ai", "side": "german", "level": "cmd:echo hi"})
    assert r.status_code == 400, r.text
    assert "unknown AI level" in r.json()["error"]
    assert len(client.get("/api/games").json()["games"]) == before
    levels = (
        client.get("/api/meta").json().get("levels", []) if client.get("/api/meta").status_code == 200 else []
    )
    assert not any(str(lv).startswith("cmd:") for lv in levels)


def test_serve_answers_a_good_position_and_explains_a_bad_one() -> None:
    import io

    from typhoon.protocol import serve

    g = Game("bfm", seed=1)
    host = io.StringIO(
        f"typhoon 1\nposition {g.position()}\ngo 100\nposition bfm nonsense\ngo 100\nrefused illegal\nquit\n"
    )
    out = io.StringIO()
    assert serve(make_player("random", 1), host, out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "ready typhoon-random"
    assert lines[1] in {"move " + g.text(a) for a in g.legal_actions()}
    # A bad position: a reason for the log and a refusable answer, each time it is asked.
    assert lines[2].startswith("info error cannot move") and lines[3] == "move none"
    assert lines[4].startswith("info error") and lines[5] == "move none" and len(lines) == 6


def test_info_lines_are_not_answers() -> None:
    code = (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split()[0]\n"
        "    if w == 'typhoon': print('ready chatty', flush=True)\n"
        "    if w == 'go': print('info thinking hard', flush=True); print('move setup standard', flush=True)\n"
        "    if w == 'quit': break\n"
    )
    p = make_player(f"cmd:{PY} -c {shlex.quote(code)}")
    g = Game("bfm", seed=1)
    assert g.text(p.choose(g.state, g.legal_actions())) == "setup standard"
    assert "< info thinking hard" in _client(p).log
    p.close()  # type: ignore[attr-defined]


@pytest.mark.slow
@needs_node
def test_javascript_engine_plays_both_sides_of_a_full_tmc_game() -> None:
    # Thousands of actions, every one through the protocol on both sides (~15 s): make soak.
    ger, sov = make_player(JS_ENGINE), make_player(JS_ENGINE)
    g = play_game([ger, sov], game="tmc", edition="24", seed=2)
    assert g.is_over and g.state.level
    ger.close()  # type: ignore[attr-defined]
    sov.close()  # type: ignore[attr-defined]
