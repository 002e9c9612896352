"""Doubles' face: the turn limit and the points, the initiative track with each fighter's action
points (the fighter acting now lit)."""
from __future__ import annotations

import pygame

from game.render.look import SIDE_COLOURS
from game.render.text import font

from .base import GOLD, TEXT, Presenter, text
from .registry import register


class Doubles(Presenter):
    id = "doubles"
    short = "Doubles"                 # the legend's name of it
    title = "Doubles"
    panels = frozenset({"dice offer"})

    def counters(self, view, names):
        pts = view.get("points") or [0, 0]
        head = [f"points {pts[0]}-{pts[1]}"]          # the turn limit is the turn's ("Turn 1 of 6")
        track = view.get("track") or []
        parts = ["initiative: " + " > ".join(f"{k.split('.', 1)[-1]} {v}" for k, v in track[:6])] if track else []
        return head, parts

    def track_key(self, view):
        return (view.get("track"), [(f.get("key"), f.get("ap")) for f in view.get("fighters") or []],
                view.get("acting"))

    def draw_tracks(self, img, rect, view, names):
        x, y = rect.x, rect.y + 1
        fighters = {f.get("key"): f for f in view.get("fighters") or []}
        acting = view.get("acting")
        x = text(img, x, y - 1, "initiative", GOLD) + 6
        for key, value in view.get("track") or []:
            f = fighters.get(key) or {}
            col = SIDE_COLOURS.get(f.get("side"), TEXT)
            name = str(f.get("name") or key.split(".", 1)[-1])
            w = max(44, font(12, True).size(name)[0] + 10)
            box = pygame.Rect(x, y - 1, w, 18)
            pygame.draw.rect(img, col if key == acting else (50, 42, 34), box, border_radius=4)
            pygame.draw.rect(img, col, box, 1, border_radius=4)
            t = font(12, True).render(name, True, (20, 16, 12) if key == acting else TEXT)
            img.blit(t, (x + 4, y))
            tv = font(10).render(str(value), True, GOLD)
            img.blit(tv, (box.right - tv.get_width() - 2, y - 1))
            for k in range(int(f.get("ap") or 0)):      # action points as pips under the name
                pygame.draw.circle(img, (120, 200, 240), (x + 5 + k * 6, box.bottom + 1), 2)
            x += w + 4
            if x > rect.right - 40:
                break
        return True


register(Doubles())
