"""The editor's commands on the view: the grid and snapping (the one writer of ``grid`` and
``snap_on`` in the editor's state, ``state.py``), the overlay, the symmetry mode, fitting the
table in the window, the help.

Plain functions of the editor (``ed``); those named in ``commands.COMMANDS`` take the command's
argument and return None (nothing here edits the map).
"""
from __future__ import annotations

from engine.workshop import edits as E
from engine.workshop import snapping as SN
from game.editor.layout import SYMMETRY_CHOICES


def grid_options(ed) -> list[float]:
    base = SN.grid_step(ed.map.unit)
    return [base * f for f in (0.5, 1, 2, 4)]


def grid_label(ed, g) -> str:
    unit = '"' if ed.map.unit == "in" else f" {ed.map.unit}"
    return f"Grid {g:g}{unit}"


def reset_grid(ed) -> None:
    """The map's own grid step (another document, another unit)."""
    ed.state.grid = SN.grid_step(ed.map.unit)


def keep_grid(ed) -> None:
    """After a change of the map: a grid step the menu no longer offers goes back to the map's."""
    if ed.state.grid not in grid_options(ed):
        reset_grid(ed)


def fit(ed, _=None) -> None:
    ed.table.cam = ed.state.renderer.fit_camera(ed.table_rect.size, margin_px=24)


def grid(ed, label) -> None:
    for g in grid_options(ed):
        if grid_label(ed, g) == label:
            ed.state.grid = g


def snap(ed, _=None) -> None:
    st = ed.state
    st.snap_on = not st.snap_on
    ed.toolbar.buttons["snap"].set_text(f"Snap: {'on' if st.snap_on else 'off'}")


def toggle_help(ed, _=None) -> None:
    ed.help.visible = not ed.help.visible


def overlay(ed, mode) -> None:
    ed.overlay.mode = mode


def cycle_overlay(ed, _=None) -> None:
    ed.overlay.cycle()
    ed.say(f"overlay: {ed.overlay.mode}")
    ed.toolbar.show_overlay(ed.overlay.mode)


def symmetry(ed, mode) -> None:
    ed.stack.symmetry = mode
    if mode:
        left = E.unmatched(ed.map, mode)
        ed.say(f"symmetry {mode.replace('_', ' ')}: every edit keeps its counterpart in step"
               + (f"; {len(left)} items have none yet" if left else ""))
    else:
        ed.say("symmetry off")


def cycle_symmetry(ed, _=None) -> None:
    modes = list(SYMMETRY_CHOICES.values())
    symmetry(ed, modes[(modes.index(ed.stack.symmetry) + 1) % len(modes)])
    ed.toolbar.show_symmetry(ed.stack.symmetry)
