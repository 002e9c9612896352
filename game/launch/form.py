"""The launcher's widgets: its rows laid out (``LauncherForm.build``), the map and mission labels, the reason under Start."""
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


class LauncherForm:
    """The launcher's form, a part ``LauncherScene`` (``game/scenes/launcher.py``) owns: it builds the
    scene's widgets, again on each change (the widgets stay the scene's attributes, which its
    event handlers and the tests read)."""

    def __init__(self, scene):
        self.scene = scene

    def rebuild(self) -> None:
        """Build again, keeping a seed being typed."""
        sc = self.scene
        if getattr(sc, "seed", None) is not None and sc.seed.alive():
            try:
                sc.settings.seed = int(sc.seed.get_text() or "1")
            except ValueError:
                pass
        self.build()

    def build(self) -> None:
        sc = self.scene
        form, first = (sc.dialog.form, sc.dialog.first) if sc.dialog is not None else (None, 0)
        sc.ui.clear_and_reset()
        s = sc.settings
        w, h = sc.app.size
        small = h < 700
        x0, y = 60, (92 if small else 110)
        lw, fw = 104, 376
        E = pygame_gui.elements
        note = pygame_gui.core.ObjectID(class_id="@field", object_id="#note")
        E.UILabel(pygame.Rect(x0, 18 if small else 30, 600, 50), "Skirmish", sc.ui, object_id="#title")
        E.UILabel(pygame.Rect(x0, 58 if small else 72, 700, 26),
                  "A digital table for tabletop skirmish games: choose and start.", sc.ui)

        step = 44 if not small else 36
        wh = 32 if not small else 30
        measure = sc.ui.get_theme().get_font(["#note"]).size
        line_h = max(18, measure("Ag")[1])

        def row(label, widget_fn):
            nonlocal y
            E.UILabel(pygame.Rect(x0, y, lw, wh), label, sc.ui)
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
                out.append(E.UILabel(pygame.Rect(x0 + lw, y + i * line_h, fw, line_h), ln, sc.ui, object_id=note))
            y += n * line_h + (step - wh)
            return out

        rs_names: list[str | tuple[str, str]] = list(RULESETS.values())
        sc.dd_ruleset = row("Ruleset", lambda r: E.UIDropDownMenu(rs_names, RULESETS[s.ruleset], r, sc.ui))
        sc.map_labels = {self.map_label(mid): mid for mid in sc.maps}
        current = self.map_label(s.map)
        sc.dd_map = row("Map", lambda r: E.UIDropDownMenu(list(sc.map_labels), current, r, sc.ui))
        # the mission: the ruleset's list, those this map cannot hold marked; a summary under it
        missions = sc.missions()
        sc.mission_labels = {self.mission_label(mid): mid for mid in missions}
        if missions:
            chosen = next(k for k, v in sc.mission_labels.items() if v == sc.mission)
            sc.dd_mission = row("Mission", lambda r: E.UIDropDownMenu(list(sc.mission_labels), chosen, r, sc.ui))
            info = missions[sc.mission]
            sc.mission_summary = info.summary
        else:
            sc.dd_mission = row("Mission", lambda r: E.UIDropDownMenu([ONE_WAY], ONE_WAY, r, sc.ui))
            sc.dd_mission.disable()
            sc.mission_summary = f"{RULESETS[s.ruleset]} has no missions to choose from: its rules say how it is won."
        sc.summary_lines = lines(sc.mission_summary, 3, most=5)
        # each side: its roster and who plays it on one row, what that player does under it
        listed = forces.list_forces(s.ruleset)
        rosters = forces.roster_choices(s.ruleset, listed)      # the shipped rosters, then the player's forces (*)
        sc.unreadable_forces = forces.unreadable_words(listed)     # said under Start (issue 59)
        chosen = s.rosters.get(s.ruleset) or get_rules(s.ruleset).default_rosters(None)
        sc.roster_ids = {v: k for k, v in rosters.items()}
        sc.dd_roster, sc.dd_seat, sc.seat_lines, sc.build_b = {}, {}, {}, {}
        seats = seat_choices()
        rw, bw = 176, 62
        for p in (1, 2):
            name = rosters.get(chosen[p - 1], next(iter(rosters.values())))
            seat = s.seats[p - 1] if len(s.seats) >= p and s.seats[p - 1] in seats else (HUMAN if p == 1 else DEFAULT_OPPONENT)

            def both(r, name=name, seat=seat, p=p):
                # the roster, "Build…" (the force builder, starting from it), who plays the side
                sc.build_b[p] = E.UIButton(pygame.Rect(r.x + rw + 4, r.y, bw, r.h), "Build…", sc.ui,
                                             tool_tip_text=f"build a force for side {p}, or change one of yours")
                sc.dd_seat[p] = E.UIDropDownMenu(seats, seat, pygame.Rect(r.x + rw + bw + 8, r.y, r.w - rw - bw - 8,
                                                                            r.h), sc.ui)
                return E.UIDropDownMenu(list(rosters.values()), name, pygame.Rect(r.x, r.y, rw, r.h), sc.ui)
            sc.dd_roster[p] = row(f"Side {p}", both)
            sc.seat_lines[p] = lines(seat_about(seat), 2)
        rules, _ = sc.house_rules()
        group = rules.get("deployment_group", self.option_default("deployment_group", 2))
        sc.deploy_labels = {k: v.format(n=group) for k, v in DEPLOYMENTS.items()}
        sc.dd_deploy = row("Deployment", lambda r: E.UIDropDownMenu(
            list(sc.deploy_labels.values()), sc.deploy_labels.get(s.deployment, sc.deploy_labels["alternate"]),
            r, sc.ui))
        sc.seed = row("Seed", lambda r: E.UITextEntryLine(pygame.Rect(r.x, r.y, 120, r.h), sc.ui))
        sc.seed.set_text(str(s.seed))
        sc.seed.set_allowed_characters("numbers")
        model = get_rules(s.ruleset).options_model()
        n = len(rules)
        sc.options_b = E.UIButton(pygame.Rect(x0 + lw + 130, y - step, fw - 130, wh),
                                    "Options..." + (f" ({n} changed)" if n else ""), sc.ui,
                                    tool_tip_text=f"{RULESETS[s.ruleset]}'s house rules: every option, its meaning and "
                                                  "its default")
        if model is None:
            sc.options_b.disable()
        by = y + (2 if small else 10)
        bh = 42 if small else 48
        # Start, Quit, Edit, Host, Join… across the form's width
        sc.start = E.UIButton(pygame.Rect(x0 + lw, by, 112, bh), "Start", sc.ui)
        sc.quit_b = E.UIButton(pygame.Rect(x0 + lw + 118, by, 56, bh), "Quit", sc.ui)
        back = sc.editor is not None and s.map == sc.edited_key
        sc.edit_b = E.UIButton(pygame.Rect(x0 + lw + 180, by, 64, bh), "Editor" if back else "Edit", sc.ui,
                                 tool_tip_text="back to the layout editor" if back else
                                 "open this map in the layout editor")
        # Continue: the last game (the autosave), said beside the buttons; one that cannot be read says why
        sc.resume_info = autosave_info()
        sc.continue_b = sc.resume_line = None
        if sc.resume_info is not None:
            sc.continue_b = E.UIButton(pygame.Rect(x0, by, lw - 10, bh), "Continue", sc.ui,
                                         tool_tip_text=f"take up the last game: {sc.resume_info.words}")
            if not sc.resume_info.readable:
                sc.continue_b.disable()
        # network play (issue 50): host this game (this window is seat 1), or join one
        sc.host_b = E.UIButton(pygame.Rect(x0 + lw + 250, by, 60, bh), "Host", sc.ui,
                                 tool_tip_text="host this game over the network: you play side 1 here, side 2 "
                                               "(if human) joins from another machine with the code shown "
                                               "(docs/network.md)")
        sc.join_b = E.UIButton(pygame.Rect(x0 + lw + 316, by, 60, bh), "Join…", sc.ui,
                                 tool_tip_text="join a game hosted on another machine: its address, your seat, "
                                               "your code")
        ry = by + bh + 8
        if sc.resume_info is not None:
            text = ("Continue: " if sc.resume_info.readable else "") + sc.resume_info.words
            shown = wrap(text, lw + fw - 8, lambda t: measure(t)[0], 1)[0]
            sc.resume_line = E.UILabel(pygame.Rect(x0, ry - 4, lw + fw, line_h), shown, sc.ui, object_id=note)
            ry += line_h
        sc.reason = E.UITextBox("", pygame.Rect(x0, ry, lw + fw, max(40, min(90, h - ry - 8))), sc.ui,
                                  object_id="#reason")
        sc.thumb_rect = pygame.Rect(x0 + lw + fw + 50, 110, w - (x0 + lw + fw + 50) - 50, h - 180)
        self.update_reason()
        if form is not None:             # a resize with the Options dialog open: it stays open
            sc.dialog = HouseRulesDialog(sc.ui, sc.app.size, RULESETS[s.ruleset], form)
            sc.dialog.scroll_to(first)

    def option_default(self, name: str, fallback):
        sc = self.scene
        model = get_rules(sc.settings.ruleset).options_model()
        f = model.model_fields.get(name) if model is not None else None
        return f.get_default() if f is not None else fallback

    def map_label(self, mid: str) -> str:
        sc = self.scene
        m = sc.maps[mid]
        why = refusal(sc.settings.ruleset, mid)
        return f"{m.name} ({mid})" + ("  - refused" if why else "")

    def mission_label(self, mission_id: str) -> str:
        sc = self.scene
        info = sc.missions()[mission_id]
        return info.name + ("  - not on this map" if sc.mission_problem(mission_id) else "")

    def update_reason(self) -> None:
        sc = self.scene
        s = sc.settings
        why = refusal(s.ruleset, s.map)
        mission_why = None if why else sc.mission_problem()
        _, rules_why = sc.house_rules()
        if why:
            text = f"{RULESETS[s.ruleset]} cannot be played on this map: {why}"
        elif mission_why:
            text = f"This mission cannot be played on this map: {mission_why}"
        elif rules_why:
            text = f"The {RULESETS[s.ruleset]} options kept from last time are refused ({rules_why}): change them in Options."
        else:
            text = sc.error or ""
        # the forces left out of the lists because they do not read, with each file's reason
        note = getattr(sc, "unreadable_forces", "")
        text = "\n".join(t for t in (text, note) if t)
        sc.reason.set_text(text.replace("<", "&lt;").replace("\n", "<br>"))
        if why or mission_why or rules_why:
            sc.start.disable()
        else:
            sc.start.enable()
