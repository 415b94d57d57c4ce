"""`python -m vision adapt`: the table's own rolls refit the colours and the sure threshold,
judged on a held-out quarter, and written only when that quarter reads no worse; in any mode
(the rolls of dice whose colours repeat) its own threshold alone, and each mode's refit is
refused by the other."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.learnt_table import ANY_COLOURS, TOO_STRICT, keep_any_rolls, too_strict
from vision.adapt import (
    HEADS_NAME,
    HELD_OUT_EVERY,
    NO_CALIBRATION,
    RECORD_NAME,
    AdaptError,
    _better,
    _threshold,
    adapt,
    load_adaptation,
    models_fingerprint,
    split,
    write_adaptation,
)
from vision.calibrate import Calibration
from vision.cli import main
from vision.colour import LEARNED_MEASURE, default_models_for
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import learned_models, read_dice
from tools.synth import SceneOptions, render_scene
from vision.table_rolls import keep_roll
from vision.types import DIE_COLOURS

PARAMS = load_vision_params()
LEARNED = load_learned_params()


@pytest.fixture(scope="module")
def table_rolls(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve throws on one drawn table under warm light (small frames, for speed), kept as the app
    keeps confirmed rolls."""
    folder = tmp_path_factory.mktemp("table") / "table-rolls"
    for throw in range(12):
        frame, labels = render_scene(4243, SceneOptions(width=960, height=540, die_px=34, layout_seed=throw,
                                                        tint="warm"))
        truth = {d.colour: d.value for d in labels.dice if d.value is not None}
        keep_roll(folder, frame, read_dice(frame, PARAMS, "macao", learned=LEARNED), truth, limit=300)
    return folder


def test_every_fourth_roll_is_held_out(table_rolls: Path) -> None:
    teaching, held = split(table_rolls)
    assert (len(teaching), len(held)) == (9, 3) and HELD_OUT_EVERY == 4
    assert [image.name for image, _label in held] == ["roll-000004.jpg", "roll-000008.jpg", "roll-000012.jpg"]


def test_the_refit_is_judged_on_the_held_out_rolls(table_rolls: Path) -> None:
    models = learned_models(LEARNED)
    assert not isinstance(models, str), models
    result = adapt(table_rolls, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=30)
    assert (result.taught, result.held_out) == (9, 3) and result.refit.dice >= 50
    assert result.before.dice == result.after.dice == 18
    assert set(result.refit.calibration.models) == set(DIE_COLOURS)
    hues = {c: result.refit.calibration.models[c].hue_deg for c in ("red", "green", "blue")}
    assert hues["red"] < 60 or hues["red"] > 330, hues  # warm light moves them, not into another colour
    assert 90 < hues["green"] < 200 and 200 < hues["blue"] < 330, hues
    assert 0.5 <= result.refit.value_min_probability <= 0.99
    with pytest.raises(AdaptError, match="at least 1000 are needed"):
        adapt(table_rolls, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=1000)


def test_a_roll_with_no_die_labelled_judges_the_refit_and_teaches_nothing(table_rolls: Path, tmp_path: Path) -> None:
    """The players confirmed its values, but the reader miscounted its dice: no die is labelled.
    It would teach nothing, so wherever it falls it is held out, and counts the values a reader
    states that the players did not confirm."""
    folder = tmp_path / "rolls"
    shutil.copytree(table_rolls, folder)
    for name in ("roll-000001", "roll-000004"):
        label = folder / "labels" / f"{name}.json"
        record = json.loads(label.read_text(encoding="utf-8"))
        label.write_text(json.dumps({**record, "dice": []}), encoding="utf-8")
    models = learned_models(LEARNED)
    assert not isinstance(models, str), models
    result = adapt(folder, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=30, layers=False)
    assert (result.taught, result.held_out) == (8, 4) and result.before.dice == 12  # two held-out rolls labelled
    assert result.before.confirmed_images == result.after.confirmed_images == 4
    assert [image.name for image, _label in split(folder)[1]] == ["roll-000001.jpg", "roll-000004.jpg",
                                                                   "roll-000008.jpg", "roll-000012.jpg"]
    assert result.before.against_confirmed >= result.before.wrong_confident


def test_the_threshold_states_the_most_dice_right_within_the_mistakes_allowed() -> None:
    stated = [(0.95, True)] * 50 + [(0.75, False)] + [(0.65, True)] * 3 + [(0.55, False)]
    assert _threshold(stated, found=60, max_wrong=0.0, current=0.7) == 0.76  # above the mistake at 0.75
    # One allowed: the 0.65s come in; of 0.56-0.65, all as good, the one nearest the current 0.7.
    assert _threshold(stated, found=60, max_wrong=1 / 60, current=0.7) == 0.65
    assert _threshold([(0.95, True)] * 10, found=10, max_wrong=0.0, current=0.7) == 0.7  # nothing to gain: kept


def test_a_refit_is_better_when_it_leaves_less_to_put_right_reading_no_die_fewer_and_none_more_wrongly() -> None:
    # (right, wrong, readings where no die lies) before, then after, of the held-out dice
    assert _better(50, 2, 51, 2)  # a die more read right
    assert _better(50, 2, 50, 1)  # as many, one fewer stated wrongly
    assert _better(50, 2, 50, 2, 44, 0)  # as many, and 44 readings fewer to dismiss
    assert not _better(50, 2, 49, 2, 44, 0)  # never a die fewer read right, whatever it saves
    assert not _better(50, 2, 49, 2, 1, 1)
    assert not _better(50, 0, 61, 1, 10, 0)  # one more stated wrongly: never
    assert not _better(50, 2, 50, 2, 3, 3)
    # values stated that the players did not confirm, on every held-out roll (labelled or not)
    assert _better(50, 2, 51, 2, 0, 0, 4, 4)
    assert not _better(50, 2, 55, 1, 0, 0, 4, 5)  # one more, where no label sees it: never


def test_the_command_writes_the_refit_only_when_it_reads_better(table_rolls: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "adapted"
    assert main(["adapt", str(table_rolls), "--out", str(out), "--min-dice", "30"]) == 0
    printed = capsys.readouterr().out
    assert "before:" in printed and "after :" in printed
    assert "values stated that the players did not confirm (on all 3 rolls)" in printed
    written = all((out / name).is_file() for name in ("adapted.toml", "calibration.json", "adaptation.json"))
    assert written == ("written:" in printed) != ("nothing written" in printed)
    assert main(["adapt", str(tmp_path / "nowhere")]) == 2
    assert main(["adapt", str(table_rolls), "--min-dice", "1000"]) == 1
    assert "at least 1000" in capsys.readouterr().err


@pytest.fixture(scope="module")
def any_rolls(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve throws of Marco Polo II's dice, kept as the app keeps them (tests/learnt_table.py)."""
    return keep_any_rolls(tmp_path_factory.mktemp("table"))


def test_any_mode_refits_its_own_threshold_on_the_values_alone(any_rolls: Path) -> None:
    models = learned_models(too_strict(LEARNED))
    assert not isinstance(models, str), models
    result = adapt(any_rolls, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=30, expect="any",
                   layers=False)
    assert result.refit.heads is None
    assert (result.taught, result.held_out) == (9, 3) and result.refit.dice >= 60
    assert result.refit.expect == "any" and result.refit.calibration is None  # its colours are not refitted
    assert result.refit.value_min_probability == 0.92
    assert result.before.dice == result.after.dice == 24 and not result.before.colour_labelled  # values scored
    assert (result.before.right, result.before.unsure, result.before.wrong_confident) == (15, 9, 0)
    assert (result.after.right, result.after.wrong_confident) == (24, 0) and result.better
    adapted = result.refit.learned(models[1])
    assert adapted.value_min_probability == 0.92 and adapted.macao_value_min_probability == LEARNED.macao_value_min_probability
    # With the shipped threshold every held-out die is read right already: nothing to gain.
    shipped = learned_models(LEARNED)
    assert not isinstance(shipped, str)
    as_shipped = adapt(any_rolls, PARAMS, shipped[0], shipped[1], None, max_wrong=0.003, min_dice=30, expect="any")
    assert (as_shipped.before.right, as_shipped.after.right) == (24, 24) and not as_shipped.better


def test_with_the_last_layers_refitted_the_threshold_only_comes_down(any_rolls: Path) -> None:
    """Read through layers fitted to the same rolls, the teaching dice are read surely and right
    more often than the held-out ones will be: the threshold is not raised on them."""
    for learned, threshold in ((too_strict(LEARNED), 0.98), (LEARNED, LEARNED.value_min_probability)):
        models = learned_models(learned)
        assert not isinstance(models, str), models
        result = adapt(any_rolls, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=30, expect="any")
        assert result.refit.heads is not None and set(result.refit.heads.heads) == {
            Path(LEARNED.classifier_path).name, Path(LEARNED.second_classifier_path).name}
        assert result.refit.value_min_probability == threshold <= learned.value_min_probability
        assert (result.after.right, result.after.wrong_confident) == (24, 0)


def test_the_command_writes_an_any_mode_refit_without_colours(any_rolls: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    strict = tmp_path / "strict.toml"
    strict.write_text(f"[vision.learned]\nvalue_min_probability = {TOO_STRICT}\n", encoding="utf-8")
    out = tmp_path / "adapted"
    (out).mkdir()
    (out / "calibration.json").write_text("{}", encoding="utf-8")  # an earlier macao refit's colours
    assert main(["--config", str(strict), "adapt", str(any_rolls), "--expect", "any", "--out", str(out),
                 "--min-dice", "30", "--no-layers"]) == 0
    printed = capsys.readouterr().out
    assert "in any mode; value_min_probability 0.99 -> 0.92, colours not refitted" in printed
    assert "before: value right 62.50%" in printed and "after : value right 100.00%" in printed
    assert "table-rolls-any/adapted" in printed and "last layers" not in printed
    assert (out / "adapted.toml").read_text(encoding="utf-8").endswith(
        "[vision.learned]\nvalue_min_probability = 0.92\n")
    assert not (out / "calibration.json").exists() and not (out / HEADS_NAME).exists()
    record = json.loads((out / RECORD_NAME).read_text(encoding="utf-8"))
    assert (record["mode"], record["judged_against"], record["calibration"]) == ("any", NO_CALIBRATION, NO_CALIBRATION)
    assert record["heads"] == NO_CALIBRATION
    refit = load_adaptation(out, models_fingerprint(LEARNED), NO_CALIBRATION, "any")
    assert refit is not None and refit.calibration is None and refit.value_min_probability == 0.92
    assert refit.heads is None and refit.learned(LEARNED).classifier_heads_path == ""
    with pytest.raises(AdaptError, match="made for the reader's any mode, not for its macao mode"):
        load_adaptation(out, models_fingerprint(LEARNED), NO_CALIBRATION, "macao")


def test_a_macao_refit_is_refused_in_any_mode(table_rolls: Path, tmp_path: Path) -> None:
    models = learned_models(LEARNED)
    assert not isinstance(models, str)
    result = adapt(table_rolls, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=30)
    write_adaptation(tmp_path, result, models_fingerprint(LEARNED), NO_CALIBRATION)  # better or not: a record
    record = json.loads((tmp_path / RECORD_NAME).read_text(encoding="utf-8"))
    assert record["mode"] == "macao"
    with pytest.raises(AdaptError, match="made for the reader's macao mode, not for its any mode "
                                         r"\(the six dice of six colours, not the dice whose colours repeat\)"):
        load_adaptation(tmp_path, models_fingerprint(LEARNED), NO_CALIBRATION, "any")
    # A record of version 1, from before the modes, was made for macao mode.
    del record["mode"]
    (tmp_path / RECORD_NAME).write_text(json.dumps({**record, "version": 1}), encoding="utf-8")
    with pytest.raises(AdaptError, match="made for the reader's macao mode, not for its any mode"):
        load_adaptation(tmp_path, models_fingerprint(LEARNED), NO_CALIBRATION, "any")
    (tmp_path / RECORD_NAME).write_text(json.dumps({**record, "version": 2, "mode": "six"}), encoding="utf-8")
    with pytest.raises(AdaptError, match="names no reader mode \\(macao or any\\), but 'six'"):
        load_adaptation(tmp_path, models_fingerprint(LEARNED), NO_CALIBRATION, "macao")


def test_rolls_of_another_mode_or_damaged_labels_are_refused_with_the_file_named(
        any_rolls: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    models = learned_models(LEARNED)
    assert not isinstance(models, str)
    with pytest.raises(AdaptError, match=r"roll-000001.json: 8 dice, .*more than once: not a roll of the six dice "
                                         r"of macao mode \(dice whose colours repeat are refitted with --expect any\)"):
        adapt(any_rolls, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=30)
    colours = Calibration(default_models_for(ANY_COLOURS, PARAMS), LEARNED_MEASURE, ANY_COLOURS)
    with pytest.raises(ValueError, match="any mode refits the values alone"):
        adapt(any_rolls, PARAMS, models[0], models[1], colours, max_wrong=0.003, min_dice=30, expect="any")
    damaged = tmp_path / "damaged"
    for part in ("images", "labels"):
        (damaged / part).mkdir(parents=True)
        for path in sorted((any_rolls / part).iterdir())[:4]:
            (damaged / part / path.name).write_bytes(path.read_bytes())
    (damaged / "labels" / "roll-000003.json").write_text('{"dice": [{"value": 3}]}', encoding="utf-8")
    with pytest.raises(AdaptError, match="roll-000003.json: not a label file the rolls are kept in"):
        adapt(damaged, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=1, expect="any")
    assert main(["adapt", str(damaged), "--expect", "any"]) == 1
    assert "roll-000003.json: not a label file" in capsys.readouterr().err
    (damaged / "labels" / "roll-000003.json").write_text('{"dice": [], "confirmed": {"red": [9]}}', encoding="utf-8")
    with pytest.raises(AdaptError, match=r"roll-000003.json: not a label file the rolls are kept in \(.*'confirmed' is "
                                         "not a list of values 1-6"):
        adapt(damaged, PARAMS, models[0], models[1], None, max_wrong=0.003, min_dice=1, expect="any")
    assert main(["adapt", str(any_rolls), "--expect", "any", "--calibration", str(tmp_path / "c.json")]) == 2
    assert "--expect any refits the values alone" in capsys.readouterr().err
    assert main(["adapt", str(any_rolls), "--min-dice", "30"]) == 1
    assert "not a roll of the six dice of macao mode" in capsys.readouterr().err
