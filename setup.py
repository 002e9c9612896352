"""Only what pyproject.toml cannot say: the top-level assets/ and maps/ folders ship as the
packages ``skirmish_assets`` and ``skirmish_maps`` (found with importlib.resources from any
folder after a plain, non-editable install)."""
from setuptools import find_namespace_packages, setup

setup(
    # namespace discovery, so the data folders (engine/rulesets/*/data) ship their JSON too
    packages=find_namespace_packages(include=["engine*", "game*"]) + ["skirmish_assets", "skirmish_maps"],
    package_dir={"skirmish_assets": "assets", "skirmish_maps": "maps"},
)
