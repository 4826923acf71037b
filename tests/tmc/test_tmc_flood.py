"""Issue 17: a unit's leg ends (``movement_phase.reach``) come from a bitset flood, whole MP
layer by layer; the reference heap Dijkstra (``reach_reference``) is kept for EB units, German
units in mud, and these tests. Along random walks, every movable unit's flood must give the
reference's destinations, moves (in order), points left at every hex, chosen parent of every
hex and path to every destination: the paths decide what a move passes through (rail entered,
defence-line hexsides crossed, lone [#] units removed). The same walks check the full hexes
that keep_facts carries past a move against a count of the stacks, State.zoc_units_mask (from
the occupied hexes less those of EB or flipped units only) and flow.due_reinforcements unit by
unit, overrun candidates memoised in the phase facts against cold ones, and the EB relocation
lists (gathered from a static table of actions) against a plain construction."""

from __future__ import annotations

import random

import pytest

from typhoon.games.tmc import flow, movement_phase, moving, rail
from typhoon.games.tmc.actions import END, Action, Relocate
from typhoon.games.tmc.engine import apply_unchecked, chance_outcomes, legal_actions, new_game
from typhoon.games.tmc.rules import GERMAN, SOVIET, STACK_LIMIT
from typhoon.games.tmc.state import MOVE, OFF, RELOCATE, State


def _random_step(s: State, rng: random.Random) -> State:
    """``s`` after a uniformly random chance outcome or legal action."""
    if s.is_chance:
        outs = chance_outcomes(s)
        return apply_unchecked(s, outs[rng.randrange(len(outs))][0])
    acts = legal_actions(s)
    return apply_unchecked(s, acts[rng.randrange(len(acts))])


def _compare_units(s: State) -> int:
    """Compare the flood with the reference for every unit that may move now (cold caches)."""
    t = s.copy()
    t._cache = {}
    t._legal = None
    n = 0
    for u in t.rules.side_units[t.side]:
        if not movement_phase.may_move(t, u):
            continue
        got = movement_phase.reach(t, u)
        ref = movement_phase.reach_reference(t, u)
        where = f"{t.rules.units[u].id} at {t.rules.grid.ids[t.loc[u]]}, turn {t.turn} phase {t.phase}"
        assert got.dsts == ref.dsts, where
        assert got.moves == ref.moves, where
        assert dict(got.left) == ref.left, where
        assert got.parent == ref.parent, where
        for h, rest in ref.left.items():
            assert h in got.left and got.left[h] == rest, where
        for d in ref.dsts:
            assert got.path(d) == ref.path(d), where
        n += 1
    return n


def _relocate_reference(s: State) -> list[Action]:
    """The EB relocation step's list made plainly, one action at a time."""
    rules = s.rules
    ids = rules.grid.ids
    targets = rail.relocation_hexes(s)
    out: list[Action] = []
    for u in rules.side_units[SOVIET]:
        if rules.units[u].eb and s.loc[u] >= 0 and not (s.relocated >> u) & 1:
            out.extend(Relocate(rules.units[u].id, ids[h]) for h in targets if h != s.loc[u])
    return [*out, END]


def _compare_overrun_candidates(s: State) -> None:
    """Overrun candidates from the warm phase facts (memoised by surroundings) equal cold ones."""
    legal_actions(s)  # the listing builds and uses the memo
    cold = s.copy()
    cold._cache = {}
    targets = s.rules.grid.expand(s.occ[s.side]) & s.occ[1 - s.side]
    for h in range(s.rules.grid.size):
        if (targets >> h) & 1:
            assert movement_phase.overrun_candidates(s, h) == movement_phase.overrun_candidates(cold, h), h


def _zoc_units_reference(s: State, side: int) -> int:
    """Hexes holding a unit of ``side`` that exerts a ZOC (not EB, not flipped), unit by unit."""
    out = 0
    for u in s.rules.side_units[side]:
        h = s.loc[u]
        if h >= 0 and not s.rules.units[u].eb and not (s.flipped >> u) & 1:
            out |= 1 << h
    return out


def _walk(
    scenario: str, seed: int, limit: int, every: int, options: dict[str, str] | None = None
) -> tuple[int, int]:
    """A busy random walk (a phase ends one time in ten when anything else is possible: many
    moves, rail moves, overruns and defence-line crossings per phase; an overrun is declared or
    joined whenever one is listed), comparing every
    ``every``-th movement position. Returns the number of reaches compared and of positions
    with a unit flipped by a pending overrun."""
    rng = random.Random(seed)
    s = new_game(scenario, options)
    n = compared = flipped = 0
    while not s.is_terminal and n < limit:
        if s.is_chance:
            s = _random_step(s, rng)
        else:
            if s.phase_spec.kind == "movement" and s.step == MOVE and n % every == 0:
                compared += _compare_units(s)
                _compare_overrun_candidates(s)
            if s.phase_spec.kind == "movement" and s.step == RELOCATE:
                assert legal_actions(s) == _relocate_reference(s)
            for side in (0, 1):
                assert s.zoc_units_mask(side) == _zoc_units_reference(s, side)
                assert flow.due_reinforcements(s, side) == [
                    u
                    for u in s.rules.side_units[side]
                    if not (s.arrived >> u) & 1
                    and not (s.eliminated >> u) & 1
                    and s.loc[u] == OFF
                    and s.rules.units[u].arrive <= s.turn
                ]
            flipped += s.flipped != 0
            # The full hexes are carried past moves (keep_facts): equal to a count of the stacks.
            assert moving.full_hexes(s) == sum(1 << h for h, us in s.stacks.items() if len(us) >= STACK_LIMIT)
            acts = legal_actions(s)
            pick = acts
            if len(acts) > 1 and rng.random() < 0.9:
                pick = (
                    [a for a in acts if a.kind in ("overrun", "join")]
                    or [a for a in acts if a.kind != "end"]
                    or acts
                )
            s = apply_unchecked(s, pick[rng.randrange(len(pick))])
        n += 1
    return compared, flipped


@pytest.mark.parametrize(
    ("scenario", "seed", "limit", "every", "options"),
    [
        ("1", 1, 1500, 9, None),  # September, lakes unfrozen, the Mozhaisk line intact
        ("15", 4, 800, 7, None),  # November: frozen lakes
        ("1", 5, 1000, 13, {"forest_reading": "mp2_nodrm"}),  # forest 2 MP for non-mechanised units
    ],
)
def test_flood_equals_reference(
    scenario: str, seed: int, limit: int, every: int, options: dict[str, str] | None
) -> None:
    compared, flipped = _walk(scenario, seed, limit, every, options)
    assert compared > 300
    assert flipped or scenario != "1" or options, "no unit was ever flipped by a pending overrun"


def test_flood_bits_from() -> None:
    """The run-length bit lister equals bit_list with an offset."""
    from typhoon.hexgrid import bit_list

    rng = random.Random(1)
    for i in range(500):
        m = rng.getrandbits(rng.randrange(1, 900)) if i % 3 else 1 << rng.randrange(900)
        off = rng.randrange(3000)
        assert moving.bits_from(m, off) == [h + off for h in bit_list(m)]
    assert moving.bits_from(0, 5) == []


def test_allowance_in_integers() -> None:
    """moving.allowance works out MA x TICKS x weather factor (halved out of supply) in
    integers: the same as the Fraction arithmetic it replaced, for every turn and unit kind."""
    from fractions import Fraction

    from typhoon.games.tmc import weather
    from typhoon.games.tmc.rules import TICKS

    for gt in range(1, 32):
        factors = [weather.soviet_ma_factor(gt)]
        factors += [weather.german_ma_factor(gt, mechanised=m) for m in (False, True)]
        for f in factors:
            for ma in range(0, 13):
                for div in (1, 2):
                    fraction = Fraction(ma * TICKS) * f
                    if div == 2:
                        fraction /= 2
                    assert int(fraction) == (ma * TICKS * f.numerator) // (f.denominator * div)


def _place_hexes_reference(s: State, u: int) -> list[int]:
    """setup_phase.place_hexes as it was: every hex of the area judged one by one."""
    from typhoon.games.tmc import setup_phase as sp
    from typhoon.hexgrid import bit_list

    rules = s.rules
    spec = rules.units[u]
    side = spec.side
    area = sp._area(s, side)
    if spec.fixed and spec.setup >= 0:
        area &= 1 << spec.setup
    if spec.eb:
        area &= rules.rail_mask
    area &= ~moving.full_hexes(s) & ~s.occ[1 - side]
    near, _adj, line_adj = sp._geometry(rules)
    if side == SOVIET:
        placed_far = [
            x for x in sp.setup_units(rules, SOVIET) if (s.placed >> x) & 1 and not (near >> s.loc[x]) & 1
        ]
        if len(placed_far) >= sp.SOVIET_EXEMPT:
            area &= near
    if not sp._must_cover(s, side):
        return bit_list(area)
    unplaced = [x for x in sp.setup_units(rules, side) if not (s.placed >> x) & 1 and x != u]
    zoc_left = sum(1 for x in unplaced if not rules.units[x].eb)
    uncovered = sp._uncovered(s, side)
    side_area = sp._area(s, side)
    if sp._needed(rules, side_area, uncovered) > zoc_left + (0 if spec.eb else 1):
        return bit_list(area)
    far_ok = sp._needed(rules, side_area, uncovered) <= zoc_left
    uncovered_mask = sum(1 << rules.start_line_hexes[i] for i in uncovered)
    out = []
    for h in bit_list(area):
        if spec.eb or not (line_adj >> h) & 1:
            if far_ok:
                out.append(h)
            continue
        nb = rules.grid.neighbour_mask[h] & uncovered_mask
        if (
            sp._needed(rules, side_area, [i for i in uncovered if not (nb >> rules.start_line_hexes[i]) & 1])
            <= zoc_left
        ):
            out.append(h)
    return out


@pytest.mark.parametrize(
    ("scenario", "seed", "options"),
    [("1", 11, None), ("21", 12, None), ("1", 13, {"german_must_cover_start_line": "no"})],
)
def test_place_hexes_equal_reference(scenario: str, seed: int, options: dict[str, str] | None) -> None:
    """The set-up hexes (only the hexes next to the start line judged one by one) equal the
    hex-by-hex reference at every placement of both sides' random set-ups."""
    from typhoon.games.tmc import setup_phase as sp

    rng = random.Random(seed)
    s = new_game(scenario, options)
    checked = 0
    while s.phase_spec.kind == "setup" and not s.is_terminal:
        u = sp.next_unit(s)
        if u >= 0:
            assert sp.place_hexes(s, u) == _place_hexes_reference(s, u), (s.rules.units[u].id, checked)
            checked += 1
        acts = [a for a in legal_actions(s) if a.kind != "setupstandard"] or legal_actions(s)
        s = apply_unchecked(s, acts[rng.randrange(len(acts))])
    assert checked > 100


def test_overrun_candidates_memo_sees_entraining() -> None:
    """Entraining changes no stack but bars the unit from attacking ([Q56]): the memoised
    candidates must follow (the unit's entrained bit is in the memo's key)."""
    rng = random.Random(2)
    s = new_game("1")
    while not (s.phase_spec.kind == "movement" and s.side == SOVIET and s.step == MOVE):
        s = _random_step(s, rng)
    legal_actions(s)
    grid = s.rules.grid
    targets = grid.expand(s.occ[SOVIET]) & s.occ[1 - SOVIET]
    h, u = next(
        (h, cands[0])
        for h in range(grid.size)
        if (targets >> h) & 1 and (cands := movement_phase.overrun_candidates(s, h))
    )
    s.entrained |= 1 << u  # what rail.apply does for Entrain, then _drop -> keep_facts
    moving.keep_facts(s, s._cache, (u,))
    cold = s.copy()
    cold._cache = {}
    got = movement_phase.overrun_candidates(s, h)
    assert u not in got
    assert got == movement_phase.overrun_candidates(cold, h)


@pytest.mark.parametrize("partial", ["yes", "no"])
def test_rail_search_depth_equals_rail_cost(partial: str) -> None:
    """The rail search stops at the most hexes the MP pay for, worked out once per search
    instead of asking rail_cost at every step: the same bound for every budget."""
    s = new_game("1", {"rail_partial_mp": partial})
    for budget in range(-5, 2000):
        far = rail._rail_hexes_for(s, budget)
        assert rail.rail_cost(s, far + 1) > budget
        assert far < 0 or rail.rail_cost(s, far) <= budget


@pytest.mark.parametrize(
    ("scenario", "seed", "options"), [("1", 21, None), ("1", 22, {"rail_partial_mp": "no"})]
)
def test_relocation_hexes_equal_reference(scenario: str, seed: int, options: dict[str, str] | None) -> None:
    """relocation_hexes (usable rail less German and full hexes) equals the stack-by-stack test."""
    rng = random.Random(seed)
    s = new_game(scenario, options)
    seen = 0
    for _ in range(2500):
        if s.is_terminal:
            break
        if s.phase_spec.kind == "movement":
            stacks = s.stacks
            want = [
                h
                for h in range(s.rules.grid.size)
                if (rail.usable_rail(s) >> h) & 1
                and not (s.occ[GERMAN] >> h) & 1
                and len(stacks.get(h, ())) < STACK_LIMIT
            ]
            assert rail.relocation_hexes(s) == want
            seen += 1
        s = _random_step(s, rng)
    assert seen > 100


def test_one_hex_in_mud_equals_reference() -> None:
    """German units in mud ([Q48], GT 6-15) take the one-hex search: the same left and
    parent dicts (in order), destinations, moves and paths as the reference, at the German
    movement phases of a random scenario-1 game from GT 6 on."""
    rng = random.Random(31)
    s = new_game("1")
    compared = 0
    seen: set[tuple[int, int]] = set()
    while not s.is_terminal:
        if s.is_chance:
            s = _random_step(s, rng)
            continue
        mud = s.turn >= 6 and s.side == 0 and s.phase_spec.kind == "movement" and s.step == MOVE
        if mud and ((s.turn, s.phase) not in seen or rng.random() < 0.05):
            seen.add((s.turn, s.phase))
            t = s.copy()
            t._cache = {}
            for u in t.rules.side_units[t.side]:
                if movement_phase.may_move(t, u):
                    got = movement_phase.reach(t, u)
                    ref = movement_phase.reach_reference(t, u)
                    assert list(got.left.items()) == list(ref.left.items())
                    assert list(got.parent.items()) == list(ref.parent.items())
                    assert got.dsts == ref.dsts and got.moves == ref.moves
                    assert all(got.path(d) == ref.path(d) for d in ref.dsts)
                    compared += 1
        acts = legal_actions(s)
        s = apply_unchecked(s, acts[rng.randrange(len(acts))])
    assert compared > 200


@pytest.mark.parametrize("ticks", [0, 60, 119, 120, 250])
def test_flood_with_less_than_one_mp(ticks: int) -> None:
    """A unit with under 1 MP that has not moved still has its [Q4] one-hex moves, also into
    the neighbouring columns (the flood's window spans at least one column either side)."""
    rng = random.Random(5)
    s = new_game("1")
    while not (s.phase_spec.kind == "movement" and s.step == MOVE):
        s = _random_step(s, rng)
    compared = 0
    for u in s.rules.side_units[s.side]:
        t = s.copy()
        t._cache = {}
        if not movement_phase.may_move(t, u):
            continue
        moving.allowance(t, u)  # fill the memo, then make the allowance ``ticks``
        memo = t._cache["allow"]
        for key in memo:
            if key[0] == u:
                memo[key] = ticks
        got = movement_phase.reach(t, u)
        ref = movement_phase.reach_reference(t, u)
        assert got.dsts == ref.dsts and dict(got.left) == ref.left and got.parent == ref.parent
        compared += 1
    assert compared > 50
