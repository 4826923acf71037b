"""Odds, column shifts and combat-results-table lookup for odds-ratio CRTs.

Two styles of table share this module: integer ``n:1`` columns (strengths in half points,
:func:`odds_column`) and tables whose columns are listed ratios such as ``1-2 … 11-1`` with
exact fractional strengths (:func:`ratio_column`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def odds_column(attack_halves: int, defense: int, max_column: int) -> int:
    """The odds column (n for n:1) of an attack, fractions dropped and capped at ``max_column``.

    ``attack_halves`` is the attack strength counted in half points, so a strength halved in
    mud keeps its fraction (17 halved is 8.5, passed as 17); 0 means below 1:1."""
    if defense <= 0:
        return max_column
    return min(attack_halves // (2 * defense), max_column)


def final_column(column: int, shifts: int) -> int:
    """Column after shifting left; 0 or less means the attack is below the table."""
    return column - shifts


def lookup(table: Sequence[Sequence[str]], die: int, column: int) -> str:
    """``table[die][column]`` with 1-based die and column."""
    return table[die][column]


def result_probabilities(table: Sequence[Sequence[str]], column: int, die_faces: int = 6) -> dict[str, float]:
    """Probability of each result in a column for a fair die."""
    out: dict[str, float] = {}
    for die in range(1, die_faces + 1):
        r = table[die][column]
        out[r] = out.get(r, 0.0) + 1.0 / die_faces
    return out


# -- listed-ratio tables (exact strengths) ----------------------------------------------------


def parse_ratio(label: str) -> tuple[int, int]:
    """``"11-1"`` -> (11, 1); ``"1-2"`` -> (1, 2). Raises ValueError on anything else."""
    a, sep, d = label.partition("-")
    if not sep or not a.isdigit() or not d.isdigit() or int(a) <= 0 or int(d) <= 0:
        raise ValueError(f"not an odds ratio: {label!r}")
    return int(a), int(d)


def ratio_column(attack: Fraction, defence: Fraction, columns: Sequence[tuple[int, int]]) -> int:
    """Index of the listed column an attack falls in, rounding down in the defender's favour.

    ``columns`` are the table's ratios (attacker, defender) in increasing order. Strengths are
    exact fractions (halvings keep their fractions), compared by cross-multiplication, so 17:5
    (3.4) is 3-1 and 3:4 is 1-2. Odds below the first column count as the first, above the last
    as the last; a defence of 0 is the last column."""
    if defence <= 0:
        return len(columns) - 1
    best = 0
    for i, (a, d) in enumerate(columns):
        if attack * d >= defence * a:
            best = i
    return best


def shift_column(index: int, shifts: int, n_columns: int) -> int:
    """Column index moved ``shifts`` columns right (negative: left), kept on the table."""
    return max(0, min(n_columns - 1, index + shifts))


def modified_row(die: int, drm: int, lowest: int, highest: int) -> int:
    """The row a die roll plus its modifiers indexes, clamped to the table's rows."""
    return max(lowest, min(highest, die + drm))


def column_probabilities(
    column_results: Sequence[str], rows: Sequence[int], drm: int, die_faces: int = 6
) -> dict[str, Fraction]:
    """Exact probability of each result in one column (results listed per row of ``rows``)
    for one roll of a fair die plus ``drm``, rows clamped to the table."""
    out: dict[str, Fraction] = {}
    lo, hi = rows[0], rows[-1]
    for die in range(1, die_faces + 1):
        r = column_results[modified_row(die, drm, lo, hi) - lo]
        out[r] = out.get(r, Fraction(0)) + Fraction(1, die_faces)
    return out
