"""Records under bad input (issue 10 point 2 and "small inconsistencies"): sizes, integers and
unicode are checked before anything reads them, every failure is a RecordError naming the line
at fault, a byte-order mark is taken as the web upload takes it, and ``typhoon replay`` checks
every record it is given and summarises."""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from typhoon import games
from typhoon.cli import main
from typhoon.errors import RecordError, TyphoonError
from typhoon.game import Game
from typhoon.players import make_player
from typhoon.record import MAX_HEADER_VALUE, MAX_HEADERS, MAX_RECORD_BYTES, Record
from typhoon.selfplay import play_game


@pytest.fixture(scope="module")
def short_text() -> str:
    """A record of the first 80 actions of a seeded random game (replays in milliseconds)."""
    g = play_game([make_player("random", 1), make_player("random", 2)], seed=21)
    rec = Record.from_game(g)
    rec.actions = rec.actions[:80]
    rec.result = rec.final = None
    return rec.to_text()


def _raises(text: str, match: str) -> RecordError:
    with pytest.raises(RecordError, match=match) as info:
        Record.from_text(text).replay()
    return info.value


def test_a_long_header_value_is_refused_naming_the_header() -> None:
    _raises(
        f'[Game "bfm"]\n[Soviet "{"x" * (MAX_HEADER_VALUE + 1)}"]\n', r"^line 2: header Soviet is longer than"
    )
    Record.from_text(f'[Game "bfm"]\n[Soviet "{"x" * MAX_HEADER_VALUE}"]\n')  # at the cap: fine


def test_final_may_hold_a_position_but_not_megabytes() -> None:
    Record.from_text(f'[Game "bfm"]\n[Final "{"x" * 20_000}"]\n')
    _raises(f'[Game "bfm"]\n[Final "{"x" * 2_000_000}"]\n', r"^line 2: header Final is longer")


def test_too_many_or_too_long_headers() -> None:
    many = "".join(f'[H{i} "v"]\n' for i in range(MAX_HEADERS + 1))
    _raises('[Game "bfm"]\n' + many, rf"^line {MAX_HEADERS + 1}: more than {MAX_HEADERS} headers")
    big = f'[Final "{"x" * 99_000}"]\n' + "".join(f'[H{i} "{"y" * 1_900}"]\n' for i in range(60))
    _raises('[Game "bfm"]\n' + big, r"^line \d+: the headers are longer than")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('[Game "bfm"]\n\n' + "9" * 5000 + ". S setup standard\n", r"^line 3: .*an action line is"),
        ('[Game "bfm"]\n[Seed "' + "7" * 5000 + '"]\n', r"^line 2: header Seed is longer than"),
        ('[Game "bfm"]\n[Seed "' + "7" * 1500 + '"]\n', r"^line 2: the dice seed .* at most 100 digits"),
        ('[Game "bfm"]\n[Seed "\u00b2"]\n', r"^line 2: the dice seed"),  # isdigit() but not int()
        ('[Game "bfm"]\n\n\u0661. S setup standard\n', r"^line 3: .*an action line is"),  # Arabic-Indic 1
        ('[Game "bfm"]\n[DiceFrom "' + "1" * 50 + '"]\n[Seed "1"]\n', r"^line 2: \[DiceFrom\] must be"),
    ],
)
def test_huge_and_odd_integers_are_record_errors(text: str, match: str) -> None:
    _raises(text, match)


def test_lone_surrogates_and_nul_are_refused_naming_the_line() -> None:
    _raises('[Game "bfm"]\n[German "a\ud800b"]\n', r"^line 2: invalid unicode .* column 11")
    _raises('[Game "bfm"]\n\n1. S setup\x00 standard\n', r"^line 3: a NUL character")


def test_a_byte_order_mark_is_accepted_as_the_web_upload_does(short_text: str, tmp_path: Path) -> None:
    p = tmp_path / "bom.txt"
    p.write_bytes(b"\xef\xbb\xbf" + short_text.encode())
    assert Record.load(p).to_text() == short_text
    assert Record.from_text("\ufeff" + short_text).to_text() == short_text
    assert main(["replay", str(p)]) == 0


def test_bad_files_are_record_errors(tmp_path: Path) -> None:
    p = tmp_path / "bad.txt"
    p.write_bytes(b'[Game "bfm"]\n[German "\xff"]\n')
    with pytest.raises(RecordError, match=r"^line 2: .*not a UTF-8 text record"):
        Record.load(p)
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path)  # a folder
    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match="larger than"):
        Record.load(big)


def test_long_action_lines_and_bad_options(short_text: str) -> None:
    _raises(short_text + f"81. S move {'X' * 5000}\n", r"^line \d+: .*at most 2000 characters")
    _raises('[Game "bfm"]\n[Options "nonsense"]\n', r"^line 2: bad Options header")


def test_an_engine_fault_on_strange_input_is_a_record_error(
    short_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(text: str) -> object:
        raise ValueError("boom")

    module = Game().module
    monkeypatch.setitem(games._LOADED, "bfm", dataclasses.replace(module, action_from_text=broken))
    err = _raises(short_text, r"^line 10: 'place 5A 0301': the engine cannot play this \(ValueError: boom\)")
    assert err.line is not None


_MUTATION = st.tuples(
    st.integers(min_value=0, max_value=10_000),  # where (modulo the text length)
    st.integers(min_value=0, max_value=40),  # how many characters to cut
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(["9" * 5000, "\ud800", "\x00", "[", '"]', '\n[X "', ". * roll 7", "\ufeff", "\n"]),
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_MUTATION, min_size=1, max_size=4))
def test_mutated_records_raise_only_record_errors(short_text: str, edits: list[tuple[int, int, str]]) -> None:
    """Random cuts and insertions in a valid record: it replays, or fails with a RecordError
    (a TyphoonError) that names a line or a header, never any other exception."""
    text = short_text
    for at, cut, insert in edits:
        i = at % (len(text) + 1)
        text = text[:i] + insert + text[i + cut :]
    with contextlib.suppress(RecordError):
        Record.from_text(text).replay()


# -- typhoon replay FILE|DIR ... -------------------------------------------------------------


def test_replay_checks_every_record_and_summarises(
    short_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    d = tmp_path / "records"
    d.mkdir()
    (d / "1-good.txt").write_text(short_text)
    (d / "2-corrupt.txt").write_text(short_text.replace("1. S ", "1. G ", 1))
    (d / "3-binary.txt").write_bytes(b"\xff\xfe\x00")
    (d / "4-seedless.txt").write_text(
        "\n".join(x for x in short_text.splitlines() if not x.startswith("[Seed"))
    )
    (d / "5-crash.txt").write_text(short_text)
    (d / "6-good.txt").write_text(short_text)
    real = Record.load

    def load(path: str | Path) -> Record:
        if Path(path).name == "5-crash.txt":
            raise KeyError("unexpected")  # a fault of ours must not stop the others
        return real(path)

    monkeypatch.setattr(Record, "load", staticmethod(load))
    assert main(["replay", str(d), str(tmp_path / "missing.txt")]) == 1
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert "Traceback" not in captured.out + captured.err
    assert out[0].endswith("1-good.txt: ok (80 actions, result: unfinished)")
    assert "2-corrupt.txt: FAILED: line " in out[1] and "S's decision" in out[1]
    assert "3-binary.txt: FAILED: " in out[2] and "UTF-8" in out[2]
    assert "4-seedless.txt: dice not verifiable (no [Seed]" in out[3]
    assert "5-crash.txt: FAILED: unexpected error (KeyError" in out[4]
    assert out[5].endswith("6-good.txt: ok (80 actions, result: unfinished)")
    assert "missing.txt: FAILED: cannot read" in out[6]
    assert out[7] == "7 records checked: 2 ok, 1 dice not verifiable, 4 failed (3 of 7 records replayed)"


def test_replay_of_only_good_records_exits_0(short_text: str, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(short_text)
    assert main(["replay", "-q", str(tmp_path)]) == 0
    assert issubclass(RecordError, TyphoonError)
