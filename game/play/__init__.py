"""The game screen's state (``state.py``: ``PlayState``) and its owned parts, each built by
``PlayScene`` (``game/scenes/play.py``) with what it needs; what drives the screen (``source.py``)."""
