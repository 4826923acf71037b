"""Play Typhoon in a browser: a Starlette JSON API, SQLite persistence and a plain-JS client.

Modules, each small and with one job:

- :mod:`typhoon.web.storage`  SQLite: games as their record (metadata + action log with dice)
- :mod:`typhoon.web.service`  live games: modes, secret links, version checks, undo, the AI runner
- each game's views, map SVG and hex words come from its package, through
  ``game_module(key).front_ends`` (:class:`typhoon.games.frontends.FrontEnds`), so nothing
  here names a game
- :mod:`typhoon.web.app`      routes, error handling, static client (``static/``)

Every rule is decided by the engine; the browser only renders what the server says and sends
actions chosen from the server's list of legal actions.
"""

from __future__ import annotations

__all__ = ["create_app"]


def create_app(data_dir: str | None = None, **kwargs: object) -> object:
    from typhoon.web.app import create_app as _create

    return _create(data_dir, **kwargs)  # type: ignore[arg-type]
