"""The body of the game screen for each phase of a round (cards, dice, actions, end)."""
