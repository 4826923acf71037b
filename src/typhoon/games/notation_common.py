"""Pieces of the text notation both games share: word checks for actions (hexes, unit ids,
argument counts, die rolls, yes/no answers) and the ``key=value`` position-line frame (field
splitting and checking, the ``opt=`` and ``res=`` fields, id look-ups that raise
NotationError). Each game's ``notation.py`` keeps its own verbs and fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TypeVar

from typhoon.errors import NotationError, OptionError

HEX_WORD = re.compile(r"^\d{4}$")
RESULTS = ("-", "german", "soviet", "draw")

R = TypeVar("R")


def hex_word(word: str, text: str) -> str:
    """``word`` if it is a CCRR hex id; ``text`` is the whole action, for the message."""
    if not HEX_WORD.match(word):
        raise NotationError(f"'{word}' is not a hex (four digits, CCRR) in '{text}'")
    return word


def unit_word(word: str, text: str, pattern: re.Pattern[str]) -> str:
    """``word`` if ``pattern`` (the game's unit-id syntax) matches it."""
    if not pattern.match(word):
        raise NotationError(f"'{word}' is not a unit id in '{text}'")
    return word


def need_args(args: list[str], n: int, usage: str, text: str) -> None:
    if len(args) != n:
        raise NotationError(f"'{text.strip()}': expected '{usage}'")


def die_word(args: list[str], text: str) -> int:
    """The die of ``roll N``."""
    need_args(args, 1, "roll DIE", text)
    if args[0] not in ("1", "2", "3", "4", "5", "6"):
        raise NotationError(f"'{text.strip()}': a die roll is 1 to 6")
    return int(args[0])


def yes_no_word(verb: str, args: list[str], text: str) -> bool:
    """The answer of ``VERB yes|no``."""
    need_args(args, 1, f"{verb} yes|no", text)
    if args[0].lower() not in ("yes", "no"):
        raise NotationError(f"'{text.strip()}': expected '{verb} yes' or '{verb} no'")
    return args[0].lower() == "yes"


# -- positions -----------------------------------------------------------------------------


def header_fields(tag: str, edition: str, options: Mapping[str, str], turn: int, phase: str) -> list[str]:
    """The fields a position line opens with: the game tag, ``ed=``, ``opt=`` (the non-default
    options as ``name:value,...`` or ``-``), ``t=`` and ``ph=``."""
    opts = ",".join(f"{k}:{v}" for k, v in sorted(options.items())) or "-"
    return [tag, f"ed={edition}", f"opt={opts}", f"t={turn}", f"ph={phase}"]


def read_fields(
    text: str, tag: str, game: str, required: Iterable[str], optional: Collection[str] = ()
) -> dict[str, str]:
    """The ``key=value`` fields of a position line that starts with ``tag``; every required
    field present, no field twice, none unknown."""
    words = text.strip().split()
    if not words or words[0] != tag:
        raise NotationError(f"a {game} position starts with '{tag}'")
    f: dict[str, str] = {}
    for w in words[1:]:
        if "=" not in w:
            raise NotationError(f"position field '{w}' is not key=value")
        k, v = w.split("=", 1)
        if k in f:
            raise NotationError(f"position field '{k}' given twice")
        f[k] = v
    required = tuple(required)
    missing = [k for k in required if k not in f]
    if missing:
        raise NotationError(f"position lacks field(s): {', '.join(missing)}")
    unknown = set(f) - set(required) - set(optional)
    if unknown:
        raise NotationError(f"unknown position field(s): {', '.join(sorted(unknown))}")
    return f


def options_field(opt: str) -> dict[str, str]:
    """The options of an ``opt=`` field."""
    opts: dict[str, str] = {}
    if opt != "-":
        for item in opt.split(","):
            if ":" not in item:
                raise NotationError(f"option '{item}' is not name:value")
            k, v = item.split(":", 1)
            opts[k] = v
    return opts


def read_rules(load_rules: Callable[[str, dict[str, str]], R], edition: str, opts: dict[str, str]) -> R:
    """The rules of ``edition`` with ``opts`` (an unknown option is a NotationError)."""
    try:
        return load_rules(edition, opts)
    except OptionError as exc:
        raise NotationError(str(exc)) from None


def lookup(index: Mapping[str, int], message: str) -> Callable[[str], int]:
    """A function from an id to its index in ``index``; ``message`` (with ``{}`` for the id)
    is the NotationError for an unknown id."""

    def find(key: str) -> int:
        i = index.get(key, -1)
        if i < 0:
            raise NotationError(message.format(key))
        return i

    return find


def phase_field(keys: list[str], key: str) -> int:
    """The index of phase ``key`` in ``keys`` (the ``ph=`` field)."""
    if key not in keys:
        raise NotationError(f"unknown phase '{key}'")
    return keys.index(key)


def result_field(value: str) -> str | None:
    """The ``res=`` field: None while the game goes on."""
    if value not in RESULTS:
        raise NotationError(f"unknown result '{value}'")
    return None if value == "-" else value


# -- JSON position fields (a header and one JSON object: ma, mockba) ---------------------------


def json_int(v: object, lo: int, hi: int | None, what: str) -> int:
    """``v`` if it is a whole number in lo..hi (``hi`` None: no upper bound); a position's
    numbers are never true/false, although bool is an int subclass in Python."""
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise NotationError(f"{what} must be a whole number {span}, not {v!r}"[:200])
    return v


def json_bool(v: object, what: str) -> bool:
    if not isinstance(v, bool):
        raise NotationError(f"{what} must be true or false, not {v!r}"[:200])
    return v


def json_word(v: object, allowed: Collection[str] | None, what: str, maxlen: int = 16) -> str:
    """``v`` if it is a string among ``allowed`` (None: any of at most ``maxlen`` characters)."""
    if not isinstance(v, str) or len(v) > maxlen or (allowed is not None and v not in allowed):
        raise NotationError(f"{what} may not be {v!r}"[:200])
    return v


def json_ints(v: object, lo: int, hi: int, what: str, length: int | None = None) -> tuple[int, ...]:
    """``v`` as a tuple if it is a list (of ``length`` items, if given) of whole numbers lo..hi."""
    if not isinstance(v, list) or (length is not None and len(v) != length):
        raise NotationError(f"{what} must be a list of {length if length is not None else 'some'} numbers")
    return tuple(json_int(x, lo, hi, what) for x in v)
