"""Battle for Moscow at the terminal: the game-blind command loop of
:class:`typhoon.tui.session.Session` with the game's own text map (:mod:`.termmap`), its words
(:mod:`.words`), forgiving action input (:mod:`.terminal_input`), a unit's moves marked on the
map, and the odds preview of a battle before it is declared.

Every rule question goes to the engine: legal actions, movement, the preview.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from typhoon.game import Game
from typhoon.games.bfm import words as describe
from typhoon.games.bfm.actions import Action, Move
from typhoon.games.bfm.movement_phase import movable, why_not_movable
from typhoon.games.bfm.preview import preview
from typhoon.games.bfm.state import DECLARE, State
from typhoon.games.bfm.terminal_help import ACTION_USAGE, ACTION_VERBS, ACTIONS_HELP, COMMANDS
from typhoon.games.bfm.terminal_input import HEX_ID, interpret, unit_ids
from typhoon.games.bfm.termmap import compact_legend, legend, map_size, render_compact, render_map
from typhoon.players import Player
from typhoon.tui.help import Command
from typhoon.tui.session import Session


class BfmSession(Session):
    """One Battle for Moscow game at the terminal."""

    SIDE_WORDS = {"russian": 1}
    HEX_USAGE = "usage: hex HEX (e.g. hex 1103)"

    def __init__(self, game: Game, controllers: Mapping[int, Player | None], **kwargs: Any):
        super().__init__(game, controllers, **kwargs)
        self._narrow_noted = False
        self.map_style: str | None = None  # "full" or "compact" once chosen; else by the width

    @property
    def state(self) -> State:
        return self.game.state  # type: ignore[no-any-return]

    # -- words ------------------------------------------------------------------------------

    def title_text(self) -> str:
        return "Typhoon: Battle for Moscow, 1941"

    def intro(self) -> None:
        self.say(self.pal.paint(self.title_text(), "title"))
        self.say(self._controllers_line() + ".")
        self.say(self.edition_line())
        self.say("Type `help` for the commands, `legal` for every action possible now.")

    def edition_line(self) -> str:
        return describe.rules_line(self.state)

    def status_text(self) -> str:
        return describe.status_line(self.state, self.pal)

    def result_text(self) -> str:
        return describe.result_text(self.state)

    def _decision_text(self, legal: Sequence[Any]) -> str:
        return describe.decision_text(self.state, legal)

    def help_commands(self) -> Sequence[Command]:
        return COMMANDS

    def actions_help(self) -> str:
        return ACTIONS_HELP

    def action_usage(self) -> Mapping[str, str]:
        return ACTION_USAGE

    def action_verbs(self) -> Sequence[str]:
        return ACTION_VERBS

    # -- the map ----------------------------------------------------------------------------

    def _decision_marks(self) -> list[int]:
        if self.game.current_player() not in self.humans():
            return []
        return describe.decision_hexes(self.state, self.game.legal_actions())

    def cmd_map(self, args: Sequence[str]) -> None:
        if len(args) > 1 or (args and args[0].lower() not in ("full", "compact")):
            self.error("usage: map [full|compact] (full: 114 columns with rivers; compact: 80 columns)")
            return
        if args:
            self.map_style = args[0].lower()
        self.show_map(self._decision_marks())

    def draw_map(self, highlight: Sequence[int] = ()) -> None:
        """The full map (114 columns) where the terminal is wide enough or `map full` asked for
        it, else the compact one (issue 15: the map must fit the terminal)."""
        s = self.state
        need = map_size(s.rules.map.grid)[0]
        style = self.map_style or ("full" if self.width >= need else "compact")
        if style == "compact":
            self.say(render_compact(s, self.pal, highlight))
            self.say(compact_legend(s, self.pal))
            return
        self.say(render_map(s, self.pal, highlight))
        self.say(legend(s, self.pal))
        if self.width < need and not self._narrow_noted:
            self._narrow_noted = True
            self.say(f"(The full map needs {need} columns, the terminal has {self.width}: `map compact`.)")

    # -- playing ----------------------------------------------------------------------------

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
        self.play_actions(got.actions)

    # -- commands ---------------------------------------------------------------------------

    def cmd_units(self, args: Sequence[str]) -> None:
        parsed = self._parse_sides(args, "usage: units [german|soviet]")
        if parsed is None:
            return
        self.say(describe.units_table(self.state, parsed[0] or (0, 1), self.pal))

    def _no_hex(self, word: str) -> str:
        grid = self.state.rules.map.grid
        return f"'{word}' is not a hex of this map (CCRR: column 01-{grid.columns:02d}, then row)"

    def _hex_arg(self, word: str) -> int | None:
        grid = self.state.rules.map.grid
        if word not in grid.index:
            self.error(self._no_hex(word))
            return None
        return grid.index[word]

    def cmd_hex(self, args: Sequence[str]) -> None:
        if len(args) != 1:
            self.error(self.HEX_USAGE)
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
