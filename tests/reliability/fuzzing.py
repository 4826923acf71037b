"""Shared pieces of the reliability suite (issue 10 item 7): hostile inputs as hypothesis
strategies, the number of cases to try, and a tally that each test prints as its figures."""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def cases(default: int) -> int:
    """How many cases a fuzz test tries: ``TYPHOON_FUZZ_CASES`` when set (``make soak`` asks
    for 5,000), else ``default`` (a few hundred, for ``make test``)."""
    raw = os.environ.get("TYPHOON_FUZZ_CASES", "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


class Tally:
    """Counts what a fuzz run saw, to print as its figures."""

    def __init__(self, name: str):
        self.name = name
        self.counts: Counter[str] = Counter()

    def add(self, key: str) -> None:
        self.counts[key] += 1

    def report(self) -> str:
        total = sum(v for k, v in self.counts.items() if not k.startswith("_"))
        parts = ", ".join(f"{k}: {v}" for k, v in sorted(self.counts.items()) if not k.startswith("_"))
        line = f"{self.name}: {total} tried ({parts})"
        print("\n" + line)
        return line


# -- hostile text and values ------------------------------------------------------------------

HUGE_INT = "9" * 5000  # past Python's int-string limit (4,300 digits)
LONE_SURROGATE = "\ud800"

HOSTILE_VALUES = [
    "",
    " ",
    "0",
    "-1",
    "1e309",
    "NaN",
    "Infinity",
    HUGE_INT,
    "-" + HUGE_INT,
    "18446744073709551616",
    LONE_SURROGATE,
    "a\x00b",
    "../../etc/passwd",
    "%00",
    "<script>alert(1)</script>",
    "'; DROP TABLE games; --",
    "x" * 70_000,
    "\ufeff",
    "🐻" * 10,
    "true",
    "null",
]
nasty_text = st.one_of(st.text(max_size=40), st.sampled_from(HOSTILE_VALUES))

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    nasty_text,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

# Raw bodies that no well-meaning client sends: deep nesting, huge integers, lone surrogates in
# escapes, invalid UTF-8, a JSON value that is not an object, NUL bytes, a body over the limit.
HOSTILE_BODIES = [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 5_000 + b"1" + b"}" * 5_000,
    b'{"seen": ' + HUGE_INT.encode() + b"}",
    b'{"seen": 0, "actions": ["' + b"\\ud800" + b'"]}',
    b'{"action": "\\udfff", "seen": 1}',
    b"\xff\xfe\x00{",
    b'{"seen": 1e999}',
    b'"just a string"',
    b"[]",
    b"null",
    b"{}",
    b'{"mode": "remote", "seed": ' + HUGE_INT.encode() + b"}",
    b'{"mode": "ai", "level": "search:strong", "side": "soviet"}',
    b"\x00" * 50,
    b"{" + b" " * 70_000 + b"}",
]
raw_bodies = st.one_of(st.binary(max_size=200), st.sampled_from(HOSTILE_BODIES))

CONTENT_TYPES = [
    "application/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "application/json; charset=latin-1",
    "",
]

ORIGINS = [None, "http://localhost", "http://evil.example", "null", "http://127.0.0.1:1", "\u00e9"]


@contextmanager
def web_client(data: Path) -> Iterator[TestClient]:
    """An in-process app on ``data`` whose server faults come back as 500 answers (not raised),
    so that a fuzz case sees exactly what a browser would."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from typhoon.web import app as web_app

        app = web_app.create_app(data)
    with (
        warnings.catch_warnings(),
        TestClient(app, base_url="http://localhost", raise_server_exceptions=False) as client,
    ):
        warnings.simplefilter("ignore", DeprecationWarning)
        yield client


def json_error(resp: Any) -> dict[str, Any] | None:
    """The JSON error of an API answer, or None when the body is not a JSON object."""
    try:
        body = resp.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) else None
