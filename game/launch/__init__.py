"""The launcher's parts: what it offers and checks (``choices``), its widgets (``form``)."""
