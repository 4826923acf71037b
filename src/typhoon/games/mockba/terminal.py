"""MOCKBA at the terminal: the game-blind session with the text map of :mod:`.termmap` (the
reconstruction noted under it), the air points in the status line, and the battle's hexes
marked on the map."""

from __future__ import annotations

from collections.abc import Sequence

from typhoon.tui.session import Session

from .termmap import map_lines, map_width


class MockbaSession(Session):
    """One MOCKBA game at the terminal."""

    SIDE_WORDS = {"russian": 1, "russians": 1, "soviets": 1, "germans": 0}
    HEX_USAGE = "usage: hex HEX (e.g. hex 2912; columns 01-33, rows 01-40)"

    _narrow_noted = False

    def status_text(self) -> str:
        s = self.state
        return super().status_text() + f" | air G{s.air_g} S{s.air_s}"

    def _decision_marks(self) -> list[int]:
        b = self.state.battle
        if b is None or self.game.current_player() not in self.humans():
            return []
        return [b.target, *(self.state.loc[u] for u in b.attackers if self.state.loc[u] >= 0)]

    def draw_map(self, highlight: Sequence[int] = ()) -> None:
        for line in map_lines(self.state, highlight=highlight):
            self.say(line)
        if self.width < map_width() and not self._narrow_noted:
            self._narrow_noted = True
            self.say(
                f"(The map needs {map_width()} columns and the terminal has {self.width}: widen it, or use `hex HEX`.)"
            )
