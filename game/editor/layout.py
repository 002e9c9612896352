"""Where the editor's parts sit in the window (pixels) and the choices its menus offer: shared by
the scene and its parts (``game/scenes/editor.py``)."""
from __future__ import annotations

TOOLBAR_ROW = 36    # a row of the tool bar; a narrow window (1024) takes two
PALETTE_W = 200
PANEL_W = 340
STATUS_H = 24
FORM_H = 372
HANDLE_PX = 7
PICK_PX = 7
SYMMETRY_CHOICES = {"Symmetry: off": None, "Symmetry: mirror |": "mirror_x", "Symmetry: mirror -": "mirror_y",
                    "Symmetry: point": "point"}
