"""The game screen's side panel as words: the prompt, the options list (attacks with the engine's
odds, the hint's option starred when asked with G: ``game/play/hint.py``), and the Reach / Sight / Threat buttons
held down while their shading is on.

A part of ``PlayScene`` (``game/scenes/play.py``): it reads the scene's ``decision``, ``ctrl``
and ``view`` and fills its ``prompt``, ``options``, ``hand`` and ``tray``.
"""
from __future__ import annotations

from game.names import named

STAR = "\u2605 hint: "          # the hint's row in the list (G, the Hint button)


def odds_text(o) -> str:
    """The engine's odds in a few words: the first outcomes of the chain (hit, wound, out)."""
    return ", ".join(f"{label} {p:.0%}" for label, p in o.outcomes[:3]) or o.summary


def _unnamed(d) -> str:
    """The decision's prompt without the "Player 2: " some of the engine's prompts begin with
    (Counterblast's reactions): the panel names the player itself ("Player 2: Player 2: Warboss
    Grekka shoots at Ranger 1 — react?", seen on the issue 58 tour)."""
    own = f"Player {d.player}: "
    return d.prompt[len(own):] if d.prompt.startswith(own) else d.prompt


class OptionsMixin:
    """The prompt, the options and the toggles of ``PlayScene``."""

    waiting_words = "is thinking"        # the side to decide, no answer offered here (a replay: "to decide")

    def _fill_options(self) -> None:
        d = self.decision
        shorter: list[str] = []            # the prompt in fewer words, for a box it overflows
        if d is None:
            prompt = "The game is over."
        elif self.ctrl is None:
            prompt = f"{self.names[d.player]} {self.waiting_words}: {named(_unnamed(d), self._player_names)}"
        else:
            prompt = f"{self.names[d.player]}: {named(_unnamed(d), self._player_names)}"
            if self.ctrl.selected and self.ctrl.groups_of(self.ctrl.selected):
                n = len(self.ctrl.group)
                prompt += (" - Shift+click friends to form a group" if not n
                           else f" - group: {n + 1} models" + ("" if self.ctrl.group_option() is not None
                                                              else " (not a group the rules allow yet)"))
            if d.kind == "deploy":
                sp = self._place_space()
                head = prompt + f" - {sp.name if sp else 'a model'}"
                facing = bool(sp and sp.uses_facing)
                prompt = head + ": " + self.deploy_tray.hint(facing)
                shorter = [head + ": " + self.deploy_tray.hint(facing, short=True), head]
            elif d.spaces and self.ctrl.spaces_for(self.ctrl.selected):
                prompt += " - or click the table"
                if self.ctrl.table_spaces(alternate=True) and self.ctrl.table_spaces():
                    alt = self.ctrl.table_spaces(alternate=True)[0]    # short: the box shows three lines
                    shorter = [prompt]           # without it where it would not fit (Doubles' throw)
                    prompt += f" (Shift+click: {alt.hint or alt.describe()})"
        items = [(i, self._with_odds(i, t)) for i, t in self.ctrl.items()] if self.ctrl else []
        tip = self.hint.option(self.hint.key_of(self.session, d)) if self.ctrl else None
        general = self.ctrl.general() if self.ctrl else []
        if tip is not None:
            items = [(i, (STAR + t) if i == tip else t) for i, t in items]
            general = [(i, (STAR + t) if i == tip else t) for i, t in general]
        self.hand.set_view(self.view, self.viewer, d, offered=self.ctrl is not None, shown=self.presenter.shows("hand"))
        self.tray.set_offer(self._keep_offer())
        key = (prompt, tuple(items), tuple(general))
        if key == self._last_prompt:
            return
        self._last_prompt = key
        self._set_prompt([prompt, *shorter])
        self._listed = [i for i, _ in items]
        self.options.set(general, items)
        if tip is not None:
            self.options.scroll_to(tip)        # the hint's row in view, not below the fold

    def _set_prompt(self, prompts: list[str]) -> None:
        """The first of ``prompts`` (fullest first) that the box shows whole, with no scroll bar:
        Frontier's deployment prompt, with a posse's name, ran past the box at 1024x600 (issue 58).
        The box lays its text out as it is set, so it is asked, not measured apart."""
        for text in prompts:
            self.prompt.set_text(text.replace("<", "&lt;"))
            if self.prompt.scroll_bar is None:
                return

    def _with_odds(self, i: int, label: str) -> str:
        """An attack's label with the engine's odds, where the label does not give them yet."""
        if "%" in label:
            return label
        cache = self.__dict__.setdefault("_odds_cache", {})
        key = (self.session.version, i)
        if key not in cache:
            if len(cache) > 256:
                cache.clear()
            try:
                o = self.session.game.attack_odds(self.decision.options[i])
            except Exception:  # odds are an aid: never a reason to fail a frame
                o = None
            cache[key] = odds_text(o) if o is not None else None
        return label if cache[key] is None else f"{label}: {cache[key]}"

    def _show_toggles(self) -> None:
        """The Reach, Sight and Threat buttons stay pressed while their shading is on."""
        for key in ("reach", "sight", "threat"):
            b = self.buttons.get(key)
            if b is not None and b.is_selected != bool(self.toggles.get(key)):
                (b.select if self.toggles.get(key) else b.unselect)()
