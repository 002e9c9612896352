"""The launcher's widgets: its rows laid out (``_build``), the map and mission labels, the reason under Start."""
from __future__ import annotations

import pygame
import pygame_gui

from engine.core.rules import get_rules
from game.forces import files as forces
from game.launch.choices import DEPLOYMENTS, ONE_WAY, RULESETS, refusal, seat_about, seat_choices
from game.launch.resume import autosave_info
from game.session import HUMAN
from game.settings import DEFAULT_OPPONENT
from game.ui.house_rules import wrap
from game.ui.house_rules_dialog import HouseRulesDialog


class LauncherFormMixin:
    """A part of ``LauncherScene`` (``game/scenes/launcher.py``): its widgets, built again on each change."""

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

        def lines(text, n, most=None):
            """``n`` lines of small text under the row above (they take their room); up to
            ``most`` where the text needs more, so it is shown whole (a mission's summary was cut
            after three, issue 58)."""
            nonlocal y
            y -= step - wh - 2
            if most is not None:
                n = max(n, min(most, len(wrap(text, fw - 8, lambda t: measure(t)[0]))))
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
        self.summary_lines = lines(self.mission_summary, 3, most=5)
        # each side: its roster and who plays it on one row, what that player does under it
        listed = forces.list_forces(s.ruleset)
        rosters = forces.roster_choices(s.ruleset, listed)      # the shipped rosters, then the player's forces (*)
        self.unreadable_forces = forces.unreadable_words(listed)     # said under Start (issue 59)
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
        # Continue: the last game (the autosave), said beside the buttons; one that cannot be read says why
        self.resume_info = autosave_info()
        self.continue_b = self.resume_line = None
        if self.resume_info is not None:
            self.continue_b = E.UIButton(pygame.Rect(x0, by, lw - 10, bh), "Continue", self.ui,
                                         tool_tip_text=f"take up the last game: {self.resume_info.words}")
            if not self.resume_info.readable:
                self.continue_b.disable()
        # network play (issue 50): host this game (this window is seat 1), or join one
        self.host_b = E.UIButton(pygame.Rect(x0 + lw + 250, by, 60, bh), "Host", self.ui,
                                 tool_tip_text="host this game over the network: you play side 1 here, side 2 "
                                               "(if human) joins from another machine with the code shown "
                                               "(docs/network.md)")
        self.join_b = E.UIButton(pygame.Rect(x0 + lw + 316, by, 60, bh), "Join…", self.ui,
                                 tool_tip_text="join a game hosted on another machine: its address, your seat, "
                                               "your code")
        ry = by + bh + 8
        if self.resume_info is not None:
            text = ("Continue: " if self.resume_info.readable else "") + self.resume_info.words
            shown = wrap(text, lw + fw - 8, lambda t: measure(t)[0], 1)[0]
            self.resume_line = E.UILabel(pygame.Rect(x0, ry - 4, lw + fw, line_h), shown, self.ui, object_id=note)
            ry += line_h
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
        # the forces left out of the lists because they do not read, with each file's reason
        note = getattr(self, "unreadable_forces", "")
        text = "\n".join(t for t in (text, note) if t)
        self.reason.set_text(text.replace("<", "&lt;").replace("\n", "<br>"))
        if why or mission_why or rules_why:
            self.start.disable()
        else:
            self.start.enable()
