"""A real ``typhoon serve`` process (uvicorn) for the tests that kill, race or damage it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx


class Server:
    def __init__(self, data: Path):
        self.data = data
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self, *extra: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "typhoon", "serve", "--port", "0", "--data", str(self.data), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
            if m:
                self.url = m.group(1)
                break
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited: {line}")
        else:  # pragma: no cover
            raise AssertionError("server did not print its URL")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise AssertionError("server did not answer")  # pragma: no cover

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        assert self.proc.returncode == -signal.SIGKILL
        if self.proc.stdout:
            self.proc.stdout.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.proc.kill()
        if self.proc is not None and self.proc.stdout and not self.proc.stdout.closed:
            self.proc.stdout.close()


def post(url: str, path: str, body: dict[str, Any], token: str | None = None) -> httpx.Response:
    headers = {"X-Typhoon-Token": token} if token else {}
    return httpx.post(url + path, json=body, headers=headers, timeout=20)


def get(url: str, path: str, token: str | None = None, **params: Any) -> dict[str, Any]:
    headers = {"X-Typhoon-Token": token} if token else {}
    r = httpx.get(url + path, params=params, headers=headers, timeout=40)
    assert r.status_code == 200, r.text
    return dict(r.json())
