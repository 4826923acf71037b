"""The tiny game's front-end adapters: views, words and an SVG map of five hexes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.games.frontends import FrontEnds, ToText

from . import webview
from .engine import State
from .rules import HEXES, SIDE_NAMES, SIDE_OF, UNITS

TO_MOVE = {-1: "chance", -2: "over"}


def _to_move(s: State) -> str:
    p = s.current_player()
    return TO_MOVE.get(p) or SIDE_NAMES[p]


def hex_words(s: State, h: int) -> str:
    u = s.unit_at(h)
    return f"{HEXES[h]}: clear" + (f", {UNITS[u]} ({SIDE_NAMES[SIDE_OF[u]]})" if u >= 0 else "")


def hex_view(s: State, hid: str) -> dict[str, Any]:
    if hid not in HEXES:
        raise KeyError(hid)
    h = HEXES.index(hid)
    u = s.unit_at(h)
    return {"hex": hid, "words": hex_words(s, h), "units": [UNITS[u]] if u >= 0 else []}


def position_words(s: State, legal: Sequence[Any], whose: str, side: int) -> list[str]:
    head = f"Tiny game ({s.rules.edition}), turn {s.turn}, {s.phase_spec.name}"
    return [
        head,
        f"Result: {s.result}" if s.is_terminal else whose,
        *(hex_words(s, h) for h in range(len(HEXES))),
    ]


def odds_words(s: State, target: str, attackers: list[str], legal: Sequence[Any], to_text: ToText) -> str:
    raise IllegalActionError("every attack in the tiny game succeeds on 4-6")


FRONT_ENDS = FrontEnds(
    notice=None,
    edition_title=lambda key, title: title,
    edition_text=lambda key: f"tiny {key}",
    state_view=webview.state_view,
    legal_view=webview.legal_view,
    hex_view=hex_view,
    render_map=webview.render_map,
    turn_label=lambda rules, turn: f"turn {turn}",
    position_words=position_words,
    hex_words=hex_words,
    odds_words=odds_words,
    env_codec="tinygame.env_codec:CODEC",
    ai="tinygame.ai",
)
