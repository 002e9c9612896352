"""One scene per screen: launcher, game (play), pass (hot-seat privacy), game over."""
