"""Battle for Moscow's front-end adapters (:class:`typhoon.games.frontends.FrontEnds`):
the browser views and map of :mod:`.webview` and :mod:`.websvg`, the odds preview, and the
terminal session (:class:`.terminal.BfmSession`: its text map and words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typhoon.games.bfm import overlays, reference, websvg, webview, words
from typhoon.games.bfm.flow import moscow_holder
from typhoon.games.bfm.preview import preview as _preview
from typhoon.games.frontends import FrontEnds, ToText


def legal_view(state: Any, actions: Sequence[Any], to_text: ToText) -> dict[str, Any]:
    return webview.client_legal_view(state, actions)  # BfM's notation is the module's own


def hex_view(state: Any, hid: str) -> dict[str, Any]:
    grid = state.rules.map.grid
    h = grid.index[hid]  # KeyError: not a hex of this map
    return {
        "hex": hid,
        "words": webview.hex_words(state, h),
        "units": [state.rules.units[u].id for u in state.units_at(h)],
    }


def render_map(state: Any, numbers: bool) -> str:
    return websvg.render_map(state, numbers=numbers)


def turn_label(rules: Any, turn: int) -> str:
    return str(rules.turn_labels.get(turn, "set-up"))


def preview(state: Any, target: str, attackers: list[str]) -> dict[str, Any]:
    p = _preview(state, target, attackers)  # IllegalActionError if the battle cannot be
    d = p.as_dict()
    d["text"] = p.text()
    return webview.client_preview(state, d)


def position_words(state: Any, legal: Sequence[Any], whose: str, side: int) -> list[str]:
    lines = [words.status_line(state), words.rules_line(state)]
    if state.is_terminal:
        lines.append(words.result_text(state))
    else:
        lines.append(whose)
        lines.append(words.decision_text(state, legal))
    battles = words.battles_text(state)
    if battles and battles != "none":
        lines.append(battles)
    lines.append(words.units_table(state))
    return lines


def odds_words(state: Any, target: str, attackers: list[str], legal: Sequence[Any], to_text: ToText) -> str:
    return words.odds_text(state, _preview(state, target, attackers))


FRONT_ENDS = FrontEnds(
    terminal="typhoon.games.bfm.terminal:BfmSession",
    notice=None,
    edition_title=lambda key, title: title,
    edition_text=lambda key: key,
    state_view=webview.client_state_view,
    legal_view=legal_view,
    hex_view=hex_view,
    render_map=render_map,
    turn_label=turn_label,
    preview=preview,
    position_words=position_words,
    hex_words=words.hex_text,
    odds_words=odds_words,
    env_codec="typhoon.games.bfm.env.codec:CODEC",
    ai="typhoon.games.bfm.ai",
    objective_holder=moscow_holder,
    overlays=overlays.overlays,
    rules_reference=reference.rules_reference,
)
