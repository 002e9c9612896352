"""The launcher's Options dialog: every house rule of a ruleset (``house_rules.HouseRulesForm``)
with its description and default, its value editable (a toggle, a list of choices, or an entry the
options model checks), changed values marked, "Reset to defaults", and OK refused with the field
and the reason while the model refuses a value.

A modal panel (``game.kit.Panel``) over a pygame_gui window. The list shows whole rows only, as
many as fit, and scrolls by rows (the wheel over the window, the scroll bar, Page Up/Down): the
rows on screen are built as they scroll in, so seventy fields cost no more than the eight shown,
and a list of choices in a row opens inside the window. ``handle`` returns
``Command("house_rules", changes)`` on OK (``changes``: the fields that differ from the defaults,
as JSON values), ``Command("house_rules", None)`` on Cancel, Esc or the window's close button,
and ``TAKEN`` for everything else while it is open.
"""
from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.kit import TAKEN, Command, Panel

from .house_rules import HouseRulesForm, problem_words, shown, wrap

E_ = pygame_gui.elements
TOGGLE_WORDS = {True: "yes", False: "no"}
LINE_H = 18          # a description line (at least)
HEAD_H = 30          # a row's first line: name, value, default
NOTE = ObjectID(class_id="@field", object_id="#note")     # a description line (assets/theme.json)


class HouseRulesDialog(Panel):
    modal = True

    def __init__(self, ui, screen_size, title: str, form: HouseRulesForm):
        super().__init__()
        self.ui, self.form = ui, form
        sw, sh = screen_size
        r = pygame.Rect(0, 0, min(920, sw - 40), min(700, sh - 24))
        r.center = (sw // 2, sh // 2)
        self.rect = r
        self.window = E_.UIWindow(r, ui, window_display_title=f"Options: {title}", resizable=False)
        self.window.set_blocking(True)
        iw, ih = self.window.get_container().get_rect().size
        c = self.window
        n = len(form.fields)
        E_.UILabel(pygame.Rect(10, 4, iw - 20, 24),
                   f"{n} house rules. Changed values are marked *; the rules check every value on OK.",
                   ui, container=c, object_id=ObjectID(class_id="@field"))
        self.list_rect = pygame.Rect(10, 32, iw - 20 - 22, ih - 32 - 96)
        self.bar = E_.UIVerticalScrollBar(pygame.Rect(iw - 28, 32, 20, self.list_rect.h), 1.0, ui, container=c)
        self.problem = E_.UITextBox("", pygame.Rect(10, ih - 92, iw - 20, 44), ui, container=c, object_id="#reason")
        bw = 170
        self.reset_b = E_.UIButton(pygame.Rect(10, ih - 44, bw, 36), "Reset to defaults", ui, container=c)
        self.cancel_b = E_.UIButton(pygame.Rect(iw - 2 * bw - 18, ih - 44, bw, 36), "Cancel", ui, container=c)
        self.ok_b = E_.UIButton(pygame.Rect(iw - bw - 10, ih - 44, bw, 36), "OK", ui, container=c)
        self.font = ui.get_theme().get_font(["#note"])
        self.line_h = max(LINE_H, self.font.size("Ag")[1])
        self.desc_w = self.list_rect.w - 24
        self.heights = [HEAD_H + self.line_h * len(self._lines(f.description)) + 10 for f in form.fields]
        self.first = 0
        self.rows: dict[str, dict] = {}       # the rows on screen: field -> its widgets
        self.widgets: dict = {}               # a row's value widget -> its field
        self.refused: dict[str, str] = {}
        self._build_rows()
        self._check()

    # --- the rows ---------------------------------------------------------------------------
    def _lines(self, text: str) -> list[str]:
        """``text`` wrapped to the list's width in the labels' font."""
        return wrap(text, self.desc_w, lambda t: self.font.size(t)[0])

    def shown_rows(self, first: int | None = None) -> range:
        """The rows that fit whole from ``first`` on."""
        first = self.first if first is None else first
        h, last = 0, first
        while last < len(self.heights) and h + self.heights[last] <= self.list_rect.h:
            h += self.heights[last]
            last += 1
        return range(first, max(last, first + 1))

    def last_first(self) -> int:
        """The last row the list may start at (the end of the list fills the view)."""
        h, i = 0, len(self.heights)
        while i > 0 and h + self.heights[i - 1] <= self.list_rect.h:
            h += self.heights[i - 1]
            i -= 1
        return min(i, len(self.heights) - 1)

    def _build_rows(self) -> None:
        for old in self.rows.values():
            for w in old["all"]:
                w.kill()
        self.rows, self.widgets = {}, {}
        ui, c, lr = self.ui, self.window, self.list_rect
        y = lr.y
        mid = lr.y + lr.h / 2
        for i in self.shown_rows():
            f = self.form.fields[i]
            row: dict = {"all": [], "y": y}
            vx, vw = 262, 180
            vr = pygame.Rect(lr.x + vx, y, vw, HEAD_H - 2)
            raw = self.form.raw[f.name]
            if f.kind == "toggle":
                w = E_.UIButton(vr, TOGGLE_WORDS[bool(raw)], ui, container=c,
                                tool_tip_text="click to switch")
            elif f.kind == "choice":
                w = E_.UIDropDownMenu([str(x) for x in f.choices], str(raw), vr, ui, container=c,
                                      expansion_height_limit=max(60, int(lr.bottom - y - HEAD_H)) if y < mid else None)
                if y >= mid:              # low in the list: the choices open upward, inside the window
                    w.expand_direction = "up"
                    for st in w.menu_states.values():
                        st.expand_direction = "up"
                    w.rebuild()
            else:
                w = E_.UITextEntryLine(vr, ui, container=c, initial_text=str(raw))
                w.set_text_length_limit(40)
            row["value"] = w
            self.widgets[w] = f.name
            row["all"].append(w)
            for k, line in enumerate(self._lines(f.description)):
                row["all"].append(E_.UILabel(pygame.Rect(lr.x + 14, y + HEAD_H + k * self.line_h, self.desc_w, self.line_h),
                                             line, ui, container=c, object_id=NOTE))
            self.rows[f.name] = row
            self._marks(f.name)
            y += self.heights[i]
        total = len(self.heights)
        shown = len(self.shown_rows())
        self.bar.set_visible_percentage(min(1.0, shown / total))
        if not self.bar.grabbed_slider:       # while it is dragged, the bar leads and the rows follow
            self.bar.set_scroll_from_start_percentage(self.first / total)
            self.bar.check_has_moved_recently()   # our own move: not a drag to follow

    def _marks(self, name: str) -> None:
        """The row's name and default, marked when the value is changed or refused."""
        row = self.rows.get(name)
        if row is None:
            return
        for key in ("name", "default"):
            if key in row:
                row["all"].remove(row[key])
                row[key].kill()
        f = self.form.by_name[name]
        lr, y = self.list_rect, row["y"]
        changed = self.form.changed(name)
        refused = self.refused.get(name)
        oid = ObjectID(class_id="@field", object_id="#reason" if refused else "#changed" if changed else None)
        row["name"] = E_.UILabel(pygame.Rect(lr.x, y, 256, HEAD_H - 2), ("* " if changed else "") + f.label,
                                 self.ui, container=self.window, object_id=oid)
        words = self.form.default_words(name)
        note = f"refused (below); {words}" if refused else (f"changed; {words}" if changed else words)
        row["default"] = E_.UILabel(pygame.Rect(lr.x + 450, y, lr.w - 450, HEAD_H - 2), note, self.ui,
                                    container=self.window, object_id=oid)
        row["all"] += [row["name"], row["default"]]

    def scroll_to(self, first: int) -> None:
        first = max(0, min(self.last_first(), first))
        if first != self.first:
            self.first = first
            self._build_rows()

    def show_field(self, name: str) -> None:
        """Scroll so that ``name``'s row is on screen."""
        i = next(k for k, f in enumerate(self.form.fields) if f.name == name)
        if i not in self.shown_rows():
            self.scroll_to(i)

    # --- checking -------------------------------------------------------------------------------
    def _check(self) -> list:
        problems = self.form.problems()
        before = self.refused
        self.refused = {f: why for f, why in problems if f}
        self.problem.set_text(problem_words(problems).replace("<", "&lt;"))
        for name in set(before) | set(self.refused):
            self._marks(name)
        return problems

    def _changed(self, name: str, raw) -> None:
        self.form.set(name, raw)
        self._check()
        self._marks(name)

    # --- input -----------------------------------------------------------------------------------
    def handle(self, ev):
        if not self.window.alive():
            return Command("house_rules", None)
        t = ev.type
        if t == pygame_gui.UI_WINDOW_CLOSE and ev.ui_element is self.window:
            return Command("house_rules", None)
        if t == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.close()
            return Command("house_rules", None)
        if t == pygame.KEYDOWN and ev.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
            step = max(1, len(self.shown_rows()) - 1)
            self.scroll_to(self.first + (step if ev.key == pygame.K_PAGEDOWN else -step))
        elif t == pygame.MOUSEWHEEL and not self._list_open():     # an open list takes its own wheel
            self.scroll_to(self.first - ev.y)
        elif t == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.ok_b:
                return self.ok()
            if ev.ui_element is self.cancel_b:
                self.close()
                return Command("house_rules", None)
            if ev.ui_element is self.reset_b:
                self.form.reset()
                self._build_rows()
                self._check()
            elif ev.ui_element in self.widgets:
                name = self.widgets[ev.ui_element]
                value = not bool(self.form.raw[name])
                ev.ui_element.set_text(TOGGLE_WORDS[value])
                self._changed(name, value)
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element in self.widgets:
            f = self.form.by_name[self.widgets[ev.ui_element]]
            self._changed(f.name, next(x for x in f.choices if str(x) == ev.text))
        elif t == pygame_gui.UI_TEXT_ENTRY_CHANGED and ev.ui_element in self.widgets:
            self._changed(self.widgets[ev.ui_element], ev.text)
        return TAKEN

    def _list_open(self) -> bool:
        return any(isinstance(r["value"], E_.UIDropDownMenu) and
                   r["value"].current_state is r["value"].menu_states.get("expanded") for r in self.rows.values())

    def ok(self):
        """The changes, or the dialog stays open saying which value is refused and why."""
        changes, problems = self.form.result()
        if problems:
            self._check()
            first = next((f for f, _ in problems if f), None)
            if first:
                self.show_field(first)
            return TAKEN
        self.close()
        return Command("house_rules", changes)

    def update(self, dt: float) -> None:
        if self.window.alive() and self.bar.check_has_moved_recently():
            total = len(self.heights)
            self.scroll_to(round(self.bar.start_percentage * total))

    def close(self) -> None:
        if self.window.alive():
            self.window.kill()
        self.visible = False

    def value_text(self, name: str) -> str:
        """What the row of ``name`` shows as its value (the tests read it)."""
        return shown(self.form.raw[name]) if self.form.by_name[name].kind in ("toggle", "choice") \
            else str(self.form.raw[name])
