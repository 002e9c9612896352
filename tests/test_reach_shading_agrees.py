"""What the game screen shades as a model's reach is what the engine accepts (issue 46, item 7;
issue 58, item 5), read back from what the screen draws through ``App.step``.

Each case is a real move decision of a seeded random game (the first ones, crews packed as they
deployed, and later ones), shown by the game screen with the mover selected, at the table's usual
zoom and at four times it, the view at rest. The scene's own ``_draw_reach`` draws the shading
onto a layer, and
at sampled pixels of the reach the point a click there gives (``game.play.pointer.mm``, kept to 0.01 mm
as the move's ``at_point`` keeps it) is asked of ``check``: a shaded pixel's point is accepted,
always; an unshaded pixel's point that is accepted lies within one cell of the raster of a refused
point (``MoveSpace.shading`` leaves out, never adds: ``engine/table/reach_shading.py``).

Before issue 58 the shading was the raster drawn scaled: a cell shaded when ``check`` accepted its
centre, so along the edge a shaded pixel could be refused, most of the strip between the Hut and
the Chief's Hut on the Ford of Bones among them; and Doubles' own straight test (a pymunk radius
query that misses a piece beside the centre line) accepted moves the shading left out."""
from __future__ import annotations

import random

import pygame
import pytest
from ai_fixtures import HOME, _game
from client_helpers import app  # noqa: F401
from test_reach_shading_property import _refused_near

from engine.ai import make_agent
from engine.rulesets.common import MoveSpace
from game.play.pointer import mm
from game.render import overlays as ov
from game.session import GameSession

SAMPLES = 250          # pixels per case and zoom


def _cases(ruleset: str, seed: int, take=(0, 1, 6, 14)):
    """(game, decision) at the move decisions numbered ``take`` of a random game."""
    g = _game(ruleset, seed)
    agents = {p: make_agent("random", p, seed * 10 + p) for p in (1, 2)}
    k = 0
    while (d := g.pending()) is not None and k <= max(take):
        if any(isinstance(s, MoveSpace) for s in d.spaces):
            if k in take:
                yield g, d
            k += 1
        d = g.pending()
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))


def _drawn(app, scene, actor):
    """The reach shading as the scene draws it with the view at rest (a frame drawn, then the
    same view again, as when the player clicks), on a layer of its own."""
    app.step(1 / 60)
    layer = pygame.Surface(scene.state.table_rect.size, pygame.SRCALPHA)
    scene.overlays._draw_reach(layer, scene.state.ctrl, actor)
    return layer


def _click_point(scene, space, px, py):
    return space.at_point(*mm(scene.state, (px + scene.state.table_rect.x, py + scene.state.table_rect.y)))[0]


def _reach_pixels(scene, space):
    """The pixels of the layer inside the allowance's bounding box."""
    b = space.base
    (x0, y0), (x1, y1) = (ov.mm_to_screen(scene.state.cam, b.x - space.allowance, b.y + space.allowance),
                          ov.mm_to_screen(scene.state.cam, b.x + space.allowance, b.y - space.allowance))
    w, h = scene.state.table_rect.size
    return range(max(0, int(x0)), min(w, int(x1) + 1)), range(max(0, int(y0)), min(h, int(y1) + 1))


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_a_shaded_pixel_is_a_click_the_engine_accepts(app, ruleset):
    from game.scenes.play import PlayScene
    rng = random.Random(58)
    shaded = left_out = 0
    for seed in (1, 2):
        for g, d in _cases(ruleset, seed):
            session = GameSession(g, {d.player: "human", 3 - d.player: "ai:random"}, autosave=False)
            scene = PlayScene(app, session, HOME[ruleset])
            app.switch(scene)
            app.step(1 / 60)
            space = next(s for s in d.spaces if isinstance(s, MoveSpace))
            scene.pointer.select(space.actor)
            assert scene.state.ctrl.selected == space.actor and scene.state.toggles["reach"]
            app.step(1 / 60)                                   # works out and draws the shading
            cell = max(2.5, min(6.35, space.allowance / 50))
            for zoom in (1.0, 4.0):
                if zoom != 1.0:
                    scene.state.cam.zoom_at(zoom, *ov.mm_to_screen(scene.state.cam, space.base.x, space.base.y))
                layer = _drawn(app, scene, space.actor)
                cols, rows = _reach_pixels(scene, space)
                for _ in range(SAMPLES):
                    px, py = rng.choice(cols), rng.choice(rows)
                    c = _click_point(scene, space, px, py)
                    why = space.check(c)
                    if layer.get_at((px, py)).a > 0:
                        shaded += 1
                        assert why is None, (ruleset, seed, zoom, space.base, c, why)
                    elif why is None:
                        left_out += 1
                        assert _refused_near(space, c.x, c.y, cell), (ruleset, seed, zoom, space.base, c)
    assert shaded >= 8 * SAMPLES // 4, shaded            # the cases have reach worth drawing
    assert left_out <= shaded // 20, (left_out, shaded)


def test_the_strip_between_the_hut_and_the_chiefs_hut_takes_every_click_it_shades(app):
    """Issue 58: on the Ford of Bones a Doubles fighter beside the Hut and the Chief's Hut (2.9 cm
    apart; its base is 2.5 cm across). At the usual zoom and at five times it, every shaded pixel
    of the strip between them is a click the engine accepts, and the strip is shaded."""
    import math

    from client_helpers import frame, game_screen, take_device
    from test_doubles_rules import stage

    from engine.core import Game, Setup
    from engine.data.maps import load_map
    from engine.paths import resolve_map

    g = Game(Setup("doubles", load_map(resolve_map("prehistoric")), (), {"deployment": "automatic"}, 1))
    keys = list(g.state.fighters)
    me = keys[0]
    stage(g, {me: (440.0, 690.0, 90.0), keys[-1]: (1100.0, 100.0, 90.0)}, me, [me, keys[-1]])
    game_screen(app, g, {1: "human", 2: "human"})
    take_device(app)
    scene = app.scene
    scene.pointer.select(me)
    frame(app)
    space = next(s for s in scene.state.ctrl.spaces_for(me) if hasattr(s, "reach"))
    (ax, ay), (bx, by) = (400.0, 760.0), (520.0, 700.0)       # the huts' centres, mm
    L = math.hypot(bx - ax, by - ay)

    def in_strip(x, y):
        s = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / L
        w = (-(x - ax) * (by - ay) + (y - ay) * (bx - ax)) / L
        return 52 <= s <= 68 and abs(w) <= 10

    for zoom in (1.0, 5.0):
        if zoom != 1.0:
            scene.state.cam.zoom_at(zoom, *ov.mm_to_screen(scene.state.cam, 462.0, 735.0))
            frame(app)
        layer = _drawn(app, scene, me)
        cols, rows = _reach_pixels(scene, space)
        shaded = refused = 0
        for py in rows:
            for px in cols:
                c = _click_point(scene, space, px, py)
                if in_strip(c.x, c.y) and layer.get_at((px, py)).a > 0:
                    shaded += 1
                    refused += space.check(c) is not None
        assert shaded > 0 and refused == 0, (zoom, shaded, refused)


def test_a_route_out_of_base_contact_is_shaded_only_where_check_finds_it():
    """The case behind item 7 in Counterblast: a Prone Raider in base contact with Grekka (0.001 mm
    apart, as the crews deploy). Going 2.6" to the south-east it must first step away from Grekka:
    the shortest route turns at the ring of another friend (Tibbs), 4.2" long, but ``find_path``
    starts with the bases its straight line meets (Grekka alone) and finds only a 7.2" detour, so
    ``check`` refuses the point with a 5" allowance. The raster marks such cells (``unsure``) and
    ``MoveSpace.reach`` asks ``check``: the cell is not shaded."""
    from engine.rulesets.counterblast.flow.movement import CBMoveSpace
    from engine.table import Base
    from engine.table.reach import reach
    g = _game("counterblast", 2)
    t = g.table
    raider = Base("1-raider-3", 605.3347769028871, 793.0450124893373, 15.0, 6.0, 0.0, 0.0)
    others = [Base("1-grekka", 628.65, 819.15, 20.0, 30.0, 0.0, 0.0), Base("1-tibbs", 590.55, 819.15, 15.0, 30.0, 0.0, 0.0),
              Base("1-raider-1", 552.45, 819.15, 15.0, 30.0, 0.0, 0.0), Base("1-raider-2", 666.75, 819.15, 15.0, 30.0, 0.0, 0.0)]
    sp = CBMoveSpace(t, raider, 127.0, others)
    goal = (656.59, 753.11)
    assert sp.check(sp.choice_type(raider.id, *goal)) is not None         # what the rules say
    raw = reach(t, raider, 127.0, others, 2.54, path_others=sp.path_others)
    assert raw.contains(*goal) and raw.unsure[raw.index(*goal)]            # the raster's shorter route
    assert not sp.reach(2.54).contains(*goal)                              # not shaded
