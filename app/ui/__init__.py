"""The Kivy touchscreen app of Windrose (screens, widgets, theme, translations).

Importing this package does not load Kivy; `main` does.
"""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Start the touchscreen app (or the screenshot tour); see app.ui.launch."""
    from app.ui.launch import launch

    return launch(list(argv or []))
