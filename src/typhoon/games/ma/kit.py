"""Moscow Attacked! front-end adapters (:class:`typhoon.games.frontends.FrontEnds`): the
browser views of :mod:`.webview` (each legal action with its hexes and units, the odds preview),
the plain words of :mod:`.words`, the SVG map of :mod:`.websvg`, the text map of :mod:`.termmap`, the AI
pieces of :mod:`.ai`. Every view of the map and the counters labels the reconstruction.
"""

from __future__ import annotations

from typhoon.games.frontends import FrontEnds

from . import overlays, reference, websvg, webview, words
from . import preview as _preview
from .engine import MOSCOW
from .words import NOTICE

FRONT_ENDS = FrontEnds(
    terminal="typhoon.games.ma.terminal:MaSession",
    notice=NOTICE,
    edition_title=words.edition_title,
    edition_text=words.edition_text,
    state_view=webview.state_view,
    legal_view=webview.legal_view,
    hex_view=webview.hex_view,
    render_map=websvg.render_map,
    turn_label=words.turn_label,
    preview=_preview.preview,
    position_words=words.position_words,
    hex_words=words.hex_words,
    odds_words=words.odds_words,
    ai="typhoon.games.ma.ai",
    env_codec="typhoon.games.ma.env.codec:CODEC",
    objective_holder=lambda state: state.controller(MOSCOW),  # Moscow, both sides' victory city
    overlays=overlays.overlays,
    rules_reference=reference.rules_reference,
)
