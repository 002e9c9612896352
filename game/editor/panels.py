"""The editor's side panels: the palette (catalog templates, mission items, drawing tools), the
property form of the selection (validated as the user types, applied on Enter or when the
pointer leaves the field), and a small dialog with several answers.

Each panel owns its pygame_gui elements inside a rectangle and turns their events into what the
scene does: a palette pick, or an edit for the stack.
"""
from __future__ import annotations

import math

import pygame
import pygame_gui

from engine.data.maps import KIND_DEFAULTS, MM_PER
from engine.workshop import edits as E

KINDS = sorted(KIND_DEFAULTS)
BOOL_PROPS = ("blocks_sight", "obscuring", "impassable", "difficult", "climbable")
PROP_WORDS = {"blocks_sight": "blocks sight", "obscuring": "obscuring", "impassable": "impassable",
              "difficult": "difficult", "climbable": "climbable", "cover": "cover"}
E_ = pygame_gui.elements

# palette entries that are not templates: (text, action)
MISSION_ITEMS = [("Objective marker", ("marker", "objective")), ("Evacuation point", ("marker", "evac")),
                 ("Zone for side 1", ("zone", 1)), ("Zone for side 2", ("zone", 2))]
DRAW_ITEMS = [("Draw a wall run", ("run", "wall")), ("Draw a fence run", ("run", "fence")),
              ("Draw a hedge run", ("run", "hedge")), ("Draw a barricade run", ("run", "barricade"))]


class Palette:
    """The catalog as one list: section headings, then their items."""

    def __init__(self, ui, rect: pygame.Rect, catalog):
        self.ui, self.rect, self.catalog = ui, rect, catalog
        self.actions: dict[str, tuple] = {}
        rows: list[str | tuple[str, str]] = []

        def section(title, items):
            rows.append(f"-- {title} --")
            for text, action in items:
                rows.append(text)
                self.actions[text] = action

        secs = catalog.sections()
        order = sorted(secs, key=lambda n: (n != "Templates", n != "Kinds", n))
        for name in order:
            entries = secs[name]
            section(name, [(t.name, ("template", t.id)) for t, _ in entries if t.name not in self.actions])
        section("Mission", MISSION_ITEMS + [(f"Mission: {m.name}", ("mission", m.id)) for m in catalog.missions])
        section("Draw", DRAW_ITEMS)
        self.rows = rows
        self.list = E_.UISelectionList(rect, rows, ui, allow_multi_select=False)

    def action_of(self, text: str) -> tuple | None:
        return self.actions.get(text)

    def clear(self) -> None:
        for item in self.list.item_list:
            item["selected"] = False
            if item.get("button_element") is not None:
                item["button_element"].unselect()


class ChoiceDialog:
    """A window asking one question with several answers; ``answer(ev)`` gives the one clicked."""

    def __init__(self, ui, centre, title: str, text: str, answers: list[str], width: int = 480):
        r = pygame.Rect(0, 0, width, 200)
        r.center = centre
        self.window = pygame_gui.elements.UIWindow(r, ui, window_display_title=title)
        inner = self.window.get_container().get_rect().size
        E_.UITextBox(text.replace("<", "&lt;"), pygame.Rect(8, 6, inner[0] - 16, inner[1] - 60), ui,
                     container=self.window)
        bw = (inner[0] - 16 - 8 * (len(answers) - 1)) // len(answers)
        self.buttons = {}
        for i, a in enumerate(answers):
            b = E_.UIButton(pygame.Rect(8 + i * (bw + 8), inner[1] - 46, bw, 36), a, ui, container=self.window)
            self.buttons[b] = a

    def alive(self) -> bool:
        return self.window.alive()

    def answer(self, ev) -> str | None:
        if ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element in self.buttons:
            a = self.buttons[ev.ui_element]
            self.window.kill()
            return a
        return None

    def kill(self) -> None:
        self.window.kill()


# decimals worth showing per unit: a hundredth of an inch, a millimetre (100 mm is 3.94", not 3.93701)
DECIMALS = {"in": 2, "cm": 1, "mm": 0}


def fmt_length(v, unit: str) -> str:
    """A length in ``unit`` at that unit's sensible precision ("" for None)."""
    if v is None:
        return ""
    return f"{round(float(v), DECIMALS.get(unit, 2)):g}"


def parse_length(text: str) -> float | None:
    """A number of map units; raises ValueError with the reason."""
    t = text.strip()
    if not t:
        return None
    try:
        v = float(t)
    except ValueError:
        raise ValueError(f"{t!r} is not a number") from None
    if not math.isfinite(v):
        raise ValueError("not a finite number")
    return v


class PropertyForm:
    """The fields of what is selected: one piece, several pieces (a field set applies to all),
    a marker, a zone, or (nothing selected) the map itself."""

    ROW = 30
    PROP_ROW = 28                        # the six property rows, a little closer

    def __init__(self, ui, rect: pygame.Rect, missions=()):
        self.ui, self.rect = ui, rect
        self.missions = list(missions)
        self.container: E_.UIPanel | None = None
        self.fields: dict = {}           # element -> (field name, kind)
        self.entries: dict = {}          # field -> text entry
        self.dropdowns: dict = {}        # element -> field
        self.shown: dict = {}            # field -> the text it was shown with
        self.buttons: dict = {}
        self.keys: list = []
        self.map = None
        self.problem = ""                # the validation message of the field being typed
        self.title = ""
        self._shown: tuple | None = None

    # --- building ------------------------------------------------------------------------
    def show(self, m, keys: list, force: bool = False) -> None:
        sig = (id(m), tuple(keys))
        if sig == self._shown and not force:
            return
        self._shown = sig
        self.map, self.keys = m, list(keys)
        if self.container is not None:
            self.container.kill()
        self.fields, self.entries, self.dropdowns, self.buttons = {}, {}, {}, {}
        self.shown = {}                  # field -> the text it was shown with
        self.problem = ""
        self.container = E_.UIPanel(self.rect, 1, self.ui)
        self.y = 6
        kinds = {k[0] for k in keys}
        if not keys:
            self._map_form(m)
        elif kinds == {"piece"}:
            self._piece_form(m, [k[1] for k in keys])
        elif len(keys) == 1 and keys[0][0] in ("objective", "evac"):
            self._marker_form(m, keys[0])
        elif len(keys) == 1 and keys[0][0] == "zone":
            self._zone_form(m, keys[0][1])
        else:
            self._heading(f"{len(keys)} items selected")
            self._note("move, turn or delete them together; select pieces alone to set their fields")

    def _w(self):
        return self.rect.w - 12

    def _heading(self, text):
        self.title = text
        E_.UILabel(pygame.Rect(6, self.y, self._w(), 24), text, self.ui, container=self.container, object_id="#heading")
        self.y += 28

    def _note(self, text, height=66):
        E_.UITextBox(text.replace("<", "&lt;"), pygame.Rect(6, self.y, self._w(), height), self.ui,
                     container=self.container)
        self.y += height + 4

    def _entry(self, label, name, value, placeholder=""):
        E_.UILabel(pygame.Rect(6, self.y, 86, 26), label, self.ui, container=self.container)
        e = E_.UITextEntryLine(pygame.Rect(94, self.y, self._w() - 88, 26), self.ui, container=self.container,
                               placeholder_text=placeholder)
        e.set_text(value)
        self.shown[name] = value
        self.entries[name] = e
        self.fields[e] = name
        self.y += self.ROW

    def _dropdown(self, label, name, options, current, row=None):
        if label:
            E_.UILabel(pygame.Rect(6, self.y, 86, 26), label, self.ui, container=self.container)
        d = E_.UIDropDownMenu(options, current, pygame.Rect(94, self.y, self._w() - 88, 26), self.ui,
                              container=self.container)
        self.dropdowns[d] = name
        self.y += row or self.ROW
        return d

    def _button(self, text, name, x=6, w=None, newline=True):
        w = self._w() if w is None else w
        b = E_.UIButton(pygame.Rect(x, self.y, w, 28), text, self.ui, container=self.container)
        self.buttons[b] = name
        if newline:
            self.y += self.ROW + 2
        return b

    def _piece_form(self, m, ids):
        pieces = [p for p in m.pieces if p.id in set(ids)]
        one = pieces[0] if len(pieces) == 1 else None

        def common(attr):
            vals = {getattr(p, attr) for p in pieces}
            return vals.pop() if len(vals) == 1 else "(various)"

        if one:                               # the id field names it: no heading row above it
            self.title = f"Piece {one.id}"
            self._entry("id", "id", one.id)
        else:
            self._heading(f"{len(pieces)} pieces")
        name = common("name")
        self._entry("name", "name", "" if name == "(various)" else name, "(various)" if name == "(various)" else "")
        kind = common("kind")
        self._dropdown("kind", "kind", KINDS if kind != "(various)" else ["(various)"] + KINDS, kind)
        h = common("height")
        kd = KIND_DEFAULTS[pieces[0].kind]["height_mm"] / MM_PER[m.unit]
        self._entry(f"height ({m.unit})", "height", "" if h in (None, "(various)") else fmt_length(h, m.unit),
                    "(various)" if h == "(various)" else f"kind's: {fmt_length(kd, m.unit)}")
        # a labelled row each: "kind's (yes)" beside its label fits where "blocks sight: kind's
        # (yes)" in half a row was cut off
        for prop in ("cover",) + BOOL_PROPS:
            vals = {getattr(p, prop) for p in pieces}
            dflt = {p.prop(prop) for p in pieces if getattr(p, prop) is None}
            opts = ["kind's"] + (["none", "light", "heavy"] if prop == "cover" else ["yes", "no"])
            if len(vals) > 1:
                cur = "(various)"
                opts = [cur] + opts
            else:
                v = vals.pop()
                if v is None:
                    d = dflt.pop() if len(dflt) == 1 else None
                    opts[0] = cur = "kind's" + (f" ({'yes' if d is True else 'no' if d is False else d})"
                                                if d is not None else "")
                else:
                    cur = v if isinstance(v, str) else ("yes" if v else "no")
            self._dropdown(PROP_WORDS[prop], prop, opts, cur, row=self.PROP_ROW)
        grp = common("group")
        self._entry("group", "group", "" if grp in (None, "(various)") else grp,
                    "(various)" if grp == "(various)" else "none")
        locked = all(p.locked for p in pieces)
        half = (self._w() - 4) // 2
        self._button("Unlock" if locked else "Lock", "unlock" if locked else "lock", w=half, newline=False)
        self._button("Ungroup" if grp not in (None, "(various)") else "Group", "ungroup" if grp not in (None, "(various)")
                     else "group", x=6 + half + 4, w=half)

    def _marker_form(self, m, key):
        group, mid = key
        mk = next(o for o in (m.objectives if group == "objective" else m.evac_points) if o.id == mid)
        self._heading(("Objective " if group == "objective" else "Evacuation point ") + mid)
        self._entry("id", "marker.id", mk.id)
        self._entry("name", "marker.name", mk.name)
        self._note(f"at ({fmt_length(mk.at[0], m.unit)}, {fmt_length(mk.at[1], m.unit)}) {m.unit}: drag it to move it")

    def _zone_form(self, m, index):
        z = m.deployment[index]
        self._heading(f"Deployment zone {index + 1}")
        self._dropdown("side", "zone.side", ["side 1", "side 2"], f"side {z.side}")
        self._note("drag its border to move it, its corners to reshape it; Insert adds a corner under the pointer")

    def _map_form(self, m):
        self._heading("The table")
        self._entry("id", "map.id", m.id)
        self._entry("name", "map.name", m.name)
        self._entry(f"width ({m.unit})", "map.width", fmt_length(m.width, m.unit))
        self._entry(f"depth ({m.unit})", "map.height", fmt_length(m.height, m.unit))
        self._dropdown("unit", "map.unit", ["in", "cm", "mm"], m.unit)
        self._entry("suits", "map.suits", ", ".join(m.suits), "any ruleset")
        if self.missions:
            self._dropdown("mission", "map.mission", ["(keep the zones)"] + [mi.name for mi in self.missions],
                           "(keep the zones)")
        self._note(f"{len(m.pieces)} pieces, {len(m.deployment)} zones, {len(m.objectives)} objectives, "
                   f"{len(m.evac_points)} evacuation points")

    # --- events -> edits -----------------------------------------------------------------
    def edit_for_text(self, name: str, text: str) -> E.Edit | None:
        """The edit a field's text asks for; ValueError with the reason when it cannot be one."""
        ids = [k[1] for k in self.keys if k[0] == "piece"]
        if name in ("id", "name", "group"):
            v = text.strip()
            if name == "group":
                return E.set_field(ids, "group", v or None)
            if name == "id" and not v:
                raise ValueError("an id cannot be empty")
            return E.set_field(ids, name, v)
        if name in ("height", "map.width", "map.height") and text.strip() == self.shown.get(name):
            return None                  # as shown (rounded): keep the exact length
        if name == "height":
            length = parse_length(text)
            if length is not None and length < 0:
                raise ValueError("a height cannot be below the table")
            return E.set_field(ids, "height", length)
        if name.startswith("marker."):
            return E.SetMarkerFields(((self.keys[0], name.split(".")[1], text.strip()),))
        if name.startswith("map."):
            fld = name.split(".")[1]
            if fld in ("width", "height"):
                length = parse_length(text)
                if length is None or length <= 0:
                    raise ValueError(f"the table's {'depth' if fld == 'height' else fld} must be above zero")
                return E.SetMap(((fld, length),))
            if fld == "suits":
                return E.SetMap((("suits", [s.strip() for s in text.split(",") if s.strip()]),))
            return E.SetMap(((fld, text.strip()),))
        return None

    def edit_for_choice(self, name: str, text: str):
        """The edit a drop-down's choice asks for (or ("mission", id))."""
        ids = [k[1] for k in self.keys if k[0] == "piece"]
        if name == "kind":
            return None if text == "(various)" else E.set_field(ids, "kind", text)
        if name in ("cover",) + BOOL_PROPS:
            val = text
            if val.startswith("kind's"):
                return E.set_field(ids, name, None)
            if val == "(various)":
                return None
            return E.set_field(ids, name, val if name == "cover" else val == "yes")
        if name == "zone.side":
            return E.SetZoneSide(((self.keys[0][1], int(text[-1])),))
        if name == "map.unit":
            return E.ConvertUnit(text)
        if name == "map.mission":
            mi = next((mi for mi in self.missions if mi.name == text), None)
            return ("mission", mi.id) if mi else None
        return None

    def edit_for_button(self, name: str):
        ids = [k[1] for k in self.keys if k[0] == "piece"]
        if name == "lock":
            return E.lock(ids, True)
        if name == "unlock":
            return E.lock(ids, False)
        if name == "group":
            return ("group", ids)
        if name == "ungroup":
            return E.ungroup(ids)
        return None

    def focused_entry(self):
        for e, name in self.fields.items():
            if e.is_focused:
                return e, name
        return None
