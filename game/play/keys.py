"""The game screen's keys: each key to an intent (``key_intent``, the keys panel's), and the help
box's list of them (kept beside the keys so the two stay the same), and ``Keys``: what a few of them
do that is the screen's own (no session). ``Routing`` dispatches them (``game/play/routing.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from game.kit import Command, Toggle, Undo

if TYPE_CHECKING:
    from game.play.options import OptionsPart
    from game.play.pointer import Pointer

HELP = [
    "Controls",
    "Left click a model: select it (its options fill the list); a second click activates it if that is all it can do",
    "Left click the table with a model selected: move there if the engine allows (Shift+click: jump or throw toward there)",
    "Left drag: tape measure (from a model: base edge to base edge)",
    "Right or middle drag: pan    Wheel: zoom    F: fit the table",
    "1-9: pick the listed option    Tab: next model that may act    Esc: deselect, close a dialog",
    "R: reach preview    V: what the selected model sees    T: threat (what enemies see)",
    "Ctrl+Z: undo (not past dice, a card shown or the other side)    Ctrl+S: save    Ctrl+O: load",
    "Hover an option: what it does and the rule    F2: rules glossary    L: legend",
    "G or Hint: the strongest agent's answer to your decision, from what you can see (again: cancel, hide)",
    "S: show or hide the score (the mission, what wins, each side's points)",
    "P: moves end Prone (Counterblast)    H: the game's history    + / -: AI speed    A: animations    M: sound    F1: this help",
]


def key_intent(ev, answering: bool):
    """The intent of a key (None: a key of no use here). ``answering``: the viewer decides now
    (Tab and the digits need a decision to answer)."""
    ctrl = ev.mod & pygame.KMOD_CTRL
    k = ev.key
    if ctrl and k == pygame.K_z:
        return Undo()
    if ctrl and k == pygame.K_s:
        return Command("save")
    if ctrl and k == pygame.K_o:
        return Command("load")
    plain = {pygame.K_F1: "help", pygame.K_F2: "glossary", pygame.K_f: "fit", pygame.K_HOME: "fit",
             pygame.K_ESCAPE: "escape"}
    if k in plain:
        return Command(plain[k])
    if not ctrl and k in (pygame.K_l, pygame.K_h, pygame.K_g, pygame.K_a, pygame.K_m, pygame.K_p):
        return Command({pygame.K_l: "legend", pygame.K_h: "history", pygame.K_g: "hint",
                        pygame.K_a: "animations", pygame.K_m: "sound", pygame.K_p: "prone"}[k])
    if k in (pygame.K_r, pygame.K_v, pygame.K_t):
        return Toggle({pygame.K_r: "reach", pygame.K_v: "sight", pygame.K_t: "threat"}[k])
    if k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
        return Command("speed", 1.5)
    if k in (pygame.K_MINUS, pygame.K_KP_MINUS):
        return Command("speed", 1 / 1.5)
    if k == pygame.K_TAB and answering:
        return Command("next model")
    if pygame.K_1 <= k <= pygame.K_9 and answering:
        return Command("hotkey", k - pygame.K_0)
    return None


@dataclass(eq=False)          # a part of the game screen: one each, known by identity
class Keys:
    """Esc, P and Tab. Given the state, the options (the list follows), the pointer (the selection)
    and the panels (the sheets Esc closes, the tape it puts away)."""

    state: Any                   # the PlayState (Any: its made-once fields are typed object)
    options: OptionsPart
    pointer: Pointer
    panels: Any                  # PlayPanels (game/play/routing.py, which imports this module)

    def escape(self) -> None:
        """Esc: the box on top closed, else the selection dropped; the tape put away."""
        if not self.panels.sheets.escape() and self.state.ctrl:
            self.pointer.deselect()
            self.options.stale()
            self.options.fill()
        self.panels.tools.tape.cancel()

    def toggle_prone(self) -> None:
        st = self.state
        st.prone_moves = not st.prone_moves
        if st.ctrl:
            st.ctrl.prone = st.prone_moves
        st.note(f"moves end {'Prone' if st.prone_moves else 'standing'} (P)", 3.0)

    def next_model(self) -> None:
        ctrl = self.state.ctrl
        if not ctrl:
            return
        actors = sorted(ctrl.actors())
        if actors:
            cur = ctrl.selected
            nxt = actors[(actors.index(cur) + 1) % len(actors)] if cur in actors else actors[0]
            self.pointer.select(nxt)
