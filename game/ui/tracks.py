"""Each ruleset's tracks drawn in the turn bar, from the view: the ruleset's presenter draws them
(``game/presenters/``: Moxie and Dread, the sides' cards, the initiative track)."""
from __future__ import annotations

import pygame

from game.presenters import presenter_for


def draw_tracks(img: pygame.Surface, rect: pygame.Rect, view: dict, names: dict) -> bool:
    """Draw the ruleset's tracks in ``rect`` of ``img``; False when the ruleset has none drawn."""
    return presenter_for(view.get("ruleset")).draw_tracks(img, rect, view, names)
