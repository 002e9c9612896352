"""A window onto one map: zoom, pan, a tape measure and piece tooltips.

    run_table_view("maps/town.json")                                    # interactive
    run_table_view("maps/town.json", screenshot="shot.png", frames=5)   # render, save, exit

Mouse: wheel zooms about the cursor; middle or right drag pans; left drag measures (the
distance in the map's unit, one decimal). Hovering a piece shows its name, kind, height and
properties. Esc or closing the window quits.
"""
from __future__ import annotations

import math
import os
import time

WINDOW = (1280, 800)
FPS = 60


def _ensure_video_driver() -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def unit_suffix(unit: str) -> str:
    return '"' if unit == "in" else f" {unit}"


def format_length(value: float, unit: str) -> str:
    """5.2" or 12.0 cm: one decimal, in the map's unit."""
    return f"{value:.1f}{unit_suffix(unit)}"


def tooltip_lines(g, mapfile) -> list[str]:
    """What a hovered piece shows: name, kind, height (map unit), and its properties."""
    p = g.piece
    h_unit = g.height_mm / mapfile.mm_per_unit
    flags = []
    if p.prop("blocks_sight"):
        flags.append("blocks sight")
    if p.prop("obscuring"):
        flags.append("obscuring")
    flags.append(f"cover: {p.prop('cover')}")
    flags.append("impassable" if p.prop("impassable") else "passable")
    if p.prop("difficult"):
        flags.append("difficult")
    if p.prop("climbable"):
        flags.append("climbable")
    return [p.name or p.label(), f"{p.kind}, height {format_length(h_unit, mapfile.unit)}", ", ".join(flags)]


class TableView:
    """State and drawing of the table window (kept apart from the loop so tests can drive it)."""

    def __init__(self, mapfile, size=WINDOW):
        import pygame

        from game.render.table_view import TableRenderer
        self.pg = pygame
        self.map = mapfile
        self.size = size
        self.renderer = TableRenderer(mapfile)
        self.cam = self.renderer.fit_camera(size, margin_px=44)
        self.panning = False
        self.tape: tuple | None = None        # (world start, world end)
        self.measuring = False
        self.mouse = (-1, -1)
        self.hover = None

    # -- input ----------------------------------------------------------------------------
    def handle(self, ev) -> bool:
        """Apply one event; False means quit."""
        pg = self.pg
        if ev.type == pg.QUIT or (ev.type == pg.KEYDOWN and ev.key == pg.K_ESCAPE):
            return False
        if ev.type == pg.KEYDOWN and ev.key in (pg.K_HOME, pg.K_f):
            self.cam = self.renderer.fit_camera(self.size, margin_px=44)
        elif ev.type == pg.MOUSEWHEEL:
            mx, my = pg.mouse.get_pos() if self.mouse == (-1, -1) else self.mouse
            self.cam.zoom_at(1.15 ** ev.y, mx, my)
        elif ev.type == pg.MOUSEBUTTONDOWN:
            self.mouse = ev.pos
            if ev.button in (2, 3):
                self.panning = True
            elif ev.button == 1:
                w = self.cam.to_world(*ev.pos)
                self.tape = (w, w)
                self.measuring = True
        elif ev.type == pg.MOUSEBUTTONUP:
            if ev.button in (2, 3):
                self.panning = False
            elif ev.button == 1:
                self.measuring = False
                if self.tape and self.tape[0] == self.tape[1]:
                    self.tape = None          # a click without a drag clears the tape
        elif ev.type == pg.MOUSEMOTION:
            self.mouse = ev.pos
            if self.panning:
                self.cam.pan(*ev.rel)
            if self.measuring and self.tape:
                self.tape = (self.tape[0], self.cam.to_world(*ev.pos))
        return True

    def set_tape(self, a, b) -> None:
        self.tape = (tuple(a), tuple(b))

    def tape_length(self) -> float | None:
        if not self.tape:
            return None
        return math.dist(*self.tape)

    # -- drawing --------------------------------------------------------------------------
    def draw(self, screen) -> None:
        from game.render.text import plate, text_halo
        self.renderer.draw(screen, self.cam, now=time.monotonic())
        wx, wy = self.cam.to_world(*self.mouse)
        on_table = 0 <= wx <= self.map.width and 0 <= wy <= self.map.height
        self.hover = self.renderer.piece_at(wx, wy) if (on_table and not self.panning and not self.measuring) else None
        if self.hover is not None:
            self.renderer.outline(screen, self.cam, self.hover)
        if self.tape:
            self._draw_tape(screen)
        # header: map name and help
        head = text_halo(f"{self.map.name}", 22, bold=True)
        screen.blit(head, (14, 10))
        helpm = plate("wheel: zoom   right/middle drag: pan   left drag: measure   F: fit   Esc: quit", 15,
                      fg=(226, 220, 206), bg=(20, 16, 12, 170))
        screen.blit(helpm, (self.size[0] - helpm.get_width() - 12, 12))
        if on_table and self.mouse != (-1, -1):
            pos = plate(f"{wx:.1f}, {wy:.1f}{unit_suffix(self.map.unit)}", 15, bg=(20, 16, 12, 170))
            screen.blit(pos, (self.size[0] - pos.get_width() - 12, self.size[1] - pos.get_height() - 12))
        if self.hover is not None:
            self._draw_tooltip(screen, tooltip_lines(self.hover, self.map))

    def _draw_tape(self, screen) -> None:
        from game.render.overlays import draw_tape
        if self.tape is None:
            return
        k = self.map.mm_per_unit
        a, b = ((x * k, y * k) for x, y in self.tape)
        draw_tape(screen, self.cam, a, b, format_length(self.tape_length() or 0.0, self.map.unit), self.map.unit)

    def _draw_tooltip(self, screen, lines) -> None:
        from game.render.overlays import draw_tooltip
        draw_tooltip(screen, self.mouse, lines)


def run_table_view(map_path, screenshot=None, frames=None, *, tape=None, mouse=None):
    """Open a 1280x800 window on the map at ``map_path`` (or a ``MapFile``).

    With ``screenshot=path`` the view renders ``frames`` frames (default 3), saves the window
    to that PNG and returns its path; it works headless (SDL's dummy driver is used when no
    display is there). ``tape=((x0, y0), (x1, y1))`` in map units lays a tape measure and
    ``mouse=(px, py)`` places the pointer (for tooltips) - both mainly for screenshots.
    """
    _ensure_video_driver()
    import pygame

    from engine.data.maps import MapFile, load_map

    m = map_path if isinstance(map_path, MapFile) else load_map(map_path)
    pygame.display.init()
    pygame.font.init()
    from game.render.text import reset_fonts
    reset_fonts()          # fonts made before pygame last shut down are dead
    try:
        screen = pygame.display.set_mode(WINDOW)
        pygame.display.set_caption(f"Skirmish - {m.name}")
        view = TableView(m, WINDOW)
        if tape is not None:
            view.set_tape(*tape)
        if mouse is not None:
            view.mouse = tuple(mouse)
        clock = pygame.time.Clock()
        if screenshot is not None and frames is None:
            frames = 3
        n = 0
        running = True
        while running:
            for ev in pygame.event.get():
                if mouse is not None and ev.type == pygame.MOUSEMOTION:
                    continue        # the scripted pointer wins over the (dummy) real one
                if not view.handle(ev):
                    running = False
            view.draw(screen)
            pygame.display.flip()
            n += 1
            if frames is not None and n >= frames:
                break
            clock.tick(FPS)
        if screenshot is not None:
            from game.scenes.base import save_png

            return save_png(screen, screenshot)
        return None
    finally:
        pygame.display.quit()
