"""A drawn table's kept rolls and the reader's refit learnt from them, made once for the suite
(tests/conftest.py `learnt_table`): the app's tests of applying, running and dropping a refit."""

from __future__ import annotations

from pathlib import Path

from app.reader_adaptation import ReaderAdaptation
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import read_dice
from tools.synth import SceneOptions, render_scene
from vision.table_rolls import keep_roll

# A table under dim, warm light: the shipped colours name the blue and black dice of the last
# held-out roll (roll 12) each other's colours, stated sure; the refit reads them right. (Seed 77,
# used until 2026-12-05: the models shipped since read its rolls better than any refit; of seeds
# 77-110, only 96 and 97 gave a refit that reads the held-out rolls better.)
SEED, THROWS, LAST_HELD_OUT = 96, 12, "roll-000012.jpg"
TRUTH_OF_LAST = {"red": 4, "blue": 6, "green": 4, "black": 1, "gray": 3, "violet": 3}
# Twelve rolls hold 54 teaching dice, fewer than the app asks for: the tests ask for 30.
MIN_DICE = 30


def keep_rolls(data: Path) -> Path:
    """The table's twelve rolls kept in data/table-rolls as the app keeps confirmed rolls."""
    params, learned = load_vision_params(), load_learned_params()
    rolls = data / "table-rolls"
    for throw in range(THROWS):
        frame, labels = render_scene(SEED, SceneOptions(width=960, height=540, die_px=34, layout_seed=throw,
                                                        tint="warm", dim=True))
        truth = {d.colour: d.value for d in labels.dice if d.value is not None}
        keep_roll(rolls, frame, read_dice(frame, params, "macao", learned=learned), truth, limit=300)
    return rolls


def learn(data: Path) -> None:
    """The refit of data/table-rolls written beside them, as the app's Settings would; it must
    read the held-out rolls better."""
    result = ReaderAdaptation(data / "calibration.json", load_vision_params(), load_learned_params(),
                              min_dice=MIN_DICE).learn(None)
    assert result.better, (result.before, result.after)
