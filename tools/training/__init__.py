"""Training and data-extraction scripts for the learned dice models (vision.learned_models, run by vision.learned).

Run only on a development machine with torch installed (see README.md here);
nothing in the reader imports this package.
"""
