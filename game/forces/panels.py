"""The force builder's panels (``game.kit.Panel``): each owns its rect, its rows, its scrolling,
its input and its drawing, and says what it wants done as a ``Command`` intent the builder scene
applies to the draft, in one place:

- ``CatalogPanel``: the model templates a force may hold, grouped; a click adds one (``add``);
- ``ForcePanel``: the force's models with their price, copies (``count``: -1 / +1) and the one
  selected (``select``);
- ``LoadoutPanel``: the selected model's weapons and gear as check boxes (``gear``), and whether
  it leads (``leader``) where the ruleset lets the player choose;
- ``StatusPanel``: the total against the limit (green within it, red over it or with a problem),
  the problems with their field and reason, the force's rules, the last message;
- ``LoadPanel``: a modal list of the player's saved forces (``load``; Esc or Cancel closes it).

They read the catalog, the draft and the price (``show``); never a file, never the scene.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from game.kit import TAKEN, Command, Panel
from game.render.text import font, wrap

PAD = 8
GAP = 4
BG = (24, 20, 16)
ROW_BG = (44, 37, 30)
ROW_SEL = (92, 74, 44)
ROW_HOVER = (200, 160, 100)
BORDER = (120, 100, 70)
TEXT = (240, 232, 216)
DIM = (178, 166, 146)
GOLD = (250, 210, 90)
GREEN = (120, 210, 120)
RED = (235, 95, 80)
BUTTON = (70, 58, 44)


@dataclass
class Row:
    """One row of a list: a line of text (wrapped), a smaller line under it, a figure on the
    right, small buttons (label, intent), a check box (None: none), and what a click on the row
    does. A header row is a title between rows."""
    text: str
    sub: str = ""
    right: str = ""
    intent: object = None
    buttons: list = field(default_factory=list)
    check: bool | None = None
    header: bool = False
    selected: bool = False
    colour: tuple | None = None
    big: bool = False
    name: str = ""               # a handle for tests and tours ("add:<template>", "gear:<key>")


class RowsPanel(Panel):
    """A titled, scrolled list of ``Row``s."""

    title = ""

    def __init__(self, rect=None):
        super().__init__(rect)
        self.rows: list[Row] = []
        self.scroll = 0
        self.hover: int | None = None
        self._laid: list[tuple[pygame.Rect, list[pygame.Rect], pygame.Surface]] = []
        self._key = None

    # --- content and layout ---------------------------------------------------------------
    def set_rows(self, rows: list[Row]) -> None:
        self.rows = rows
        self._key = None
        self._layout()

    def layout(self, rect) -> None:
        super().layout(rect)
        self._key = None
        self._layout()

    @property
    def list_top(self) -> int:
        return self.rect.y + (PAD + font(16, True).get_linesize() + 4 if self.title else PAD)

    @property
    def list_h(self) -> int:
        return max(0, self.rect.bottom - PAD - self.list_top)

    def _render(self, row: Row, width: int) -> tuple[pygame.Surface, list[pygame.Rect]]:
        """The row's picture and its buttons' rects (in the picture)."""
        if row.header:
            f = font(14, True)
            lines = wrap(row.text, f, width - 4)
            img = pygame.Surface((width, f.get_linesize() * len(lines) + 6), pygame.SRCALPHA)
            for k, line in enumerate(lines):
                img.blit(f.render(line, True, row.colour or GOLD), (2, 4 + k * f.get_linesize()))
            return img, []
        f = font(19 if row.big else 15, row.big)
        fs = font(12)
        bw = [max(26, fs.size(lab)[0] + 14) for lab, _ in row.buttons]
        right_w = (f.size(row.right)[0] + 10) if row.right else 0
        check_w = 20 if row.check is not None else 0
        text_w = max(40, width - 12 - check_w - right_w - sum(b + 4 for b in bw))
        lines = wrap(row.text, f, text_w)
        # the line under keeps clear of the buttons (they reach below the first line)
        subs = wrap(row.sub, fs, width - 12 - check_w - sum(b + 4 for b in bw)) if row.sub else []
        h = 6 + f.get_linesize() * len(lines) + fs.get_linesize() * len(subs) + 4
        h = max(h, 28)
        img = pygame.Surface((width, h), pygame.SRCALPHA)
        img.fill((*ROW_SEL, 255) if row.selected else (*ROW_BG, 255))
        x = 6
        if row.check is not None:
            box = pygame.Rect(x, 7, 13, 13)
            pygame.draw.rect(img, TEXT, box, 1)
            if row.check:
                pygame.draw.lines(img, GREEN, False, [(box.x + 2, box.y + 7), (box.x + 5, box.bottom - 3),
                                                      (box.right - 2, box.y + 2)], 2)
            x += check_w
        colour = row.colour or TEXT
        for k, line in enumerate(lines):
            img.blit(f.render(line, True, colour), (x, 4 + k * f.get_linesize()))
        y = 4 + f.get_linesize() * len(lines)
        for k, line in enumerate(subs):
            img.blit(fs.render(line, True, DIM), (x, y + k * fs.get_linesize()))
        bx = width - 6
        rects = []
        for lab, w in reversed(list(zip([b[0] for b in row.buttons], bw))):
            r = pygame.Rect(bx - w, 4, w, 20)
            pygame.draw.rect(img, BUTTON, r, border_radius=4)
            pygame.draw.rect(img, BORDER, r, 1, border_radius=4)
            t = fs.render(lab, True, TEXT)
            img.blit(t, t.get_rect(center=r.center))
            rects.append(r)
            bx -= w + 4
        rects.reverse()
        if row.right:
            t = f.render(row.right, True, colour)
            img.blit(t, (bx - t.get_width() - 4, 4))
        return img, rects

    def _layout(self) -> None:
        width = max(60, self.rect.w - 2 * PAD - 8)
        key = (tuple((r.text, r.sub, r.right, tuple(b[0] for b in r.buttons), r.check, r.header, r.selected,
                      r.colour, r.big) for r in self.rows), width)
        if key != self._key:
            self._key = key
            self._images = [self._render(r, width) for r in self.rows]
        self.scroll = max(0, min(self.scroll, max(0, self.content_h - self.list_h)))
        x, y = self.rect.x + PAD, self.list_top - self.scroll
        self._laid = []
        for img, brects in self._images:
            r = pygame.Rect(x, y, img.get_width(), img.get_height())
            self._laid.append((r, [b.move(r.topleft) for b in brects], img))
            y += r.h + GAP

    @property
    def content_h(self) -> int:
        return sum(img.get_height() + GAP for img, _ in getattr(self, "_images", []))

    # --- where things are (tests, tours) --------------------------------------------------
    def row_rect(self, name: str) -> pygame.Rect | None:
        """The rect of the row named ``name``, scrolled into view first."""
        for i, row in enumerate(self.rows):
            if row.name == name:
                self._scroll_into_view(i)
                return self._laid[i][0].copy()
        return None

    def button_rect(self, name: str, label: str) -> pygame.Rect | None:
        for i, row in enumerate(self.rows):
            if row.name == name:
                self._scroll_into_view(i)
                for (lab, _), r in zip(row.buttons, self._laid[i][1]):
                    if lab == label:
                        return r.copy()
        return None

    def _scroll_into_view(self, i: int) -> None:
        r = self._laid[i][0]
        if r.top < self.list_top:
            self.scroll -= self.list_top - r.top
        elif r.bottom > self.list_top + self.list_h:
            self.scroll += r.bottom - (self.list_top + self.list_h)
        self._layout()

    # --- input ----------------------------------------------------------------------------
    def _at(self, pos):
        if not self.rect.collidepoint(pos) or not (self.list_top <= pos[1] <= self.list_top + self.list_h):
            return None, None
        for i, (r, brects, _) in enumerate(self._laid):
            if r.collidepoint(pos):
                for (lab, intent), b in zip(self.rows[i].buttons, brects):
                    if b.collidepoint(pos):
                        return i, intent
                return i, self.rows[i].intent
        return None, None

    def handle(self, ev):
        if ev.type == pygame.MOUSEWHEEL:
            self.scroll -= ev.y * 40
            self._layout()
            return TAKEN
        if ev.type == pygame.MOUSEMOTION:
            self.hover = self._at(ev.pos)[0]
            return None
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            i, intent = self._at(ev.pos)
            if intent is not None:
                return intent
            return TAKEN
        return None

    # --- drawing --------------------------------------------------------------------------
    def draw(self, surface) -> None:
        pygame.draw.rect(surface, BG, self.rect)
        pygame.draw.rect(surface, BORDER, self.rect, 1)
        if self.title:
            surface.blit(font(16, True).render(self.title, True, GOLD), (self.rect.x + PAD, self.rect.y + PAD - 2))
        clip = surface.get_clip()
        area = pygame.Rect(self.rect.x + 1, self.list_top, self.rect.w - 2, self.list_h)
        surface.set_clip(area)
        for i, (r, _, img) in enumerate(self._laid):
            if r.bottom < area.top or r.top > area.bottom:
                continue
            surface.blit(img, r)
            row = self.rows[i]
            if i == self.hover and not row.header and (row.intent is not None or row.buttons):
                pygame.draw.rect(surface, ROW_HOVER, r, 1, border_radius=3)
        surface.set_clip(clip)
        if self.content_h > self.list_h > 0:         # how much is below, and a bar
            bar_h = max(20, int(self.list_h * self.list_h / self.content_h))
            top = self.list_top + int((self.list_h - bar_h) * self.scroll / max(1, self.content_h - self.list_h))
            pygame.draw.rect(surface, (40, 34, 28), (self.rect.right - 8, self.list_top, 5, self.list_h), border_radius=2)
            pygame.draw.rect(surface, (160, 130, 90), (self.rect.right - 8, top, 5, bar_h), border_radius=2)


# --- the builder's panels -----------------------------------------------------------------

def gear_names(catalog, keys) -> str:
    return ", ".join(g.name for k in keys if (g := catalog.gear_choice(k)) is not None)


class CatalogPanel(RowsPanel):
    """The templates, grouped (only the force's group where a force is one group's)."""

    def show(self, catalog, draft) -> None:
        rows = []
        groups = [g for g in catalog.groups if not catalog.one_group or g[0] == draft.group]
        shown = sum(1 for t in catalog.templates if t.group in {g for g, _ in groups})
        self.title = f"Add a model ({shown} to choose from)"
        for gid, gname in groups:
            ts = [t for t in catalog.templates if t.group == gid]
            if catalog.one_group:
                ts = sorted(ts, key=lambda t: [r for r, _, _ in catalog.shape].index(t.role)
                            if t.role in [r for r, _, _ in catalog.shape] else 99)
            if not ts:
                continue
            rows.append(Row(f"From {gname}", header=True))
            for t in ts:
                note = "; one per force" if t.most == 1 else ""
                rows.append(Row(t.name, sub=f"{t.summary}{note}. Comes with: {gear_names(catalog, t.loadout) or 'nothing'}",
                                right=catalog.money(t.price), intent=Command("add", t.id),
                                buttons=[("+ Add", Command("add", t.id))], name=f"add:{t.id}"))
        self.set_rows(rows)


class ForcePanel(RowsPanel):
    """The force's models: price, copies, the selected one, the leader starred."""

    def show(self, catalog, draft, price, selected) -> None:
        n = sum(m.count for m in draft.models)
        self.title = f"The {catalog.noun}: {n} model{'s' * (n != 1)}"
        each = model_prices(draft, price)
        lead = draft.leader_index()
        rows = []
        for i, m in enumerate(draft.models):
            star = "\u2605 " if (catalog.choose_leader and i == lead) or (not catalog.choose_leader and m.role == "leader") else ""
            copies = f" \u00d7{m.count}" if m.count > 1 else ""
            cost = each[i]
            rows.append(Row(f"{star}{m.name}{copies}", sub=f"{m.role}: {gear_names(catalog, m.gear) or 'no gear'}",
                            right=catalog.money(cost), intent=Command("select", i), selected=i == selected,
                            buttons=[("\u2212", Command("count", (i, -1))), ("+", Command("count", (i, 1)))],
                            name=f"model:{i}"))
        if not rows:
            rows.append(Row("No model yet: add one from the catalog on the left.", colour=DIM))
        self.set_rows(rows)


def model_prices(draft, price) -> list[int | None]:
    """Each draft entry's price, read from the price check's entries in the order the roster
    was built (an entry of ``count`` copies, or ``count`` entries of one)."""
    out: list[int | None] = []
    it = iter(price.models if price is not None else ())
    ok = price is not None and price.total is not None
    for m in draft.models:
        got, total = 0, 0
        while ok and got < m.count:
            mp = next(it, None)
            if mp is None:
                ok = False
                break
            got += mp.count
            total += mp.total
        out.append(total if ok else None)
    return out


class LoadoutPanel(RowsPanel):
    """The selected model's gear, slot by slot, as check boxes; the leader's box."""

    def show(self, catalog, draft, selected) -> None:
        rows = []
        if selected is None or not (0 <= selected < len(draft.models)):
            self.title = "Weapons and gear"
            rows.append(Row("Select a model of the force to choose its weapons and gear.", colour=DIM))
            self.set_rows(rows)
            return
        m = draft.models[selected]
        self.title = f"{m.name}: weapons and gear"
        if catalog.choose_leader:
            leads = draft.leader_index() == selected
            rows.append(Row(f"Leads the {catalog.noun}", check=leads, name="leader",
                            sub="" if m.can_lead else f"a {m.role} may not lead (the leader is a hero)",
                            intent=Command("leader", selected) if m.can_lead else None,
                            colour=None if m.can_lead else DIM))
        for slot in catalog.slots:
            keys = [g for g in catalog.gear if g.slot == slot.id and g.key in m.allowed]
            if not keys:
                continue
            rows.append(Row(slot.name + (f" (at most {slot.most})" if slot.most else ""), header=True))
            for g in keys:
                rows.append(Row(g.name, sub=g.summary, check=g.key in m.gear,
                                right=catalog.money(g.price) if g.price is not None else "",
                                intent=Command("gear", g.key), name=f"gear:{g.key}"))
        self.set_rows(rows)


class StatusPanel(RowsPanel):
    """The total against the limit, the problems, the rules, the last message."""

    title = "Price"

    def show(self, catalog, price, message=("", None), empty: bool = False) -> None:
        rows = []
        total, limit = price.total, price.limit
        over = total is not None and total > limit
        colour = GREEN if price.ok else RED
        if empty:
            head = f"Nothing yet: {catalog.money(limit)} to spend"
            colour = DIM
        elif total is None:
            head = f"? of {catalog.money(limit)}: the {catalog.noun} cannot be priced yet"
        else:
            left = limit - total
            head = (f"{catalog.money(total)} of {catalog.money(limit)}: "
                    + (f"{catalog.money(-left)} over" if over else f"{catalog.money(left)} left"))
        rows.append(Row(head, big=True, colour=colour, name="total"))
        text, col = message
        if text:
            rows.append(Row(text, colour=col or TEXT, name="message"))
        if empty:
            rows.append(Row("Add models from the catalog on the left.", header=True, colour=DIM))
        elif price.problems:
            rows.append(Row(f"Not valid: {len(price.problems)} problem{'s' * (len(price.problems) != 1)}",
                            header=True, colour=RED))
            for p in price.problems:
                rows.append(Row(p.reason, sub=p.field or "", colour=RED, name="problem"))
        else:
            rows.append(Row(f"Valid: this {catalog.noun} may be saved and played", header=True, colour=GREEN))
        rows.append(Row("Rules", header=True, colour=DIM))
        rows += [Row(r, colour=DIM) for r in catalog.rules]
        self.set_rows(rows)


class LoadPanel(RowsPanel):
    """A modal list of the saved forces: a click loads one; Esc or Cancel closes."""

    modal = True
    title = "Load a force"

    def __init__(self, rect=None):
        super().__init__(rect)
        self.visible = False
        self.screen_rect = pygame.Rect(0, 0, 0, 0)

    def open(self, forces, catalog) -> None:
        rows = [Row("Cancel", intent=Command("close load"), name="cancel", colour=DIM)]
        if not forces:
            rows.append(Row("No saved force for this ruleset yet.", colour=DIM))
        for f in forces:
            if f.readable:
                ok = f.price is not None and f.price.ok
                rows.append(Row(f.name, sub=f"{f.path.name}" + ("" if ok else ": " + "; ".join(
                    p.reason for p in f.price.problems)), right=catalog.money(f.price.total if f.price else None),
                    colour=None if ok else RED, intent=Command("load", f.key), name=f"load:{f.key}"))
            else:
                rows.append(Row(f"{f.path.name}: does not read", sub=f.problem, colour=RED, name=f"bad:{f.key}"))
        self.visible = True
        self.set_rows(rows)

    def close(self) -> None:
        self.visible = False

    def handle(self, ev):
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            return Command("close load")
        got = super().handle(ev) if ev.type in (pygame.MOUSEWHEEL, pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN) else None
        return got if got is not None else TAKEN

    def draw(self, surface) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        super().draw(surface)
        pygame.draw.rect(surface, GOLD, self.rect, 2)


def builder_layout(size) -> dict[str, pygame.Rect]:
    """Where the builder's parts go in a window of ``size``: the title and the name/start row on
    top, the button row at the bottom, three columns between (the catalog; the force over the
    price; the loadout)."""
    w, h = size
    m = 12
    top = 88
    bottom = h - 56
    cw = (w - 4 * m) // 3
    col_h = bottom - top - m
    force_h = int(col_h * 0.5)
    return {
        "catalog": pygame.Rect(m, top, cw, col_h),
        "force": pygame.Rect(2 * m + cw, top, cw, force_h),
        "status": pygame.Rect(2 * m + cw, top + force_h + m // 2, cw, col_h - force_h - m // 2),
        "loadout": pygame.Rect(3 * m + 2 * cw, top, w - 4 * m - 2 * cw, col_h),
        # under the name row and over the buttons (pygame_gui draws its widgets over the panels)
        "load": pygame.Rect(w // 2 - min(300, w // 2 - 40), top + 8, 2 * min(300, w // 2 - 40), bottom - top - 24),
        "buttons": pygame.Rect(m, bottom + 6, w - 2 * m, 42),
    }


__all__ = ["CatalogPanel", "ForcePanel", "LoadPanel", "LoadoutPanel", "Row", "RowsPanel", "StatusPanel",
           "builder_layout", "model_prices"]
