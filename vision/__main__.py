"""Entry point for `python -m vision`."""

import sys

import vision.image_file  # noqa: F401 - first: it sets OpenCV's pixel limit before OpenCV loads
from vision.cli import main

sys.exit(main())
