"""Build a compiled copy of the engines' hot modules with mypyc (issue 17, "a compiled core only
if it keeps the two commands").

The project itself stays pure Python: ``make play`` and ``make test`` never need a compiler.
This tool copies ``src/`` to ``build/compiled/src`` and compiles the modules below there, in
place, so that ``PYTHONPATH=build/compiled/src`` runs the same code compiled (an extension
module is imported before a ``.py`` of the same name). Nothing under ``src/`` changes, so a
stale build can never shadow an edit. ``make compiled`` builds it; ``make bench-compiled``
prints the bench figures of both, one after the other.

Needs mypy (the dev extra: mypyc comes with it) and a C compiler. Fixed-seed records are the
same compiled or not (``tests/test_compiled_build.py``, slow, checks it).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The engines' hot paths (profiles in docs/PERFORMANCE.md). statebase must be compiled with
# the State classes that derive from it: an interpreted class may not derive from a compiled
# one, and a compiled class on an interpreted slotted base crashed the garbage collector.
MODULES = (
    "typhoon/hexgrid.py",
    "typhoon/mechanics/movement.py",
    "typhoon/mechanics/zoc.py",
    "typhoon/mechanics/retreat.py",
    "typhoon/mechanics/combat.py",
    "typhoon/games/statebase.py",
    "typhoon/games/bfm/state.py",
    "typhoon/games/bfm/movement_phase.py",
    "typhoon/games/bfm/combat_phase.py",
    "typhoon/games/bfm/paths.py",
    "typhoon/games/bfm/flow.py",
    "typhoon/games/bfm/replacement_phase.py",
    "typhoon/games/bfm/engine.py",
    "typhoon/games/tmc/state.py",
    "typhoon/games/tmc/movement_phase.py",
    "typhoon/games/tmc/moving.py",
    "typhoon/games/tmc/rail.py",
    "typhoon/games/tmc/supply.py",
    "typhoon/games/tmc/combat.py",
    "typhoon/games/tmc/overrun.py",
    "typhoon/games/tmc/combat_phase.py",
    "typhoon/games/tmc/flow.py",
    "typhoon/games/tmc/engine.py",
)


def build(out: Path) -> Path:
    """Copy src/ to ``out``/src and compile MODULES there; returns the new src folder."""
    src = out / "src"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    cmd = [sys.executable, "-m", "mypyc", *MODULES]
    done = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"mypyc failed (exit {done.returncode}); nothing under src/ was changed")
    shutil.rmtree(src / "build", ignore_errors=True)
    missing = [m for m in MODULES if not list((src / m).parent.glob(Path(m).stem + ".*.so"))]
    if missing:
        raise SystemExit(f"mypyc built no extension for: {', '.join(missing)}")
    return src


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "compiled", help="where to build")
    args = ap.parse_args(argv)
    src = build(args.out)
    print(f"compiled {len(MODULES)} modules into {src}")
    print(f"use: PYTHONPATH={src} {Path(sys.executable).name} -m typhoon bench")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
