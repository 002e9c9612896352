"""Panels (as Arcade's ``Section``): a part of the screen that owns its rect, its state, its input
and its drawing. The ``Router`` gives an event to the panel it belongs to (modals first, then
the panel under the pointer, then those that want keys) and stops when one takes it."""
from __future__ import annotations

import pygame

from .intents import Intent

POINTER_EVENTS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL)
KEY_EVENTS = (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT)

TAKEN = object()   # ``handle`` returns this when it used the event but has nothing to ask


class Panel:
    """A part of the screen. Subclasses override what they need.

    - ``layout(rect)``: the panel's place (called on every resize);
    - ``handle(ev) -> Intent | tuple[Intent, ...] | TAKEN | None``: an event for this panel; None
      lets it go on to the next panel, ``TAKEN`` or intents (applied in order) stop it there;
    - ``sees(ev, pointer)``: whether the router asks it at all (see there);
    - ``on_events(events)``: the game's new events (dice, cards, log lines) as they arrive;
    - ``update(dt)`` and ``draw(surface)``.

    ``modal``: while shown it takes every pointer and key event (a dialog, a sheet, a pass
    screen). ``wants_keys``: key events come to it even when the pointer is elsewhere.
    ``visible``: a hidden panel neither draws nor takes events.
    """

    modal = False
    wants_keys = False

    def __init__(self, rect=None):
        self.rect = pygame.Rect(rect) if rect is not None else pygame.Rect(0, 0, 0, 0)
        self.visible = True

    def layout(self, rect) -> None:
        self.rect = pygame.Rect(rect)

    def contains(self, pos) -> bool:
        return self.visible and self.rect.collidepoint(pos)

    def sees(self, ev, pointer) -> bool:
        """Whether ``ev`` is asked of this panel (not modal): a pointer event under it, a key when
        it wants keys, any other event (a widget's, a timer's). A panel that follows the pointer
        outside its rect (a hover to clear, a drag begun inside) or takes keys only at times
        overrides this."""
        if ev.type in POINTER_EVENTS:
            return self.contains(pointer)
        if ev.type in KEY_EVENTS:
            return self.wants_keys
        return True

    def handle(self, ev):
        return None

    def on_events(self, events) -> None:
        pass

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface) -> None:
        pass


class Router:
    """The screen's panels in drawing order (the last on top). ``route(ev)`` returns what the
    panel that took the event returned (an intent, or ``TAKEN``), or None if no panel took it."""

    def __init__(self, panels=()):
        self.panels: list[Panel] = list(panels)
        self.pointer = (0, 0)

    def add(self, panel: Panel) -> Panel:
        self.panels.append(panel)
        return panel

    def remove(self, panel: Panel) -> None:
        if panel in self.panels:
            self.panels.remove(panel)

    def order(self, ev) -> list[Panel]:
        """The panels that may see ``ev``, in the order they are asked."""
        shown = [p for p in reversed(self.panels) if p.visible]
        modal = [p for p in shown if p.modal]
        if modal:
            return modal[:1]                     # the topmost modal takes everything
        if ev.type in POINTER_EVENTS and hasattr(ev, "pos"):
            self.pointer = ev.pos
        return [p for p in shown if p.sees(ev, self.pointer)]

    def route(self, ev):
        for p in self.order(ev):
            got = p.handle(ev)
            if got is not None:
                return got
        return None

    def on_events(self, events) -> None:
        for p in self.panels:
            p.on_events(events)

    def update(self, dt: float) -> None:
        for p in self.panels:
            if p.visible:
                p.update(dt)

    def draw(self, surface) -> None:
        for p in self.panels:
            if p.visible:
                p.draw(surface)


def is_intent(x) -> bool:
    return isinstance(x, Intent)
