"""The editor's commands on the selection: choosing items (the one writer of ``selection`` and
``vertex_mode`` in the editor's state, ``state.py``), select all, Esc, corner editing, delete,
and the property form's fields, which change the selected items.

Plain functions of the editor (``ed``): those named in ``commands.COMMANDS`` take the command's
argument and return the edits and intents for ``ed.apply_all`` (or None).
"""
from __future__ import annotations

import pygame

from engine.workshop import edits as E
from game.kit.edit_tool import Choose


def choose(ed, keys) -> None:
    """The selection becomes ``keys`` (the form follows)."""
    ed.state.selection = list(keys)
    ed.refresh_form()


def keep_present(ed) -> None:
    """After a change of the map: the selection keeps the items that are still there."""
    present = set(E.keys_of(ed.map))
    ed.state.selection = [k for k in ed.state.selection if k in present]


def select_all(ed, _=None):
    return [Choose(tuple(("piece", p.id) for p in ed.map.pieces))]


def delete(ed, _=None):
    sel = ed.state.selection
    if not sel:
        return None
    parts = []
    ids = tuple(k[1] for k in sel if k[0] == "piece")
    if ids:
        parts.append(E.DeletePieces(ids))
    marks = tuple(k for k in sel if k[0] in ("objective", "evac"))
    if marks:
        parts.append(E.DeleteMarkers(marks))
    zones = tuple(k[1] for k in sel if k[0] == "zone")
    if zones:
        parts.append(E.DeleteZones(zones))
    return [E.Compound(tuple(parts), f"delete {len(sel)} item(s)"), Choose(())]


def backspace(ed, _=None):
    if not ed.state.vertex_mode:
        return delete(ed)
    ed.table.select.hover(ed.world(ed.table.mouse), ed.table.mouse)
    ed.input.tool_key(ed.table.select, pygame.K_BACKSPACE, pygame.key.get_mods())
    return None


def insert_vertex(ed, _=None):
    if ed.table_rect.collidepoint(ed.table.mouse):
        ed.table.select.hover(ed.world(ed.table.mouse), ed.table.mouse)
        ed.input.tool_key(ed.table.select, pygame.K_INSERT, pygame.key.get_mods())
    return None


def escape(ed, _=None):
    st = ed.state
    if ed.help.visible:
        ed.help.visible = False
    elif ed.input.escape_tool():
        pass
    elif st.vertex_mode:
        st.vertex_mode = False
    else:
        return [Choose(())]
    return None


def vertex_mode(ed, _=None):
    st = ed.state
    st.vertex_mode = not st.vertex_mode
    ed.say("corner editing " + ("on: drag a corner; Insert adds one, Backspace removes one" if st.vertex_mode
                                else "off"))


# --- the property form's fields and menus (they change the selected items) -----------------------
def commit_field(ed, el):
    form = ed.properties.form
    name = form.fields[el]
    try:
        edit = form.edit_for_text(name, el.get_text())
    except ValueError as err:
        form.problem = f"{name.split('.')[-1]}: {err}"
        return None
    if edit is None:
        return None
    st = ed.state
    before = ed.map
    if ed.apply(edit) and name == "id":
        new = el.get_text().strip()
        choose(ed, [("piece", new) if k == ("piece", form.keys[0][1]) else k for k in st.selection])
        ed.refresh_form(force=True)
    elif ed.map is before:
        form.problem = st.messages[-1][0] if st.messages else ""
    if name.startswith("marker.") and ed.map is not before:
        grp = st.selection[0][0]
        if name == "marker.id":
            choose(ed, [(grp, el.get_text().strip())])
        ed.refresh_form(force=True)
    return None


def commit_focused_field(ed) -> None:
    """A click elsewhere applies what was typed, if it is valid."""
    form = ed.properties.form
    f = form.focused_entry()
    if f is None:
        return
    el, _name = f
    if not form.problem:
        commit_field(ed, el)


def form_choice(ed, what):
    ed.apply(what)
    ed.refresh_form(force=True)


def refresh_form(ed, _=None):
    ed.refresh_form(force=True)
