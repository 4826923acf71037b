"""The command loop of terminal play. It reads lines from any text stream and writes to any
stream, so a whole session can be scripted (tests feed it a StringIO).

Dice are rolled and computer players move by themselves; the loop stops to read a line only
when a human side has to decide. Every failure a line can cause is answered with one line.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from typhoon.errors import TyphoonError
from typhoon.events import Event
from typhoon.game import Game
from typhoon.games import GameModule
from typhoon.games.bfm import words as describe
from typhoon.games.bfm.actions import Action, Move
from typhoon.games.bfm.movement_phase import movable, why_not_movable
from typhoon.games.bfm.preview import preview
from typhoon.games.bfm.rules import SIDE_NAMES
from typhoon.games.bfm.state import CHANCE, DECLARE, TERMINAL, State
from typhoon.games.bfm.termmap import legend, map_size, render_map
from typhoon.players import Player
from typhoon.record import Record
from typhoon.textstyle import Palette
from typhoon.tui import help
from typhoon.tui.action_input import HEX_ID, interpret, unit_ids, why_illegal

SHOW_CHOICES = 12  # decisions with at most this many answers list them, numbered, by themselves
PAGE_ROWS = 20


class LineSource(Protocol):
    """Where commands come from: a file, sys.stdin, a StringIO, a test's scripted player."""

    def readline(self) -> str: ...


class Quit(Exception):
    """The player asked to leave."""


class Session:
    """One game at the terminal. ``controllers[side]`` is a Player, or None for a human."""

    def __init__(
        self,
        game: Game,
        controllers: Mapping[int, Player | None],
        *,
        out: TextIO,
        color: bool = False,
        width: int = 100,
        automap: str = "phase",
    ):
        self.game = game
        self.controllers: dict[int, Player | None] = {0: controllers.get(0), 1: controllers.get(1)}
        self.out = out
        self.pal = Palette(color)
        self.width = max(40, width)
        self.automap = automap
        self.numbered: list[Action] = []
        self._label: Callable[[Action], str] = game.text
        self._page = 0
        self._map_phase: tuple[int, int] | None = None
        self._context_state: State | None = None
        self._other_acted = True
        self._last_ai: int | None = None
        self._why_hinted = False
        self._over_shown = False
        self._narrow_noted = False
        self._sync_player_names()

    # -- output -----------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def error(self, text: str) -> None:
        self.say(self.pal.paint(text, "error"))

    @property
    def state(self) -> State:
        return self.game.state  # type: ignore[no-any-return]

    def _sync_player_names(self) -> None:
        self.game.players = {
            SIDE_NAMES[s]: (p.name if p is not None else "human") for s, p in self.controllers.items()
        }

    def _who(self, side: int) -> str:
        p = self.controllers.get(side)
        return describe.side_name(side) + ("" if p is None else f" ({p.name})")

    def humans(self) -> set[int]:
        return {s for s, p in self.controllers.items() if p is None}

    # -- the loop ---------------------------------------------------------------------------

    def run(self, instream: LineSource, *, interactive: bool = False) -> int:
        """Play until the player quits or the input ends. Returns the exit status."""
        try:
            self.intro()
            while True:
                self.advance()
                self.show_context()
                line = self._read(instream, self.prompt(), interactive)
                if line is None:
                    self.say("\nEnd of input: leaving the game.")
                    return 0
                self.handle(line)
        except Quit:
            return 0
        except KeyboardInterrupt:
            self.say("\nInterrupted: leaving the game.")
            return 130

    def _read(self, instream: LineSource, prompt: str, interactive: bool) -> str | None:
        if interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.out.write(prompt)
        self.out.flush()
        line = instream.readline()
        if not line:
            return None
        self.out.write(line if line.endswith("\n") else line + "\n")  # a readable transcript
        return line

    def prompt(self) -> str:
        who = self.game.current_player()
        if who == TERMINAL:
            return "game over> "
        return f"{describe.side_name(who)}> "

    def intro(self) -> None:
        self.say(self.pal.paint("Typhoon: Battle for Moscow, 1941", "title"))
        self.say(f"German: {self._controller_text(0)}; Soviet: {self._controller_text(1)}.")
        self.say(describe.rules_line(self.state))
        self.say("Type `help` for the commands, `legal` for every action possible now.")

    def _controller_text(self, side: int) -> str:
        p = self.controllers[side]
        return "human" if p is None else f"computer ({p.name})"

    def advance(self) -> None:
        """Roll due dice and let computer players move until a human decides or the game ends."""
        g = self.game
        while True:
            who = g.current_player()
            if who == CHANCE:
                self.print_events(g.roll_dice())
                self._other_acted = True
                continue
            if who == TERMINAL:
                return
            player = self.controllers[who]
            if player is None:
                return
            self._ai_move(who, player)

    def _ai_move(self, side: int, player: Player) -> None:
        g = self.game
        legal = g.legal_actions()
        self.out.flush()  # show everything so far while a slow player thinks
        try:
            action = player.choose(g.state, legal)
            problem = None if action in legal else f"chose an illegal action ({action!r})"
        except Exception as exc:  # a broken player must not end the game
            problem = f"failed ({type(exc).__name__}: {exc})"
        if problem is not None:
            self.error(f"{self._who(side)} {problem}; you take over the {SIDE_NAMES[side]} side.")
            self.controllers[side] = None
            self._sync_player_names()
            return
        events = g.play(action)
        self.say(f"{self._who(side)}: {self.game.text(action)}")
        self.print_events(events)
        self._other_acted = True
        self._last_ai = side
        if hasattr(player, "explain") and not self._why_hinted:
            self.say(self.pal.paint("  (type `why` for the computer's reasoning)", "dim"))
            self._why_hinted = True

    def print_events(self, events: Sequence[Event]) -> None:
        for line in describe.event_lines(events, self.pal):
            self.say(line)

    def show_context(self) -> None:
        """Before reading a line: the map when due, the status and what to decide, once per
        position."""
        s = self.state
        if s is self._context_state:
            return
        self._context_state = s
        if s.is_terminal:
            if not self._over_shown:
                self._over_shown = True
                self.show_map()
                self.say(self.status_text())
                self.say(self._over_text())
            return
        phase = (s.turn, s.phase)
        if self.automap == "on" or (
            self.automap == "phase" and (self._other_acted or phase != self._map_phase)
        ):
            self._before_auto_map(phase)
            self.show_map(self._decision_marks())
        self._other_acted = False
        self.say(self.status_text())
        legal = self.game.legal_actions()
        self.say(self._decision_text(legal))
        if len(legal) <= SHOW_CHOICES and s.phase_spec.kind != "setup":
            self.show_list(legal, "Choices:")

    # Hooks of show_context (the TMC session words them its own way).

    def status_text(self) -> str:
        return describe.status_line(self.state, self.pal)

    def _over_text(self) -> str:
        return (
            f"The game is over: {describe.result_text(self.state)}. `save FILE` keeps the record; `log`, "
            "`map`, `quit`."
        )

    def _decision_text(self, legal: Sequence[Any]) -> str:
        return describe.decision_text(self.state, legal)

    def _before_auto_map(self, phase: tuple[int, int]) -> None:
        """Called before the map is shown by itself at ``phase`` (turn, phase index)."""

    def _parse_sides(
        self, args: Sequence[str], usage: str, flags: Sequence[str] = ()
    ) -> tuple[list[int], set[str]] | None:
        """The sides named in ``args`` (german/soviet words) and the ``flags`` given; None (after
        an error line with ``usage``) for any other word."""
        sides: list[int] = []
        given: set[str] = set()
        for a in args:
            low = a.lower()
            if low in ("german", "g", "germans"):
                sides.append(0)
            elif low in ("soviet", "s", "soviets", "russian"):
                sides.append(1)
            elif low in flags:
                given.add(low)
            else:
                self.error(usage)
                return None
        return sides, given

    def _moves_overview(self, args: Sequence[str], moves: Sequence[Any], most: int | None = None) -> bool:
        """``moves`` with no unit (or a usage error): answered here, True; False for ``moves UNIT``."""
        if len(args) > 1:
            self.error("usage: moves [UNIT]")
            return True
        if args:
            return False
        self.say(self._movers_text(moves, most) if moves else self._why_no_moves())
        return True

    def _movers_text(self, moves: Sequence[Any], most: int | None = None) -> str:
        """The units that can move, each with its number of destinations (at most ``most``)."""
        counts: dict[str, int] = {}
        for m in moves:
            counts[m.unit] = counts.get(m.unit, 0) + 1
        shown = ", ".join(f"{u} ({n})" for u, n in list(counts.items())[:most])
        more = f", and {len(counts) - most} more" if most is not None and len(counts) > most else ""
        return f"Units that can move (destinations): {shown}{more}. `moves UNIT` for one unit."

    def _decision_marks(self) -> list[int]:
        if self.game.current_player() not in self.humans():
            return []
        return describe.decision_hexes(self.state, self.game.legal_actions())

    def show_map(self, highlight: Sequence[int] = ()) -> None:
        s = self.state
        self.say(render_map(s, self.pal, highlight))
        self.say(legend(s, self.pal))
        need = map_size(s.rules.map.grid)[0]
        if self.width < need and not self._narrow_noted:
            self._narrow_noted = True
            self.say(
                f"(The map needs {need} columns and the terminal has {self.width}: widen it, or use `units` and `hex HEX`.)"
            )
        self._map_phase = (s.turn, s.phase)

    # -- numbered lists ---------------------------------------------------------------------

    def show_list(
        self, actions: Sequence[Action], title: str, label: Callable[[Action], str] | None = None
    ) -> None:
        self.numbered = list(actions)
        self._label = label or self.game.text
        self._page = 0
        self.say(title)
        self._show_page()

    def _show_page(self) -> None:
        items = [f"{i + 1:>3}. {self._label(a)}" for i, a in enumerate(self.numbered)]
        if not items:
            self.say("  (none)")
            return
        colw = max(len(t) for t in items) + 2
        cols = max(1, min(4, self.width // colw))
        per_page = PAGE_ROWS * cols
        start = self._page * per_page
        if start >= len(items):
            self.say("No more: that was the whole list.")
            return
        chunk = items[start : start + per_page]
        rows = (len(chunk) + cols - 1) // cols
        for r in range(rows):
            cells = [chunk[c * rows + r] for c in range(cols) if c * rows + r < len(chunk)]
            self.say("".join(t.ljust(colw) for t in cells).rstrip())
        rest = len(items) - start - len(chunk)
        if rest > 0:
            self.say(f"  ... {rest} more: `more` for the next page, or `legal WORD` to narrow the list.")
        self._page += 1

    # -- commands ---------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """Carry out one input line. Raises Quit to leave."""
        text = line.strip()
        if not text or text.startswith("#"):
            return
        words = text.split()
        head = help.ALIASES.get(words[0].lower(), words[0].lower())
        try:
            if head.isdigit():
                self.play_number(int(head), words[1:])
            elif head in _COMMANDS:
                getattr(self, f"cmd_{head}")(words[1:])
            elif head in self.action_verbs():
                self.play_text(text)
            else:
                self.unknown(words[0])
        except Quit:
            raise
        except TyphoonError as exc:
            self.error(str(exc))
        except Exception as exc:  # never a traceback at the prompt; say what broke
            self.error(f"internal error (please report): {type(exc).__name__}: {exc}")

    def action_verbs(self) -> Sequence[str]:
        """The words that start an action in this game's notation."""
        return help.ACTION_VERBS

    def unknown(self, word: str) -> None:
        close = difflib.get_close_matches(word.lower(), help.all_words(), n=1, cutoff=0.6)
        hint = f" Did you mean `{close[0]}`?" if close else ""
        self.error(f"Unknown command '{word}'.{hint} Type `help` for the commands.")

    def _human_to_decide(self) -> bool:
        who = self.game.current_player()
        if who == TERMINAL:
            self.error(
                f"The game is over ({describe.result_text(self.state)}): `save FILE`, `log`, `map` or `quit`."
            )
            return False
        return who in self.humans()

    def play_text(self, text: str) -> None:
        if not self._human_to_decide():
            return
        legal = self.game.legal_actions()
        got = interpret(self.state, legal, text)
        if got.error:
            self.error(got.error)
            return
        if got.choices:
            self.show_list(got.choices, got.note or "Which one?")
            return
        if got.note:
            self.say(got.note)
        for i, action in enumerate(got.actions):
            if (i and not self._human_to_decide()) or not self.play(action):
                return

    def play_number(self, n: int, rest: Sequence[str]) -> None:
        if rest:
            self.error("A number alone picks an action from the last list (e.g. `3`).")
            return
        if not self.numbered:
            self.error("No numbered list yet: `legal` lists every action, `moves UNIT` a unit's moves.")
            return
        if not 1 <= n <= len(self.numbered):
            self.error(f"Choose a number from 1 to {len(self.numbered)} (the last list shown).")
            return
        if not self._human_to_decide():
            return
        action = self.numbered[n - 1]
        if action not in self.game.legal_actions():
            self.error(f"`{self.game.text(action)}` is no longer possible; `legal` shows the current list.")
            return
        self.say(f"> {self.game.text(action)}")
        self.play(action)

    def play(self, action: Action) -> bool:
        """Play one action for the human to decide and report what happened (or why not)."""
        if action not in self.game.legal_actions():
            self.error(why_illegal(self.state, action))
            return False
        self.print_events(self.game.play(action))
        return True

    # Each command takes the words after its name.

    def cmd_help(self, args: Sequence[str]) -> None:
        if not args:
            self.say(help.overview())
            return
        text = help.detail(args[0].lower())
        if text is None:
            self.unknown(args[0])
        else:
            self.say(text)

    def cmd_map(self, args: Sequence[str]) -> None:
        self.show_map(self._decision_marks())

    def cmd_status(self, args: Sequence[str]) -> None:
        self.say(describe.status_line(self.state, self.pal))
        self.say(describe.rules_line(self.state))
        self.say(
            f"German: {self._controller_text(0)}; Soviet: {self._controller_text(1)}; seed {self.game.seed}."
        )
        self.say(describe.decision_text(self.state, self.game.legal_actions()))

    def cmd_units(self, args: Sequence[str]) -> None:
        parsed = self._parse_sides(args, "usage: units [german|soviet]")
        if parsed is None:
            return
        self.say(describe.units_table(self.state, parsed[0] or (0, 1), self.pal))

    def _hex_arg(self, word: str) -> int | None:
        grid = self.state.rules.map.grid
        if word not in grid.index:
            self.error(f"'{word}' is not a hex of this map (CCRR: column 01-{grid.columns:02d}, then row)")
            return None
        return grid.index[word]

    def cmd_hex(self, args: Sequence[str]) -> None:
        if len(args) != 1:
            self.error("usage: hex HEX (e.g. hex 1103)")
            return
        h = self._hex_arg(args[0])
        if h is not None:
            self.say(describe.hex_text(self.state, h))

    def cmd_moves(self, args: Sequence[str]) -> None:
        s = self.state
        legal = self.game.legal_actions()
        moves = [a for a in legal if isinstance(a, Move)]
        if self._moves_overview(args, moves):
            return
        words, bad = unit_ids(s, args)
        if bad:
            self.error(bad)
            return
        uid = words[0]
        mine = [m for m in moves if m.unit == uid]
        if not mine:
            self.error(self._why_no_moves(uid))
            return
        ids = s.rules.map.grid.index
        self.show_map(highlight=sorted({ids[m.dst] for m in mine}))
        u = s.rules.unit_index[uid]
        spec = s.rules.units[u]
        self.show_list(
            mine,
            f"{spec.name} ({uid}) in {mine[0].src}, strength {s.strength(u)}, "
            f"movement {spec.move}: {len(mine)} move(s), marked ++ on the map. Type a number or `move {uid} HEX`.",
            label=self._move_label,
        )

    def _move_label(self, a: Action) -> str:
        assert isinstance(a, Move)
        m = self.state.rules.map
        text = a.dst
        name = m.city_name(m.grid.index[a.dst])
        if name:
            text += f" {name}"
        if a.via:
            text += " via " + ",".join(f"{h} {m.city_name(m.grid.index[h])}" for h in a.via)
        return text

    def _why_no_moves(self, uid: str | None = None) -> str:
        """Why no unit (or unit ``uid``) has a legal move now; the engine says why a unit
        may not move at all."""
        s = self.state
        if s.phase_spec.kind != "movement":
            return f"No unit moves now: this is the {s.phase_spec.name}."
        if uid is None:
            return "No unit can move now: `end` finishes the phase."
        rules = s.rules
        u = rules.unit_index[uid]
        if not movable(s, u):
            why = why_not_movable(s, u)
            return f"{why[:1].upper()}{why[1:]}."
        if s.stack >= 0 and s.stack != u:
            return f"{rules.units[s.stack].name} must first move off the hex it shares."
        return f"{rules.units[u].name} has no legal move: enemy units, zones of control or friendly units block it."

    def cmd_odds(self, args: Sequence[str]) -> None:
        s = self.state
        hexes = [a for a in args if HEX_ID.match(a)]
        if len(hexes) != 1:
            self.error("usage: odds HEX [UNIT ...] (e.g. odds 0303 LVI XXIV)")
            return
        h = self._hex_arg(hexes[0])
        if h is None:
            return
        words, bad = unit_ids(s, [a for a in args if not HEX_ID.match(a)])
        if bad:
            self.error(bad)
            return
        rules = s.rules
        d = s.at[h]
        if d < 0:
            self.error(f"{hexes[0]} is empty: odds need a unit to attack.")
            return
        notes = []
        if words:
            attackers = list(dict.fromkeys(words))
        else:
            attackers = self._default_attackers(d)
            if not attackers:
                self.error(f"No {describe.side_name(1 - rules.units[d].side)} unit is next to {hexes[0]}.")
                return
        if s.phase_spec.kind == "combat" and s.cstep == DECLARE:
            declared_here = {rules.units[a].id for dd, atk in s.battles if dd == d for a in atk}
            for uid in attackers:
                u = rules.unit_index[uid]
                if (s.done >> u) & 1 and uid not in declared_here:
                    notes.append(f"note: {uid} already attacks another hex this phase.")
        pv = preview(s, hexes[0], attackers)
        self.say(describe.odds_text(s, pv, self.pal))
        for n in notes:
            self.say("  " + n)

    def _default_attackers(self, d: int) -> list[str]:
        """The battle declared against ``d``; else every enemy neighbour that may still attack."""
        s = self.state
        rules = s.rules
        for dd, atk in s.battles:
            if dd == d:
                declared = [rules.units[a].id for a in atk]
                if s.cstep != DECLARE:
                    return declared
                break
        else:
            declared = []
        side = 1 - rules.units[d].side
        grid = rules.map.grid
        out = list(declared)
        combat_now = s.phase_spec.kind == "combat" and s.cstep == DECLARE
        for u in rules.side_units[side]:
            h = s.loc[u]
            if h < 0 or not grid.adjacent(h, s.loc[d]) or rules.units[u].id in out:
                continue
            if combat_now and (s.done >> u) & 1:
                continue
            out.append(rules.units[u].id)
        return out

    def cmd_legal(self, args: Sequence[str]) -> None:
        legal = self.game.legal_actions()
        if self.game.current_player() == TERMINAL:
            self.say("The game is over: no actions.")
            return
        if args:
            wanted = {w.lower() for w in args}
            legal = [a for a in legal if wanted & _tokens(self.game.text(a))]
            title = f"{len(legal)} legal action(s) matching {' '.join(args)}:"
        else:
            title = f"{len(legal)} legal action(s):"
        self.show_list(legal, title)

    def cmd_more(self, args: Sequence[str]) -> None:
        if not self.numbered:
            self.error("No list to continue: `legal` lists every action.")
            return
        self._show_page()

    def cmd_undo(self, args: Sequence[str]) -> None:
        g = self.game
        if not g.can_undo():
            self.error("Nothing to undo: undo works within a phase and never across a die roll.")
            return
        trial = g.copy()
        humans = self.humans()
        while trial.can_undo():
            entry = trial.undo()
            if entry.actor in humans:
                self.game = trial
                self._context_state = None
                self.say(f"Undone: {self.game.text(entry.action)}")
                return
        self.error("Nothing of yours to undo in this phase.")

    def cmd_save(self, args: Sequence[str]) -> None:
        if len(args) != 1:
            self.error("usage: save FILE")
            return
        rec = Record.from_game(self.game)
        try:
            rec.save(Path(args[0]).expanduser())
        except OSError as exc:
            self.error(f"cannot write {args[0]}: {exc.strerror or exc}")
            return
        self.say(f"Saved the game ({len(rec.actions)} actions, seed {self.game.seed}) to {args[0]}.")

    def cmd_load(self, args: Sequence[str]) -> None:
        if len(args) != 1:
            self.error("usage: load FILE")
            return
        path = Path(args[0]).expanduser()
        if not path.is_file():
            self.error(f"no such file: {args[0]}")
            return
        game = Record.load(path).replay()
        self.game = game
        self._sync_player_names()
        self.numbered = []
        self._context_state = None
        self._other_acted = True
        self._over_shown = False
        self.say(f"Loaded {args[0]}: {len(game.history)} actions replayed.")
        self.say(describe.rules_line(self.state))

    def cmd_log(self, args: Sequence[str]) -> None:
        n = 15
        if args:
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
                self.error("usage: log [N] (N a positive number)")
                return
            n = int(args[0])
        hist = self.game.history
        if not hist:
            self.say("Nothing has happened yet.")
            return
        start = max(0, len(hist) - n)
        for i in range(start, len(hist)):
            e = hist[i]
            self.say(f"{i + 1:>4}. {describe.actor_name(e.actor)}: {self.game.text(e.action)}")
            for t in e.events:
                self.say(f"        {t.text}")

    def cmd_why(self, args: Sequence[str]) -> None:
        if self._last_ai is None:
            self.error("The computer has not decided anything yet.")
            return
        player: Any = self.controllers.get(self._last_ai)
        explain = getattr(player, "explain", None)
        if explain is None:
            self.say(f"{self._who(self._last_ai)} gives no explanation.")
            return
        self.say(f"{self._who(self._last_ai)}: {explain()}")

    def cmd_automap(self, args: Sequence[str]) -> None:
        if len(args) != 1 or args[0].lower() not in ("on", "phase", "off"):
            self.error(f"usage: automap on|phase|off (now: {self.automap})")
            return
        self.automap = args[0].lower()
        self.say(f"automap {self.automap}")

    def cmd_quit(self, args: Sequence[str]) -> None:
        self.say("Leaving the game.")
        raise Quit


def _tokens(text: str) -> set[str]:
    return set(re.split(r"[\s,\-]+", text.lower()))


def session_class(module: GameModule) -> type[Session]:
    """The terminal session class the game's package names (``FrontEnds.terminal``,
    "module:Class"): :class:`Session` itself, or a subclass with the game's own map and words."""
    path, _, name = module.front_ends.terminal.partition(":")
    cls = getattr(importlib.import_module(path), name)
    if not (isinstance(cls, type) and issubclass(cls, Session)):
        raise TypeError(f"{module.front_ends.terminal} is not a terminal Session")
    return cls


def make_session(game: Game, controllers: Mapping[int, Player | None], **kwargs: Any) -> Session:
    """The terminal session for the game's module (:func:`session_class`)."""
    return session_class(game.module)(game, controllers, **kwargs)


_COMMANDS: dict[str, Callable[[Session, Sequence[str]], None]] = {
    c.name: getattr(Session, f"cmd_{c.name}") for c in help.COMMANDS
}
