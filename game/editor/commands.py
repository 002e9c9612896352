"""The editor's named commands, in one table (``COMMANDS``): what the ``Command`` intents its
panels return do (the tool bar's buttons and menus, the form's fields, the keys of ``keymap``, the
dialogs' answers, the table's drag events). ``run`` looks the name up and hands what the command
returns (edits and intents) to ``ed.apply_all``: no string ladder, no ``cmd_`` methods.

The commands are plain functions of the editor (``ed``) and the command's argument, kept by what
they act on: ``clipboard``, ``arrange`` (the selected items), ``selection`` (and the form),
``view``, the drag (``table_input``), and here the document's (files, undo, play, the runs).
"""
from __future__ import annotations

from game.editor import arrange, clipboard, selection, table_input, view


# --- the document's commands ---------------------------------------------------------------------
def history(ed, which: str) -> None:
    """Undo (``which`` "undo") or redo the last edit, saying which."""
    e = getattr(ed.stack, which)()
    if e is None:
        ed.say(f"nothing to {which}")
        return
    ed.say(f"{'undone' if which == 'undo' else 'redone'}: {e.describe()[:140]}")
    ed.map_changed()


def play(ed, _=None) -> None:
    from engine.workshop import edits as E

    problems = E.save_problems(ed.map)
    if problems:
        ed.files.show_lines([f"{ed.map.id}: {f or '(map)'}: {r}" for f, r in problems])
        ed.say("this layout cannot be played yet: " + ed.state.save_lines[0], error=True)
        return
    from game.kit.transitions import Switch

    ed.go_to(Switch("launcher", {"extra_map": ed.map, "editor": ed}))


def sheet(ed, _=None) -> None:
    from game.editor.balance import write_sheet

    for line in write_sheet(ed.map):
        ed.say(line)


def tool(ed, arg) -> None:
    from game.editor.place_tools import tool_for

    action, text = arg
    ed.table.tool = tool_for(action, ed.catalog, ed.context())
    ed.say(f"{text}: {ed.table.tool.hint}")


COMMANDS = {
    # the document: files (asking first when changes would be lost), undo, play, the runs
    "new": lambda ed, _: ed.discard.confirm("new"),
    "open": lambda ed, _: ed.discard.confirm("open"),
    "import": lambda ed, _: ed.discard.confirm("import"),
    "menu": lambda ed, _: ed.discard.confirm("menu"),
    "answer": lambda ed, arg: ed.discard.answer(*arg),
    "save": lambda ed, _: ed.files.save(),
    "saveas": lambda ed, _: ed.files.open_file_dialog("saveas"),
    "undo": lambda ed, _: history(ed, "undo"),
    "redo": lambda ed, _: history(ed, "redo"),
    "play": play,
    "sheet": sheet,
    "balance": lambda ed, _: ed.runs.test_balance(),
    "generate": lambda ed, _: ed.runs.generate(),
    "start_generate": lambda ed, settings: ed.runs.start_generate(settings),
    # the placing tools
    "tool": tool,
    "end_tool": lambda ed, _: ed.input.end_tool(),
    # the clipboard
    "copy": clipboard.copy,
    "paste": clipboard.paste,
    "duplicate": clipboard.duplicate,
    # arranging the selected items
    "group": arrange.group,
    "lock": arrange.lock,
    "turn": arrange.turn,
    "nudge": arrange.nudge,
    # the selection and its form
    "select_all": selection.select_all,
    "delete": selection.delete,
    "backspace": selection.backspace,
    "insert_vertex": selection.insert_vertex,
    "escape": selection.escape,
    "vertex_mode": selection.vertex_mode,
    "commit_field": selection.commit_field,
    "form_choice": selection.form_choice,
    "refresh_form": selection.refresh_form,
    # the view
    "snap": view.snap,
    "grid": view.grid,
    "help": view.toggle_help,
    "overlay": view.overlay,
    "cycle_overlay": view.cycle_overlay,
    "symmetry": view.symmetry,
    "cycle_symmetry": view.cycle_symmetry,
    "fit": view.fit,
    # the drag on the table
    "quiet": table_input.quiet,
    "drag_moved": table_input.drag_moved,
    "drag_over": table_input.drag_over,
    "cancel_drag": table_input.cancel_drag,
    "enter": table_input.enter,
}


def run(ed, name: str, arg=None) -> None:
    """Do the command ``name`` (a ``KeyError`` for a name no panel should send)."""
    out = COMMANDS[name](ed, arg)
    if isinstance(out, list):
        ed.apply_all(out)
