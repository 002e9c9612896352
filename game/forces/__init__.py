"""The force builder's parts (issue 49): the player's force files and the builder's panels."""
