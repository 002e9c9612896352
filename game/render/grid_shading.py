"""Per-cell shading (reach, sight) laid over the table: a mask as a surface, scaled and kept per zoom."""
from __future__ import annotations

import math
from typing import NamedTuple

import pygame

from .overlays import mm_to_screen


def mask_surface(mask, colour, edge=None, edge_cells: int = 1) -> pygame.Surface:
    """A numpy bool mask (rows = y upward, cols = x) as a translucent surface, one pixel a cell;
    with ``edge``, the cells within ``edge_cells`` of the mask's boundary get that colour (a crisp
    outline; a fine mask takes several cells, so the outline keeps its width on the table)."""
    import numpy as np

    h, w = mask.shape
    rgba = np.zeros((w, h, 4), dtype=np.uint8)
    m = mask.T[:, ::-1]            # to pygame's (x, y-down) order
    rgba[m] = colour
    if edge is not None:
        inner = m.copy()
        for _ in range(max(1, edge_cells)):
            step = inner.copy()
            step[1:, :] &= inner[:-1, :]
            step[:-1, :] &= inner[1:, :]
            step[:, 1:] &= inner[:, :-1]
            step[:, :-1] &= inner[:, 1:]
            inner = step
        rgba[m & ~inner] = edge
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pixels = pygame.surfarray.pixels3d(surf)
    pixels[...] = rgba[..., :3]
    del pixels
    alpha = pygame.surfarray.pixels_alpha(surf)
    alpha[...] = rgba[..., 3]
    del alpha
    return surf


_SCALED: dict = {}


def draw_grid_overlay(screen, cam, surf, origin_mm, cell_mm, rows: int) -> None:
    """Blit a per-cell surface (from ``mask_surface``) scaled onto the table; the scaled image
    is kept while the zoom stays (a pan only moves it). Zoomed in, where the whole table's image
    would be bigger than the view, only a block of cells round the view is scaled, so a frame
    costs at most a few views' worth of pixels, not the table's (at 3x, 30 ms a wheel notch)."""
    w, h = surf.get_size()
    x0, y0 = origin_mm
    left, top = mm_to_screen(cam, x0, y0 + rows * cell_mm)
    s = cell_mm * cam.px_per_mm                      # pixels a cell
    size = (max(1, round(w * s)), max(1, round(h * s)))
    view = screen.get_clip()
    if size[0] * size[1] <= 1.5 * view.w * view.h:
        key = (id(surf), size)
        img = _SCALED.get(key)
        if img is None or img[0] is not surf:
            if len(_SCALED) > 16:
                _SCALED.clear()
            img = _SCALED[key] = (surf, pygame.transform.scale(surf, size))
        screen.blit(img[1], (round(left), round(top)))
        return
    # the cells in view; the block kept must hold them at this size
    c0, c1 = max(0, math.floor((view.left - left) / s)), min(w, math.ceil((view.right - left) / s))
    r0, r1 = max(0, math.floor((view.top - top) / s)), min(h, math.ceil((view.bottom - top) / s))
    if c0 >= c1 or r0 >= r1:
        return
    block_key = (id(surf), "block")
    got = _SCALED.get(block_key)
    if (got is None or got.surf is not surf or got.size != size
            or not (got.c0 <= c0 and got.r0 <= r0 and c1 <= got.c1 and r1 <= got.r1)):
        # a new block: while the zoom changes, just the view (the next notch needs another);
        # at a steady zoom, a quarter view more on each side, so pans reuse it
        zooming = got is not None and got.surf is surf and got.size != size
        mx, my = (0, 0) if zooming else (math.ceil(view.w / 4 / s), math.ceil(view.h / 4 / s))
        b0, b1 = max(0, c0 - mx), min(w, c1 + mx)
        q0, q1 = max(0, r0 - my), min(h, r1 + my)
        px = (round(b0 * s), round(q0 * s))          # the block's corner in the whole image
        bsize = (max(1, round(b1 * s) - px[0]), max(1, round(q1 * s) - px[1]))
        if len(_SCALED) > 16:
            _SCALED.clear()
        got = _SCALED[block_key] = _Block(surf, size, b0, q0, b1, q1, px,
                                    pygame.transform.scale(surf.subsurface((b0, q0, b1 - b0, q1 - q0)), bsize))
    screen.blit(got.image, (round(left) + got.corner[0], round(top) + got.corner[1]))


class _Block(NamedTuple):
    """A scaled block of a grid overlay: its source, the whole image's size at this zoom, the
    cells it holds (columns c0..c1, rows r0..r1), its corner in the whole image and the image."""
    surf: pygame.Surface
    size: tuple
    c0: int
    r0: int
    c1: int
    r1: int
    corner: tuple
    image: pygame.Surface


_EXACT: dict = {}
_LAST: dict = {}        # the view each overlay was last drawn for: a view seen twice has stood still


def draw_grid_at_clicks(screen, cam, surf, origin_mm, cell_mm, rows: int) -> None:
    """Blit a per-cell surface (from ``mask_surface``) so that each pixel shows the cell holding
    the point a click on that pixel gives (``screen_to_mm`` of the pixel, to 0.01 mm as a move's
    ``at_point`` keeps it): a shaded pixel is one whose click the engine was asked about. (A
    scaled image is off by up to a pixel where the cell and pixel grids do not line up, which at
    the table's usual zoom is a millimetre and a half: issue 58.) Only the overlay's part of the
    view is worked out, once the view has stood still for a frame; while it pans or zooms the
    scaled image stands in (``draw_grid_overlay``: at four times the usual zoom the exact image
    takes about 20 ms, a scaled one a blit)."""
    import numpy as np

    from .overlays import screen_to_mm

    w, h = surf.get_size()
    x0, y0 = origin_mm
    view = screen.get_clip()
    left, top = mm_to_screen(cam, x0, y0 + rows * cell_mm)
    right, bottom = mm_to_screen(cam, x0 + w * cell_mm, y0)
    c0, c1 = max(view.left, math.floor(left) - 1), min(view.right, math.ceil(right) + 1)
    r0, r1 = max(view.top, math.floor(top) - 1), min(view.bottom, math.ceil(bottom) + 1)
    if c0 >= c1 or r0 >= r1:
        return
    key = (id(surf), c0, c1, r0, r1, screen_to_mm(cam, c0, r0), screen_to_mm(cam, c1, r1))
    got = _EXACT.get(id(surf))
    if got is None or got[0] is not surf or got[1] != key:
        moving = _LAST.get(id(surf)) != (surf, key)
        if len(_LAST) > 16:
            _LAST.clear()
        _LAST[id(surf)] = (surf, key)
        if moving:
            draw_grid_overlay(screen, cam, surf, origin_mm, cell_mm, rows)
            return
        xs = np.array([round(screen_to_mm(cam, p, r0)[0], 2) for p in range(c0, c1)])
        ys = np.array([round(screen_to_mm(cam, c0, q)[1], 2) for q in range(r0, r1)])
        i = np.floor((xs - x0) / cell_mm).astype(np.int64)
        j = np.floor((ys - y0) / cell_mm).astype(np.int64)
        col_ok, row_ok = (i >= 0) & (i < w), (j >= 0) & (j < h)
        rgb = pygame.surfarray.pixels3d(surf)
        alpha = pygame.surfarray.pixels_alpha(surf)
        ii, rr = np.clip(i, 0, w - 1), h - 1 - np.clip(j, 0, h - 1)      # the surface's rows run down
        out_rgb = rgb[ii[:, None], rr[None, :]]
        out_a = np.where(col_ok[:, None] & row_ok[None, :], alpha[ii[:, None], rr[None, :]], 0)
        del rgb, alpha
        img = pygame.Surface((c1 - c0, r1 - r0), pygame.SRCALPHA)
        px = pygame.surfarray.pixels3d(img)
        px[...] = out_rgb
        del px
        pa = pygame.surfarray.pixels_alpha(img)
        pa[...] = out_a
        del pa
        if len(_EXACT) > 16:
            _EXACT.clear()
        got = _EXACT[id(surf)] = (surf, key, img)
    screen.blit(got[2], (c0, r0))
