"""The README is a new user's first page: every ``typhoon`` command it shows must parse, name a
registered game, a real edition, real rule options and real players, and every file it points
to must exist (the README had fallen two games behind the registry before this test).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from typhoon.cli import build_parser
from typhoon.cli.common import options_from, two_players
from typhoon.game import Game
from typhoon.games import DEFAULT_GAME, game_module
from typhoon.players import make_player

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands() -> list[str]:
    """The ``typhoon ...`` lines of the README's shell blocks, comments cut."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            m = re.match(r"^(?:\.venv/bin/)?typhoon\s+(.*)$", line)
            if m:  # "[--json]": an optional part, as in a usage line
                out.append(re.sub(r"\[([^\]]*)\]", r"\1", m.group(1)))
    return out


COMMANDS = _commands()


def test_the_readme_shows_commands() -> None:
    assert len(COMMANDS) >= 15


@pytest.mark.parametrize("line", COMMANDS)
def test_every_readme_command_parses_and_names_real_things(line: str) -> None:
    args = build_parser().parse_args(shlex.split(line))
    game = getattr(args, "game", None) or DEFAULT_GAME
    module = game_module(game)  # raises for an unknown game
    edition = getattr(args, "edition", None)
    if edition not in (None, "all"):
        assert edition in module.editions(), f"{line}: no edition {edition!r} of {game}"
    options = options_from(args) if hasattr(args, "option") else {}
    Game(game, edition if edition != "all" else None, options, seed=1)  # raises on a bad option
    names = [getattr(args, a, None) for a in ("german", "soviet", "a", "b", "player")]
    if isinstance(getattr(args, "players", None), str):
        names += two_players(args.players)
    elif isinstance(getattr(args, "players", None), list):
        names += args.players
    for name in names:
        if isinstance(name, str) and name != "human":
            make_player(name, 1)  # raises for an unknown level


def test_every_file_the_readme_names_exists() -> None:
    named = set(re.findall(r"`((?:docs|examples|tools|src|benchmarks)/[^`\s]+)`", README))
    named |= set(re.findall(r"\]\(((?:docs|examples)/[^)\s]+)\)", README))
    assert named
    missing = sorted(p for p in named if "<" not in p and not (ROOT / p).exists())
    assert not missing, f"the README names files that do not exist: {missing}"


def test_the_readme_names_every_registered_game() -> None:
    from typhoon.games import game_keys

    for key in game_keys():
        assert game_module(key).title in README, f"the README never names {game_module(key).title}"
