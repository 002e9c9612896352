"""Counterblast's face: Moxie and Dread as pips in the turn bar, each side's leader starred."""
from __future__ import annotations

from game.render.look import SIDE_COLOURS

from .base import DREAD, GOLD, TEXT, Presenter, count, pips, text
from .registry import register


class Counterblast(Presenter):
    id = "counterblast"
    short = "Counterblast"                 # the legend's name of it
    title = "Counterblast"

    def counters(self, view, names):
        return [], [f"{names[p]}: Moxie {count(view['moxie'], p)}, Dread {count(view['dread'], p)}" for p in (1, 2)]

    def track_key(self, view):
        return (view.get("moxie"), view.get("dread"), view.get("leader"))

    def draw_tracks(self, img, rect, view, names):
        x, y = rect.x, rect.y + 1
        for p in (1, 2):
            col = SIDE_COLOURS.get(p, TEXT)
            x = text(img, x, y - 1, f"{names.get(p, p)}:", col, 13, True) + 6
            x = text(img, x, y - 1, "Moxie", GOLD) + 4
            x = pips(img, x, y + 2, count(view.get("moxie", {}), p), GOLD) + 6
            x = text(img, x, y - 1, "Dread", DREAD) + 4
            x = pips(img, x, y + 2, count(view.get("dread", {}), p), DREAD) + 6
            leader = count(view.get("leader", {}), p)
            m = (view.get("models") or {}).get(leader) if leader else None
            if m:
                x = text(img, x, y - 1, "\u2605 " + str(m.get("name", leader)), GOLD) + 18
            else:
                x += 18
        return True


register(Counterblast())
