"""How long a new game's computer move waits while other games run strong searches (issue 10
point 5: one visitor must not starve everyone).

    .venv/bin/python benchmarks/ai_fairness.py [--busy 4] [--level search:strong] [--cap 90]

Starts ``--busy`` Battle for Moscow games against the AI at ``--level`` (the human Soviet sets
up, so the German AI plans its whole first turn), waits until they are all thinking, then
creates a game against the ``heuristic`` AI in which the AI is to move at once (the Soviet
set-up), and prints how many seconds that first AI move waited. The service runs with its
default AI workers, as ``typhoon serve`` does; nothing is served over HTTP. Stops after
``--cap`` seconds whatever happens (then the wait is reported as more than the cap).

Measured 2026-12-03 on 2 shared cores, defaults: with the old first-come first-served pool of
two workers (each game's whole AI turn on one worker) the new game waited 37.87 s; with the
round-robin queue and one heavy slot it waits 0.07 s, and the service closes in about 1 s.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from typhoon.web.service import GameService
from typhoon.web.storage import Store


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--busy", type=int, default=4, help="games running strong searches (default 4)")
    ap.add_argument("--level", default="search:strong", help="their AI level (default search:strong)")
    ap.add_argument("--cap", type=float, default=90.0, help="give up after this many seconds (default 90)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp)
        svc = GameService(store)
        busy = []
        for _ in range(args.busy):
            g = svc.create({"mode": "ai", "side": "soviet", "level": args.level})
            v = svc.view(g["id"], g["token"])
            svc.act(g["id"], g["token"], ["setup standard"], v["version"])
            busy.append(g["id"])
        time.sleep(2.0)  # every worker is inside a search by now
        thinking = sum(bool(svc.view(gid, None)["ai_thinking"]) for gid in busy)
        t0 = time.monotonic()
        new = svc.create({"mode": "ai", "side": "german", "level": "heuristic"})
        waited: float | None = None
        while time.monotonic() - t0 < args.cap:
            if svc.view(new["id"], None)["version"] >= 1:
                waited = time.monotonic() - t0
                break
            time.sleep(0.02)
        done = sum(
            svc.view(gid, None)["turn"] >= 1 and not svc.view(gid, None)["ai_thinking"] for gid in busy
        )
        shown = f"{waited:.2f}" if waited is not None else f"more than {args.cap:.0f}"
        print(
            f"busy games: {args.busy} at {args.level} ({thinking} thinking when the new game started,"
            f" {done} done since)"
        )
        print(f"new heuristic game's first AI move waited: {shown} s")
        t1 = time.monotonic()
        svc.close()
        print(f"service closed in {time.monotonic() - t1:.2f} s")
        store.close()


if __name__ == "__main__":
    main()
