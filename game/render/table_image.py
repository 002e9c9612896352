"""The table image ``TableRenderer`` (``table_view``) keeps: the table's layers (cloth, grid,
zones, shadows, pieces, markers) rendered once per scale into an off-screen image, the whole
table or a region around the view; where that image goes on a frame (exact only at the same
scale and a whole-pixel offset); the scaled stand-in while a zoom is still changing; each
piece's sprite per zoom; and the per-frame layers drawn over it (labels, zone labels, scale bar).

``TableRenderer`` (``table_view``) keeps the images (``_main``, ``_overview``) and composes the
frame; here: the image, where it lands on a frame, and its scaled stand-in.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from .camera import Camera, _rnd


@dataclass
class _TableImage:
    """The table layers rendered at one scale: ``surf`` is what ``cam`` sees (its viewport is the
    view's, moved by whole pixels);
    ``whole``: it holds the whole table; ``extent``: the table's extent in its pixels."""
    surf: pygame.Surface
    cam: Camera
    whole: bool
    extent: pygame.Rect


def _image_origin(img: _TableImage, cam: Camera) -> tuple[float, float, float]:
    """Where pixel (0, 0) of ``img`` lands on a surface seen through ``cam``, and the factor
    from its pixels to the surface's."""
    s, ic = cam.scale, img.cam
    f = s / ic.scale
    return (cam.viewport.x + (ic.ox - cam.ox) * s - ic.viewport.x * f,
            cam.viewport.y + (cam.oy - ic.oy) * s - ic.viewport.y * f, f)


def _blit_scaled(frame: pygame.Surface, img: _TableImage, cam: Camera) -> None:
    """Blit ``img`` onto ``frame`` as ``cam`` would see it, scaling only its visible part
    (nearest neighbour: a stand-in for the frames of a zoom)."""
    ax, ay, f = _image_origin(img, cam)
    W, H = frame.get_size()
    iw, ih = img.surf.get_size()
    u0, u1 = max(0, math.floor(-ax / f)), min(iw, math.ceil((W - ax) / f))
    v0, v1 = max(0, math.floor(-ay / f)), min(ih, math.ceil((H - ay) / f))
    if u1 <= u0 or v1 <= v0:
        return
    x0, x1 = _rnd(ax + u0 * f), _rnd(ax + u1 * f)
    y0, y1 = _rnd(ay + v0 * f), _rnd(ay + v1 * f)
    if x1 <= x0 or y1 <= y0:
        return
    part = img.surf.subsurface(pygame.Rect(u0, v0, u1 - u0, v1 - v0))
    frame.blit(pygame.transform.scale(part, (x1 - x0, y1 - y0)), (x0, y0))
