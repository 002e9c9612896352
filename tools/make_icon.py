"""Draw the window icon (assets/icon.png): a die on a yellow tape. Run: python tools/make_icon.py"""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "assets" / "icon.png"


def main() -> None:
    s = pygame.Surface((64, 64), pygame.SRCALPHA)
    pygame.draw.line(s, (250, 214, 60), (4, 52), (60, 40), 9)
    for i in range(6):
        x = 8 + i * 10
        pygame.draw.line(s, (30, 24, 10), (x, 51 - i * 2.1), (x, 45 - i * 2.1), 2)
    pygame.draw.rect(s, (30, 24, 10), (14, 6, 36, 36), border_radius=7)
    pygame.draw.rect(s, (240, 232, 214), (16, 8, 32, 32), border_radius=6)
    for cx, cy in ((24, 16), (32, 24), (40, 32), (40, 16), (24, 32)):
        pygame.draw.circle(s, (190, 40, 30), (cx, cy), 3)
    pygame.image.save(s, str(OUT))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
