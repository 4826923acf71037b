"""The map generator rebuilds the committed map.json exactly (docs/TMC_MAP.md)."""

import hashlib
import json
from pathlib import Path

from typhoon.games.tmc import mapgen
from typhoon.games.tmc.tmcmap import MAP_JSON, TmcMap


def test_generator_reproduces_the_committed_map(tmp_path: Path) -> None:
    out, svg = tmp_path / "map.json", tmp_path / "map.svg"
    assert mapgen.main(["--out", str(out), "--svg", str(svg)]) == 0
    assert out.read_bytes() == MAP_JSON.read_bytes(), (
        "map.json is stale: run python -m typhoon.games.tmc.mapgen"
    )
    TmcMap.load(out)
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "RECONSTRUCTION" in text
    assert len(text) < 3_000_000


def test_provenance_names_the_source_file() -> None:
    data = json.loads(MAP_JSON.read_text(encoding="utf-8"))
    sha = hashlib.sha256(mapgen.GEOGRAPHY.read_bytes()).hexdigest()
    assert data["provenance"]["source_sha256"] == sha
    assert data["status"] == "reconstruction"


def test_projection_matches_geography_md() -> None:
    """geography.md §3: centre of 0-based hex (c, r) is x = c * 8.314, y = r * 9.6 (+4.8 odd c);
    the point -> hex rounding inverts it, and the Kremlin falls in 5723."""
    for c, r in [(0, 0), (1, 0), (56, 22), (77, 62), (40, 31)]:
        x, y = mapgen.cr_centre(c, r)
        assert abs(x - c * 8.3138) < 0.01
        assert mapgen.xy_to_cr(x, y) == (c, r)
        assert mapgen.xy_to_cr(x + 4.0, y + 1.0) == (c, r)  # inside the hex, off centre
    assert mapgen.Geo().hid(mapgen.Geo().hex_at(55.752, 37.616)) == "5723"


def test_crossed_hexsides_rule() -> None:
    """geography.md §4: a hexside is crossed when the line cuts its centre-to-centre segment; a
    line crossing it back (even count) leaves it uncrossed."""
    geo = mapgen.Geo()
    a, b = geo.grid.index["4030"], geo.grid.index["4031"]  # b is south of a
    (ax, ay), (_bx, by) = geo.centre[a], geo.centre[b]
    mid = (ay + by) / 2
    once = [(ax - 3.0, mid), (ax + 3.0, mid)]
    assert (min(a, b), max(a, b)) in mapgen.crossed_hexsides(geo, once)
    back = [(ax - 3.0, mid - 1), (ax + 3.0, mid + 1), (ax - 3.0, mid + 2)]
    assert (min(a, b), max(a, b)) not in mapgen.crossed_hexsides(geo, back)
