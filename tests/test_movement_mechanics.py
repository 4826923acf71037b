"""Movement range by bitsets agrees with a plain label search; temporary stacking keeps
every arrangement the rules allow and never a dead end (docs/RULES.md readings 1 and 2)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from typhoon.games.bfm.actions import END, Move
from typhoon.games.bfm.engine import apply, legal_actions
from typhoon.games.bfm.notation import position_from_text
from typhoon.games.bfm.rules import load_rules
from typhoon.hexgrid import bits
from typhoon.mechanics.movement import reach, reach_on_grid

RULES = load_rules("vpg2009")
M = RULES.map
G = M.grid


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2, 4, 6]))
def test_bitset_reach_equals_label_search(rng: random.Random, allowance: int) -> None:
    hexes = list(G.hexes)
    start = rng.choice(hexes)
    blocked = G.mask(h for h in rng.sample(hexes, rng.randint(0, 30)) if h != start)
    stop = G.expand(blocked) & ~(1 << start)
    notable = G.mask(
        h for h in rng.sample(hexes, rng.randint(0, 10)) if h != start and not (blocked >> h) & 1
    )
    old = {
        (d, seen & ~(1 << d))
        for d, seen in reach(start, allowance, G.neighbours, M.move_cost, blocked, stop, notable)
    }
    new = {
        (d, sub & ~(1 << d))
        for sub, dests in reach_on_grid(
            start, allowance, G.expand, M.forest_mask, blocked, stop, notable
        ).items()
        for d in bits(dests)
    }
    assert old == new


BASE = (
    "bfm ed=gdw1986 opt=- t=2 ph=soviet_movement G=XXIV@0305 S={soviet} ctl=0204,0307 repl=0 arr=- "
    "stack=- step=declare battles=- cur=- res=-"
)


def moves_of(s, unit: str) -> set[str]:
    return {a.dst for a in legal_actions(s) if isinstance(a, Move) and a.unit == unit}


def test_two_units_can_swap_hexes() -> None:
    s = position_from_text(BASE.format(soviet="3A@1005/h,5A@1006/h"))
    assert "1006" in moves_of(s, "3A")  # onto the unmoved 5A
    s, events = apply(s, Move("3A", "1005", "1006"))
    assert s.stack == s.rules.unit_index["5A"]
    assert END not in legal_actions(s)  # 5A must move off first
    assert {a.unit for a in legal_actions(s)} == {"5A"}
    assert "1006" not in moves_of(s, "5A")
    s, _ = apply(s, Move("5A", "1006", "1005"))  # the swap completes
    assert s.stack == -1 and END in legal_actions(s)
    assert s.rules.map.grid.ids[s.loc[s.rules.unit_index["3A"]]] == "1006"


def test_no_move_onto_a_unit_that_cannot_move_this_phase() -> None:
    """Panzer phase: a panzer may pass through an infantry corps but not end on it, since the
    corps cannot move off in this phase (seed 002, «Движение»: one unit per hex at phase end)."""
    pos = (
        "bfm ed=gdw1986 opt=- t=2 ph=german_panzer_movement G=XXIV@0305,VII@0306,XLI@0307 "
        "S=3A@1005/h ctl=0204,0307 repl=0 arr=- stack=- step=declare battles=- cur=- res=-"
    )
    s = position_from_text(pos)
    assert "0306" not in moves_of(s, "XXIV")
    assert "0307" in moves_of(s, "XXIV")  # the unmoved panzer XLI can make way
    assert {"0406", "0206"} <= moves_of(s, "XXIV")  # and passing through 0306 is allowed


def test_three_units_can_rotate() -> None:
    s = position_from_text(BASE.format(soviet="3A@1005/h,5A@1006/h,10A@1106/h"))
    s, _ = apply(s, Move("3A", "1005", "1006"))
    s, _ = apply(s, Move("5A", "1006", "1106"))
    assert s.stack == s.rules.unit_index["10A"]
    s, _ = apply(s, Move("10A", "1106", "1005"))
    ids = s.rules.map.grid.ids
    where = {u: ids[s.loc[s.rules.unit_index[u]]] for u in ("3A", "5A", "10A")}
    assert where == {"3A": "1006", "5A": "1106", "10A": "1005"}
    assert END in legal_actions(s)
