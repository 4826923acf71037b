"""Words for the position: the status line, what the player must decide now, units, hexes,
battle odds and events. Everything here reads the state; nothing changes it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from typhoon.events import Event
from typhoon.games.bfm import flow
from typhoon.games.bfm.actions import (
    Action,
    Advance,
    Attack,
    Move,
    Place,
    Rebuild,
    Reinforce,
    Resolve,
    Restore,
    Retreat,
)
from typhoon.games.bfm.preview import RESULT_WORDS, BattlePreview
from typhoon.games.bfm.rules import SIDE_NAMES
from typhoon.games.bfm.state import ADVANCE, CHANCE, CHOOSE, DECLARE, LOSS, RETREAT, STAND, TERMINAL, State
from typhoon.hexgrid import DIRECTIONS
from typhoon.textstyle import Palette


def side_name(side: int) -> str:
    return SIDE_NAMES[side].capitalize()


def turn_text(state: State) -> str:
    if state.turn == 0:
        return "Set-up"
    label = state.rules.turn_labels.get(state.turn, "")
    return f"Turn {state.turn} of {state.rules.last_turn} ({label})"


def moscow_text(state: State) -> str:
    holders = {state.city_controller_at(h) for h in state.rules.map.moscow}
    if len(holders) != 1:
        return "divided"
    (who,) = holders
    return side_name(who if who is not None else 1)


def status_line(state: State, pal: Palette | None = None) -> str:
    """Turn, phase, weather, replacements, Moscow, whose decision: one line."""
    p = pal or Palette(False)
    spec = state.phase_spec
    parts = [p.paint(turn_text(state), "title"), spec.name]
    if state.turn:
        if state.is_mud():
            halves = "panzer attacks" if state.rules.mud_halves == "panzer" else "attacks"
            parts.append(p.paint(f"MUD (1 hex a phase except rail; {halves} halved)", "fort"))
        else:
            parts.append("dry")
    if spec.kind == "replacement":
        parts.append(f"replacements left: {state.repl}")
    parts.append(f"Moscow: {moscow_text(state)}")
    who = state.current_player()
    if who >= 0:
        parts.append(p.paint(f"{side_name(who)} to decide", "prompt"))
    elif who == TERMINAL:
        parts.append(p.paint(f"game over: {result_text(state)}", "good"))
    return " | ".join(parts)


def rules_line(state: State) -> str:
    return "Rules: " + state.rules.describe()


def result_text(state: State) -> str:
    return {
        "german": "the German player wins",
        "soviet": "the Soviet player wins",
        "draw": "a draw",
        None: "not finished",
    }[state.result]


def _ids(state: State, units: Iterable[int]) -> str:
    return ", ".join(state.rules.units[u].id for u in units) or "none"


def decision_text(state: State, legal: Sequence[Action]) -> str:
    """What the player to move must decide now, and how to say it."""
    who = state.current_player()
    if who == TERMINAL:
        return f"The game is over: {result_text(state)}."
    if who == CHANCE:
        return "A die roll is due."
    rules = state.rules
    spec = state.phase_spec
    me = side_name(who)
    ids = rules.map.grid.ids
    if spec.kind == "setup":
        free = [h for h in rules.map.setup[SIDE_NAMES[who]] if state.at[h] < 0]
        units = sorted({a.unit for a in legal if isinstance(a, Place)}, key=rules.unit_index.__getitem__)
        text = f"{me} set-up: `place UNIT HEX` on a set-up hex ({len(free)} left: {', '.join(ids[h] for h in free)})"
        text += f"\n  units to place: {', '.join(units)}"
        if any(not isinstance(a, Place) for a in legal):
            text += "\n  or `setup standard` to place the whole side in the quick-start arrangement."
        return text
    if spec.kind == "replacement":
        lines = [f"{me} replacement phase: {state.repl} replacement(s) left."]
        due = flow.reinforcement_due(state)
        if due >= 0 and any(isinstance(a, Reinforce) for a in legal):
            lines.append(
                f"  {rules.units[due].name} arrives as a reinforcement: `reinforce {rules.units[due].id} HEX` "
                "(it must be placed before the phase ends)."
            )
        rebuild = sorted({a.unit for a in legal if isinstance(a, Rebuild)}, key=rules.unit_index.__getitem__)
        restore = [a.unit for a in legal if isinstance(a, Restore)]
        if rebuild:
            hexes = sorted({a.hex for a in legal if isinstance(a, Rebuild)})
            lines.append(f"  `rebuild UNIT HEX` (half strength) for: {', '.join(rebuild)}")
            lines.append(f"    on: {', '.join(hexes)}")
        if restore:
            lines.append(f"  `restore UNIT` (half to full strength) for: {', '.join(restore)}")
        lines.append(
            "  `end` to finish the phase" + (" (unused replacements are lost)." if state.repl else ".")
        )
        return "\n".join(lines)
    if spec.kind == "movement":
        if state.stack >= 0:
            u = state.stack
            return (
                f"{rules.units[u].name} ({rules.units[u].id}) shares {ids[state.loc[u]]} with the unit that "
                f"moved in and must move off now: `moves {rules.units[u].id}` lists where it can go."
            )
        movers = sorted({a.unit for a in legal if isinstance(a, Move)}, key=lambda x: rules.unit_index[x])
        which = {"panzer": "panzer units only", "rail": "units on a rail hex, along the rail line"}.get(
            spec.movers, "every unit"
        )
        return (
            f"{spec.name} ({which}): `move UNIT HEX`, `moves UNIT` to see where a unit can go, "
            f"`end` to finish the phase.\n  can still move: {', '.join(movers) or 'none'}"
        )
    cur = state.cur
    if state.cstep == DECLARE:
        lines = [
            f"{spec.name}: declare attacks with `attack UNIT HEX` (several units may attack one hex; "
            "each unit attacks once); `odds HEX [UNIT...]` first shows the odds; `end` closes the declarations."
        ]
        if state.battles:
            lines.append("  declared: " + battles_text(state))
        targets = sorted({a.target for a in legal if isinstance(a, Attack)})
        if targets:
            lines.append(f"  enemy units in reach: {', '.join(targets)}")
        return "\n".join(lines)
    if state.cstep == CHOOSE:
        return f"{me}: choose the battle to resolve next: `resolve HEX`.\n  waiting: " + battles_text(state)
    assert cur is not None
    d = rules.units[cur.defender]
    where = ids[cur.hex]
    if state.cstep == STAND:
        return (
            f"{me}: {d.name} in {where} may stand fast: `standfast yes` (it loses a step and stays) "
            "or `standfast no` (the attacker retreats it)."
        )
    if state.cstep == LOSS:
        if cur.owed == -1:
            return f"{me}: the attack failed (AL): `lose UNIT` names the attacking unit that loses a step."
        return (
            f"{me}: exchange: the attacker still owes {cur.owed} strength point(s): `lose UNIT` takes a step "
            "from an attacking unit."
        )
    if state.cstep == RETREAT:
        return (
            f"{me}: choose the retreat path of {d.name} from {where}: `retreat HEX-HEX` "
            "(the hexes it enters; it may not enter enemy units or their zones of control)."
        )
    if state.cstep == ADVANCE:
        return f"{me}: {where} is empty: `advance UNIT` moves one attacking unit into it, `advance none` declines."
    return f"{me} to decide."


def decision_hexes(state: State, legal: Sequence[Action]) -> list[int]:
    """Hexes the decision now is about, to mark on the map: where a unit can be placed, where
    a retreat can end, the hex to advance into, the battles to resolve, the units to attack."""
    index = state.rules.map.grid.index
    out: set[int] = set()
    for a in legal:
        if isinstance(a, Place | Rebuild | Reinforce):
            out.add(index[a.hex])
        elif isinstance(a, Retreat):
            out.add(index[a.path[-1]])
        elif isinstance(a, Attack | Resolve):
            out.add(index[a.target])
        elif isinstance(a, Advance) and state.cur is not None:
            out.add(state.cur.hex)
    return sorted(out)


def battles_text(state: State) -> str:
    from typhoon.games.bfm.combat_phase import battle_summary

    return "; ".join(battle_summary(state, d, atk) for d, atk in state.battles) or "none"


def units_table(state: State, sides: Sequence[int] = (0, 1), pal: Palette | None = None) -> str:
    p = pal or Palette(False)
    rules = state.rules
    ids = rules.map.grid.ids
    lines = []
    for side in sides:
        lines.append(p.paint(f"{side_name(side)} units", "title"))
        for u in rules.side_units[side]:
            spec = rules.units[u]
            h = state.loc[u]
            where = ids[h] if h >= 0 else "off map"
            st = (
                f"{state.strength(u):>2} {'full' if state.steps[u] == 2 else 'half'}" if h >= 0 else "   -   "
            )
            notes = []
            if h >= 0 and (state.done >> u) & 1:
                notes.append({"movement": "moved", "combat": "attacks"}.get(state.phase_spec.kind, "placed"))
            if u == state.stack:
                notes.append("must move off")
            if h < 0 and u == rules.first_shock and not (state.arrived >> u) & 1:
                how = "reinforcement" if rules.first_shock_mode == "reinforcement" else "replacement"
                notes.append(f"{how} from turn {rules.first_shock_turn}")
            elif h < 0 and state.turn > 0:
                notes.append("eliminated")
            lines.append(
                f"  {spec.id:<7}{where:<9}{st}  {f'{spec.full}-{spec.half}-{spec.move}':<8}"
                f"{spec.name}{'  [' + ', '.join(notes) + ']' if notes else ''}"
            )
    return "\n".join(lines)


def hex_text(state: State, h: int) -> str:
    """Everything about one hex: terrain, rivers, city, unit, zones of control."""
    rules = state.rules
    m = rules.map
    grid = m.grid
    lines = [f"{grid.ids[h]}: {m.terrain_name(h)}"]
    name = m.city_name(h)
    if name is not None:
        ctrl = state.city_controller_at(h)
        lines[0] += f"; {name} is {side_name(ctrl if ctrl is not None else 1)}-controlled"
    rivers = [
        f"{d} (to {grid.ids[n]})"
        for d, n in zip(DIRECTIONS, grid.neighbours_by_dir[h])
        if n >= 0 and m.river_between(h, n)
    ]
    lines.append("  river on the " + ", ".join(rivers) + " side(s)" if rivers else "  no river sides")
    for side in (0, 1):
        if h in m.edges[SIDE_NAMES[side]]:
            lines.append(f"  {side_name(side)} map edge (replacements)")
    for u in state.units_at(h):
        spec = rules.units[u]
        lines.append(
            f"  {spec.name} ({spec.id}), {side_name(spec.side)}, strength {state.strength(u)} "
            f"({'full' if state.steps[u] == 2 else 'half'}; counter {spec.full}/{spec.half}), moves {spec.move}"
        )
    for side in (0, 1):
        if (state.zoc(side) >> h) & 1 and not (state.occ[side] >> h) & 1:
            lines.append(f"  in the {side_name(side)} zone of control")
    neighbours = ", ".join(grid.ids[n] for n in grid.neighbours[h])
    lines.append(f"  neighbours: {neighbours}")
    return "\n".join(lines)


def odds_text(state: State, pv: BattlePreview, pal: Palette | None = None) -> str:
    """A battle preview: the odds worked out step by step, each shift, each die's result."""
    p = pal or Palette(False)
    rules = state.rules
    o = pv.odds
    lines = [p.paint(f"{' + '.join(pv.attackers)} against {pv.defender} in {pv.hex}", "title")]
    parts = []
    for uid in pv.attackers:
        u = rules.unit_index[uid]
        st = state.strength(u)
        if state.is_mud() and rules.halved_in_mud(u):
            parts.append(f"{uid} {st}/2 (mud)")
        else:
            parts.append(f"{uid} {st}")
    lines.append(f"  attack {o.attack:g} ({', '.join(parts)}) against defence {o.defense}")
    base = f"{o.column}:1" if o.column >= 1 else "below 1:1"
    lines.append(f"  {o.attack:g} / {o.defense} = {base} (fractions dropped, 6:1 at most)")
    for r in o.reasons:
        lines.append(f"  one column left: {r}")
    final = f"{o.final}:1" if o.final >= 1 else "below 1:1: the attack has no effect"
    lines.append(f"  final odds: {final}")
    if o.no_effect:
        return "\n".join(lines)
    lines.append("  die:  " + "   ".join(f"{d} {r}" for d, r in enumerate(pv.by_die, 1)))
    for r, prob in pv.results.items():
        lines.append(f"  {r:<3} {_pct(prob):>4}  {RESULT_WORDS[r]}")
    outs = ", ".join(f"{k.replace('_', ' ')} {_pct(v)}" for k, v in pv.defender_outcomes.items() if v)
    lines.append(f"  defender: {outs}")
    lines.append(
        f"  attacker loses a step: {_pct(pv.attacker_loses_step)}; expected strength lost: defender "
        f"{float(pv.defender_loss_points):.2f}, attacker {float(pv.attacker_loss_points):.2f}"
    )
    lines.extend(f"  {n}" for n in pv.notes)
    return "\n".join(lines)


def _pct(x: object) -> str:
    return f"{float(x) * 100:.0f}%"  # type: ignore[arg-type]


def event_lines(events: Iterable[Event], pal: Palette | None = None) -> list[str]:
    p = pal or Palette(False)
    out = []
    for e in events:
        if e.kind == "turn":
            out.append(p.paint(f"=== {e.text} ===", "title"))
        elif e.kind == "phase":
            out.append(p.paint(f"--- {e.text}", "title"))
        elif e.kind == "roll":
            out.append("  " + p.paint(e.text, "fort"))
        elif e.kind == "game_over":
            out.append(p.paint(f"*** {e.text} ***", "good"))
        else:
            out.append(f"  {e.text}")
    return out


def actor_name(actor: int) -> str:
    return "die" if actor == CHANCE else side_name(actor)
