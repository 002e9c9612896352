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
from engine.ai.about import about as agent_about, order as agent_order
from engine.core import Game, GameError, Setup
from engine.core.rules import get_rules
from engine.data.errors import DataError
from engine.data.maps import load_map
from engine.paths import MAPS_DIR
from game.kit import Command
from game.forces import files as forces
from game.kit.transitions import Quit, Switch
from game.presenters import presenters
from game.render.table_view import TableRenderer
from game.render.text import font
from game.session import HUMAN, GameSession
from game.settings import DEFAULT_OPPONENT, Settings
from game.ui.house_rules import HouseRulesForm, checked, non_defaults, option_fields, wrap
from game.ui.house_rules_dialog import HouseRulesDialog

from .base import Scene

RULESETS = {rs: face.title for rs, face in presenters().items()}     # the rulesets as their presenters name them
# the deployment modes (docs/rules/deployment.md) as the launcher words them
DEPLOYMENTS = {"alternate": "Alternate, one model at a time", "groups": "Alternate, {n} models at a time",
               "hidden": "Hidden, revealed together", "automatic": "Automatic"}
# a seat played by a person, beside the agents' own descriptions (engine/ai/about.py)
HUMAN_ABOUT = "You play this side with the mouse (two humans: hot-seat, passing the device)."
ONE_WAY = "One way to play"          # the Mission list of a ruleset without missions


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
    return [HUMAN] + [f"ai:{n}" for n in agent_order(agent_names())]


def seat_about(seat: str) -> str:
    """What the seat's player does and how long it thinks, in a line (engine/ai/about.py)."""
    return HUMAN_ABOUT if seat == HUMAN else agent_about(seat[3:] if seat.startswith("ai:") else seat)


def house_rules(ruleset: str, chosen: dict) -> tuple[dict, str | None]:
    """The remembered changes of ``ruleset``'s options as the game's options (the model's JSON
    values of the fields that differ from its defaults), or ({}, why) when its model refuses them."""
    model = get_rules(ruleset).options_model()
    if model is None or not chosen:
        return {}, None
    m, why = checked(model, {k: v for k, v in chosen.items() if k in model.model_fields})
    if why:
        return {}, why
    return non_defaults(m, [f.name for f in option_fields(model)]), None


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
        self.join_dialog = None                         # the Join dialog, while it is open
        self._build()

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
        self._rebuild()

    # --- widgets --------------------------------------------------------------------------
    def _rebuild(self) -> None:
        """Build again, keeping a seed being typed."""
        if getattr(self, "seed", None) is not None and self.seed.alive():
            try:
                self.settings.seed = int(self.seed.get_text() or "1")
            except ValueError:
                pass
        self._build()

    def _build(self) -> None:
        form, first = (self.dialog.form, self.dialog.first) if self.dialog is not None else (None, 0)
        self.ui.clear_and_reset()
        s = self.settings
        w, h = self.app.size
        small = h < 700
        x0, y = 60, (92 if small else 110)
        lw, fw = 104, 376
        E = pygame_gui.elements
        note = pygame_gui.core.ObjectID(class_id="@field", object_id="#note")
        E.UILabel(pygame.Rect(x0, 18 if small else 30, 600, 50), "Skirmish", self.ui, object_id="#title")
        E.UILabel(pygame.Rect(x0, 58 if small else 72, 700, 26),
                  "A digital table for tabletop skirmish games: choose and start.", self.ui)

        step = 44 if not small else 36
        wh = 32 if not small else 30
        measure = self.ui.get_theme().get_font(["#note"]).size
        line_h = max(18, measure("Ag")[1])

        def row(label, widget_fn):
            nonlocal y
            E.UILabel(pygame.Rect(x0, y, lw, wh), label, self.ui)
            wdg = widget_fn(pygame.Rect(x0 + lw, y, fw, wh))
            y += step
            return wdg

        def lines(text, n):
            """Up to ``n`` lines of small text under the row above (they take their room)."""
            nonlocal y
            y -= step - wh - 2
            out = []
            for i, ln in enumerate(wrap(text, fw - 8, lambda t: measure(t)[0], n)):
                out.append(E.UILabel(pygame.Rect(x0 + lw, y + i * line_h, fw, line_h), ln, self.ui, object_id=note))
            y += n * line_h + (step - wh)
            return out

        rs_names = list(RULESETS.values())
        self.dd_ruleset = row("Ruleset", lambda r: E.UIDropDownMenu(rs_names, RULESETS[s.ruleset], r, self.ui))
        self.map_labels = {self._map_label(mid): mid for mid in self.maps}
        current = self._map_label(s.map)
        self.dd_map = row("Map", lambda r: E.UIDropDownMenu(list(self.map_labels), current, r, self.ui))
        # the mission: the ruleset's list, those this map cannot hold marked; a summary under it
        missions = self.missions()
        self.mission_labels = {self._mission_label(mid): mid for mid in missions}
        if missions:
            chosen = next(k for k, v in self.mission_labels.items() if v == self.mission)
            self.dd_mission = row("Mission", lambda r: E.UIDropDownMenu(list(self.mission_labels), chosen, r, self.ui))
            info = missions[self.mission]
            self.mission_summary = info.summary
        else:
            self.dd_mission = row("Mission", lambda r: E.UIDropDownMenu([ONE_WAY], ONE_WAY, r, self.ui))
            self.dd_mission.disable()
            self.mission_summary = f"{RULESETS[s.ruleset]} has no missions to choose from: its rules say how it is won."
        self.summary_lines = lines(self.mission_summary, 3)
        # each side: its roster and who plays it on one row, what that player does under it
        rosters = forces.roster_choices(s.ruleset)      # the shipped rosters, then the player's forces (*)
        chosen = s.rosters.get(s.ruleset) or get_rules(s.ruleset).default_rosters(None)
        self.roster_ids = {v: k for k, v in rosters.items()}
        self.dd_roster, self.dd_seat, self.seat_lines, self.build_b = {}, {}, {}, {}
        seats = seat_choices()
        rw, bw = 176, 62
        for p in (1, 2):
            name = rosters.get(chosen[p - 1], next(iter(rosters.values())))
            seat = s.seats[p - 1] if len(s.seats) >= p and s.seats[p - 1] in seats else (HUMAN if p == 1 else DEFAULT_OPPONENT)

            def both(r, name=name, seat=seat, p=p):
                # the roster, "Build…" (the force builder, starting from it), who plays the side
                self.build_b[p] = E.UIButton(pygame.Rect(r.x + rw + 4, r.y, bw, r.h), "Build…", self.ui,
                                             tool_tip_text=f"build a force for side {p}, or change one of yours")
                self.dd_seat[p] = E.UIDropDownMenu(seats, seat, pygame.Rect(r.x + rw + bw + 8, r.y, r.w - rw - bw - 8,
                                                                            r.h), self.ui)
                return E.UIDropDownMenu(list(rosters.values()), name, pygame.Rect(r.x, r.y, rw, r.h), self.ui)
            self.dd_roster[p] = row(f"Side {p}", both)
            self.seat_lines[p] = lines(seat_about(seat), 2)
        rules, _ = self.house_rules()
        group = rules.get("deployment_group", self._option_default("deployment_group", 2))
        self.deploy_labels = {k: v.format(n=group) for k, v in DEPLOYMENTS.items()}
        self.dd_deploy = row("Deployment", lambda r: E.UIDropDownMenu(
            list(self.deploy_labels.values()), self.deploy_labels.get(s.deployment, self.deploy_labels["alternate"]),
            r, self.ui))
        self.seed = row("Seed", lambda r: E.UITextEntryLine(pygame.Rect(r.x, r.y, 120, r.h), self.ui))
        self.seed.set_text(str(s.seed))
        self.seed.set_allowed_characters("numbers")
        model = get_rules(s.ruleset).options_model()
        n = len(rules)
        self.options_b = E.UIButton(pygame.Rect(x0 + lw + 130, y - step, fw - 130, wh),
                                    "Options..." + (f" ({n} changed)" if n else ""), self.ui,
                                    tool_tip_text=f"{RULESETS[s.ruleset]}'s house rules: every option, its meaning and "
                                                  "its default")
        if model is None:
            self.options_b.disable()
        by = y + (2 if small else 10)
        bh = 42 if small else 48
        # Start, Quit, Edit, Host, Join… across the form's width
        self.start = E.UIButton(pygame.Rect(x0 + lw, by, 112, bh), "Start", self.ui)
        self.quit_b = E.UIButton(pygame.Rect(x0 + lw + 118, by, 56, bh), "Quit", self.ui)
        back = self.editor is not None and s.map == self.edited_key
        self.edit_b = E.UIButton(pygame.Rect(x0 + lw + 180, by, 64, bh), "Editor" if back else "Edit", self.ui,
                                 tool_tip_text="back to the layout editor" if back else
                                 "open this map in the layout editor")
        self.resume_info = autosave_summary()
        self.continue_b = None
        if self.resume_info:
            self.continue_b = E.UIButton(pygame.Rect(x0, by, lw - 10, bh), "Continue", self.ui,
                                         tool_tip_text=f"the last game: {self.resume_info}")
        # network play (issue 50): host this game (this window is seat 1), or join one
        self.host_b = E.UIButton(pygame.Rect(x0 + lw + 250, by, 60, bh), "Host", self.ui,
                                 tool_tip_text="host this game over the network: you play side 1 here, side 2 "
                                               "(if human) joins from another machine with the code shown "
                                               "(docs/network.md)")
        self.join_b = E.UIButton(pygame.Rect(x0 + lw + 316, by, 60, bh), "Join…", self.ui,
                                 tool_tip_text="join a game hosted on another machine: its address, your seat, "
                                               "your code")
        ry = by + bh + 8
        self.reason = E.UITextBox("", pygame.Rect(x0, ry, lw + fw, max(40, min(90, h - ry - 8))), self.ui,
                                  object_id="#reason")
        self.thumb_rect = pygame.Rect(x0 + lw + fw + 50, 110, w - (x0 + lw + fw + 50) - 50, h - 180)
        self._update_reason()
        if form is not None:             # a resize with the Options dialog open: it stays open
            self.dialog = HouseRulesDialog(self.ui, self.app.size, RULESETS[s.ruleset], form)
            self.dialog.scroll_to(first)

    def _option_default(self, name: str, fallback):
        model = get_rules(self.settings.ruleset).options_model()
        f = model.model_fields.get(name) if model is not None else None
        return f.get_default() if f is not None else fallback

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

    def _mission_label(self, mission_id: str) -> str:
        info = self.missions()[mission_id]
        return info.name + ("  - not on this map" if self.mission_problem(mission_id) else "")

    def _update_reason(self) -> None:
        s = self.settings
        why = refusal(s.ruleset, s.map)
        mission_why = None if why else self.mission_problem()
        _, rules_why = self.house_rules()
        if why:
            text = f"{RULESETS[s.ruleset]} cannot be played on this map: {why}"
        elif mission_why:
            text = f"This mission cannot be played on this map: {mission_why}"
        elif rules_why:
            text = f"The {RULESETS[s.ruleset]} options kept from last time are refused ({rules_why}): change them in Options."
        else:
            text = self.error or ""
        self.reason.set_text(text.replace("<", "&lt;"))
        if why or mission_why or rules_why:
            self.start.disable()
        else:
            self.start.enable()

    def resize(self, size) -> None:
        super().resize(size)
        self._rebuild()

    # --- input ----------------------------------------------------------------------------
    def handle(self, ev) -> None:
        s = self.settings
        if self.dialog is not None:              # the Options dialog is modal: it takes everything
            got = self.dialog.handle(ev)
            if isinstance(got, Command) and got.name == "house_rules":
                self._options_closed(got.arg)
            return
        if self.join_dialog is not None:         # so is the Join dialog
            got = self.join_dialog.handle(ev)
            if isinstance(got, Command) and got.name == "join":
                if got.arg is None:
                    self.join_dialog = None
                else:
                    self.join_game(*got.arg)
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
                self._rebuild()
            elif ev.ui_element is self.dd_map:
                s.map = self.map_labels[ev.text]
                if self.mission is not None and self.mission_problem() is not None:
                    self.mission = self._pick_mission()      # the new map cannot hold it: the map's own
                self._rebuild()                              # the missions' marks follow the map
            elif ev.ui_element is self.dd_mission:
                self.mission = self.mission_labels[ev.text]
                s.missions[s.ruleset] = self.mission
                self._rebuild()
            elif ev.ui_element is self.dd_deploy:
                s.deployment = next(k for k, v in self.deploy_labels.items() if v == ev.text)
            else:
                self._read_sides()
                if ev.ui_element in self.dd_seat.values():
                    self._rebuild()                          # the seat's line under it
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
            self._update_reason()
            return None
        if self.mission is not None:
            s.missions[s.ruleset] = self.mission
        s.save()
        try:
            rosters = [forces.resolve(s.ruleset, k) for k in s.rosters.get(s.ruleset, ())]
        except DataError as err:
            self.error = f"that force cannot be played: {str(err).splitlines()[0]}"
            self._update_reason()
            return None
        return rosters, {1: s.seats[0], 2: s.seats[1]}

    def host_game(self) -> None:
        """Host the game shown over the network: its server runs in this process (a thread), this
        window plays side 1 through it, side 2 is a player joining with the code shown (or the AI
        chosen for it, played on the server). The game is kept in the host's autosave."""
        from game.net.host import GameHost
        from game.net.remote import NotConnected, Notice, Refused, RemoteSession
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
            session = RemoteSession(f"127.0.0.1:{port}", 1, host.codes[1]).wait_ready(10)
        except (GameError, ValueError, OSError, Refused, NotConnected) as err:
            self.error = f"cannot host: {err}"
            self._update_reason()
            return
        session.server = server                  # kept with the game it serves
        if 2 in host.codes:
            session.notices.append(Notice(f"hosting on {lan_address()}:{port}: player 2 joins with seat 2, "
                                          f"code {host.codes[2]} (skirmish join {lan_address()}:{port} --seat 2 "
                                          f"--code {host.codes[2]})", "waiting"))
        self.go_to(Switch("play", {"session": session, "map_id": s.map}))

    def open_join(self) -> None:
        from game.ui.join_dialog import JoinDialog
        self.join_dialog = JoinDialog(self.ui, self.app.size)

    def join_game(self, address: str, seat: int, code: str) -> None:
        """Join a game hosted elsewhere (the Join dialog's answer)."""
        from game.net.remote import NotConnected, Refused, RemoteSession

        try:
            session = RemoteSession(address, seat, code).wait_ready(8)
        except ValueError as err:                # not an address
            self.join_dialog.say(str(err))
            return
        except (Refused, NotConnected) as err:
            self.join_dialog.say(str(err))
            return
        self.join_dialog.close()
        self.join_dialog = None
        self.go_to(Switch("play", {"session": session}))

    def start_game(self) -> None:
        s = self.settings
        self._read_sides()
        try:
            s.seed = int(self.seed.get_text() or "1")
        except ValueError:
            s.seed = 1
        why = refusal(s.ruleset, s.map) or self.mission_problem() or self.house_rules()[1]
        if why:
            self.error = why
            self._update_reason()
            return
        if self.mission is not None:
            s.missions[s.ruleset] = self.mission
        s.save()
        try:       # a player's force is its roster file's dict (refused with file, field, reason)
            rosters = [forces.resolve(s.ruleset, k) for k in s.rosters.get(s.ruleset, ())]
        except DataError as err:
            self.error = f"that force cannot be played: {str(err).splitlines()[0]}"
            self._update_reason()
            return
        try:
            session = GameSession.new(s.ruleset, self.maps[s.map], rosters,
                                      {1: s.seats[0], 2: s.seats[1]}, s.seed, options=self.game_options())
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
