"""The UI settings a player can change on the Settings screen, kept across restarts.

Defaults come from config.toml's [ui] table; what players change at the table
is saved as a small JSON file next to the game journal, so no config file is
ever rewritten by the app.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from app.games.base import Message
from app.session import PlayerNotice
from app.ui.i18n import LANGUAGES, N_
from vision.atomic_file import write_atomically

TEXT_SCALES: tuple[float, ...] = (0.85, 1.0, 1.2, 1.4)
# "config": as config.toml's [camera] source / [button] enabled say; the others override them.
CAMERA_CHOICES: tuple[str, ...] = ("config", "auto", "picamera2", "opencv", "folder", "none")
BUTTON_CHOICES: tuple[str, ...] = ("config", "gpio", "screen")


@dataclass
class UiSettings:
    """What players may change at the table (the rest of [ui] is fixed at start-up)."""

    language: str = "en"
    text_scale: float = 1.0
    camera: str = "config"
    button: str = "config"
    # The tray region marked on the camera screen, over config.toml's [vision] tray_*: its four
    # corners (x y x y x y x y; fractions of the picture), or a rectangle (left, top, width,
    # height: "Whole picture", and what was marked before corners were); None: as configured.
    tray: list[float] | None = None
    # The camera's field of view across (degrees) as the tray's corners measured it on the camera
    # screen, over config.toml's [vision] camera_fov_deg where that did not fit; None: as configured.
    camera_fov_deg: float | None = None
    # Keep the confirmed rolls as the reader's own dataset ([vision] keep_rolls); False: none.
    learn_from_rolls: bool = True
    # Cards: False, each revealed card is one tap (its tribute) and its cost is the cubes paid
    # when it is activated; True, the costs are typed at reveal so the rules check activations.
    check_costs: bool = False

    @classmethod
    def from_config(cls, ui_table: dict[str, Any]) -> UiSettings:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in ui_table.items() if k in known}).checked()

    def checked(self) -> UiSettings:
        """Replace values the screens cannot show with the defaults."""
        default = UiSettings()
        if self.language not in LANGUAGES:
            self.language = default.language
        if not isinstance(self.text_scale, (int, float)) or not 0.5 <= float(self.text_scale) <= 2.0:
            self.text_scale = default.text_scale
        if self.camera not in CAMERA_CHOICES:
            self.camera = default.camera
        if self.button not in BUTTON_CHOICES:
            self.button = default.button
        if not isinstance(self.check_costs, bool):
            self.check_costs = default.check_costs
        if self.tray is not None and not _is_tray(self.tray):
            self.tray = default.tray
        if self.camera_fov_deg is not None and not _is_field_of_view(self.camera_fov_deg):
            self.camera_fov_deg = default.camera_fov_deg
        if not isinstance(self.learn_from_rolls, bool):
            self.learn_from_rolls = default.learn_from_rolls
        return self


def _is_tray(tray: object) -> bool:
    """Four fractions that make a rectangle inside the picture, or eight that make four corners
    of a convex region. The reader's own checks are imported only here: a table that never
    marked a tray (or types its dice in) loads no vision."""
    from vision.params import check_tray, parse_tray_corners

    if not isinstance(tray, list) or len(tray) not in (4, 8) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in tray):
        return False
    try:
        if len(tray) == 4:
            check_tray(*(float(v) for v in tray))
        else:
            parse_tray_corners(" ".join(str(float(v)) for v in tray))
    except ValueError:
        return False
    return True


def _is_field_of_view(degrees: object) -> bool:
    """A number the reader takes as [vision] camera_fov_deg (imported here only, as for the tray)."""
    from vision.params import CAMERA_FOV_RANGE_DEG

    low, high = CAMERA_FOV_RANGE_DEG
    return isinstance(degrees, (int, float)) and not isinstance(degrees, bool) and low <= float(degrees) <= high


class SettingsStore:
    """Loads and saves the table's choices as JSON (written atomically)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self, defaults: UiSettings) -> tuple[UiSettings, PlayerNotice | None]:
        """The saved settings over the defaults, and a warning when the file was unusable."""
        if not self.path.exists():
            return defaults, None
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(saved, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as err:
            return defaults, PlayerNotice(Message(N_("{file}: unreadable settings ignored ({reason})"),
                                                  {"file": str(self.path), "reason": str(err)}))
        merged = {**asdict(defaults), **{k: v for k, v in saved.items() if k in asdict(defaults)}}
        return UiSettings(**merged).checked(), None

    def save(self, settings: UiSettings) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, json.dumps(asdict(settings), indent=2))
