"""ANSI colours that switch off cleanly: one Palette, plain text when colour is off."""

from __future__ import annotations

import os
import re
from typing import TextIO

RESET = "\x1b[0m"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

# Style name -> SGR parameters. Terrain backgrounds use the 256-colour palette (dark enough to
# keep white text readable); units use the 16 basic colours every terminal has.
STYLES: dict[str, str] = {
    "outline": "90",
    "river": "1;94",
    "hexid": "",  # the terminal's own colour: readable on dark and light backgrounds
    "forest": "48;5;22",
    "fort": "1;33",
    "rail": "1;37",
    "german": "1;30;47",
    "german_half": "30;47",
    "soviet": "1;97;41",
    "soviet_half": "97;41",
    "city_german": "1;36",
    "city_soviet": "1;31",
    "mark": "1;30;43",
    "title": "1",
    "dim": "2",
    "error": "1;31",
    "good": "1;32",
    "prompt": "1;36",
}


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def want_color(stream: TextIO, no_color: bool = False) -> bool:
    """Colour only on a terminal that can show it, and never when asked not to (--no-color,
    or NO_COLOR set: https://no-color.org)."""
    if no_color or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Palette:
    def __init__(self, color: bool):
        self.color = color

    def sgr(self, *names: str) -> str:
        """The escape sequence for a combination of styles ('' when colour is off)."""
        if not self.color:
            return ""
        codes = ";".join(STYLES[n] for n in names if n and STYLES[n])
        return f"\x1b[{codes}m" if codes else ""

    def paint(self, text: str, *names: str) -> str:
        if not self.color or not text:
            return text
        start = self.sgr(*names)
        return f"{start}{text}{RESET}" if start else text
