"""Entry point for `python -m vision`."""

import sys

from vision.cli import main

sys.exit(main())
