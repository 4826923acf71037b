"""Transcribe the shared Battle for Moscow reference into Typhoon's own data files.

Run once by a developer (the project never reads ../shared at run time):

    python tools/import_bfm_reference.py ../shared/reference/battle_for_moscow/bfm_map.json

It writes ``map_gdw1986.json``, ``map_vpg2009.json``, ``units.json`` and ``crt.json`` under
``src/typhoon/games/bfm/data/``. The output is committed; rerunning it must give the same
bytes (the files carry their provenance, not a date).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "src" / "typhoon" / "games" / "bfm" / "data"

MAP_SOURCES = {
    "gdw1986": (
        "GDW 1986 map (web GIFs of the original map, west/east halves), transcribed hex by hex "
        "and cross-checked by pixel sampling; via shared/reference/battle_for_moscow/bfm_map.json"
    ),
    "vpg2009": (
        "VPG 2009 redraw (Alan Emrich graphics) and oberlabs' hex table; "
        "via shared/reference/battle_for_moscow/bfm_map.json"
    ),
}


def _dump(path: Path, data: Any) -> None:
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    # Keep lists of scalars on one line so the files read like the reference tables.
    text = re.sub(
        r"\[\s*((?:(?:\"[^\"]*\"|-?\d+),\s*)*(?:\"[^\"]*\"|-?\d+))\s*\]",
        lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]",
        text,
    )
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(OUT.parents[4])}")


def _map(edition: str, ed: dict[str, Any]) -> dict[str, Any]:
    hexes: dict[str, dict[str, Any]] = ed["hexes"]
    forest = sorted(h for h, v in hexes.items() if v["terrain"] == "forest")
    fort = sorted(h for h, v in hexes.items() if v.get("fortification"))
    cities = {
        h: {"name": v["city"], "control": v["initial_control"]}
        for h, v in sorted(hexes.items())
        if "city" in v
    }
    moscow = [h for h, v in hexes.items() if v.get("moscow")]
    major = sorted(h for h, v in hexes.items() if v.get("major_city"))
    return {
        "source": MAP_SOURCES[edition],
        "edition": edition,
        "grid": {
            "columns": 14,
            "rows_odd_columns": ed["rows_per_column"]["odd_columns"],
            "rows_even_columns": ed["rows_per_column"]["even_columns"],
            "shifted_down": "even",
        },
        "forest": forest,
        "fortification": fort,
        "cities": cities,
        "moscow": moscow,
        "major_cities": major,
        "rivers": [sorted(p) for p in ed["river_hexsides"]],
        "rail": [sorted(p) for p in ed["rail_links"]],
        "rail_exits": [[x["hex"], x["edge"]] for x in ed["rail_exits_off_map"]],
        "setup": {
            "soviet": sorted(ed["setup"]["soviet_half_strength"]),
            "german": sorted(ed["setup"]["german_full_strength"]),
        },
        "edges": {
            "german": sorted(ed["edges"]["german_west_edge"]),
            "soviet": sorted(ed["edges"]["soviet_east_edge"]),
        },
    }


SOVIET_IDS = {"1st Shock": "1SA"}


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _units(ref: dict[str, Any]) -> dict[str, Any]:
    units = []
    for u in ref["units_gdw1986"]["units"]:
        uid = u["id"]
        if u["side"] == "soviet":
            uid = SOVIET_IDS.get(uid, uid.replace(" Army", "A"))
        entry: dict[str, Any] = {
            "id": uid,
            "side": u["side"],
            "type": u["type"],
            "full": u["full"],
            "half": u["half"],
            "move": u["move"],
        }
        if uid == "1SA":
            entry["name"] = "1st Shock Army"
        elif u["side"] == "soviet":
            entry["name"] = f"{_ordinal(int(uid[:-1]))} Army"
        else:
            entry["name"] = f"{uid} {'Panzer ' if u['type'] == 'panzer' else ''}Corps"
        units.append(entry)
    return {
        "source": ref["units_gdw1986"]["source"],
        "notes": ref["units_gdw1986"]["variants"],
        "units": units,
    }


def _crt(ref: dict[str, Any]) -> dict[str, Any]:
    crt = ref["crt"]
    return {
        "source": "VPG 2009 chart image, oberlabs' and a BGA port's code; GDW cell note below",
        "columns": crt["columns"],
        "rows": {k: v for k, v in crt["rows_vpg2009"].items()},
        "gdw1986_differences": crt["gdw1986_differences"],
    }


def main(argv: list[str]) -> int:
    src = Path(argv[1]) if len(argv) > 1 else Path("../shared/reference/battle_for_moscow/bfm_map.json")
    ref = json.loads(src.read_text(encoding="utf-8"))
    OUT.mkdir(parents=True, exist_ok=True)
    for edition, ed in ref["editions"].items():
        _dump(OUT / f"map_{edition}.json", _map(edition, ed))
    _dump(OUT / "units.json", _units(ref))
    _dump(OUT / "crt.json", _crt(ref))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
