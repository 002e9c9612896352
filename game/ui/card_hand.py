"""Last Hope Frontier's cards on the table: the viewer's hand fanned at the bottom, the cards
each side spent this turn laid out at the top, the cards committed to a test face down, the
reveal of both together, and the end-of-turn poker hands.

Only the viewer's own view is read (``view["cards"]``): the other hand is a count, drawn as
backs. A card is chosen by clicking it when the pending decision offers it: a card that can
only be played alone is committed by one click. A card that may also go in a leader's pair is
lifted by the first click (the hand says so above it): a second click on it commits it alone, a
click on another card commits the two as the pair (the engine's options say which are legal; the
scene shows the engine's refusal otherwise); of a pair, the card lifted first is the one that
counts (kept), the second is discarded.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.kit import TAKEN, PickCards, Submit
from game.names import named
from game.render.cards import card_back, card_image, card_words
from game.render.text import font, plate

CARD = (58, 84)
SMALL = (30, 44)
BANNER_SECONDS = 4.0


def _clear_of(avoid: pygame.Rect | None, x: float, step: float, n: int, base_y: float, tr: pygame.Rect):
    """(left edge, step, base y) of a hand of ``n`` cards laid from ``x`` at ``base_y``, kept
    clear of ``avoid``: moved right of it, fanned closer (down to 24 px a card) to stay inside
    the table area; where even that does not fit (a narrow window), left where it was and raised
    above it. Unchanged when they do not overlap (lifted cards reach 34 px higher)."""
    width = step * (n - 1) + CARD[0]
    if avoid is None or not avoid.colliderect(pygame.Rect(x, base_y - 34, width, CARD[1] + 34)):
        return x, step, base_y
    right = avoid.right + 8
    room = tr.right - 8 - right
    fanned = step if room >= width or n == 1 else (room - CARD[0]) / (n - 1)
    if fanned >= 24 and fanned * (n - 1) + CARD[0] <= room:
        return right, fanned, base_y
    return x, step, min(base_y, avoid.top - CARD[1] - 4)


@dataclass
class Banner:
    title: str
    cards: dict          # player -> list of codes (face up)
    lines: list
    t0: float


class CardHand:
    def __init__(self):
        self.view: dict = {}
        self.viewer: int | None = None
        self.singles: dict[str, int] = {}              # code -> option index (commit or lay down)
        self.pairs: dict[tuple, int] = {}              # (kept, discarded) -> option index
        self.lifted: str | None = None
        self.hover: str | None = None
        self.rects: list[tuple[str, pygame.Rect]] = []
        self.banner: Banner | None = None
        self.refused: tuple | None = None              # the two cards of a pair just refused
        self.picked: list[str] = []                     # a shortfall's cards picked so far
        self.need = 0                                   # how many the shortfall takes (0: none)
        self.area = pygame.Rect(0, 0, 0, 0)
        self.names: dict[int, str] = {}                 # players' names for "player N" (a network game)
        self.options: list = []                         # the decision's options while offered
        self.shown = False                              # the presenter shows a hand (its ruleset has cards)

    # --- state from the scene -----------------------------------------------------------
    def set_view(self, view: dict, viewer: int | None, decision, offered: bool, shown: bool | None = None) -> None:
        """The view to draw and, when ``offered`` (the viewer decides now), the card options of
        ``decision`` (``Commit(cards)`` and ``LayDown(card)``, read by their fields). ``shown``:
        the ruleset's presenter shows a hand (None: when the view has cards)."""
        self.view, self.viewer = view, viewer
        self.shown = bool(view.get("cards")) if shown is None else shown
        self.options = list(decision.options) if offered and decision is not None else []
        singles, pairs = {}, {}
        if offered and decision is not None:
            for i, o in enumerate(decision.options):
                cards = getattr(o, "cards", None)
                card = getattr(o, "card", None)
                if isinstance(cards, tuple) and len(cards) == 1:
                    singles[cards[0]] = i
                elif isinstance(cards, tuple) and len(cards) == 2:
                    pairs[cards] = i
                elif isinstance(card, str):
                    singles[card] = i
        if singles != self.singles or pairs != self.pairs:
            self.lifted = None
            self.picked = [c for c in self.picked if c in singles]
        self.singles, self.pairs = singles, pairs
        # a shortfall of several cards is one pick of that many, not one decision each
        mine = (view.get("cards") or {}).get(str(viewer)) or {}
        spending = offered and decision is not None and decision.kind in ("forfeit", "lay down")
        self.need = int(mine.get("to_spend") or 0) if spending else 0

    @property
    def active(self) -> bool:
        return self.shown

    def hand(self) -> list[str]:
        c = (self.view.get("cards") or {}).get(str(self.viewer)) or {}
        return list(c.get("hand") or [])

    def favoured(self, player) -> str | None:
        return ((self.view.get("posses") or {}).get(str(player)) or {}).get("favoured")

    def pickable(self, code: str) -> bool:
        return code in self.singles or any(code in k for k in self.pairs)

    def pairs_with(self, code: str) -> bool:
        """Whether ``code`` may be the first card of a pair offered now."""
        return any(k[0] == code for k in self.pairs)

    def hint(self) -> str | None:
        """What a click on a card does now, in words above the hand (None: nothing to choose)."""
        if self.need > 1 or not (self.singles or self.pairs):
            return None
        if self.lifted is not None:
            alone = "click it again to play it alone, or " if self.lifted in self.singles else ""
            return f"{card_words(self.lifted)} lifted: {alone}click a second card to play the pair (the first counts)"
        if self.pairs:
            return "click a card to lift it, then click it again to play it alone, or another card for a pair"
        return "click a card to play it"

    # --- events -------------------------------------------------------------------------
    def show_banner(self, title: str, cards: dict, lines: list, now: float) -> None:
        self.banner = Banner(named(title, self.names), cards, [named(t, self.names) for t in lines], now)

    def on_events(self, events, now: float) -> None:
        """Reveals and end-of-turn hands become banners (from the events the viewer may see)."""
        for i, e in enumerate(events):
            if e.kind == "reveal" and isinstance(e.data.get("cards"), dict):
                after = [x.text for x in events[i + 1:i + 3] if x.kind in ("duel", "casualty", "leader")]
                self.show_banner("Both cards turn over", e.data["cards"], after, now)
            elif e.kind == "priority" and e.data.get("hands"):
                self.show_banner(e.text.split(":")[0], {}, [f"Player {k + 1}: {h}" for k, h in enumerate(e.data["hands"])]
                                 + [f"Player {e.data.get('priority')} has priority"], now)

    def handle(self, ev):
        """A click on a card: ``Submit`` of the option it answers (a single card, or the pair it
        makes with the card lifted first); ``TAKEN`` when the click was the hand's own (a card
        lifted, a shortfall's card picked); ``PickCards(cards=pair)`` when two cards make no pair
        the rules allow (the scene asks the engine why); ``PickCards(cards, spend=True)`` when a
        shortfall's cards are all picked; None when it was not on a card (the table's click)."""
        if ev.type == pygame.MOUSEMOTION:
            self.hover = self._card_at(ev.pos)
            return None
        if ev.type != pygame.MOUSEBUTTONDOWN or ev.button != 1:
            return None
        if self.banner is not None and self._banner_rect().collidepoint(ev.pos):
            # a click puts the banner away and still reaches the table under it: the player
            # clicked where the move preview showed, and a swallowed move reads as a refusal
            # (found playing hot-seat in the window: moves made just after a reveal did nothing)
            self.banner = None
        code = self._card_at(ev.pos)
        if code is None:
            return None
        if not self.pickable(code):
            # a card, but none is chosen now: the click is the table's (the hand sits low then)
            return None if not (self.singles or self.pairs) else TAKEN
        if self.need > 1:                           # pick the cards to spend, then they all go
            if code in self.picked:
                self.picked.remove(code)
            else:
                self.picked.append(code)
            if len(self.picked) >= self.need:
                picked, self.picked = tuple(self.picked), []
                return PickCards(cards=picked, spend=True)     # the scene spends them, one by one
            return TAKEN
        if self.lifted is None or self.lifted == code:
            if code in self.singles and (self.lifted == code or not self.pairs_with(code)):
                self.lifted = None                  # alone: no pair could start with it
                return Submit(self.options[self.singles[code]])
            self.lifted = code
            return TAKEN
        pair = self.pairs.get((self.lifted, code))        # the card lifted first is the one kept
        self.refused = (self.lifted, code)
        self.lifted = None
        if pair is not None:
            return Submit(self.options[pair])
        return PickCards(cards=self.refused)        # not a pair the rules allow: the scene says why

    def _card_at(self, pos):
        for code, r in reversed(self.rects):        # the top card wins where they overlap
            if r.collidepoint(pos):
                return code
        return None

    # --- drawing ------------------------------------------------------------------------
    def draw(self, screen, table_rect: pygame.Rect, now: float, avoid: pygame.Rect | None = None) -> None:
        """``avoid``: a rect in screen pixels the hand keeps clear of (the table's scale bar)."""
        if not self.active:
            return
        self.area = table_rect
        self._draw_spent(screen, table_rect)
        self._draw_hand(screen, table_rect, avoid)
        if self.banner is not None:
            if now - self.banner.t0 > BANNER_SECONDS:
                self.banner = None
            else:
                self._draw_banner(screen)

    def _draw_hand(self, screen, tr, avoid: pygame.Rect | None = None) -> None:
        hand = self.hand()
        self.rects = []
        cards = self.view.get("cards") or {}
        mine = cards.get(str(self.viewer)) or {}
        committed = mine.get("committed")
        committed = committed if isinstance(committed, list) else []
        n = len(hand) + len(committed)
        if n == 0:
            return
        step = min(CARD[0] + 4, max(24, (tr.w * 0.55) // max(1, n)))
        width = step * (n - 1) + CARD[0]
        x = tr.centerx - width / 2
        # choosing a card: the hand stands up; otherwise only the cards' tops show, so the
        # table's bottom edge stays there to click
        choosing = bool(self.singles or self.pairs)
        base_y = tr.bottom - CARD[1] + (26 if choosing else CARD[1] - 30)
        x, step, base_y = _clear_of(avoid, x, step, n, base_y, tr)
        fav = self.favoured(self.viewer)
        for k, code in enumerate(hand):
            lift = 0
            if code == self.lifted or code in self.picked:
                lift = 34
            elif code == self.hover and choosing:
                lift = 20
            elif self.singles or self.pairs:
                lift = 8 if self.pickable(code) else 0
            dim = bool(self.singles or self.pairs) and not self.pickable(code)
            img = card_image(code, CARD, favoured=bool(fav and code.endswith(fav)), dim=dim)
            r = pygame.Rect(round(x + k * step), round(base_y - lift), *CARD)
            screen.blit(img, r)
            if code == self.lifted or code in self.picked:
                pygame.draw.rect(screen, (120, 240, 150), r.inflate(4, 4), 2, border_radius=7)
            self.rects.append((code, r))
        for j, code in enumerate(committed):       # committed to the test: face down to the rest
            r = pygame.Rect(round(x + (len(hand) + j) * step + 10), round(base_y - 10), *CARD)
            screen.blit(card_image(code, CARD, dim=True), r)
            tag = plate("committed", 12)
            screen.blit(tag, tag.get_rect(midbottom=(r.centerx, r.top)))
        words = f"pick the {self.need} cards to spend ({len(self.picked)} picked)" if self.need > 1 else self.hint()
        if words:
            tip = plate(words, 14)
            screen.blit(tip, tip.get_rect(midbottom=(tr.centerx, tr.bottom - CARD[1] - 40)))
        if self.hover and self.hover in hand:
            tip = plate(card_words(self.hover) + ("  (favoured)" if fav and self.hover.endswith(fav) else ""), 14)
            screen.blit(tip, tip.get_rect(midbottom=(tr.centerx, tr.bottom - CARD[1] - 14)))

    def _draw_spent(self, screen, tr) -> None:
        cards = self.view.get("cards") or {}
        y = tr.y + 6
        for p in ("1", "2"):
            c = cards.get(p) or {}
            played = c.get("played") or []
            committed = c.get("committed")
            hidden = committed if isinstance(committed, int) else 0
            if not played and not hidden:
                continue
            who = "you" if str(self.viewer) == p else named(f"player {p}", self.names)
            lab = plate(f"spent by {who}", 12)
            x = tr.x + 8
            screen.blit(lab, (x, y + 12))
            x += lab.get_width() + 6
            for code in played[-9:]:
                screen.blit(card_image(code, SMALL), (x, y))
                x += SMALL[0] - 8
            for _ in range(hidden):                # the other side's card, face down in the test
                screen.blit(card_back(SMALL, int(p)), (x + 10, y))
                x += SMALL[0] - 8
            y += SMALL[1] + 4

    def _banner_rect(self) -> pygame.Rect:
        r = pygame.Rect(0, 0, 420, 190)
        r.center = (self.area.centerx, self.area.centery - 40)
        return r

    def _draw_banner(self, screen) -> None:
        b = self.banner
        assert b is not None            # drawn only with a banner up (draw)
        r = self._banner_rect()
        box = pygame.Surface(r.size, pygame.SRCALPHA)
        pygame.draw.rect(box, (18, 14, 10, 232), box.get_rect(), border_radius=10)
        pygame.draw.rect(box, (220, 180, 110), box.get_rect(), 1, border_radius=10)
        t = font(18, True).render(b.title, True, (250, 220, 130))
        box.blit(t, t.get_rect(midtop=(r.w / 2, 8)))
        y = 36
        if b.cards:
            xs = {"1": r.w * 0.28, "2": r.w * 0.72}
            for p, codes in b.cards.items():
                cx = xs.get(str(p), r.w / 2)
                lab = font(13).render("you" if str(p) == str(self.viewer) else named(f"player {p}", self.names), True,
                                      (230, 220, 200))
                box.blit(lab, lab.get_rect(midtop=(cx, y)))
                for k, code in enumerate(codes):
                    box.blit(card_image(code, CARD), (cx - CARD[0] / 2 + k * 22 - (len(codes) - 1) * 11, y + 16))
            y += CARD[1] + 22
        from game.render.text import wrap
        f = font(13)
        for line in b.lines:
            for w in wrap(line, f, r.w - 20):
                box.blit(f.render(w, True, (236, 228, 210)), (10, y))
                y += f.get_linesize()
        screen.blit(box, r)
