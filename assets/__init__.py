"""The client's assets (theme, icon), installed as the package ``skirmish_assets``."""
