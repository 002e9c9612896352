"""Drawing the table: ``TableRenderer`` (table_view, with table_image, table_ground, table_pieces
and table_marks) and its helpers (camera, geoms, look, painters, text), the overlays, headless
PNGs (png)."""
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from .camera import Camera  # noqa: E402
from .geoms import piece_at  # noqa: E402
from .table_view import TableRenderer  # noqa: E402

__all__ = ["Camera", "TableRenderer", "piece_at", "save_map_png"]


def save_map_png(mapfile, path, width_px: int = 1600):
    """Render a map to a PNG headless; see :func:`game.render.png.save_map_png`."""
    from .png import save_map_png as _save
    return _save(mapfile, path, width_px)
