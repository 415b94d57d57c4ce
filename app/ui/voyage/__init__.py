"""The ship voyage's screen: the score pad for the two voyages."""
