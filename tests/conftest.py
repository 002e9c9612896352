import os

# Headless pygame for every test that draws (set before anything imports pygame).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest

from engine.core.rules import register, unregister


@pytest.fixture(scope="session", autouse=True)
def toy_ruleset():
    from toy_rules import ToyRules

    register(ToyRules)
    yield ToyRules
    unregister("toy")
