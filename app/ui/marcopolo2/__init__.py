"""Marco Polo II's screens: each round's dice with compensation, then the end-scoring pad."""
