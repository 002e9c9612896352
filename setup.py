"""Only what pyproject.toml cannot say: the top-level assets/ folder ships as the package
``skirmish_assets`` (found with importlib.resources from any folder after a plain install)."""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["engine*", "game*"]) + ["skirmish_assets"],
    package_dir={"skirmish_assets": "assets"},
)
