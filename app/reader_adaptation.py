"""The reader refitted on the table's own rolls, as the running app applies, makes and drops it.

`python -m vision adapt` (or Settings' "Learn from our rolls now") writes a refit beside the kept
rolls of one reader mode, with a record of its held-out scores and of the mode, models and colour
calibration it was judged with (vision.adapt): for the six dice (the six-colour mode, `table-rolls/`)
their colours and sure threshold, for dice whose colours repeat (`any` mode, `table-rolls-any/`)
the sure threshold alone. The station keeps one ReaderAdaptation per mode and applies the one of
the game's dice, at start and after each run, only while its record holds; a damaged, cut-short,
outdated or other mode's one leaves the shipped models and the table's own calibration in use,
and says why. Nothing here leaves the machine.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from vision.adapt import (
    NO_CALIBRATION,
    RECORD_NAME,
    AdaptedReader,
    Adaptation,
    AdaptError,
    adapt,
    calibration_fingerprint,
    forget_adaptation,
    load_adaptation,
    models_fingerprint,
    write_adaptation,
)
from vision.atomic_file import write_atomically
from vision.calibrate import Calibration
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reader import learned_models
from vision.table_rolls import default_rolls_folder, roll_numbers
from vision.types import SIX_COLOURS_MODE, ExpectMode

log = logging.getLogger(__name__)

# Where the refit lies: inside the kept rolls' folder (the layout `vision adapt` writes by default).
ADAPTED_FOLDER = "adapted"
# The most dice a run may state wrongly on the teaching rolls (adapt's --max-wrong).
MAX_WRONG = 0.003
# Fewer clear dice than this in the teaching rolls teach nothing (adapt's --min-dice).
MIN_DICE = 60
# A game's end starts a run by itself once this many rolls were kept since the last run (about a
# game's rolls: twelve rounds of the main game) and the folder holds at least LEARN_FROM_ROLLS
# (a quarter are held out).
LEARN_AFTER_NEW_ROLLS = 12
LEARN_FROM_ROLLS = 16
# Beside the kept rolls: the newest roll's number when the last run started.
LAST_RUN_NAME = "last-run.json"


class ReaderAdaptation:
    """The table's refit for one reader mode (`expect`), if any, beside the shipped thresholds
    and the table's own calibration of the six dice.

    `in_use` is the refit the reader reads with (None: the shipped models), `problem` why a
    refit on disk is not used ("" when there is none or it is used)."""

    def __init__(self, calibration_path: Path, params: VisionParams, shipped: LearnedParams,
                 expect: ExpectMode = SIX_COLOURS_MODE, min_dice: int = MIN_DICE) -> None:
        self.expect = expect
        self.rolls_folder = default_rolls_folder(calibration_path, expect)
        self.folder = self.rolls_folder / ADAPTED_FOLDER
        self.calibration_path = calibration_path
        self.params = params
        self.shipped = shipped
        self.min_dice = min_dice
        self.in_use: AdaptedReader | None = None
        self.problem = ""

    def load(self) -> None:
        """Read the refit from disk (at start, after a run, after a new calibration); a refit
        that cannot be applied is logged and left aside, the shipped models read on."""
        self.in_use, self.problem = None, ""
        if not (self.folder / RECORD_NAME).exists():
            return
        try:
            models = models_fingerprint(self.shipped)
        except OSError as exc:  # no model files: the classical reader runs, which a refit does not touch
            self.problem = f"the learned models cannot be read ({exc.strerror or exc})"
            log.warning("the reader's adaptation to this table is not used: %s", self.problem)
            return
        try:
            self.in_use = load_adaptation(self.folder, models, self.judged_against, self.expect)
        except AdaptError as exc:
            self.problem = str(exc)
            log.warning("the reader's adaptation to this table is not used: %s", exc)

    @property
    def judged_against(self) -> str:
        """The colour calibration a refit of this mode is judged against: the six dice's file
        (the six-colour mode), or none (any mode reads values alone: a new calibration of any colours
        leaves its refit as good as it was)."""
        return calibration_fingerprint(self.calibration_path) if self.expect == SIX_COLOURS_MODE else NO_CALIBRATION

    def reading_with(self, table_calibration: Calibration | None) -> tuple[LearnedParams, Calibration | None]:
        """The thresholds and the six dice's colours the reader uses: the refit's when one is in
        use (an any-mode refit keeps the table's colours), else the shipped thresholds and the
        table's calibration."""
        if self.in_use is None:
            return self.shipped, table_calibration
        colours = self.in_use.calibration if self.in_use.calibration is not None else table_calibration
        return self.in_use.learned(self.shipped), colours

    def due(self) -> bool:
        """Whether enough rolls were kept since the last run for a game's end to start one."""
        kept = roll_numbers(self.rolls_folder)
        return len(kept) >= LEARN_FROM_ROLLS and kept[-1] - self._last_run() >= LEARN_AFTER_NEW_ROLLS

    def _last_run(self) -> int:
        """The newest roll's number when the last run started (0: never, or not readable)."""
        try:
            number = json.loads((self.rolls_folder / LAST_RUN_NAME).read_text(encoding="utf-8"))["newest_roll"]
        except (OSError, ValueError, TypeError, KeyError):
            return 0
        return number if isinstance(number, int) else 0

    def _note_run(self) -> None:
        """Remember the newest roll of this run; a run is then due again only after a game more.
        A disk that refuses it costs no more than a run again after the next game."""
        kept = roll_numbers(self.rolls_folder)
        marker = self.rolls_folder / LAST_RUN_NAME
        try:
            write_atomically(marker, json.dumps({"newest_roll": kept[-1] if kept else 0}) + "\n")
        except OSError as exc:
            log.warning("%s: the last run on the table's rolls could not be noted (%s)", marker, exc)

    def learn(self, table_calibration: Calibration | None) -> Adaptation:
        """Refit on the kept rolls and write the refit when it reads the held-out rolls better
        (minutes on a Pi: call it off the UI thread; `load` then applies it). The six dice's
        `table_calibration` is what the six-colour mode is judged against (any mode reads values alone).
        AdaptError when the rolls are too few or the learned reader cannot run; OSError when it
        cannot write."""
        chosen = learned_models(self.shipped)
        if isinstance(chosen, str):
            raise AdaptError(f"only the learned reader can learn, and it cannot run: {chosen}")
        if not (self.rolls_folder / "images").is_dir():
            raise AdaptError(f"{self.rolls_folder}: no rolls kept yet")
        self._note_run()
        result = adapt(self.rolls_folder, self.params, chosen[0], chosen[1],
                       table_calibration if self.expect == SIX_COLOURS_MODE else None, MAX_WRONG, self.min_dice, self.expect)
        if result.better:
            write_adaptation(self.folder, result, models_fingerprint(self.shipped), self.judged_against)
        return result

    def forget(self) -> None:
        """Back to the shipped models and the table's calibration: the refit is deleted.
        OSError when it cannot be."""
        forget_adaptation(self.folder)
        self.in_use, self.problem = None, ""
