"""Where the shipped data lives (the repository's maps/ next to the packages)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPS_DIR = ROOT / "maps"
DEFAULT_MAP = MAPS_DIR / "town.json"


def resolve_map(name_or_path: str) -> Path:
    """A map given as a path, or as the id of a shipped map ("outpost" -> maps/outpost.json)."""
    p = Path(name_or_path)
    if p.exists() or p.suffix:
        return p
    return MAPS_DIR / f"{name_or_path}.json"
