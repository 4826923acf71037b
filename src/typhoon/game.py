"""A game in progress: the current state, the dice, the history, undo and records.

    game = Game(seed=1)                      # Battle for Moscow, GDW 1986 rules
    game.play_text("setup standard")         # Soviet set-up
    game.play(game.legal_actions()[0])
    game.roll_dice()                         # settles any die roll that is due
    game.undo()                              # within a phase, never across a die roll
    text = game.to_record().to_text()

The state objects are immutable values (see the game module); a Game only holds the
current one and the history of (action, state before) pairs.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from typhoon.errors import IllegalActionError, NotationError
from typhoon.events import Event
from typhoon.games import GameModule, game_module

CHANCE = -1
TERMINAL = -2


@dataclass
class Entry:
    action: Any
    actor: int  # side index, or CHANCE for a die roll
    before: Any  # the state the action was played in
    events: list[Event] = field(default_factory=list)


class Game:
    def __init__(
        self,
        game: str = "bfm",
        edition: str | None = None,
        options: Mapping[str, str] | None = None,
        *,
        seed: int | None = None,
        players: Mapping[str, str] | None = None,
        date: str | None = None,
    ):
        self.module: GameModule = game_module(game)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.rng = random.Random(self.seed)
        self.rolls_drawn = 0
        self.edition = edition or self.module.default_edition
        self.state: Any = self.module.new_game(self.edition, dict(options or {}))
        self.options: dict[str, str] = dict(self.state.rules.options)
        self.players: dict[str, str] = dict(players or {})
        self.date = date or datetime.date.today().isoformat()
        self.history: list[Entry] = []
        self.initial = self.state

    # -- reading ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_terminal)

    @property
    def result(self) -> str | None:
        return self.state.result  # type: ignore[no-any-return]

    def current_player(self) -> int:
        return int(self.state.current_player())

    def legal_actions(self) -> list[Any]:
        return self.module.legal_actions(self.state)

    def text(self, action: Any) -> str:
        return self.module.action_to_text(action)

    def position(self) -> str:
        return self.module.position_to_text(self.state)

    # -- playing ----------------------------------------------------------------------------

    def play(self, action: Any) -> list[Event]:
        """Play one action (a die roll included). Raises IllegalActionError, changing nothing."""
        actor = self.current_player()
        if actor == TERMINAL:
            raise IllegalActionError("the game is over")
        new, events = self.module.apply(self.state, action)
        self.history.append(Entry(action, actor, self.state, events))
        self.state = new
        return events

    def play_text(self, text: str) -> list[Event]:
        """Play an action written in the game's notation. Raises NotationError or
        IllegalActionError, changing nothing."""
        return self.play(self.module.action_from_text(text))

    def roll(self) -> list[Event]:
        """Roll the die that is due, from this game's seeded generator."""
        if self.current_player() != CHANCE:
            raise IllegalActionError("no die roll is due")
        outcomes = self.module.chance_outcomes(self.state)
        die = self.rng.randint(1, len(outcomes))
        self.rolls_drawn += 1
        return self.play(outcomes[die - 1][0])

    def roll_dice(self) -> list[Event]:
        """Roll every die due now (none if a player is to decide)."""
        events: list[Event] = []
        while self.current_player() == CHANCE:
            events.extend(self.roll())
        return events

    # -- undo -------------------------------------------------------------------------------

    def can_undo(self, side: int | None = None) -> bool:
        """Undo takes back the last decision if it was made in the current phase and no die
        has been rolled since; with ``side``, only if that side made it."""
        if not self.history:
            return False
        last = self.history[-1]
        if last.actor == CHANCE or (side is not None and last.actor != side):
            return False
        before, now = last.before, self.state
        return bool(before.turn == now.turn and before.phase == now.phase and not now.is_terminal)

    def undo(self, side: int | None = None) -> Entry:
        if not self.can_undo(side):
            raise IllegalActionError(
                "nothing to undo in this phase (undo never crosses a die roll or a phase)"
            )
        entry = self.history.pop()
        self.state = entry.before
        return entry

    # -- records ----------------------------------------------------------------------------

    def to_record(self) -> Any:
        from typhoon.record import Record

        return Record.from_game(self)

    def actor_letter(self, actor: int) -> str:
        if actor == CHANCE:
            return "*"
        return self.module.sides[actor][0].upper()

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.module = self.module
        g.seed = self.seed
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.rolls_drawn = self.rolls_drawn
        g.edition = self.edition
        g.state = self.state
        g.options = dict(self.options)
        g.players = dict(self.players)
        g.date = self.date
        g.history = list(self.history)
        g.initial = self.initial
        return g

    def resync_dice(self) -> None:
        """After replaying a record, continue the die sequence where its seed had got to."""
        self.rng = random.Random(self.seed)
        for _ in range(self.rolls_drawn):
            self.rng.randint(1, 6)


def parse_options(text: str) -> dict[str, str]:
    """'a=1,b=2' (or 'a=1 b=2') -> {'a': '1', 'b': '2'}."""
    out: dict[str, str] = {}
    for item in text.replace(",", " ").split():
        if "=" not in item:
            raise NotationError(f"option '{item}' is not name=value")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out
