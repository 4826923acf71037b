"""Typed errors. Every failure a user can cause is one of these, never a bare traceback."""

from __future__ import annotations


class TyphoonError(Exception):
    """Base class of every error Typhoon raises on purpose."""


class DataError(TyphoonError):
    """A data file (map, counters, tables, editions) is malformed or inconsistent."""


class OptionError(TyphoonError):
    """An unknown edition or option, or an option value outside its choices."""


class IllegalActionError(TyphoonError):
    """The action is well formed but not legal in this position. The state is unchanged."""


class NotationError(TyphoonError):
    """Text that should name an action or a position could not be parsed."""


class RecordError(TyphoonError):
    """A game record is malformed, or does not replay to what it claims."""

    def __init__(self, message: str, *, line: int | None = None, entry: str | None = None):
        where = ""
        if line is not None:
            where = f"line {line}: "
        if entry is not None:
            shown = entry if len(entry) <= 120 else entry[:117] + "..."
            where += f"'{shown}': "
        super().__init__(where + message)
        self.line = line
        self.entry = entry
