"""Frontier's hand of cards keeps clear of the table's scale bar (a new user's screenshot: the
hand, centred at the bottom, covered the scale bar's end and its length label). Screen pixels,
worked out by hand: a 880 x 680 table area at (0, 44), the bar as the renderer draws it at the
bottom left."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from engine.core import Game, Setup  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402
from game.ui.card_hand import CardHand  # noqa: E402


def _hand(cards=None):
    pygame.init()
    g = Game(Setup("frontier", load_map(resolve_map("town")), (), {}, 1))
    v = g.view(1)
    if cards is not None:
        v["cards"]["1"]["hand"] = cards
    h = CardHand()
    h.set_view(v, 1, None, False)
    return h


def test_the_hand_is_drawn_right_of_the_scale_bar_and_inside_the_table_area():
    screen = pygame.Surface((1280, 724))
    tr = pygame.Rect(0, 44, 880, 680)
    bar = pygame.Rect(4, 44 + 680 - 34, 352, 28)      # 260 px of bar + its label, at the bottom left
    h = _hand()
    h.draw(screen, tr, 0.0)                              # no bar to avoid: centred, as before
    centred = [r for _, r in h.rects]
    assert centred[0].left < bar.right                   # the overlap the screenshot showed
    h.draw(screen, tr, 0.0, avoid=bar)
    rects = [r for _, r in h.rects]
    assert len(rects) == 8
    assert all(not r.colliderect(bar) for r in rects)
    assert rects[0].left == bar.right + 8
    assert all(r.right <= tr.right - 8 for r in rects)
    # room enough: the step of the centred hand, 880 x 0.55 // 8 = 60 px
    assert rects[1].left - rects[0].left == centred[1].left - centred[0].left == 60


def test_a_long_hand_fans_closer_to_stay_clear_and_inside():
    screen = pygame.Surface((1000, 724))
    tr = pygame.Rect(0, 44, 800, 680)
    bar = pygame.Rect(4, 44 + 680 - 34, 352, 28)
    h = _hand(["AH", "10H", "8S", "2S", "4D", "JH", "QC", "6S", "3C", "9D"])
    h.draw(screen, tr, 0.0, avoid=bar)
    rects = [r for _, r in h.rects]
    # centred, 800 x 0.55 // 10 = 44 px a card: 454 px from x = 173, over the bar; right of it
    # (from 364) there are 428 px, so (428 - 58) / 9 = 41.1 px a card
    assert len(rects) == 10 and all(not r.colliderect(bar) for r in rects)
    assert rects[0].left == 364 and rects[-1].right <= tr.right - 8 + 1      # a fractional step rounds
    assert 41 <= rects[1].left - rects[0].left <= 42


def test_in_a_narrow_window_the_hand_stands_above_the_bar():
    screen = pygame.Surface((1000, 724))
    tr = pygame.Rect(0, 44, 600, 680)
    bar = pygame.Rect(4, 44 + 680 - 34, 352, 28)
    h = _hand(["AH", "10H", "8S", "2S", "4D", "JH", "QC", "6S", "3C", "9D"])
    h.draw(screen, tr, 0.0)
    centred = [r.copy() for _, r in h.rects]
    h.draw(screen, tr, 0.0, avoid=bar)
    rects = [r for _, r in h.rects]
    # right of the bar are 228 px: 10 cards need 24 x 9 + 58 = 274 at the closest fan
    assert all(not r.colliderect(bar) for r in rects)
    assert [r.left for r in rects] == [r.left for r in centred]
    assert all(r.bottom <= bar.top - 4 for r in rects)


def test_a_bar_above_the_cards_changes_nothing():
    screen = pygame.Surface((1280, 724))
    tr = pygame.Rect(0, 44, 880, 680)
    h = _hand()
    h.draw(screen, tr, 0.0)
    before = [r.copy() for _, r in h.rects]
    h.draw(screen, tr, 0.0, avoid=pygame.Rect(4, 100, 352, 28))
    assert [r for _, r in h.rects] == before
