"""Exact combat preview: before a battle is declared or resolved, the odds with every shift
explained, the probability of each CRT result, and of each outcome for the units involved.

Used by the AI players, the terminal and the browser. Probabilities are exact (one fair die);
retreat outcomes are judged on the position as it stands (battles resolved earlier in the same
phase can still open or close retreat paths).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from typhoon.errors import IllegalActionError
from typhoon.games.bfm.combat_phase import Odds, compute_odds, retreat_paths_of
from typhoon.games.bfm.rules import RESULTS
from typhoon.games.bfm.state import State

RESULT_WORDS = {
    "NE": "no effect",
    "DR": "defender retreats two hexes",
    "DRL": "defender loses a step, then retreats",
    "AL": "one attacking unit loses a step",
    "DE": "defender eliminated",
    "EX": "exchange: defender loses a step, attacker loses as many strength points, defender retreats",
}


@dataclass
class BattlePreview:
    defender: str  # unit id
    attackers: list[str]
    hex: str
    odds: Odds
    by_die: list[str]  # result for die 1..6 ("none" below 1:1)
    results: dict[str, Fraction]  # CRT result -> probability
    defender_outcomes: dict[str, Fraction]  # eliminated / reduced / retreats / reduced_and_retreats / holds
    attacker_loses_step: Fraction  # probability the attacker loses at least one step
    defender_loss_points: Fraction  # expected strength points the defender loses
    attacker_loss_points: Fraction  # expected minimum strength points the attacker loses
    hex_vacated: Fraction  # probability the defender's hex is emptied (an advance is possible)
    can_retreat: bool
    stand_fast: bool  # VPG: the defender may stand fast against DR here
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "defender": self.defender,
            "attackers": self.attackers,
            "hex": self.hex,
            "attack": self.odds.attack,
            "defense": self.odds.defense,
            "column": self.odds.column,
            "shifts": self.odds.reasons,
            "final": self.odds.final,
            "no_effect": self.odds.no_effect,
            "odds_text": self.odds.text(),
            "by_die": self.by_die,
            "results": {k: float(v) for k, v in self.results.items()},
            "defender_outcomes": {k: float(v) for k, v in self.defender_outcomes.items()},
            "attacker_loses_step": float(self.attacker_loses_step),
            "defender_loss_points": float(self.defender_loss_points),
            "attacker_loss_points": float(self.attacker_loss_points),
            "hex_vacated": float(self.hex_vacated),
            "can_retreat": self.can_retreat,
            "stand_fast": self.stand_fast,
            "notes": self.notes,
        }

    def text(self) -> str:
        lines = [f"{' + '.join(self.attackers)} against {self.defender} in {self.hex}: {self.odds.text()}."]
        if self.odds.no_effect:
            return lines[0]
        parts = [f"{r} {_pct(p)}" for r, p in self.results.items() if p]
        lines.append("Results: " + ", ".join(parts) + ".")
        outs = [f"{k.replace('_', ' ')} {_pct(p)}" for k, p in self.defender_outcomes.items() if p]
        lines.append("Defender: " + ", ".join(outs) + ".")
        lines.append(
            f"Attacker loses a step: {_pct(self.attacker_loses_step)}; "
            f"expected losses: defender {float(self.defender_loss_points):.2f}, "
            f"attacker {float(self.attacker_loss_points):.2f} strength points."
        )
        lines.extend(self.notes)
        return "\n".join(lines)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


def preview(s: State, target: str | int, attackers: Sequence[str | int]) -> BattlePreview:
    """Preview a battle against the unit on hex ``target`` (id or index) by ``attackers``
    (unit ids or indices). Raises IllegalActionError if the battle is impossible."""
    rules = s.rules
    grid = rules.map.grid
    h = grid.index.get(target, -1) if isinstance(target, str) else target
    if h < 0 or not (grid.valid >> h) & 1:
        raise IllegalActionError(f"{target} is not a hex of this map")
    d = s.at[h]
    if d < 0:
        raise IllegalActionError(f"{grid.ids[h]} is empty")
    atk: list[int] = []
    for a in attackers:
        u = rules.unit_index.get(a, -1) if isinstance(a, str) else a
        if u < 0 or s.loc[u] < 0:
            raise IllegalActionError(f"{a} is not a unit on the map")
        if rules.units[u].side == rules.units[d].side:
            raise IllegalActionError(f"{rules.units[u].id} cannot attack its own side")
        if not grid.adjacent(s.loc[u], h):
            raise IllegalActionError(f"{rules.units[u].id} is not adjacent to {grid.ids[h]}")
        if u in atk:  # a unit attacks once: counting it twice would overstate the odds
            raise IllegalActionError(f"{rules.units[u].id} is named twice among the attackers")
        atk.append(u)
    if not atk:
        raise IllegalActionError("a battle needs at least one attacker")
    return preview_units(s, d, atk)


def preview_units(s: State, d: int, atk: Sequence[int]) -> BattlePreview:
    rules = s.rules
    grid = rules.map.grid
    h = s.loc[d]
    odds = compute_odds(s, d, tuple(atk))
    sixth = Fraction(1, 6)
    dspec = rules.units[d]
    can_retreat = bool(retreat_paths_of(s, d))
    stand_fast = bool((rules.stand_fast_mask >> h) & 1)
    by_die: list[str] = []
    results = {r: Fraction(0) for r in RESULTS}
    outcomes = {
        k: Fraction(0) for k in ("eliminated", "reduced", "reduced_and_retreats", "retreats", "holds")
    }
    att_step = Fraction(0)
    d_pts = Fraction(0)
    a_pts = Fraction(0)
    vacated = Fraction(0)
    full = s.steps[d] == 2
    step_loss = dspec.loss(s.steps[d])
    att_losses = sorted(rules.units[a].loss(s.steps[a]) for a in atk)
    notes: list[str] = []
    for die in range(1, 7):
        if odds.no_effect:
            by_die.append("none")
            outcomes["holds"] += sixth
            continue
        r = rules.crt[die][odds.final]
        by_die.append(r)
        results[r] += sixth
        if r == "NE":
            outcomes["holds"] += sixth
        elif r == "DE":
            outcomes["eliminated"] += sixth
            d_pts += sixth * dspec.strength(s.steps[d])
            vacated += sixth
        elif r == "DR":
            if can_retreat:
                outcomes["retreats"] += sixth
            else:
                outcomes["eliminated"] += sixth
                d_pts += sixth * dspec.strength(s.steps[d])
            vacated += sixth
        elif r in ("DRL", "EX"):
            if full and can_retreat:
                outcomes["reduced_and_retreats"] += sixth
                d_pts += sixth * step_loss
            else:
                outcomes["eliminated"] += sixth
                d_pts += sixth * dspec.strength(s.steps[d])
            vacated += sixth
            if r == "EX":
                att_step += sixth
                a_pts += sixth * _min_cover(att_losses, step_loss)
        elif r == "AL":
            outcomes["holds"] += sixth
            att_step += sixth
            a_pts += sixth * att_losses[0]
    if stand_fast and results["DR"]:
        notes.append(
            f"{dspec.id} is in a major city: on DR it may stand fast and lose a step instead of retreating."
        )
    if not can_retreat and not odds.no_effect:
        notes.append(f"{dspec.id} has no retreat path now: any retreat result eliminates it.")
    return BattlePreview(
        defender=dspec.id,
        attackers=[rules.units[a].id for a in atk],
        hex=grid.ids[h],
        odds=odds,
        by_die=by_die,
        results={k: v for k, v in results.items() if v},
        defender_outcomes={k: v for k, v in outcomes.items() if v},
        attacker_loses_step=att_step,
        defender_loss_points=d_pts,
        attacker_loss_points=a_pts,
        hex_vacated=vacated,
        can_retreat=can_retreat,
        stand_fast=stand_fast,
        notes=notes,
    )


def _min_cover(losses: list[int], need: int) -> int:
    """Smallest total of step losses (one per unit, their first step) covering ``need``;
    the sum of all when even that does not."""
    best = sum(losses)
    n = len(losses)
    for mask in range(1, 1 << n):
        t = sum(losses[i] for i in range(n) if (mask >> i) & 1)
        if need <= t < best:
            best = t
    return best
