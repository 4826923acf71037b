"""Reading the JSON data files a game package ships (``<package>/data/*.json``) and resolving
option values against a game's option table, with the same DataError/OptionError messages for
every game."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

from typhoon.errors import DataError, OptionError


def read_package_json(package: str, name: str) -> Any:
    """The parsed ``data/<name>`` of ``package`` (DataError if missing or not JSON)."""
    try:
        text = resources.files(package).joinpath("data", name).read_text("utf-8")
    except (OSError, FileNotFoundError) as exc:
        raise DataError(f"cannot read data file {name}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{name}: not valid JSON ({exc})") from None


def read_noted_json(
    package: str, name: str, title: str, notes: Collection[str] = ("source",)
) -> dict[str, Any]:
    """``read_package_json`` for a data file that must be an object carrying each of ``notes``
    (its source note, its provenance): DataError naming ``title``'s file otherwise."""
    try:
        data = read_package_json(package, name)
    except DataError as exc:
        raise DataError(f"{title} data file {name}: {exc}") from None
    missing = [k for k in notes if not isinstance(data, dict) or k not in data]
    if missing:
        raise DataError(f"{title} data file {name}: no {' or '.join(repr(k) for k in missing)} note")
    return dict(data)


@dataclass(frozen=True)
class OptionSpec:
    """One named rule option: its default, its choices and a line saying what it does."""

    name: str
    default: str
    choices: tuple[str, ...]
    note: str


def option_specs_of(table: Mapping[str, Mapping[str, Any]]) -> dict[str, OptionSpec]:
    """OptionSpecs from a table ``{name: {"default", "choices", "note"}}``."""
    return {
        k: OptionSpec(k, str(v["default"]), tuple(v["choices"]), str(v["note"])) for k, v in table.items()
    }


class OptionChoices(Protocol):
    @property
    def default(self) -> str: ...

    @property
    def choices(self) -> tuple[str, ...]: ...


def resolve_options(
    specs: Mapping[str, OptionChoices], given: Mapping[str, Any], owner: str, ignore: Collection[str] = ()
) -> dict[str, str]:
    """Every option's value: the defaults of ``specs`` with ``given`` applied, each checked
    against its choices; ``owner`` names the game or edition in the OptionError; names in
    ``ignore`` are skipped."""
    out = {k: s.default for k, s in specs.items()}
    for k, v in given.items():
        if k in ignore:
            continue
        spec = specs.get(k)
        if spec is None:
            raise OptionError(f"{owner} has no option {k!r}; options: {', '.join(sorted(specs)) or 'none'}")
        if str(v) not in spec.choices:
            raise OptionError(f"option {k} must be one of {', '.join(spec.choices)}, not {v!r}")
        out[k] = str(v)
    return out
