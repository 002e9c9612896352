"""``skirmish import FILE --out MAP``: a Carltographer layout (or a Tabletop Simulator save that
``skirmish export`` wrote) as a Skirmish map, with a report of what did not carry over (the
editor's Import runs the same ``engine.workshop.carltographer``)."""
from __future__ import annotations

from typing import Any

from game.cli.args import fail


def add_import_parser(sub) -> None:
    im = sub.add_parser("import", help="turn a Carltographer layout (JSON, or the PNG its Save button writes), or a "
                                       "Tabletop Simulator save skirmish export wrote, into a map, and say what did "
                                       "not carry over")
    im.add_argument("file", help="a Carltographer layout (JSON or its saved PNG), an engine result holding one, or a "
                                 "TTS save from skirmish export")
    im.add_argument("--out", required=True, help="the map file to write (JSON)")
    im.add_argument("--force", action="store_true", help="replace --out if it exists")
    im.add_argument("--json", action="store_true", help="print the report as one JSON object")
    im.set_defaults(func=cmd_import)


def cmd_import(args) -> int:
    import json
    import os
    import stat
    from pathlib import Path

    from engine.core.saves import SaveError, write_atomic
    from engine.data.errors import DataError
    from engine.workshop.carltographer import import_layout
    from game.cli.checks import replace_problem
    from game.editor.document import map_json

    src, out = Path(args.file), Path(args.out)
    try:
        mode = os.stat(src).st_mode
    except OSError as err:
        return fail(f"skirmish import: cannot read {src}: {err.strerror or err}", 1)
    if not stat.S_ISREG(mode):     # a named pipe would wait forever for a writer
        return fail(f"skirmish import: {src}: not a regular file; give a Carltographer layout (JSON or PNG)", 1)
    why = replace_problem(out, args.force, "--out", "give the map file's own path as --out")
    if why:
        return fail(f"skirmish import: {why}", 1)
    try:
        mapfile, notes = import_layout(src)
    except DataError as err:
        return fail(str(err), 1)
    try:
        # a temporary file beside the map, then a rename: a full disk or a crash leaves the old map
        # whole. --force through a link replaces the file it points to (the link stays).
        write_atomic(out.resolve() if out.is_symlink() else out, map_json(mapfile))
    except SaveError as err:    # the folder gone, or no longer a regular file: it says which
        return fail(f"skirmish import: {err}", 1)
    except OSError as err:
        return fail(f"skirmish import: cannot write {out}: {err.strerror or err}", 1)
    kinds: dict[str, int] = {}
    for p in mapfile.pieces:
        kinds[p.kind] = kinds.get(p.kind, 0) + 1
    report: dict[str, Any] = {"map": str(out), "id": mapfile.id, "name": mapfile.name,
              "size": f"{mapfile.width:g}x{mapfile.height:g} {mapfile.unit}", "pieces": len(mapfile.pieces),
              "kinds": dict(sorted(kinds.items())),
              "footprints": sum(1 for p in mapfile.pieces if p.obscuring),
              "objectives": len(mapfile.objectives), "notes": notes}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{mapfile.name} ({mapfile.id}): {report['size']}, {report['pieces']} pieces "
          f"({', '.join(f'{k} {n}' for k, n in report['kinds'].items())}), {report['footprints']} obscuring "
          f"footprints, {report['objectives']} objectives; written to {out}")
    for n in notes:
        print(f"  {n}")
    return 0
