"""The Moscow Campaign at the terminal: the game-blind command loop of
:class:`typhoon.tui.session.Session` with a windowed map of the 78x63 grid, the scenario status
line, unit lookups in any case, a unit's moves, the odds offered at resolution and TMC's action
notation (``typhoon.games.tmc.notation``); the reconstruction banner is the kit's notice.

Every rule question goes to the engine: legal actions, and the engine's own reason when an
action is refused.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from typhoon.errors import IllegalActionError, NotationError
from typhoon.game import Game
from typhoon.games.tmc import words
from typhoon.games.tmc.termmap import LEGEND, render_overview, render_window
from typhoon.players import Player
from typhoon.tui.session import Session

HEX_ID = re.compile(r"^\d{4}$")
TMC_VERBS = (
    "setup",
    "place",
    "move",
    "enter",
    "arrive",
    "entrain",
    "rail",
    "detrain",
    "relocate",
    "overrun",
    "join",
    "end",
    "attack",
    "odds",
    "ignore",
    "roll",
    "lose",
    "disrupt",
    "retreat",
    "advance",
)
# Verbs whose first argument is a unit id (case is forgiven there).
UNIT_FIRST = {"place", "move", "enter", "arrive", "entrain", "rail", "detrain", "relocate", "join", "lose"}
UNIT_FIRST |= {"disrupt", "retreat"}
TMC_HELP = """\
The Moscow Campaign actions (unit ids as listed by `units`, hexes as CCRR; case of ids does not matter):
  setup standard               set-up: every remaining unit on its reconstructed start hex
  place UNIT HEX               set-up: one unit
  move UNIT HEX                move (also move UNIT FROM-TO as records write it); `moves UNIT` lists where
  enter UNIT HEX / arrive UNIT HEX   German reinforcement enters / Soviet one arrives by rail
  entrain UNIT, rail UNIT FROM-TO, detrain UNIT   Soviet rail movement
  relocate UNIT HEX            Soviet EB relocation (start of the Soviet movement phase)
  overrun HEX with UNIT,UNIT   declare an overrun; join UNIT HEX adds a unit
  attack HEX with UNIT[,UNIT]  add units to the attack on HEX (several: all or nothing); end closes it
  odds A-D, ignore yes|no, lose UNIT, disrupt UNIT, retreat UNIT HEX, advance UNIT HEX | advance none
  end                          end the step or phase
Map: `map` redraws the window, `map CCRR` or `map UNIT` recentres it, `map overview` shows the whole map.
`moves UNIT` lists a unit's destinations; `hex CCRR` describes a hex and lists the actions with it or its
units; `legal WORD` filters every legal action by a unit id or a hex.
Dice are rolled automatically from the game's seed."""


class TmcSession(Session):
    """One Moscow Campaign game at the terminal."""

    SIDE_WORDS = {"russian": 1}
    HEX_USAGE = "usage: hex CCRR (e.g. hex 5623)"

    def __init__(self, game: Game, controllers: Mapping[int, Player | None], **kwargs: Any):
        super().__init__(game, controllers, **kwargs)
        self.focus = self._default_focus()
        self.rows = 12

    # -- helpers ----------------------------------------------------------------------------

    @property
    def state(self) -> Any:  # a Moscow Campaign State (typhoon.games.tmc.state)
        return self.game.state

    @property
    def cols(self) -> int:
        return max(8, min(30, (self.width - 4) // 4))

    def _default_focus(self) -> int:
        """The middle of the side to decide's units, else Moscow."""
        s = self.state
        side = s.current_player() if s.current_player() >= 0 else s.side
        hexes = [s.loc[u] for u in s.rules.side_units[side] if s.loc[u] >= 0]
        if not hexes:
            return int(s.rules.map.moscow[0])
        grid = s.rules.grid
        cs = sorted(grid.coords[h][0] for h in hexes)
        rs = sorted(grid.coords[h][1] for h in hexes)
        hid = f"{cs[len(cs) // 2]:02d}{rs[len(rs) // 2]:02d}"
        return int(grid.index.get(hid, hexes[0]))

    def _uid(self, word: str) -> str | None:
        """The unit id spelt ``word`` in any case, or None."""
        idx = self.state.rules.unit_index
        if word in idx:
            return word
        low = word.lower()
        for k in idx:
            if k.lower() == low:
                return k
        return None

    def _no_unit(self, word: str) -> str:
        if HEX_ID.match(word):
            return f"'{word}' is a hex; a unit id is needed here (`units` lists them)"
        ids = list(self.state.rules.unit_index)
        close = difflib.get_close_matches(word, ids, n=3, cutoff=0.5)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        return f"there is no unit '{word}'{hint} (`units` lists them)"

    def _no_hex(self, word: str) -> str:
        grid = self.state.rules.map.grid
        return f"'{word}' is not a hex of this map (CCRR: column 01-{grid.columns:02d}, then row)"

    def _hex_arg(self, word: str) -> int | None:
        grid = self.state.rules.map.grid
        if word not in grid.index:
            self.error(self._no_hex(word))
            return None
        return int(grid.index[word])

    def action_verbs(self) -> Sequence[str]:
        return TMC_VERBS

    def actions_help(self) -> str:
        return TMC_HELP

    # -- output -----------------------------------------------------------------------------

    def title_text(self) -> str:
        return "Typhoon: The Moscow Campaign (SPI 1972)"

    def edition_line(self) -> str:
        r = self.state.rules
        return f"In force: {words.scenario_title(r)} ({words.scenario_facts(r)})."

    def status_text(self) -> str:
        parts = words.status_parts(self.state)
        parts[0] = self.pal.paint(parts[0] + " (RECONSTRUCTION)", "title")
        return " | ".join(parts)

    def result_text(self) -> str:
        return words.result_text(self.state)

    def _over_text(self) -> str:
        return (
            f"The game is over: {words.result_text(self.state)}. `save FILE` keeps the record; `log`, `quit`."
        )

    def _decision_text(self, legal: Sequence[Any]) -> str:
        return words.decision_text(self.state, legal)

    def _before_auto_map(self, phase: tuple[Any, Any]) -> None:
        if phase != self._map_phase:
            self.focus = self._default_focus()

    def _decision_marks(self) -> list[int]:
        if self.game.current_player() not in self.humans():
            return []
        s = self.state
        legal = self.game.legal_actions()
        if len(legal) > 400:  # a movement phase: the movers' hexes, not thousands of destinations
            return words.decision_hexes(s, [a for a in legal if a.kind in ("move", "railmove")][:4000])
        return words.decision_hexes(s, legal)

    def draw_map(self, highlight: Sequence[int] = ()) -> None:
        s = self.state
        self.say(
            self.pal.paint(
                f"Map window around {s.rules.grid.ids[self.focus]} (RECONSTRUCTED map, scenario {s.rules.edition}):",
                "dim",
            )
        )
        self.say(render_window(s, self.focus, self.pal, cols=self.cols, rows=self.rows, marks=highlight))
        for line in textwrap.wrap(LEGEND, min(self.width, 100)):  # the map's width, not one long line
            self.say(self.pal.paint(line, "dim"))

    # -- commands ---------------------------------------------------------------------------

    def cmd_help(self, args: Sequence[str]) -> None:
        if args and args[0].lower() in TMC_VERBS:
            lines = [ln for ln in TMC_HELP.splitlines() if args[0].lower() in ln]
            self.say("\n".join(lines) or TMC_HELP)
            return
        super().cmd_help(args)  # the commands, then TMC_HELP (actions_help)

    def cmd_map(self, args: Sequence[str]) -> None:
        s = self.state
        if args:
            w = args[0]
            if w.lower() in ("overview", "all", "whole"):
                self.say(render_overview(s, self.pal, self._decision_marks()))
                self.say(
                    self.pal.paint(
                        "Whole map: G/S units, M Moscow, c city, f forest, ~ lake, + marked.", "dim"
                    )
                )
                return
            if HEX_ID.match(w):
                h = self._hex_arg(w)
                if h is None:
                    return
                self.focus = h
            else:
                uid = self._uid(w)
                if uid is None:
                    self.error(f"usage: map [CCRR | UNIT | overview]; {self._no_unit(w)}")
                    return
                u = s.rules.unit_index[uid]
                if s.loc[u] < 0:
                    self.error(f"{uid} is not on the map.")
                    return
                self.focus = s.loc[u]
        self.show_map(self._decision_marks())

    def cmd_units(self, args: Sequence[str]) -> None:
        s = self.state
        parsed = self._parse_sides(
            args, "usage: units [german|soviet] [all]  (all: reinforcements and eliminated too)", ("all",)
        )
        if parsed is None:
            return
        sides, flags = parsed
        everything = "all" in flags
        for side in sides or (0, 1):
            us = [u for u in s.rules.side_units[side] if everything or s.loc[u] >= 0]
            self.say(
                self.pal.paint(f"{words.side_name(side)} units ({len(us)}; RECONSTRUCTED counters):", "title")
            )
            for u in us:
                self.say("  " + words.unit_words(s, u))

    def cmd_moves(self, args: Sequence[str]) -> None:
        s = self.state
        legal = self.game.legal_actions()
        kinds = ("move", "railmove", "enter", "arrive", "relocate", "place")
        moves = [a for a in legal if a.kind in kinds]
        if self._moves_overview(args, moves, 60):
            return
        uid = self._uid(args[0])
        if uid is None:
            self.error(self._no_unit(args[0]))
            return
        mine = [m for m in moves if m.unit == uid]
        others = [a for a in legal if getattr(a, "unit", None) == uid and a not in mine]
        if not mine:
            if others:
                self.show_list(others, f"{uid} cannot move now, but can:")
                return
            self.error(self._why_no_moves(uid))
            return
        u = s.rules.unit_index[uid]
        ids = s.rules.grid.index
        dsts = sorted({ids[self._dest(m)] for m in mine})
        if s.loc[u] >= 0:
            self.focus = s.loc[u]
        else:
            self.focus = dsts[len(dsts) // 2]
        self.show_map(highlight=dsts)
        where = f"in {s.rules.grid.ids[s.loc[u]]}" if s.loc[u] >= 0 else "off the map"
        self.show_list(
            mine + others,
            f"{words.counter_text(s, u)} ({s.rules.units[u].name}) {where}: {len(mine)} destination(s), marked + "
            f"on the map. Type a number or `move {uid} HEX`.",
            label=self._move_label,
        )

    @staticmethod
    def _dest(a: Any) -> str:
        return str(a.dst if a.kind in ("move", "railmove") else a.hex)

    def _move_label(self, a: Any) -> str:
        if a.kind not in ("move", "railmove", "enter", "arrive", "relocate", "place"):
            return self.game.text(a)
        m = self.state.rules.map
        dst = self._dest(a)
        name = m.cities.get(m.grid.index[dst])
        return self.game.text(a) + (f" ({name})" if name else "")

    def _why_no_moves(self, uid: str | None = None) -> str:
        s = self.state
        if s.phase_spec.kind != "movement":
            return f"No unit moves now: this is the {words.step_text(s)}."
        if uid is None:
            return "No unit can move now: `end` finishes the step or phase."
        u = s.rules.unit_index[uid]
        why = []
        if s.rules.units[u].side != s.side:
            why.append("it is not its side's movement phase")
        elif s.phase_spec.movers == "mech" and not s.is_mech(u):
            why.append("only mechanised units move in the German mechanised movement phase")
        if u in s.disrupted:
            why.append("it is disrupted")
        if s.loc[u] < 0:
            why.append("it is not on the map")
        if u in s.spent:
            why.append("it has spent its movement points (or moved) this phase")
        text = "; ".join(why) or "enemy units, zones of control, stacking or terrain block every hex"
        return f"{uid} has no legal move now: {text}."

    def cmd_odds(self, args: Sequence[str]) -> None:
        legal = self.game.legal_actions()
        odds = [a for a in legal if a.kind == "odds"]
        if odds:
            self.show_list(odds, "The attacker may resolve on the computed column or any lower one:")
            return
        self.error(
            "Odds are chosen when an attack is resolved (`odds A-D`); declare attacks with `attack HEX with UNIT`."
        )

    def _after_load(self) -> None:
        self.focus = self._default_focus()

    # -- playing ----------------------------------------------------------------------------

    def play_text(self, text: str) -> None:
        if not self._human_to_decide():
            return
        ws = text.split()
        verb = ws[0].lower()
        if verb == "roll":
            self.error("Dice are rolled automatically from the game's seed.")
            return
        args = list(ws[1:])
        if verb in UNIT_FIRST and args:
            uid = self._uid(args[0])
            if uid is None:
                self.error(self._no_unit(args[0]))
                return
            args[0] = uid
        if verb in ("attack", "overrun") and len(args) == 3:
            fixed = []
            for w in args[2].split(","):
                uid = self._uid(w)
                if uid is None:
                    self.error(self._no_unit(w))
                    return
                fixed.append(uid)
            args[2] = ",".join(fixed)
        s = self.state
        # `move UNIT HEX` / `rail UNIT HEX`: the unit starts where it stands.
        if verb in ("move", "rail") and len(args) == 2 and "-" not in args[1] and not HEX_ID.match(args[1]):
            self.error(f"'{args[1]}' is not a hex: hexes are four digits CCRR, e.g. {verb} {args[0]} 0516")
            return
        if verb in ("move", "rail") and len(args) == 2 and HEX_ID.match(args[1]):
            u = s.rules.unit_index[args[0]]
            if s.loc[u] < 0:
                self.error(f"{args[0]} is not on the map (`moves {args[0]}` says what it can do).")
                return
            args[1] = f"{s.rules.grid.ids[s.loc[u]]}-{args[1]}"
        line = " ".join([verb, *args])
        try:
            action = self.game.module.action_from_text(line)
        except NotationError as exc:
            usage = words.KIND_WORDS.get(verb)
            self.error(f"{exc}" + (f" (usage: {usage})" if usage else ""))
            return
        units = getattr(action, "units", ())
        if verb == "attack" and len(units) > 1 and action not in self.game.legal_actions():
            # The engine adds one unit at a time: `attack HEX with A,B` is those additions,
            # all or nothing (issue 15).
            self.play_actions([action._replace(units=(u,)) for u in units])
            return
        self.play(action)

    def why_illegal(self, action: Any) -> str:
        try:
            self.game.module.apply(self.state, action)
        except IllegalActionError as exc:
            why = str(exc)
        else:  # pragma: no cover - the engine disagrees with its own list
            why = f"'{self.game.text(action)}' is not legal now"
        unit = getattr(action, "unit", None)
        if isinstance(unit, str) and unit in self.state.rules.unit_index:
            return f"Illegal: {why}. `moves {unit}` lists what {unit} can do; `legal` lists every action."
        return f"Illegal: {why}. `legal` lists what is possible now."
