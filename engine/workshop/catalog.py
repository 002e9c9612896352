"""The editor's palette: terrain templates and missions, from catalog files.

A catalog file (``engine/workshop/catalog/*.json`` ships with the game; a user adds files of the
same form to the ``catalog`` folder of their config folder) holds **templates**: one or more
pieces in the map schema, drawn about the template's origin (0, 0), in the file's ``unit``.
Placing a template converts it to the map's unit, moves it to the point clicked, gives its
pieces fresh ids and, when there are several, one group of their own, so they move together.

A mission file holds **missions**: deployment zones, objectives and evacuation points given as
shares of the table's width and height (0 to 1, origin at the lower left, y up), so one mission
fits any table and a terrain layout can be tried under several deployments.

A bad file is refused with file, field and reason (``DataError``) and the others still load.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.data.errors import DataError, load_model
from engine.data.maps import MM_PER, Marker, Piece, Unit, Zone
from engine.data.text import ID_CHARS, NAME_CHARS, TEXT_CHARS

from . import edits as E
from . import shapes as S

SHIPPED_DIR = Path(__file__).parent / "catalog"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Template(_Strict):
    id: str = Field(min_length=1, max_length=ID_CHARS)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    section: str = Field("Templates", max_length=NAME_CHARS)
    description: str = Field("", max_length=TEXT_CHARS)
    pieces: list[Piece] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> Template:
        ids = [p.id for p in self.pieces]
        dup = next((i for i in ids if ids.count(i) > 1), None)
        if dup:
            raise ValueError(f"duplicate piece id {dup!r}")
        return self


Share = Annotated[float, Field(ge=0, le=1)]
Frac = tuple[Share, Share]


class MissionZone(_Strict):
    side: int = Field(ge=1, le=2, description="the side that deploys here (1 or 2)")
    points: list[Frac] = Field(min_length=3, max_length=1000,
                               description="corners as shares (0 to 1) of the table's width and depth")


class MissionMarker(_Strict):
    id: str = Field(min_length=1, max_length=ID_CHARS)
    name: str = Field("", max_length=NAME_CHARS)
    at: Frac = Field(description="shares (0 to 1) of the table's width and depth")


class Mission(_Strict):
    id: str = Field(min_length=1, max_length=ID_CHARS)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    description: str = Field("", max_length=TEXT_CHARS)
    deployment: list[MissionZone] = Field(min_length=2)
    objectives: list[MissionMarker] = Field(default_factory=list)
    evac_points: list[MissionMarker] = Field(default_factory=list)

    @model_validator(mode="after")
    def _shares(self) -> Mission:
        pts = [p for z in self.deployment for p in z.points] + [m.at for m in self.objectives + self.evac_points]
        if any(not (0 <= v <= 1) for p in pts for v in p):
            raise ValueError("points are shares of the table: between 0 and 1")
        if {z.side for z in self.deployment} != {1, 2}:
            raise ValueError("needs zones for sides 1 and 2")
        return self


class CatalogFile(_Strict):
    schema_version: Literal[1]
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    unit: Unit = "in"
    templates: list[Template] = Field(default_factory=list)
    missions: list[Mission] = Field(default_factory=list)


class Catalog:
    """Every template and mission found, with the files that were refused and why."""

    def __init__(self, files: list[tuple[Path, CatalogFile]], refused: list[DataError]):
        self.files = files
        self.refused = refused
        self.templates: list[tuple[Template, str]] = []      # (template, its file's unit)
        self.missions: list[Mission] = []
        for _, cf in files:
            self.templates += [(t, cf.unit) for t in cf.templates]
            self.missions += list(cf.missions)

    def sections(self) -> dict[str, list[tuple[Template, str]]]:
        out: dict[str, list] = {}
        for t, unit in self.templates:
            out.setdefault(t.section, []).append((t, unit))
        return out

    def template(self, tid: str) -> tuple[Template, str]:
        for t, unit in self.templates:
            if t.id == tid:
                return t, unit
        raise KeyError(tid)

    def mission(self, mid: str) -> Mission:
        for m in self.missions:
            if m.id == mid:
                return m
        raise KeyError(mid)


def load_catalog(extra_dirs=()) -> Catalog:
    """The shipped catalog files, then those in ``extra_dirs`` (a user's catalog folder); a
    user template with the id of a shipped one comes after it in the palette, it does not
    replace it."""
    files, refused = [], []
    for folder in [SHIPPED_DIR, *map(Path, extra_dirs)]:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            try:
                files.append((path, load_model(CatalogFile, path)))
            except DataError as err:
                refused.append(err)
    return Catalog(files, refused)


def place_template(t: Template, unit: str, mapfile, at: tuple[float, float], degrees: float = 0.0) -> tuple:
    """The template's pieces for ``mapfile``: converted to its unit, turned by ``degrees`` about
    the template's origin, moved to ``at``, with ids free on the map and (several pieces) one
    new group."""
    k = MM_PER[unit] / MM_PER[mapfile.unit]
    c, s = S.cos_sin(degrees)
    ax, ay = at

    def f(x, y):
        x, y = x * k, y * k
        return (ax + x * c - y * s, ay + x * s + y * c)

    taken = {p.id for p in mapfile.pieces}
    grp = None
    if len(t.pieces) > 1:
        grp = E.new_id({p.group for p in mapfile.pieces if p.group}, t.id)
    out = []
    for p in t.pieces:
        pid = E.new_id(taken, f"{t.id}-{p.id}" if len(t.pieces) > 1 else p.id)
        taken.add(pid)
        upd = {"id": pid, "shape": S.transform_shape(p.shape, f, radius_factor=k, thickness_factor=k)}
        if p.height is not None:
            upd["height"] = p.height * k
        if grp:
            upd["group"] = grp
        out.append(p.model_copy(update=upd))
    return tuple(out)


def template_edit(t: Template, unit: str, mapfile, at, degrees: float = 0.0) -> E.AddPieces:
    return E.AddPieces(place_template(t, unit, mapfile, at, degrees))


def mission_edit(mission: Mission, mapfile) -> E.Edit:
    """The edit that puts ``mission``'s zones, objectives and evacuation points on the map in
    place of the ones it has (one undo step)."""
    W, H = mapfile.width, mapfile.height

    def pt(p):
        return (round(p[0] * W, 6), round(p[1] * H, 6))

    zones = tuple(Zone(side=z.side, points=[pt(p) for p in z.points]) for z in mission.deployment)
    objs = tuple(Marker(id=o.id, name=o.name, at=pt(o.at)) for o in mission.objectives)
    evac = tuple(Marker(id=o.id, name=o.name, at=pt(o.at)) for o in mission.evac_points)
    parts: list[E.Edit] = []
    old_markers = tuple(("objective", o.id) for o in mapfile.objectives) + tuple(("evac", o.id) for o in mapfile.evac_points)
    if old_markers:
        parts.append(E.DeleteMarkers(old_markers))
    if mapfile.deployment:
        parts.append(E.DeleteZones(tuple(range(len(mapfile.deployment)))))
    parts.append(E.AddZones(zones))
    if objs:
        parts.append(E.AddMarkers("objective", objs))
    if evac:
        parts.append(E.AddMarkers("evac", evac))
    return E.Compound(tuple(parts), f"mission {mission.name}")
