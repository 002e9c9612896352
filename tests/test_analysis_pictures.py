"""The analysis pictures show what a designer needs: a mirrored copy compared with its original
shows no change, a moved piece shows as moved, an objective's arcs grow with the share of its
ground that hides a side, zone labels sit over the colour layers, thin walls stay visible."""
from __future__ import annotations

import pytest
from test_workshop_analysis import DATA, _box, _map, _mirror_x

from engine.data.maps import MapFile, load_map
from engine.table import Table
from engine.workshop.analysis import analyse
from engine.workshop.compare import compare


def _moved(m: MapFile, pid: str, dx: float, dy: float) -> MapFile:
    d = m.model_dump(mode="json", exclude_none=True)
    for p in d["pieces"]:
        if p["id"] == pid:
            p["shape"]["points"] = [[x + dx, y + dy] for x, y in p["shape"]["points"]]
    d["id"] += "-moved"
    return MapFile.model_validate(d)


def test_a_real_layout_against_its_mirror_shows_nothing_changed(tmp_path):
    from game.render.analysis_compare_png import save_compare_png

    m = load_map(DATA / "take-and-hold-mirror-1.json")
    mm = _mirror_x(m)
    a, b = analyse(Table(m)), analyse(Table(mm))
    c = compare(a, b, m, mm)
    assert c["aligned_by"] == "mirror_x" and c["moved_pieces"] == []
    oc = c["openness_change"]
    assert (oc["opened_points"], oc["closed_points"], oc["terrain_added_cells"], oc["terrain_removed_cells"]) == (0, 0, 0, 0)
    assert c["closed_in_b"] == [] and c["opened_in_b"] == []
    save_compare_png(m, mm, a, b, c, tmp_path / "c.png")
    # nothing painted as added (black) or removed (green) over the table
    import pygame

    from game.render.analysis_frame import PANEL_W

    img = pygame.surfarray.array3d(pygame.image.load(str(tmp_path / "c.png")))
    img = img[: img.shape[0] - PANEL_W]              # the table, not the legend's swatches
    assert not ((img[..., 0] == 60) & (img[..., 1] == 230) & (img[..., 2] == 140)).any()


def test_a_moved_piece_is_reported_as_moved_not_removed_and_added(tmp_path):
    from game.render.analysis_compare_png import save_compare_png

    m = _map([_box("a", 3, 8, 7, 10), _box("b", 15, 14, 17, 16)], [{"id": "o", "at": [12, 12]}])
    b_map = _moved(m, "a", 6.0, 0.0)
    a, b = analyse(Table(m), step_mm=25.4), analyse(Table(b_map), step_mm=25.4)
    c = compare(a, b, m, b_map)
    assert c["aligned_by"] is None
    assert [(mv["id"], mv["from"], mv["to"]) for mv in c["moved_pieces"]] == [("a", [5.0, 9.0], [11.0, 9.0])]
    save_compare_png(m, b_map, a, b, c, tmp_path / "c.png")
    assert (tmp_path / "c.png").stat().st_size > 10_000


def test_the_objective_arcs_scale_with_the_hidden_share():
    from game.render import analysis_marks as AM
    from game.render.analysis_frame import _pygame

    pygame = _pygame()

    def painted(share):
        surf = pygame.Surface((200, 200))
        surf.fill((0, 0, 0))
        AM.share_arcs(surf, (100, 100), 80, {1: share, 2: 0.0}, {1: (70, 130, 255), 2: (240, 70, 55)})
        px = pygame.surfarray.array3d(surf)
        return int(((px[..., 0] == 70) & (px[..., 1] == 130) & (px[..., 2] == 255)).sum())

    one, half, all_ = painted(1 / 26), painted(13 / 26), painted(1.0)
    assert 0 < one < half < all_
    assert one < all_ / 10 and half == pytest.approx(all_ / 2, rel=0.2)
    assert painted(0.0) == 0


def test_thin_walls_stay_visible_and_zone_labels_sit_on_top(tmp_path, monkeypatch):
    import pygame

    from game.render import analysis_marks as AM
    from game.render import analysis_png as AP

    wall = {"id": "wall", "kind": "wall", "height": 5.0,
            "shape": {"type": "polygon", "points": [[10, 20], [50, 20], [50, 20.1], [10, 20.1]]}}
    m = MapFile(schema_version=1, id="thin", name="Thin", unit="in", width=60, height=44, pieces=[wall],
                deployment=[{"side": 1, "points": [[0, 0], [12, 0], [12, 44], [0, 44]]},
                            {"side": 2, "points": [[48, 0], [60, 0], [60, 44], [48, 44]]}])
    order = []
    real_blit, real_labels = AP._blit_cells, AM.zone_labels
    monkeypatch.setattr(AP, "_blit_cells", lambda fr, rgba: (order.append("fill"), real_blit(fr, rgba)))
    monkeypatch.setattr(AM, "zone_labels", lambda fr: (order.append("labels"), real_labels(fr)))
    info: dict = {}
    a = analyse(Table(m))
    AP.save_analysis_png(m, a, tmp_path / "a.png", info=info)
    assert info["thin_pieces"] == ["wall"]
    assert order.index("labels") > order.index("fill")
    img = pygame.image.load(str(tmp_path / "a.png"))
    # the wall's middle, on the picture, is the dark line colour, not the heatmap's
    fr = AP._frame(m, "x")
    x, y = fr.cam.to_screen(30, 20.05)
    assert tuple(img.get_at((int(x), int(y))))[:3] == AM.LINE
