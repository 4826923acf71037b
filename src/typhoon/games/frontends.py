"""What the front ends need from a game besides its engine: the game kit's adapter half.

Each game package declares one :class:`FrontEnds` as ``FRONT_ENDS`` in its ``kit`` module
(``typhoon.games.<key>.kit``); :attr:`typhoon.games.GameModule.front_ends` loads it on first
use. The web service, the lobby, the terminal and the command line read a game only through
this object and the :class:`~typhoon.games.GameModule`, so none of them names a game.

Front ends are chosen by name, never imported from here: ``terminal`` is the ``module:Class``
of the game's terminal session (its own adapter module, ``games/<key>/terminal.py``), resolved
by the front end itself, so a game's engine never imports a front end.

Browser play: one client page (typhoon/web/static/board.js) plays every game from these views
alone. What it reads (every field not marked REQUIRED may be left out):

``render_map(state, numbers)`` -> one SVG document (REQUIRED: ``<svg ... viewBox>``).
  Hexes: either an element per hex with ``data-hex="<id>"`` (a ``<g>`` holding a
  ``<polygon>`` or ``<rect>``; ``data-cx``/``data-cy`` its centre, ``data-col``/``data-row``
  its grid position for the arrow keys, ``id="hex-<id>"`` for tests), or, for a map too large
  for an element per hex, the root declares its grid: ``data-grid="columns"`` with ``data-r``
  (hex radius), ``data-x0``/``data-y0`` (centre of hex 0101), ``data-cols``/``data-rows``:
  flat-topped hexes, ids CCRR, even columns half a hex lower. Counters: ``<g class="unit"
  data-unit="<unit id>" data-hex="<hex id>">``. Optional: ``<g id="overlay">`` (where the
  client draws its highlights; made at the end of the SVG when missing), ``<g id="layer">``
  (replaced by the state view's ``layer`` for each position, so a large static map is sent
  once), ``<marker id="arrow">``, class ``numbers`` on the root when hex numbers are shown.
  Semantic zoom: the client sets the CSS variable ``--px`` (map units per screen pixel) on the
  root at every zoom, and the attribute ``data-far`` while a hex is under 16 screen pixels
  across; the map's own styles may use them to keep only what reads at that size.

``state_view(state)`` -> dict. REQUIRED: ``turn``, ``phase`` ({key, name}), ``to_move``
  (side name, "chance" or "over"), ``result``, ``units`` ([{id, side, hex (None: off the
  map)}, ...]). Optional: ``title``, ``rules`` and ``rules_label`` (the edition in force),
  ``status`` (one line), ``phases`` ([{key, name, side}] the turn's sequence), ``turn_track``
  ([{turn, label, mud}]), ``hexes`` ({hex id: words}: the focus hex read out without a
  request; otherwise ``hex_view`` is asked), unit ``words``/``name``, ``selected`` (a unit the
  rules have already picked), ``marks`` ([{hexes: [...], class}]: hexes outlined, e.g. declared
  battles), ``layer`` (see above), ``notice`` (else ``FrontEnds.notice``).

``legal_view(state, actions, to_text)`` -> {"to_move", "actions": [...], "prompt"}. Each
  action: REQUIRED ``text`` (the notation the server accepts) and ``kind``; ``kind == "end"``
  is the end of a phase or step (the E key, the End button). Optional: ``label`` (words for a
  button), ``units`` (ids of the units that act), ``hexes`` ([from, ..., to]: a click on the
  last hex plays the action, the others draw its path; ``[to]`` alone for a unit entering the
  map or a hex acted on), ``group`` and ``with`` (actions on the hex ``group`` that may be sent
  together, after the odds ``preview`` of ``with`` plus the chosen units). An action with no
  units and no hexes is a button; one with units and no hexes is played by clicking its unit;
  units off the map with actions are listed to pick. ``prompt``: what is decided now, in words.
  Optional ``batches``: [{kind, label, texts}] buttons that send several of the legal actions
  together, in order (e.g. the standard set-up of the units a hand placement left).

``preview(state, target, attackers)`` -> dict: ``title``, ``lines`` (words), ``table``
  ({head: [...], rows: [[...]]}), ``chances`` ({result: probability}), ``action`` (the
  declare button's words), ``then`` ([texts] sent after the chosen attackers' actions when the
  attack is declared, e.g. closing it); without ``title``/``lines`` the client lists the dict's
  values.

``overlays(state, side)`` -> {"layers": [...], "victory": {"title", "lines"}} for the side's
  player (issue 15: layers a player switches on). Each layer: ``key``, ``label``, ``hexes``
  (ids, or {hex, class, text}), ``units`` (ids: their hexes are marked), ``class`` (the look),
  ``words`` (what it shows), ``available`` (False: the game has no such thing, ``words`` say
  why; the page offers it switched off).

``rules_reference(state)`` -> {"title", "sections": [{key, title, lines?, head?, rows?,
  current?}]}: the sequence of play, the CRT, the terrain chart and the weather of the edition
  in force, built from the game's own tables; ``current`` is the index of the row in force now.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

ToText = Callable[[Any], str]


@dataclass(frozen=True)
class FrontEnds:
    # A notice every front end shows with the game (e.g. that its data is a reconstruction).
    notice: str | None
    # (edition key, the edition's title) -> the lobby's title for it.
    edition_title: Callable[[str, str], str]
    # edition key -> how a stored game's edition is written in the lobby's list.
    edition_text: Callable[[str], str]
    # The position as JSON-ready data for the browser (fields: the module docstring).
    state_view: Callable[[Any], dict[str, Any]]
    # (state, legal actions, action -> text) -> {"to_move", "actions": [...], "prompt"}.
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
    # The game's terminal extras: "module:Class" of a subclass of typhoon.tui.session.Session
    # in the game's package (games/<key>/terminal.py: a text map, unit lookups, its own
    # words), or None: the game-blind session alone, which plays any game from this kit.
    terminal: str | None = None
    # Research and benchmarks (typhoon.research, typhoon.bench):
    # state -> the side (an index into the game's sides) holding the game's key objective, or
    # -1 for none; balance studies report the turn its eventual winner last took it (the
    # "decisive capture"). None: the game has no such objective (no decisive captures).
    objective_holder: Callable[[Any], int] | None = None
    # Random games ``typhoon bench`` plays, and of them games whose every call is timed:
    # ((games, timed), (games, timed) with --quick); a game of long games plays fewer.
    bench_games: tuple[tuple[int, int], tuple[int, int]] = ((100, 20), (20, 5))
    # Browser overlays and rules reference (fields: the module docstring); None: the game
    # offers none.
    overlays: Callable[[Any, int], dict[str, Any]] | None = None
    rules_reference: Callable[[Any], dict[str, Any]] | None = None


__all__ = ["FrontEnds", "ToText"]


def sequence_section(rows: list[list[str]], current: int | None) -> dict[str, Any]:
    """The rules reference's "Sequence of play" section (``rules_reference``): one [phase,
    side] row per phase, ``current`` the index of the phase in progress (None: none, or out
    of range)."""
    return {
        "key": "sequence",
        "title": "Sequence of play",
        "head": ["Phase", "Side"],
        "rows": rows,
        "current": current if current is not None and 0 <= current < len(rows) else None,
    }
