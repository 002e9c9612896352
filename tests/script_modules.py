"""A script of this checkout (bench/, tools/: folders that are not packages) imported by its path
as a module, so that its tests call its functions."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(name: str, path: str) -> ModuleType:
    """The script at ``path`` (from the checkout's root), run as a module named ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None, path
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
