"""The ``skirmish`` command run as a user runs it: ``python -m game.cli`` in a child process of
this checkout, with its own user folder, headless, under a time limit."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_cli(argv, home: Path, timeout: float) -> subprocess.CompletedProcess:
    """``skirmish *argv`` with ``home`` as its user folder; its output captured as text."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SKIRMISH_HOME": str(home), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return subprocess.run([sys.executable, "-m", "game.cli", *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
