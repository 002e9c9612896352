"""Where the game screen's parts sit (pixels): shared by the scene (``game/scenes/play.py``) and
its parts."""
from __future__ import annotations

PANEL_W = 380
BAR_H = 46
