"""Issue 10, point 2: the engine under bad input.

Random and mutated action texts and position texts go to every registered game's
``action_from_text``, ``position_from_text`` and ``Game.play_text``: only the project's typed
errors (``TyphoonError`` subclasses) may escape, and a refused action leaves the game exactly as
it was (same position text, same history). A text that is read must also write back (a parsed
position prints; a parsed action prints to a text that reads back to the same action).

Hypothesis, 290 examples in all (fast); the positions and texts mutated come from short random
games of both games.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from typhoon.errors import TyphoonError
from typhoon.game import CHANCE, Game, parse_options
from typhoon.games import game_keys, game_module

# Words that break parsers: huge numbers (Python's int-string limit), signs, separators of the
# notations, control characters, a lone surrogate, deep brackets (the combat-data evaluator).
NASTY = [
    "",
    "-",
    "0",
    "-1",
    "9" * 5000,
    "f" * 5000,
    "99999",
    "1e9",
    "x",
    "\x00",
    "\ud800",
    "é",
    "\u202e",
    "(",
    ")",
    "(" * 200 + ")" * 200,
    "(" * 2000,
    "-" * 300 + "1",
    "Fraction(1,0)",
    "Fraction('x')",
    "Fraction(1,2,3)",
    "PendingOverrun()",
    "PendingOverrun(1,2,3,4,5)",
    "PendingOverrun(hex=1)",
    "Fraction(1.5)",
    "Fraction('1e999999')",
    "-" * 100_000 + "1",  # the parser's own stack (MemoryError)
    "1.5",
    "b'x'",
    "...",
    "-'a'",
    "(1,)*9",
    "__import__('os')",
    "None",
    "[]",
    "{}",
    ",",
    ";",
    ":",
    "<",
    ">",
    "+",
    "=",
    "@",
    "/h",
    "0000",
    "9999",
    "0101",
    "XXIV",
    "G1Pz",
    "S16A",
    "none",
    "with",
    "via",
    "yes",
    "standard",
]

word = st.one_of(st.sampled_from(NASTY), st.text(max_size=6))


@functools.cache
def samples(key: str) -> tuple[list[Game], list[str], list[str]]:
    """Games stopped at a few points of a random playout, the action texts legal along the way
    and the position texts met."""
    rng = random.Random(7)
    games: list[Game] = []
    actions: set[str] = set()
    positions: list[str] = []
    stops = {0, 3, 12, 40, 90} if key == "bfm" else {0, 2, 30, 70}
    for seed in (1, 2):
        g = Game(key, seed=seed)
        for n in range(max(stops) + 1):
            if g.is_over:
                break
            if n in stops:
                positions.append(g.position())
                replay = Game(key, seed=seed)
                for e in g.history:
                    replay.play(e.action)
                games.append(replay)
            if g.current_player() == CHANCE:
                g.roll()
                continue
            legal = g.legal_actions()
            actions.update(g.text(a) for a in rng.sample(legal, min(len(legal), 15)))
            g.play(rng.choice(legal))
    return games, sorted(actions), positions


@st.composite
def mutated(draw: st.DrawFn, base: list[str], fields: bool = False) -> str:
    """One of ``base``, changed one to three times: characters, words (or ``key=value``
    fields' values) replaced, dropped, swapped or repeated."""
    text = draw(st.sampled_from(base))
    for _ in range(draw(st.integers(1, 3))):
        words = text.split(" ")
        i = draw(st.integers(0, max(0, len(words) - 1)))
        op = draw(
            st.sampled_from(["char", "insert", "word", "value", "field", "drop", "swap", "repeat", "cut"])
        )
        if op == "char" and text:
            j = draw(st.integers(0, len(text) - 1))
            text = text[:j] + draw(st.characters()) + text[j + 1 :]
        elif op == "insert":
            j = draw(st.integers(0, len(text)))
            text = text[:j] + draw(word) + text[j:]
        elif op == "word":
            words[i] = draw(word)
            text = " ".join(words)
        elif op == "value" and (fields or "=" in words[i]):
            k, _, v = words[i].partition("=")
            parts = v.split(draw(st.sampled_from([",", ";", ":", "+", "<", "@"])))
            parts[draw(st.integers(0, len(parts) - 1))] = draw(word)
            words[i] = f"{k}=" + draw(st.sampled_from([",", ";", ":", "+"])).join(parts)
            text = " ".join(words)
        elif op == "field" and fields and "=" in words[i]:
            words[i] = words[i].partition("=")[0] + "=" + draw(word)
            text = " ".join(words)
        elif op == "drop" and words:
            del words[i]
            text = " ".join(words)
        elif op == "swap" and len(words) > 1:
            j = draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
            text = " ".join(words)
        elif op == "repeat":
            words.insert(i, words[i] if words else "")
            text = " ".join(words)
        elif op == "cut":
            text = text[: draw(st.integers(0, len(text)))]
    return text


def texts(key: str, kind: str) -> st.SearchStrategy[str]:
    _, actions, positions = samples(key)
    base = actions if kind == "action" else positions
    return st.one_of(mutated(base, fields=kind == "position"), st.text(max_size=40), st.sampled_from(base))


def fuzz(n: int) -> Any:
    return settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _typed(call: Any, *args: Any) -> Any:
    """``call(*args)``: its result, or None if it raised a TyphoonError (any other exception
    fails the test)."""
    try:
        return call(*args)
    except TyphoonError:
        return None


GAMES = game_keys()


def test_every_registered_game_is_fuzzed() -> None:
    assert set(GAMES) >= {"bfm", "tmc"}


@fuzz(90)
@given(data=st.data())
def test_action_texts_raise_only_typed_errors(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(GAMES))
    m = game_module(key)
    text = data.draw(texts(key, "action"))
    action = _typed(m.action_from_text, text)
    if action is not None:  # what is read writes back, and reads back the same
        assert m.action_from_text(m.action_to_text(action)) == action


@fuzz(80)
@given(data=st.data())
def test_a_refused_action_changes_nothing(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(GAMES))
    games, _, _ = samples(key)
    g = data.draw(st.sampled_from(games)).copy()
    text = data.draw(texts(key, "action"))
    state, before, n, rolls = g.state, g.position(), len(g.history), g.rolls_drawn
    try:
        g.play_text(text)
    except TyphoonError:
        assert g.position() == before and g.state is state
        assert len(g.history) == n and g.rolls_drawn == rolls
        return
    assert len(g.history) == n + 1  # a legal action: played, once


@fuzz(80)
@given(data=st.data())
def test_position_texts_raise_only_typed_errors(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(GAMES))
    m = game_module(key)
    text = data.draw(texts(key, "position"))
    state = _typed(m.position_from_text, text)
    if state is not None:  # a position that is read prints (and reads back the same)
        again = m.position_to_text(state)
        assert m.position_to_text(m.position_from_text(again)) == again


@fuzz(40)
@given(key=st.sampled_from(GAMES), edition=st.one_of(st.none(), word), options=st.text(max_size=30))
def test_editions_and_options_raise_only_typed_errors(key: str, edition: str | None, options: str) -> None:
    """A new game from an edition and an options text as a user types them (``--options``)."""
    opts = _typed(parse_options, options)
    if opts is not None:
        _typed(Game, key, edition, opts)


@pytest.mark.parametrize("key", GAMES)
def test_sample_positions_round_trip(key: str) -> None:
    """The mutations start from real positions: each reads back to itself."""
    m = game_module(key)
    _, actions, positions = samples(key)
    assert len(positions) >= 4 and len(actions) >= 50
    for p in positions:
        assert m.position_to_text(m.position_from_text(p)) == p


@pytest.mark.parametrize("key", GAMES)
def test_every_position_field_meets_every_nasty_word(key: str) -> None:
    """The sweep behind the fuzz: each field of a position (the tmc combat data included, read
    by a restricted evaluator) holds each nasty word in turn; only typed errors, and a position
    that is read prints."""
    m = game_module(key)
    text = samples(key)[2][-1]
    tried = 0
    brace = text.find("{")
    if brace >= 0 and "=" not in text[:brace]:
        # a header then one JSON object (ma): each field holds each nasty word, as a JSON
        # string, as a number where it reads as one, and raw (so the object may not parse)
        head, body = text[:brace], json.loads(text[brace:])
        for name in body:
            for nasty in NASTY:
                for value in (json.dumps(nasty), nasty):
                    mutated = head + json.dumps({**body, name: "@@"}).replace('"@@"', value)
                    state = _typed(m.position_from_text, mutated)
                    if state is not None:
                        m.position_to_text(state)
                    tried += 1
        assert tried >= 10 * len(NASTY)
        return
    words = text.split(" ")
    for i, w in enumerate(words):
        name, eq, _ = w.partition("=")
        if not eq:
            continue
        for nasty in NASTY:
            text = " ".join([*words[:i], f"{name}={nasty}", *words[i + 1 :]])
            state = _typed(m.position_from_text, text)
            if state is not None:
                m.position_to_text(state)
            tried += 1
    assert tried >= 10 * len(NASTY)
