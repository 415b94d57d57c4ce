"""`tools.training.ablate`: the dice one setting changes, read both ways over a labelled folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.evaluate import RIGHT
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from tools.training.ablate import ablate, with_settings

LEARNED = load_learned_params()
PARAMS = load_vision_params()


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from vision.cli import main as vision_main

    folder = tmp_path_factory.mktemp("ablate") / "set"
    assert vision_main(["synth", str(folder), "--count", "2", "--seed", "5"]) == 0
    return folder


def test_a_setting_that_asks_for_every_die_lists_every_die_read_right(drawn: Path) -> None:
    asked = {"macao_value_min_probability": "1.0", "second_opinion": "false"}  # nor the classical reader
    changes, before, after = ablate([drawn], "macao", asked, LEARNED, PARAMS)
    assert before.colour_value_right >= 10, "the two drawn scenes should read mostly right"
    assert after.colour_value_right == 0 and after.unsure == after.matched
    assert len(changes) == before.colour_value_right
    assert all(c.before.startswith(f"{RIGHT} (") and c.after.startswith("unsure (") for c in changes)
    assert all(c.image.startswith("set/synth_") for c in changes)


def test_the_settings_as_they_are_change_nothing(drawn: Path) -> None:
    changes, before, after = ablate([drawn], "any", {"doubted_on_body": "true"}, LEARNED, PARAMS)
    assert changes == [] and before.right == after.right > 0


def test_settings_are_parsed_as_the_keys_types_and_other_tables_keys_left_alone() -> None:
    changed = with_settings(LEARNED, {"doubted_on_body": "False", "macao_split_step": "0", "tray_left": "0.5"})
    assert (changed.doubted_on_body, changed.macao_split_step) == (False, 0.0)
    assert with_settings(PARAMS, {"tray_left": "0.5", "doubted_on_body": "false"}).tray_left == 0.5
    with pytest.raises(ValueError, match="true or false"):
        with_settings(LEARNED, {"doubted_on_body": "maybe"})
    with pytest.raises(ValueError, match="not a float"):
        with_settings(LEARNED, {"macao_split_step": "half"})
