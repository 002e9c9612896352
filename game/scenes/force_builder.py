"""The force builder (issue 49): build a crew, posse or warband from the ruleset's catalog, see its
price against the game's limit live, save it to the player's forces folder, load one back, and
take it to the launcher for a side.

The screen is panels (``game/forces/panels.py``, lists of ``game/forces/rows.py``): the catalog,
the force, the selected model's loadout, the price with the problems, and a modal list to load
from. They return ``Command``
intents; ``apply`` changes the draft (``engine.core.forces``: add, remove, copies, gear, leader),
and every change is priced again by the ruleset (``Rules.build_force`` then ``Rules.price_force``:
the same models the game and ``skirmish validate`` read). The name entry, the "start from" list
and the button row are pygame_gui widgets.

It is opened from the launcher (``Switch("force_builder", {"ruleset", "side", "force", "back", "limit"})``)
and goes back with ``Switch("launcher", {**back, "pick": (side, "user:<id>")})`` when a force is
taken for a side, or with ``back`` alone.
"""
from __future__ import annotations

import pygame
import pygame_gui

from engine.core.forces import ForceDraft, add_model, remove_model, slug, toggle_gear
from engine.core.rules import get_rules
from engine.data.errors import DataError
from game.forces import files
from game.forces.panels import CatalogPanel, ForcePanel, LoadoutPanel, LoadPanel, StatusPanel, builder_layout
from game.forces.rows import GREEN, RED, TEXT
from game.kit import TAKEN, Command, Router
from game.kit.transitions import Switch
from game.render.text import font

from .base import Scene

EMPTY = "(empty)"


class ForceBuilderScene(Scene):
    def __init__(self, app, ruleset: str, side: int | None = None, force=None, back: dict | None = None,
                 limit: int | None = None):
        super().__init__(app)
        self.ruleset = ruleset
        self.rules = get_rules(ruleset)
        self.catalog = self.rules.force_catalog()
        if self.catalog is None:
            raise ValueError(f"{self.rules.name} has no force builder")
        self.limit = limit                    # the game size chosen in the launcher's Options (None: the default)
        self.side = side
        self.back = dict(back or {})
        self.loaded_id: str | None = None     # the saved force this draft was loaded from (it may keep its file)
        self.selected: int | None = None
        self.message: tuple[str, tuple | None] = ("", None)
        self.dirty = False
        self.leaving = False                  # Back pressed once with unsaved changes
        self.draft = self._first_draft(force)
        self.catalog_panel = CatalogPanel()
        self.force_panel = ForcePanel()
        self.loadout_panel = LoadoutPanel()
        self.status_panel = StatusPanel()
        self.load_panel = LoadPanel()
        self.router = Router([self.catalog_panel, self.force_panel, self.loadout_panel, self.status_panel,
                              self.load_panel])
        self._build()
        self.refresh()

    # --- the draft ------------------------------------------------------------------------
    def _noun_name(self) -> str:
        return f"My {self.catalog.noun}"

    def _start(self, group: str | None) -> ForceDraft:
        """A draft from a shipped roster (``group``), or an empty one."""
        if group in self.catalog.starts:
            d = self.rules.read_force(self.catalog.starts[group], group)
            d.id = ""
            d.group = d.group or group
            return d
        first = next(iter(self.catalog.starts), None) if self.catalog.one_group else None
        if first is not None:
            return self._start(first)
        return ForceDraft(name=self._noun_name())

    def _first_draft(self, force) -> ForceDraft:
        if files.is_user(force):
            try:
                d = self.rules.read_force(files.load_roster(self.ruleset, force), force)
                self.loaded_id = d.id
                return d
            except DataError as err:
                self.message = (f"could not load it: {str(err).splitlines()[0]}", RED)
        return self._start(force if isinstance(force, str) else None)

    def roster(self) -> dict:
        d = self.draft.copy()
        d.id = files.free_id(self.ruleset, slug(d.name, "_"), self.loaded_id)
        return self.rules.build_force(d)

    def refresh(self) -> None:
        """Price the draft again and show it in every panel."""
        roster = self.roster()
        self.price = self.rules.price_force(roster, self.limit, f"{roster.get('id')}.json")
        if self.selected is not None and not (0 <= self.selected < len(self.draft.models)):
            self.selected = len(self.draft.models) - 1 if self.draft.models else None
        self.catalog_panel.show(self.catalog, self.draft)
        self.force_panel.show(self.catalog, self.draft, self.price, self.selected)
        self.loadout_panel.show(self.catalog, self.draft, self.selected)
        self.status_panel.show(self.catalog, self.price, self.message, empty=not self.draft.models)

    def say(self, text: str, colour=None) -> None:
        self.message = (text, colour)
        self.status_panel.show(self.catalog, self.price, self.message, empty=not self.draft.models)

    # --- widgets --------------------------------------------------------------------------
    def _build(self) -> None:
        self.ui.clear_and_reset()
        w, h = self.app.size
        L = builder_layout(self.app.size)
        E = pygame_gui.elements
        for name, panel in (("catalog", self.catalog_panel), ("force", self.force_panel),
                            ("loadout", self.loadout_panel), ("status", self.status_panel), ("load", self.load_panel)):
            panel.layout(L[name])
        y = 46
        E.UILabel(pygame.Rect(12, y, 56, 32), "Name", self.ui)
        name_w = min(300, (w - 12 - 70 - 110 - 24) // 2)
        self.name_entry = E.UITextEntryLine(pygame.Rect(70, y, name_w, 32), self.ui)
        self.name_entry.set_text_length_limit(60)
        self.name_entry.set_text(self.draft.name)
        x = 70 + name_w + 16
        E.UILabel(pygame.Rect(x, y, 100, 32), "Start from", self.ui)
        self.starts = {name: gid for gid, name in self.catalog.groups if gid in self.catalog.starts}
        if not self.catalog.one_group:
            self.starts = {EMPTY: "", **self.starts}
        current = next((n for n, g in self.starts.items() if g and g == self.draft.group), None)
        self.start_dd = E.UIDropDownMenu(list(self.starts), current or next(iter(self.starts)),
                                         pygame.Rect(x + 104, y, min(360, w - x - 104 - 12), 32), self.ui)
        b = L["buttons"]
        labels = [("back", "Back", 84), ("load", "Load\u2026", 90), ("save", "Save", 90)]
        labels += [(f"use{p}", f"Use for side {p}", 140) for p in (1, 2)]
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        bx = b.x
        for key, text, bw in labels:
            self.buttons[key] = E.UIButton(pygame.Rect(bx, b.y, bw, b.h), text, self.ui)
            bx += bw + 8

    def resize(self, size) -> None:
        super().resize(size)
        self._build()
        self.refresh()

    # --- input ----------------------------------------------------------------------------
    def handle(self, ev) -> None:
        if ev.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and ev.ui_element is self.name_entry:
            self.draft.name = self.name_entry.get_text()
            self._changed()
            return
        if ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element is self.start_dd:
            text = ev.text[0] if isinstance(ev.text, tuple) else ev.text
            self.apply(Command("start", self.starts.get(text, "")))
            return
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, b in self.buttons.items():
                if ev.ui_element is b:
                    self.apply(Command(key))
                    return
        if ev.type == pygame.KEYDOWN and not self.load_panel.visible and not self.name_entry.is_focused:
            if ev.key == pygame.K_ESCAPE:
                self.apply(Command("back"))
                return
            if ev.key == pygame.K_s and ev.mod & pygame.KMOD_CTRL:
                self.apply(Command("save"))
                return
        got = self.router.route(ev)
        if got is not None and got is not TAKEN:
            self.apply(got)

    def _changed(self) -> None:
        self.dirty = True
        self.leaving = False
        self.message = ("", None)
        self.refresh()

    def apply(self, intent) -> None:
        """Do what a panel or a button asked."""
        if not isinstance(intent, Command):
            return
        name, arg = intent.name, intent.arg
        d = self.draft
        if name == "add":
            if sum(m.count for m in d.models) >= self.catalog.max_models:
                return self.say(f"a {self.catalog.noun} holds at most {self.catalog.max_models} models here", RED)
            self.selected = add_model(d, self.catalog, arg)
            self._changed()
        elif name == "select":
            self.selected = arg
            self.refresh()
        elif name == "count":
            i, step = arg
            if not 0 <= i < len(d.models):
                return
            if step > 0 and sum(m.count for m in d.models) >= self.catalog.max_models:
                return self.say(f"a {self.catalog.noun} holds at most {self.catalog.max_models} models here", RED)
            d.models[i].count += step
            if d.models[i].count <= 0:
                remove_model(d, i)
                if self.selected is not None and self.selected >= i:
                    self.selected = self.selected - 1 if self.selected > i else (i if i < len(d.models) else None)
            else:
                self.selected = i
            self._changed()
        elif name == "gear":
            if self.selected is not None and 0 <= self.selected < len(d.models):
                toggle_gear(d.models[self.selected], self.catalog, arg)
                self._changed()
        elif name == "leader":
            d.leader = arg
            self._changed()
        elif name == "start":
            name_was = d.name
            self.draft = self._start(arg or None)
            if not self.catalog.one_group and arg == "":
                self.draft.name = name_was
            self.name_entry.set_text(self.draft.name)
            self.loaded_id = None
            self.selected = None
            self._changed()
        elif name == "save":
            self.save()
        elif name == "load":
            self.load(arg)
        elif name == "close load":
            self.load_panel.close()
            self._widgets(True)
        elif name.startswith("use"):
            self.use(int(name[3:]))
        elif name == "back":
            if self.dirty and not self.leaving:
                self.leaving = True
                return self.say("This force has changes that are not saved: Back again leaves without them, "
                                "Save keeps them.", RED)
            self.go_to(Switch("launcher", dict(self.back)))

    # --- files ----------------------------------------------------------------------------
    def save(self) -> str | None:
        """Save the draft when the ruleset accepts it; the key it is saved under, or None (the
        reasons shown)."""
        roster = self.roster()
        try:
            path = files.save_force(self.ruleset, roster)
        except DataError as err:
            self.say(f"Not saved: {len(err.problems)} problem{'s' * (len(err.problems) != 1)} (below).", RED)
            return None
        except OSError as err:
            self.say(f"Not saved: {err}", RED)
            return None
        self.loaded_id = roster["id"]
        self.dirty = self.leaving = False
        self.say(f"Saved as {path}", GREEN)
        return files.USER + roster["id"]

    def open_load(self) -> None:
        self.load_panel.open(files.list_forces(self.ruleset), self.catalog)
        self._widgets(False)

    def _widgets(self, on: bool) -> None:
        """The name, the start list and the buttons: off while the load list is open."""
        for wdg in [self.name_entry, self.start_dd, *self.buttons.values()]:
            wdg.enable() if on else wdg.disable()

    def load(self, key) -> None:
        if key is None:
            return self.open_load()
        try:
            self.draft = self.rules.read_force(files.load_roster(self.ruleset, key), key)
        except DataError as err:
            self.load_panel.close()
            self._widgets(True)
            return self.say(f"Not loaded: {str(err).splitlines()[0]}", RED)
        self.loaded_id = self.draft.id
        self.load_panel.close()
        self._widgets(True)
        self.name_entry.set_text(self.draft.name)
        self.selected = 0 if self.draft.models else None
        self.dirty = self.leaving = False
        self.message = (f"Loaded {self.draft.name}", TEXT)
        self.refresh()

    def use(self, side: int) -> None:
        """Save, then back to the launcher with this force chosen for ``side``."""
        key = self.save()
        if key is None:
            return
        self.go_to(Switch("launcher", {**self.back, "pick": (side, key)}))

    # --- drawing --------------------------------------------------------------------------
    def update(self, dt: float):
        self.router.update(dt)
        return None

    def draw(self, screen) -> None:
        screen.fill((30, 25, 20))
        title = f"Build a force: {self.rules.name} {self.catalog.noun}"
        if self.side:
            title += f" (for side {self.side})"
        screen.blit(font(24, True).render(title, True, (250, 226, 160)), (12, 10))
        ok = self.price.ok
        tag = font(16, True).render(
            f"{self.catalog.money(self.price.total)} / {self.catalog.money(self.price.limit)}", True, GREEN if ok else RED)
        screen.blit(tag, (self.app.size[0] - tag.get_width() - 14, 16))
        self.router.draw(screen)


__all__ = ["ForceBuilderScene"]
