"""Random-play invariants over many full games (issue 2, item 10), plus differential checks of
the engine's movement, retreat and odds against the reference implementations in helpers.py
(written from the rules, not from the engine).

Every game ends with a result; never two units in a hex except the one waiting to move off
during a movement phase (and never at a phase end); never units of both sides in one hex; step
counts valid; a unit standing in a city means its side controls it; 1st Shock Army not on the
map before turn 4 (GDW); the legal list is never empty and has no duplicates; the action
played applies; a stale action is refused without changing the state; every record replays to
the same final position.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from typhoon.errors import IllegalActionError
from typhoon.game import CHANCE, Game
from typhoon.games.bfm import movement_phase
from typhoon.games.bfm.actions import Attack, Move, Rebuild, Restore, Retreat, Roll
from typhoon.games.bfm.engine import apply, legal_actions
from typhoon.games.bfm.notation import action_to_text, position_to_text
from typhoon.record import Record

from .helpers import (
    GDW,
    VPG,
    act,
    fight,
    phase,
    pos,
    ref_destinations,
    ref_moves_with_via,
    ref_odds,
    ref_replacement_actions,
    ref_retreats,
    rules_for,
    step,
)

GAMES = {GDW: 16, VPG: 10}


def check_state(s) -> None:  # type: ignore[no-untyped-def]
    r = s.rules
    g = r.map.grid
    where: dict[int, list[int]] = {}
    for u, spec in enumerate(r.units):
        h = s.loc[u]
        if h < 0:
            assert s.steps[u] == 0, f"{spec.id} off the map with steps"
            continue
        assert s.steps[u] in (1, 2), f"{spec.id} has {s.steps[u]} steps"
        assert g.ids[h] in g.index, f"{spec.id} on a slot that is not a hex"
        where.setdefault(h, []).append(u)
    for h, us in where.items():
        assert len({r.units[u].side for u in us}) == 1, f"enemies share {g.ids[h]}"
        if len(us) > 1:
            assert len(us) == 2 and s.stack in us, f"two units in {g.ids[h]}"
            assert r.phases[s.phase].kind == "movement"
        city = s.city_controller_at(h)
        if city is not None and s.stack < 0:
            assert city == r.units[us[0]].side, f"{g.ids[h]} held by the other side's unit"
    if r.edition == GDW and s.turn < 4:
        assert s.loc[r.unit_index["1SA"]] < 0
    assert 0 <= s.turn <= 7


def check_movement(s, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """Engine destinations (friendly units ignored) against the reference search, for up to
    two movable units; and every legal move ends on an empty hex or an unmoved friend."""
    if s.stack >= 0:
        return
    r = s.rules
    units = [u for u in r.side_units[s.side] if movement_phase.movable(s, u)]
    for u in rng.sample(units, min(2, len(units))):
        um = movement_phase.options(s, u)
        got = {m.dst for m in um.moves if m.dst != m.src}
        assert got == ref_destinations(s, r.units[u].id), position_to_text(s)


def check_moves_end_legally(s, acts) -> None:  # type: ignore[no-untyped-def]
    r = s.rules
    for a in acts:
        if action_to_text(a).startswith("move "):
            z = s.at[r.map.idx(a.dst)]
            if a.dst == a.src:
                continue
            assert z < 0 or (r.units[z].side == s.side and movement_phase.movable(s, z)), action_to_text(a)


def play_one(edition: str, seed: int) -> Game:
    rng = random.Random(seed * 7919 + 1)
    g = Game(edition=edition, seed=seed)
    previous: list = []
    steps_taken = 0
    while not g.is_over:
        s = g.state
        check_state(s)
        if g.current_player() == CHANCE:
            g.roll()
            continue
        acts = g.legal_actions()
        texts = [action_to_text(a) for a in acts]
        assert acts and len(texts) == len(set(texts)), position_to_text(s)
        kind = s.rules.phases[s.phase].kind
        if kind == "movement" and rng.random() < 0.05:
            check_movement(s, rng)
        if kind == "movement" and rng.random() < 0.1:
            check_moves_end_legally(s, acts)
        if kind == "combat" and step(s) == "retreat":
            assert set(texts) == ref_retreats(s, s.rules.units[s.cur.defender].id), position_to_text(s)
        if "end" in texts:
            assert s.stack < 0
        if previous and steps_taken % 25 == 0:
            stale = [a for a in previous if action_to_text(a) not in set(texts)]
            if stale:
                before = s.key()
                with pytest.raises(IllegalActionError):
                    apply(s, rng.choice(stale))
                assert s.key() == before
        a = acts[rng.randrange(len(acts))]
        events = g.play(a)
        for e in events:
            if e.kind == "battle":
                d = e.data
                attack, column, final = ref_odds(s, d["defender"], d["attackers"])
                assert (d["attack"], d["column"], d["final"]) == (attack, column, final), position_to_text(s)
        previous = acts
        steps_taken += 1
    check_state(g.state)
    return g


@pytest.mark.parametrize("edition", [GDW, VPG])
def test_random_games(edition: str) -> None:
    """Full random games: the invariants above at every step, then the result and the record.
    GDW ends with a German or Soviet win (whoever holds Moscow); VPG may also end in a draw."""
    results = set()
    for seed in range(GAMES[edition]):
        g = play_one(edition, seed)
        s = g.state
        assert s.is_terminal and s.turn == 7 and phase(s) == "soviet_movement"
        moscow = "german" if s.city_controller_at(s.rules.map.idx("1103")) == 0 else "soviet"
        if edition == GDW:
            assert s.result == moscow
        else:
            assert s.result == "german" if moscow == "german" else s.result in ("soviet", "draw")
        results.add(s.result)
        replayed = Record.from_text(Record.from_game(g).to_text()).replay()
        assert replayed.state == s
        assert position_to_text(replayed.state) == position_to_text(s)
    assert results  # at least one game finished


# -- malformed actions (issue 2, item 6) ------------------------------------------------------


def _states():  # type: ignore[no-untyped-def]
    base = pos(G="XL@1108,XXIV@0101", S="16A@1208,3A@1410/h", t=2)
    return {
        "movement": pos(G="XXIV@1010,XLI@1306", S="5A@1008/h", t=5, ph="soviet_movement"),
        "declare": base,
        "roll": fight(base, "1208", "XL")[0],
        "retreat": fight(base, "1208", "XL", die=1)[0],
        "replacement": pos(G="XXIV@0202", S="5A@1408/h", t=2, ph="soviet_replacement", repl=5),
    }


def _malformed():  # type: ignore[no-untyped-def]
    return [
        pytest.param("movement", None, id="none"),
        pytest.param("movement", "end", id="a-string"),
        pytest.param("movement", ("end",), id="a-tuple"),
        pytest.param("movement", Move("5A", "1008", "1108", "1107"), id="move-via-str"),
        pytest.param("movement", Move(5, "1008", "1108"), id="move-unit-int"),  # type: ignore[arg-type]
        pytest.param("movement", Move("5A", None, None), id="move-none"),  # type: ignore[arg-type]
        pytest.param("movement", Move("5A", "1008", "1108", None), id="move-via-none"),  # type: ignore[arg-type]
        pytest.param("movement", Move(["5A"], "1008", "1108"), id="move-unit-list"),  # type: ignore[arg-type]
        pytest.param("declare", Attack("XL", 1208), id="attack-hex-int"),  # type: ignore[arg-type]
        pytest.param("roll", Roll(7), id="roll-7"),
        pytest.param("roll", Roll(0), id="roll-0"),
        pytest.param("roll", Roll("3"), id="roll-str"),  # type: ignore[arg-type]
        pytest.param("roll", Roll(None), id="roll-none"),  # type: ignore[arg-type]
        pytest.param("roll", Roll(3.5), id="roll-float"),  # type: ignore[arg-type]
        pytest.param("retreat", Retreat(None), id="retreat-none"),  # type: ignore[arg-type]
        pytest.param("retreat", Retreat(("1309", 1409)), id="retreat-int-hex"),  # type: ignore[arg-type]
        pytest.param("retreat", Retreat("1309-1409"), id="retreat-str"),  # type: ignore[arg-type]
        pytest.param("replacement", Rebuild("16A", None), id="rebuild-none"),  # type: ignore[arg-type]
        pytest.param("replacement", Restore(None), id="restore-none"),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize(("where_", "action"), _malformed())
def test_malformed_action_raises_illegal_action_error(where_: str, action) -> None:  # type: ignore[no-untyped-def]
    """Issue 2, item 6 (and the engine's apply docstring): applying an illegal *or malformed*
    action raises IllegalActionError (a TyphoonError) and leaves the state untouched. Actions
    with fields of the wrong type are malformed actions a program can build."""
    s = _states()[where_]
    before = s.key()
    with pytest.raises(IllegalActionError):
        apply(s, action)
    assert s.key() == before


# -- differential checks on random positions (hypothesis) -------------------------------------

_CITY_IDS = ["0204", "0307", "0509", "0601", "0603", "0803", "0805", "0809", "1103", "1107", "1405"]


@st.composite
def random_position(draw, phases: list[str]):  # type: ignore[no-untyped-def]
    """A random legal-looking position: a few units of each side on distinct hexes, random
    strengths, random city control, a random turn and one of ``phases``."""
    ed = draw(st.sampled_from([GDW, VPG]))
    r = rules_for(ed)
    hexes = sorted(r.map.grid.index)
    german = [u.id for u in r.units if u.side == 0]
    soviet = [u.id for u in r.units if u.side == 1]
    ng = draw(st.integers(1, 7))
    ns = draw(st.integers(1, 7))
    spots = draw(st.lists(st.sampled_from(hexes), min_size=ng + ns, max_size=ng + ns, unique=True))
    gu = draw(st.lists(st.sampled_from(german), min_size=ng, max_size=ng, unique=True))
    su = draw(st.lists(st.sampled_from(soviet), min_size=ns, max_size=ns, unique=True))
    halves = draw(st.lists(st.booleans(), min_size=ng + ns, max_size=ng + ns))
    entries = [f"{u}@{h}" + ("/h" if half else "") for u, h, half in zip(gu + su, spots, halves)]
    ctl = draw(st.lists(st.sampled_from(_CITY_IDS), unique=True))
    # a city holding a unit is that unit's side's
    occupied = dict(zip(spots, [0] * ng + [1] * ns))
    ctl = [c for c in ctl if occupied.get(c, 0) == 0] + [c for c in _CITY_IDS if occupied.get(c) == 0]
    return pos(
        ed=ed,
        G=",".join(entries[:ng]),
        S=",".join(entries[ng:]),
        t=draw(st.integers(1, 7)),
        ph=draw(st.sampled_from(phases)),
        ctl=",".join(sorted(set(ctl))) or "-",
        arr="1SA" if "1SA" in su else "-",  # on the map means it has arrived
    )


MOVEMENT_PHASES = ["german_panzer_movement", "german_movement", "soviet_rail_movement", "soviet_movement"]


@given(random_position(MOVEMENT_PHASES), st.data())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_positions_movement(s, data) -> None:  # type: ignore[no-untyped-def]
    """«Движение», «Зона контроля», «Железнодорожное движение», «Грязь»: in random positions
    every movable unit's destinations equal the reference search; outside mud and rail the
    (destination, cities passed) pairs equal the exhaustive walk search; and no unit of
    another kind (panzers only in the panzer phase, rail hexes only in the rail phase) or side
    may move."""
    r = s.rules
    spec = r.phases[s.phase]
    for u in r.side_units[spec.side]:
        if s.loc[u] < 0:
            continue
        eligible = (spec.movers != "panzer" or r.units[u].panzer) and (
            spec.movers != "rail" or r.map.is_rail(s.loc[u])
        )
        assert movement_phase.movable(s, u) == eligible
        if not eligible:
            continue
        uid = r.units[u].id
        got = {m.dst for m in movement_phase.options(s, u).moves if m.dst != m.src}
        assert got == ref_destinations(s, uid), position_to_text(s)
    movers = [u for u in r.side_units[spec.side] if movement_phase.movable(s, u)]
    if movers and spec.movers != "rail" and not s.is_mud():
        u = data.draw(st.sampled_from(movers))
        uid = r.units[u].id
        got_via = {(m.dst, frozenset(m.via)) for m in movement_phase.options(s, u).moves}
        assert got_via == ref_moves_with_via(s, uid), position_to_text(s)
    for u in r.side_units[1 - spec.side]:
        assert not movement_phase.movable(s, u)


@given(random_position(["german_combat", "soviet_combat"]), st.data())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_positions_odds_and_retreats(s, data) -> None:  # type: ignore[no-untyped-def]
    """«Бой», «Влияние местности», «Грязь», оО: in random positions, attack a random enemy
    unit with every adjacent unit: the odds equal the reference computation; when a DR
    follows (die 1 is a DR or DRL on every column), the retreat paths offered equal the
    reference retreat search."""
    r = s.rules
    side = r.phases[s.phase].side
    g = r.map.grid
    targets = []
    for d in r.side_units[1 - side]:
        if s.loc[d] < 0:
            continue
        atk = [a for a in r.side_units[side] if s.loc[a] >= 0 and g.adjacent(s.loc[a], s.loc[d])]
        if atk:
            targets.append((d, atk))
    if not targets:
        return
    d, atk = data.draw(st.sampled_from(targets))
    did, hid = r.units[d].id, g.ids[s.loc[d]]
    aids = [r.units[a].id for a in atk]
    x = s
    events: list = []
    for a in aids:
        x, ev = act(x, f"attack {a} {hid}")
        events += ev
    if step(x) == "declare":
        x, ev = act(x, "end")
        events += ev
    if step(x) == "choose":
        x, ev = act(x, f"resolve {hid}")
        events += ev
    battle = [e.data for e in events if e.kind == "battle"][-1]
    attack, column, final = ref_odds(s, did, aids)
    assert (battle["attack"], battle["column"], battle["final"]) == (attack, column, final)
    if step(x) != "roll":
        assert final < 1
        return
    x, ev = act(x, "roll 1")
    result = [e.data["result"] for e in ev if e.kind == "roll"][-1]
    assert result in ("DR", "DRL")
    if step(x) == "standfast":  # VPG major city: the defender may choose
        assert r.edition == VPG and hid in ("1103", "1107") and result == "DR"
        return
    paths = ref_retreats(s, did)  # nothing has moved since the battle began
    survives = result == "DR" or s.steps[d] == 2
    if not survives or not paths:
        assert x.loc[d] < 0
    elif len(paths) == 1:  # one answer: the engine takes it
        assert g.ids[x.loc[d]] == next(iter(paths)).split("-")[-1]
    else:
        assert step(x) == "retreat" and legal_texts(x) == paths


def legal_texts(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {action_to_text(a) for a in legal_actions(s)}


@given(random_position(["german_replacement", "soviet_replacement"]), st.integers(0, 5))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_positions_replacements(s, repl: int) -> None:  # type: ignore[no-untyped-def]
    """«Пополнения»: in random positions the replacement phase offers exactly the rebuilds
    (eliminated units, 1st Shock Army from turn 4 in GDW, after its arrival in VPG) on empty
    own-edge hexes and empty own cities in communication (Soviet: Moscow always), the restores
    of half-strength units in communication (Soviet: in Moscow always), VPG's 1st Shock
    reinforcement, and ending the phase."""
    s.repl = repl
    assert legal_texts(s) == ref_replacement_actions(s), position_to_text(s)
