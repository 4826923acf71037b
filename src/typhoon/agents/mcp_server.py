"""An MCP server (issue 16 point 2) so a language-model client can play against the built-in AI:
``typhoon mcp`` speaks the Model Context Protocol on stdin/stdout with the official ``mcp``
Python SDK (``pip install 'typhoon[mcp]'``).

Tools: ``new_game`` (game, edition, side, level), ``position`` (the position in words and what
to decide), ``map_around`` (the hexes around a hex in words), ``legal_actions``, ``preview_attack``
(the odds of an attack), ``act`` (play an action in the game's notation; then the dice and the AI
play until it is the client's turn again). Only built-in levels play the other side: a client
can never make the server start a program.

The words come from each game's package (``FrontEnds.position_words``, ``hex_words``,
``odds_words``); the rules are the engine's, through :class:`typhoon.game.Game`.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from typhoon.errors import IllegalActionError, OptionError, TyphoonError
from typhoon.game import CHANCE, Game
from typhoon.games import DEFAULT_GAME, game_keys, game_module
from typhoon.games.frontends import FrontEnds
from typhoon.players import Player, make_player, player_names

MAX_GAMES = 32  # games a server keeps (the oldest is dropped)
MAX_LISTED = 200  # legal actions listed at most per call
MAX_RADIUS = 3
MAX_AI_ACTIONS = 20_000  # a safety bound on one `act` (a large game's AI turn is hundreds of actions)


@dataclass
class Table:
    """One game between the client (``side``) and a built-in AI."""

    game: Game
    side: int
    level: str
    ai: Player
    log: list[str] = field(default_factory=list)


def _words(game: Game) -> FrontEnds:
    """The game's front-end adapters, which must word positions, hexes and odds for a reader."""
    fe = game.module.front_ends
    if fe.position_words is None or fe.hex_words is None or fe.odds_words is None:
        raise OptionError(f"{game.module.title} has no words for the MCP server yet")
    return fe


def _one_of(items: list[str]) -> str:
    """ "a", "a or b", "a, b or c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _editions_text(key: str) -> str:
    """A game's editions for the tool's description: "1-24" for consecutive numbers, else
    the keys with slashes."""
    m = game_module(key)
    eds = list(m.editions())
    if all(e.isdigit() for e in eds) and [int(e) for e in eds] == list(
        range(int(eds[0]), int(eds[0]) + len(eds))
    ):
        return f"the {m.edition_word} {eds[0]}-{eds[-1]}"
    return "/".join(eds)


def games_text() -> tuple[str, str]:
    """The registered games as the server's instructions name them ("Title (key)") and as
    new_game's description does ("key (Title); edition: key EDITIONS")."""
    keys = [DEFAULT_GAME, *(k for k in game_keys() if k != DEFAULT_GAME)]
    play = _one_of([f"{game_module(k).title} ({k})" for k in keys])
    arg = _one_of([f"{k} ({game_module(k).title})" for k in keys])
    eds = ", ".join(f"{k} {_editions_text(k)}" for k in keys)
    return play, f"game: {arg}; edition: {eds}"


def _grid(state: Any) -> Any:
    rules = state.rules
    return rules.grid if hasattr(rules, "grid") else rules.map.grid


class Tables:
    """The games of one server. Every method returns text for the client or raises a
    TyphoonError with a message for it; none changes a game when it raises."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()

    # -- starting -----------------------------------------------------------------------------

    def new_game(
        self,
        game: str = DEFAULT_GAME,
        edition: str | None = None,
        side: str = "german",
        level: str = "heuristic",
        seed: int | None = None,
        options: dict[str, str] | None = None,
    ) -> tuple[str, str]:
        if game not in game_keys():
            raise OptionError(f"unknown game {game!r}; games: {', '.join(game_keys())}")
        module = game_module(game)
        if side not in module.sides:
            raise OptionError(f"side must be one of {', '.join(module.sides)}, not {side!r}")
        levels = player_names()
        if level not in levels:  # built-in levels only: never cmd:<program>
            raise OptionError(f"unknown level {level!r}; levels: {', '.join(levels)}")
        g = Game(game, edition or None, options or {}, seed=seed)
        me = module.sides.index(side)
        ai = make_player(level, g.seed * 2 + 2 - me)
        gid = secrets.token_hex(4)
        t = Table(g, me, level, ai)
        with self.lock:
            self.tables[gid] = t
            while len(self.tables) > MAX_GAMES:
                del self.tables[next(iter(self.tables))]
        happened = self._advance(t)
        intro = (
            f"Game {gid}: {module.title}, edition {g.edition}; you play the {side} side against "
            f"the `{level}` AI. Actions are written in the game's notation (see `legal_actions`)."
        )
        return gid, "\n".join([intro, *happened, "", self.position(gid)])

    def table(self, gid: str) -> Table:
        t = self.tables.get(gid)
        if t is None:
            raise OptionError(f"no game {gid!r}; start one with new_game")
        return t

    # -- looking ------------------------------------------------------------------------------

    def position(self, gid: str) -> str:
        t = self.table(gid)
        g = t.game
        legal = g.legal_actions() if not g.is_over else []
        words = _words(g).position_words
        assert words is not None  # _words checked it
        return "\n".join(x for x in words(g.state, legal, self._whose(t), t.side) if x)

    def _whose(self, t: Table) -> str:
        who = t.game.current_player()
        if who == t.side:
            return "It is your decision."
        return "Waiting for the other side."  # never seen by a client: act() plays it out

    def map_around(self, gid: str, hex_id: str, radius: int = 1) -> str:
        t = self.table(gid)
        s = t.game.state
        grid = _grid(s)
        h = grid.index.get(hex_id.strip(), -1)
        if h < 0:
            raise OptionError(f"{hex_id!r} is not a hex of this map (hexes are written like {grid.ids[0]})")
        if not 0 <= radius <= MAX_RADIUS:
            raise OptionError(f"radius must be 0 to {MAX_RADIUS}")
        ring = {h}
        frontier = {h}
        for _ in range(radius):
            frontier = {n for x in frontier for n in grid.neighbours[x] if n >= 0} - ring
            ring |= frontier
        hex_words = _words(t.game).hex_words
        assert hex_words is not None
        return "\n".join(hex_words(s, x) for x in sorted(ring))

    def legal_actions(self, gid: str, contains: str = "") -> str:
        t = self.table(gid)
        g = t.game
        if g.is_over:
            return "The game is over; no actions."
        if g.current_player() != t.side:
            return "It is not your decision."
        texts = [g.text(a) for a in g.legal_actions()]
        if contains:
            texts = [x for x in texts if contains.lower() in x.lower()]
        head = f"{len(texts)} legal action(s)" + (f" containing {contains!r}" if contains else "")
        if len(texts) > MAX_LISTED:
            head += f", the first {MAX_LISTED} (narrow them with `contains`, e.g. a unit or a hex)"
        return "\n".join([head + ":", *texts[:MAX_LISTED]])

    def preview_attack(self, gid: str, target: str, attackers: list[str]) -> str:
        g = self.table(gid).game
        odds_words = _words(g).odds_words
        assert odds_words is not None
        legal = g.legal_actions() if not g.is_over else []
        return odds_words(g.state, target.strip(), [a.strip() for a in attackers], legal, g.text)

    # -- acting -------------------------------------------------------------------------------

    def act(self, gid: str, action: str) -> str:
        t = self.table(gid)
        g = t.game
        if g.is_over:
            raise IllegalActionError("the game is over")
        if g.current_player() != t.side:
            raise IllegalActionError("it is not your decision")
        events = g.play_text(action.strip())  # NotationError / IllegalActionError change nothing
        lines = [f"You: {g.text(g.history[-1].action)}", *(f"  {e.text}" for e in events)]
        lines += self._advance(t)
        lines += ["", self.position(gid)]
        return "\n".join(lines)

    def _advance(self, t: Table) -> list[str]:
        """Roll the dice and let the AI play until the client decides or the game ends."""
        g = t.game
        out: list[str] = []
        for _ in range(MAX_AI_ACTIONS):
            if g.is_over:
                break
            who = g.current_player()
            if who == CHANCE:
                events = g.roll()
                out += [f"  {e.text}" for e in events]
            elif who == t.side:
                break
            else:
                action = t.ai.choose(g.state, g.legal_actions())
                events = g.play(action)
                out.append(f"AI ({t.level}): {g.text(action)}")
                out += [f"  {e.text}" for e in events]
        if len(out) > 400:  # a long AI turn: the start and the end
            out = [*out[:150], f"  ... {len(out) - 300} more lines ...", *out[-150:]]
        return out


def build_server(tables: Tables | None = None) -> Any:
    """The MCPServer with Typhoon's tools (needs the ``mcp`` package)."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        raise OptionError("`typhoon mcp` needs the MCP SDK: pip install 'typhoon[mcp]'") from None

    tb = tables or Tables()
    play, game_arg = games_text()
    server = MCPServer(
        "typhoon",
        instructions=f"Play {play} against Typhoon's AI. "
        "Start with new_game, read position, list legal_actions, preview_attack before attacking, "
        "then act with one action in the game's notation.",
    )

    def guard(fn: Any, *args: Any) -> str:
        try:
            return str(fn(*args))
        except TyphoonError as exc:  # a bad request: an error result with the reason; nothing changed
            raise ToolError(str(exc)) from None

    @server.tool(
        description=f"Start a game against the built-in AI. {game_arg} (empty: the default); "
        "side: german or soviet; level: random, heuristic, search, ...; options: rule options "
        "NAME=VALUE. Returns the game id and the position."
    )
    def new_game(
        game: str = DEFAULT_GAME,
        edition: str = "",
        side: str = "german",
        level: str = "heuristic",
        seed: int | None = None,
        options: dict[str, str] | None = None,
    ) -> str:
        def start() -> str:
            gid, text = tb.new_game(game, edition or None, side, level, seed, options)
            return f"game_id: {gid}\n{text}"

        return guard(start)

    @server.tool()
    def position(game_id: str) -> str:
        """The position in words: turn, phase, Moscow, units, and what you may decide."""
        return guard(tb.position, game_id)

    @server.tool()
    def map_around(game_id: str, hex: str, radius: int = 1) -> str:
        """Every hex within radius (0-3) of a hex (e.g. 0506): terrain, rivers, cities, units, zones of control."""
        return guard(tb.map_around, game_id, hex, radius)

    @server.tool()
    def legal_actions(game_id: str, contains: str = "") -> str:
        """Your legal actions in the game's notation (at most 200; `contains` filters them)."""
        return guard(tb.legal_actions, game_id, contains)

    @server.tool()
    def preview_attack(game_id: str, target: str, attackers: list[str]) -> str:
        """The odds of an attack on the unit in hex `target` by the `attackers` (unit ids):
        odds column, shifts, each die's result and the chances of each outcome."""
        return guard(tb.preview_attack, game_id, target, attackers)

    @server.tool()
    def act(game_id: str, action: str) -> str:
        """Play one action in the game's notation (e.g. `setup standard`, `move XXIV 0407-0408`,
        `end`); then the dice and the AI play until it is your decision again. An illegal or
        malformed action is refused with the reason and changes nothing."""
        return guard(tb.act, game_id, action)

    return server


def run_stdio() -> int:
    build_server().run("stdio")
    return 0
