"""The launcher: ruleset, map (with a thumbnail), each side's roster and seat, a seed, Start.

It remembers the last choices (``game.settings``). A map the ruleset refuses stays listed,
marked, and Start explains the engine's reason instead of starting.
"""
from __future__ import annotations

import functools
import sys

import pygame
import pygame_gui

from engine.ai import agent_names
from engine.core import Game, GameError, Setup
from engine.core.rules import get_rules
from engine.data.errors import DataError
from engine.data.maps import load_map
from engine.paths import MAPS_DIR
from game.forces import files as forces
from game.kit.transitions import Quit, Switch
from game.presenters import presenters
from game.render.table_view import TableRenderer
from game.render.text import font
from game.session import HUMAN, GameSession
from game.settings import DEFAULT_OPPONENT, Settings

from .base import Scene

RULESETS = {rs: face.title for rs, face in presenters().items()}     # the rulesets as their presenters name them
# the deployment modes (docs/rules/deployment.md) as the launcher words them
DEPLOYMENTS = {"alternate": "Alternate, one model at a time", "groups": "Alternate, two models at a time",
               "hidden": "Hidden, revealed together", "automatic": "Automatic"}


def shipped_maps() -> dict[str, object]:
    out = {}
    for p in sorted(MAPS_DIR.glob("*.json")):
        try:
            out[p.stem] = load_map(p)
        except DataError:
            continue
    return out


# maps from the layout editor (Play), by a key made from their content, so a changed layout
# is a new key and the cached refusals stay true
_EDITED: dict = {}


def register_map(mapfile) -> str:
    """A key under which the launcher lists an edited layout beside the shipped maps."""
    import hashlib

    digest = hashlib.blake2b(mapfile.model_dump_json().encode(), digest_size=4).hexdigest()
    key = f"edited-{mapfile.id}-{digest}"
    _EDITED[key] = mapfile
    return key


@functools.lru_cache(maxsize=64)
def refusal(ruleset: str, map_id: str) -> str | None:
    """The engine's reason for refusing this map under this ruleset, or None."""
    from engine.data.maps import suits_problem

    m = _EDITED.get(map_id) or shipped_maps().get(map_id)
    if m is None:
        return f"no shipped map {map_id!r}"
    why = suits_problem(m, ruleset)
    if why:   # as the command line without --any-map
        return why.split(" (give --any-map")[0]
    try:
        Game(Setup(ruleset, m, (), {}, 1))
    except GameError as err:
        return str(err)
    return None


def home_map(ruleset: str) -> str | None:
    """The shipped table ``ruleset``'s default forces were balanced on (``Rules.home_map``)."""
    return get_rules(ruleset).home_map


def playable_map(ruleset: str, maps: dict) -> str | None:
    """``ruleset``'s home map, else the first shipped map made for it (its ``suits``), else the
    first it accepts."""
    home = home_map(ruleset)
    if home in maps and refusal(ruleset, home) is None:
        return home
    ok = [mid for mid in maps if refusal(ruleset, mid) is None]
    made_for = [mid for mid in ok if ruleset in (getattr(maps[mid], "suits", None) or ())]
    return (made_for or ok or [None])[0]


def autosave_summary() -> str | None:
    """A line about the autosaved game (ruleset, map, decisions, when), or None if there is
    none that reads."""
    from engine.core.saves import read_save
    from game.userdirs import autosave_file

    path = autosave_file()
    if not path.is_file():
        return None
    try:
        sv = read_save(path)
    except (DataError, OSError):
        return None
    return f"{RULESETS.get(sv.ruleset, sv.ruleset)} on {sv.map.name}, {len(sv.decisions)} decisions, saved {sv.saved_at}"


def seat_choices() -> list[str]:
    return [HUMAN] + [f"ai:{n}" for n in agent_names()]


class LauncherScene(Scene):
    def __init__(self, app, settings: Settings | None = None, extra_map=None, editor=None, pick=None):
        super().__init__(app)
        self.settings = settings or Settings.load()
        self.maps = shipped_maps()
        self.editor = editor            # the layout editor this launcher was opened from (Play)
        self.edited_key = None
        if extra_map is not None:
            self.edited_key = register_map(extra_map)
            self.maps = {self.edited_key: extra_map, **self.maps}
            self.settings.map = self.edited_key
            if refusal(self.settings.ruleset, self.edited_key) and extra_map.suits:
                self.settings.ruleset = next((r for r in extra_map.suits if r in RULESETS), self.settings.ruleset)
        if self.settings.ruleset not in RULESETS:
            self.settings.ruleset = "frontier"
        if self.settings.map not in self.maps:
            self.settings.map = "town"
        if pick is not None:                  # the force builder chose a force for a side
            self._pick(*pick)
        self.thumb_cache: dict[str, pygame.Surface] = {}
        self.error = self.settings.notice     # a bad settings file was set aside: say so
        if self.error:
            print(f"skirmish: {self.error}", file=sys.stderr)
        self._build()

    # --- widgets --------------------------------------------------------------------------
    def _build(self) -> None:
        self.ui.clear_and_reset()
        s = self.settings
        w, h = self.app.size
        x0, y = 60, 110
        lw, fw = 150, 330
        E = pygame_gui.elements
        E.UILabel(pygame.Rect(x0, 30, 600, 50), "Skirmish", self.ui, object_id="#title")
        E.UILabel(pygame.Rect(x0, 72, 700, 26), "A digital table for tabletop skirmish games: choose and start.",
                  self.ui)

        step = 44 if h >= 700 else 38

        def row(label, widget_fn):
            nonlocal y
            E.UILabel(pygame.Rect(x0, y, lw, 32), label, self.ui)
            wdg = widget_fn(pygame.Rect(x0 + lw, y, fw, 32))
            y += step
            return wdg

        rs_names = list(RULESETS.values())
        self.dd_ruleset = row("Ruleset", lambda r: E.UIDropDownMenu(rs_names, RULESETS[s.ruleset], r, self.ui))
        self.map_labels = {self._map_label(mid): mid for mid in self.maps}
        current = self._map_label(s.map)
        self.dd_map = row("Map", lambda r: E.UIDropDownMenu(list(self.map_labels), current, r, self.ui))
        rosters = forces.roster_choices(s.ruleset)      # the shipped rosters, then the player's forces (★)
        chosen = s.rosters.get(s.ruleset) or get_rules(s.ruleset).default_rosters(None)
        self.roster_ids = {v: k for k, v in rosters.items()}
        self.dd_roster, self.dd_seat, self.build_b = {}, {}, {}
        seats = seat_choices()
        for p in (1, 2):
            name = rosters.get(chosen[p - 1], next(iter(rosters.values())))
            self.dd_roster[p] = row(f"Side {p} roster", lambda r: self._roster_row(p, list(rosters.values()), name, r))
            seat = s.seats[p - 1] if len(s.seats) >= p and s.seats[p - 1] in seats else (HUMAN if p == 1 else DEFAULT_OPPONENT)
            self.dd_seat[p] = row(f"Side {p} plays", lambda r: E.UIDropDownMenu(seats, seat, r, self.ui))
        self.dd_deploy = row("Deployment", lambda r: E.UIDropDownMenu(
            list(DEPLOYMENTS.values()), DEPLOYMENTS.get(s.deployment, DEPLOYMENTS["alternate"]), r, self.ui))
        self.seed = row("Seed", lambda r: E.UITextEntryLine(r, self.ui))
        self.seed.set_text(str(s.seed))
        self.seed.set_allowed_characters("numbers")
        self.start = E.UIButton(pygame.Rect(x0 + lw, y + 10, 160, 48), "Start", self.ui)
        self.quit_b = E.UIButton(pygame.Rect(x0 + lw + 170, y + 10, 70, 48), "Quit", self.ui)
        back = self.editor is not None and s.map == self.edited_key
        self.edit_b = E.UIButton(pygame.Rect(x0 + lw + 250, y + 10, 80, 48), "Editor" if back else "Edit", self.ui,
                                 tool_tip_text="back to the layout editor" if back else
                                 "open this map in the layout editor")
        self.resume_info = autosave_summary()
        self.continue_b = None
        if self.resume_info:
            self.continue_b = E.UIButton(pygame.Rect(x0, y + 10, lw - 10, 48), "Continue", self.ui,
                                         tool_tip_text=f"the last game: {self.resume_info}")
        self.reason = E.UITextBox("", pygame.Rect(x0, y + 70, lw + fw, 90), self.ui, object_id="#reason")
        self.thumb_rect = pygame.Rect(x0 + lw + fw + 50, 110, w - (x0 + lw + fw + 50) - 50, h - 180)
        self._update_reason()

    def _roster_row(self, p: int, labels, name, r):
        """A side's roster list and its "Build…" button (the force builder)."""
        E = pygame_gui.elements
        self.build_b[p] = E.UIButton(pygame.Rect(r.right - 90, r.y, 90, r.h), "Build…", self.ui,
                                     tool_tip_text=f"build a force for side {p}, or change one of yours")
        return E.UIDropDownMenu(labels, name, pygame.Rect(r.x, r.y, r.w - 96, r.h), self.ui)

    def _pick(self, side: int, key: str) -> None:
        s = self.settings
        pair = list(s.rosters.get(s.ruleset) or get_rules(s.ruleset).default_rosters(None))
        pair[side - 1] = key
        s.rosters[s.ruleset] = pair

    def build_force(self, side: int) -> None:
        """The force builder for ``side``'s roster; it comes back here with its force picked."""
        s = self.settings
        self._read_sides()
        back = {"settings": s}
        if self.edited_key is not None and s.map == self.edited_key:
            back.update(extra_map=self.maps[self.edited_key], editor=self.editor)
        self.go_to(Switch("force_builder", {"ruleset": s.ruleset, "side": side, "back": back,
                                            "force": s.rosters[s.ruleset][side - 1]}))

    def _map_label(self, mid: str) -> str:
        m = self.maps[mid]
        why = refusal(self.settings.ruleset, mid)
        return f"{m.name} ({mid})" + ("  - refused" if why else "")

    def _update_reason(self) -> None:
        why = refusal(self.settings.ruleset, self.settings.map)
        text = (f"{RULESETS[self.settings.ruleset]} cannot be played on this map: {why}" if why else "") or self.error
        self.reason.set_text(text.replace("<", "&lt;"))
        if why:
            self.start.disable()
        else:
            self.start.enable()

    def resize(self, size) -> None:
        super().resize(size)
        self._build()

    # --- input ----------------------------------------------------------------------------
    def handle(self, ev) -> None:
        s = self.settings
        if ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if ev.ui_element is self.dd_ruleset:
                was = s.ruleset
                s.ruleset = next(k for k, v in RULESETS.items() if v == ev.text)
                # the old ruleset's home map (the default, not a pick) or one the new ruleset
                # refuses: the new one's home, where its default forces give an even game
                if refusal(s.ruleset, s.map) or s.map == home_map(was):
                    s.map = playable_map(s.ruleset, self.maps) or s.map
                self._build()
            elif ev.ui_element is self.dd_map:
                s.map = self.map_labels[ev.text]
                self._update_reason()
            elif ev.ui_element is self.dd_deploy:
                s.deployment = next(k for k, v in DEPLOYMENTS.items() if v == ev.text)
            else:
                self._read_sides()
        elif ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.start:
                self.start_game()
            elif ev.ui_element is self.quit_b:
                self.go_to(Quit())
            elif ev.ui_element is self.continue_b:
                self.continue_game()
            elif ev.ui_element is self.edit_b:
                self.edit_map()
            elif any(ev.ui_element is b for b in self.build_b.values()):
                self.build_force(next(p for p, b in self.build_b.items() if ev.ui_element is b))
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_RETURN and self.start.is_enabled:
            self.start_game()

    def _read_sides(self) -> None:
        s = self.settings
        s.rosters[s.ruleset] = [self.roster_ids[self.dd_roster[p].selected_option[0]
                                                if isinstance(self.dd_roster[p].selected_option, tuple)
                                                else self.dd_roster[p].selected_option] for p in (1, 2)]
        s.seats = [self.dd_seat[p].selected_option[0] if isinstance(self.dd_seat[p].selected_option, tuple)
                   else self.dd_seat[p].selected_option for p in (1, 2)]

    def start_game(self) -> None:
        s = self.settings
        self._read_sides()
        try:
            s.seed = int(self.seed.get_text() or "1")
        except ValueError:
            s.seed = 1
        why = refusal(s.ruleset, s.map)
        if why:
            self.error = why
            self._update_reason()
            return
        s.save()
        try:       # a player's force is its roster file's dict (refused with file, field, reason)
            rosters = [forces.resolve(s.ruleset, k) for k in s.rosters.get(s.ruleset, ())]
        except DataError as err:
            self.error = f"that force cannot be played: {str(err).splitlines()[0]}"
            self._update_reason()
            return
        try:
            session = GameSession.new(s.ruleset, self.maps[s.map], rosters,
                                      {1: s.seats[0], 2: s.seats[1]}, s.seed, options={"deployment": s.deployment})
        except (GameError, ValueError) as err:
            self.error = str(err)
            self._update_reason()
            return
        self.go_to(Switch("play", {"session": session, "map_id": s.map}))

    def edit_map(self) -> None:
        """The layout editor on the chosen map (back to the editor Play came from, for its map)."""
        mid = self.settings.map
        if self.editor is not None and mid == self.edited_key:
            self.go_to(Switch("editor", {"scene": self.editor}))
            return
        self.go_to(Switch("editor", {"mapfile": self.maps[mid], "path": MAPS_DIR / f"{mid}.json"}))

    def continue_game(self) -> None:
        """Take up the last game where it was left (the autosave), with its seats."""
        from game.userdirs import autosave_file

        try:
            session = GameSession.load(autosave_file())
        except DataError as err:
            self.error = f"the last game cannot be continued: {str(err).splitlines()[0]}"
            self._update_reason()
            return
        self.go_to(Switch("play", {"session": session}))

    # --- drawing --------------------------------------------------------------------------
    def _thumb(self, mid: str) -> pygame.Surface:
        key = f"{mid}:{self.thumb_rect.size}"
        if key not in self.thumb_cache:
            r = TableRenderer(self.maps[mid])
            surf = pygame.Surface(self.thumb_rect.size)
            r.draw(surf, r.fit_camera(self.thumb_rect.size, margin_px=16))
            self.thumb_cache[key] = surf
        return self.thumb_cache[key]

    def draw(self, screen) -> None:
        screen.fill((30, 25, 20))
        if self.thumb_rect.w > 100 and self.thumb_rect.h > 100:
            screen.blit(self._thumb(self.settings.map), self.thumb_rect)
            pygame.draw.rect(screen, (120, 100, 70), self.thumb_rect, 2)
            m = self.maps[self.settings.map]
            cap = font(18).render(f"{m.name}: {m.width:g} x {m.height:g} {m.unit}, {len(m.pieces)} pieces",
                                  True, (230, 222, 204))
            screen.blit(cap, (self.thumb_rect.x, self.thumb_rect.bottom + 8))
