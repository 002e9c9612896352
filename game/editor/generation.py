"""The editor's Generate: what its dialog asks, the ``skirmish generate`` it starts on the layout
as it stands, what it says when the command ends, and the one edit that puts the result in place.

The layout is written as it stands (a copy in the user's ``generated`` folder: the file being
edited is not touched) and passed as ``--locked``: the command keeps its locked pieces, table
size, unit, zones and objectives and fills the rest from the shipped templates. When it ends, the
unlocked pieces of the editor's map are replaced by the generated ones in one edit of the stack
(a delete and an add as one ``Compound``), so one undo brings the old layout back. The targets
are the command's own (``engine.workshop.targets``), so the dialog refuses what it would refuse.

No pygame here: the scene and the dialog call these and show what they say.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from engine.data.maps import MapFile
from engine.workshop import edits as E
from engine.workshop.targets import Target, parse_target

# the search's size: the command's defaults (about a minute on a 60x44" table on this machine)
GENERATE_CHAINS = 4
GENERATE_ROUNDS = 60
GENERATE_STEPS = 20
SYMMETRY_WORDS = {None: "none", "mirror_x": "mirror |", "mirror_y": "mirror -", "point": "point"}
MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class GenerateSettings:
    symmetry: str | None = None      # the editor's modes: None, mirror_x, mirror_y, point
    los: float = 30.0                # overall line of sight, %
    los_tol: float = 3.0             # +- points
    hide_within: float = 5.0         # the two sides' zone hideability at most this many points apart
    seed: int = 1

    def targets(self) -> list[Target]:
        return [parse_target(t) for t in self.target_texts()]

    def target_texts(self) -> list[str]:
        return [f"los={self.los!r}+-{self.los_tol!r}", f"hide_diff<={self.hide_within!r}"]


def settings_from_texts(symmetry: str | None, los: str, los_tol: str, hide_within: str, seed: str) -> GenerateSettings:
    """The dialog's fields as settings; ValueError naming the field and the reason."""
    def number(field: str, text: str) -> float:
        try:
            return float(text.strip())
        except ValueError:
            raise ValueError(f"{field}: {text.strip()!r} is not a number") from None

    v, t, h = number("line of sight", los), number("tolerance", los_tol), number("hideable share", hide_within)
    for field, x, what in (("line of sight", v, "%"), ("tolerance", t, " points"), ("hideable share", h, " points")):
        if not 0 <= x <= 100:
            raise ValueError(f"{field}: {x:g} is not from 0 to 100{what}")
    try:
        seed_n = int(seed.strip())
    except ValueError:
        raise ValueError(f"seed: {seed.strip()!r} is not a whole number") from None
    if not 0 <= seed_n <= MAX_SEED:
        raise ValueError(f"seed: {seed_n} is not from 0 to {MAX_SEED}")
    s = GenerateSettings(symmetry, v, t, h, seed_n)
    for field, text in zip(("line of sight", "hideable share"), s.target_texts()):
        try:
            parse_target(text)
        except ValueError as err:       # the command's own reason (a percentage is 0 to 100, ...)
            raise ValueError(f"{field}: {str(err).split(': ', 1)[-1]}") from None
    return s


def _folder(base: Path, name: str) -> Path:
    """A new folder ``base/<time>-<name>`` (a suffix if two runs start in the same second)."""
    stem = f"{datetime.now():%Y%m%d-%H%M%S}-{name}"
    for i in range(1000):
        out = base / (stem if i == 0 else f"{stem}-{i}")
        try:
            out.mkdir(parents=True)
            return out
        except FileExistsError:
            continue
    raise OSError(f"no free folder name under {base}")


def command_args(layout: Path, out: Path, s: GenerateSettings, base_mm: float | None) -> list[str]:
    """The ``skirmish generate`` arguments for ``s`` on the layout file ``layout``."""
    args = ["--locked", str(layout), "--out", str(out), "--no-pictures", "--seed", str(s.seed),
            "--symmetry", s.symmetry or "none", "--chains", str(GENERATE_CHAINS),
            "--rounds", str(GENERATE_ROUNDS), "--steps", str(GENERATE_STEPS)]
    for t in s.target_texts():
        args += ["--target", t]
    if base_mm:
        args += ["--base", f"{base_mm:g}"]
    return args


def base_for(m: MapFile) -> float | None:
    """The base that must reach every objective and the other zone: of the rulesets the map
    suits, the largest of their smallest bases (so each ruleset's smallest model gets through);
    None (the command's 25 mm) when it names none."""
    from engine.workshop.reachability import smallest_base_mm

    return max((smallest_base_mm(r) for r in m.suits), default=None)


def start_generate(m: MapFile, s: GenerateSettings, folder: Path | None = None):
    """Start ``skirmish generate`` on ``m``: (the run or None, lines to show)."""
    from game.editor.document import map_json
    from game.editor.worker import GenerateRun
    from game.userdirs import generated_dir

    problems = E.save_problems(m)
    if problems:
        return None, [f"cannot generate on this layout yet: {f or '(map)'}: {r}" for f, r in problems[:2]]
    base = folder or generated_dir()
    try:
        out = _folder(base, m.id)
        layout = out / f"{m.id}.json"
        layout.write_text(map_json(m), encoding="utf-8")
        run = GenerateRun(command_args(layout, out / "result", s, base_for(m)), out, GENERATE_ROUNDS)
    except OSError as err:
        return None, [f"cannot start the generator in {base}: {err}"]
    locked = sum(1 for p in m.pieces if p.locked)
    return run, [f"generating: seed {s.seed}, symmetry {SYMMETRY_WORDS.get(s.symmetry, s.symmetry)}, "
                 f"line of sight {s.los:g} +-{s.los_tol:g}%, hideable shares within {s.hide_within:g} points; "
                 f"{locked} locked piece{'' if locked == 1 else 's'} kept", f"files: generated/{out.name}"]


@dataclass
class GenerateOutcome:
    ok: bool
    lines: list[str]                 # what the panel says: the figures and the targets, or why not
    map: MapFile | None = None       # the generated layout
    met: bool = False
    full: dict | None = None         # its figures on the full grid


def read_generated(out: Path, returncode: int, s: GenerateSettings) -> GenerateOutcome:
    """What the run in ``out`` (its ``result`` folder and ``generate.log``) produced."""
    from engine.data.errors import DataError
    from engine.data.maps import load_map

    res = Path(out) / "result"
    try:
        if returncode != 0:
            raise OSError
        record = json.loads((res / "history.json").read_text(encoding="utf-8"))
        m = load_map(res / record["map_file"])
        full = record["full"]
    except (OSError, ValueError, KeyError, TypeError, DataError):
        why = log_tail(Path(out) / "generate.log")
        return GenerateOutcome(False, [f"generation failed (exit {returncode})" + (f": {why}" if why else "")])
    return GenerateOutcome(True, outcome_lines(record, full, s), m, bool(record.get("met")), full)


def log_tail(path: Path) -> str:
    """The command's last words (its reason when it fails), without the ``skirmish generate:`` prefix."""
    try:
        lines = [ln.strip() for ln in path.read_text(encoding="utf-8", errors="replace").splitlines() if ln.strip()]
    except OSError:
        return ""
    if not lines:
        return ""
    return lines[-1].removeprefix("skirmish generate:").strip()


def outcome_lines(record: dict, full: dict, s: GenerateSettings) -> list[str]:
    """The generated layout's figures on the full grid, each target met or missed by how much."""
    los_t, hide_t = s.targets()
    rounds, secs = record.get("rounds_run"), record.get("seconds")
    head = (f"targets met in {rounds} rounds, {secs:.0f} s" if record.get("met")
            else f"targets NOT met after {rounds} rounds, {secs:.0f} s: the closest layout found")
    out = [f"Generated (seed {record.get('seed', s.seed)}): {head}"]
    out.append(f"line of sight {_pct(full.get('los'))} ({_verdict(los_t, full)})")
    hide = full.get("hide") or {}
    out.append(f"zones hideable {_pct(hide.get('1'))} / {_pct(hide.get('2'))}, "
               f"{_num(full.get('hide_diff'))} apart ({_verdict(hide_t, full)})")
    return out


def _verdict(t: Target, full: dict) -> str:
    miss = t.worst_miss(full) - t.tolerance()
    aim = f"{t.value:g} +-{t.tolerance():g}" if t.op == "=" else f"{t.op} {t.value:g}"
    return f"aim {aim}: met" if miss <= 1e-9 else f"aim {aim}: missed by {miss:.1f}"


def _pct(v) -> str:
    return "-" if v is None else f"{v:.1f}%"


def _num(v) -> str:
    return "-" if v is None else f"{v:.1f}"


# ----------------------------------------------------------------------------- putting it in place

def frame_of(m: MapFile) -> tuple:
    """What a generated layout keeps from the map it started on: table, unit, zones, markers
    and locked pieces. A result is put in place only while the editor's map still has these."""
    return (m.width, m.height, m.unit, tuple(m.deployment), tuple(m.objectives), tuple(m.evac_points),
            tuple(p for p in m.pieces if p.locked))


def frame_problem(start: MapFile, now: MapFile, generated: MapFile) -> str:
    """Why the generated layout cannot replace the unlocked pieces of ``now`` ("" if it can)."""
    a, b = frame_of(start), frame_of(now)
    what = ("table size", "table size", "unit", "zones", "objectives", "evacuation points", "locked pieces")
    for name, x, y in zip(what, a, b):
        if x != y:
            return f"the layout's {name} changed while the generator ran: generate again"
    kept = {p.id: p for p in generated.pieces}
    for p in b[-1]:
        if kept.get(p.id) != p:
            return f"the generated layout does not keep the locked piece {p.id} as it is (not put in place)"
    if (generated.width, generated.height, generated.unit) != b[:3] or tuple(generated.deployment) != b[3] \
            or tuple(generated.objectives) != b[4]:
        return "the generated layout has another table, zones or objectives (not put in place)"
    return ""


def replace_edit(now: MapFile, generated: MapFile, label: str) -> E.Edit | None:
    """The unlocked pieces of ``now`` out, the generated layout's other pieces in, as one step
    (None when that changes nothing)."""
    locked = {p.id for p in now.pieces if p.locked}
    gone = tuple(p.id for p in now.pieces if not p.locked)
    new = tuple(p for p in generated.pieces if p.id not in locked)
    if [p for p in now.pieces if not p.locked] == list(new):
        return None
    parts = ([E.DeletePieces(gone)] if gone else []) + ([E.AddPieces(new)] if new else [])
    return E.Compound(tuple(parts), label)
