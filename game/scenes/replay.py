"""A saved game, or the game in play, stepped through forwards and backwards.

The table, the tray, the log and the tracks are the game screen's (``PlayScene``), driven by a
game rebuilt at decision k of the record: Left/Right step one decision, PageUp/PageDown a turn,
Home/End the ends, and the timeline under the table can be clicked or dragged. Nothing is
answered here and no AI runs. Stepping back replays from the nearest kept snapshot, so any
position is the state ``replay(setup, decisions[:k])`` gives (tested by hash).

Opened from a game (H, the history), it shows the positions as the player at the screen saw
them (``eyes``) and Esc goes back to the game, unchanged; opened on a save (``skirmish replay
SAVE``) it is a spectator's view, which shows no hidden card.
"""
from __future__ import annotations

import pygame

from engine.core import Game, replay
from game.kit.transitions import Pop
from game.render.text import plate
from game.session import GameSession
from game.ui.sides import side_names, side_title

from .play import PlayScene

SNAPSHOT_EVERY = 25
BAR_H = 30


class ReplayScene(PlayScene):
    waiting_words = "to decide"              # nobody thinks in a replay: the record answers

    def __init__(self, app, setup, decisions, eyes: int | None = None, back=None, at: int | None = None,
                 seats: dict[int, str] | None = None):
        """``seats``: who sat where as the game was played (a save's ``client.seats``, the
        session's for the history), for the names; None if not known (sides by number)."""
        self.setup, self.record = setup, list(decisions)
        self.played_seats = dict(seats or {})
        self.back = back                         # the scene to return to (a game's history)
        self.snapshots: dict[int, Game] = {}
        game = replay(setup, [])
        self.snapshots[0] = game.clone()
        session = GameSession(game, {1: "ai:random", 2: "ai:random"}, autosave=False)
        session.eyes = eyes
        self.k = 0
        self.dragging = False
        super().__init__(app, session, setup.map.id)
        self.ai_enabled = False                  # a replay answers nothing
        self.game_over_seen = True
        self.go(len(self.record) if at is None else at)

    # --- moving through the record --------------------------------------------------------
    def game_at(self, k: int) -> Game:
        """The game after the record's first k decisions (from the nearest snapshot)."""
        k = max(0, min(len(self.record), k))
        base = max(i for i in self.snapshots if i <= k)
        g = self.snapshots[base].clone()
        for i in range(base, k):
            player, choice = self.record[i]
            g.submit(player, choice)
            if (i + 1) % SNAPSHOT_EVERY == 0 and (i + 1) not in self.snapshots:
                self.snapshots[i + 1] = g.clone()
        return g

    def go(self, k: int) -> None:
        k = max(0, min(len(self.record), k))
        forward = k == self.k + 1
        if forward:                               # one step on: the events roll as in play
            g = self.session.game
            player, choice = self.record[self.k]
            before = {p["id"]: (p["x"], p["y"]) for p in self.pieces}
            events = g.submit(player, choice)
            self.k = k
            self.session.version += 1
            seen = [e for e in events if e.visible(self.viewer)]
            for e in seen:
                self.log.add(e.text, e.kind, e.data.get("rolls"), private=e.visible_to is not None)
                if e.data.get("rolls"):
                    self.tray.add(e.text, e.data["rolls"], self.t)
            self.effects.add(seen, self.t)
            self.hand.on_events(seen, self.t)
            self._after_change(before, animate=self.tray.animate)
            return
        self.session.game = self.game_at(k)
        self.k = k
        self.session.version += 1
        self.anim.clear()
        self.effects.clear()
        self.refresh(rebuild_log=True)

    def turn_starts(self) -> list[int]:
        """The record's indices where a turn begins (for PageUp/PageDown)."""
        if not hasattr(self, "_turns"):
            g, out, last = self.game_at(0), [0], None
            for i, (p, c) in enumerate(self.record):
                t = g.state.turn
                if last is not None and t != last:
                    out.append(i)
                last = t
                g.submit(p, c)
            self._turns = out
        return self._turns

    # --- the scene ------------------------------------------------------------------------
    def _side_names(self) -> dict[int, str]:
        # the session's seats are a stand-in that answers nothing: name the seats as played
        return side_names(self.session.game.view(None), self.played_seats)

    def _side_titles(self) -> dict[int, str]:
        return {p: side_title(self.session.game, p, self.played_seats) for p in (1, 2)}

    def _check_flow(self) -> bool:
        return False                              # no pass screens and no game-over screen here

    def handle(self, ev) -> None:
        if ev.type == pygame.KEYDOWN:
            step = {pygame.K_RIGHT: 1, pygame.K_LEFT: -1}.get(ev.key)
            if step is not None:
                self.go(self.k + step)
                return
            if ev.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                ts = self.turn_starts()
                if ev.key == pygame.K_PAGEDOWN:
                    self.go(next((t for t in ts if t > self.k), len(self.record)))
                else:
                    self.go(max([t for t in ts if t < self.k] or [0]))
                return
            if ev.key == pygame.K_HOME:
                self.go(0)
                return
            if ev.key == pygame.K_END:
                self.go(len(self.record))
                return
            if ev.key in (pygame.K_ESCAPE, pygame.K_h) and self.back is not None:
                self.go_to(Pop())
                return
            if ev.mod & pygame.KMOD_CTRL and ev.key in (pygame.K_z, pygame.K_s, pygame.K_o):
                return                            # nothing to undo, save or load in a replay
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self._bar().collidepoint(ev.pos):
            self.dragging = True
            self._seek(ev.pos[0])
            return
        if ev.type == pygame.MOUSEMOTION and self.dragging:
            self._seek(ev.pos[0])
            return
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.dragging:
            self.dragging = False
            return
        super().handle(ev)

    def _bar(self) -> pygame.Rect:
        r = self.table_rect
        return pygame.Rect(r.x + 40, r.bottom - BAR_H - 6, r.w - 80, BAR_H)

    def _seek(self, x: int) -> None:
        bar = self._bar()
        f = min(1.0, max(0.0, (x - bar.x) / max(1, bar.w)))
        self.go(round(f * len(self.record)))

    def draw(self, screen) -> None:
        super().draw(screen)
        bar = self._bar()
        pygame.draw.rect(screen, (20, 16, 12), bar.inflate(8, 8), border_radius=6)
        pygame.draw.rect(screen, (90, 74, 52), bar, border_radius=4)
        n = max(1, len(self.record))
        for t in self.turn_starts():
            x = bar.x + bar.w * t / n
            pygame.draw.line(screen, (200, 170, 110), (x, bar.y), (x, bar.bottom))
        x = bar.x + bar.w * self.k / n
        pygame.draw.rect(screen, (250, 220, 130), (x - 3, bar.y - 3, 6, bar.h + 6), border_radius=3)
        what = "history" if self.back is not None else "replay"
        tip = (f"{what}: decision {self.k} of {len(self.record)}, turn {self.session.game.state.turn}   "
               f"Left/Right: a decision   PgUp/PgDn: a turn   Home/End" + ("   Esc: back to the game"
                                                                           if self.back is not None else ""))
        lab = plate(tip, 13)
        screen.blit(lab, lab.get_rect(midbottom=(bar.centerx, bar.y - 6)))
