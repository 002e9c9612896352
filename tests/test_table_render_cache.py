"""The table renderer's image cache: a pan frame is a blit of the table rendered once per scale,
a wheel zoom shows that image scaled until the scale settles, and both give exactly the
pixels of a fresh render."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

pygame = pytest.importorskip("pygame")
np = pytest.importorskip("numpy")

from engine.data.maps import load_map  # noqa: E402
from game.render.table_view import TableRenderer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SIZE = (1280, 720)


@pytest.fixture(scope="module", autouse=True)
def _fonts():
    pygame.font.init()
    yield


@pytest.fixture(scope="module")
def town():
    return load_map(ROOT / "maps" / "town.json")


def pixels(surf, rect=None):
    a = pygame.surfarray.array3d(surf)
    if rect is not None:
        a = a[rect.left:rect.right, rect.top:rect.bottom]
    return a


def fresh(m, cam, max_px=None, size=SIZE):
    r = TableRenderer(m)
    if max_px is not None:
        r.CACHE_MAX_PX = max_px
    s = pygame.Surface(size)
    r.draw(s, cam)
    return s


def direct(m, cam, size=SIZE):
    s = pygame.Surface(size)
    TableRenderer(m).render_direct(s, cam)
    return s


@pytest.mark.parametrize("mapname", ["town", "outpost", "prehistoric"])
def test_pan_frames_blit_the_cached_table_and_match_a_fresh_render(mapname):
    m = load_map(ROOT / "maps" / f"{mapname}.json")
    r = TableRenderer(m)
    cam = r.fit_camera(SIZE, margin_px=44)
    s = pygame.Surface(SIZE)
    r.draw(s, cam)
    assert r.rebuilds == 1
    for dx, dy in ((7, 3), (-30, 12), (5, -41)):
        cam.pan(dx, dy)
        r.draw(s, cam)
        assert r.rebuilds == 1                       # a blit, not a render
        table = r._table_rect(cam).clip(s.get_rect())
        assert np.array_equal(pixels(s), pixels(fresh(m, cam)))
        assert np.array_equal(pixels(s, table), pixels(direct(m, cam), table))


def test_pan_zoomed_in_with_a_region_cache(town):
    """Past CACHE_MAX_PX only a region around the view is cached: panning inside it blits,
    leaving it renders again; every frame equals a fresh render."""
    r = TableRenderer(town)
    r.CACHE_MAX_PX = 400_000
    cam = r.fit_camera(SIZE, margin_px=44)
    cam.zoom_at(3.0, 500, 300)
    s = pygame.Surface(SIZE)
    r.draw(s, cam)
    assert not r._main.whole and r.rebuilds == 1
    for dx, dy in ((200, 120), (250, 150), (-640, -360), (-700, 0)):
        cam.pan(dx, dy)
        r.draw(s, cam)
        assert np.array_equal(pixels(s), pixels(fresh(town, cam, max_px=400_000)))
        table = r._table_rect(cam).clip(s.get_rect())
        assert np.array_equal(pixels(s, table), pixels(direct(town, cam), table))
    assert 1 < r.rebuilds < 5


def test_wheel_zoom_scales_the_cache_then_settles_to_a_fresh_render(town):
    r = TableRenderer(town)
    cam = r.fit_camera(SIZE, margin_px=44)
    s = pygame.Surface(SIZE)
    t = 100.0
    r.draw(s, cam, now=t)
    assert r.rebuilds == 1 and not r.settling
    for _ in range(4):                               # four wheel notches, one a frame
        t += 1 / 60
        cam.zoom_at(1.15, 400, 300)
        r.draw(s, cam, now=t)
        assert r.rebuilds == 1 and r.settling        # the cached image, scaled
    ref = pixels(fresh(town, cam))
    assert not np.array_equal(pixels(s), ref)        # an approximation...
    assert np.abs(pixels(s).astype(int) - ref).mean() < 20   # ...of the same picture
    t += r.SETTLE_S / 2
    r.draw(s, cam, now=t)
    assert r.settling and r.rebuilds == 1            # not settled yet
    t += r.SETTLE_S
    r.draw(s, cam, now=t)
    assert not r.settling and r.rebuilds == 2
    assert np.array_equal(pixels(s), ref)
    # then panning at the new scale blits again
    cam.pan(-13, 9)
    t += 1 / 60
    r.draw(s, cam, now=t)
    assert r.rebuilds == 2 and np.array_equal(pixels(s), pixels(fresh(town, cam)))


def test_zooming_out_of_a_region_cache_and_settle_call(town):
    r = TableRenderer(town)
    r.CACHE_MAX_PX = 400_000
    cam = r.fit_camera(SIZE, margin_px=44)
    s = pygame.Surface(SIZE)
    t = 0.0
    r.draw(s, cam, now=t)
    cam.zoom_at(3.0, 640, 360)
    t += 1 / 60
    r.draw(s, cam, now=t)                            # the first frame of a zoom: scaled
    assert r.settling
    t += 1.0
    r.draw(s, cam, now=t)                            # a second later: crisp
    assert not r._main.whole and not r.settling
    for _ in range(6):
        t += 1 / 60
        cam.zoom_at(1 / 1.15, 900, 500)
        r.draw(s, cam, now=t)
        assert r.settling
    r.settle()                                       # the caller says the wheel stopped
    r.draw(s, cam, now=t)
    assert not r.settling
    assert np.array_equal(pixels(s), pixels(fresh(town, cam, max_px=400_000)))


def test_without_now_every_frame_is_exact(town):
    """Callers that do not pass the time (the PNG export, thumbnails) never get a scaled frame."""
    r = TableRenderer(town)
    cam = r.fit_camera(SIZE, margin_px=44)
    s = pygame.Surface(SIZE)
    r.draw(s, cam)
    for _ in range(3):
        cam.zoom_at(1.15, 300, 500)
        r.draw(s, cam)
        assert not r.settling
        assert r._main.surf.get_width() <= SIZE[0] and r._main.surf.get_height() <= SIZE[1]  # the view only
    assert np.array_equal(pixels(s), pixels(direct(town, cam)))
    n = r.rebuilds
    cam.pan(25, 10)                                  # the first pan renders the rest (then blits)
    r.draw(s, cam)
    cam.pan(25, 10)
    r.draw(s, cam)
    assert r.rebuilds == n + 1 and r._main.surf.get_width() > SIZE[0]
    assert np.array_equal(pixels(s), pixels(direct(town, cam)))


def test_drawing_into_a_subsurface_like_the_game(town):
    screen = pygame.Surface((1280, 720))
    sub = screen.subsurface(pygame.Rect(0, 46, 900, 674))
    r = TableRenderer(town)
    cam = r.fit_camera(sub.get_size(), margin_px=30)
    r.draw(sub, cam)
    cam.pan(17, -9)
    r.draw(sub, cam)
    assert np.array_equal(pixels(sub), pixels(fresh(town, cam, size=(900, 674))))


def test_pan_frames_and_the_still_frames_after_them_are_exact():
    """A moving camera composes straight onto the surface and a still one blits the kept frame:
    both give the pixels of a fresh render, with labels and the scale bar."""
    r = TableRenderer(load_map(ROOT / "maps" / "town.json"))
    cam = r.fit_camera(SIZE, margin_px=44)
    cam.zoom_at(1.7, 640, 360)
    s, ref = pygame.Surface(SIZE), pygame.Surface(SIZE)
    for i in range(6):
        cam.pan(9, -4)
        for _ in range(1 + i % 3):          # the pan frame, then none to two still frames
            s.fill((1, 2, 3))
            r.draw(s, cam)
            r.render_direct(ref, cam)
            assert pygame.image.tobytes(s, "RGB") == pygame.image.tobytes(ref, "RGB")


@pytest.mark.parametrize("zoom", [1.0, 3.0, 8.0])
def test_grid_overlays_zoomed_in_keep_every_cell_in_place(zoom):
    """Zoomed in, a shading overlay is scaled a block round the view at a time: every cell in
    view still shows (or not) where it lies, and a small pan reuses the block."""
    from game.render import grid_shading as gs
    from game.render import overlays as ov
    from game.render.camera import Camera

    rng = np.random.default_rng(3)
    mask = rng.random((176, 240)) < 0.4
    img = gs.mask_surface(mask, (200, 40, 40, 120))
    cell = 6.35
    cam = Camera(1.0, pygame.Rect(0, 0, 900, 674)).fit(240 * cell, 176 * cell, 20)
    cam.zoom_at(zoom, 450, 337)
    cam.pan(-137, 61)
    for step in range(3):
        if step:
            cam.pan(5, 3)
        a = pygame.Surface((900, 674))
        a.fill((0, 0, 0))
        gs.draw_grid_overlay(a, cam, img, (0.0, 0.0), cell, 176)
        if step == 1:
            kept = gs._SCALED.get((id(img), "block"))
        px = pygame.surfarray.array3d(a)
        checked = 0
        for j in range(176):
            for i in range(240):
                sx, sy = ov.mm_to_screen(cam, (i + 0.5) * cell, (j + 0.5) * cell)
                if 1 <= sx < 899 and 1 <= sy < 673:
                    assert (tuple(px[int(sx), int(sy)]) != (0, 0, 0)) == mask[j, i], (zoom, step, i, j)
                    checked += 1
        assert checked > 500
    if zoom > 1.0:
        assert kept is not None and gs._SCALED.get((id(img), "block")) is kept    # the pan reused it
