"""The printable setup sheet (engine/workshop/sheet.py, ``skirmish sheet``)."""
from __future__ import annotations

import pytest

from engine.data.maps import CircleShape, MapFile, Marker, Piece, PolygonShape, WallShape, Zone
from engine.workshop import shapes as S
from engine.workshop.sheet import placements, turn_of, write_sheet

pytest.importorskip("matplotlib")


def small_map() -> MapFile:
    return MapFile(schema_version=1, id="sheet-test", name="Sheet test", unit="in", width=48, height=36,
                   pieces=[Piece(id="house", kind="building", name="House", shape=PolygonShape(points=S.rect(3, 4, 9, 8))),
                           Piece(id="well", kind="tower", shape=CircleShape(center=(40, 30), radius=2)),
                           Piece(id="run", kind="fence", name="Fence",
                                 shape=WallShape(a=(20, 10), b=(20 + 8.660254, 15), thickness=0.2))],
                   deployment=[Zone(side=1, points=S.rect(0, 0, 6, 36)), Zone(side=2, points=S.rect(42, 0, 48, 36))],
                   objectives=[Marker(id="mid", at=(24, 18))])


def test_each_piece_gets_its_distances_from_the_two_nearest_edges():
    rows = placements(small_map())
    assert rows[0]["edges"] == '3" from the left, 4" from the bottom'
    assert rows[0]["size"] == '6 x 4"' and rows[0]["height"] == '3.9"'      # a building's 100 mm
    # the well's box is 38..42 x 28..32: 6" from the right, 4" from the top
    assert rows[1]["edges"] == '6" from the right, 4" from the top'
    assert rows[2]["turn"] == "turned +30.0\u00b0"
    assert turn_of(PolygonShape(points=S.rect(0, 0, 2, 1))) == 0.0
    assert turn_of(CircleShape(center=(1, 1), radius=1)) is None


def test_pdf_and_png_are_written(tmp_path):
    m = small_map()
    pdf = write_sheet(m, tmp_path / "s.pdf", paper="letter")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 1
    png = write_sheet(m, tmp_path / "s.png", paper="A3", landscape=False)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image as mpimg

    h, w = mpimg.imread(png).shape[:2]
    assert h > w                                    # portrait


def test_a_map_with_many_pieces_lists_them_on_more_pages(tmp_path):
    from engine.data.maps import load_map
    from engine.paths import MAPS_DIR

    town = load_map(MAPS_DIR / "town.json")         # 131 pieces: the map, then two pages of the list
    out = write_sheet(town, tmp_path / "town.png")
    assert out.exists() and (tmp_path / "town-2.png").exists() and (tmp_path / "town-3.png").exists()
    assert not (tmp_path / "town-4.png").exists()


def test_skirmish_sheet_command(tmp_path, capsys):
    from game.cli import main

    assert main(["sheet", "outpost", "--out", str(tmp_path / "o.pdf")]) == 0
    assert (tmp_path / "o.pdf").stat().st_size > 5000
    assert main(["sheet", "outpost", "--out", str(tmp_path / "o.svg")]) == 2
    assert main(["sheet", "outpost", "--out", str(tmp_path / "o.pdf"), "--paper", "B5"]) == 2
    assert main(["sheet", str(tmp_path / "missing.json"), "--out", str(tmp_path / "x.pdf")]) == 1
    err = capsys.readouterr().err
    assert "must end in .pdf or .png" in err and "unknown paper 'B5'" in err and "no such" in err
