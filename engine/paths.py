"""Where the shipped data lives: the maps/ folder, installed as the package ``skirmish_maps``
(so a plain ``pip install .`` finds it from any folder), or beside the packages in a checkout."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def data_dir(package: str, folder: str) -> Path:
    """An installed data package's folder (``skirmish_maps``, ``skirmish_assets``), or the
    checkout's top-level ``folder`` when the package is not installed."""
    from importlib import resources

    try:
        p = Path(str(resources.files(package)))
        if p.is_dir():
            return p
    except (ModuleNotFoundError, TypeError):
        pass
    return ROOT / folder


MAPS_DIR = data_dir("skirmish_maps", "maps")
DEFAULT_MAP = MAPS_DIR / "town.json"


def shipped_map_ids() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.json"))


def resolve_map(name_or_path: str) -> Path:
    """A map given as a path to a file, or as the id of a shipped map ("outpost"). A bare id
    names the shipped map even when a folder of that name is in the current directory."""
    p = Path(name_or_path)
    if p.is_file() or p.suffix:
        return p
    shipped = MAPS_DIR / f"{name_or_path}.json"
    if shipped.exists() or not p.exists():
        return shipped
    return p
