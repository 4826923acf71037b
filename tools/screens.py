"""Screenshots of the browser page (issue 15): two games at 1366x768, 1024x768 and a 390x844
phone, written to docs/images/screens_<w>x<h>_<n>.png (n = 1, 2: the games below, in order).

    .venv/bin/python tools/screens.py [--out docs/images]

Uses Debian's Chromium (PLAYWRIGHT_CHROMIUM_EXECUTABLE or /usr/bin/chromium) and a live server
in a thread with its own data folder; each game is a hot seat played through the API to a
position worth showing (the first game: an attack planned, its odds on screen)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
SIZES = [(1366, 768), (1024, 768), (390, 844)]
# (game key, actions played through the API first, plan an attack on the page)
GAMES: list[tuple[str, tuple[str, ...], bool]] = [
    ("bfm", ("setup standard", "setup standard", "end"), True),
    ("tmc", ("setup standard", "setup standard"), False),
]


def prepare(c: httpx.Client, game: str, actions: tuple[str, ...]) -> dict[str, Any]:
    g = dict(c.post("/api/games", json={"game": game, "mode": "hotseat", "seed": 5}).json())
    for text in actions:
        v = c.get(f"/api/games/{g['id']}").json()
        legal = c.get(f"/api/games/{g['id']}/legal", headers={"X-Typhoon-Token": g["token"]})
        if legal.status_code == 200 and text not in {a["text"] for a in legal.json().get("actions", [])}:
            continue  # this game has no such step here
        c.post(
            f"/api/games/{g['id']}/actions",
            json={"actions": [text], "seen": v["version"]},
            headers={"X-Typhoon-Token": g["token"]},
        )
    return g


def shoot(page: Any, url: str, attack: bool, path: Path) -> None:
    page.goto(url)
    page.wait_for_function("() => window.typhoon && window.typhoon.view && window.typhoon.view.your_turn")
    if attack:
        target = page.evaluate("() => (window.typhoon.legal.find(a => a.kind === 'attack') || {}).target")
        if target:
            if page.viewport_size["width"] < 600:  # a phone shows part of the map: bring the battle in
                page.evaluate(f"() => window.typhoon.centreOn('{target}')")
            page.click(f"#board g.unit[data-hex='{target}']")
            page.wait_for_function("() => document.querySelector('#preview h3')")
    else:
        page.click("#view-active")
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from typhoon.web.bench import live_server

    chromium = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE", "/usr/bin/chromium")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, live_server(data) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        with httpx.Client(base_url=url, timeout=120) as c:
            games = [(prepare(c, key, acts), attack) for key, acts, attack in GAMES]
        for n, (g, attack) in enumerate(games, 1):
            for w, h in SIZES:
                ctx = browser.new_context(viewport={"width": w, "height": h})
                path = args.out / f"screens_{w}x{h}_{n}.png"
                shoot(ctx.new_page(), url + g["links"]["host"], attack, path)
                ctx.close()
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
