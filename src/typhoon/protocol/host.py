"""The host side of the engine protocol: run an engine process and ask it for moves.

The engine's stdout is read by a thread into a queue, so every wait has a deadline (a hung
engine times out, it never hangs the host); its stderr is kept, the latest STDERR_LINES lines,
for the log and for the error when it fails. Every line both ways is logged at DEBUG on the
``typhoon.protocol`` logger and kept, the latest ones, in :attr:`EngineClient.log`. The
process is killed when the client is closed or garbage-collected, or the host exits.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import queue
import shlex
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any

from typhoon.protocol.messages import (
    DEFAULT_BUDGET_MS,
    GRACE_S,
    HANDSHAKE_S,
    MAX_LINE,
    MAX_RETRIES,
    STDERR_LINES,
    VERSION,
    EngineError,
    module_of,
    one_line,
    options_line,
)

log = logging.getLogger("typhoon.protocol")
LOG_LINES = 2000  # protocol lines kept in EngineClient.log


def _kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            proc.wait(timeout=2)
    for f in (proc.stdin, proc.stdout, proc.stderr):
        with contextlib.suppress(OSError, ValueError):
            if f is not None:
                f.close()


class EngineClient:
    """One engine process speaking protocol version 1.

    ``budget_ms`` is the time budget sent with each ``go``; the host waits that long plus
    ``grace`` seconds for the answer, then the engine forfeits."""

    def __init__(
        self,
        command: str,
        timeout: float = GRACE_S,
        *,
        budget_ms: int = DEFAULT_BUDGET_MS,
        handshake: float = HANDSHAKE_S,
    ):
        self.command = command
        self.timeout = timeout
        self.budget_ms = budget_ms
        self.log: collections.deque[str] = collections.deque(maxlen=LOG_LINES)
        self.stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.refusals = 0  # answers refused over the whole game
        self.name = command
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise EngineError(f"cannot parse the engine command {command!r}: {exc}") from None
        if not argv:
            raise EngineError("the engine command is empty")
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                errors="replace",
                # Its own process group: a Ctrl-C at the terminal reaches the host, which
                # then closes the engine itself.
                start_new_session=os.name == "posix",
            )
        except OSError as exc:
            raise EngineError(f"cannot start engine {command!r}: {exc}") from None
        self._finalizer = weakref.finalize(self, _kill, self.proc)
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(target=self._read_stdout, args=(self.proc.stdout,), daemon=True).start()
        self._stderr_thread = threading.Thread(
            target=self._read_stderr, args=(self.proc.stderr,), daemon=True
        )
        self._stderr_thread.start()
        try:
            self.send(f"typhoon {VERSION}")
            reply = self.expect(timeout=handshake)
            if reply != "ready" and not reply.startswith("ready "):
                raise EngineError(
                    f"engine {command!r} did not answer 'ready' to the handshake: {reply[:80]!r}"
                )
        except EngineError:
            self.kill()
            raise
        self.name = reply[len("ready") :].strip() or command

    # -- reading and writing ------------------------------------------------------------------

    def _read_stdout(self, f: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                line = f.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE:
                    self._lines.put("\0too long")
                    break
                self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _read_stderr(self, f: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                line = f.readline(8192)
                if not line:
                    break
                text = line.rstrip("\r\n")
                self.stderr.append(text)
                log.debug("engine %s stderr: %s", self.name, text)

    def _fail(self, message: str, side: int | None = None) -> EngineError:
        if self.proc.poll() is not None:
            self._stderr_thread.join(timeout=0.5)  # its last words, if it exited
        tail = [x for x in self.stderr if x.strip()][-1:]
        if tail:
            message += f" (its last stderr line: {one_line(tail[0])[:160]!r})"
        self.kill()
        return EngineError(message, side)

    def _stopped(self, exc: Exception) -> EngineError:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return self._fail(f"engine {self.name!r} stopped reading: {exc}")
        return self._fail(f"engine {self.name!r} exited (code {code})")

    def send(self, line: str) -> None:
        self.log.append("> " + line)
        log.debug("> %s", line)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise self._stopped(exc) from None

    def send_many(self, lines: Sequence[str], summary: str | None = None) -> None:
        """Send ``lines`` at once; ``summary`` stands for them in the log (a legal list can be
        hundreds of lines, every move)."""
        if not lines:
            return
        if summary is not None:
            self.log.append("> " + summary)
            log.debug("> %s", summary)
        else:
            self.log.extend("> " + line for line in lines)
            if log.isEnabledFor(logging.DEBUG):
                for line in lines:
                    log.debug("> %s", line)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write("\n".join(lines) + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise self._stopped(exc) from None

    def expect(self, timeout: float | None = None) -> str:
        try:
            line = self._lines.get(timeout=self.timeout if timeout is None else timeout)
        except queue.Empty:
            raise self._fail(f"engine {self.name!r} did not answer in time") from None
        if line is None:
            code = self.proc.poll()
            if code is None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    code = self.proc.wait(timeout=0.5)
            raise self._fail(f"engine {self.name!r} exited (code {code})")
        if line == "\0too long":
            raise self._fail(f"engine {self.name!r} sent a line longer than {MAX_LINE} characters")
        self.log.append("< " + line)
        log.debug("< %s", line)
        return line

    # -- a move -------------------------------------------------------------------------------

    def choose(
        self, state: Any, actions: Sequence[Any], budget_ms: int | None = None, history: Sequence[str] = ()
    ) -> Any:
        """Ask for a move in ``state``. ``history``: the lines reporting what happened since
        the engine's last move (sent first). An illegal or malformed answer is refused with a
        reason and may be retried MAX_RETRIES times; then, or if the engine exits or runs past
        its budget plus the grace time, EngineError (its side forfeits)."""
        side_index = int(state.current_player())
        try:
            return self._choose(state, actions, side_index, budget_ms, history)
        except EngineError as exc:
            if exc.side is None:
                exc.side = side_index
            raise

    def _choose(
        self,
        state: Any,
        actions: Sequence[Any],
        side_index: int,
        budget_ms: int | None,
        history: Sequence[str],
    ) -> Any:
        budget = self.budget_ms if budget_ms is None else budget_ms
        module = module_of(state)
        texts = [module.action_to_text(a) for a in actions]
        by_text = dict(zip(texts, actions))
        self.send_many(
            [
                *history,
                f"game {module.key} {state.rules.edition}",
                options_line(state),
                f"side {module.sides[side_index]}",
                "position " + module.position_to_text(state),
                f"go {budget}",
            ]
        )
        deadline = time.monotonic() + budget / 1000 + self.timeout
        for attempt in range(MAX_RETRIES + 1):
            line = self.expect(timeout=max(0.0, deadline - time.monotonic()))
            while line == "legal" or line == "info" or line.startswith("info "):
                if line == "legal":
                    self.send_many(
                        [f"legal {len(texts)}", *("action " + t for t in texts)],
                        summary=f"legal {len(texts)} (and the {len(texts)} action lines)",
                    )
                line = self.expect(timeout=max(0.0, deadline - time.monotonic()))
            word, _, rest = line.partition(" ")
            reason = ""
            chosen: Any = None
            if word != "move" or not rest.strip():
                reason = f"expected 'move <action>' or 'legal', got {line[:80]!r}"
            else:
                text = rest.strip()
                if text in by_text:
                    chosen = by_text[text]
                else:
                    try:
                        parsed = module.action_from_text(text)
                    except Exception as exc:  # untrusted text: whatever the parser raises, a refusal
                        reason = f"malformed action {text[:80]!r}: {one_line(str(exc))[:200]}"
                    else:
                        match = [a for a in actions if a == parsed]
                        if match:
                            chosen = match[0]
                        else:
                            reason = (
                                f"illegal action {text[:80]!r}: not among the {len(actions)} legal actions"
                            )
            if not reason:
                with contextlib.suppress(EngineError):  # an engine gone now fails at its next move
                    self.send("accepted")
                return chosen
            self.refusals += 1
            log.warning("engine %s refused (%d/%d): %s", self.name, attempt + 1, MAX_RETRIES + 1, reason)
            if attempt < MAX_RETRIES:
                self.send(f"refused {reason}")
        with contextlib.suppress(EngineError):
            self.send(f"forfeit {MAX_RETRIES + 1} answers refused")
        raise self._fail(
            f"engine {self.name!r} forfeits the {module.sides[side_index]} side: {MAX_RETRIES + 1} answers refused",
            side_index,
        )

    # -- the end ------------------------------------------------------------------------------

    def close(self, history: Sequence[str] = ()) -> None:
        """Report the rest of the game, send ``quit`` and let the engine exit (killed after 2 s)."""
        if self.proc.poll() is None:
            with contextlib.suppress(EngineError):
                self.send_many([*history, "quit"])
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=2)
        self.kill()

    def kill(self) -> None:
        self._finalizer()
