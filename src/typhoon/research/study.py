"""Balance studies (issue 16 point 4): one pairing of players over a grid of editions (or a
game's scenarios) and rule options, and a report in Markdown with PNG plots.

Per cell: the win rate of each side with 95% Wilson intervals, the game length, the turn of the
decisive capture and, for a game whose states have a victory level, their distribution. Players A
and B alternate sides (A is German in even games), so a side's win rate is the game's balance
and not one player's strength. Game ``i`` of cell ``c`` is the run's game ``c * games + i`` and
uses seed ``seed + c * games + i``: the same study on any backend gives the same games.

The decisive capture is the last time the game's key objective (Moscow, in the games so far)
passed to the side that went on to win, its holder as the game's kit says
(``FrontEnds.objective_holder``); a game the winner won without ever taking it from the other
side, or a game with no such objective, has none.
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from typhoon.ai.match import player_seed, wilson
from typhoon.errors import OptionError
from typhoon.game import CHANCE, Game
from typhoon.games import DEFAULT_GAME, game_module
from typhoon.players import make_player
from typhoon.protocol.messages import EngineError
from typhoon.research.parallel import run_jobs

SIDES = ("german", "soviet")
EDITION_KEYS = ("edition", "scenario")


@dataclass(frozen=True)
class Cell:
    """One point of the grid: an edition (or scenario), the options in force, and the
    value of each axis of the grid (in the axes' order)."""

    edition: str | None
    options: tuple[tuple[str, str], ...]
    values: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        parts = [f"edition={self.edition}"] if self.edition is not None else []
        parts += [f"{k}={v}" for k, v in self.options]
        return ", ".join(parts) or "defaults"


@dataclass(frozen=True)
class StudyJob:
    index: int  # in the whole run
    cell: int
    game_in_cell: int
    seed: int
    a: str
    b: str
    game: str
    edition: str | None
    options: tuple[tuple[str, str], ...]


@dataclass
class StudyGame:
    index: int
    cell: int
    seed: int
    a_side: str
    result: str
    turns: int
    actions: int
    decisive_turn: int | None
    level: str = ""
    seconds: float = 0.0
    forfeit: str = ""  # why an external engine forfeited, if one did


def parse_grid(items: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``["soviet_replacements=5,4", "edition=1,2"]`` -> axes, in the order given."""
    axes: list[tuple[str, list[str]]] = []
    for item in items:
        name, sep, values = item.partition("=")
        vals = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not name.strip() or not vals:
            raise OptionError(f"--grid takes NAME=V1,V2,... (an option, or 'edition'), not {item!r}")
        if any(name.strip() == n for n, _ in axes):
            raise OptionError(f"--grid {name.strip()!r} is given twice")
        axes.append((name.strip(), vals))
    return axes


def grid_cells(
    axes: Sequence[tuple[str, Sequence[str]]], edition: str | None, options: Mapping[str, str]
) -> list[Cell]:
    """Every combination of the axes (the last varies fastest), over the fixed edition/options."""
    cells = []
    names = [n for n, _ in axes]
    for combo in itertools.product(*(vals for _, vals in axes)):
        opts = dict(options)
        ed = edition
        for name, value in zip(names, combo):
            if name in EDITION_KEYS:
                ed = value
            else:
                opts[name] = value
        cells.append(Cell(ed, tuple(sorted(opts.items())), tuple(combo)))
    return cells


def _no_objective(state: Any) -> int:
    return -1


def play_study_game(job: StudyJob) -> StudyGame:
    """One game of a study, with the turn of every change of the objective's holder."""
    t0 = time.perf_counter()
    a_german = job.game_in_cell % 2 == 0
    pa = make_player(job.a, player_seed(job.seed, 0))
    pb = make_player(job.b, player_seed(job.seed, 1))
    players = [pa, pb] if a_german else [pb, pa]
    g = Game(job.game, job.edition, dict(job.options), seed=job.seed)
    objective_holder = g.module.front_ends.objective_holder or _no_objective
    holder = objective_holder(g.state)
    taken: dict[int, int] = {}  # side -> the last turn it took Moscow from the other side
    last_side = holder
    observers = [p for p in players if callable(getattr(p, "observe", None))]
    forfeit = ""
    loser: int | None = None
    try:
        while not g.is_over:
            who = g.current_player()
            if who == CHANCE:
                g.roll()
            else:
                g.play(players[who].choose(g.state, g.legal_actions()))
            for p in observers:
                p.observe(g)  # type: ignore[attr-defined]
            holder = objective_holder(g.state)
            if holder in (0, 1) and holder != last_side:
                if last_side in (0, 1):
                    taken[holder] = int(g.state.turn)
                last_side = holder
    except EngineError as exc:  # an external engine broke the protocol: its side loses
        forfeit, loser = str(exc), exc.side
    finally:
        for p in players:
            close = getattr(p, "close", None)
            if callable(close):
                close()
    if forfeit:
        result = SIDES[1 - loser] if loser in (0, 1) else "draw"
    else:
        result = str(g.result)
    decisive = taken.get(SIDES.index(result)) if result in SIDES else None
    return StudyGame(
        index=job.index,
        cell=job.cell,
        seed=job.seed,
        a_side="german" if a_german else "soviet",
        result=result,
        turns=int(g.state.turn),
        actions=len(g.history),
        decisive_turn=decisive,
        level=str(getattr(g.state, "level", "") or ""),
        seconds=time.perf_counter() - t0,
        forfeit=forfeit,
    )


@dataclass
class StudyResult:
    a: str
    b: str
    game: str
    seed: int
    games_per_cell: int
    axes: list[tuple[str, list[str]]]
    cells: list[Cell]
    games: list[StudyGame]
    seconds: float
    backend: str
    editions: list[str] = field(default_factory=list)  # the edition each cell resolved to
    edition: str | None = None  # the fixed --edition and -o options under the grid
    options: dict[str, str] = field(default_factory=dict)
    command: str = ""  # the command line that played it, for the report

    def cell_games(self, c: int) -> list[StudyGame]:
        return [g for g in self.games if g.cell == c]

    def cell_summary(self, c: int) -> dict[str, Any]:
        gs = self.cell_games(c)
        n = len(gs)
        out: dict[str, Any] = {
            "cell": ", ".join(f"{n}={v}" for (n, _), v in zip(self.axes, self.cells[c].values))
            or self.cells[c].label,
            "values": dict(zip((a for a, _ in self.axes), self.cells[c].values)),
            "edition": self.editions[c],
            "games": n,
        }
        for side in (*SIDES, "draw"):
            k = sum(1 for g in gs if g.result == side)
            lo, hi = wilson(k, n)
            out[f"{side}_wins" if side != "draw" else "draws"] = k
            out[f"{side}_rate" if side != "draw" else "draw_rate"] = round(k / n, 4) if n else None
            out[f"{side}_ci95" if side != "draw" else "draw_ci95"] = [round(lo, 4), round(hi, 4)]
        a_wins = sum(1 for g in gs if g.result == g.a_side)
        out["a_wins"] = a_wins
        out["turns_mean"] = round(statistics.fmean(g.turns for g in gs), 2) if gs else None
        out["actions_mean"] = round(statistics.fmean(g.actions for g in gs), 1) if gs else None
        out["actions_median"] = statistics.median(g.actions for g in gs) if gs else None
        dec = [g.decisive_turn for g in gs if g.decisive_turn is not None]
        out["decisive_capture_games"] = len(dec)
        out["decisive_turn_median"] = statistics.median(dec) if dec else None
        out["decisive_turns"] = dict(sorted(Counter(dec).items()))
        levels = Counter(g.level for g in gs if g.level)
        if levels:
            out["levels"] = dict(sorted(levels.items()))
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "game": self.game,
            "seed": self.seed,
            "games_per_cell": self.games_per_cell,
            "axes": [[n, v] for n, v in self.axes],
            "edition": self.edition,
            "options": self.options,
            "editions": self.editions,
            "command": self.command,
            "backend": self.backend,
            "seconds": round(self.seconds, 1),
            "cells": [self.cell_summary(c) for c in range(len(self.cells))],
            "games": [asdict(g) for g in self.games],
        }


class _Progress:
    """A rich progress bar with the time left on a terminal; otherwise a line every 5% (with
    the time left too), which a background run's log keeps."""

    def __init__(self, total: int, quiet: bool = False):
        self.total = total
        self.t0 = time.perf_counter()
        self.quiet = quiet
        self.bar: Any = None
        self.next_line = 0.0
        if quiet or not sys.stderr.isatty():
            return
        try:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:
            return
        self.bar = Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            transient=True,
        )
        self.bar.start()
        self.task = self.bar.add_task("games", total=total)

    def update(self, done: int) -> None:
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.update(self.task, completed=done)
            return
        frac = done / self.total
        if frac >= self.next_line or done == self.total:
            self.next_line = frac + 0.05
            spent = time.perf_counter() - self.t0
            left = spent / frac - spent if frac else 0.0
            print(
                f"{done}/{self.total} games ({frac:.0%}), {spent:.0f} s spent, about {left:.0f} s left",
                file=sys.stderr,
                flush=True,
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def run_study(
    a: str,
    b: str,
    games: int,
    seed: int,
    *,
    game: str = DEFAULT_GAME,
    axes: Sequence[tuple[str, Sequence[str]]] = (),
    edition: str | None = None,
    options: Mapping[str, str] | None = None,
    jobs: int = 1,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StudyResult:
    if games < 1:
        raise OptionError("--games must be at least 1")
    module = game_module(game)
    make_player(a, 0)
    make_player(b, 0)
    cells = grid_cells(axes, edition, options or {})
    editions = []
    for cell in cells:  # a bad option or edition fails here, before any game
        editions.append(Game(game, cell.edition, dict(cell.options), seed=0).edition)
    todo = [
        StudyJob(c * games + i, c, i, seed + c * games + i, a, b, module.key, cell.edition, cell.options)
        for c, cell in enumerate(cells)
        for i in range(games)
    ]
    t0 = time.perf_counter()
    out: list[StudyGame] = []
    for r in run_jobs(play_study_game, todo, workers=jobs, ray=ray):
        out.append(r)
        if progress is not None:
            progress(len(out), len(todo))
    out.sort(key=lambda r: r.index)
    return StudyResult(
        a=a,
        b=b,
        game=module.key,
        seed=seed,
        games_per_cell=games,
        axes=[(n, list(v)) for n, v in axes],
        cells=cells,
        games=out,
        seconds=time.perf_counter() - t0,
        backend=f"ray {ray}" if ray else f"{jobs} local process(es)",
        editions=editions,
        edition=edition,
        options=dict(options or {}),
    )


# -- the report ------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _ci(ci: Iterable[float]) -> str:
    lo, hi = ci
    return f"{lo:.1%}–{hi:.1%}"


def _rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{_pct(k / n if n else None)} ({lo:.1%}–{hi:.1%})"


def _cell_columns(result: StudyResult, c: int) -> list[str]:
    cell = result.cells[c]
    return list(cell.values) if result.axes else [cell.label]


def headline(result: StudyResult) -> list[str]:
    """The figures a reader wants first: the range of German win rates over the grid, the most
    balanced cell, and each axis's effect (its values' German win rates, every other axis
    pooled)."""
    summaries = [result.cell_summary(c) for c in range(len(result.cells))]
    if not summaries:
        return []
    lines = []
    lo = min(summaries, key=lambda s: s["german_rate"])
    hi = max(summaries, key=lambda s: s["german_rate"])
    fair = min(summaries, key=lambda s: abs(s["german_wins"] - s["soviet_wins"]))
    lines.append(
        f"- German win rate from {_pct(lo['german_rate'])} ({lo['cell']}) to {_pct(hi['german_rate'])} "
        f"({hi['cell']})."
    )
    lines.append(
        f"- Most balanced cell: {fair['cell']}: German {_rate(fair['german_wins'], fair['games'])}, "
        f"Soviet {_rate(fair['soviet_wins'], fair['games'])}."
    )
    for k, (name, values) in enumerate(result.axes):
        parts = []
        for v in values:
            gs = [g for g in result.games if result.cells[g.cell].values[k] == v]
            kw = sum(1 for g in gs if g.result == "german")
            parts.append(f"{v}: German {_rate(kw, len(gs))}")
        lines.append(f"- `{name}` (other axes pooled): " + "; ".join(parts) + ".")
    return lines


def write_report(
    result: StudyResult, path: str | Path, *, title: str | None = None, command: str = ""
) -> list[Path]:
    """The Markdown report at ``path`` and its PNG plots beside it (``<stem>_*.png``); returns
    the files written. Plots need matplotlib (``pip install 'typhoon[study]'``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    summaries = [result.cell_summary(c) for c in range(len(result.cells))]
    pngs = _plots(result, summaries, path)
    title = title or f"Balance study: {result.a} vs {result.b} ({game_module(result.game).title})"
    heads = [n for n, _ in result.axes] or ["cell"]
    lines = [f"# {title}", ""]
    lines.append(
        f"{result.games_per_cell} games per cell, {len(result.cells)} cells, {len(result.games)} games; "
        f"players `{result.a}` and `{result.b}` alternate sides (A is German in even games); "
        f"seed {result.seed} (game *i* of the run uses seed {result.seed} + *i*); "
        f"{result.seconds:.0f} s on {result.backend}."
    )
    fixed = [f"edition {result.edition}"] if result.edition else []
    fixed += [f"{k}={v}" for k, v in sorted(result.options.items())]
    if fixed:
        lines.append(f"Fixed for every cell: {', '.join(fixed)}.")
    played = result.command or command
    if played:
        lines += ["", "Made with:", "", "```", played, "```"]
        if result.command and command and command != result.command:
            lines += ["", f"This report was written from the saved games with `{command}`."]
    lines += ["", "## Headline", "", *headline(result)]
    lines += ["", "## Win rate per side (95% Wilson intervals)", ""]
    lines.append("| " + " | ".join(heads) + " | edition | games | German wins | Soviet wins | draws |")
    lines.append("|" + "---|" * len(heads) + "---|---:|---|---|---|")
    for c, s in enumerate(summaries):
        lines.append(
            "| " + " | ".join(_cell_columns(result, c)) + f" | {s['edition']} | {s['games']} "
            f"| {_pct(s['german_rate'])} ({_ci(s['german_ci95'])}) "
            f"| {_pct(s['soviet_rate'])} ({_ci(s['soviet_ci95'])}) "
            f"| {_pct(s['draw_rate'])} ({_ci(s['draw_ci95'])}) |"
        )
    lines += ["", "## Game length and the decisive capture", ""]
    lines.append(
        "The decisive capture is the turn in which the side that went on to win last took Moscow "
        "from the other side; a game whose winner never took Moscow has none."
    )
    lines.append("")
    lines.append(
        "| " + " | ".join(heads) + " | mean turns | mean actions | median actions "
        "| games with a decisive capture | its median turn | by turn |"
    )
    lines.append("|" + "---|" * len(heads) + "---:|---:|---:|---:|---:|---|")
    for c, s in enumerate(summaries):
        n = s["games"]
        dg = s["decisive_capture_games"]
        med = s["decisive_turn_median"]
        by_turn = ", ".join(f"{t}: {k}" for t, k in s["decisive_turns"].items()) or "-"
        lines.append(
            "| " + " | ".join(_cell_columns(result, c)) + f" | {s['turns_mean']:g} | {s['actions_mean']:g} "
            f"| {s['actions_median']:g} | {dg} ({dg / n:.0%}) | {'-' if med is None else f'{med:g}'} | {by_turn} |"
        )
    if any("levels" in s for s in summaries):
        levels = sorted({lv for s in summaries for lv in s.get("levels", {})})
        lines += ["", "## Victory levels", ""]
        lines.append("| " + " | ".join(heads) + " | " + " | ".join(levels) + " |")
        lines.append("|" + "---|" * len(heads) + "---:|" * len(levels))
        for c, s in enumerate(summaries):
            lv = s.get("levels", {})
            lines.append(
                "| "
                + " | ".join(_cell_columns(result, c))
                + " | "
                + " | ".join(str(lv.get(x, 0)) for x in levels)
                + " |"
            )
    if pngs:
        lines += ["", "## Plots", ""]
        for p in pngs:
            lines.append(f"![{p.stem}]({p.name})")
            lines.append("")
    path.write_text("\n".join(lines).rstrip() + "\n")
    return [path, *pngs]


def _plots(result: StudyResult, summaries: list[dict[str, Any]], path: Path) -> list[Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("study: matplotlib is not installed, no plots (pip install 'typhoon[study]')", file=sys.stderr)
        return []
    # Tick labels: the axis values only, one line per axis; the axis names go under the plot.
    labels = ["\n".join(_cell_columns(result, c)) for c in range(len(summaries))]
    xlabel = " / ".join(n for n, _ in result.axes) or "cell"
    x = list(range(len(summaries)))
    width = max(6.0, 1.1 * len(summaries) + 1.5)
    cmap = plt.get_cmap("viridis")
    written = []

    def finish(fig: Any, ax: Any, name: str, ylabel: str) -> None:
        ax.set_xticks(x, labels, fontsize=8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        fig.tight_layout()
        written.append(path.with_name(f"{path.stem}_{name}.png"))
        fig.savefig(written[-1], dpi=110)
        plt.close(fig)

    fig, ax = plt.subplots(figsize=(width, 4.5))
    series = [("german", "German", "#6b7b8c"), ("soviet", "Soviet", "#b5412f")]
    if any(s["draws"] for s in summaries):
        series.append(("draw", "draw", "#c9b458"))
    bw = 0.8 / len(series)
    for k, (key, name, colour) in enumerate(series):
        rate = [s[f"{key}_rate"] for s in summaries]
        ci = [s[f"{key}_ci95"] for s in summaries]
        err = [[r - c[0] for r, c in zip(rate, ci)], [c[1] - r for r, c in zip(rate, ci)]]
        offset = (k - (len(series) - 1) / 2) * bw
        ax.bar([i + offset for i in x], rate, bw, yerr=err, capsize=3, color=colour, label=name)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_title(f"Win rate per side: {result.a} vs {result.b}, {result.games_per_cell} games per cell")
    ax.legend()
    finish(fig, ax, "winrate", "share of games (95% Wilson interval)")

    fig, ax = plt.subplots(figsize=(width, 4))
    ax.boxplot([[g.actions for g in result.cell_games(c)] for c in x], positions=x)
    ax.set_title("Game length")
    finish(fig, ax, "length", "actions per game")

    turns = sorted({t for s in summaries for t in s["decisive_turns"]})
    fig, ax = plt.subplots(figsize=(width, 4))
    bottom = [0.0] * len(x)
    for j, t in enumerate(turns):
        share = [s["decisive_turns"].get(t, 0) / s["games"] for s in summaries]
        ax.bar(x, share, 0.6, bottom=bottom, color=cmap(j / max(1, len(turns) - 1)), label=f"turn {t}")
        bottom = [b + v for b, v in zip(bottom, share)]
    ax.bar(x, [1 - b for b in bottom], 0.6, bottom=bottom, color="#dddddd", label="none")
    ax.set_ylim(0, 1)
    ax.set_title("Turn of the decisive capture of Moscow (by the eventual winner)")
    ax.legend(fontsize=7, ncol=2)
    finish(fig, ax, "decisive", "share of games")

    levels = sorted({lv for s in summaries for lv in s.get("levels", {})})
    if levels:
        fig, ax = plt.subplots(figsize=(width, 4))
        bottom = [0.0] * len(x)
        for j, lv in enumerate(levels):
            share = [s.get("levels", {}).get(lv, 0) / s["games"] for s in summaries]
            ax.bar(x, share, 0.6, bottom=bottom, color=cmap(j / max(1, len(levels) - 1)), label=lv)
            bottom = [b + v for b, v in zip(bottom, share)]
        ax.set_ylim(0, 1)
        ax.set_title("Victory levels")
        ax.legend(fontsize=7)
        finish(fig, ax, "levels", "share of games")
    return written


def save_json(result: StudyResult, path: str | Path) -> None:
    Path(path).write_text(json.dumps(result.as_dict(), sort_keys=True) + "\n")


def load_json(path: str | Path) -> StudyResult:
    """A study saved by :func:`save_json`, to write its report again without playing it."""
    try:
        d = json.loads(Path(path).read_text())
        axes = [(str(n), [str(v) for v in vals]) for n, vals in d["axes"]]
        cells = grid_cells(axes, d.get("edition"), d.get("options") or {})
        games = [StudyGame(**g) for g in d["games"]]
        editions = d.get("editions") or [c["edition"] for c in d["cells"]]
        return StudyResult(
            a=d["a"],
            b=d["b"],
            game=d["game"],
            seed=int(d["seed"]),
            games_per_cell=int(d["games_per_cell"]),
            axes=axes,
            cells=cells,
            games=games,
            seconds=float(d["seconds"]),
            backend=str(d["backend"]),
            editions=list(editions),
            edition=d.get("edition"),
            options=dict(d.get("options") or {}),
            command=str(d.get("command") or ""),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise OptionError(f"cannot read the study {str(path)!r}: {exc}") from None


__all__ = [
    "Cell",
    "StudyGame",
    "StudyJob",
    "StudyResult",
    "grid_cells",
    "headline",
    "load_json",
    "parse_grid",
    "play_study_game",
    "run_study",
    "save_json",
    "write_report",
    "_Progress",
]
