"""The optional compiled build (tools/build_compiled.py, issue 17 point 3): the engines' hot
modules compiled with mypyc play exactly as the pure-Python ones — the fixed-seed record
digests and the pinned legal lists are unchanged. Slow (a minute to compile): make soak."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def test_compiled_modules_replay_every_pinned_record(tmp_path: Path) -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    if importlib.util.find_spec("mypyc") is None:
        pytest.skip("mypyc is not installed (it comes with the dev extra's mypy)")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_compiled
    finally:
        sys.path.pop(0)
    src = build_compiled.build(tmp_path / "compiled")
    env = {**os.environ, "PYTHONPATH": str(src)}
    probe = (
        "import typhoon.games.bfm.state as b, typhoon.games.tmc.engine as t; print(b.__file__, t.__file__)"
    )
    files = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert files.stdout.count(".so") == 2, files.stdout  # the compiled modules are the ones imported
    tests = [
        "tests/test_speed_identity.py",
        "tests/tmc/test_tmc_speed_identity.py",
        "tests/rules/test_invariants.py",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
