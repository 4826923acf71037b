"""Typhoon: the Battle of Moscow, 1941 board wargames on a computer."""

__version__ = "0.1.0"
