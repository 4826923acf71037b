"""Fair dice (issue 10 point 4, docs/API.md "Dice"): a game whose seed nobody chose rolls from a
secret 256-bit seed through SHA-256; a chosen seed keeps the legacy sequence exactly; a record
with a seed replays only if its dice are the seed's; one without is "dice not verifiable"."""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from typhoon.cli import main
from typhoon.errors import RecordError
from typhoon.game import CHANCE, Game, _sha256_die
from typhoon.players import make_player
from typhoon.record import Record
from typhoon.selfplay import play_game


def _random_game(seed: int | None, game: str = "bfm", edition: str | None = None) -> Game:
    return play_game(
        [make_player("random", 1), make_player("random", 2)], game=game, edition=edition, seed=seed
    )


def _forge_a_die(text: str, index: int = 3) -> tuple[str, int]:
    """The record with its ``index``-th die roll changed, and the line changed (1-based)."""
    lines = text.splitlines()
    rolls = [i for i, line in enumerate(lines) if re.match(r"^\d+\. \* roll \d$", line)]
    i = rolls[index]
    die = int(lines[i][-1])
    lines[i] = lines[i][:-1] + str(die % 6 + 1)
    return "\n".join(lines) + "\n", i + 1


def test_unchosen_seeds_are_secret_and_at_least_128_bits() -> None:
    a, b = Game(), Game()
    assert a.dice == b.dice == "sha256"
    assert a.seed != b.seed
    # 256 random bits: below 2**128 with probability 2**-128.
    assert a.seed >= 2**128 and b.seed >= 2**128
    assert a.dice_from == 0 and a.dice_verified


def test_a_chosen_seed_keeps_the_legacy_sequence() -> None:
    g = Game(seed=12345)
    assert g.dice == "mt"
    g.play_text("setup standard")
    dice: list[int] = []
    while len(dice) < 20 and not g.is_over:
        if g.current_player() == CHANCE:
            g.roll()
            dice.append(int(g.text(g.history[-1].action).split()[-1]))
        else:
            g.play(g.legal_actions()[-1])
    legacy = random.Random(12345)
    assert dice == [legacy.randint(1, 6) for _ in dice]


@pytest.mark.parametrize(
    ("game", "edition", "seed", "digest"),
    [
        # sha256 of the record text (Date fixed) written by the code before this change.
        ("bfm", None, 7, "8086291329ef8afc8c486bcf9e10de7ab675faf10ebd67cf46f911a5fd8be80d"),
        ("bfm", "vpg2009", 8, "6b08704da8680ae0915f3afe568db151cd17c5501ee8e9ccebf5deb4f261dddd"),
    ],
)
def test_fixed_seed_records_are_byte_identical_to_before(
    game: str, edition: str | None, seed: int, digest: str
) -> None:
    rec = Record.from_game(_random_game(seed, game, edition))
    rec.date = "2026-01-01"
    text = rec.to_text()
    assert "[Dice" not in text and "[DiceFrom" not in text
    assert hashlib.sha256(text.encode()).hexdigest() == digest
    again = Record.from_text(text).replay()
    assert again.dice_verified and again.dice == "mt"


def test_sha256_record_round_trips_and_verifies(tmp_path: Path) -> None:
    g = _random_game(None)
    text = Record.from_game(g).to_text()
    assert '[Dice "sha256"]' in text and f'[Seed "{g.seed}"]' in text
    path = tmp_path / "g.txt"
    path.write_text(text)
    again = Record.load(path).replay()
    assert again.dice == "sha256" and again.seed == g.seed and again.dice_verified
    assert again.position() == g.position()
    assert Record.from_game(again).to_text() == text


@pytest.mark.parametrize("seed", [42, None])
def test_a_forged_die_is_refused_naming_its_line(seed: int | None) -> None:
    text, line = _forge_a_die(Record.from_game(_random_game(seed)).to_text())  # the game goes astray after it
    with pytest.raises(
        RecordError, match=rf"^line {line}: .*die roll 4 is not the one the record's \[Seed\] gives"
    ):
        Record.from_text(text).replay(check_result=False)


def test_a_seedless_record_replays_but_is_not_verifiable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = Record.from_game(_random_game(5))
    rec.seed = None
    g = Record.from_text(rec.to_text()).replay()
    assert not g.dice_verified
    # The game goes on with a fresh secret seed; the recorded rolls are not from it.
    assert g.dice == "sha256" and g.seed >= 2**128 and g.dice_from == g.rolls_drawn
    (tmp_path / "a.txt").write_text(rec.to_text())
    assert main(["replay", str(tmp_path / "a.txt")]) == 0
    assert "dice not verifiable (no [Seed]" in capsys.readouterr().out


def _advance(g: Game, rolls: int, *, by_hand: bool = False) -> None:
    """Play first legal actions until ``rolls`` dice have been rolled; ``by_hand``: each die
    set to one the seed does not give."""
    while g.rolls_drawn < rolls:
        if g.current_player() != CHANCE:
            g.play(g.legal_actions()[0])
        elif by_hand:
            g.play_text(f"roll {g._seeded_die(6) % 6 + 1}")
        else:
            g.roll()


def test_reseed_secret_starts_fresh_dice() -> None:
    g = Game(seed=3)
    g.play_text("setup standard")
    _advance(g, 2)
    g.reseed_secret()  # e.g. after an upload: the rolls so far are not from the new seed
    assert g.dice == "sha256" and g.dice_from == 2 and g.seed >= 2**128
    _advance(g, 5)
    again = Record.from_text(Record.from_game(g).to_text()).replay()
    assert again.dice_verified and again.dice_from == 2 and again.position() == g.position()


def test_dice_from_leaves_the_first_rolls_unchecked() -> None:
    g = Game(seed=3)
    g.play_text("setup standard")
    _advance(g, 2, by_hand=True)  # a die set by hand: the seed no longer explains the rolls so far
    assert g.dice_from == 2
    _advance(g, 6)
    text = Record.from_game(g).to_text()
    assert '[DiceFrom "2"]' in text
    assert Record.from_text(text).replay().dice_verified
    with pytest.raises(RecordError, match=r"die roll 1 is not the one"):
        Record.from_text(text.replace('[DiceFrom "2"]\n', "")).replay()
    forged, line = _forge_a_die(text, 5)  # the last roll: nothing after it can go astray
    with pytest.raises(RecordError, match=rf"^line {line}: .*die roll 6"):
        Record.from_text(forged).replay()


def test_a_die_set_by_hand_moves_dice_from_and_the_record_still_replays() -> None:
    g = Game(seed=11)
    g.play_text("setup standard")
    while g.current_player() != CHANCE:
        g.play(g.legal_actions()[0])
    due = g._seeded_die(6)
    g.play_text(f"roll {due % 6 + 1}")  # not the seed's die
    assert g.dice_from == 1
    while g.rolls_drawn < 3:
        if g.current_player() == CHANCE:
            g.roll()
        else:
            g.play(g.legal_actions()[0])
    again = Record.from_text(Record.from_game(g).to_text()).replay()
    assert again.position() == g.position() and again.dice_verified


def test_a_copy_rolls_the_same_dice() -> None:
    for seed in (9, None):
        g = Game(seed=seed)
        g.play_text("setup standard")
        while g.current_player() != CHANCE:
            g.play(g.legal_actions()[0])
        c = g.copy()
        g.roll()
        c.roll()
        assert g.text(g.history[-1].action) == c.text(c.history[-1].action)


def test_sha256_dice_are_uniform_and_depend_on_seed_and_index() -> None:
    counts = Counter(_sha256_die(2**200 + 17, i, 6) for i in range(6000))
    assert set(counts) == set(range(1, 7))
    assert all(850 < n < 1150 for n in counts.values())  # ~8 standard deviations around 1000
    assert [_sha256_die(1, i, 6) for i in range(40)] != [_sha256_die(2, i, 6) for i in range(40)]
    assert _sha256_die(5, 7, 6) == _sha256_die(5, 7, 6)


def test_bad_dice_headers_are_record_errors() -> None:
    base = '[Game "bfm"]\n[Seed "1"]\n'
    with pytest.raises(RecordError, match=r"line 3: \[Dice\] is one of"):
        Record.from_text(base + '[Dice "d20"]\n')
    with pytest.raises(RecordError, match=r"line 3: \[DiceFrom\] must be a whole number"):
        Record.from_text(base + '[DiceFrom "-1"]\n')
    with pytest.raises(RecordError, match=r"need a \[Seed\]"):
        Record.from_text('[Game "bfm"]\n[Dice "sha256"]\n')
