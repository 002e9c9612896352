"""The force builder's panels (``game.kit.Panel``, each a ``RowsPanel`` of ``game/forces/rows.py``):
each owns its rect, its rows, its scrolling, its input and its drawing, and says what it wants
done as a ``Command`` intent the builder scene applies to the draft, in one place:

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

import pygame

from game.forces.rows import DIM, GOLD, GREEN, RED, TEXT, Row, RowsPanel
from game.forces.words import field_words
from game.kit import TAKEN, Command


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
                rows.append(Row(p.reason, sub=field_words(p.field, whole=""), colour=RED, name="problem"))
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


__all__ = ["CatalogPanel", "ForcePanel", "LoadPanel", "LoadoutPanel", "StatusPanel", "builder_layout", "model_prices"]
