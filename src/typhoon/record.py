"""Game records: metadata plus the ordered list of actions, dice included.

A record is the whole game: save, load, replay, play-by-email and training trajectories are
all this one format. It is plain text, one action per line::

    [Game "bfm"]
    [Edition "gdw1986"]
    [Options "crt_4to1_die3=DR german_replacements=every_turn ..."]
    [Seed "1"]
    [German "random"]
    [Soviet "heuristic"]
    [Date "2026-12-02"]
    [Result "soviet"]
    [Final "bfm ed=gdw1986 ..."]

    1. S setup standard
    2. G place XXIV 0409
    ...
    57. * roll 4

The letter names who decided (G German, S Soviet, * the die). Lines starting with '#' are
comments. :meth:`Record.replay` re-runs every step and fails with a RecordError naming the
first line that is malformed, illegal, or disagrees with the record's claims.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from typhoon.errors import IllegalActionError, NotationError, OptionError, RecordError, TyphoonError
from typhoon.game import CHANCE, Game, parse_options

_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_ENTRY = re.compile(r"^(\d+)\.\s+([A-Z*])\s+(.+)$")
MAX_RECORD_BYTES = 5_000_000


@dataclass
class Record:
    game: str = "bfm"
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
        rec = cls(edition="")
        headers: dict[str, str] = {}
        expected = 1
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                if rec.actions:
                    raise RecordError("header after the first action", line=n, entry=line)
                m = _HEADER.match(line)
                if not m:
                    raise RecordError('a header is [Name "value"]', line=n, entry=line)
                key, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
                if key in headers:
                    raise RecordError(f"header {key} given twice", line=n, entry=line)
                headers[key] = value
                continue
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
            raise RecordError(f"bad Options header: {exc}") from None
        seed = headers.pop("Seed", None)
        if seed is not None:
            if not seed.isdigit() or int(seed) >= 2**63:
                shown = seed if len(seed) <= 40 else seed[:37] + "..."
                raise RecordError(f"the dice seed ([Seed]) must be a whole number below 2**63, not {shown!r}")
            rec.seed = int(seed)
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
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {p}: {exc.strerror}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"{p} is not a UTF-8 text record") from None
        return cls.from_text(text)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_text(), encoding="utf-8")

    # -- replay -----------------------------------------------------------------------------

    def replay(self, *, check_result: bool = True) -> Game:
        """Re-run every action and return the game. Raises RecordError naming the first bad
        entry (unparsable, illegal, played by the wrong side, or not matching the headers)."""
        try:
            game = Game(
                self.game,
                self.edition or None,
                self.options,
                seed=self.seed,  # None: a fresh seed, so the dice to come are not predictable
                players=self.players,
                date=self.date or None,
            )
        except (OptionError, TyphoonError) as exc:
            raise RecordError(f"cannot start the recorded game: {exc}") from None
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
                game.play(action)
            except NotationError as exc:
                raise RecordError(f"cannot read the action: {exc}", line=line, entry=text) from None
            except IllegalActionError as exc:
                raise RecordError(f"illegal here: {exc}", line=line, entry=text) from None
            if who == CHANCE:
                rolls += 1
        game.rolls_drawn = rolls
        game.resync_dice()
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
