"""Odds, column shifts and combat-results-table lookup for odds-ratio CRTs."""

from __future__ import annotations

from collections.abc import Sequence


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
