"""Moscow Attacked! at the terminal: the game-blind session with the text map of
:mod:`.termmap` (north up, the reconstruction noted under it), the weather and the Soviet
No Retreat! order in the status line, and the battle's hexes marked on the map."""

from __future__ import annotations

from collections.abc import Sequence

from typhoon.tui.session import Session

from .termmap import map_lines, map_width


class MaSession(Session):
    """One Moscow Attacked! game at the terminal."""

    SIDE_WORDS = {"russian": 1, "russians": 1, "soviets": 1, "germans": 0}
    HEX_USAGE = "usage: hex HEX (e.g. hex I7, Moscow)"

    _narrow_noted = False

    def status_text(self) -> str:
        s = self.state
        extra = f" | {s.weather}"
        if s.noretreat != "none":
            extra += f" | No Retreat!: {s.noretreat}"
        if s.panic:
            extra += " | PANIC in Moscow"
        return super().status_text() + extra

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
