"""The launcher: ruleset, map (with a thumbnail), each side's roster and seat, a seed, Start.

It remembers the last choices (``game.settings``). A map the ruleset refuses stays listed,
marked, and Start explains the engine's reason instead of starting. What it offers and checks
(rulesets, maps, seats, house rules) is in ``game/launch/choices.py``, its widgets in
``game/launch/form.py``.
"""
from __future__ import annotations

import sys

import pygame
import pygame_gui

from engine.core import GameError
from engine.core.rules import get_rules
from engine.data.errors import DataError
from engine.paths import MAPS_DIR
from game.forces import files as forces
from game.kit import Command
from game.kit.transitions import Quit, Switch
from game.launch.choices import (
    RULESETS,
    home_map,
    house_rules,
    playable_map,
    refusal,
    register_map,
    seat_about,
    seat_choices,
    shipped_maps,
    size_limit,
)
from game.launch.form import LauncherForm
from game.launch.joining import JoinFlow
from game.render.table_view import TableRenderer
from game.render.text import font
from game.session import HUMAN, GameSession
from game.settings import Settings
from game.ui.house_rules import HouseRulesForm, wrap
from game.ui.house_rules_dialog import HouseRulesDialog

from .base import Scene


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
        self.mission = self._pick_mission()
        self.dialog: HouseRulesDialog | None = None    # the Options dialog, while it is open
        self.join: JoinFlow | None = None               # the Join dialog and its connection, while open
        self.form = LauncherForm(self)                  # builds the widgets below, again on each change
        self.form.build()

    # --- missions and house rules ---------------------------------------------------------
    def missions(self) -> dict:
        """The chosen ruleset's missions, id -> MissionInfo (empty: one way to play)."""
        return get_rules(self.settings.ruleset).missions()

    def mission_problem(self, mission_id: str | None = None) -> str | None:
        """Why the chosen map cannot hold the mission (the ruleset's words), or None."""
        mission_id = self.mission if mission_id is None else mission_id
        if mission_id is None:
            return None
        return get_rules(self.settings.ruleset).mission_problem(self.maps[self.settings.map], mission_id)

    def _pick_mission(self) -> str | None:
        """The mission last chosen for this ruleset if the map holds it, else the ruleset's
        choice for the map (``default_mission``)."""
        s = self.settings
        missions = self.missions()
        if not missions:
            return None
        want = s.missions.get(s.ruleset)
        if want in missions and self.mission_problem(want) is None:
            return want
        default = get_rules(s.ruleset).default_mission(self.maps[s.map])
        return default if default in missions else next(iter(missions))

    def house_rules(self) -> tuple[dict, str | None]:
        """The chosen ruleset's changed options, as the game gets them, or ({}, why refused)."""
        s = self.settings
        return house_rules(s.ruleset, s.house_rules.get(s.ruleset, {}))

    def game_options(self) -> dict:
        """The options the game is set up with: the deployment, the house rules, the mission."""
        s = self.settings
        rules, _ = self.house_rules()
        return {"deployment": s.deployment, **rules, **({"mission": self.mission} if self.mission else {})}

    def open_options(self) -> None:
        """The Options dialog on the chosen ruleset's options model."""
        s = self.settings
        model = get_rules(s.ruleset).options_model()
        if model is None:
            return
        form = HouseRulesForm(model, s.house_rules.get(s.ruleset, {}))
        self.dialog = HouseRulesDialog(self.ui, self.app.size, RULESETS[s.ruleset], form)

    def _options_closed(self, changes: dict | None) -> None:
        self.dialog = None
        if changes is not None:
            s = self.settings
            if changes:
                s.house_rules[s.ruleset] = changes
            else:
                s.house_rules.pop(s.ruleset, None)
        self.form.rebuild()

    # --- the sides, the window (the widgets: game/launch/form.py) -------------------------
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
                                            "force": s.rosters[s.ruleset][side - 1],
                                            "limit": size_limit(s.ruleset, s.house_rules.get(s.ruleset, {}))}))

    def resize(self, size) -> None:
        super().resize(size)
        self.form.rebuild()

    # --- input ----------------------------------------------------------------------------
    def handle(self, ev) -> None:
        s = self.settings
        if self.dialog is not None:              # the Options dialog is modal: it takes everything
            got = self.dialog.handle(ev)
            if isinstance(got, Command) and got.name == "house_rules":
                self._options_closed(got.arg)
            return
        if self.join is not None:                # so is the Join dialog
            if self.join.handle(ev):
                self.join = None
            return
        if ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if ev.ui_element is self.dd_ruleset:
                was = s.ruleset
                s.ruleset = next(k for k, v in RULESETS.items() if v == ev.text)
                # the old ruleset's home map (the default, not a pick) or one the new ruleset
                # refuses: the new one's home, where its default forces give an even game
                if refusal(s.ruleset, s.map) or s.map == home_map(was):
                    s.map = playable_map(s.ruleset, self.maps) or s.map
                self.mission = self._pick_mission()
                self.form.rebuild()
            elif ev.ui_element is self.dd_map:
                s.map = self.map_labels[ev.text]
                if self.mission is not None and self.mission_problem() is not None:
                    self.mission = self._pick_mission()      # the new map cannot hold it: the map's own
                self.form.rebuild()                              # the missions' marks follow the map
            elif ev.ui_element is self.dd_mission:
                self.mission = self.mission_labels[ev.text]
                s.missions[s.ruleset] = self.mission
                self.form.rebuild()
            elif ev.ui_element is self.dd_deploy:
                s.deployment = next(k for k, v in self.deploy_labels.items() if v == ev.text)
            else:
                self._read_sides()
                if ev.ui_element in self.dd_seat.values():
                    self.form.rebuild()                          # the seat's line under it
        elif ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.start:
                self.start_game()
            elif ev.ui_element is self.quit_b:
                self.go_to(Quit())
            elif ev.ui_element is self.continue_b:
                self.continue_game()
            elif ev.ui_element is self.edit_b:
                self.edit_map()
            elif ev.ui_element is self.options_b:
                self.open_options()
            elif ev.ui_element is self.host_b:
                self.host_game()
            elif ev.ui_element is self.join_b:
                self.open_join()
            elif any(ev.ui_element is b for b in self.build_b.values()):
                self.build_force(next(p for p, b in self.build_b.items() if ev.ui_element is b))
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_RETURN and self.start.is_enabled:
            self.start_game()

    def update(self, dt: float):
        if self.dialog is not None:
            self.dialog.update(dt)
        if self.join is not None and (to := self.join.update()) is not None:
            self.join = None
            self.go_to(to)
        return None

    @staticmethod
    def _selected(dd) -> str:
        sel = dd.selected_option
        return sel[0] if isinstance(sel, tuple) else sel

    def _read_sides(self) -> None:
        s = self.settings
        s.rosters[s.ruleset] = [self.roster_ids[self._selected(self.dd_roster[p])] for p in (1, 2)]
        s.seats = [self._selected(self.dd_seat[p]) for p in (1, 2)]

    def _checked_setup(self):
        """(rosters, seats) of the game the launcher shows, checked; None after saying why."""
        s = self.settings
        self._read_sides()
        try:
            s.seed = int(self.seed.get_text() or "1")
        except ValueError:
            s.seed = 1
        why = refusal(s.ruleset, s.map) or self.mission_problem() or self.house_rules()[1]
        if why:
            self.error = why
            self.form.update_reason()
            return None
        if self.mission is not None:
            s.missions[s.ruleset] = self.mission
        s.save()
        try:       # a player's force is its roster file's dict (refused with file, field, reason)
            rosters = [forces.resolve(s.ruleset, k) for k in s.rosters.get(s.ruleset, ())]
        except DataError as err:
            self.error = f"that force cannot be played: {str(err).splitlines()[0]}"
            self.form.update_reason()
            return None
        return rosters, {1: s.seats[0], 2: s.seats[1]}

    def host_game(self) -> None:
        """Host the game shown over the network: its server runs in this process (a thread), this
        window plays side 1 through it, side 2 is a player joining with the code shown (or the AI
        chosen for it, played on the server). The game is kept in the host's autosave."""
        from game.net.host import GameHost
        from game.net.link import NotConnected, Refused
        from game.net.remote import Notice, RemoteSession
        from game.net.server import lan_address, serve_in_thread
        from game.userdirs import host_autosave_file

        got = self._checked_setup()
        if got is None:
            return
        rosters, seats = got
        s = self.settings
        net_seats = {1: "remote", 2: "remote" if seats[2] == HUMAN else seats[2]}
        try:
            host = GameHost.new(s.ruleset, self.maps[s.map], rosters, self.game_options(), s.seed, net_seats,
                                autosave_path=host_autosave_file())
            try:
                server = serve_in_thread(host, "0.0.0.0", 8765)
            except OSError:
                server = serve_in_thread(host, "0.0.0.0", 0)     # 8765 taken: any free port
            port = server.address[1]
            session = RemoteSession(f"127.0.0.1:{port}", 1, host.codes[1], s.player_name).wait_ready(10)
        except (GameError, ValueError, OSError, Refused, NotConnected) as err:
            self.error = f"cannot host: {err}"
            self.form.update_reason()
            return
        session.server = server                  # kept with the game it serves
        if 2 in host.codes:
            session.notices.append(Notice(f"hosting on {lan_address()}:{port}: player 2 joins with seat 2, "
                                          f"code {host.codes[2]} (skirmish join {lan_address()}:{port} --seat 2 "
                                          f"--code {host.codes[2]})", "waiting"))
        self.go_to(Switch("play", {"session": session, "map_id": s.map}))

    def open_join(self) -> None:
        self.join = JoinFlow(self.ui, self.app.size, self.settings)

    def start_game(self) -> None:
        got = self._checked_setup()
        if got is None:
            return
        rosters, seats = got
        s = self.settings
        try:
            session = GameSession.new(s.ruleset, self.maps[s.map], rosters, seats, s.seed,
                                      options=self.game_options())
        except (GameError, ValueError) as err:
            self.error = str(err)
            self.form.update_reason()
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
            self.form.update_reason()
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
        open_seat = next((p for p, dd in self.dd_seat.items() if dd.current_state is dd.menu_states.get("expanded")),
                         None)
        if open_seat is not None:
            self.draw_seat_guide(screen, open_seat)

    def draw_seat_guide(self, screen, player: int) -> None:
        """While a side's "plays" list is open: what each choice does and how long it thinks,
        over the map's picture (the list itself opens on the left)."""
        w, h = self.app.size
        box = pygame.Rect(self.thumb_rect.x, self.dd_seat[player].rect.y, max(300, w - self.thumb_rect.x - 20), 0)
        f, fb = font(16), font(16, bold=True)
        blocks = []
        for seat in seat_choices():
            blocks.append((fb.render(seat, True, (250, 214, 140)),
                           [f.render(t, True, (230, 222, 204))
                            for t in wrap(seat_about(seat), box.w - 24, lambda t: f.size(t)[0])]))
        box.h = 12 + sum(4 + b.get_height() + sum(x.get_height() for x in ls) for b, ls in blocks)
        box.bottom = min(box.bottom, h - 8)
        pygame.draw.rect(screen, (24, 20, 16), box)
        pygame.draw.rect(screen, (200, 160, 100), box, 1)
        y = box.y + 6
        for head, body in blocks:
            screen.blit(head, (box.x + 10, y))
            y += head.get_height()
            for ln in body:
                screen.blit(ln, (box.x + 18, y))
                y += ln.get_height()
            y += 4
