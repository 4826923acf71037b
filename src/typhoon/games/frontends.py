"""What the front ends need from a game besides its engine: the game kit's adapter half.

Each game package declares one :class:`FrontEnds` as ``FRONT_ENDS`` in its ``kit`` module
(``typhoon.games.<key>.kit``); :attr:`typhoon.games.GameModule.front_ends` loads it on first
use. The web service, the lobby, the terminal and the command line read a game only through
this object and the :class:`~typhoon.games.GameModule`, so none of them names a game.

Front ends are chosen by name, never imported from here: ``web_page`` is a file of the web
client's static folder and ``terminal`` the ``module:Class`` of a terminal session, both
resolved by the front end itself, so a game package never imports a front end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

ToText = Callable[[Any], str]


@dataclass(frozen=True)
class FrontEnds:
    # The browser client page (a file of typhoon/web/static) that plays this game.
    web_page: str
    # The terminal session class, "module:Class" (a subclass of typhoon.tui.session.Session).
    terminal: str
    # A notice every front end shows with the game (e.g. that its data is a reconstruction).
    notice: str | None
    # (edition key, the edition's title) -> the lobby's title for it.
    edition_title: Callable[[str, str], str]
    # edition key -> how a stored game's edition is written in the lobby's list.
    edition_text: Callable[[str], str]
    # The position as JSON-ready data for the browser (the client page reads it).
    state_view: Callable[[Any], dict[str, Any]]
    # (state, legal actions, action -> text) -> {"to_move": ..., "actions": [...]}.
    legal_view: Callable[[Any, Sequence[Any], ToText], dict[str, Any]]
    # (state, hex id) -> {"hex", "words", "units"}; KeyError if the id is not a hex of the map.
    hex_view: Callable[[Any, str], dict[str, Any]]
    # (state, numbers) -> the whole board as one SVG document.
    render_map: Callable[[Any, bool], str]
    # (rules, turn number) -> the turn's label ("Oct I", "GT 3", "set-up").
    turn_label: Callable[[Any, int], str]
    # (state, target hex, attacker ids) -> the odds preview as data, or None: the game has
    # none, and ``no_preview`` says why (IllegalActionError for a battle that cannot be).
    preview: Callable[[Any, str, list[str]], dict[str, Any]] | None = None
    no_preview: str = "this game has no odds preview"
    # Plain words for programs that read (the MCP server), no colour:
    # (state, legal actions, whose turn in words, the reader's side) -> the position's lines;
    position_words: Callable[[Any, Sequence[Any], str, int], list[str]] | None = None
    # (state, hex index) -> the hex in one line;
    hex_words: Callable[[Any, int], str] | None = None
    # (state, target hex, attacker ids, legal actions, action -> text) -> the odds in words
    # (IllegalActionError when there are none to give).
    odds_words: Callable[[Any, str, list[str], Sequence[Any], ToText], str] | None = None
    # The game's AI pieces: a module of the game's package read by the AI framework
    # (typhoon.ai; see its docs), or None: the framework's generic levels only.
    ai: str | None = None
    # The game's research codec, "module:attribute" (typhoon.env reads it), or None: no
    # research environments for this game.
    env_codec: str | None = None


__all__ = ["FrontEnds", "ToText"]
