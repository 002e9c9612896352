"""Each ruleset's tracks drawn in the turn bar, from the view: Counterblast's Moxie and Dread as
pips and its leaders; Frontier's priority, hands and spent cards; Doubles' initiative track with
each fighter's action points, the fighter acting now lit."""
from __future__ import annotations

import pygame

from game.render.look import SIDE_COLOURS
from game.render.text import font

GOLD = (250, 210, 90)
DREAD = (220, 70, 60)
TEXT = (236, 228, 210)


def _get(d: dict, p):
    return d.get(p, d.get(str(p), 0)) if isinstance(d, dict) else 0


def _pips(img, x, y, n, colour, most=12, r=4) -> int:
    for k in range(min(n, most)):
        pygame.draw.circle(img, colour, (x + r + k * (2 * r + 2), y + r), r)
        pygame.draw.circle(img, (20, 16, 12), (x + r + k * (2 * r + 2), y + r), r, 1)
    x += min(n, most) * (2 * r + 2)
    if n > most:
        t = font(12).render(f"+{n - most}", True, colour)
        img.blit(t, (x + 2, y - 2))
        x += t.get_width() + 4
    return x


def _text(img, x, y, text, colour=TEXT, size=13, bold=False) -> int:
    t = font(size, bold).render(text, True, colour)
    img.blit(t, (x, y))
    return x + t.get_width()


def draw_tracks(img: pygame.Surface, rect: pygame.Rect, view: dict, names: dict) -> bool:
    """Draw the ruleset's tracks in ``rect`` of ``img``; False when the ruleset has none drawn."""
    rs = view.get("ruleset")
    x, y = rect.x, rect.y + 1
    if rs == "counterblast":
        for p in (1, 2):
            col = SIDE_COLOURS.get(p, TEXT)
            x = _text(img, x, y - 1, f"{names.get(p, p)}:", col, 13, True) + 6
            x = _text(img, x, y - 1, "Moxie", GOLD) + 4
            x = _pips(img, x, y + 2, _get(view.get("moxie", {}), p), GOLD) + 6
            x = _text(img, x, y - 1, "Dread", DREAD) + 4
            x = _pips(img, x, y + 2, _get(view.get("dread", {}), p), DREAD) + 6
            leader = _get(view.get("leader", {}), p)
            m = (view.get("models") or {}).get(leader) if leader else None
            if m:
                x = _text(img, x, y - 1, "\u2605 " + str(m.get("name", leader)), GOLD) + 18
            else:
                x += 18
        return True
    if rs == "frontier":
        pr = view.get("priority")
        for p in ("1", "2"):
            c = (view.get("cards") or {}).get(p) or {}
            col = SIDE_COLOURS.get(int(p), TEXT)
            x = _text(img, x, y - 1, ("\u2605 " if str(pr) == p else "") + f"{names.get(int(p), p)}:", col, 13, True) + 6
            n = int(c.get("hand_size") or 0)
            for k in range(n):                 # the hand as card backs
                pygame.draw.rect(img, (240, 236, 226), (x + k * 7, y, 10, 14), border_radius=2)
                pygame.draw.rect(img, col, (x + k * 7 + 1, y + 1, 8, 12), border_radius=2)
            x += n * 7 + 8
            x = _text(img, x, y - 1, f"{n} in hand, {c.get('spent', 0)} spent, deck {c.get('deck', 0)}") + 22
        return True
    if rs == "doubles":
        fighters = {f.get("key"): f for f in view.get("fighters") or []}
        acting = view.get("acting")
        x = _text(img, x, y - 1, "initiative", GOLD) + 6
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
    return False
