"""Game records (issue 2 item 7): a text format that round-trips, replays every step, and
names the offending entry when corrupt or hand-edited."""

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from typhoon.errors import RecordError
from typhoon.game import Game
from typhoon.players import make_player
from typhoon.record import Record
from typhoon.selfplay import play_game


@pytest.fixture(scope="module")
def finished() -> Game:
    return play_game([make_player("random", 1), make_player("random", 2)], seed=42)


def test_record_has_metadata_and_round_trips(finished: Game, tmp_path: Path) -> None:
    rec = Record.from_game(finished)
    text = rec.to_text()
    for header in (
        "[Game",
        "[Edition",
        "[Options",
        "[Seed",
        "[German",
        "[Soviet",
        "[Date",
        "[Result",
        "[Final",
    ):
        assert header in text
    assert "* roll " in text  # the dice are in the log
    path = tmp_path / "g.txt"
    rec.save(path)
    again = Record.load(path)
    assert again.to_text() == text
    game = again.replay()
    assert game.position() == finished.position()
    assert game.result == finished.result


def test_replayed_game_continues_the_same_dice(finished: Game) -> None:
    half = Record.from_game(finished)
    half.actions = half.actions[: len(half.actions) // 2]
    half.result = None
    half.final = None
    g = half.replay()
    assert g.rolls_drawn == sum(1 for a, _ in half.actions if a == "*")


def corrupt(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: corrupt(t, "1. S ", "1. G "), "line .*S's decision"),
        (lambda t: corrupt(t, "2. ", "3. "), "expected action number 2"),
        (lambda t: corrupt(t, '[Seed "42"]', "[Seed 42]"), "header is"),
        (lambda t: corrupt(t, '[Edition "gdw1986"]', '[Edition "gdw2086"]'), "unknown edition"),
        (lambda t: t.replace('[Game "bfm"]\n', ""), "missing"),
    ],
)
def test_corrupt_records_name_the_problem(finished: Game, edit, message: str) -> None:
    text = edit(Record.from_game(finished).to_text())
    with pytest.raises(RecordError, match=message):
        Record.from_text(text).replay()


def test_illegal_entry_is_named_with_its_line(finished: Game) -> None:
    text = Record.from_game(finished).to_text()
    lines = text.splitlines()
    idx = next(i for i, line in enumerate(lines) if " move " in line)
    number, actor, rest = lines[idx].split(" ", 2)
    lines[idx] = f"{number} {actor} move XXIV 0101-1103"
    with pytest.raises(RecordError, match=rf"line {idx + 1}: 'move XXIV 0101-1103'"):
        Record.from_text("\n".join(lines)).replay()


def test_tampered_result_and_final_are_detected(finished: Game) -> None:
    rec = Record.from_game(finished)
    rec.result = "german" if finished.result != "german" else "soviet"
    with pytest.raises(RecordError, match="claims result"):
        rec.replay()
    rec = Record.from_game(finished)
    rec.final = rec.final.replace("t=7", "t=6") if rec.final else None
    with pytest.raises(RecordError, match="final position"):
        rec.replay()


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "none.txt")
    p = tmp_path / "bin.txt"
    p.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="UTF-8"):
        Record.load(p)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes_the_parser(text: str) -> None:
    with contextlib.suppress(RecordError):
        Record.from_text(text).replay()
