"""Small hand-made maps for the table tests (built in code, in mm unless said otherwise)."""
from __future__ import annotations

import random

from engine.data.maps import MapFile
from engine.table import Base, Table


def make_map(pieces, width=1000.0, height=800.0, unit="mm", id="test") -> MapFile:
    return MapFile.model_validate(dict(
        schema_version=1, id=id, name="Test table", unit=unit, width=width, height=height,
        pieces=pieces,
        deployment=[dict(side=1, points=[(0, 0), (width, 0), (width, height * 0.1)]),
                    dict(side=2, points=[(0, height), (width, height), (width, height * 0.9)])],
    ))


def table(pieces, **kw) -> Table:
    return Table(make_map(pieces, **kw))


def poly(id, kind, pts, **props):
    return dict(id=id, kind=kind, shape=dict(type="polygon", points=pts), **props)


def box(id, kind, x0, y0, x1, y1, **props):
    return poly(id, kind, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], **props)


def wall(id, kind, a, b, thickness, **props):
    return dict(id=id, kind=kind, shape=dict(type="wall", a=a, b=b, thickness=thickness), **props)


def circle(id, kind, c, r, **props):
    return dict(id=id, kind=kind, shape=dict(type="circle", center=c, radius=r), **props)


def model(id, x, y, radius=12.5, height=30.0, z=0.0, facing=0.0) -> Base:
    return Base(id, x, y, radius, height, facing, z)


KINDS = ["building", "wall", "fence", "hedge", "rock", "woods", "crate", "barrel", "ruin", "container", "smoke"]


def random_town(n_pieces=130, seed=1, width=48, height=36) -> Table:
    """A stand-in town in inches: buildings (some L-shaped), walls, fences, crates, woods, rocks."""
    rng = random.Random(seed)
    pieces = []
    for i in range(n_pieces):
        kind = rng.choice(["building"] * 4 + ["wall"] * 3 + ["fence"] * 2 + ["crate"] * 2 +
                          ["woods", "rock", "barrel", "ruin", "hut", "tree"])
        x, y = rng.uniform(1, width - 1), rng.uniform(1, height - 1)
        if kind in ("wall", "fence"):
            L = rng.uniform(2, 6)
            horiz = rng.random() < 0.5
            b = (min(width, x + L), y) if horiz else (x, min(height, y + L))
            pieces.append(wall(f"p{i}", kind, (x, y), b, 0.25))
        elif kind in ("building", "ruin", "hut"):
            w, h = rng.uniform(2, 5), rng.uniform(2, 4)
            if rng.random() < 0.3:
                pieces.append(poly(f"p{i}", kind, [(x, y), (x + w, y), (x + w, y + h / 2), (x + w / 2, y + h / 2),
                                                   (x + w / 2, y + h), (x, y + h)]))
            else:
                pieces.append(box(f"p{i}", kind, x, y, x + w, y + h))
        elif kind in ("barrel", "tree"):
            pieces.append(circle(f"p{i}", kind, (x, y), rng.uniform(0.4, 1.0)))
        elif kind == "woods":
            r = rng.uniform(2, 4)
            pieces.append(poly(f"p{i}", kind, [(x, y), (x + r, y + 0.5), (x + r * 1.1, y + r), (x + 0.3, y + r * 0.9)]))
        else:
            s = rng.uniform(0.8, 2)
            pieces.append(box(f"p{i}", kind, x, y, x + s, y + s))
    return table(pieces, width=width, height=height, unit="in", id="stand-in-town")
