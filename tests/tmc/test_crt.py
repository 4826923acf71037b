"""The two combat results tables (rules_en.md §6.1, §6.2) as loaded from data/crt.json.

The expected tables are embedded below as the rules print them (markdown rows), so the data
file is checked cell by cell against an independent transcription; the project never reads the
reference at run time.
"""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from typhoon.errors import DataError
from typhoon.games.tmc.combat import GERMAN, SOVIET, load_crt, parse_crt

GERMAN_TEXT = """
| −1 | Ae | Ae | Ae | Ae | Ae | Ar | Ar | Ar | Br | Br | Br | Ex |
| 0 | Ae | Ae | Ae | Ae | Ar | Ar | Br | Br | Br | Dr | Dr | Ex |
| 1 | Ae | Ae | Ae | Ae | Ar | Ar | Br | Br | Ex | Ex | Ex | Ex |
| 2 | Ae | Ae | Ae | Ar | Ar | Br | Dr | Ex | Ex | De,Ad | De,Ad | De,Ad |
| 3 | Ae | Ae | Ar | Ar | Br | Dr | Ex | Ex | Ex | De,Ad | De,Ad | De,Ad |
| 4 | Ae | Ae | Ar | Br | Br | Dr | Ex | Ex | De,Ad | De | De | De |
| 5 | Ae | Ar | Ar | Br | Dr | Ex | De,Ad | De,Ad | De | De | De | De |
| 6 | Ae | Ar | Ar | Dr | Dr | Ex | De,Ad | De | De | De | De | De |
"""

SOVIET_TEXT = """
| −1 | Ae | Ae | Ae | Ae | Ae | Ar | Ar | Ar | Br | Br | Br | Ex |
| 0 | Ae | Ae | Ae | Ae | Ar | Ar | Br | Br | Br | Dr | Dr | ½Ex |
| 1 | Ae | Ae | Ae | Ae | Ar | Ar | Br | Br | Ex | Ex | Ex | ½Ex |
| 2 | Ae | Ae | Ae | Ar | Ar | Br | Dr | Ex | Ex | ½Ex | ½Ex | De |
| 3 | Ae | Ae | Ar | Ar | Br | Dr | Ex | Ex | ½Ex | ½Ex | ½Ex | De |
| 4 | Ae | Ae | Ar | Br | Br | Dr | Ex | ½Ex | ½Ex | De | De | De |
| 5 | Ae | Ar | Br | Br | Dr | Ex | ½Ex | ½Ex | De | De | De | De |
| 6 | Ae | Ar | Br | Dr | Dr | Ex | ½Ex | De | De | De | De | De |
"""

COLUMNS = ("1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1", "11-1")


def _parse(text: str) -> dict[tuple[int, str], str]:
    out = {}
    for line in text.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        row = int(cells[0].replace("−", "-"))
        for col, cell in zip(COLUMNS, cells[1:], strict=True):
            out[(row, col)] = cell.replace("½Ex", "1/2Ex")
    return out


def test_crt_shape_and_provenance() -> None:
    """§6: rows are modified die rolls -1..6, columns 1-2, 1-1, 2-1 … 11-1; data from the seed."""
    crt = load_crt()
    assert crt.columns == COLUMNS
    assert crt.rows == (-1, 0, 1, 2, 3, 4, 5, 6)
    assert crt.ratios[0] == (1, 2) and crt.ratios[-1] == (11, 1)
    assert crt.provenance["status"] == "seed"


@pytest.mark.parametrize(("side", "text"), [(GERMAN, GERMAN_TEXT), (SOVIET, SOVIET_TEXT)])
def test_every_cell_matches_the_rules(side: int, text: str) -> None:
    """§6.1 German CRT, §6.2 Soviet CRT: all 96 cells of each."""
    crt = load_crt()
    expected = _parse(text)
    assert len(expected) == 96
    for (row, col), cell in expected.items():
        assert crt.result(side, COLUMNS.index(col), row) == cell, (side, row, col)


def test_the_sixteen_differing_cells() -> None:
    """§6 observations: the tables differ in exactly these 16 cells."""
    diff = {
        (0, "11-1"): ("Ex", "1/2Ex"),
        (1, "11-1"): ("Ex", "1/2Ex"),
        (3, "8-1"): ("Ex", "1/2Ex"),
        (4, "7-1"): ("Ex", "1/2Ex"),
        (2, "9-1"): ("De,Ad", "1/2Ex"),
        (2, "10-1"): ("De,Ad", "1/2Ex"),
        (3, "9-1"): ("De,Ad", "1/2Ex"),
        (3, "10-1"): ("De,Ad", "1/2Ex"),
        (4, "8-1"): ("De,Ad", "1/2Ex"),
        (5, "6-1"): ("De,Ad", "1/2Ex"),
        (5, "7-1"): ("De,Ad", "1/2Ex"),
        (6, "6-1"): ("De,Ad", "1/2Ex"),
        (2, "11-1"): ("De,Ad", "De"),
        (3, "11-1"): ("De,Ad", "De"),
        (5, "2-1"): ("Ar", "Br"),
        (6, "2-1"): ("Ar", "Br"),
    }
    crt = load_crt()
    found = {}
    for row in crt.rows:
        for j, col in enumerate(COLUMNS):
            g, s = crt.result(GERMAN, j, row), crt.result(SOVIET, j, row)
            if g != s:
                found[(row, col)] = (g, s)
    assert found == diff


def test_disruption_german_only_half_exchange_soviet_only() -> None:
    """§6 observations: De,Ad only on the German CRT, 1/2Ex only on the Soviet CRT."""
    crt = load_crt()
    assert not any("1/2Ex" in r for r in crt.tables[GERMAN])
    assert not any("De,Ad" in r for r in crt.tables[SOVIET])


def test_row_clamps_to_table() -> None:
    """§5.6: the modified roll indexes rows -1..6 (a 1 with -2 is row -1; no row beyond)."""
    crt = load_crt()
    assert crt.row(1, -2) == -1
    assert crt.row(6, 0) == 6
    assert crt.row(6, 3) == 6
    assert crt.row(1, -5) == -1


def _doc() -> dict:  # type: ignore[type-arg]
    text = resources.files("typhoon.games.tmc").joinpath("data").joinpath("crt.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def test_malformed_crt_is_a_data_error() -> None:
    """Data files are validated on load: a short row, an unknown result, no provenance."""
    doc = _doc()
    bad = copy.deepcopy(doc)
    bad["tables"]["german"][0] = bad["tables"]["german"][0][:-1]
    with pytest.raises(DataError, match="german table"):
        parse_crt(bad)
    bad = copy.deepcopy(doc)
    bad["tables"]["soviet"][3][2] = "NE"
    with pytest.raises(DataError, match="unknown result"):
        parse_crt(bad)
    bad = copy.deepcopy(doc)
    del bad["provenance"]
    with pytest.raises(DataError):
        parse_crt(bad)
    bad = copy.deepcopy(doc)
    bad["columns"][3], bad["columns"][4] = bad["columns"][4], bad["columns"][3]
    with pytest.raises(DataError, match="increasing"):
        parse_crt(bad)
