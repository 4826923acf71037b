"""The command loop of terminal play, for any registered game. It reads lines from any text
stream and writes to any stream, so a whole session can be scripted (tests feed it a StringIO).

Dice are rolled and computer players move by themselves; the loop stops to read a line only
when a human side has to decide. Every failure a line can cause is answered with one line.

The session knows a game only through its :class:`~typhoon.games.GameModule` (legal actions,
notation, chance, sides, editions) and its :class:`~typhoon.games.frontends.FrontEnds` (the
position and hexes in words, odds, notice, turn labels). A game with something of its own to
show (a text map, unit lookups, forgiving input) names a subclass in ``FrontEnds.terminal``,
living in its package (``games/<key>/terminal.py``), which overrides the hooks below.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from typhoon.errors import NotationError, TyphoonError
from typhoon.events import Event
from typhoon.game import CHANCE, TERMINAL, Game
from typhoon.games import GameModule
from typhoon.players import Player
from typhoon.record import Record
from typhoon.textstyle import Palette
from typhoon.tui import help
from typhoon.tui.help import Command

SHOW_CHOICES = 12  # decisions with at most this many answers list them, numbered, by themselves
PAGE_ROWS = 20


class LineSource(Protocol):
    """Where commands come from: a file, sys.stdin, a StringIO, a test's scripted player."""

    def readline(self) -> str: ...


class Quit(Exception):
    """The player asked to leave."""


def event_lines(events: Sequence[Event], pal: Palette) -> list[str]:
    """Events as lines: new turns and phases as headings, dice and the end of the game marked."""
    out = []
    for e in events:
        if e.kind == "turn":
            out.append(pal.paint(f"=== {e.text} ===", "title"))
        elif e.kind == "phase":
            out.append(pal.paint(f"--- {e.text}", "title"))
        elif e.kind == "roll":
            out.append("  " + pal.paint(e.text, "fort"))
        elif e.kind == "game_over":
            out.append(pal.paint(f"*** {e.text} ***", "good"))
        else:
            out.append(f"  {e.text}")
    return out


class Session:
    """One game at the terminal. ``controllers[side]`` is a Player, or None for a human.

    Hooks a game's subclass may override: :meth:`title_text`, :meth:`intro`,
    :meth:`edition_line`, :meth:`rules_lines`, :meth:`status_text`, :meth:`result_text`,
    :meth:`_decision_text`, :meth:`_over_text`, :meth:`draw_map`, :meth:`_decision_marks`,
    :meth:`_before_auto_map`, :meth:`_after_load`, :meth:`action_verbs`, :meth:`play_text`,
    :meth:`why_illegal`, :meth:`help_commands`, :meth:`actions_help`, :meth:`action_usage`,
    :meth:`_no_hex`, :meth:`_why_no_moves`, and any ``cmd_<name>`` of :data:`help.COMMANDS`.
    A game's ``play_text`` gives a line of several actions to :meth:`play_actions`."""

    # Words for a side besides its name, its initial and its plural ("russian": 1).
    SIDE_WORDS: Mapping[str, int] = {}
    HEX_USAGE = "usage: hex HEX"

    def __init__(
        self,
        game: Game,
        controllers: Mapping[int, Player | None],
        *,
        out: TextIO,
        color: bool = False,
        width: int = 120,
        automap: str = "phase",
    ):
        self.game = game
        self.controllers: dict[int, Player | None] = {0: controllers.get(0), 1: controllers.get(1)}
        self.out = out
        self.pal = Palette(color)
        self.width = max(40, width)
        self.automap = automap
        self.numbered: list[Any] = []
        self._label: Callable[[Any], str] = game.text
        self._page = 0
        self._map_phase: tuple[Any, Any] | None = None
        self._context_state: Any = None
        self._other_acted = True
        self._last_ai: int | None = None
        self._why_hinted = False
        self._over_shown = False
        self._verbs: set[str] = set()  # first words of the game's actions seen so far
        self._sync_player_names()

    # -- the game ---------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.game.state

    @property
    def module(self) -> GameModule:
        return self.game.module

    def side_name(self, side: int) -> str:
        return self.module.sides[side].capitalize()

    def actor_name(self, actor: int) -> str:
        return "die" if actor == CHANCE else self.side_name(actor)

    def _phase_key(self) -> tuple[Any, Any]:
        s = self.state
        return (getattr(s, "turn", None), getattr(s, "phase", None))

    def _phase_spec(self) -> Any:
        """The phase in progress (``state.phase_spec``: ``name``, ``kind``), or None where the
        game's state has none (or none any more: a finished game)."""
        try:
            return self.state.phase_spec
        except (AttributeError, IndexError, KeyError):
            return None

    # -- output -----------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def error(self, text: str) -> None:
        self.say(self.pal.paint(text, "error"))

    def _sync_player_names(self) -> None:
        self.game.players = {
            self.module.sides[s]: (p.name if p is not None else "human") for s, p in self.controllers.items()
        }

    def _who(self, side: int) -> str:
        p = self.controllers.get(side)
        return self.side_name(side) + ("" if p is None else f" ({p.name})")

    def humans(self) -> set[int]:
        return {s for s, p in self.controllers.items() if p is None}

    # -- the loop ---------------------------------------------------------------------------

    def run(self, instream: LineSource, *, interactive: bool = False) -> int:
        """Play until the player quits or the input ends. Returns the exit status."""
        try:
            self.intro()
            while True:
                self.advance()
                self._show_context()
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
        return f"{self.side_name(who)}> "

    def title_text(self) -> str:
        return f"Typhoon: {self.module.title}"

    def intro(self) -> None:
        self.say(self.pal.paint(self.title_text(), "title"))
        notice = self.module.front_ends.notice
        if notice:
            self.say(self.pal.paint(notice, "fort"))
        self.say(self.edition_line())
        self.say(self._controllers_line() + ".")
        self.say("Type `help` for the commands, `legal` for every action possible now.")

    def edition_line(self) -> str:
        """The rules in force: the game, its edition (or scenario) and the options."""
        m = self.module
        ed = self.game.edition
        title = m.editions().get(ed, ed)
        opts = ", ".join(f"{k}={v}" for k, v in sorted(self.game.options.items()))
        return f"Rules: {m.title}, {m.edition_word} {ed} ({title})" + (f"; options: {opts}" if opts else "")

    def rules_lines(self) -> list[str]:
        """What `status` says of the rules in force (the edition line and the game's notice)."""
        notice = self.module.front_ends.notice
        return [self.edition_line(), *([notice] if notice else [])]

    def _controllers_line(self) -> str:
        return "; ".join(f"{self.side_name(s)}: {self._controller_text(s)}" for s in (0, 1))

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
            self.error(f"{self._who(side)} {problem}; you take over the {self.module.sides[side]} side.")
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
        for line in event_lines(events, self.pal):
            self.say(line)

    def _show_context(self) -> None:
        try:
            self.show_context()
        except Exception as exc:  # a game's words failing: one line, and the game goes on
            self.error(f"internal error (please report): {type(exc).__name__}: {exc}")

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
        phase = self._phase_key()
        if self.automap == "on" or (
            self.automap == "phase" and (self._other_acted or phase != self._map_phase)
        ):
            self._before_auto_map(phase)
            self.show_map(self._decision_marks())
        self._other_acted = False
        self.say(self.status_text())
        legal = self.game.legal_actions()
        self._learn_verbs(legal)
        self.say(self._decision_text(legal))
        if self._lists_choices(legal):
            self.show_list(legal, "Choices:")

    # Hooks of show_context.

    def _lists_choices(self, legal: Sequence[Any]) -> bool:
        """Whether the decision's answers are listed by themselves (few, and not a set-up)."""
        kind = getattr(self._phase_spec(), "kind", None)
        return len(legal) <= SHOW_CHOICES and kind != "setup"

    def status_text(self) -> str:
        """One line: the turn, the phase and who is to decide."""
        s = self.state
        parts = []
        turn = getattr(s, "turn", None)
        if isinstance(turn, int):
            label = self.module.front_ends.turn_label(s.rules, turn)
            parts.append(f"Turn {turn}" + ("" if label.lower() == f"turn {turn}" else f" ({label})"))
        name = getattr(self._phase_spec(), "name", None)
        if name:
            parts.append(str(name))
        who = self.game.current_player()
        if who == TERMINAL:
            parts.append(f"game over: {self.result_text()}")
        elif who == CHANCE:
            parts.append("a die roll is due")
        else:
            parts.append(f"{self.side_name(who)} to decide")
        return self.pal.paint(parts[0], "title") + "".join(" | " + p for p in parts[1:])

    def result_text(self) -> str:
        result = self.state.result
        if result is None:
            return "not finished"
        if result == "draw":
            return "a draw"
        if result in self.module.sides:
            return f"the {result.capitalize()} player wins"
        return str(result)

    def _over_text(self) -> str:
        return f"The game is over: {self.result_text()}. `save FILE` keeps the record; `log`, `map`, `quit`."

    def _decision_text(self, legal: Sequence[Any]) -> str:
        who = self.game.current_player()
        if who < 0:
            return ""
        pick = "a number picks one of the choices" if len(legal) <= SHOW_CHOICES else "`legal` lists them"
        return f"{self.side_name(who)} to decide: {len(legal)} legal action(s); {pick}."

    def _before_auto_map(self, phase: tuple[Any, Any]) -> None:
        """Called before the map is shown by itself at ``phase`` (turn, phase)."""

    def _parse_sides(
        self, args: Sequence[str], usage: str, flags: Sequence[str] = ()
    ) -> tuple[list[int], set[str]] | None:
        """The sides named in ``args`` (a side's name, initial or plural) and the ``flags``
        given; None (after an error line with ``usage``) for any other word."""
        words = dict(self.SIDE_WORDS)
        for side, name in enumerate(self.module.sides):
            for w in (name, name[:1], name + "s"):
                words.setdefault(w.lower(), side)
        sides: list[int] = []
        given: set[str] = set()
        for a in args:
            low = a.lower()
            if low in words:
                sides.append(words[low])
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
        """The hexes to mark on the map for the decision now (a game with a text map)."""
        return []

    def show_map(self, highlight: Sequence[int] = ()) -> None:
        self.draw_map(highlight)
        self._map_phase = self._phase_key()

    def draw_map(self, highlight: Sequence[int] = ()) -> None:
        """The board. With no text map of its own a game shows the position in words (the
        plain words its kit gives every reader)."""
        fe = self.module.front_ends
        if fe.position_words is None:
            self.say(self.pal.paint("(This game has no text map: `units`, `hex HEX` and `legal`.)", "dim"))
            return
        who = self.game.current_player()
        whose = {TERMINAL: "The game is over.", CHANCE: "A die roll is due."}.get(who)
        whose = whose or f"{self.side_name(who)} to decide."
        legal = self.game.legal_actions()
        try:
            lines = fe.position_words(self.state, legal, whose, max(who, 0))
        except Exception as exc:  # the game's words failing: one line, the rest of the context follows
            self.error(f"internal error (please report): the position in words: {type(exc).__name__}: {exc}")
            return
        for line in lines:
            self.say(line)

    # -- numbered lists ---------------------------------------------------------------------

    def show_list(
        self, actions: Sequence[Any], title: str, label: Callable[[Any], str] | None = None
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

    def help_commands(self) -> Sequence[Command]:
        """The table of commands `help` shows (a game may word them its own way)."""
        return help.COMMANDS

    def actions_help(self) -> str:
        """How the game's actions are typed (the end of `help`)."""
        return help.ACTIONS_HELP

    def action_usage(self) -> Mapping[str, str]:
        """verb -> how an action with that verb is written (`help VERB`, and notation errors)."""
        return {}

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
            elif head in help.NAMES:
                getattr(self, f"cmd_{head}")(words[1:])
            elif head in self.action_verbs() or self._parses(text):
                self.play_text(text)
            else:
                self.unknown(words[0])
        except Quit:
            raise
        except TyphoonError as exc:
            self.error(str(exc))
        except Exception as exc:  # never a traceback at the prompt; say what broke
            self.error(f"internal error (please report): {type(exc).__name__}: {exc}")

    def _learn_verbs(self, actions: Sequence[Any]) -> None:
        for a in actions:
            self._verbs.add(self.game.text(a).split(" ", 1)[0].lower())

    def action_verbs(self) -> Sequence[str]:
        """The words that start an action in this game's notation: those of the actions seen
        so far (legal now or before), and ``roll`` (dice are rolled by the session)."""
        self._learn_verbs(self.game.legal_actions())
        return sorted(self._verbs | {"roll"})

    def _parses(self, text: str) -> bool:
        try:
            self.module.action_from_text(text)
        except NotationError:
            return False
        return True

    def unknown(self, word: str) -> None:
        words = help.all_words(self.action_verbs(), self.help_commands())
        # Dice are never typed: `roll` is no verb of the player's to suggest (issue 15).
        words = [w for w in words if w != "roll"]
        close = difflib.get_close_matches(word.lower(), words, n=1, cutoff=0.6)
        hint = f" Did you mean `{close[0]}`?" if close else ""
        self.error(f"Unknown command '{word}'.{hint} Type `help` for the commands.")

    def _human_to_decide(self) -> bool:
        who = self.game.current_player()
        if who == TERMINAL:
            self.error(f"The game is over ({self.result_text()}): `save FILE`, `log`, `map` or `quit`.")
            return False
        return who in self.humans()

    def play_text(self, text: str) -> None:
        """An action typed in the game's notation (any case where the notation has none of
        its own), checked against the exact legal list."""
        if not self._human_to_decide():
            return
        verb = text.split()[0].lower()
        legal = self.game.legal_actions()
        typed = {_norm(self.game.text(a)): a for a in legal}
        action = typed.get(_norm(text))
        if action is None:
            try:
                action = self.module.action_from_text(text)
            except NotationError as exc:
                if verb == "roll":
                    self.error("dice are rolled automatically from the game's seed")
                    return
                usage = self.action_usage().get(verb)
                self.error(
                    f"{exc}" + (f" (usage: {usage})" if usage else " (`legal` lists what is possible now)")
                )
                return
        if verb == "roll" and action not in legal:
            self.error("dice are rolled automatically from the game's seed")
            return
        self.play(action)

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

    def play(self, action: Any) -> bool:
        """Play one action for the human to decide and report what happened (or why not)."""
        if action not in self.game.legal_actions():
            self.error(self.why_illegal(action))
            return False
        self.print_events(self.game.play(action))
        return True

    def play_actions(self, actions: Sequence[Any]) -> bool:
        """Play a line's several actions all or nothing (issue 15: a multi-unit `attack` with
        one bad unit is not half-applied): the whole sequence is first played on a copy of the
        game, and only if every action is legal there, with the same human side deciding
        throughout and no die roll in between, is it played on the real game. Otherwise nothing
        changes and one line says which action (and unit) is wrong."""
        if len(actions) == 1:
            return self.play(actions[0])
        if not actions:
            return False
        trial = self.game.copy()
        side = trial.current_player()
        for i, action in enumerate(actions):
            where = self._nth_text(action, i, len(actions))
            if i and trial.current_player() != side:
                self.error(
                    f"Nothing played: after the {_ordinal(i)} action the {self.side_name(side)} side no "
                    f"longer decides, so {where} cannot follow on the same line."
                )
                return False
            if action not in trial.legal_actions():
                why = self._why_illegal_in(trial.state, action)
                self.error(f"Nothing played: {where} is not legal: {why}")
                return False
            trial.play(action)
        for action in actions:
            self.print_events(self.game.play(action))
        return True

    def _nth_text(self, action: Any, i: int, n: int) -> str:
        """`attack XXIV 0303` (unit XXIV, the 2nd of 3 actions): which action of a line."""
        unit = getattr(action, "unit", None)
        units = getattr(action, "units", None)
        if unit is None and isinstance(units, tuple) and len(units) == 1:
            unit = units[0]
        who = f"unit {unit}, " if isinstance(unit, str) else ""
        return f"`{self.game.text(action)}` ({who}the {_ordinal(i + 1)} of {n} actions)"

    def _why_illegal_in(self, state: Any, action: Any) -> str:
        """The engine's reason ``action`` is not legal in ``state``."""
        try:
            self.module.apply(state, action)
        except TyphoonError as exc:
            return f"{exc} (`legal` lists what is possible now)"
        return "the engine does not list it (`legal` lists what is possible now)"

    def why_illegal(self, action: Any) -> str:
        """The engine's reason an action is not legal here (it is never applied)."""
        try:
            self.module.apply(self.state, action)
        except TyphoonError as exc:
            return f"{exc} (`legal` lists what is possible now)"
        return f"'{self.game.text(action)}' is not legal now"  # pragma: no cover - engine disagrees

    # Each command takes the words after its name.

    def cmd_help(self, args: Sequence[str]) -> None:
        commands = self.help_commands()
        if not args:
            self.say(help.overview(commands, self.actions_help()))
            return
        word = args[0].lower()
        text = help.detail(word, commands, self.action_usage(), self.actions_help())
        if text is None and word in self.action_verbs():
            text = self._verb_help(word)
        if text is None:
            self.unknown(args[0])
        else:
            self.say(text)

    def _verb_help(self, verb: str) -> str:
        """A verb of the game's notation the game gives no help for: the actions it starts now."""
        if verb == "roll":
            return "roll: dice are rolled automatically from the game's seed."
        now = [
            t for t in map(self.game.text, self.game.legal_actions()) if t.split(" ", 1)[0].lower() == verb
        ]
        if not now:
            return f"{verb}: an action of this game; none is possible now (`legal` lists what is)."
        more = f", and {len(now) - 5} more" if len(now) > 5 else ""
        return f"{verb}: an action of this game; possible now: {', '.join(now[:5])}{more}."

    def cmd_map(self, args: Sequence[str]) -> None:
        self.show_map(self._decision_marks())

    def cmd_status(self, args: Sequence[str]) -> None:
        self.say(self.status_text())
        for line in self.rules_lines():
            self.say(line)
        self.say(f"{self._controllers_line()}; seed {self.game.seed}.")
        decision = self._decision_text(self.game.legal_actions())
        if decision:
            self.say(decision)

    def cmd_units(self, args: Sequence[str]) -> None:
        parsed = self._parse_sides(args, "usage: units [SIDE]")
        if parsed is None:
            return
        sides = parsed[0] or [0, 1]
        units = self.module.front_ends.state_view(self.state).get("units")
        if not isinstance(units, list):
            self.draw_map()
            return
        for side in sides:
            name = self.module.sides[side]
            mine = [u for u in units if isinstance(u, dict) and u.get("side") == name]
            self.say(self.pal.paint(f"{self.side_name(side)} units ({len(mine)}):", "title"))
            for u in mine:
                self.say("  " + _unit_line(u))

    def _unit_ids(self) -> list[str]:
        """The ids of the game's units: its view's, and those of the legal actions."""
        units = self.module.front_ends.state_view(self.state).get("units")
        ids = (
            [str(u["id"]) for u in units if isinstance(u, dict) and "id" in u]
            if isinstance(units, list)
            else []
        )
        ids += [a.unit for a in self.game.legal_actions() if isinstance(getattr(a, "unit", None), str)]
        return list(dict.fromkeys(ids))

    def _uid(self, word: str) -> str | None:
        """The unit id spelt ``word`` in any case, or None."""
        ids = self._unit_ids()
        if word in ids:
            return word
        low = word.lower()
        return next((k for k in ids if k.lower() == low), None)

    def _no_unit(self, word: str) -> str:
        close = difflib.get_close_matches(word, self._unit_ids(), n=3, cutoff=0.5)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        return f"there is no unit '{word}'{hint} (`units` lists them)"

    def _no_hex(self, word: str) -> str:
        return f"'{word}' is not a hex of this map"

    def cmd_hex(self, args: Sequence[str]) -> None:
        if len(args) != 1:
            self.error(self.HEX_USAGE)
            return
        try:
            view = self.module.front_ends.hex_view(self.state, args[0])
        except KeyError:
            self.error(self._no_hex(args[0]))
            return
        self.say(str(view["words"]))
        if self.game.current_player() in self.humans():
            hid = str(view["hex"])
            ids = set(view.get("units", ()))
            here = [
                a
                for a in self.game.legal_actions()
                if hid in _tokens(self.game.text(a)) or getattr(a, "unit", None) in ids
            ]
            if here:
                self.show_list(here, f"{len(here)} action(s) with {hid} or its units (type a number):")

    def cmd_moves(self, args: Sequence[str]) -> None:
        legal = self.game.legal_actions()
        moves = [
            a
            for a in legal
            if getattr(a, "kind", None) == "move" and isinstance(getattr(a, "unit", None), str)
        ]
        if self._moves_overview(args, moves):
            return
        uid = self._uid(args[0])
        if uid is None:
            self.error(self._no_unit(args[0]))
            return
        mine = [a for a in legal if getattr(a, "unit", None) == uid]
        if not mine:
            self.error(self._why_no_moves(uid))
            return
        self.show_list(mine, f"{uid}: {len(mine)} action(s) now. Type a number or the action.")

    def _why_no_moves(self, uid: str | None = None) -> str:
        """Why no unit (or unit ``uid``) has a legal move now."""
        if uid is None:
            return "No unit can move now: `legal` lists what is possible."
        return f"{uid} can do nothing now: `legal` lists what is possible."

    def cmd_odds(self, args: Sequence[str]) -> None:
        fe = self.module.front_ends
        if fe.odds_words is None:
            self.error(fe.no_preview)
            return
        if not args:
            self.error("usage: odds HEX [UNIT ...]")
            return
        attackers = []
        for w in args[1:]:
            uid = self._uid(w)
            if uid is None:
                self.error(self._no_unit(w))
                return
            attackers.append(uid)
        legal = self.game.legal_actions()
        self.say(fe.odds_words(self.state, args[0], attackers, legal, self.game.text))

    def cmd_legal(self, args: Sequence[str]) -> None:
        legal = self.game.legal_actions()
        if self.game.current_player() == TERMINAL:
            self.say("The game is over: no actions.")
            return
        if args:
            wanted = {w.lower() for w in args}
            legal = [a for a in legal if wanted & _tokens(self.game.text(a).lower())]
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
        humans = self.humans()
        if not g.can_undo(players=humans):
            self.error("Nothing to undo: undo never crosses a die roll or the computer's move.")
            return
        trial = g.copy()
        while trial.can_undo(players=humans):
            entry = trial.undo(players=humans)
            if entry.actor in humans:
                self.game = trial
                self._context_state = None
                self.say(f"Undone: {self.game.text(entry.action)}")
                return
        self.error("Nothing of yours to undo: undo never crosses a die roll or the computer's turn.")

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
        rec = Record.load(path)
        if rec.game != self.module.key:  # this session shows its own game only
            self.error(f"{args[0]} is a record of {rec.game}, not of {self.module.title}.")
            return
        game = rec.replay()
        self.game = game
        self._sync_player_names()
        self.numbered = []
        self._context_state = None
        self._other_acted = True
        self._over_shown = False
        self.say(f"Loaded {args[0]}: {len(game.history)} actions replayed.")
        self.say(self.rules_lines()[0])
        self._after_load()

    def _after_load(self) -> None:
        """Called when a record has been loaded into the session."""

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
            self.say(f"{i + 1:>4}. {self.actor_name(e.actor)}: {self.game.text(e.action)}")
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


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _tokens(text: str) -> set[str]:
    return set(re.split(r"[\s,\-]+", text))


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _unit_line(u: Mapping[str, Any]) -> str:
    """A unit of the game's view (``state_view()["units"]``: ``id``, ``side``, ``hex``, and
    optional ``words`` or ``name``) in one line."""
    if u.get("words"):
        return str(u["words"])
    where = u.get("hex") or ("eliminated" if u.get("eliminated") else "off the map")
    name = u.get("name")
    return f"{u['id']} in {where}" + (f" ({name})" if name and name != u["id"] else "")


def session_class(module: GameModule) -> type[Session]:
    """The terminal session class of the game: the one its kit names (``FrontEnds.terminal``,
    "module:Class", a subclass with the game's own map and words), else :class:`Session`."""
    name = module.front_ends.terminal
    if name is None:
        return Session
    path, _, attr = name.partition(":")
    cls = getattr(importlib.import_module(path), attr)
    if not (isinstance(cls, type) and issubclass(cls, Session)):
        raise TypeError(f"{name} is not a terminal Session")
    return cls


def make_session(game: Game, controllers: Mapping[int, Player | None], **kwargs: Any) -> Session:
    """The terminal session for the game's module (:func:`session_class`)."""
    return session_class(game.module)(game, controllers, **kwargs)
