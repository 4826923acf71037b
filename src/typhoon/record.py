"""Game records: metadata plus the ordered list of actions, dice included.

A record is the whole game: save, load, replay, play-by-email and training trajectories are
all this one format. It is plain text, one action per line::

    [Game "KEY"]                 (the game's registry key)
    [Edition "EDITION"]
    [Options "crt_4to1_die3=DR german_replacements=every_turn ..."]
    [Seed "1"]
    [Dice "mt"]                  (absent: "mt"; "sha256" for a secret-seeded game)
    [DiceFrom "0"]               (absent: 0; rolls at the start not drawn from the seed)
    [German "random"]
    [Soviet "heuristic"]
    [Date "2026-12-02"]
    [Result "soviet"]
    [Final "KEY ed=EDITION ..."]

    1. S setup standard
    2. G place XXIV 0409
    ...
    57. * roll 4

The letter names who decided (G German, S Soviet, * the die). Lines starting with '#' are
comments. :meth:`Record.replay` re-runs every step and fails with a RecordError naming the
first line that is malformed, illegal, or disagrees with the record's claims, a die roll
included: with a ``[Seed]`` every die after the first ``[DiceFrom]`` must be the one the seed
gives. Every failure, whatever the input, is a RecordError naming the line at fault (issue 10
point 2): sizes, integers and unicode are checked before anything else reads them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from typhoon.errors import NotationError, RecordError, TyphoonError
from typhoon.game import CHANCE, DICE_KINDS, Game, parse_options
from typhoon.games import DEFAULT_GAME

_HEADER = re.compile(r'^\[(\w{1,40})\s+"((?:[^"\\]|\\.)*)"\]$')
_HEADER_NAME = re.compile(r"^\[(\w{1,40})\s")
_ENTRY = re.compile(r"^([0-9]{1,9})\.\s+([A-Z*])\s+(.+)$")
MAX_RECORD_BYTES = 5_000_000
MAX_HEADER_VALUE = 2_000  # characters in one header's value...
MAX_FINAL_VALUE = 100_000  # ...but [Final] holds a whole position (~12,000 for a large game)
MAX_HEADERS = 64
MAX_HEADER_TOTAL = 200_000  # characters in all the header lines together
MAX_ACTION_LINE = 2_000
MAX_SEED_DIGITS = 100  # a 256-bit secret seed has 78
MAX_COUNT_DIGITS = 9


def _number(text: str, what: str, digits: int, *, line: int | None = None) -> int:
    """A non-negative decimal integer of at most ``digits`` digits (checked before int():
    Python refuses to convert very long digit strings, with a ValueError)."""
    if not re.fullmatch(f"[0-9]{{1,{digits}}}", text):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise RecordError(
            f"{what} must be a whole number of at most {digits} digits, not {shown!r}", line=line
        )
    return int(text)


def _check_unicode(text: str) -> None:
    """Lone surrogates (from a JSON string or a lenient decoder) and NUL are not text."""
    try:
        text.encode("utf-8")
        bad = "\0" in text
    except UnicodeEncodeError:
        bad = True
    if not bad:
        return
    for n, line in enumerate(text.splitlines(), 1):
        try:
            line.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise RecordError(
                f"invalid unicode (a lone surrogate) at column {exc.start + 1}", line=n
            ) from None
        if "\0" in line:
            raise RecordError(f"a NUL character at column {line.index(chr(0)) + 1}", line=n)


@dataclass
class Record:
    game: str = DEFAULT_GAME
    edition: str = ""
    options: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    players: dict[str, str] = field(default_factory=dict)
    date: str = ""
    result: str | None = None
    final: str | None = None
    actions: list[tuple[str, str]] = field(default_factory=list)  # (actor letter, action text)
    extra: dict[str, str] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)  # source line of each action, when parsed
    dice: str = "mt"  # how the seed gives the dice: "mt" (random.Random) or "sha256"
    dice_from: int = 0  # rolls at the start not drawn from the seed (not checked on replay)

    @classmethod
    def from_game(cls, game: Game) -> Record:
        return cls(
            game=game.module.key,
            edition=game.edition,
            options=dict(game.options),
            seed=game.seed,
            players=dict(game.players),
            date=game.date,
            result=game.result,
            final=game.position() if game.is_over else None,
            actions=[(game.actor_letter(e.actor), game.text(e.action)) for e in game.history],
            dice=game.dice,
            dice_from=game.dice_from,
        )

    # -- text -------------------------------------------------------------------------------

    def to_text(self) -> str:
        def q(v: str) -> str:
            return v.replace("\\", "\\\\").replace('"', '\\"')

        lines = [
            f'[Game "{q(self.game)}"]',
            f'[Edition "{q(self.edition)}"]',
            f'[Options "{q(" ".join(f"{k}={v}" for k, v in sorted(self.options.items())))}"]',
        ]
        if self.seed is not None:
            lines.append(f'[Seed "{self.seed}"]')
            # Absent for the legacy dice, so that fixed-seed records are as they always were.
            if self.dice != "mt":
                lines.append(f'[Dice "{q(self.dice)}"]')
            if self.dice_from:
                lines.append(f'[DiceFrom "{self.dice_from}"]')
        for side, name in self.players.items():
            lines.append(f'[{side.capitalize()} "{q(name)}"]')
        if self.date:
            lines.append(f'[Date "{q(self.date)}"]')
        lines.append(f'[Result "{self.result or "*"}"]')
        if self.final:
            lines.append(f'[Final "{q(self.final)}"]')
        for k, v in self.extra.items():
            lines.append(f'[{k} "{q(v)}"]')
        lines.append("")
        for i, (actor, text) in enumerate(self.actions, 1):
            lines.append(f"{i}. {actor} {text}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"record is larger than {MAX_RECORD_BYTES} bytes")
        text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors write
        _check_unicode(text)
        rec = cls(edition="")
        headers: dict[str, str] = {}
        header_lines: dict[str, int] = {}
        header_total = 0
        expected = 1
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                if rec.actions:
                    raise RecordError("header after the first action", line=n, entry=line)
                named = _HEADER_NAME.match(line)
                name = named.group(1) if named else "?"
                cap = MAX_FINAL_VALUE if name == "Final" else MAX_HEADER_VALUE
                if len(line) > cap + 50:  # before the pattern reads megabytes
                    raise RecordError(f"header {name} is longer than {cap} characters", line=n)
                m = _HEADER.match(line)
                if not m:
                    raise RecordError('a header is [Name "value"]', line=n, entry=line)
                key, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
                if key in headers:
                    raise RecordError(f"header {key} given twice", line=n, entry=line)
                if len(value) > cap:
                    raise RecordError(f"header {key} is longer than {cap} characters", line=n)
                header_total += len(line)
                if header_total > MAX_HEADER_TOTAL:
                    raise RecordError(
                        f"the headers are longer than {MAX_HEADER_TOTAL} characters (at header {key})", line=n
                    )
                if len(headers) >= MAX_HEADERS:
                    raise RecordError(f"more than {MAX_HEADERS} headers (at header {key})", line=n)
                headers[key] = value
                header_lines[key] = n
                continue
            if len(line) > MAX_ACTION_LINE:
                raise RecordError(
                    f"an action line is at most {MAX_ACTION_LINE} characters", line=n, entry=line
                )
            m = _ENTRY.match(line)
            if not m:
                raise RecordError("an action line is 'N. X action' (X = G, S or *)", line=n, entry=line)
            if int(m.group(1)) != expected:
                raise RecordError(f"expected action number {expected}", line=n, entry=line)
            expected += 1
            rec.actions.append((m.group(2), m.group(3).strip()))
            rec.lines.append(n)
        if "Game" not in headers:
            raise RecordError('missing [Game "..."] header')
        rec.game = headers.pop("Game")
        rec.edition = headers.pop("Edition", "")
        try:
            rec.options = parse_options(headers.pop("Options", ""))
        except NotationError as exc:
            raise RecordError(f"bad Options header: {exc}", line=header_lines["Options"]) from None
        seed = headers.pop("Seed", None)
        if seed is not None:
            rec.seed = _number(seed, "the dice seed ([Seed])", MAX_SEED_DIGITS, line=header_lines["Seed"])
        dice = headers.pop("Dice", "mt")
        if dice not in DICE_KINDS:
            raise RecordError(
                f"[Dice] is one of {', '.join(DICE_KINDS)}, not {dice[:40]!r}", line=header_lines["Dice"]
            )
        rec.dice = dice
        dice_from = headers.pop("DiceFrom", None)
        if dice_from is not None:
            rec.dice_from = _number(dice_from, "[DiceFrom]", MAX_COUNT_DIGITS, line=header_lines["DiceFrom"])
        if rec.seed is None and ("Dice" in header_lines or dice_from is not None):
            raise RecordError(
                "[Dice] and [DiceFrom] need a [Seed]",
                line=header_lines.get("Dice") or header_lines["DiceFrom"],
            )
        for side in ("German", "Soviet"):
            if side in headers:
                rec.players[side.lower()] = headers.pop(side)
        rec.date = headers.pop("Date", "")
        result = headers.pop("Result", "*")
        rec.result = None if result == "*" else result
        rec.final = headers.pop("Final", None)
        rec.extra = headers
        return rec

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file (UTF-8, a byte-order mark allowed, as the web upload takes it)."""
        p = Path(path)
        try:
            if p.stat().st_size > MAX_RECORD_BYTES:
                raise RecordError(f"{p} is larger than {MAX_RECORD_BYTES} bytes")
            data = p.read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {p}: {exc.strerror or exc}") from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise RecordError(f"{p} is not a UTF-8 text record (byte {exc.start + 1})", line=line) from None
        return cls.from_text(text)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_text(), encoding="utf-8")

    # -- replay -----------------------------------------------------------------------------

    def replay(self, *, check_result: bool = True) -> Game:
        """Re-run every action and return the game. Raises RecordError naming the first bad
        entry (unparsable, illegal, played by the wrong side, a die the seed does not give, or
        not matching the headers). Without a seed the dice cannot be checked:
        ``game.dice_verified`` is then False and the game goes on with a fresh secret seed."""
        if self.dice not in DICE_KINDS:
            raise RecordError(f"unknown dice {self.dice!r}")
        try:
            game = Game(
                self.game,
                self.edition or None,
                self.options,
                seed=self.seed,
                players=self.players,
                date=self.date or None,
                dice=self.dice if self.seed is not None else None,
            )
        except TyphoonError as exc:
            raise RecordError(f"cannot start the recorded game: {exc}") from None
        except Exception as exc:  # a malformed option value the engine did not foresee
            raise RecordError(f"cannot start the recorded game ({type(exc).__name__}: {exc})") from None
        check_dice = self.seed is not None
        if check_dice:
            game.dice_from = self.dice_from
        rolls = 0
        for i, (actor, text) in enumerate(self.actions):
            line = self.lines[i] if i < len(self.lines) else None
            who = game.current_player()
            if who == -2:
                raise RecordError("the game is already over", line=line, entry=text)
            if game.actor_letter(who) != actor:
                raise RecordError(
                    f"it is {game.actor_letter(who)}'s decision here, not {actor}'s", line=line, entry=text
                )
            try:
                action = game.module.action_from_text(text)
                if who == CHANCE and check_dice:
                    outcomes = game.module.chance_outcomes(game.state)
                    due = game._seeded_die(len(outcomes))
                    if rolls >= self.dice_from and outcomes[due - 1][0] != action:
                        raise RecordError(
                            f"die roll {rolls + 1} is not the one the record's [Seed] gives ({due}): "
                            "the dice were changed",
                            line=line,
                            entry=text,
                        )
                game.play(action)
            except RecordError:
                raise
            except NotationError as exc:
                raise RecordError(f"cannot read the action: {exc}", line=line, entry=text) from None
            except TyphoonError as exc:  # IllegalActionError and the like
                raise RecordError(f"illegal here: {exc}", line=line, entry=text) from None
            except Exception as exc:  # an engine fault on strange input: still the line at fault
                raise RecordError(
                    f"the engine cannot play this ({type(exc).__name__}: {exc})", line=line, entry=text
                ) from None
            if who == CHANCE:
                rolls += 1
        if check_dice:
            # With [DiceFrom] at or past the last roll no die was checked.
            game.dice_verified = self.dice_from == 0 or self.dice_from < rolls
        else:
            game.reseed_secret()  # the dice to come are not predictable
            game.dice_verified = False
        if check_result:
            if self.result is not None and game.result != self.result:
                raise RecordError(
                    f"the record claims result {self.result!r}, the replay gives {game.result!r}"
                )
            if self.final is not None and game.position() != self.final:
                raise RecordError("the final position does not match the record's [Final] header")
        return game


def replay_file(path: str | Path) -> Game:
    return Record.load(path).replay()


__all__ = ["Record", "replay_file"]
