import os

# Headless pygame for every test that draws (set before anything imports pygame).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# A game screen starts the player's hint's process on the first G only, not ahead of it (the
# window's default): a test's screen starts no process it did not ask for (tests/test_client_hint.py
# turns it on where it tests it).
os.environ.setdefault("SKIRMISH_HINT_AHEAD", "0")

import pytest
from hypothesis import settings

# The property tests draw the same examples on every run (CI's verdict never depends on luck);
# HYPOTHESIS_PROFILE=explore draws new ones, to look for counterexamples on purpose. No per-example
# deadline: on a shared or loaded machine a slow example is not a wrong one (one flaked at load 9).
settings.register_profile("skirmish", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "skirmish"))

from engine.core.rules import register, unregister


@pytest.fixture(scope="session", autouse=True)
def toy_ruleset():
    from toy_rules import ToyRules

    register(ToyRules)
    yield ToyRules
    unregister("toy")
