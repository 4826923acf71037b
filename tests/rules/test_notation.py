"""Notation round-trips (issue 2, item 7: "a text notation for every action and for a whole
position that round-trips exactly"), checked with hypothesis."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from typhoon.errors import NotationError
from typhoon.games.bfm.actions import (
    Advance,
    Attack,
    End,
    Lose,
    Move,
    Place,
    Rebuild,
    Reinforce,
    Resolve,
    Restore,
    Retreat,
    Roll,
    SetupStandard,
    StandFast,
)
from typhoon.games.bfm.engine import apply_unchecked, legal_actions, new_game
from typhoon.games.bfm.notation import action_from_text, action_to_text, position_from_text, position_to_text

from .helpers import GDW, VPG, rules_for

UNITS = [u.id for u in rules_for(GDW).units]
HEXES = sorted(rules_for(VPG).map.grid.index)  # the VPG grid holds every GDW hex too

unit = st.sampled_from(UNITS)
hex_ = st.sampled_from(HEXES)
# Built through the public constructors with positional arguments only (so that fields the
# engine adds for its own use keep their defaults).
actions = st.one_of(
    st.just(SetupStandard()),
    st.tuples(unit, hex_).map(lambda x: Place(*x)),
    st.tuples(unit, hex_, hex_, st.lists(hex_, max_size=3).map(tuple)).map(lambda x: Move(*x)),
    st.tuples(unit, hex_).map(lambda x: Attack(*x)),
    st.just(End()),
    hex_.map(lambda h: Resolve(h)),
    st.integers(1, 6).map(lambda d: Roll(d)),
    unit.map(lambda u: Lose(u)),
    st.lists(hex_, min_size=1, max_size=6).map(lambda p: Retreat(tuple(p))),
    st.booleans().map(lambda b: StandFast(b)),
    st.one_of(st.none(), unit).map(lambda u: Advance(u)),
    st.tuples(unit, hex_).map(lambda x: Rebuild(*x)),
    unit.map(lambda u: Restore(u)),
    st.tuples(unit, hex_).map(lambda x: Reinforce(*x)),
)


@given(actions)
@settings(max_examples=400, deadline=None)
def test_action_round_trip(a) -> None:  # type: ignore[no-untyped-def]
    """Every action, written and read back, is the same action; and its text is stable."""
    text = action_to_text(a)
    back = action_from_text(text)
    assert back == a
    assert type(back) is type(a)
    assert action_to_text(back) == text


@given(st.text(max_size=40))
@settings(max_examples=300, deadline=None)
def test_garbage_action_text_is_a_notation_error(text: str) -> None:
    """Any text either parses to an action or raises NotationError (never another error)."""
    try:
        a = action_from_text(text)
    except NotationError:
        return
    assert action_from_text(action_to_text(a)) == a


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "move",
        "move XXIV 0409",
        "move XXIV 0409-0410-0411",
        "roll 7",
        "roll x",
        "attack XXIV 409",
        "standfast maybe",
        "setup quick",
        "fly XXIV 0101",
        "retreat",
        "lose",
        "place XXIV",
    ],
)
def test_malformed_actions(bad: str) -> None:
    """Malformed action text (missing or extra words, a die of 7, a three-digit hex, unknown
    verbs) is a NotationError with a message, never another exception."""
    with pytest.raises(NotationError):
        action_from_text(bad)


@lru_cache(maxsize=16)
def trajectory(edition: str, seed: int) -> tuple:  # type: ignore[type-arg]
    """Every state of one random game (random legal actions, random dice)."""
    rng = random.Random(seed)
    s = new_game(edition)
    out = [s]
    while not s.is_terminal:
        acts = legal_actions(s)
        s = apply_unchecked(s, acts[rng.randrange(len(acts))])
        out.append(s)
    return tuple(out)


@given(st.sampled_from([GDW, VPG]), st.integers(0, 5), st.integers(0, 10**6))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_position_round_trip(edition: str, seed: int, pick: int) -> None:
    """A position written and read back is the same position (every field of the state),
    writes the same text, and offers the same legal actions."""
    states = trajectory(edition, seed)
    s = states[pick % len(states)]
    text = position_to_text(s)
    back = position_from_text(text)
    assert back == s
    assert position_to_text(back) == text
    assert [action_to_text(a) for a in legal_actions(back)] == [action_to_text(a) for a in legal_actions(s)]


@given(st.sampled_from([GDW, VPG]), st.integers(0, 5), st.integers(0, 10**6))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_legal_action_texts_round_trip(edition: str, seed: int, pick: int) -> None:
    """Every legal action of a reachable position reads back as itself."""
    states = trajectory(edition, seed)
    s = states[pick % len(states)]
    for a in legal_actions(s):
        assert action_from_text(action_to_text(a)) == a


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "chess ed=gdw1986",
        "bfm ed=gdw1986",
        "bfm ed=nope opt=- t=1 ph=german_combat G=- S=- ctl=- repl=0 arr=- stack=- step=declare battles=- cur=- res=-",
        "bfm ed=gdw1986 opt=- t=9 ph=german_combat G=- S=- ctl=- repl=0 arr=- stack=- step=declare battles=- cur=- res=-",
        "bfm ed=gdw1986 opt=- t=1 ph=lunch G=- S=- ctl=- repl=0 arr=- stack=- step=declare battles=- cur=- res=-",
        "bfm ed=gdw1986 opt=- t=1 ph=german_combat G=XXIV@0101,XLI@0101 S=- ctl=- repl=0 arr=- stack=- step=declare battles=- cur=- res=-",
        "bfm ed=gdw1986 opt=- t=1 ph=german_combat G=16A@0101 S=- ctl=- repl=0 arr=- stack=- step=declare battles=- cur=- res=-",
        "bfm ed=gdw1986 opt=- t=1 ph=german_combat G=XXIV@0111 S=- ctl=- repl=0 arr=- stack=- step=declare battles=- cur=- res=-",
        "bfm ed=gdw1986 opt=- t=1 ph=german_combat G=- S=- ctl=0101 repl=0 arr=- stack=- step=declare battles=- cur=- res=-",
        "bfm ed=gdw1986 opt=x:y t=1 ph=german_combat G=- S=- ctl=- repl=0 arr=- stack=- step=declare battles=- cur=- res=-",
    ],
)
def test_malformed_positions(bad: str) -> None:
    """A malformed position (unknown edition, option, phase, unit, hex; two units in a hex; a
    unit of the wrong side; a non-city in ctl=; 0111 is not a GDW hex) is a NotationError."""
    with pytest.raises(NotationError):
        position_from_text(bad)
