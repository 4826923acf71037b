"""Help texts of terminal play: every command with its usage, and the words to look them up.

The texts here are the same for every game; a game's terminal module may give its own table
of commands (the same names, its own words and examples) and the help of its actions
(:meth:`typhoon.tui.session.Session.help_commands`, ``actions_help``, ``action_usage``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    summary: str
    detail: str = ""


COMMANDS: tuple[Command, ...] = (
    Command("help", "help [COMMAND]", "this list, or more about one command"),
    Command("map", "map", "show the board (a game without a text map shows the position in words)"),
    Command("units", "units [SIDE]", "list the units: where they are and what they are"),
    Command("hex", "hex HEX", "what is on one hex, and the actions with it or its units"),
    Command("moves", "moves [UNIT]", "what a unit can do now (numbered); without UNIT: who can move"),
    Command(
        "odds",
        "odds HEX [UNIT ...]",
        "the odds of an attack on HEX, where the game gives them before the battle",
    ),
    Command(
        "legal",
        "legal [WORD ...]",
        "every legal action now, numbered (type a number to play one); WORD filters by a unit or a hex",
        "Long lists come in pages: `more` shows the next page.",
    ),
    Command("more", "more", "the next page of the last list"),
    Command("undo", "undo", "take back your last decision (across phase ends too, never across a die roll)"),
    Command("save", "save FILE", "write the game record to FILE (text; `typhoon play --load FILE` resumes)"),
    Command("load", "load FILE", "load a game record and continue it (who is human stays as it is)"),
    Command("log", "log [N]", "the last N actions (default 15) and what they did"),
    Command("why", "why", "the computer player's explanation of its last decision"),
    Command("status", "status", "turn, phase, whose decision, rules in force"),
    Command(
        "automap",
        "automap on|phase|off",
        "when to redraw the map by itself: after every change, at new phases and after the other side (default), never",
    ),
    Command("quit", "quit", "leave (also: exit, Ctrl-D); save first if you want to resume"),
)
NAMES = tuple(c.name for c in COMMANDS)  # a game's own table has the same commands


def with_own_words(own: Iterable[Command], commands: Sequence[Command] = COMMANDS) -> tuple[Command, ...]:
    """The table of ``commands`` (the generic one) with a game's own words for some of them: a
    game writes only the commands it says differently, and the table keeps every name."""
    mine = {c.name: c for c in own}
    unknown = set(mine) - {c.name for c in commands}
    if unknown:
        raise ValueError(f"no such terminal command: {', '.join(sorted(unknown))}")
    return tuple(mine.get(c.name, c) for c in commands)


ALIASES = {"?": "help", "h": "help", "exit": "quit", "q": "quit", "m": "map", "l": "legal", "u": "undo"}

ACTIONS_HELP = """\
Actions: type them as `legal` lists them (the game's notation), or the number of one in the last
list shown. Dice are rolled automatically from the game's seed, and the result is shown."""


def command(name: str, commands: Sequence[Command] = COMMANDS) -> Command | None:
    name = ALIASES.get(name, name)
    for c in commands:
        if c.name == name:
            return c
    return None


def all_words(verbs: Iterable[str], commands: Sequence[Command] = COMMANDS) -> list[str]:
    """Every word that starts a valid input line (for suggestions)."""
    return [c.name for c in commands] + list(ALIASES) + list(verbs)


def overview(commands: Sequence[Command] = COMMANDS, actions_help: str = ACTIONS_HELP) -> str:
    width = max(len(c.usage) for c in commands)
    lines = ["Commands:"]
    lines.extend(f"  {c.usage:<{width}}  {c.summary}" for c in commands)
    return "\n".join(lines) + "\n" + actions_help


def detail(
    name: str,
    commands: Sequence[Command] = COMMANDS,
    action_usage: Mapping[str, str] | None = None,
    actions_help: str = ACTIONS_HELP,
) -> str | None:
    """More about one command, or about one action verb (its usage and its lines of the
    actions' help); None for a word that is neither."""
    c = command(name, commands)
    if c is not None:
        text = f"{c.usage}\n  {c.summary}"
        if c.detail:
            text += "\n  " + c.detail.replace("\n", "\n  ")
        return text
    if action_usage and name in action_usage:
        return f"{action_usage[name]}\n" + "\n".join(
            line for line in actions_help.splitlines() if line.strip().startswith(name)
        )
    return None
