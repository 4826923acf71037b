"""Battle for Moscow at the terminal: typed actions -> engine actions, forgiving where it is
safe: unit ids in any case, `move UNIT HEX` without the starting hex, `attack HEX UNIT UNIT` for
several attackers, and a move written without `via` when only one way there exists. Anything
else is the notation of records, parsed by the game module and checked against the exact legal
list."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from typhoon.errors import TyphoonError
from typhoon.games.bfm import engine
from typhoon.games.bfm.actions import Action, Attack, Move
from typhoon.games.bfm.notation import action_from_text, action_to_text
from typhoon.games.bfm.state import State
from typhoon.games.bfm.terminal_help import ACTION_USAGE

HEX_ID = re.compile(r"^\d{4}$")
KEYWORDS = {"standard", "yes", "no", "none", "via"}
UNIT_VERBS = {"move", "attack", "lose", "advance", "place", "rebuild", "restore", "reinforce"}


@dataclass
class Interpreted:
    actions: list[Action] = field(default_factory=list)  # play these, in order
    choices: list[Action] = field(default_factory=list)  # ambiguous: let the player pick one
    error: str | None = None
    note: str | None = None


def _spellings(state: State) -> dict[str, str]:
    return {k.upper(): k for k in state.rules.unit_index}


def no_unit(state: State, word: str) -> str:
    """The error for a word that names no unit, with the closest ids."""
    if HEX_ID.match(word):
        return f"'{word}' is a hex; a unit id is needed here (`units` lists them)"
    upper = _spellings(state)
    close = difflib.get_close_matches(word.upper(), list(upper), n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(upper[c] for c in close)}?" if close else ""
    return f"there is no unit '{word}'{hint} (`units` lists them)"


def normalize(state: State, words: Sequence[str], strict: bool = True) -> tuple[list[str], str | None]:
    """Unit ids to their counter spelling, keywords to lower case; hexes, paths and numbers as
    they are. Returns the words and, when ``strict``, an error for any other word."""
    upper = _spellings(state)
    out = []
    for w in words:
        low = w.lower()
        if HEX_ID.match(w) or "-" in w or "," in w or w.isdigit():
            out.append(w)
        elif low in KEYWORDS:
            out.append(low)
        elif w.upper() in upper:
            out.append(upper[w.upper()])
        elif not strict:
            out.append(w)
        else:
            return out, no_unit(state, w)
    return out, None


def unit_ids(state: State, words: Sequence[str]) -> tuple[list[str], str | None]:
    """Words that must each name a unit, in the counters' spelling; or an error for the
    first that does not."""
    upper = _spellings(state)
    out: list[str] = []
    for w in words:
        uid = upper.get(w.upper())
        if uid is None:
            return out, no_unit(state, w)
        out.append(uid)
    return out, None


def why_illegal(state: State, action: Action) -> str:
    """The engine's reason an action is not legal here (it is never applied)."""
    try:
        engine.apply(state, action)
    except TyphoonError as exc:
        return f"{exc} (`legal` lists what is possible now)"
    return f"'{action_to_text(action)}' is not legal now"  # pragma: no cover - engine disagrees


def interpret(state: State, legal: Sequence[Action], text: str) -> Interpreted:
    words = text.split()
    verb = words[0].lower()
    if verb == "roll":
        return Interpreted(error="dice are rolled automatically from the game's seed")
    args, bad = normalize(state, words[1:], strict=verb in UNIT_VERBS)
    if bad:
        return Interpreted(error=bad)
    if verb == "move" and len(args) == 2 and HEX_ID.match(args[1]):
        return _short_move(state, legal, args[0], args[1])
    if verb == "attack" and (len(args) > 2 or (len(args) == 2 and HEX_ID.match(args[0]))):
        hexes = [a for a in args if HEX_ID.match(a)]
        units = [a for a in args if not HEX_ID.match(a)]
        if len(hexes) != 1 or not units:
            return Interpreted(error=f"usage: {ACTION_USAGE['attack']}")
        return Interpreted(actions=[Attack(u, hexes[0]) for u in units])
    try:
        action = action_from_text(" ".join([verb, *args]))
    except TyphoonError as exc:
        usage = ACTION_USAGE.get(verb)
        return Interpreted(error=f"{exc}" + (f" (usage: {usage})" if usage else ""))
    if action in legal:
        return Interpreted(actions=[action])
    if isinstance(action, Move):
        same: list[Action] = [
            a
            for a in legal
            if isinstance(a, Move) and (a.unit, a.src, a.dst) == (action.unit, action.src, action.dst)
        ]
        if len(same) == 1 and not action.via:
            return Interpreted(actions=same, note=_via_note(same[0]))
        if same:
            return Interpreted(
                choices=same, note=f"{action.unit} can reach {action.dst} in more than one way:"
            )
    return Interpreted(error=why_illegal(state, action))


def _short_move(state: State, legal: Sequence[Action], uid: str, dst: str) -> Interpreted:
    same: list[Action] = [a for a in legal if isinstance(a, Move) and a.unit == uid and a.dst == dst]
    if len(same) == 1:
        return Interpreted(actions=same, note=_via_note(same[0]))
    if same:
        return Interpreted(choices=same, note=f"{uid} can reach {dst} in more than one way:")
    u = state.rules.unit_index.get(uid, -1)
    if u < 0:
        return Interpreted(error=no_unit(state, uid))
    h = state.loc[u]
    if h < 0:
        return Interpreted(error=f"{uid} is not on the map")
    return Interpreted(error=why_illegal(state, Move(uid, state.rules.map.grid.ids[h], dst)))


def _via_note(m: Action) -> str | None:
    if not isinstance(m, Move) or not m.via:
        return None
    return f"(the only way there passes through enemy-held {', '.join(m.via)}: `{action_to_text(m)}`)"
