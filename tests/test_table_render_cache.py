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
