"""The guild-columns game's screens: the score pad and the ring of columns."""
