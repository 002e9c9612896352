"""The editor's Generate, driven headless through ``App.step`` (as in ``test_editor_scene.py``):
the dialog, ``skirmish generate`` in a child process, the result as one undo step, Cancel, and a
failing generator. The searches are kept tiny (a 24x18" table, 2 chains, a few rounds of a few
moves): what is tested is the editor's side, the search has its own tests."""
from __future__ import annotations

import json
import time

import pygame
import pytest
from client_helpers import app_fixture, click, editor, frame, key

from engine.data.maps import Piece, PolygonShape, WallShape
from engine.workshop import edits as E
from engine.workshop.targets import parse_target
from game.editor import generation as G

app = app_fixture(close_scene=True)      # the editor's analysis worker is stopped at the end

W, H = 24.0, 18.0


@pytest.fixture(autouse=True)
def no_orphans(monkeypatch):
    """Every generator a test starts is ended when it ends, passed or failed (the command runs
    in its own session: a failed assertion would leave it running)."""
    from game.editor import worker

    runs = []
    real = worker.GenerateRun.__init__

    def init(self, *a, **kw):
        real(self, *a, **kw)
        runs.append(self)

    monkeypatch.setattr(worker.GenerateRun, "__init__", init)
    yield runs
    for r in runs:
        worker.stop(r.proc)


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(G, "GENERATE_CHAINS", 2)
    monkeypatch.setattr(G, "GENERATE_ROUNDS", 3)
    monkeypatch.setattr(G, "GENERATE_STEPS", 4)


def small_map(extra=()):
    """A 24x18" table (a zone along each short edge, an objective in the middle) with a locked
    crate and an unlocked barrel."""
    from game.editor.document import new_map

    m = new_map(W, H, map_id="small")
    crate = Piece(id="old-crate", kind="crate", locked=True,
                  shape=PolygonShape(points=[(11, 3), (13, 3), (13, 5), (11, 5)]))
    barrel = Piece(id="barrel-x", kind="barrel", shape=PolygonShape(points=[(8, 13), (9, 13), (9, 14), (8, 14)]))
    return m.model_copy(update={"pieces": [crate, barrel, *extra]})


def ui_events(app):
    """Feed the events pygame_gui posted (button presses) back through the app."""
    for ev in pygame.event.get():
        frame(app, [ev], n=0)


def press(app, button):
    click(app, button.rect.center)
    ui_events(app)


def open_dialog(app, scene):
    press(app, scene.toolbar.buttons["generate"])
    frame(app, n=2)
    assert scene.dialogs.dialog is not None and scene.dialogs.kind == "generate"
    return scene.dialogs.dialog


def wait_generated(app, scene, timeout=240.0) -> int:
    """Frames drawn until the generator ends (the editor keeps drawing meanwhile)."""
    t0, n = time.monotonic(), 0
    while scene.state.generating is not None and time.monotonic() - t0 < timeout:
        frame(app)
        n += 1
        time.sleep(0.02)
    assert scene.state.generating is None, f"the generator did not end in {timeout:.0f} s"
    return n


def the_record(scene_out):
    res = scene_out / "result"
    return json.loads((res / "history.json").read_text())


# ----------------------------------------------------------------------------- the editor

def test_generate_replaces_the_unlocked_pieces_as_one_undo_step(app, tiny):
    from engine.table import Table
    from engine.workshop.targets import sight_figures

    scene = editor(app, small_map())
    before = scene.map
    steps = len(scene.stack.done)
    d = open_dialog(app, scene)
    assert (d.los.get_text(), d.tol.get_text(), d.hide.get_text(), d.seed.get_text()) == ("30", "3", "5", "1")
    d.seed.set_text("4")
    press(app, d.go)
    assert scene.dialogs.dialog is None and scene.state.generating is not None
    run = scene.state.generating
    assert scene.state.gen_progress is not None and scene.toolbar.buttons["generate"].text == "Cancel gen."
    # the layout was written as it stood (a copy in the user's folder) and passed as --locked
    sent = json.loads(next(run.out.glob("small.json")).read_text())
    assert [p["id"] for p in sent["pieces"]] == ["old-crate", "barrel-x"]
    frames = wait_generated(app, scene)
    assert frames >= 2 and scene.state.gen_progress is None and scene.toolbar.buttons["generate"].text == "Generate"
    assert run.rounds_done() >= 1                      # progress read from the command's round lines
    after = scene.map
    # the map changed: the barrel went, generated pieces came; the locked crate is the very same
    assert after != before and "barrel-x" not in {p.id for p in after.pieces}
    assert E.get_piece(after, "old-crate") == E.get_piece(before, "old-crate")
    assert (after.width, after.height, after.deployment, after.objectives) == \
        (before.width, before.height, before.deployment, before.objectives)
    # the pieces are the generated file's, in one new undo step
    record = the_record(run.out)
    made = json.loads((run.out / "result" / record["map_file"]).read_text())
    assert sorted(p.id for p in after.pieces) == sorted(p["id"] for p in made["pieces"])
    assert len(scene.stack.done) == steps + 1
    # the figures shown are the generated layout's full-grid figures, with the targets' verdicts
    full = record["full"]
    assert sight_figures(Table(after), 25.4)["los"] == full["los"]
    shown = " | ".join(scene.state.generate_lines)
    assert f"line of sight {full['los']:.1f}%" in shown
    assert f"zones hideable {full['hide']['1']:.1f}% / {full['hide']['2']:.1f}%" in shown
    los_ok = abs(full["los"] - 30) <= 3
    assert ("aim 30 +-3: met" in shown) == los_ok and ("met" if record["met"] else "NOT met") in shown
    gone = len(before.pieces) - 1
    assert f"{len(after.pieces) - 1} generated pieces in place of {gone} piece;" in shown
    # the live analysis follows (its answer is taken on the next frame)
    frame(app)
    assert scene.state.live is not None and scene.state.live.version == scene.stack.version
    # one undo gives back the exact old map; redo the generated one
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.map == before and scene.map.model_dump() == before.model_dump()
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert scene.map == after


def test_under_point_symmetry_the_result_goes_in_whole_and_symmetric(app, tiny):
    """The editor's symmetry mode is the dialog's default; the lone locked crate gets its locked
    twin from the generator, and the result is put in as it is (no twins of twins)."""
    scene = editor(app, small_map())
    key(app, pygame.K_m)
    key(app, pygame.K_m)
    key(app, pygame.K_m)
    assert scene.stack.symmetry == "point"
    d = open_dialog(app, scene)
    assert d.symmetry_mode() == "point"
    press(app, d.go)
    run = scene.state.generating
    wait_generated(app, scene)
    made = json.loads((run.out / "result" / the_record(run.out)["map_file"]).read_text())
    assert sorted(p.id for p in scene.map.pieces) == sorted(p["id"] for p in made["pieces"])
    assert E.unmatched(scene.map, "point") == []
    twins = [p for p in scene.map.pieces if p.locked and p.id != "old-crate"]
    assert len(twins) == 1                              # the crate's mirror image, locked too
    assert scene.stack.symmetry == "point"              # the mode is back on


def test_cancel_leaves_the_map_unchanged_and_ends_the_command(app, monkeypatch):
    monkeypatch.setattr(G, "GENERATE_CHAINS", 2)
    monkeypatch.setattr(G, "GENERATE_ROUNDS", 100_000)
    monkeypatch.setattr(G, "GENERATE_STEPS", 4)
    scene = editor(app, small_map())
    before, steps = scene.map, len(scene.stack.done)
    d = open_dialog(app, scene)
    d.los.set_text("0")                      # line of sight 0 +-0 on an open table: never met
    d.tol.set_text("0")
    press(app, d.go)
    run = scene.state.generating
    t0 = time.monotonic()
    while run.rounds_done() < 1 and time.monotonic() - t0 < 120:
        frame(app)
        time.sleep(0.05)
    assert run.rounds_done() >= 1 and run.running
    frame(app)
    assert 0 < scene.state.gen_progress.current_progress < 1
    assert scene.state.gen_progress.status_text().startswith("round ") and "of at most 100000" in scene.state.gen_progress.status_text()
    press(app, scene.toolbar.buttons["generate"])    # now "Cancel gen."
    assert scene.state.generating is None and run.proc.poll() is not None
    frame(app, n=3)
    assert scene.map is before and len(scene.stack.done) == steps
    assert any("cancelled" in line for line in scene.state.generate_lines)
    assert not (run.out / "result" / "history.json").exists()


def test_a_failing_generator_is_reported_and_the_map_kept(app, tiny):
    """Locked walls ring the objective: the command refuses the start layout (exit 2); the panel
    says why, the map is unchanged, nothing is raised."""
    ring = [Piece(id=f"ring-{i}", kind="wall", locked=True, climbable=False, shape=WallShape(a=a, b=b, thickness=0.5))
            for i, (a, b) in enumerate([((9.5, 7), (14.5, 7)), ((14, 6.5), (14, 11.5)), ((14.5, 11), (9.5, 11)),
                                        ((10, 11.5), (10, 6.5))])]
    scene = editor(app, small_map(ring))
    before = scene.map
    d = open_dialog(app, scene)
    press(app, d.go)
    wait_generated(app, scene)
    assert scene.map is before
    shown = " | ".join(scene.state.generate_lines)
    assert "generation failed (exit 2)" in shown and "breaks a constraint" in shown, shown
    assert "the layout is as it was" in shown


def test_a_broken_command_is_reported_not_raised(app, tiny, monkeypatch):
    real = G.command_args
    monkeypatch.setattr(G, "command_args", lambda *a: real(*a) + ["--no-such-option"])
    scene = editor(app, small_map())
    before = scene.map
    press(app, open_dialog(app, scene).go)
    wait_generated(app, scene)
    assert scene.map is before
    assert "generation failed (exit 2)" in scene.state.generate_lines[0] and "no-such-option" in scene.state.generate_lines[0]


def test_the_dialog_refuses_bad_fields_and_starts_nothing(app):
    scene = editor(app, small_map())
    d = open_dialog(app, scene)
    for field, text, why in [(d.los, "150", "line of sight: 150 is not from 0 to 100%"),
                             (d.los, "abc", "line of sight: 'abc' is not a number"),
                             (d.seed, "-1", "seed: -1 is not from 0"), (d.seed, "2.5", "seed: '2.5' is not a whole"),
                             (d.hide, "1e3", "hideable share: 1000 is not from 0 to 100 points")]:
        d.los.set_text("30")
        d.seed.set_text("1")
        d.hide.set_text("5")
        field.set_text(text)
        press(app, d.go)
        assert scene.dialogs.dialog is d and scene.state.generating is None
        assert why in d.problem.text, (text, d.problem.text)
    press(app, d.cancel)
    assert scene.dialogs.dialog is None and scene.state.generating is None and scene.state.generate_lines == []


def test_an_unsavable_layout_is_refused_before_anything_starts(app):
    scene = editor(app, small_map())
    scene.apply(E.DeleteZones((1,)))             # a draft without side 2's zone
    d = open_dialog(app, scene)
    press(app, d.go)
    assert scene.state.generating is None
    assert "cannot generate on this layout yet" in scene.state.generate_lines[0] and "deployment" in scene.state.generate_lines[0]


# ----------------------------------------------------------------------------- the parts

def test_replace_edit_undoes_exactly_and_keeps_locked_pieces():
    m = small_map([Piece(id="crate-2", kind="crate", shape=PolygonShape(points=[(3, 3), (4, 3), (4, 4)]))])
    new = Piece(id="barrel-x", kind="barrel", shape=PolygonShape(points=[(15, 9), (16, 9), (16, 10)]))
    gen = m.model_copy(update={"pieces": [m.pieces[0], new]})
    edit = G.replace_edit(m, gen, "generate")
    stack = E.EditStack(m)
    stack.do(edit)
    assert [p.id for p in stack.map.pieces] == ["old-crate", "barrel-x"] and stack.map.pieces[1] == new
    stack.undo()
    assert stack.map == m and [p.id for p in stack.map.pieces] == ["old-crate", "barrel-x", "crate-2"]
    assert G.replace_edit(m, m, "generate") is None            # nothing to change


def test_frame_problem_names_what_changed():
    m = small_map()
    gen = m.model_copy(update={"pieces": [m.pieces[0]]})
    assert G.frame_problem(m, m, gen) == ""
    moved = E.EditStack(m)
    moved.do(E.lock(["old-crate"], False))
    moved.do(E.Move((("piece", "old-crate"),), 1.0, 0.0))
    moved.do(E.lock(["old-crate"]))
    assert "locked pieces changed" in G.frame_problem(m, moved.map, gen)
    shifted = E.EditStack(m)
    shifted.do(E.Move((("objective", "centre"),), 1.0, 0.0))
    assert "objectives changed" in G.frame_problem(m, shifted.map, gen)
    wide = gen.model_copy(update={"width": 23.999999999999996})
    assert "another table" in G.frame_problem(m, m, wide)


def test_outcome_lines_say_met_or_by_how_much_by_hand():
    s = G.GenerateSettings(None, 30.0, 3.0, 5.0, 7)
    rec = {"seed": 7, "met": False, "rounds_run": 60, "seconds": 41.2}
    full = {"los": 34.5, "hide": {"1": 40.0, "2": 32.5}, "hide_diff": 7.5}
    lines = G.outcome_lines(rec, full, s)
    assert lines == ["Generated (seed 7): targets NOT met after 60 rounds, 41 s: the closest layout found",
                     "line of sight 34.5% (aim 30 +-3: missed by 1.5)",
                     "zones hideable 40.0% / 32.5%, 7.5 apart (aim <= 5: missed by 2.5)"]
    full = {"los": 27.0, "hide": {"1": 40.0, "2": 36.0}, "hide_diff": 4.0}
    lines = G.outcome_lines(dict(rec, met=True), full, s)
    assert lines[1].endswith("(aim 30 +-3: met)") and lines[2].endswith("(aim <= 5: met)")


def test_settings_give_the_commands_targets():
    s = G.settings_from_texts("mirror_y", " 32.5 ", "2", "4", "9")
    assert s == G.GenerateSettings("mirror_y", 32.5, 2.0, 4.0, 9)
    assert s.targets() == [parse_target("los=32.5+-2"), parse_target("hide_diff<=4")]
    args = G.command_args(G.Path("a.json"), G.Path("out"), s, 28.0)
    assert args[args.index("--symmetry") + 1] == "mirror_y" and args[args.index("--base") + 1] == "28"
    assert [args[i + 1] for i, a in enumerate(args) if a == "--target"] == ["los=32.5+-2.0", "hide_diff<=4.0"]
    with pytest.raises(ValueError, match="tolerance"):
        G.settings_from_texts(None, "30", "-1", "5", "1")


def test_the_base_is_the_largest_smallest_base_of_the_rulesets_the_map_suits():
    from engine.workshop.reachability import smallest_base_mm

    m = small_map()
    assert G.base_for(m) is None
    both = m.model_copy(update={"suits": ["frontier", "doubles"]})
    assert G.base_for(both) == max(smallest_base_mm("frontier"), smallest_base_mm("doubles"))


def test_generate_keeps_the_locked_maps_table_size_exactly(tmp_path, monkeypatch):
    """``--locked`` on a 24x18" map gives a 24x18" map, not 23.999999999999996 (the editor
    compares the two tables exactly)."""
    from game.cli import main
    from game.editor.document import map_json

    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    src = tmp_path / "small.json"
    src.write_text(map_json(small_map()))
    out = tmp_path / "gen"
    assert main(["generate", "--locked", str(src), "--out", str(out), "--no-pictures", "--quiet",
                 "--chains", "1", "--rounds", "1", "--steps", "2", "--use", "crate-pile=0-1"]) == 0
    made = json.loads(next(out.glob("generated-*.json")).read_text())
    assert (made["width"], made["height"]) == (24.0, 18.0)


def test_closing_the_window_ends_the_generator_and_play_does_not(app, tiny, monkeypatch):
    from game.scenes.launcher import LauncherScene

    scene = editor(app, small_map())
    before = scene.map
    press(app, open_dialog(app, scene).go)
    scene.command("play")                                     # to the launcher and back: the run goes on
    assert isinstance(app.scene, LauncherScene) and scene.state.generating is not None
    app.switch(scene)
    wait_generated(app, scene)
    assert scene.map != before and "Ctrl+Z brings the old layout back" in scene.state.generate_lines[-1]
    monkeypatch.setattr(G, "GENERATE_ROUNDS", 100_000)
    press(app, open_dialog(app, scene).go)
    run = scene.state.generating
    assert run.running
    scene.state.doc.stack.mark_saved()                     # nothing to ask about: the window just closes
    frame(app, [pygame.event.Event(pygame.QUIT)])
    assert not app.running and run.proc.poll() is not None
