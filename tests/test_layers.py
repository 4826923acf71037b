"""The import graph of src/typhoon: no circles and no upward imports (issue 11 point 3).

The graph is read from the source with ``ast`` (every ``import`` and ``from ... import``,
lazy ones inside functions included, ``if TYPE_CHECKING:`` blocks left out), one node per
module. Layers are those of docs/ENGINE.md: core (hex geometry, maps, mechanics) < games
< game and records < players and AI < front ends; a front end never imports another one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PKG = SRC / "typhoon"

# Circles inside one game's engine, being removed by the engine work (issue 11 point 3): they
# may shrink or vanish, never grow outside these packages.
KNOWN_CYCLE_PACKAGES: tuple[str, ...] = ()

# (importer prefix, imported prefix) pairs allowed for now although upward; each is work left
# for a later stage of the game kit.
KNOWN_UPWARD: set[tuple[str, str]] = set()

CORE = (
    "typhoon.errors",
    "typhoon.events",
    "typhoon.hexgrid",
    "typhoon.hexmap",
    "typhoon.hexdraw",
    "typhoon.mapdata",
    "typhoon.datafile",
    "typhoon.mechanics",
)
# typhoon.protocol is not among them: it is the engine protocol's library, used both by the
# players (an external program is a player) and by `typhoon engine`.
FRONT_ENDS = ("typhoon.web", "typhoon.tui", "typhoon.cli", "typhoon.env", "typhoon.agents")
ABOVE_GAMES = (
    "typhoon.game",
    "typhoon.record",
    "typhoon.players",
    "typhoon.ai",
    "typhoon.selfplay",
    "typhoon.bench",
    "typhoon.research",
    "typhoon.protocol",
    *FRONT_ENDS,
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("typhoon"):
                    out.add(a.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.startswith("typhoon"):
                for a in node.names:
                    sub = f"{mod}.{a.name}"
                    out.add(sub if sub in modules else mod)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    out.discard(name)
    return {m for m in out if m in modules}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(comp)
    return out


# A game package is a vertical slice: its engine sits in the games layer, and its adapters for
# a framework sit in that framework's layer (they may import it; it finds them only by the
# names in the game's kit). Adapter modules are named for their framework: games/<key>/ai*,
# env*, terminal*.
ADAPTER_LAYERS = {"ai": "typhoon.ai", "env": "typhoon.env", "terminal": "typhoon.tui"}
_ADAPTER = re.compile(r"^typhoon\.games\.(\w+)\.(ai|env|terminal)(?:_\w*)?(?:\.|$)")


def _layer_name(name: str) -> str:
    """The module's name for the layer rules: an adapter module of a game is placed in its
    framework's package (typhoon.games.bfm.ai.search counts as typhoon.ai.<adapter>)."""
    m = _ADAPTER.match(name)
    return f"{ADAPTER_LAYERS[m.group(2)]}.adapter_{m.group(1)}" if m else name


def _under(name: str, prefixes: tuple[str, ...] | str) -> bool:
    if isinstance(prefixes, str):
        prefixes = (prefixes,)
    name = _layer_name(name)
    return any(
        name == p or name.startswith(p + ".") or (p.endswith(".") and name.startswith(p)) for p in prefixes
    )


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_the_graph_is_read(graph: dict[str, set[str]]) -> None:
    # A broken reader would find no edges and pass everything below.
    assert "typhoon.web.service" in graph
    assert "typhoon.games" in graph["typhoon.web.service"]
    assert "typhoon.game" in graph["typhoon.record"]


def test_no_import_circles_outside_the_game_engines(graph: dict[str, set[str]]) -> None:
    """Issue 11 point 3: records, players and front ends depend downward only."""
    bad = [
        sorted(c)
        for c in _cycles(graph)
        if not any(all(m.startswith(p) for m in c) for p in KNOWN_CYCLE_PACKAGES)
    ]
    assert bad == []


def _violations(
    graph: dict[str, set[str]], importer: tuple[str, ...], imported: tuple[str, ...]
) -> list[str]:
    out = []
    for a, deps in graph.items():
        if not _under(a, importer):
            continue
        for b in deps:
            if _under(b, imported) and not any(a.startswith(x) and b.startswith(y) for x, y in KNOWN_UPWARD):
                out.append(f"{a} -> {b}")
    return sorted(out)


def test_core_imports_no_game_and_nothing_above(graph: dict[str, set[str]]) -> None:
    assert _violations(graph, CORE, ("typhoon.games", *ABOVE_GAMES)) == []


def test_games_import_no_front_end_nor_anything_above(graph: dict[str, set[str]]) -> None:
    """A game package declares its front ends by name (FrontEnds.terminal, .ai); it
    never imports one."""
    assert _violations(graph, ("typhoon.games",), ABOVE_GAMES) == []


def test_game_and_records_import_no_player_nor_front_end(graph: dict[str, set[str]]) -> None:
    above = ("typhoon.players", "typhoon.ai", "typhoon.selfplay", "typhoon.research", *FRONT_ENDS)
    assert _violations(graph, ("typhoon.game", "typhoon.record"), above) == []


def test_players_and_ai_import_no_front_end(graph: dict[str, set[str]]) -> None:
    assert _violations(graph, ("typhoon.players", "typhoon.ai"), FRONT_ENDS) == []


@pytest.mark.parametrize("front_end", ["typhoon.web", "typhoon.tui", "typhoon.env", "typhoon.agents"])
def test_a_front_end_imports_no_other_front_end(graph: dict[str, set[str]], front_end: str) -> None:
    """The web layer never imports the terminal layer (issue 11 point 3), nor any front end
    another (what two need lives below both). The command line is the one above them all."""
    others = tuple(f for f in FRONT_ENDS if f != front_end)
    assert _violations(graph, (front_end,), others) == []


def test_the_known_exceptions_are_still_needed(graph: dict[str, set[str]]) -> None:
    """An exception nobody needs any more is taken off the list (so it cannot hide a new one)."""
    for x, y in KNOWN_UPWARD:
        assert any(a.startswith(x) and any(b.startswith(y) for b in deps) for a, deps in graph.items()), (
            x,
            y,
        )


def _game_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["typhoon", "games"] else None


def test_an_adapter_is_placed_in_its_framework_layer() -> None:
    assert _layer_name("typhoon.games.bfm.ai.search") == "typhoon.ai.adapter_bfm"
    assert _layer_name("typhoon.games.tmc.env_codec") == "typhoon.env.adapter_tmc"
    assert _layer_name("typhoon.games.tmc.terminal") == "typhoon.tui.adapter_tmc"
    assert _layer_name("typhoon.games.tmc.airpower") == "typhoon.games.tmc.airpower"
    assert _layer_name("typhoon.games.bfm.engine") == "typhoon.games.bfm.engine"


def test_an_engine_imports_none_of_its_adapters(graph: dict[str, set[str]]) -> None:
    bad = sorted(
        f"{a} -> {b}"
        for a, deps in graph.items()
        if _game_of(a) and _layer_name(a) == a
        for b in deps
        if _game_of(b) and _layer_name(b) != b
    )
    assert bad == []


def test_no_module_outside_a_game_imports_it(graph: dict[str, set[str]]) -> None:
    """Issue 11, done when: only a game's own package imports its modules (the registry finds
    a game by its package name, with importlib); a framework reads a game through its kit."""
    bad = sorted(
        f"{a} -> {b}"
        for a, deps in graph.items()
        for b in deps
        if _game_of(b)
        and _game_of(a) != _game_of(b)
        and not b.startswith("typhoon.games.frontends")
        and not b.startswith(
            ("typhoon.games.driver", "typhoon.games.notation_common", "typhoon.games.statebase")
        )
    )
    assert bad == []
