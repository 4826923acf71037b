"""The Moscow Campaign's odds preview before the attackers are committed (issue 15): for a target
hex and chosen attackers, the combat strength of each side, the odds column, the die modifier
and the chance of each result, for the browser (FrontEnds.preview) and the plain words.

Nothing here re-derives a rule: the declaration is tried on a copy of the position with the
combat phase's own ``apply`` (so an attack the rules refuse is refused with their words), and
strengths, odds and modifier come from the same functions that ``start_battle`` calls when the
attack is resolved (docs/TMC_COMBAT.md "Strength and odds", "Die-roll modifiers").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from typhoon.errors import IllegalActionError
from typhoon.events import Event
from typhoon.games.tmc import combat_phase as cp
from typhoon.games.tmc.actions import END, Attack
from typhoon.games.tmc.combat import GERMAN, RESULT_WORDS, RESULTS, load_crt, odds_index, terrain_drm
from typhoon.games.tmc.notation import action_to_text
from typhoon.games.tmc.state import Battle, Declared, State
from typhoon.mechanics.combat import ratio_column


def _num(x: Fraction) -> str:
    return f"{float(x):g}"


def declared_attack(s: State, target: str, attackers: list[str]) -> tuple[Declared, bool]:
    """The attack that declaring ``attackers`` on ``target`` would build, checked by the combat
    phase's own declaration rules on a copy (IllegalActionError with the rules' words if not).
    With an attack already being built, ``target`` is one of its hexes and its attackers count.
    Also: whether the attack stays open after them (the engine closes it by itself when End
    is then the only choice, as it plays every forced decision)."""
    r = s.rules
    if r.phases[s.phase].kind != "combat" or isinstance(s.combat, Battle) or not cp.data(s).declaring:
        raise IllegalActionError("attacks are previewed while they are being declared (a combat phase)")
    h = r.grid.index.get(target, -1)
    if h < 0:
        raise IllegalActionError(f"{target} is not a hex of this map")
    for uid in attackers:
        if uid not in r.unit_index:
            raise IllegalActionError(f"there is no unit {uid}")
    if len(set(attackers)) != len(attackers):
        raise IllegalActionError("a unit is named twice among the attackers")
    draft = cp.data(s).draft
    if draft is not None and h not in draft.hexes:
        raise IllegalActionError(
            f"an attack on {'+'.join(r.grid.ids[x] for x in draft.hexes)} is being declared: "
            "close it (End) before previewing another"
        )
    first = r.grid.ids[draft.hexes[0]] if draft is not None else target
    already = set(draft.attackers) if draft is not None else set()
    trial = s.copy()
    events: list[Event] = []
    for uid in attackers:
        if r.unit_index[uid] not in already:
            cp.apply(trial, Attack(first, (uid,)), events)  # IllegalActionError: the rules' words
    got = cp.data(trial).draft
    if got is None or not got.attackers:
        raise IllegalActionError("name at least one attacking unit")
    return got, cp.legal(trial) != [END]


def preview(s: State, target: str, attackers: list[str]) -> dict[str, Any]:
    """The odds of declaring ``attackers`` against ``target`` (§5, §6, §11.3, §18, §19, §26),
    as the position stands (supply is judged again when the attack is resolved, §11)."""
    r = s.rules
    d, still_open = declared_attack(s, target, attackers)
    atk_units, hexes = d.attackers, d.hexes
    defenders = tuple(u for h in hexes for u in s.stacks.get(h, ()))
    crt = load_crt()
    side = r.units[atk_units[0]].side
    cond = cp.conditions(s)
    att, dfn = cp.strengths(s, atk_units, defenders)
    top = odds_index(crt, att, dfn, side, cond)
    raw = ratio_column(att, dfn, crt.ratios)
    drm = terrain_drm(
        r.map,  # type: ignore[arg-type]
        hexes,
        [s.loc[u] for u in atk_units],
        side,
        cond,
        cp.intact_front(s),
    )
    sup = cp.supply_now(s)
    ids = r.grid.ids
    where = "+".join(ids[h] for h in hexes)

    def factor(u: int, attacking: bool) -> dict[str, Any]:
        a, b = cp.strengths(s, (u,), ()) if attacking else cp.strengths(s, (), (u,))
        got = a if attacking else b
        spec = r.units[u]
        notes = []
        if not (sup[spec.side] >> s.loc[u]) & 1:
            notes.append("out of supply")
        if (s.entrained >> u) & 1:
            notes.append("entrained")
        if (s.kg >> u) & 1:
            notes.append("Kampfgruppe")
        return {"unit": spec.id, "hex": ids[s.loc[u]], "cf": s.cf(u), "strength": _num(got), "notes": notes}

    att_f = [factor(u, True) for u in atk_units]
    def_f = [factor(u, False) for u in defenders]

    def listing(fs: list[dict[str, Any]]) -> str:
        out = []
        for f in fs:
            extra = f" ({', '.join(f['notes'])})" if f["notes"] else ""
            shown = f["strength"] if f["strength"] == str(f["cf"]) else f"{f['cf']} \u2192 {f['strength']}"
            out.append(f"{f['unit']} {shown}{extra}")
        return ", ".join(out)

    reasons: list[str] = []
    if top != raw:
        reasons.append(
            f"+1 column: German attacks in GT 1-4 (\u00a75.9): {crt.columns[raw]} \u2192 {crt.columns[top]}."
        )
    if drm.value:
        reasons.append(f"{drm.value} on the die: {drm.reason} (\u00a75.6, \u00a726).")
    weather = [
        w
        for w, on in (
            ("rain: German attacks halved", cond.rain),
            ("mud: German combat strength halved", cond.mud),
            ("winter: German attacks halved", cond.winter),
        )
        if on
    ]
    by_die = [crt.result(side, top, crt.row(die, drm.value)) for die in range(1, 7)]
    chances: dict[str, float] = {}
    for res in RESULTS:
        n = by_die.count(res)
        if n:
            chances[res] = n / 6
    lines = [
        f"Attack {_num(att)}: {listing(att_f)}.",
        f"Defence {_num(dfn)}: {listing(def_f)}.",
        f"Odds {_num(att)}:{_num(dfn)}, rounded down: {crt.columns[raw]} (\u00a75.3).",
        *reasons,
    ]
    if weather:
        lines.append(f"GT {s.turn}: " + "; ".join(weather) + " (\u00a718).")
    lines.append(
        f"Column {crt.columns[top]} of the {'German' if side == GERMAN else 'Soviet'} table (\u00a76): "
        + ", ".join(f"{k} {RESULT_WORDS[k]} {round(p * 100)}%" for k, p in chances.items())
        + "."
    )
    ignorable = cp.options(s).ignorable_result
    if cp.ignore_allowed(crt, side, top, drm.value, ignorable):
        rest = {k: p for k, p in chances.items() if k != ignorable}
        total = sum(rest.values())
        lines.append(
            f"If you declare {ignorable} ignored (\u00a75.5), the die is rolled again on {ignorable}: "
            + ", ".join(f"{k} {round(p / total * 100)}%" for k, p in rest.items())
            + "."
        )
    lines.append(
        "When the attack is resolved you may choose this column or a lower one (\u00a75.4); "
        "supply is judged again then (\u00a711), after the attacks declared before it."
    )
    rows = [["Result", *by_die]]
    if drm.value:
        rows.insert(0, ["Row", *(str(crt.row(die, drm.value)) for die in range(1, 7))])
    return {
        "hex": where,
        "hexes": [ids[h] for h in hexes],
        "attackers": [r.units[u].id for u in atk_units],
        "defenders": [r.units[u].id for u in defenders],
        "attack": _num(att),
        "defense": _num(dfn),
        "attack_factors": att_f,
        "defense_factors": def_f,
        "column": crt.columns[top],
        "ratio_column": crt.columns[raw],
        "drm": drm.value,
        "reasons": reasons,
        "by_die": by_die,
        "chances": chances,
        "table": {"head": ["Die", *map(str, range(1, 7))], "rows": rows},
        "title": f"{' + '.join(r.units[u].id for u in atk_units)} against "
        f"{', '.join(r.units[u].id for u in defenders)} in {where}",
        "lines": lines,
        "text": " ".join(lines),
        "action": "Declare this attack",
        # Sent after the chosen attackers: closes the attack, unless the engine does (forced).
        "then": [action_to_text(END)] if still_open else [],
    }
