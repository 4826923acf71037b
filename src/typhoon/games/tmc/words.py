"""The Moscow Campaign in words, for the terminal and the browser: the reconstruction banner,
the scenario, the status line, units and hexes, what the player must decide.

Everything here reads the state and the legal actions the engine produced; nothing decides
a rule. Map and counters are RECONSTRUCTIONS (the SPI 1972 map and counter sheet are not
available): every front end says so, using :data:`RECONSTRUCTION`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from typhoon.hexgrid import DIRECTIONS

SIDE_NAMES = ("german", "soviet")
RECONSTRUCTION = (
    "RECONSTRUCTION: the map and the counters of The Moscow Campaign (SPI 1972) are reconstructed "
    "from 1941 geography and orders of battle, not copied from the game (docs/TMC_MAP.md, docs/TMC_OOB.md)."
)
STEP_WORDS = {0: "EB relocation", 1: "movement", 2: "overrun resolution"}


def side_name(side: int) -> str:
    return SIDE_NAMES[side].capitalize()


def scenario_title(rules: Any) -> str:
    return f"scenario {rules.edition}: {rules.title}"


def scenario_facts(rules: Any) -> str:
    """'GT 1-8, September start line, no German replacements'."""
    repl = "German replacements" if rules.german_replacements else "no German replacements"
    return f"GT {rules.first_turn}-{rules.last_turn}, {rules.start_line} start line, {repl}"


def weather_text(state: Any) -> str:
    """The weather of the current game turn ('set-up' before the first)."""
    if state.turn == 0:
        return "set-up"
    try:
        from typhoon.games.tmc.weather import weather_names

        return "+".join(weather_names(state.turn))
    except Exception:  # the weather table is another helper's; never break the status line
        return "?"


def turn_text(state: Any) -> str:
    r = state.rules
    if state.turn == 0:
        return f"Set-up (play GT {r.first_turn}-{r.last_turn})"
    return f"GT {state.turn} of {r.first_turn}-{r.last_turn}"


def step_text(state: Any) -> str:
    spec = state.phase_spec
    if spec.kind == "movement" and state.step != 1:
        return f"{spec.name} ({STEP_WORDS.get(state.step, state.step)})"
    return str(spec.name)


def result_text(state: Any) -> str:
    if state.result is None:
        return "not finished"
    who = {"german": "the German player wins", "soviet": "the Soviet player wins", "draw": "a draw"}
    text = who.get(state.result, state.result)
    return f"{text} ({state.level})" if state.level else text


def cf_text(state: Any, u: int) -> str:
    """The combat factor as printed: 4, (2) for an EB unit, [1] for a bracketed one."""
    spec = state.rules.units[u]
    cf = state.cf(u)
    if spec.eb:
        return f"({cf})"
    if spec.bracket:
        return f"[{cf}]"
    return str(cf)


def counter_text(state: Any, u: int) -> str:
    """'G1Pz 6-8' as on the counter (CF-MA)."""
    return f"{state.rules.units[u].id} {cf_text(state, u)}-{state.ma(u)}"


def unit_flags(state: Any, u: int) -> list[str]:
    out = []
    if (state.kg >> u) & 1:
        out.append("Kampfgruppe")
    if u in state.disrupted:
        out.append(f"disrupted (recovers GT {state.disrupted[u]})")
    if (state.entrained >> u) & 1:
        out.append("entrained")
    if (state.flipped >> u) & 1:
        out.append("flipped by an overrun")
    if u in state.spent:
        out.append("moved this phase")
    if (state.overran >> u) & 1:
        out.append("overrunning")
    return out


def unit_words(state: Any, u: int) -> str:
    """'German 1st Panzer Group (G1Pz), armour, mechanised, CF 6, MA 8, in 0725 (Orsha)'."""
    r = state.rules
    spec = r.units[u]
    kind = spec.kind + (", mechanised" if state.is_mech(u) else "")
    parts = [
        f"{side_name(spec.side)} {spec.name} ({spec.id}), {kind}, CF {cf_text(state, u)}, MA {state.ma(u)}"
    ]
    h = state.loc[u]
    if h >= 0:
        ids = r.grid.ids
        city = r.map.cities.get(h)
        parts.append(f"in {ids[h]}" + (f" ({city})" if city else ""))
    elif (state.eliminated >> u) & 1:
        parts.append("eliminated" + (" for good" if (state.lost >> u) & 1 else ""))
    elif spec.arrive:
        parts.append(f"reinforcement, arrives GT {spec.arrive}")
    else:
        parts.append("not on the map")
    parts.extend(unit_flags(state, u))
    return ", ".join(parts)


def terrain_words(state: Any, h: int) -> list[str]:
    m = state.rules.map
    grid = m.grid
    words = []
    if (m.lake_hexes >> h) & 1:
        words.append("lake")
    elif m.is_forest(h):
        words.append("forest/swamp")
    else:
        words.append("clear")
    name = m.cities.get(h)
    if name:
        words.append(("Moscow" if (m.moscow_mask >> h) & 1 else "city") + f" {name}" * (name != "Moscow"))
    if (m.rail_mask >> h) & 1:
        if (state.rail_german >> h) & 1:
            words.append("rail (German-repaired)")
        elif (state.rail_soviet >> h) & 1:
            words.append("rail (Soviet-repaired)")
        elif (state.rail_normal >> h) & 1:
            words.append("rail")
        else:
            words.append("rail (destroyed" + (", cut" if (state.rail_cut >> h) & 1 else "") + ")")
    river = [
        DIRECTIONS[i]
        for i, n in enumerate(grid.neighbours_by_dir[h])
        if n >= 0 and (m.river_mask[h] >> n) & 1
    ]
    if river:
        words.append("river to the " + ", ".join(river))
    lake = [
        DIRECTIONS[i] for i, n in enumerate(grid.neighbours_by_dir[h]) if n >= 0 and (m.lake_mask[h] >> n) & 1
    ]
    if lake:
        words.append("lake hexside to the " + ", ".join(lake))
    line = [
        DIRECTIONS[i]
        for i, n in enumerate(grid.neighbours_by_dir[h])
        if n >= 0 and (m.defence_front[h] >> n) & 1
    ]
    if line:
        words.append("defence line to the " + ", ".join(line))
    if h in state.rules.start_line_hexes:
        words.append(f"{state.rules.start_line} start line")
    return words


def hex_words(state: Any, h: int) -> str:
    """'2457 forest/swamp, rail, river to the N; Soviet 6th Rifle Division (S6RD) ...'."""
    ids = state.rules.grid.ids
    text = f"{ids[h]} " + ", ".join(terrain_words(state, h))
    us = state.units_at(h)
    if us:
        text += "; " + "; ".join(unit_words(state, u) for u in us)
    else:
        text += "; no units"
    return text


def vp_text(state: Any) -> str:
    return f"VP German {state.vp[0]}, Soviet {state.vp[1]}"


def to_decide_text(state: Any) -> str:
    who = state.current_player()
    if who >= 0:
        return f"{side_name(who)} to decide"
    if who == -1:
        return "die roll due"
    return f"game over: {result_text(state)}"


def status_parts(state: Any) -> list[str]:
    """Scenario, turn, phase, weather, VP, whose decision."""
    return [
        f"TMC scenario {state.rules.edition}",
        turn_text(state),
        step_text(state),
        f"weather: {weather_text(state)}",
        vp_text(state),
        to_decide_text(state),
    ]


KIND_WORDS = {
    "setupstandard": "setup standard",
    "place": "place UNIT HEX",
    "move": "move UNIT HEX",
    "enter": "enter UNIT HEX",
    "arrive": "arrive UNIT HEX",
    "entrain": "entrain UNIT",
    "railmove": "rail UNIT FROM-TO",
    "detrain": "detrain UNIT",
    "relocate": "relocate UNIT HEX",
    "overrun": "overrun HEX with UNIT,UNIT",
    "join": "join UNIT HEX",
    "end": "end",
    "attack": "attack HEX with UNIT",
    "odds": "odds A-D",
    "ignore": "ignore yes|no",
    "lose": "lose UNIT",
    "disrupt": "disrupt UNIT",
    "retreat": "retreat UNIT HEX",
    "advance": "advance UNIT HEX | advance none",
}


def decision_text(state: Any, legal: Sequence[Any]) -> str:
    """What the player to decide may do, by kind of action, with counts."""
    if state.result is not None:
        return f"The game is over: {result_text(state)}."
    if not legal:
        return "Nothing to decide."
    counts = Counter(a.kind for a in legal)
    spec = state.phase_spec
    head = f"{side_name(state.current_player())}, {step_text(state)}:" if state.current_player() >= 0 else ""
    parts = []
    for kind, n in counts.items():
        usage = KIND_WORDS.get(kind, kind)
        if kind == "move":
            movers = len({a.unit for a in legal if a.kind == "move"})
            parts.append(f"`{usage}` ({movers} unit(s) can move; `moves UNIT` lists where)")
        elif kind in ("end", "setupstandard"):
            parts.append(f"`{usage}`")
        else:
            parts.append(f"`{usage}` ({n})")
    tail = ""
    if spec.kind == "setup":
        tail = " `setup standard` puts every remaining unit on its reconstructed start hex."
    return f"{head} " + "; ".join(parts) + "." + tail


def decision_hexes(state: Any, legal: Sequence[Any]) -> list[int]:
    """Hexes the player may act on now (unit sources, targets), for marking on a map."""
    ids = state.rules.grid.index
    out: set[int] = set()
    for a in legal:
        k = a.kind
        if k in ("move", "railmove"):
            out.add(ids[a.src])
        elif k in ("attack", "overrun"):
            out.add(ids[a.target if k == "attack" else a.hex])
        elif k in ("retreat", "relocate", "enter", "arrive") or (k == "advance" and a.hex):
            out.add(ids[a.hex])
    return sorted(out)
