"""Text that fits where it is drawn (issue 58, items 4 and 6), at the smallest window the client
lays out for (1024x600) and a large one (1400x900), through ``App.step``: the AI's reasons stay
inside the visible table, the "thinking" label clear of the deployment's words, the options
list's "more below" hint off the options, the deployment prompt inside its box, the launcher's
preview banners and mission words whole, the Import button's tooltip gone while its dialog is open."""
from __future__ import annotations

import pygame
import pytest
from client_helpers import frame, game_screen, motion, take_device

from engine.core import Game, Setup
from engine.data.maps import load_named_map

SIZES = [(1024, 600), (1400, 900)]
HOME = {"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def app(request, tmp_path, monkeypatch):
    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    from game.app import App
    a = App(request.param)
    yield a
    if a.scene is not None:
        a.scene.close()
    pygame.quit()
    assert not a.crashes, f"the client crashed: {a.crashes[0]!r}"


def _game(ruleset, seed=3, **options):
    return Game(Setup(ruleset, load_named_map(HOME[ruleset]), (), options, seed))


def wheel(app, at, y):
    frame(app, [motion(at, rel=(0, 0)), pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False)])


# --- the options list: "more below" never over an option ---------------------------------------
def test_more_below_never_covers_an_option(app):
    """Issue 58: the hint was drawn over the list's last row in view (at 1400x900 over the last
    option itself, "jumps a d5 toward south-east")."""
    from counterblast_fixtures import staged, submit

    from engine.rulesets.counterblast import choices as C
    g = staged({"1-ranger-1": (18, 7), "1-captain": (16, 7), "2-drone-1": (30, 20)}, moxie=(5, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    scene = game_screen(app, g, {1: "human", 2: "ai:random"}, "outpost", n=2)
    o = scene.state.options
    assert o.content_h > o.list_h and o.more_rect is not None       # the list overflows: the hint shows

    def shown_parts():
        area = pygame.Rect(o.rect.x, o.list_top, o.rect.w, o.list_h)
        return [(r.index, r.rect.clip(area)) for r in o.rows if r.rect.colliderect(area)]

    for index, part in shown_parts():
        assert not part.colliderect(o.more_rect), (index, part, o.more_rect)
    last = o.rows[-1]
    for _ in range(40):                                              # the wheel down to the last option
        if o.list_top <= last.rect.top and last.rect.bottom <= o.list_top + o.list_h:
            break
        wheel(app, o.rect.center, -1)
    frame(app, [motion((5, 5), rel=(0, 0))])                         # the mouse off the list (no hover box)
    assert o.list_top <= last.rect.top and last.rect.bottom <= o.list_top + o.list_h
    assert o.more_rect is None or not last.rect.colliderect(o.more_rect)
    wheel(app, o.rect.center, 2)                                     # back up a little: the hint again
    frame(app, [motion((5, 5), rel=(0, 0))])
    for index, part in shown_parts():
        assert o.more_rect is None or not part.colliderect(o.more_rect), (index, part, o.more_rect)


# --- the AI's thinking label clear of the deployment's words --------------------------------------
class Thinking:
    """An AI answer on its way (what the scene reads of a worker while it waits)."""
    done, seq, budget, error, choice, reason = False, -1, 0.25, None, None, ""

    def __init__(self, player):
        self.player = player

    def elapsed(self):
        return 0.1

    def wait(self, timeout=None):
        return None


@pytest.mark.parametrize("ruleset", ["counterblast", "frontier", "doubles"])
def test_the_thinking_label_stays_clear_of_the_deployment_words(app, ruleset):
    """Issue 58: at 1024x600 "AI easy thinking" was drawn over the deployment tray's header."""
    g = _game(ruleset, deployment="alternate")
    scene = game_screen(app, g, {1: "ai:easy", 2: "ai:easy"}, HOME[ruleset])
    scene.state.ai_enabled = False
    scene.state.worker = Thinking(g.pending().player)
    frame(app, n=2)
    assert scene.state.deploy_tray.active and scene.state.thinking_rect is not None
    assert not scene.state.thinking_rect.colliderect(scene.state.deploy_tray.headline_rect), \
        (scene.state.thinking_rect, scene.state.deploy_tray.headline_rect)
    assert scene.state.table_rect.contains(scene.state.thinking_rect)
    scene.state.worker = None


# --- the deployment prompt inside its box ------------------------------------------------------
@pytest.mark.parametrize("ruleset", ["counterblast", "frontier", "doubles"])
def test_the_deployment_prompt_fits_its_box(app, ruleset):
    """Issue 58: Frontier's deployment prompt ("you (The Diamond Gang): place a model in your zone
    (6 left) - Gang Boss: click the table or drag from the tray; Ctrl+Z undoes") ran past its box
    (a scroll bar) at 1024x600. It fits, and it still names the model to place."""
    g = _game(ruleset, deployment="alternate")
    scene = game_screen(app, g, {1: "human", 2: "human"}, HOME[ruleset])
    take_device(app)
    frame(app)
    assert scene.state.decision.kind == "deploy" and scene.state.ctrl is not None
    sp = scene.deploying.place_space()
    text = scene.state.prompt.html_text
    assert sp.name in text, text
    assert scene.state.prompt.scroll_bar is None, text
    if app.size[1] >= 900:                                          # room for the whole hint
        assert "click the table or drag from the tray" in text and "Ctrl+Z" in text, text


# --- the launcher: the preview's zone banners and the mission's words whole -----------------------
def _launcher(app, ruleset, **settings):
    from game.scenes.launcher import LauncherScene
    from game.settings import Settings
    sc = LauncherScene(app, Settings(**{"ruleset": ruleset, "map": HOME[ruleset], **settings}))
    app.switch(sc)
    frame(app, n=2)
    return sc


@pytest.mark.parametrize("ruleset", ["counterblast", "frontier", "doubles"])
def test_the_launchers_preview_shows_its_zone_banners_whole(app, ruleset):
    """Issue 58: at 1024x600 the preview cut "SIDE 1 DEPLOYMENT" at its left edge (the banner sat
    at 12% of the table's width, centred, wider than that)."""
    from game.render.table_view import TableRenderer
    sc = _launcher(app, ruleset)
    m = sc.maps[sc.settings.map]
    r = TableRenderer(m)                              # the preview, drawn as the launcher draws it
    surf = pygame.Surface(sc.thumb_rect.size)
    cam = r.fit_camera(sc.thumb_rect.size, margin_px=16)
    r.draw(surf, cam)
    table = r._table_rect(cam)
    assert len(r.zone_label_rects) == len(m.deployment)
    for rect in r.zone_label_rects:
        assert table.contains(rect) and surf.get_rect().contains(rect), (rect, table)


@pytest.mark.parametrize("ruleset", ["counterblast", "doubles"])
def test_the_game_tables_zone_banners_lie_on_the_table(app, ruleset):
    scene = game_screen(app, _game(ruleset, deployment="alternate"), {1: "human", 2: "human"}, HOME[ruleset])
    take_device(app)
    frame(app)
    table = scene.state.renderer._table_rect(scene.state.cam)
    assert scene.state.renderer.zone_label_rects
    for rect in scene.state.renderer.zone_label_rects:
        assert table.contains(rect), (rect, table)


@pytest.mark.parametrize("ruleset", ["counterblast", "frontier", "doubles"])
def test_every_missions_words_show_whole_in_the_launcher(app, ruleset):
    """Issue 58: a mission's summary was cut after three lines ("Add the battle score (your…");
    it takes the lines it needs, and the form still fits the window."""
    from test_client_launcher_setup import pick

    from engine.core.rules import get_rules
    sc = _launcher(app, ruleset)
    for mid, info in get_rules(ruleset).missions().items():
        if sc.mission != mid:
            pick(app, sc.dd_mission, info.name)
        assert sc.mission == mid
        shown = " ".join(lb.text for lb in sc.summary_lines)
        assert shown == " ".join(info.summary.split()), (mid, shown)
        window = pygame.Rect((0, 0), app.size)
        for el in (sc.start, sc.reason, sc.seed, sc.dd_deploy, *sc.summary_lines):
            assert window.contains(el.rect), (mid, el, el.rect)
        below = sc.summary_lines[-1].rect.bottom
        assert below <= sc.dd_roster[1].rect.top, (mid, below, sc.dd_roster[1].rect)   # not under the next row


# --- the editor: a button's tooltip does not stay over the dialog it opened ----------------------
def _tooltips(ui):
    from pygame_gui.elements import UITooltip
    return [s for s in ui.get_sprite_group().sprites() if isinstance(s, UITooltip) and s.alive()]


def test_the_import_buttons_tooltip_goes_when_its_dialog_opens(app, monkeypatch):
    """Issue 58: the Import button's tooltip stayed drawn over the Import dialog (the mouse still
    on the button, pygame_gui kept it and made it again). It goes while the dialog is open and
    comes back once it is closed."""
    from client_helpers import editor, key, press, release
    scene = editor(app)
    button = scene.toolbar.buttons["import"]
    at = button.rect.center
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at)
    frame(app, [motion(at, rel=(0, 0))], n=90)                    # 1.5 s on the button: its tooltip
    assert _tooltips(scene.ui), "no tooltip to begin with"
    frame(app, [press(at), release(at)], n=120)                   # Import pressed; 2 s more, not moved
    assert scene.dialogs.dialog is not None and scene.dialogs.kind == "import"
    assert not _tooltips(scene.ui), [t.rect for t in _tooltips(scene.ui)]
    key(app, pygame.K_ESCAPE)                                     # the dialog closed: tooltips again
    assert scene.dialogs.dialog is None
    frame(app, [motion(at, rel=(0, 0))], n=90)
    assert _tooltips(scene.ui)


# --- item 4: the AI's reasons inside the visible table ------------------------------------------
LONG_REASON = ("the best spot of its zone: hidden from the enemy's, near the objectives, spread out; "
               "the look-ahead agreed")        # easy's deployment reason, as the search agent extends it


def _visible_table(scene) -> pygame.Rect:
    """The table's part no panel covers, in the table's own pixels: below the tray while it shows."""
    r = pygame.Rect((0, 0), scene.state.table_rect.size)
    if scene.state.deploy_tray.active:
        top = scene.state.deploy_tray.rect.bottom - scene.state.table_rect.y
        r = pygame.Rect(0, top, r.w, r.h - top)
    return r


def _played(ruleset, placements):
    """A game ``placements`` decisions in (the easy agents deploying: alternate placements), or
    with the forces deployed automatically (``None``)."""
    from engine.ai import make_agent
    g = _game(ruleset, seed=5, deployment="automatic" if placements is None else "alternate")
    agents = {p: make_agent("easy", p, 5 + p) for p in (1, 2)}
    for a in agents.values():
        if hasattr(a, "attach"):
            a.attach(g.table, g.rules)
    for _ in range(placements or 0):
        d = g.pending()
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    return g


@pytest.mark.parametrize("ruleset", ["counterblast", "doubles"])
@pytest.mark.parametrize("phase", ["deployment", "play"])
def test_the_ais_reason_stays_inside_the_visible_table(app, ruleset, phase):
    """Issue 58, item 4: the AI's reason labels ran off the table and were cut at either edge.
    Over the models nearest each edge of the table, from the moment the reason shows until it
    fades, the label lies inside the table's visible part (below the tray while deploying)."""
    from game.ui.effects import FLOAT_SECONDS
    g = _played(ruleset, 6 if phase == "deployment" else None)
    scene = game_screen(app, g, {1: "human", 2: "human"}, HOME[ruleset])
    take_device(app)
    scene.state.ai_enabled = False
    assert scene.state.deploy_tray.active == (phase == "deployment")
    on_table = [p for p in scene.state.pieces if not p["out"] and p.get("x") is not None]
    assert len(on_table) >= 4
    pos = {p["id"]: scene.pointer.screen_pos_of(p["id"]) for p in on_table}
    ends = {min(pos, key=lambda k: pos[k][0]), max(pos, key=lambda k: pos[k][0]),
            min(pos, key=lambda k: pos[k][1]), max(pos, key=lambda k: pos[k][1])}
    area = _visible_table(scene)
    for mid in sorted(ends):
        scene.state.effects.add_reason(mid, LONG_REASON, scene.state.t)
        for _ in range(4):                                   # fresh, rising, about to fade
            frame(app, n=0, dt=FLOAT_SECONDS / 4.5)
            (shown,) = [r for e, r in scene.state.effects.drawn if e.reason]
            assert area.contains(shown), (mid, pos[mid], shown, area)
        scene.state.effects.clear()


def test_a_fighters_prompt_fits_its_box_in_play(app):
    """Seen on the issue 58 tour: at 1024x600 Doubles' "Soot has 3 AP: choose an action - or
    click the table (Shift+click: throw at a point of empty ground up to 30 cm away)" ran past
    the box like Frontier's deployment prompt; where the Shift+click hint does not fit it is left out."""
    scene = game_screen(app, _game("doubles", seed=4, deployment="automatic"), {1: "human", 2: "human"},
                        HOME["doubles"])
    take_device(app)
    frame(app)
    assert scene.state.decision.kind != "deploy" and scene.state.ctrl is not None
    text = scene.state.prompt.html_text
    assert "choose an action" in text and scene.state.prompt.scroll_bar is None, text
    if app.size[1] >= 900:
        assert "Shift+click" in text, text


@pytest.mark.parametrize("mode", ["alternate", "hidden"])
def test_the_deployment_trays_words_fit_the_tray(app, mode):
    """Frontier's longest deployment line ("Deployment (unseen until both sides are done): you (The
    Diamond Gang) to place; AI normal (The Marshal's Posse)'s placements stay hidden") ran past the
    tray at 1024x600: it is drawn smaller, or cut with "…", inside it."""
    g = _game("frontier", deployment=mode)
    scene = game_screen(app, g, {1: "ai:normal", 2: "human"}, HOME["frontier"])
    take_device(app)
    scene.state.ai_enabled = False
    frame(app)
    tray = scene.state.deploy_tray
    assert tray.active and tray.rect.contains(tray.headline_rect), (tray.headline_rect, tray.rect)
