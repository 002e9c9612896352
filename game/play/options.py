"""The game screen's side panel as words: the prompt, the options list (attacks with the engine's
odds, the hint's option starred when asked with G: ``game/play/hint.py``).

An owned part of the game screen (``game/scenes/play.py``): it reads the state's ``decision``,
``ctrl`` and ``view`` and fills its ``prompt``, ``options``, ``hand`` and ``tray``; it owns what it
showed last (``last_prompt``: None to fill it again, ``listed``, ``odds_cache``).
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


class OptionsPart:
    """The prompt and the options. Given the state, the deploying part (the placement's words) and
    the picks (the dice to keep, offered in the tray)."""

    def __init__(self, state, deploying, picks):
        self.state = state
        self.deploying = deploying
        self.picks = picks

    def stale(self) -> None:
        """What changed is not in the prompt yet: the next ``fill`` writes it again."""
        self.state.last_prompt = None

    def relaid(self) -> None:
        """The panel was laid out again (its widgets made anew): nothing listed, all to fill."""
        self.state.listed = []
        self.stale()

    def follow_selection(self, fill) -> None:
        """The selection changed (the select tool): the prompt and the list follow."""
        self.stale()
        if fill:
            self.fill()

    def ask_hint(self) -> None:
        """G or the Hint button: ask (or cancel, or hide) the hint for this window's decision."""
        st = self.state
        words = st.hint.press(st.session, st.decision, st.ctrl is not None)
        if words:
            st.note(words, 3.0)
        self.stale()
        self.fill()

    def fill(self) -> None:
        d = self.state.decision
        shorter: list[str] = []            # the prompt in fewer words, for a box it overflows
        if d is None:
            prompt = "The game is over."
        elif self.state.ctrl is None:
            prompt = f"{self.state.names[d.player]} {self.state.source.waiting_words}: {named(_unnamed(d), self.state.source.player_names())}"
        else:
            prompt = f"{self.state.names[d.player]}: {named(_unnamed(d), self.state.source.player_names())}"
            if self.state.ctrl.selected and self.state.ctrl.groups_of(self.state.ctrl.selected):
                n = len(self.state.ctrl.group)
                prompt += (" - Shift+click friends to form a group" if not n
                           else f" - group: {n + 1} models" + ("" if self.state.ctrl.group_option() is not None
                                                              else " (not a group the rules allow yet)"))
            if d.kind == "deploy":
                sp = self.deploying.place_space()
                head = prompt + f" - {sp.name if sp else 'a model'}"
                facing = bool(sp and sp.uses_facing)
                prompt = head + ": " + self.state.deploy_tray.hint(facing)
                shorter = [head + ": " + self.state.deploy_tray.hint(facing, short=True), head]
            elif d.spaces and self.state.ctrl.spaces_for(self.state.ctrl.selected):
                prompt += " - or click the table"
                if self.state.ctrl.table_spaces(alternate=True) and self.state.ctrl.table_spaces():
                    alt = self.state.ctrl.table_spaces(alternate=True)[0]    # short: the box shows three lines
                    shorter = [prompt]           # without it where it would not fit (Doubles' throw)
                    prompt += f" (Shift+click: {alt.hint or alt.describe()})"
        items = [(i, self.with_odds(i, t)) for i, t in self.state.ctrl.items()] if self.state.ctrl else []
        tip = self.state.hint.option(self.state.hint.key_of(self.state.session, d)) if self.state.ctrl else None
        general = self.state.ctrl.general() if self.state.ctrl else []
        if tip is not None:
            items = [(i, (STAR + t) if i == tip else t) for i, t in items]
            general = [(i, (STAR + t) if i == tip else t) for i, t in general]
        self.state.hand.set_view(self.state.view, self.state.viewer, d, offered=self.state.ctrl is not None, shown=self.state.presenter.shows("hand"))
        self.state.tray.set_offer(self.picks.keep_offer())
        key = (prompt, tuple(items), tuple(general))
        if key == self.state.last_prompt:
            return
        self.state.last_prompt = key
        self.set_prompt([prompt, *shorter])
        self.state.listed = [i for i, _ in items]
        self.state.options.set(general, items)
        if tip is not None:
            self.state.options.scroll_to(tip)        # the hint's row in view, not below the fold

    def set_prompt(self, prompts: list[str]) -> None:
        """The first of ``prompts`` (fullest first) that the box shows whole, with no scroll bar:
        Frontier's deployment prompt, with a posse's name, ran past the box at 1024x600 (issue 58).
        The box lays its text out as it is set, so it is asked, not measured apart."""
        for text in prompts:
            self.state.prompt.set_text(text.replace("<", "&lt;"))
            if self.state.prompt.scroll_bar is None:
                return

    def with_odds(self, i: int, label: str) -> str:
        """An attack's label with the engine's odds, where the label does not give them yet."""
        if "%" in label:
            return label
        cache = self.state.odds_cache
        key = (self.state.session.version, i)
        if key not in cache:
            if len(cache) > 256:
                cache.clear()
            try:
                o = self.state.session.game.attack_odds(self.state.decision.options[i])
            except Exception:  # odds are an aid: never a reason to fail a frame
                o = None
            cache[key] = odds_text(o) if o is not None else None
        return label if cache[key] is None else f"{label}: {cache[key]}"
