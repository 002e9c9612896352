"""The shipped maps (JSON), installed as the package ``skirmish_maps``."""
