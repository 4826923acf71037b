"""Battle for Moscow's native core (issue 17) against the Python engine, position by position.

The Python engine is the reference. At every position of many random games of both editions
(set-up included, with several option sets) the core's legal codes must be exactly the env
codec's codes of ``legal_actions`` (as a set: no code missing, none extra, no repeats), and
applying the same action must give the same position, field by field. Hand-worked positions
from the rules tests (rule sections cited) are checked with *every* legal action applied.

Skipped (except the fallback tests) when the extension is not built; ``TYPHOON_NO_NATIVE=1``
forces the fallback.
"""

from __future__ import annotations

import contextlib
import random
import tracemalloc
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from typhoon.games.bfm import native
from typhoon.games.bfm.engine import apply_unchecked, legal_actions, new_game
from typhoon.games.bfm.rules import load_rules
from typhoon.games.bfm.state import CHOOSE, State

pytest.importorskip("numpy")
from typhoon.games.bfm.env import native as bn  # noqa: E402  (the env adapter makes the core's tables)

needs_native = pytest.mark.skipif(not native.available(), reason=native.why_unavailable() or "native")

# Every field of the position: the State's slots less the rules and the caches (a field added
# to State is compared here without a change to this test).
FIELDS = tuple(f for f in State.__slots__ if f not in ("rules", "_cache", "_legal"))

OPTION_SETS: tuple[tuple[str, Mapping[str, str]], ...] = (
    ("gdw1986", {}),
    ("vpg2009", {}),
    ("gdw1986", {"retreat_extension": "two_beyond_occupied"}),
    (
        "gdw1986",
        {
            "soviet_replacements": "3",
            "german_replacements": "turns_2_4_6",
            "crt_4to1_die3": "EX",
            "half_strength_7_4": "3",
            "xxii_corps": "7-4",
        },
    ),
    ("vpg2009", {"retreat_extension": "two_beyond_occupied", "first_shock_strength": "half"}),
    ("vpg2009", {"turn1_combat_first": "no", "soviet_replacements": "4", "crt_4to1_die3": "DR"}),
)


def codec(s: State) -> Any:
    from typhoon.games.bfm.env.actions import codec_for

    return codec_for(s.rules)


def differences(a: State, b: State) -> list[str]:
    return [f for f in FIELDS if getattr(a, f) != getattr(b, f)]


def assert_same_legal(s: State, core: Any) -> list[int]:
    """The core's legal codes equal the codec's codes of the engine's legal list; returns the
    engine's codes (in the engine's order)."""
    py = [int(c) for c in codec(s).legal_codes(s)]
    got = core.legal_codes()
    assert len(got) == len(set(got)), "the core lists a code twice"
    if set(py) != set(got):
        c = codec(s)
        missing = [c.decode(s, x) for x in sorted(set(py) - set(got))[:5]]
        extra = [c.decode(s, x) for x in sorted(set(got) - set(py))[:5]]
        raise AssertionError(f"legal sets differ in {s!r}: core lacks {missing}, core adds {extra}")
    assert core.num_legal() == len(py)
    return py


def assert_same_state(s: State, core: Any) -> None:
    t = native.to_state(core, s.rules)
    diff = differences(s, t)
    assert not diff, (
        f"fields {diff} differ: engine {[getattr(s, f) for f in diff]}, core {[getattr(t, f) for f in diff]}"
    )
    assert t == s  # key(): every field but the caches
    assert core.result == (-1 if s.result is None else ("german", "soviet", "draw").index(s.result))
    assert core.current_player() == s.current_player()
    assert core.is_chance == s.is_chance


def walk(
    edition: str,
    options: Mapping[str, str],
    seed: int,
    *,
    end_bias: float = 0.0,
    roundtrip_every: int = 0,
) -> int:
    """One random game through both engines, checked at every position; returns the number
    of positions. ``end_bias``: the chance of choosing End when it is legal (shorter phases,
    other positions)."""
    rng = random.Random(seed)
    s = new_game(edition, options)
    core = bn.from_state(s)
    from typhoon.games.bfm.env.actions import END_CODE as end

    n = 0
    while True:
        codes = assert_same_legal(s, core)
        assert_same_state(s, core)
        if roundtrip_every and n % roundtrip_every == 0:  # a core made here, its caches cold
            fresh = bn.from_state(s)
            assert fresh.export() == core.export()
            assert sorted(fresh.legal_codes()) == sorted(codes)
        n += 1
        acts = legal_actions(s)
        if not acts:
            return n
        if end_bias and end in codes and rng.random() < end_bias:
            i = codes.index(end)
        else:
            i = rng.randrange(len(acts))
        s = apply_unchecked(s, acts[i])
        core.apply(codes[i])


# -- whole games -----------------------------------------------------------------------------


@needs_native
@pytest.mark.parametrize(
    "edition,options", OPTION_SETS, ids=[f"{e}-{i}" for i, (e, _) in enumerate(OPTION_SETS)]
)
def test_random_games_match_the_engine_at_every_position(edition: str, options: Mapping[str, str]) -> None:
    """Random games from the start of the Soviet set-up to the end: every position's legal set
    and every action's result are the engine's (about 500 positions a game)."""
    games = 12 if not options else 4
    total = sum(walk(edition, options, 1000 + i, roundtrip_every=25) for i in range(games))
    assert total > 300 * games


@needs_native
@settings(max_examples=25, deadline=None)
@given(
    case=st.sampled_from(OPTION_SETS),
    seed=st.integers(0, 2**32 - 1),
    end_bias=st.sampled_from([0.0, 0.05, 0.3, 0.8]),
)
def test_hypothesis_walks(case: tuple[str, Mapping[str, str]], seed: int, end_bias: float) -> None:
    """Hypothesis chooses the ruleset, the seed and how eagerly phases are ended (short phases
    leave units crowded, long ones spread them out)."""
    edition, options = case
    walk(edition, options, seed, end_bias=end_bias)


@needs_native
def test_copy_is_independent_and_plays_on_identically() -> None:
    s = new_game("vpg2009")
    core = bn.from_state(s)
    rng = random.Random(5)
    for _ in range(150):
        codes = core.legal_codes()
        core.apply(codes[rng.randrange(len(codes))])
    before = core.export()
    twin = core.copy()
    assert twin.export() == before
    codes = twin.legal_codes()
    twin.apply(codes[0])
    assert core.export() == before  # the original did not move
    core.apply(codes[0])
    assert core.export() == twin.export()


# -- hand-worked positions (every legal action applied in both engines) -----------------------


def check_every_child(s: State) -> int:
    """The legal set of ``s``, and the position after each legal action, are the engine's."""
    core = bn.from_state(s)
    codes = assert_same_legal(s, core)
    assert_same_state(s, core)
    for code, a in zip(codes, legal_actions(s), strict=True):
        child = core.copy()
        child.apply(code)
        t = apply_unchecked(s, a)
        assert_same_state(t, child)
        assert_same_legal(t, child)
    return len(codes)


CHAIN_1 = (
    "bfm ed=gdw1986 opt=- t=3 ph=german_movement G=XXIV@0307,XLI@0407,LVII@0410,XLVI@0308!,XLVII@0208,"
    "LVI@0409,XL@0308,XLVIII@0110,XXII@0310,XXXV@0206!,VII@0205,VIII@0105!,IX@0406,V@0202,XIII@0104,"
    "XX@0305,XXVII@0306,LIII@0101!,VI@0210,XII@0203,XXXIV@0207!,XLII@0209 S=3A@0504/h,5A@0301,13A@0503/h,"
    "16A@0506/h,19A@1401/h,20A@0502/h,24A@0304/h,29A@1104/h,30A@0510/h,33A@0505/h,40A@0509/h,43A@0507/h,"
    "49A@0805/h,50A@0405/h ctl=0204,0307 repl=0 arr=- stack=XL step=declare battles=- cur=- res=-"
)
CHAIN_2 = (
    "bfm ed=gdw1986 opt=- t=3 ph=german_movement G=XXIV@0205,XLI@0105,LVII@0310,XLVI@0309,XLVII@0102,"
    "LVI@0310!,XL@0103,XLVIII@0305,XXII@0202,XXXV@0209,VII@0108,VIII@0110/h,IX@0204,V@0206,XIII@0404,"
    "XX@0106,LIII@0104,VI@0210,XII@0407,XXXIV@0307,XLII@0406 S=5A@0610,10A@1006/h,13A@0302,16A@0301/h,"
    "19A@0707/h,20A@0506/h,24A@1402/h,29A@0508/h,30A@0405/h,32A@0803/h,33A@0710/h,43A@0805/h,49A@1410/h,"
    "50A@0606/h ctl=0204,0307 repl=0 arr=- stack=LVII step=declare battles=- cur=- res=-"
)


def _positions() -> dict[str, State]:
    from rules.helpers import act, fight, pos
    from typhoon.games.bfm.notation import position_from_text

    def declared(ed: str) -> State:
        s = pos(G="XLVII@1108,XXXV@1207,XXIV@0101", S="16A@1208,3A@0102/h", t=3, ed=ed)
        s = act(s, "attack XLVII 1208")[0]
        s = act(s, "attack XXXV 1208")[0]
        s = act(s, "attack XXIV 0102")[0]  # nothing else can attack: the engine closes the declarations
        assert s.cstep == CHOOSE  # two battles wait: resolving one works out its odds
        return s

    def dr(G: str, S: str, target: str, opt: str = "-") -> State:
        return fight(pos(G=G, S=S, t=2, opt=opt), target, "XL", die=1)[0]

    return {
        # «Зона контроля» / "Zone of control": entering an enemy zone ends the move; XXXV reaches
        # 1407 but not 1408 past 16A's zone (tests/rules/test_zoc.py).
        "zoc": pos(G="XXXV@1006", S="16A@1208/h", t=5, ph="german_movement"),
        # "Movement": a forest hex costs 2; a panzer has 6 points (test_movement.py).
        "forest": pos(G="XLVII@0602", S="16A@1410/h", t=5, ph="german_movement"),
        # "Mud": one hex per movement phase whatever the terrain (turn 3 is mud).
        "mud": pos(G="XLVII@0602,XXXV@1006", S="16A@1208/h", t=3, ph="german_movement"),
        # "Soviet rail movement": only units beginning on a rail hex, along the line.
        "rail": pos(G="XXIV@0101", S="5A@1103/h,3A@0907/h,10A@1410/h", t=5, ph="soviet_rail_movement"),
        # The Python engine's reading for a unit standing on an enemy-held city (a position no
        # game reaches: a unit always holds its own city): by rail its own hex is a move (it takes
        # the city), on foot it is not (reach_on_grid never counts the start as passed).
        "rail_own_city": pos(
            G="XXIV@0101", S="5A@1103/h", t=5, ph="soviet_rail_movement", ctl="0204,0307,1103"
        ),
        # "Movement": a unit may end on a friendly unit that has not moved, which then moves off.
        "stack": pos(G="XXIV@0101", S="5A@1208/h,3A@1308/h,10A@1410/h", t=5, ph="soviet_movement"),
        "crowd": pos(
            G="XXIV@1110",
            S="5A@1208/h,3A@1308/h,10A@1209/h,13A@1309/h,16A@1207/h,19A@1307/h",
            t=5,
            ph="soviet_movement",
        ),
        # Cities change hands when entered: a move names the enemy-held cities it passes.
        "via": pos(G="XLVII@0204", S="16A@1410/h", t=5, ph="german_movement", ctl="-"),
        # «Результаты боя», DR: nine two-hex retreats, none into XL's zone (test_retreat.py).
        "retreat": dr("XL@1108,XXIV@0101", "16A@1208,3A@1410/h", "1208"),
        # DR ending on a friendly unit goes two more hexes (long retreat codes, ranked).
        "retreat_long": dr("XL@0606,XXIV@0101", "16A@0707,3A@0907/h,5A@1107/h,10A@1106/h,13A@1108/h", "0707"),
        # The other reading of the extension (option retreat_extension, issue 15).
        "retreat_beyond": dr(
            "XL@0606,XXIV@0101", "16A@0707,3A@0907/h", "0707", opt="retreat_extension:two_beyond_occupied"
        ),
        # Combat declaration: each unit attacks once, each enemy is attacked once.
        "declare": pos(G="XL@1108,XXIV@1207,XLVII@1309", S="16A@1208,3A@1308/h", t=2),
        # "Replacements": rebuild on the edge or a friendly city in communication; restore.
        "replacement": pos(
            G="XXIV@1208", S="5A@1305/h,3A@0907/h", t=4, ph="soviet_replacement", repl=5, ctl="0204,0307"
        ),
        # "Mud" and "Movement" together: one hex a phase in a crowded German line, so a unit may
        # only end on a friendly unit that can itself move off along a chain of such moves
        # (positions reached by random play; the chain rule is movement_phase._Chains).
        "chain": position_from_text(CHAIN_1),
        "chain_stack": position_from_text(CHAIN_2),
        # "Mud" in combat: GDW halves every attacker, VPG only panzers (the odds column, so the
        # result of each die, follows).
        "mud_combat_gdw": declared("gdw1986"),
        "mud_combat_vpg": declared("vpg2009"),
        # VPG: 1st Shock Army arrives free in the Soviet replacement phase of turn 4.
        "reinforce": pos(G="XXIV@1208", S="5A@1305/h", t=4, ph="soviet_replacement", ed="vpg2009", repl=4),
    }


@needs_native
@pytest.mark.parametrize(
    "name",
    [
        "zoc",
        "forest",
        "mud",
        "rail",
        "rail_own_city",
        "stack",
        "crowd",
        "chain",
        "chain_stack",
        "via",
        "retreat",
        "retreat_long",
        "retreat_beyond",
        "declare",
        "mud_combat_gdw",
        "mud_combat_vpg",
        "replacement",
        "reinforce",
    ],
)
def test_hand_worked_positions(name: str) -> None:
    s = _positions()[name]
    assert check_every_child(s) >= 1


@needs_native
def test_hand_worked_zoc_codes() -> None:
    """«Зона контроля»: XXXV (1006) reaches 1407 but not 1408 (16A in 1208 stops it at 1207
    and 1308); the core says so in codes."""
    s = _positions()["zoc"]
    c = codec(s)
    core = bn.from_state(s)
    got = {c.decode(s, x).dst for x in core.legal_codes() if c.decode(s, x).kind == "move"}
    assert "1207" in got and "1407" in got and "1408" not in got


@needs_native
def test_end_of_game_victory() -> None:
    """ "Victory conditions": at the end of the last turn whoever holds Moscow wins (GDW); the
    last phase ends with the Soviet movement phase of turn 7."""
    from rules.helpers import pos

    for ctl, want in (("0204,0307", "soviet"), ("0204,0307,1103", "german")):
        s = pos(G="XXIV@0101", S="5A@1410/h", t=7, ph="soviet_movement", ctl=ctl)
        check_every_child(s)
        core = bn.from_state(s)
        core.apply(6)  # End
        assert native.to_state(core, s.rules).result == want


@needs_native
def test_vpg_victory_needs_moscow_and_another_city() -> None:
    """VPG/C3i "Victory": the German wins with Moscow; the Soviet wins with Moscow and at least
    one other city; otherwise a draw."""
    from rules.helpers import pos

    rules = load_rules("vpg2009")
    ids = rules.map.grid.ids
    moscow = {ids[h] for h in rules.map.moscow}
    others = [ids[c.hex] for c in rules.map.cities if ids[c.hex] not in moscow]
    for german, want in ((others, "draw"), (others[1:], "soviet"), (others + sorted(moscow), "german")):
        s = pos(G="XXIV@0101", S="5A@1410/h", t=7, ph="soviet_movement", ed="vpg2009", ctl=",".join(german))
        check_every_child(s)
        core = bn.from_state(s)
        core.apply(6)  # End: the last phase of the last turn
        assert native.to_state(core, rules).result == want


# -- fully native loop -------------------------------------------------------------------------


@needs_native
def test_random_games_native_loop() -> None:
    rules = load_rules("gdw1986")
    got = bn.random_games(rules, 20, seed=3)
    assert got.german + got.soviet + got.draw == 20
    assert got.actions > 20 * 200
    assert bn.random_games(rules, 20, seed=3) == got  # seeded
    core = bn.new_core(load_rules("vpg2009"))
    result, n = core.playout(9)
    assert result in (0, 1, 2) and n > 100 and core.result == result and core.legal_codes() == []


# -- bad input ---------------------------------------------------------------------------------


@needs_native
def test_bad_input_raises_typed_errors() -> None:
    from typhoon.games.bfm import _bfmcore  # type: ignore[attr-defined]

    s = new_game()
    core = bn.from_state(s)
    with pytest.raises(_bfmcore.IllegalCodeError) as e:
        core.apply(6)  # End is not legal in the set-up
    assert isinstance(e.value, ValueError)
    for bad in (-1, 10**30, 27383):
        with pytest.raises(ValueError):
            core.apply(bad)
    with pytest.raises(TypeError):
        core.apply("end")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        bn.from_state("not a state")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _bfmcore.Core("not tables")
    with pytest.raises(TypeError):
        _bfmcore.Core(bn.tables(s.rules), "not fields")
    fields = list(native.fields(s))
    fields[2] = [500] * len(s.loc)  # hexes off the map
    with pytest.raises(ValueError):
        _bfmcore.Core(bn.tables(s.rules), tuple(fields))
    fields = list(native.fields(s))
    fields[5] = [1, 0, 0]  # occ disagreeing with the units
    with pytest.raises(ValueError):
        _bfmcore.Core(bn.tables(s.rules), tuple(fields))
    with pytest.raises((KeyError, ValueError, TypeError)):
        _bfmcore.Tables({"size": 10})
    with pytest.raises(ValueError):
        _bfmcore.Core(_bfmcore.Tables.__new__(_bfmcore.Tables))  # not initialised
    with pytest.raises(TypeError):
        bn.tables(s.rules).__init__({})  # cores hold the tables: they never change
    with pytest.raises(ValueError):
        core.observe(bytearray(10), 0)  # the wrong size (or no observation layout yet)
    with pytest.raises(ValueError):
        core.legal_mask(bytearray(10))  # smaller than the action space
    with pytest.raises((TypeError, BufferError)):
        core.legal_mask(b"immutable")
    done = bn.new_core(s.rules)
    done.playout(1)
    with pytest.raises(_bfmcore.IllegalCodeError):
        done.apply(0)
    assert native.to_state(core, s.rules) == s  # refused actions changed nothing


@needs_native
def test_no_leak_across_the_python_boundary() -> None:
    """Making, stepping, exporting and dropping cores many times keeps memory flat (the
    core's own allocations go through PyMem, which tracemalloc sees)."""
    rules = load_rules("gdw1986")
    s = new_game("gdw1986")
    mask = bytearray(27383)

    def churn(k: int) -> None:
        for i in range(k):
            core = bn.from_state(s)
            for _ in range(60):
                codes = core.legal_codes()
                core.apply(codes[i % len(codes)])
            core.legal_mask(mask)
            native.to_state(core, rules)
            core.copy().export()
            with contextlib.suppress(ValueError):
                core.apply(-5)

    churn(30)
    tracemalloc.start()
    churn(30)
    base = tracemalloc.get_traced_memory()[0]
    churn(200)
    grown = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    assert grown < 200_000, f"{grown} bytes kept after 200 cores"


# -- the fallback ------------------------------------------------------------------------------


def test_no_native_forces_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYPHOON_NO_NATIVE", "1")
    assert not native.available()
    assert "TYPHOON_NO_NATIVE" in native.why_unavailable()
    with pytest.raises(RuntimeError):
        bn.new_core(load_rules("gdw1986"))
