"""What happened, on the table: an attack draws its line from attacker to target, then the
outcome rises over the target (a miss, the damage or wounds, Down, out of action), read from the
events the viewer may see. Moves glide along the route they took (``route_of``)."""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import pygame

from game.render import overlays as ov
from game.render.text import fit_lines, font, on_reset, plate

LINE_SECONDS = 0.9
FLOAT_SECONDS = 1.8
LABEL_MAX_W = 460        # a reason wider than this (or than the table) is wrapped


@dataclass
class Effect:
    kind: str            # "line" or "float"
    a: str               # model id (the attacker, or the model the words float over)
    b: str | None
    text: str
    colour: tuple
    t0: float
    reason: bool = False  # the AI's one-line reason (one shows at a time)


def _ids(d: dict) -> tuple[str | None, str | None]:
    for a_key, b_key in (("attacker", "defender"), ("shooter", "target"), ("attacker", "target")):
        if isinstance(d.get(a_key), str) and isinstance(d.get(b_key), str):
            return d[a_key], d[b_key]
    return None, None


def effects_of(events, now: float) -> list[Effect]:
    """The effects a batch of events makes (the order they happened in, a little apart)."""
    out: list[Effect] = []
    last_target = None
    t = now
    for e in events:
        d = e.data or {}
        a, b = _ids(d)
        if a and b and e.kind in ("shot", "combat", "shoot", "melee", "dice") and a != b:
            out.append(Effect("line", a, b, "", (255, 226, 120), t))
            last_target = b
            t += 0.15
        if e.kind == "duel" and "wounds" in d and last_target:            # Frontier
            txt = f"-{d['wounds']} wound{'s' if d['wounds'] != 1 else ''}" if d.get("success") and d["wounds"] else (
                "no wound" if d.get("success") else "miss")
            out.append(Effect("float", last_target, None, txt, (255, 120, 100) if d.get("wounds") else (220, 220, 220), t))
        elif e.kind == "hit" and isinstance(d.get("defender"), str):      # Doubles
            txt = "killed" if d.get("instant_death") else f"-{d.get('damage', 0)} health"
            out.append(Effect("float", d["defender"], None, txt, (255, 120, 100), t))
        elif e.kind == "miss" and isinstance(d.get("defender"), str):
            out.append(Effect("float", d["defender"], None, "miss", (220, 220, 220), t))
        elif e.kind == "damage" and isinstance(d.get("model"), str):       # Counterblast
            words = e.text.rsplit("— ", 1)[-1] if "— " in e.text else f"{d.get('tokens', 0)} token(s)"
            txt = f"+{d.get('tokens', 0)} tokens: {words}" if d.get("tokens") else "no damage"
            out.append(Effect("float", d["model"], None, txt, (255, 120, 100) if d.get("tokens") else (220, 220, 220), t))
        elif e.kind == "casualty" and isinstance(d.get("model"), str):
            out.append(Effect("float", d["model"], None, "out of action", (255, 90, 80), t + 0.3))
        else:
            continue
        t += 0.25
    return out


@functools.lru_cache(maxsize=64)
def float_label(text: str, colour: tuple, width: int) -> pygame.Surface:
    """The words that float over a model on a plate, wrapped to ``width`` pixels (up to three
    lines) where one line is wider: an AI's reason is often wider than the table at 1024x600."""
    one = plate(text, 15, fg=colour, bg=(20, 16, 12, 200), bold=True)
    if one.get_width() <= width:
        return one
    f = font(15, True)
    lines = [f.render(t, True, colour) for t in fit_lines(text, f, max(40, width - 10), 3)]
    out = pygame.Surface((max(s.get_width() for s in lines) + 10, sum(s.get_height() for s in lines) + 4),
                         pygame.SRCALPHA)
    pygame.draw.rect(out, (20, 16, 12, 200), out.get_rect(), border_radius=6)
    y = 2
    for s in lines:
        out.blit(s, (5, y))
        y += s.get_height()
    return out


on_reset(float_label.cache_clear)


class TableEffects:
    def __init__(self):
        self.effects: list[Effect] = []
        self.drawn: list[tuple[Effect, pygame.Rect]] = []     # the floats the last frame drew, and where

    def add(self, events, now: float) -> None:
        self.effects += effects_of(events, now)
        del self.effects[:-24]

    def add_reason(self, model: str, text: str, at: float) -> None:
        """The AI's reason over ``model``: it replaces a reason still showing, so an AI playing
        fast shows its latest reason, not a pile of them."""
        self.effects = [e for e in self.effects if not e.reason]
        self.effects.append(Effect("float", model, None, text, (190, 215, 255), at, reason=True))

    def clear(self) -> None:
        self.effects.clear()

    def busy(self, now: float) -> bool:
        return any(now - e.t0 < (LINE_SECONDS if e.kind == "line" else FLOAT_SECONDS) for e in self.effects)

    def draw(self, surf, cam, pieces, positions, now: float, area: pygame.Rect | None = None) -> None:
        """The lines and floats on ``surf`` (the table); ``area``: the part of it in view (below the
        deployment tray while it shows), where every float is kept whole (issue 58: the AI's
        reasons ran off the table's edges and were cut)."""
        area = surf.get_rect() if area is None else area
        where = {p["id"]: positions.get(p["id"], (p["x"], p["y"])) for p in pieces}
        radius = {p["id"]: p["radius"] for p in pieces}
        keep = []
        self.drawn = []
        above: dict[str, int] = {}           # per model, the top of the floats drawn over it so far
        for e in self.effects:
            age = now - e.t0
            life = LINE_SECONDS if e.kind == "line" else FLOAT_SECONDS
            if age > life:
                continue
            keep.append(e)
            if age < 0 or e.a not in where:
                continue
            if e.kind == "line" and e.b in where:
                ax, ay = ov.mm_to_screen(cam, *where[e.a])
                bx, by = ov.mm_to_screen(cam, *where[e.b])
                f = min(1.0, age / (LINE_SECONDS * 0.4))       # the line reaches out, then holds
                ex, ey = ax + (bx - ax) * f, ay + (by - ay) * f
                pygame.draw.line(surf, (20, 16, 10), (ax + 1, ay + 1), (ex + 1, ey + 1), 4)
                pygame.draw.line(surf, e.colour, (ax, ay), (ex, ey), 2)
                if f >= 1:
                    pygame.draw.circle(surf, e.colour, (bx, by), 6 + 4 * math.sin(age * 12), 2)
            elif e.kind == "float":
                x, y = ov.mm_to_screen(cam, *where[e.a])
                r = radius.get(e.a, 10) * cam.px_per_mm
                lab = float_label(e.text, e.colour, max(80, min(LABEL_MAX_W, area.w - 8)))
                rect = lab.get_rect(midbottom=(x, y - r - 6 - 28 * age / FLOAT_SECONDS))
                if e.a in above and rect.bottom > above[e.a] - 2:    # another float over it: stack above
                    rect.bottom = above[e.a] - 2
                rect.clamp_ip(area.inflate(-4, -4) if rect.w <= area.w - 4 else area)
                for prev, other in self.drawn:   # kept in view, it may have met one it stood over:
                    if prev.a == e.a and rect.colliderect(other):                  # it goes under it
                        rect.top = other.bottom + 2
                above[e.a] = min(rect.top, above.get(e.a, rect.top))
                surf.blit(lab, rect)
                self.drawn.append((e, rect))
        self.effects = keep


def route_of(event, start, end) -> list:
    """The route a move event says its model took (Doubles gives its path), else a line."""
    d = event.data or {}
    path = d.get("path")
    if isinstance(path, list) and len(path) >= 2:
        return [tuple(p[:2]) for p in path]
    return [tuple(start), tuple(end)]
