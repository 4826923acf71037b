"""Issue 11 ("Done when"): no file outside ``src/typhoon/games/<key>/`` names a particular game.

Every .py, .js, .html and .css file under src/typhoon is read, except the files of a game's own
package (``src/typhoon/games/<key>/...``); the files directly in src/typhoon/games/ (the
registry, the driver, the front-end contract) are read too. A line offends when it holds a
game's name or key as a word (``bfm``, ``tmc``, "Battle for Moscow", "Moscow Campaign"), one
of its edition keys (``gdw1986``, ``vpg2009``), or a reference to a game's package
(``typhoon.games.<key>`` for any package under src/typhoon/games/, ``from typhoon.games import
<key>``, a relative import of one). The registry (games/__init__.py) may name the games in its
``_REGISTRY`` table and ``DEFAULT_GAME`` only.

The current count, per folder (``--list``: every offending line too)::

    .venv/bin/python tests/test_no_game_names.py [--list]
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "typhoon"
GAMES = SRC / "games"
SUFFIXES = (".py", ".js", ".html", ".css")

# A word: not glued to letters or digits (an underscore separates: tmc_session offends).
_WORDS = re.compile(
    r"(?<![A-Za-z0-9])(?:bfm|tmc|gdw1986|vpg2009)(?![A-Za-z0-9])|battle\s+for\s+moscow|moscow\s+campaign",
    re.IGNORECASE,
)
# Names allowed in the registry's table and default only.
_REGISTRY_NAMES = ("_REGISTRY", "DEFAULT_GAME")


def game_packages() -> list[str]:
    """Every game package under src/typhoon/games/ (a folder with an __init__.py)."""
    return sorted(p.name for p in GAMES.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def scanned_files() -> list[Path]:
    out = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(GAMES) if path.is_relative_to(GAMES) else None
        if rel is not None and len(rel.parts) > 1:
            continue  # inside a game's own package
        out.append(path)
    return out


def _package_refs(packages: list[str]) -> re.Pattern[str]:
    keys = "|".join(re.escape(k) for k in packages)
    return re.compile(rf"typhoon\.games\.(?:{keys})(?![A-Za-z0-9_])")


def _import_lines(tree: ast.AST, packages: list[str]) -> set[int]:
    """Lines importing a game package in a form the text pattern misses: ``from typhoon.games
    import <key>``, or relative (``from .bfm import x`` in games/, ``from ..games.tmc``)."""
    lines = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        mod = node.module or ""
        parts = mod.split(".")
        if mod == "typhoon.games" or (node.level and parts[-1] == "games"):
            if any(a.name in packages for a in node.names):
                lines.add(node.lineno)
        elif node.level and any(p in packages for p in parts):
            lines.add(node.lineno)
    return lines


def _allowed_lines(path: Path, tree: ast.AST | None) -> set[int]:
    """The registry's table and default (games/__init__.py only)."""
    if path != GAMES / "__init__.py" or tree is None:
        return set()
    out: set[int] = set()
    for node in ast.iter_child_nodes(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id in _REGISTRY_NAMES for t in targets):
            out.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return out


def offenders() -> list[tuple[str, int, str]]:
    """(path relative to src/typhoon, line number, the line) for every offending line."""
    packages = game_packages()
    refs = _package_refs(packages)
    out = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        hits: set[int] = set()
        for pattern in (_WORDS, refs):
            for m in pattern.finditer(text):
                hits.add(text.count("\n", 0, m.start()) + 1)
        tree = None
        if path.suffix == ".py":
            try:
                tree = ast.parse(text)
            except SyntaxError:
                tree = None  # another test reports it; the text patterns still apply
            if tree is not None:
                hits |= _import_lines(tree, packages)
        hits -= _allowed_lines(path, tree)
        rel = path.relative_to(SRC).as_posix()
        out += [(rel, n, lines[n - 1].strip() if n <= len(lines) else "") for n in sorted(hits)]
    return out


def folder_of(rel: str) -> str:
    """The top folder under src/typhoon ("typhoon" for its own files; "games" for the files
    directly in games/)."""
    parts = rel.split("/")
    return parts[0] if len(parts) > 1 else "typhoon"


def counts(found: list[tuple[str, int, str]]) -> Counter[str]:
    return Counter(folder_of(rel) for rel, _, _ in found)


def _summary(found: list[tuple[str, int, str]], limit: int | None) -> str:
    c = counts(found)
    head = ", ".join(f"{folder}: {n}" for folder, n in sorted(c.items()))
    lines = [f"{len(found)} line(s) outside the game packages name a game ({head})"]
    shown = found if limit is None else found[:limit]
    lines += [f"  src/typhoon/{rel}:{n}: {text[:120]}" for rel, n, text in shown]
    if len(shown) < len(found):
        lines.append(f"  ... and {len(found) - len(shown)} more (python tests/test_no_game_names.py --list)")
    return "\n".join(lines)


def test_the_scan_sees_the_files_and_the_words() -> None:
    # A scan that read nothing, or a pattern that never matched, would pass everything.
    files = {p.relative_to(SRC).as_posix() for p in scanned_files()}
    assert "game.py" in files and "games/__init__.py" in files and "games/frontends.py" in files
    assert not any(f.startswith("games/bfm/") for f in files)
    assert "bfm" in game_packages() and "tmc" in game_packages()
    for bad in ("# a tmc_session", "Battle for\n    Moscow", "The Moscow Campaign", "ed = 'GDW1986'"):
        assert _WORDS.search(bad), bad
    for fine in ("tmcx", "abfm", "Moscow", "typhoon.games.frontends"):
        assert not _WORDS.search(fine) and not _package_refs(game_packages()).search(fine), fine
    assert _package_refs(["bfm"]).search("importlib.import_module('typhoon.games.bfm.engine')")
    tree = ast.parse(
        "from typhoon.games import bfm\nfrom .tmc import engine\nfrom typhoon.games import game_keys"
    )
    assert _import_lines(tree, ["bfm", "tmc"]) == {1, 2}


def test_the_registry_may_name_games_in_its_table_only() -> None:
    allowed = _allowed_lines(GAMES / "__init__.py", ast.parse((GAMES / "__init__.py").read_text()))
    assert allowed, "the registry's _REGISTRY and DEFAULT_GAME were not found"


def test_no_file_outside_a_game_package_names_a_game() -> None:
    found = offenders()
    assert found == [], _summary(found, limit=200)


if __name__ == "__main__":
    found = offenders()
    print(_summary(found, limit=None if "--list" in sys.argv[1:] else 0))
