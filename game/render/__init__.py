"""Drawing the table: ``TableRenderer`` and ``Camera`` (table_view), headless PNGs (png)."""
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from .table_view import Camera, TableRenderer, piece_at  # noqa: E402

__all__ = ["Camera", "TableRenderer", "piece_at", "save_map_png"]


def save_map_png(mapfile, path, width_px: int = 1600):
    """Render a map to a PNG headless; see :func:`game.render.png.save_map_png`."""
    from .png import save_map_png as _save
    return _save(mapfile, path, width_px)
