"""``skirmish export MAP --to carltographer|tts OUT``: a map as a Carltographer layout or a Tabletop
Simulator save (``engine.workshop.export_carltographer``, ``engine.workshop.tts``); ``skirmish
import`` reads either back."""
from __future__ import annotations

from game.cli.args import fail

TARGETS = ("carltographer", "tts")


def add_export_parser(sub) -> None:
    ex = sub.add_parser("export", help="write a map as a Carltographer layout (JSON) or a Tabletop Simulator save "
                                       "(JSON); skirmish import reads both back")
    ex.add_argument("map", help="map file or id of a shipped map")
    ex.add_argument("out", help="the file to write (JSON)")
    ex.add_argument("--to", required=True, choices=TARGETS, help="carltographer: its layout JSON; tts: a Tabletop "
                                                                 "Simulator save (one unit an inch)")
    ex.add_argument("--force", action="store_true", help="replace OUT if it exists")
    ex.set_defaults(func=cmd_export)


def cmd_export(args) -> int:
    import json
    import os
    from pathlib import Path

    from engine.core.saves import SaveError, write_atomic
    from engine.data.errors import DataError
    from engine.data.maps import load_named_map
    from engine.paths import resolve_map
    from game.cli.checks import replace_problem

    out = Path(args.out)
    try:
        src = resolve_map(args.map)
        mapfile = load_named_map(args.map)
    except DataError as err:
        return fail(str(err), 1)
    if out.exists() and src.exists() and os.path.samefile(out, src):
        # even with --force: replacing the map by its export would lose what the export cannot carry
        return fail(f"skirmish export: {out} is the map being exported; give another OUT", 1)
    why = replace_problem(out, args.force, "OUT")
    if why:
        return fail(f"skirmish export: {why}", 1)
    if args.to == "tts":
        from engine.workshop.tts import to_tts as convert
    else:
        from engine.workshop.export_carltographer import to_carltographer as convert
    doc, notes = convert(mapfile)
    try:
        # a temporary file beside OUT, then a rename: a full disk or a crash leaves OUT as it was
        write_atomic(out.resolve() if out.is_symlink() else out, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    except SaveError as err:
        return fail(f"skirmish export: {err}", 1)
    except OSError as err:
        return fail(f"skirmish export: cannot write {out}: {err.strerror or err}", 1)
    what = "Tabletop Simulator save" if args.to == "tts" else "Carltographer layout"
    print(f"{mapfile.name} ({mapfile.id}) written to {out} as a {what}")
    for n in notes:
        print(f"  {n}")
    return 0
