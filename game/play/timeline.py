"""A replay's timeline (``RecordSource``, ``game/play/source.py``): Left/Right step one decision,
PageUp/PageDown a turn, Home/End the ends, and the bar under the table can be clicked or dragged.
Stepping on by one rolls the events as in play (the log, the tray, the hand, the glides); any other
step puts the game at that decision and reads the view again.

Opened from a game (H, the history), Esc or H goes back to the game, unchanged; Ctrl+Z, Ctrl+S
and Ctrl+O do nothing here (nothing to undo, save or load).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from game.kit.transitions import Pop
from game.render.text import plate

if TYPE_CHECKING:
    from game.play.answers import Answering

BAR_H = 30


@dataclass(eq=False)          # a part of the game screen: one each, known by identity
class Timeline:
    """The record's position (``k``) and its bar. Given the source, the screen's state, the
    answering part (a step on is shown as an answer is), the screen's ``refresh`` and ``go_to``."""

    source: Any                  # RecordSource (game/play/source.py, which makes this part)
    state: Any                   # the PlayState (Any: its made-once fields are typed object)
    answering: Answering
    refresh: Callable
    go_to: Callable
    k: int = field(default=0, init=False)               # the record's position: decisions played
    dragging: bool = field(default=False, init=False)   # the bar's knob held

    def start(self) -> None:
        self.go(self.source.at)

    def go(self, k: int) -> None:
        src, st = self.source, self.state
        k = max(0, min(len(src.record), k))
        if k == self.k + 1:                       # one step on: the events roll as in play
            g = st.session.game
            player, choice = src.record[self.k]
            before = {p["id"]: (p["x"], p["y"]) for p in st.pieces}
            events = g.submit(player, choice)
            self.k = k
            st.session.version += 1
            seen = [e for e in events if e.visible(st.viewer)]
            for e in seen:
                st.log.add(e.text, e.kind, e.data.get("rolls"), private=e.visible_to is not None)
                if e.data.get("rolls"):
                    st.tray.add(e.text, e.data["rolls"], st.t)
            st.effects.add(seen, st.t)
            st.hand.on_events(seen, st.t)
            self.answering.after_change(before, animate=st.tray.animate)
            return
        st.session.game = src.game_at(k)
        self.k = k
        st.session.version += 1
        self.answering.forget()
        self.refresh(rebuild_log=True)

    def handle(self, ev) -> bool:
        """A key or the pointer on the bar: True when the timeline took it."""
        src = self.source
        if ev.type == pygame.KEYDOWN:
            step = {pygame.K_RIGHT: 1, pygame.K_LEFT: -1}.get(ev.key)
            if step is not None:
                self.go(self.k + step)
                return True
            if ev.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                ts = src.turn_starts()
                if ev.key == pygame.K_PAGEDOWN:
                    self.go(next((t for t in ts if t > self.k), len(src.record)))
                else:
                    self.go(max([t for t in ts if t < self.k] or [0]))
                return True
            if ev.key in (pygame.K_HOME, pygame.K_END):
                self.go(0 if ev.key == pygame.K_HOME else len(src.record))
                return True
            if ev.key in (pygame.K_ESCAPE, pygame.K_h) and src.back is not None:
                self.go_to(Pop())
                return True
            if ev.mod & pygame.KMOD_CTRL and ev.key in (pygame.K_z, pygame.K_s, pygame.K_o):
                return True                       # nothing to undo, save or load in a replay
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.bar().collidepoint(ev.pos):
            self.dragging = True
            self.seek(ev.pos[0])
            return True
        if ev.type == pygame.MOUSEMOTION and self.dragging:
            self.seek(ev.pos[0])
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.dragging:
            self.dragging = False
            return True
        return False

    def bar(self) -> pygame.Rect:
        r = self.state.table_rect
        return pygame.Rect(r.x + 40, r.bottom - BAR_H - 6, r.w - 80, BAR_H)

    def seek(self, x: int) -> None:
        bar = self.bar()
        f = min(1.0, max(0.0, (x - bar.x) / max(1, bar.w)))
        self.go(round(f * len(self.source.record)))

    def draw(self, screen) -> None:
        src = self.source
        bar = self.bar()
        pygame.draw.rect(screen, (20, 16, 12), bar.inflate(8, 8), border_radius=6)
        pygame.draw.rect(screen, (90, 74, 52), bar, border_radius=4)
        n = max(1, len(src.record))
        for t in src.turn_starts():
            x = bar.x + bar.w * t / n
            pygame.draw.line(screen, (200, 170, 110), (x, bar.y), (x, bar.bottom))
        x = bar.x + bar.w * self.k / n
        pygame.draw.rect(screen, (250, 220, 130), (x - 3, bar.y - 3, 6, bar.h + 6), border_radius=3)
        what = "history" if src.back is not None else "replay"
        tip = (f"{what}: decision {self.k} of {len(src.record)}, turn {self.state.session.game.state.turn}   "
               f"Left/Right: a decision   PgUp/PgDn: a turn   Home/End" + ("   Esc: back to the game"
                                                                           if src.back is not None else ""))
        lab = plate(tip, 13)
        screen.blit(lab, lab.get_rect(midbottom=(bar.centerx, bar.y - 6)))
