"""The Moscow Campaign's odds preview before the attackers are committed (issue 15;
games/tmc/preview.py), on hand-worked positions of the synthetic map (tests/tmc/combat_world.py).
Geometry: 0404 and 0403 are both next to 0504; 0505 is next to 0404 but not to 0403.
Rules: docs/TMC_COMBAT.md "Strength and odds" (§5.3 rounding down, §5.9 GT 1-4 shift),
"Die-roll modifiers" (§5.6 forest -2), "Ignoring Dr" (§5.5), the CRT (§6, data/crt.json)."""

from __future__ import annotations

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.tmc.actions import Attack
from typhoon.games.tmc.kit import FRONT_ENDS
from typhoon.games.tmc.preview import preview

from .combat_world import act, make_map, world


def test_two_attackers_at_gt18_column_and_chances_from_the_german_crt() -> None:
    """PZ1 6 + I1 3 = 9 against R1 2: 9:2 rounds down to 4-1 (§5.3); GT 18 has no shift and no
    halving. German CRT column 4-1, die 1-6 = rows 1-6: Ar Ar Br Br Dr Dr (§6)."""
    s = world({"PZ1": "0404", "I1": "0403"}, {"R1": "0504", "R2": "0505"})
    p = preview(s, "0504", ["PZ1", "I1"])
    assert (p["attack"], p["defense"], p["column"]) == ("9", "2", "4-1")
    assert p["by_die"] == ["Ar", "Ar", "Br", "Br", "Dr", "Dr"]
    assert p["chances"] == pytest.approx({"Ar": 1 / 3, "Br": 1 / 3, "Dr": 1 / 3})
    assert [f["unit"] for f in p["attack_factors"]] == ["PZ1", "I1"]
    assert p["defenders"] == ["R1"] and p["drm"] == 0 and p["reasons"] == []
    # §5.5: Dr may be declared ignored here (some roll gives it, another does not): rerolled.
    assert any("Dr ignored" in line and "Ar 50%, Br 50%" in line for line in p["lines"])
    # Declaring both closes the attack by itself (End is then forced): nothing to send after.
    assert p["then"] == []
    # One attacker alone leaves the attack open (I1 could join): the client sends "end" after.
    assert preview(s, "0504", ["PZ1"])["then"] == ["end"]


def test_gt3_forest_shift_and_modifier() -> None:
    """PZ1 6 against R1 2 in forest in GT 3: 6:2 = 3-1, +1 column for German attacks in GT 1-4
    (§5.9) = 4-1, -2 on the die for forest (§5.6): rows -1..4 of German 4-1: Ae Ar Ar Ar Br Br."""
    s = world({"PZ1": "0404"}, {"R1": "0504"}, turn=3, m=make_map(forest=["0504"]))
    p = preview(s, "0504", ["PZ1"])
    assert (p["ratio_column"], p["column"], p["drm"]) == ("3-1", "4-1", -2)
    assert p["by_die"] == ["Ae", "Ar", "Ar", "Ar", "Br", "Br"]
    assert p["chances"] == pytest.approx({"Ae": 1 / 6, "Ar": 1 / 2, "Br": 1 / 3})
    assert p["table"]["rows"][0] == ["Row", "-1", "0", "1", "2", "3", "4"]
    assert len(p["reasons"]) == 2 and "forest" in p["reasons"][1]


def test_mud_halves_german_attack() -> None:
    """GT 8 is mud (§18, [Q46]): German combat strength halved: PZ1 6 -> 3 against R1 2,
    3:2 = 1-1 (rounded down)."""
    s = world({"PZ1": "0404"}, {"R1": "0504"}, turn=8)
    p = preview(s, "0504", ["PZ1"])
    assert (p["attack"], p["column"]) == ("3", "1-1")
    assert "6 \u2192 3" in p["lines"][0]


def test_the_attack_being_built_counts_and_matches_the_resolution() -> None:
    """With PZ1 already declared on 0504, the preview of adding I1 is the battle the engine
    then resolves: same strengths and top column (start_battle's event)."""
    s = world({"PZ1": "0404", "I1": "0403"}, {"R1": "0504", "R2": "0505"})
    s, _ = act(s, Attack("0504", ("PZ1",)))
    p = preview(s, "0504", ["PZ1", "I1"])
    s2, ev = act(s, Attack("0504", ("I1",)))  # forced Ends: the battle starts
    data = next(e.data for e in ev if e.kind == "battle")
    assert (data["attack"], data["defence"], data["column"]) == (p["attack"], p["defense"], p["column"])


@pytest.mark.parametrize(
    ("target", "attackers", "words"),
    [
        ("0504", ["R1"], "not a unit of the attacking side"),
        ("0909", ["PZ1"], "holds no enemy unit"),
        ("zz", ["PZ1"], "not a hex"),
        ("0504", ["nope"], "no unit nope"),
        ("0504", [], "at least one"),
        ("0504", ["PZ1", "PZ1"], "twice"),
        ("0505", ["I1"], "adjacent"),
    ],
)
def test_bad_previews_are_refused_with_the_rules_words(target: str, attackers: list[str], words: str) -> None:
    s = world({"PZ1": "0404", "I1": "0403"}, {"R1": "0504", "R2": "0505"})
    before = s.copy()
    with pytest.raises(IllegalActionError, match=words):
        preview(s, target, attackers)
    assert s.cdata == before.cdata  # the trial declaration was on a copy


def test_the_kit_offers_it() -> None:
    """FrontEnds.preview is wired (the browser's /preview) and the plain words use it."""
    assert FRONT_ENDS.preview is preview
    s = world({"PZ1": "0404"}, {"R1": "0504"})
    assert FRONT_ENDS.odds_words is not None
    assert "Column 3-1" in FRONT_ENDS.odds_words(s, "0504", ["PZ1"], [], str)


def test_declared_attacks_are_marks_and_attacks_are_groups() -> None:
    """Issue 15: declared attacks marked on the map (state view ``marks``: defending hex and the
    attackers' hexes), attacks by a unit grouped on their target with the attack being built."""
    from typhoon.games.tmc import engine, notation, webview

    s = world({"PZ1": "0404", "I1": "0403"}, {"R1": "0504", "R2": "0505"})
    lv = webview.legal_view(s, engine.legal_actions(s), notation.action_to_text)
    assert {(a["group"], tuple(a["with"])) for a in lv["actions"] if a["kind"] == "attack"} == {
        ("0504", ()),
        ("0505", ()),
    }
    assert webview.state_view(s)["marks"] == []
    s, _ = act(s, Attack("0504", ("PZ1",)))
    assert webview.state_view(s)["marks"] == [{"hexes": ["0504", "0404"], "class": "declared"}]
    lv = webview.legal_view(s, engine.legal_actions(s), notation.action_to_text)
    joins = [a for a in lv["actions"] if a["kind"] == "attack" and a["units"]]
    assert [(a["units"], a["group"], a["with"]) for a in joins] == [(["I1"], "0504", ["PZ1"])]
