"""Combat rules of The Moscow Campaign as pure functions (games/tmc/combat.py) on hand-made
inputs: odds and rounding (§5.3, [Q9]), halvings ([Q10], §11.3, §18 [Q46] [Q47], §20.8),
special units (§13, [Q31]), terrain modifiers (§5.6, §5.7, §19, §26, [Q11], [Q51]), the
ignore-Dr declaration (§5.5, [Q8]), quotas (§7, §8.3, [Q13], [Q18]), VP (§23, [Q62], [Q66])
and one-hex retreats (§12, §17.3, [Q28])."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction as F

from typhoon.games.tmc.combat import (
    BR,
    BRACKET,
    DE_AD,
    DR,
    EB,
    EX,
    GERMAN,
    HALF_EX,
    SOVIET,
    CombatOptions,
    Conditions,
    Piece,
    attack_strength,
    becomes_kg,
    conditions_for_turn,
    defence_strength,
    elimination_vp,
    ignore_allowed,
    kg_conversion_vp,
    load_crt,
    loss_credit,
    loss_quota,
    may_attack,
    odds_index,
    retreat_hexes,
    terrain_drm,
)
from typhoon.hexgrid import HexGrid
from typhoon.mechanics.combat import column_probabilities, ratio_column

CRT = load_crt()
COLS = CRT.columns
GRID = HexGrid(6, 6, 6, "even")
H = GRID.index

INF = Piece(GERMAN, 3)
PZ = Piece(GERMAN, 6, mechanised=True)
MOT3 = Piece(GERMAN, 3, mechanised=True)
KG = Piece(GERMAN, 2, mechanised=True, kg=True)
RIFLE = Piece(SOVIET, 4)
TANK = Piece(SOVIET, 2, mechanised=True)
SEB = Piece(SOVIET, 1, cf_kind=EB)
GUARD = Piece(SOVIET, 2, cf_kind=BRACKET)

FAIR = Conditions(7)  # no weather effect, no shift
GT3 = conditions_for_turn(3)
RAIN = conditions_for_turn(5)
MUD = conditions_for_turn(10)
FREEZE = conditions_for_turn(16)
WINTER = conditions_for_turn(25)


def pair_masks(pairs: list[tuple[str, str]]) -> list[int]:
    out = [0] * GRID.size
    for a, b in pairs:
        out[H[a]] |= 1 << H[b]
        out[H[b]] |= 1 << H[a]
    return out


@dataclass
class FakeMap:
    forest_mask: int = 0
    river_mask: list[int] = field(default_factory=lambda: [0] * GRID.size)
    lake_mask: list[int] = field(default_factory=lambda: [0] * GRID.size)
    defence_front: list[int] = field(default_factory=lambda: [0] * GRID.size)


def col(label: str) -> int:
    return COLS.index(label)


# -- odds --------------------------------------------------------------------------------------


def test_odds_round_down_to_listed_column_q9() -> None:
    """[Q9]: 17:5 = 3.4 -> 3-1; 5:4 -> 1-1; 3:4 -> 1-2; 1:3 -> 1-2 (§5.3 floor); 12:1 -> 11-1 (cap)."""
    r = CRT.ratios
    assert COLS[ratio_column(F(17), F(5), r)] == "3-1"
    assert COLS[ratio_column(F(5), F(4), r)] == "1-1"
    assert COLS[ratio_column(F(3), F(4), r)] == "1-2"
    assert COLS[ratio_column(F(1), F(3), r)] == "1-2"
    assert COLS[ratio_column(F(12), F(1), r)] == "11-1"
    assert COLS[ratio_column(F(1), F(2), r)] == "1-2"
    assert COLS[ratio_column(F(99, 100), F(1), r)] == "1-2"


def test_fractions_are_kept_in_odds_q10() -> None:
    """§5.2: a halved 5 is 2.5; 10.5 against 3.5 is exactly 3-1, 10.5 against 3.75 only 2-1."""
    r = CRT.ratios
    assert COLS[ratio_column(F(21, 2), F(7, 2), r)] == "3-1"
    assert COLS[ratio_column(F(21, 2), F(15, 4), r)] == "2-1"


def test_german_shift_gt1_to_4() -> None:
    """§5.9: German attacks in GT 1-4 are one column up (10-1 becomes 11-1, 11-1 stays);
    not in GT 5, never for the Soviets."""
    assert COLS[odds_index(CRT, F(10), F(1), GERMAN, GT3)] == "11-1"
    assert COLS[odds_index(CRT, F(30), F(1), GERMAN, GT3)] == "11-1"
    assert COLS[odds_index(CRT, F(3), F(2), GERMAN, GT3)] == "2-1"
    assert COLS[odds_index(CRT, F(3), F(2), SOVIET, GT3)] == "1-1"
    assert COLS[odds_index(CRT, F(10), F(1), GERMAN, conditions_for_turn(5))] == "10-1"


# -- strengths ---------------------------------------------------------------------------------


def test_out_of_supply_halves_attack_and_defence() -> None:
    """§11.3: attack and defence halved, fractions kept (a 5 is 2.5)."""
    five = Piece(SOVIET, 5)
    assert attack_strength(five, False, FAIR) == F(5, 2)
    assert defence_strength(five, False, FAIR) == F(5, 2)
    assert defence_strength(five, True, FAIR) == 5


def test_mud_halves_german_attack_and_defence_q46() -> None:
    """§18 mud, [Q46]: German combat strength halved in attack and defence (option: attack only);
    Soviet strength unchanged; out of supply in mud quarters it ([Q10])."""
    assert attack_strength(PZ, True, MUD) == 3
    assert defence_strength(PZ, True, MUD) == 3
    assert defence_strength(PZ, True, MUD, opts=CombatOptions(mud_halves_german_defence=False)) == 6
    assert attack_strength(PZ, False, MUD) == F(3, 2)
    assert attack_strength(RIFLE, True, MUD) == 4 and defence_strength(RIFLE, True, MUD) == 4


def test_rain_halves_german_attack_only() -> None:
    """§18 rain (GT 5): German attack strength halved, defence not."""
    assert attack_strength(INF, True, RAIN) == F(3, 2)
    assert defence_strength(INF, True, RAIN) == 3


def test_winter_halves_german_attacks_q47() -> None:
    """§18 winter, [Q47]: all German attacks halved (option: only mechanised)."""
    assert attack_strength(INF, True, WINTER) == F(3, 2)
    assert attack_strength(PZ, True, WINTER) == 3
    only_mech = CombatOptions(winter_halves_all_german_attacks=False)
    assert attack_strength(INF, True, WINTER, only_mech) == 3
    assert attack_strength(PZ, True, WINTER, only_mech) == 3
    assert defence_strength(INF, True, WINTER) == 3


def test_entrained_defender_halved_and_cumulative() -> None:
    """§20.8: an entrained unit defends at half; with out of supply a quarter ([Q10], [Q56])."""
    assert defence_strength(RIFLE, True, FAIR, entrained=True) == 2
    assert defence_strength(RIFLE, False, FAIR, entrained=True) == 1


def test_who_may_attack_s13_q31() -> None:
    """§13.1: EB never attacks; §13.2: [#] attacks only stacked with a plain unit, not with
    only EB/[#] units ([Q31]; option lets an EB enable it); disrupted and entrained units never."""
    assert not may_attack(SEB, [RIFLE])
    assert may_attack(GUARD, [GUARD, RIFLE])
    assert not may_attack(GUARD, [GUARD])
    assert not may_attack(GUARD, [GUARD, Piece(SOVIET, 2, cf_kind=BRACKET)])
    assert not may_attack(GUARD, [GUARD, SEB])
    assert may_attack(GUARD, [GUARD, SEB], opts=CombatOptions(eb_enables_bracket=True))
    assert not may_attack(RIFLE, [RIFLE], disrupted=True)
    assert not may_attack(RIFLE, [RIFLE], entrained=True)
    assert may_attack(RIFLE, [RIFLE])


def test_eb_defends_with_its_cf() -> None:
    """§13.1: an EB unit's CF is used for defence, even alone."""
    assert defence_strength(SEB, True, FAIR) == 1


# -- terrain -----------------------------------------------------------------------------------


def test_forest_drm_and_not_cumulative_q11() -> None:
    """§26 forest/swamp -2 for a defender there; with a river too it stays -2 ([Q11])."""
    m = FakeMap(forest_mask=1 << H["0303"], river_mask=pair_masks([("0302", "0303")]))
    assert terrain_drm(m, [H["0303"]], [H["0302"]], SOVIET, FAIR).value == -2
    m2 = FakeMap(river_mask=pair_masks([("0302", "0303")]))
    assert terrain_drm(m2, [H["0303"]], [H["0302"]], SOVIET, FAIR).value == -2
    assert terrain_drm(m2, [H["0303"]], [H["0302"]], SOVIET, FAIR).reason.startswith("river")


def test_river_only_if_all_attackers_across_s57() -> None:
    """§5.7: a river hexside counts only when every attacker attacks across one; frozen from GT 16."""
    m = FakeMap(river_mask=pair_masks([("0302", "0303"), ("0403", "0303")]))
    d = [H["0303"]]
    assert terrain_drm(m, d, [H["0302"], H["0403"]], GERMAN, FAIR).value == -2
    assert terrain_drm(m, d, [H["0302"], H["0304"]], GERMAN, FAIR).value == 0
    assert terrain_drm(m, d, [H["0302"], H["0403"]], GERMAN, FREEZE).value == 0


def test_defence_line_german_only_intact_front_q51() -> None:
    """§19.2, [Q51]: -2 for German attacks when every attacker crosses an intact front hexside
    (outer -> inner); not for the Soviets, not from the inside, not once the hexside is destroyed."""
    front = [0] * GRID.size
    front[H["0302"]] |= 1 << H["0303"]  # 0302 outer, 0303 inner
    front[H["0202"]] |= 1 << H["0303"]
    m = FakeMap(defence_front=front)
    d = [H["0303"]]
    assert terrain_drm(m, d, [H["0302"], H["0202"]], GERMAN, FAIR).value == -2
    assert terrain_drm(m, d, [H["0302"], H["0202"]], SOVIET, FAIR).value == 0
    assert terrain_drm(m, d, [H["0302"], H["0403"]], GERMAN, FAIR).value == 0
    intact = front[:]
    intact[H["0202"]] = 0  # that hexside destroyed (§19.3)
    assert terrain_drm(m, d, [H["0302"], H["0202"]], GERMAN, FAIR, intact).value == 0
    # the inner side attacking outward is unaffected (§19.4)
    assert terrain_drm(m, [H["0302"]], [H["0303"]], GERMAN, FAIR).value == 0


# -- ignore Dr ---------------------------------------------------------------------------------


def test_ignore_declaration_only_where_it_can_matter_q8() -> None:
    """§5.5, [Q8]: German 9-1 has Dr only on row 0 (reached with -2); at 6-1 row 2 is Dr;
    never allowed where every reachable row is the ignored result (endless rerolls)."""
    assert not ignore_allowed(CRT, GERMAN, col("9-1"), 0, DR)
    assert ignore_allowed(CRT, GERMAN, col("9-1"), -2, DR)
    assert ignore_allowed(CRT, GERMAN, col("6-1"), 0, DR)
    assert not ignore_allowed(CRT, GERMAN, col("1-2"), 0, DR)
    assert ignore_allowed(CRT, SOVIET, col("4-1"), 0, BR)


def test_column_probabilities() -> None:
    """The 11-1 German overrun column (§14): Ex on -1..1, De,Ad on 2-3, De on 4-6."""
    p = column_probabilities(CRT.column_results(GERMAN, col("11-1")), CRT.rows, 0)
    assert p == {"Ex": F(1, 6), "De,Ad": F(2, 6), "De": F(3, 6)}
    p = column_probabilities(CRT.column_results(GERMAN, col("11-1")), CRT.rows, -2)
    assert p == {"Ex": F(3, 6), "De,Ad": F(2, 6), "De": F(1, 6)}


# -- quotas, KG, VP ----------------------------------------------------------------------------


def test_quota_printed_cf_and_half_q13() -> None:
    """§7, §8.3: the quota is the defenders' printed CF (a panzer that became a KG still counts
    6); 1/2Ex exactly half, fractions kept ([Q13])."""
    assert loss_quota(EX, [PZ, INF]) == 9
    assert loss_quota(HALF_EX, [PZ, INF]) == F(9, 2)
    assert loss_quota(DE_AD, [RIFLE]) == 4
    assert loss_quota(DR, [RIFLE]) == 0


def test_kg_credit_q18() -> None:
    """[Q18]: a German attacker's KG conversion counts printed CF - 2 toward the quota (option:
    full CF); units that do not become KGs count their printed CF."""
    assert becomes_kg(PZ) and not becomes_kg(MOT3) and not becomes_kg(KG) and not becomes_kg(INF)
    assert loss_credit(PZ) == 4
    assert loss_credit(PZ, CombatOptions(kg_ex_credit_full=True)) == 6
    assert loss_credit(KG) == 2 and loss_credit(MOT3) == 3 and loss_credit(RIFLE) == 4


def test_elimination_vp_s23() -> None:
    """§23, [Q62], [Q66]: 1 VP/CF non-mechanised (EB included), 2/CF mechanised (German < 4 CF
    too), KG eliminated 3/CF to the Soviets, KG conversion 2 x (CF - 2) to the Soviets."""
    assert elimination_vp(RIFLE) == (GERMAN, 4)
    assert elimination_vp(TANK) == (GERMAN, 4)
    assert elimination_vp(SEB) == (GERMAN, 1)
    assert elimination_vp(INF) == (SOVIET, 3)
    assert elimination_vp(MOT3) == (SOVIET, 6)
    assert elimination_vp(KG) == (SOVIET, 6)
    assert kg_conversion_vp(PZ) == (SOVIET, 8)


# -- retreat -----------------------------------------------------------------------------------


def test_retreat_one_hex_rules_s12() -> None:
    """§12, [Q28]: one adjacent hex; not enemy-occupied; not in EZOC unless a friendly unit is
    there; not across an unfrozen lake hexside (frozen from GT 16); not into a full hex."""
    o = H["0303"]
    ns = {GRID.ids[n] for n in GRID.neighbours[o]}
    assert ns == {"0302", "0304", "0202", "0203", "0402", "0403"}
    m = FakeMap(lake_mask=pair_masks([("0303", "0202")]))
    enemy = 1 << H["0402"]
    ezoc = GRID.expand(enemy)  # 0302 0403 0401 0501 0502 0303 (and more)
    friendly = 1 << H["0302"]
    full = 1 << H["0304"]
    got = retreat_hexes(
        m, GRID.neighbour_mask, o, FAIR, friendly_occ=friendly, enemy_occ=enemy, enemy_zoc=ezoc, full=full
    )
    assert {GRID.ids[h] for h in got} == {"0302", "0203"}
    got = retreat_hexes(
        m, GRID.neighbour_mask, o, FREEZE, friendly_occ=friendly, enemy_occ=enemy, enemy_zoc=ezoc, full=full
    )
    assert {GRID.ids[h] for h in got} == {"0302", "0203", "0202"}


def test_eb_retreats_only_along_usable_rail_s173() -> None:
    """§17.3: an EB unit retreats only along repaired or normal rail (not destroyed rail, not off it)."""
    o = H["0303"]
    rail = (H["0302"], H["0304"])
    got = retreat_hexes(
        FakeMap(),
        GRID.neighbour_mask,
        o,
        FAIR,
        friendly_occ=0,
        enemy_occ=0,
        enemy_zoc=0,
        full=0,
        rail=rail,
        rail_usable=1 << H["0304"],
    )
    assert [GRID.ids[h] for h in got] == ["0304"]
