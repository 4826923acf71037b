"""The Moscow Campaign's front-end adapters (:class:`typhoon.games.frontends.FrontEnds`): the
browser views and map of :mod:`.webview` and :mod:`.websvg` (its own client page, with pan and
zoom over 4,914 hexes), the reconstruction notice, and its terminal session (windowed map)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.games.frontends import FrontEnds, ToText
from typhoon.games.tmc import overlays, preview, reference, websvg, webview, words


def render_map(state: Any, numbers: bool) -> str:
    return websvg.render_map(state, numbers=numbers)


def turn_label(rules: Any, turn: int) -> str:
    return webview.turn_label(turn)


def position_words(state: Any, legal: Sequence[Any], whose: str, side: int) -> list[str]:
    lines = ["; ".join(words.status_parts(state)), words.scenario_facts(state.rules)]
    if state.is_terminal:
        lines.append(words.result_text(state))
    else:
        lines.append(whose)
        lines.append(words.decision_text(state, legal))
    r = state.rules
    mine = [u for u in range(len(r.units)) if r.units[u].side == side and state.loc[u] >= 0]
    lines.append(f"Your units on the map ({len(mine)}):")
    lines += ["  " + words.unit_words(state, u) + f" in {r.grid.ids[state.loc[u]]}" for u in mine]
    lines.append(words.RECONSTRUCTION)
    return lines


def odds_words(state: Any, target: str, attackers: list[str], legal: Sequence[Any], to_text: ToText) -> str:
    # While an attack is resolved the odds columns are the choices (§5.4); before, the preview.
    odds = [to_text(a) for a in legal if getattr(a, "kind", "") == "odds"]
    if odds:
        return "The attacker may resolve on the computed column or any lower one: " + ", ".join(odds)
    if not attackers:
        raise IllegalActionError("name the attacking units (`attack HEX with UNIT,UNIT` declares them)")
    return str(preview.preview(state, target, attackers)["text"])


FRONT_ENDS = FrontEnds(
    terminal="typhoon.games.tmc.terminal:TmcSession",
    notice=words.RECONSTRUCTION,
    edition_title=webview.edition_title,
    edition_text=lambda key: f"TMC scenario {key}",
    state_view=webview.state_view,
    legal_view=webview.legal_view,
    hex_view=webview.hex_view,
    render_map=render_map,
    turn_label=turn_label,
    preview=preview.preview,
    position_words=position_words,
    hex_words=words.hex_words,
    odds_words=odds_words,
    env_codec="typhoon.games.tmc.env.codec:CODEC",
    ai="typhoon.games.tmc.ai",
    objective_holder=lambda state: int(state.moscow_holder()),
    bench_games=((3, 1), (1, 1)),  # scenario 1 is long: fewer games
    overlays=overlays.overlays,
    rules_reference=reference.rules_reference,
)
