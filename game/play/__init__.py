"""The game screen's parts, mixed into the one scene class ``PlayScene`` (``game/scenes/play.py``),
which holds the state and the widgets and wires them."""
