"""docs/TMC_RULE_INDEX.md stays true: every test it names exists, every [Qn] of rules_en.md
(1-73) and every numbered section §1-§27 has a row, and no row is left without a status."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "docs" / "TMC_RULE_INDEX.md"
STATUSES = ("tested", "data", "n/a", "NOT enforced")


def _test_names() -> set[str]:
    out = set()
    for f in (ROOT / "tests" / "tmc").glob("test_*.py"):
        short = f.stem.removeprefix("test_")
        for node in ast.walk(ast.parse(f.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                out.add(f"{short}::{node.name}")
    return out


def _rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and not set(cells[0]) <= set("-") and cells[0] not in ("Rule", "Row / rule"):
            if cells[0] in ("Row / note", "VP line", "Level"):
                continue
            rows.append(cells)
    return rows


def test_every_named_test_exists() -> None:
    text = INDEX.read_text("utf-8")
    named = set(re.findall(r"\b([a-z_]+::test_[a-z0-9_]+)", text))
    assert named, "the index names no tests"
    assert named <= _test_names(), sorted(named - _test_names())


def test_every_question_and_section_is_indexed() -> None:
    text = INDEX.read_text("utf-8")
    questions = {int(q) for q in re.findall(r"\[Q(\d+)\]", text)}
    assert set(range(1, 74)) <= questions, sorted(set(range(1, 74)) - questions)
    sections = {int(m) for m in re.findall(r"^## §(\d+) ", text, re.M)}
    assert sections == set(range(1, 28)), sorted(set(range(1, 28)) ^ sections)


def test_every_row_has_a_status_and_tested_rows_name_a_test() -> None:
    rows = _rows(INDEX.read_text("utf-8"))
    assert len(rows) > 200
    for rule, _where, tests, status in rows:
        assert status.startswith(STATUSES), (rule, status)
        if status.startswith("tested"):
            assert "::test_" in tests or tests.startswith("see "), rule


def test_summary_counts_match_the_rows() -> None:
    text = INDEX.read_text("utf-8")
    rows = _rows(text)

    def count(label: str) -> int:
        m = re.search(rf"^\| {re.escape(label)}[^|]*\| (\d+)", text, re.M)
        assert m, label
        return int(m.group(1))

    assert count("rows indexed") == len(rows)
    assert count("tested (a test cites") == sum(1 for r in rows if r[3].startswith("tested"))
    assert count("data (") == sum(1 for r in rows if r[3].startswith("data"))
    assert count("not applicable") == sum(1 for r in rows if r[3].startswith("n/a"))
    assert count("NOT enforced") == sum(1 for r in rows if r[3].startswith("NOT enforced"))
