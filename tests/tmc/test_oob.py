"""The Moscow Campaign counters (data/units.json, oob.py): reconstruction anchors from the rules."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from typhoon.errors import DataError
from typhoon.games.tmc.oob import MECHANISED_TYPES, derive, load_units, parse_units


def _doc() -> dict[str, Any]:
    text = resources.files("typhoon.games.tmc").joinpath("data", "units.json").read_text("utf-8")
    return json.loads(text)


UNITS = load_units().units


def test_german_infantry_divisions_are_the_2_5_replacement_type():
    """rules_en.md §21, [Q59]: German infantry are the '2-5' units that come back as replacements."""
    inf = [u for u in UNITS.values() if u.side == "german" and u.type == "infantry"]
    assert len(inf) >= 45
    assert all((u.cf, u.ma, u.cf_form) == (2, 5, "plain") for u in inf)
    assert all(u.replaceable for u in inf)
    # Nothing but infantry is a 2-5 German unit, so only infantry can be replaced.
    assert {u.type for u in UNITS.values() if u.replaceable} == {"infantry"}


def test_one_kg_counter_per_german_mechanised_unit_of_cf_4_or_more():
    """rules_en.md §8.1 (KG = mechanised 2-8), [Q19] printed CF >= 4, [Q20] one counter each."""
    kgs = {u.id: u for u in UNITS.values() if u.type == "kg"}
    capable = {u.id for u in UNITS.values() if u.kg_capable}
    assert {u.kg_of for u in kgs.values()} == capable
    assert all((u.side, u.cf, u.ma, u.mechanised) == ("german", 2, 8, True) for u in kgs.values())
    assert load_units().kg["G7Pz"] == "KG-G7Pz"
    # Grossdeutschland (a reinforced regiment, CF 3) is mechanised but too weak to form a KG.
    gd = UNITS["GGDMot"]
    assert gd.mechanised and gd.cf == 3 and "GGDMot" not in load_units().kg


def test_eb_units_3_german_12_soviet_in_parentheses():
    """rules_en.md §17.1 (3 German, 12 Soviet EB) and §13.1 (CF in parentheses)."""
    eb = [u for u in UNITS.values() if u.type == "eb"]
    assert sum(u.side == "german" for u in eb) == 3
    assert sum(u.side == "soviet" for u in eb) == 12
    assert all(u.cf_form == "paren" and u.eb and not u.mechanised for u in eb)
    assert {u.id for u in UNITS.values() if u.cf_form == "paren"} == {u.id for u in eb}
    assert UNITS["GEB1"].label == "(1)-5"


def test_mechanised_is_armour_motorised_and_kg():
    """rules_en.md [Q2]: mechanised = armour + motorised (and the KG), for both sides."""
    for u in UNITS.values():
        assert u.mechanised == (u.type in MECHANISED_TYPES), u.id
    assert UNITS["S58TD"].mechanised and UNITS["S4TB"].mechanised and not UNITS["S50CD"].mechanised


def test_bracket_units_are_security_and_militia():
    """rules_en.md §13.2: [#] units; the reconstruction brackets German security divisions and
    Soviet workers' militia, nothing else."""
    assert {u.type for u in UNITS.values() if u.bracket} == {"security", "militia"}
    assert UNITS["G221Sec"].label == "[1]-5"
    assert UNITS["S3MWD"].label == "[1]-4"


def test_unit_scale_follows_the_bands():
    """Reconstruction anchors (brief, notes.md §5): panzer 4-7 with MA 10, German motorised 2-5 with
    MA 9, Soviet rifle divisions 1-3 with MA 4, cavalry faster than infantry."""
    by = lambda side, t: [u for u in UNITS.values() if u.side == side and u.type == t]  # noqa: E731
    assert {u.cf for u in by("german", "armour")} == {5, 6, 7}
    assert {u.ma for u in by("german", "armour")} == {10}
    assert {u.cf for u in by("german", "motorised")} <= {2, 3, 4, 5}
    assert {u.cf for u in by("soviet", "infantry")} == {1, 2, 3}
    assert {u.ma for u in by("soviet", "infantry")} == {4}
    assert min(u.ma for u in by("soviet", "cavalry")) > 4
    assert UNITS["G2Pz"].cf == 7 and UNITS["G3Pz"].cf == 5 and UNITS["GSSRMot"].cf == 5


def test_band_thresholds_hand_worked():
    """The derivation table (docs/TMC_OOB.md): thresholds are inclusive lower bounds."""
    bands = load_units().bands
    assert derive(bands, "german", "armour", 13000, 150).cf == 7
    assert derive(bands, "german", "armour", 13000, 149).cf == 6
    assert derive(bands, "german", "armour", 13000, 49).cf == 4
    assert derive(bands, "soviet", "infantry", 10000, 0).cf == 3
    assert derive(bands, "soviet", "infantry", 9999, 0).cf == 2
    assert derive(bands, "soviet", "infantry", 5999, 0).cf == 1
    assert (
        derive(bands, "soviet", "armour", 2000, 60).cf,
        derive(bands, "soviet", "armour", 2000, 59).cf,
    ) == (2, 1)
    with pytest.raises(DataError, match="no band"):
        derive(bands, "german", "militia", 100, 0)


def test_every_unit_has_reconstruction_provenance():
    """Project standard: every reconstructed datum carries provenance with a confidence."""
    for u in UNITS.values():
        assert u.provenance.status == "reconstruction"
        assert u.provenance.confidence in ("high", "medium", "low")
        assert u.provenance.basis


def test_unit_ids_are_short_and_readable():
    """Ids appear in game records: no spaces, short, unique (a dict already forbids duplicates)."""
    for uid in UNITS:
        assert " " not in uid and len(uid) <= 24
    assert len(UNITS) == len(_doc()["units"])


def _corrupt(mutate) -> None:  # type: ignore[no-untyped-def]
    doc = copy.deepcopy(_doc())
    mutate(doc)
    parse_units(doc)


def _unit(doc: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in doc["units"] if u["id"] == uid)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: _unit(d, "G7Pz").update(cf=7), "disagrees with its band"),
        (lambda d: _unit(d, "G35Inf").update(ma=6), "disagrees with its band"),
        (lambda d: d["units"].append(copy.deepcopy(_unit(d, "S316RD"))), "listed twice"),
        (lambda d: d["units"].remove(_unit(d, "KG-G7Pz")), "has no KG counter"),
        (lambda d: _unit(d, "KG-G7Pz").update(kg_of="G35Inf"), "not a German mechanised unit"),
        (lambda d: _unit(d, "SEB12").update(side="german", ma=5), "exactly 3 EB"),
        (lambda d: _unit(d, "S316RD").update(type="panzer"), "unknown soviet type"),
        (lambda d: _unit(d, "S316RD").update(id="S 316RD"), "bad unit id"),
        (lambda d: _unit(d, "S316RD")["provenance"].update(confidence="sure"), "confidence"),
        (lambda d: d["bands"][0].update(mechanised=True), "mechanised must be False"),
    ],
)
def test_corrupt_units_raise_data_error(mutate, message):  # type: ignore[no-untyped-def]
    """Data is validated on load: each corruption is refused with a message naming it."""
    with pytest.raises(DataError, match=message):
        _corrupt(mutate)
