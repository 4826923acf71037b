"""MOCKBA front-end adapters (:class:`typhoon.games.frontends.FrontEnds`): the browser views of
:mod:`.webview`, the odds preview of :mod:`.preview`, the plain words of :mod:`.words`, the SVG
map of :mod:`.websvg`, the text map of :mod:`.termmap` (terminal session :mod:`.terminal`), the AI pieces of
:mod:`.ai`. Every view of the map, the counters or the tables labels the reconstruction."""

from __future__ import annotations

from typhoon.games.frontends import FrontEnds

from . import overlays, reference, websvg, webview, words
from . import preview as _preview
from .words import NOTICE

render_map = websvg.render_map


# Kept for readers of the stage-1 names.
state_view = webview.state_view
legal_view = webview.legal_view
hex_view = webview.hex_view
preview = _preview.preview
hex_words = words.hex_words
position_words = words.position_words
odds_words = words.odds_words


FRONT_ENDS = FrontEnds(
    notice=NOTICE,
    terminal="typhoon.games.mockba.terminal:MockbaSession",
    edition_title=words.edition_title,
    edition_text=words.edition_text,
    state_view=state_view,
    legal_view=legal_view,
    hex_view=hex_view,
    render_map=render_map,
    turn_label=words.turn_label,
    preview=preview,
    position_words=position_words,
    hex_words=hex_words,
    odds_words=odds_words,
    ai="typhoon.games.mockba.ai",
    env_codec="typhoon.games.mockba.env.codec:CODEC",
    # a random game is ~2,000 decisions over up to 10,000 legal actions each: fewer games
    bench_games=((20, 5), (6, 2)),
    objective_holder=lambda state: 0 if state.control >> state.rules.cities["Moscow"] & 1 else 1,
    overlays=overlays.overlays,
    rules_reference=reference.rules_reference,
)
