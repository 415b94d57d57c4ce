"""The look the reader last read a table's dice at, kept from one start of the app to the next.

Between two runs the camera and the dice move no more than between two rolls, so the first roll
after a start (or a power cut) can read at the remembered look (`read_dice(look_scale=...)`)
instead of judging every look afresh. One look per kind of dice (`DiceSpec`): another game's dice
may lie at another size. Kept as a small JSON file beside the empty-tray picture; the camera check
forgets them all (the camera may have moved). A remembered look that no longer fits mostly costs
time (the reader then judges the looks as it would without one); where it still finds the dice, it
reads them at a size not theirs and asks about a few more (docs/dice-reader.md), which is why the
app tries a stored look against the stored empty tray first.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from vision.atomic_file import write_atomically
from vision.types import DiceSpec

log = logging.getLogger(__name__)

FORMAT = "windrose-reader-looks"


def look_key(dice: DiceSpec) -> str:
    """The name a kind of dice is remembered under: count, colours and whether they repeat."""
    return f"{dice.count}:{','.join(dice.colours)}:{'repeats' if dice.repeats else 'once'}"


class RememberedLooks:
    """Each kind of dice's last look at this table, read from `path` (None: remembered for the
    run only). A damaged file is reported and costs only the looks it held; a failed write
    keeps the look for the run."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.looks: dict[str, float] = _load(path) if path is not None else {}

    def look_for(self, dice: DiceSpec) -> float | None:
        """The scale of the last complete reading of these dice at this table, or None."""
        return self.looks.get(look_key(dice))

    def remember(self, dice: DiceSpec, scale: float) -> None:
        """Keep `scale` as the look of these dice (written only when it changed)."""
        key = look_key(dice)
        if self.looks.get(key) != scale:
            self.looks[key] = scale
            self._write()

    def forget_all(self) -> None:
        """The camera was checked again: no look of before is trusted."""
        if self.looks:
            self.looks.clear()
            self._write()

    def _write(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, json.dumps({"format": FORMAT, "looks": self.looks}, indent=1))
        except OSError as exc:
            log.warning("the reader's last look not stored (%s): %s", self.path, exc)


def _load(path: Path) -> dict[str, float]:
    """The looks stored at `path`; {} when there is none, and when it is damaged (said in the log)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        log.warning("the reader's stored looks not read (%s): %s", path, exc)
        return {}
    try:
        stored = json.loads(text)
    except json.JSONDecodeError as exc:
        log.warning("the reader's stored looks not used: %s is not JSON (line %d)", path, exc.lineno)
        return {}
    looks = stored.get("looks") if isinstance(stored, dict) and stored.get("format") == FORMAT else None
    if not isinstance(looks, dict):
        log.warning("the reader's stored looks not used: %s is not a %s file", path, FORMAT)
        return {}
    kept = {key: float(scale) for key, scale in looks.items()
            if isinstance(scale, (int, float)) and not isinstance(scale, bool) and 0.0 < scale <= 1.0}
    if len(kept) < len(looks):
        log.warning("the reader's stored looks: %d of %d in %s are not scales between 0 and 1; left out",
                    len(looks) - len(kept), len(looks), path)
    return kept


def default_looks_path(reference_path: Path) -> Path:
    """Beside the empty-tray picture, on the table's own machine only."""
    return reference_path.with_name("reader-looks.json")
