"""Panels the game scene draws itself (where pygame_gui would be slow, as for a long log)."""
