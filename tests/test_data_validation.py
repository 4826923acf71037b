"""Data files are validated on load; a corrupt file gets a typed error naming the problem."""

import copy
import json
from importlib import resources
from pathlib import Path

import pytest

from typhoon.errors import DataError, OptionError
from typhoon.games.bfm.rules import load_rules, option_specs
from typhoon.hexmap import HexMap


def raw_map(edition: str = "gdw1986") -> dict:
    text = resources.files("typhoon.games.bfm").joinpath("data", f"map_{edition}.json").read_text()
    return json.loads(text)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["forest"].append("1511"), "not on the"),
        (lambda d: d["forest"].append("0201"), "twice"),
        (lambda d: d["forest"].append("x1"), "not a CCRR"),
        (lambda d: d["rivers"].append(["0101", "0303"]), "not adjacent"),
        (lambda d: d["rail"].append(["0102", "0201"]), "listed twice"),
        (lambda d: d["fortification"].append("0201"), "both forest and fortification"),
        (lambda d: d["cities"].update({"0102": {"name": "Nowhere", "control": "swiss"}}), "side must be"),
        (lambda d: d.update(moscow=[]), "Moscow"),
        (lambda d: d["edges"]["soviet"].append("0505"), "not on the map border"),
        (lambda d: d["setup"]["german"].append("0301"), "both sides"),
        (lambda d: d.pop("rivers"), "malformed"),
    ],
)
def test_corrupt_map_is_refused(mutate, message: str) -> None:
    data = copy.deepcopy(raw_map())
    mutate(data)
    with pytest.raises(DataError, match=message):
        HexMap.from_dict(data)


def test_unreadable_map_file(tmp_path: Path) -> None:
    bad = tmp_path / "map.json"
    bad.write_text("{not json")
    with pytest.raises(DataError, match="not valid JSON"):
        HexMap.load(bad)
    with pytest.raises(DataError, match="cannot read"):
        HexMap.load(tmp_path / "missing.json")


def test_unknown_edition_and_options() -> None:
    with pytest.raises(OptionError, match="unknown edition"):
        load_rules("avalon1999")
    with pytest.raises(OptionError, match="no option"):
        load_rules("gdw1986", {"fog_of_war": "yes"})
    with pytest.raises(OptionError, match="must be one of"):
        load_rules("gdw1986", {"soviet_replacements": "9"})
    # VPG-only options are not options of the GDW edition.
    assert "first_shock_strength" not in option_specs("gdw1986")
    assert "first_shock_strength" in option_specs("vpg2009")


def test_rules_objects_are_shared() -> None:
    assert load_rules("gdw1986") is load_rules("gdw1986", {})
    assert load_rules("gdw1986", {"soviet_replacements": "4"}).soviet_replacements[3] == 4
