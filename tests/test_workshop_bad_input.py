"""The workshop's commands refuse bad input (issue 47, "Bad input and faults"): each case runs the
real command as a process with a time limit and checks that nothing prints a traceback, the
exit code is the documented one (docs/commands.md: 1: a file refused, unreadable or unwritable; 2: bad usage) and
nothing that was there is overwritten. The damaged ``--resume`` states are in
test_workshop_resume_damage.py; the broad battery is ``tests/workshop_fuzz.py``."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli

from engine.data.errors import DataError


def run(argv, home: Path, timeout: float = 90) -> subprocess.CompletedProcess:
    return run_cli(argv, home, timeout)


def clean(p: subprocess.CompletedProcess, rc: int, *words: str) -> str:
    """The process ended with ``rc``, no traceback, and said each of ``words`` (stderr then stdout)."""
    text = p.stderr + p.stdout
    assert "Traceback" not in text, text[-3000:]
    assert p.returncode == rc, (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    for w in words:
        assert w in text, (w, text[-2000:])
    return text


def digest(folder: Path) -> dict:
    """Every file under ``folder`` and a hash of its bytes (to tell that nothing was overwritten)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def a_map(tmp_path: Path, file: str = "m.json", **changes) -> Path:
    doc = json.loads((ROOT / "maps" / "prehistoric.json").read_text())
    doc.update(changes)
    path = tmp_path / file
    path.write_text(json.dumps(doc))
    return path


# --- every string has a bound -----------------------------------------------------------------
def test_a_huge_map_name_is_refused_by_every_command_that_reads_it(tmp_path):
    """A 40 MB name was accepted by validate and segfaulted the editor's screenshot; 5 MB crashed
    edit, play and the import and kept sheet busy past 60 s."""
    big = a_map(tmp_path, "big.json", name="N" * 40_000_000)
    mid = a_map(tmp_path, "mid.json", name="N" * 5_000_000)
    for path in (big, mid):
        t0 = time.monotonic()
        text = clean(run(["validate", str(path)], tmp_path), 1, str(path), "name")
        assert "N" * 1000 not in text                      # the reason, not the name quoted back
        clean(run(["edit", str(path), "--screenshot", str(tmp_path / "e.png"), "--frames", "2"], tmp_path), 1, "name")
        clean(run(["sheet", str(path), "--out", str(tmp_path / "s.pdf")], tmp_path), 1, "name")
        clean(run(["play", "--ruleset", "doubles", "--map", str(path), "--frames", "1"], tmp_path), 1, "name")
        assert time.monotonic() - t0 < 60
    assert not (tmp_path / "e.png").exists() and not (tmp_path / "s.pdf").exists()


def test_a_name_at_its_bound_is_taken_and_one_past_it_refused(tmp_path):
    from engine.data.maps import load_map
    from engine.data.text import NAME_CHARS

    assert load_map(a_map(tmp_path, name="N" * NAME_CHARS)).name == "N" * NAME_CHARS
    with pytest.raises(DataError, match=f"name: String should have at most {NAME_CHARS} characters"):
        load_map(a_map(tmp_path, name="N" * (NAME_CHARS + 1)))


# --- the Carltographer import -------------------------------------------------------------------
def layout(n: int = 1, **prism) -> dict:
    shape = {"shape_type": "rectangular_prism", "width_inches": 2, "depth_inches": 2, "height_inches": 3, **prism}
    return {"table_width_inches": 60, "table_depth_inches": 44,
            "placed_features": [{"feature": {"id": "crates", "feature_type": "obstacle",
                                             "components": [{"object_id": "crate"}]},
                                 "transform": {"x_inches": (i % 50) - 25 + 0.5, "z_inches": ((i // 50) % 40) - 20 + 0.5}}
                                for i in range(n)],
            "terrain_objects": [{"id": "crate", "name": "Crate", "shapes": [shape]}]}


def import_problem(tmp_path: Path, doc: dict) -> str:
    from engine.workshop.carltographer import import_layout

    path = tmp_path / "layout.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(DataError) as err:
        import_layout(path)
    text = str(err.value)
    assert text.startswith(str(path)), text
    return text


@pytest.mark.parametrize("where, value", [
    ("x", 150_000), ("x", -1e6), ("z", 1e9), ("width", 150_000), ("height", 1e7), ("table", 200_000),
    ("offset", 1e6), ("objective", 1e6),
])
def test_a_number_past_100_m_is_refused_with_its_field(tmp_path, where, value):
    """A coordinate or a size past 100,000 units raised the shape model's own error (a traceback)."""
    doc = layout(2)
    pf = doc["placed_features"][0]
    fields = {"x": ("placed_features[0].transform.x_inches", lambda: pf["transform"].update(x_inches=value)),
              "z": ("placed_features[0].transform.z_inches", lambda: pf["transform"].update(z_inches=value)),
              "width": ("terrain_objects[0].shapes[0].width_inches",
                        lambda: doc["terrain_objects"][0]["shapes"][0].update(width_inches=value)),
              "height": ("terrain_objects[0].shapes[0].height_inches",
                         lambda: doc["terrain_objects"][0]["shapes"][0].update(height_inches=value)),
              "table": ("table_width_inches", lambda: doc.update(table_width_inches=value)),
              "offset": ("terrain_objects[0].shapes[0].offset.x_inches",
                         lambda: doc["terrain_objects"][0]["shapes"][0].update(offset={"x_inches": value})),
              "objective": ("mission.objectives[0].position.x_inches", lambda: doc.update(mission={
                  "objectives": [{"id": "A", "position": {"x_inches": value, "z_inches": 0}}], "deployment_zones": []}))}
    field, change = fields[where]
    change()
    text = import_problem(tmp_path, doc)
    assert field in text and "less than or equal to" in text or "greater than or equal to" in text, text


def test_composed_offsets_past_the_table_are_refused_with_the_feature(tmp_path):
    """Each number within bounds, their sum (a feature's place plus an object's offset) past them."""
    doc = layout(1)
    doc["placed_features"][0]["transform"]["x_inches"] = 3900
    doc["terrain_objects"][0]["shapes"][0]["offset"] = {"x_inches": 3900}
    text = import_problem(tmp_path, doc)
    assert "placed_features[0]" in text and "beyond 100 m" in text


@pytest.mark.parametrize("field, value", [
    ("width_inches", "44"), ("height_inches", "3"), ("rotationally_symmetric", "yes"),
    ("rotationally_symmetric", 1), ("x_inches", "5"),
])
def test_numbers_and_booleans_written_as_strings_are_refused_not_coerced(tmp_path, field, value):
    doc = layout(1)
    if field == "rotationally_symmetric":
        doc[field] = value
        where = field
    elif field == "x_inches":
        doc["placed_features"][0]["transform"][field] = value
        where = "placed_features[0].transform.x_inches"
    else:
        doc["terrain_objects"][0]["shapes"][0][field] = value
        where = f"terrain_objects[0].shapes[0].{field}"
    text = import_problem(tmp_path, doc)
    assert where in text and "valid" in text, text


def test_a_sphere_is_refused_not_imported_as_a_box(tmp_path):
    text = import_problem(tmp_path, layout(1, shape_type="sphere"))
    assert "terrain_objects[0].shapes[0].shape_type" in text and "'sphere'" in text and "refused" in text


def test_placements_past_the_limit_are_refused_at_once_and_the_limit_imports_quickly(tmp_path):
    """10,000 placements took 21 s of CPU (ids were found by scanning every id taken) and
    100,000 froze the editor: the schema states a limit, and an import is linear up to it."""
    from engine.workshop.carltographer import MAX_PLACEMENTS, import_layout

    t0 = time.process_time()
    text = import_problem(tmp_path, layout(10_000))
    assert "placed_features" in text and f"{MAX_PLACEMENTS:,}" in text
    assert time.process_time() - t0 < 5
    path = tmp_path / "full.json"
    path.write_text(json.dumps(layout(MAX_PLACEMENTS)))
    t0 = time.process_time()
    m, _ = import_layout(path)
    assert len(m.pieces) == MAX_PLACEMENTS and len({p.id for p in m.pieces}) == MAX_PLACEMENTS
    assert time.process_time() - t0 < 5          # 0.2 s here; the quadratic ids took 0.4 s at 1,000, 21 s at 10,000


def test_fresh_ids_are_new_ids_in_constant_time():
    from engine.workshop import edits as E
    from engine.workshop.carltographer import _Ids

    ids, taken = _Ids(), set()
    for base in ["crate", "crate", "Crate!", "crate-2", "ruin", "crate", "ruin-7", "ruin", "", "-3"]:
        want = E.new_id(taken, base)
        taken.add(want)
        assert ids.new(base) == want


def test_long_ids_from_the_file_make_ids_within_the_map_bound(tmp_path):
    from engine.data.text import ID_CHARS
    from engine.workshop.carltographer import import_layout

    doc = layout(3)
    for pf in doc["placed_features"]:
        pf["feature"]["id"] = "f" * ID_CHARS
    doc["terrain_objects"][0]["id"] = "o" * ID_CHARS
    for pf in doc["placed_features"]:
        pf["feature"]["components"][0]["object_id"] = "o" * ID_CHARS
    path = tmp_path / "long.json"
    path.write_text(json.dumps(doc))
    m, _ = import_layout(path)
    assert len(m.pieces) == 3 and all(len(p.id) <= ID_CHARS for p in m.pieces)


# --- --scheduler ----------------------------------------------------------------------------------
SMALL_GENERATE = ["generate", "--size", "24x18", "--rounds", "1", "--chains", "1", "--steps", "1", "--no-pictures",
                  "--quiet"]


@pytest.mark.parametrize("argv", [
    [*SMALL_GENERATE, "--out", "{tmp}/g"],
    ["experiment", "--ruleset", "doubles", "--maps", "field", "--games", "2", "--no-progress", "--out", "{tmp}/e"],
    ["balance", "--ruleset", "doubles", "--map", "field", "--out", "{tmp}/b"],
])
@pytest.mark.parametrize("address", ["nonsense", "tcp://127.0.0.1:99999", "tcp://127.0.0.1:1"])
def test_a_bad_or_silent_scheduler_is_a_usage_error_in_time(tmp_path, argv, address):
    if address == "tcp://127.0.0.1:1" and argv[0] != "generate":
        pytest.skip("the wait for a silent scheduler is the same code in every command: once is enough here")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    t0 = time.monotonic()
    text = clean(run([*argv, "--scheduler", address], tmp_path, timeout=60), 2, "--scheduler")
    assert time.monotonic() - t0 < 45
    assert ("not a scheduler address" in text or "port" in text) if address != "tcp://127.0.0.1:1" \
        else "no dask scheduler answered at tcp://127.0.0.1:1 within 10 s" in text


# --- --out ----------------------------------------------------------------------------------------
def test_balance_out_a_file_is_refused_and_left_alone(tmp_path):
    f = tmp_path / "a-file"
    f.write_text("mine")
    clean(run(["balance", "--ruleset", "doubles", "--map", "field", "--out", str(f)], tmp_path), 1, "it is a file")
    assert f.read_text() == "mine"


def test_generate_never_writes_over_a_run_in_its_out_folder(tmp_path):
    out = tmp_path / "g"
    clean(run([*SMALL_GENERATE, "--seed", "5", "--out", str(out)], tmp_path), 0)
    before = digest(out)
    assert "generated-5.json" in before
    clean(run([*SMALL_GENERATE, "--seed", "5", "--out", str(out)], tmp_path), 2, "already holds generated-5.json")
    # another seed would write its own map but the run's other files over the first run's
    clean(run([*SMALL_GENERATE, "--seed", "6", "--out", str(out)], tmp_path), 2, "already holds analysis.json")
    assert digest(out) == before


@pytest.mark.parametrize("argv", [
    ["simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", "1", "--save-dir", "{file}/saves"],
    ["experiment", "--ruleset", "doubles", "--maps", "field", "--games", "2", "--out", "{file}"],
    [*SMALL_GENERATE, "--out", "{file}"],
])
def test_an_unwritable_folder_is_exit_1_as_the_readme_says(tmp_path, argv):
    f = tmp_path / "a-file"
    f.write_text("mine")
    clean(run([a.replace("{file}", str(f)) for a in argv], tmp_path), 1)
    assert f.read_text() == "mine"


# --- edit ---------------------------------------------------------------------------------------
def test_an_editor_screenshot_without_frames_ends_and_writes_the_picture(tmp_path):
    shot = tmp_path / "x.png"
    clean(run(["edit", "field", "--screenshot", str(shot)], tmp_path, timeout=60), 0)
    assert shot.stat().st_size > 1000


@pytest.mark.parametrize("option, value, words", [
    ("--width", "100000", "1 to 16384"), ("--height", "100000", "1 to 16384"), ("--width", "0", "1 to 16384"),
    ("--width", "-5", "1 to 16384"), ("--frames", "0", "frames"), ("--frames", "-5", "frames"),
    ("--width", "wide", "whole number"),
])
def test_editor_sizes_and_frames_out_of_range_are_usage_errors(tmp_path, option, value, words):
    extra = ["--height", "100000"] if option == "--width" and value == "100000" else []
    clean(run(["edit", "field", option, value, *extra, "--frames", "2", "--screenshot", str(tmp_path / "x.png")]
              if option != "--frames" else ["edit", "field", option, value, "--screenshot", str(tmp_path / "x.png")],
              tmp_path, timeout=30), 2, words)
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("what", ["fifo", "folder", "garbage"])
def test_an_unreadable_draft_starts_a_new_table_without_waiting(tmp_path, what):
    from game import userdirs

    os.environ["SKIRMISH_HOME"], old = str(tmp_path), os.environ.get("SKIRMISH_HOME")
    try:
        draft = userdirs.editor_autosave_file()
    finally:
        if old is None:
            del os.environ["SKIRMISH_HOME"]
        else:
            os.environ["SKIRMISH_HOME"] = old
    draft.parent.mkdir(parents=True, exist_ok=True)
    {"fifo": os.mkfifo, "folder": Path.mkdir, "garbage": lambda p: Path(p).write_text("{not json")}[what](draft)
    shot = tmp_path / "x.png"
    clean(run(["edit", "--screenshot", str(shot), "--frames", "2"], tmp_path, timeout=60), 0)
    assert shot.exists()


# --- generate's numbers, simulate, sheet ---------------------------------------------------------
@pytest.mark.parametrize("opt", ["--time-limit", "--cpu-limit"])
@pytest.mark.parametrize("value", ["-1", "nan", "inf", "-inf", "1e300", "soon"])
def test_generate_time_limit_must_be_a_number_of_seconds(tmp_path, value, opt):
    clean(run([*SMALL_GENERATE, opt, value, "--out", str(tmp_path / "g")], tmp_path, timeout=30), 2, opt)
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("target", ["lane_share<=-1", "lane_share<=2000", "obj_held>=-1", "obj_held>=x"])
def test_generate_new_targets_refuse_nonsense(tmp_path, target):
    clean(run([*SMALL_GENERATE, "--target", target, "--out", str(tmp_path / "g")], tmp_path, timeout=30), 2,
          "--target")
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("size, unit", [("0.001x0.001", "in"), ("5x40", "in"), ("5000x44", "in"), ("100x100", "mm")])
def test_generate_size_out_of_range_names_the_option_and_the_bound(tmp_path, size, unit):
    text = clean(run([*SMALL_GENERATE, "--size", size, "--unit", unit, "--out", str(tmp_path / "g")], tmp_path,
                     timeout=30), 2, f"--size {size} {unit}", "each side from")
    assert "validation error" not in text


def test_a_sheet_of_many_pages_prints_no_warning(tmp_path, monkeypatch):
    """More than 20 pages (pyplot's open-figure limit) printed matplotlib's RuntimeWarning."""
    import warnings

    from engine.data.maps import load_named_map
    from engine.workshop import sheet

    monkeypatch.setattr(sheet, "ROWS_PER_PAGE", 4)        # the town's 131 pieces: 34 pages
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sheet.write_sheet(load_named_map("town"), tmp_path / "s.pdf")
    pdf = (tmp_path / "s.pdf").read_bytes()
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 1 + (131 + 3) // 4


# --- the battery's fast subset (tests/workshop_fuzz.py runs the whole of it by hand) -----------------
def test_the_fast_subset_of_the_battery_is_clean(tmp_path):
    import workshop_fuzz

    out = workshop_fuzz.battery(fast=True, work=tmp_path, say=lambda line: None)
    bad = [(r["case"], r["verdict"], r.get("rc"), r.get("tail", "")[-300:])
           for r in out["results"] if r["verdict"] != "ok"]
    assert not bad, bad
    assert out["cases"] >= 30 and len(out["by_command"]) >= 9, out["by_command"]
