"""Shadows of Macao's screen: the score pad for gangs and establishments."""
