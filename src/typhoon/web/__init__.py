"""Play Typhoon in a browser: a Starlette JSON API, SQLite persistence and a plain-JS client.

Modules, each small and with one job:

- :mod:`typhoon.web.storage`  SQLite: games as their record (metadata + action log with dice)
- :mod:`typhoon.web.service`  live games: modes, secret links, version checks, undo, the AI runner
- :mod:`typhoon.web.views`    state, legal actions and hexes as JSON and in words (no rules here)
- :mod:`typhoon.web.paths`    a cheapest path for a legal move (engine mechanics), for display only
- :mod:`typhoon.web.svg`      the map and the counters as SVG (a pure function of the state)
- :mod:`typhoon.web.app`      routes, error handling, static client (``static/``)

Every rule is decided by the engine; the browser only renders what the server says and sends
actions chosen from the server's list of legal actions.
"""

from __future__ import annotations

__all__ = ["create_app"]


def create_app(data_dir: str | None = None, **kwargs: object) -> object:
    from typhoon.web.app import create_app as _create

    return _create(data_dir, **kwargs)  # type: ignore[arg-type]
