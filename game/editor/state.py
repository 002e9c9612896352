"""The layout editor's state: every field the editor changes as it runs, in one place, each with
the part that owns it. Only the owner assigns the field (``tests/test_shape_rule.py`` checks it);
the others read it, or ask the owner.

The owners: ``scene`` (``game/scenes/editor.py``: the map changing, messages, the clock),
``files`` (``files.py``: the document, saving and opening), ``analysis`` (``analysis.py``: the
live analysis and the baseline), ``runs`` (``runs.py``: the balance test and the generator),
``input`` (``table_input.py``: what the panels return, applied), and the command modules
(``clipboard.py``, ``selection.py``, ``view.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class EditorState:
    doc: Any                                  # files: the document (map, edit stack, paths, autosave)
    renderer: Any                             # files: the table's drawing (a new one per document)
    grid: float                               # view: the snapping step, in map units
    layout_unit: str = ""                     # scene: the map unit the widgets were laid out for
    selection: list = field(default_factory=list)   # selection: the chosen items' keys
    clipboard: list = field(default_factory=list)   # clipboard: the copied pieces
    snap_on: bool = True                      # view: snapping to the grid
    vertex_mode: bool = False                 # selection: corner editing
    clock: float = 0.0                        # scene: seconds since the editor opened
    messages: list = field(default_factory=list)    # scene: (text, until, error) of the status line
    frame_ms: list = field(default_factory=list)    # scene: the last frames' drawing times
    save_lines: list = field(default_factory=list)  # files: a refused save's (or play's) file / field / reason lines
    file_dialog: Any = None                   # files: (the UIFileDialog opened last, its kind) until its path comes
    live: Any = None                          # analysis: the newest analysis result
    live_full: Any = None                     # analysis: the newest full-grid one
    baseline: Any = None                      # analysis: the analysis of the map as last saved
    coarse_at: float = 0.0                    # analysis: when the last analysis was asked
    lifted_from: Any = None                   # input: the map when a drag lifted its items off the table image
    coarse_sent: Any = None                   # input: the drag preview last sent for a coarse analysis
    quiet: bool = False                       # input: the edits being applied say nothing
    balance: Any = None                       # runs: the balance test running (worker.BalanceRun)
    balance_lines: list = field(default_factory=list)   # runs: what the last balance test said
    generating: Any = None                    # runs: the generator running (worker.GenerateRun)
    generate_lines: list = field(default_factory=list)  # runs: what the last generator run said
    generate_settings: Any = None             # runs: the dialog's last answer (the next one starts from it)
    generate_from: Any = None                 # runs: (document, map) the running generator started on
    progress: Any = None                      # runs: the balance test's progress bar
    gen_progress: Any = None                  # runs: the generator's progress bar
