"""Playing cards drawn as cards: rank and suit in the corners and large in the middle, red
hearts and diamonds, jokers with a star, a favoured suit marked with a gold corner, and the
back of a card for what a player may not see."""
from __future__ import annotations

import functools

import pygame

from .text import font

SUIT_GLYPH = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SUIT_WORD = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
RED = (196, 40, 44)
BLACK = (24, 22, 26)
GOLD = (236, 186, 60)


def split(code: str) -> tuple[str, str | None]:
    """'10H' -> ('10', 'H'); 'JK1' -> ('JK', None)."""
    if code.startswith("JK"):
        return "JK", None
    return code[:-1], code[-1]


def card_words(code: str) -> str:
    """'10 of Hearts', 'Queen of Spades', 'Joker'."""
    rank, suit = split(code)
    if suit is None:
        return "Joker"
    names = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
    return f"{names.get(rank, rank)} of {SUIT_WORD.get(suit, suit)}"


@functools.lru_cache(maxsize=256)
def card_image(code: str, size: tuple = (58, 84), favoured: bool = False, dim: bool = False) -> pygame.Surface:
    w, h = size
    img = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(img, (250, 247, 238), (0, 0, w, h), border_radius=6)
    pygame.draw.rect(img, (90, 80, 64), (0, 0, w, h), 1, border_radius=6)
    rank, suit = split(code)
    if suit is None:                                   # a joker
        t = font(max(10, h // 6), True).render("JOKER", True, (120, 60, 150))
        img.blit(t, t.get_rect(center=(w / 2, h * 0.28)))
        star = font(max(12, h // 2)).render("\u2605", True, (150, 80, 190))
        img.blit(star, star.get_rect(center=(w / 2, h * 0.62)))
    else:
        colour = RED if suit in "HD" else BLACK
        f = font(max(10, h // 6), True)
        corner = f.render(rank, True, colour)
        pip = font(max(10, h // 6)).render(SUIT_GLYPH[suit], True, colour)
        img.blit(corner, (4, 2))
        img.blit(pip, (4, 2 + corner.get_height() - 3))
        big = font(max(14, int(h * 0.42))).render(SUIT_GLYPH[suit], True, colour)
        img.blit(big, big.get_rect(center=(w / 2 + 4, h * 0.58)))
    if favoured:
        pygame.draw.polygon(img, GOLD, [(w - 16, 0), (w - 1, 0), (w - 1, 15)])
    if dim:
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        shade.fill((20, 16, 12, 110))
        img.blit(shade, (0, 0))
    return img


@functools.lru_cache(maxsize=16)
def card_back(size: tuple = (58, 84), player: int | None = None) -> pygame.Surface:
    w, h = size
    img = pygame.Surface((w, h), pygame.SRCALPHA)
    sides: dict[int | None, tuple[int, int, int]] = {1: (46, 70, 130), 2: (130, 44, 40)}
    base = sides.get(player, (80, 64, 48))
    pygame.draw.rect(img, base, (0, 0, w, h), border_radius=6)
    pygame.draw.rect(img, (230, 220, 200), (3, 3, w - 6, h - 6), 1, border_radius=4)
    for k in range(-h, w, 8):                          # a lattice on the back
        pygame.draw.line(img, (255, 255, 255, 40), (k, 0), (k + h, h))
        pygame.draw.line(img, (255, 255, 255, 40), (k + h, 0), (k, h))
    pygame.draw.rect(img, (20, 16, 12), (0, 0, w, h), 1, border_radius=6)
    return img
