"""No module of the client is over 400 lines (issue 48): a longer one is split into modules named for
what they hold (a scene's helpers and widgets into its parts folder, a panel family into its own
module), never left to grow."""
from __future__ import annotations

from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"
MAX_LINES = 400


def long_modules(root: Path = GAME, limit: int = MAX_LINES) -> dict[str, int]:
    """Every ``.py`` under ``root`` over ``limit`` lines: its path (from ``root``'s parent) -> lines."""
    out = {}
    for p in sorted(root.rglob("*.py")):
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > limit:
            out[p.relative_to(root.parent).as_posix()] = n
    return out


def test_the_check_counts_lines_and_names_the_offenders(tmp_path):
    (tmp_path / "game" / "scenes").mkdir(parents=True)
    (tmp_path / "game" / "scenes" / "long.py").write_text("x = 1\n" * 401)
    (tmp_path / "game" / "short.py").write_text("x = 1\n" * 400)
    assert long_modules(tmp_path / "game") == {"game/scenes/long.py": 401}


def test_no_module_of_game_is_over_400_lines():
    over = long_modules()
    words = [f"{path}: {n} lines" for path, n in sorted(over.items(), key=lambda kv: -kv[1])]
    assert not over, f"modules of game/ over {MAX_LINES} lines (split them, issue 48):\n" + "\n".join(words)
