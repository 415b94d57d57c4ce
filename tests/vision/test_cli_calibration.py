"""Command line exit codes and JSON shape; calibration save/load round trip."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibrate import Calibration, CalibrationError, load_calibration, save_calibration
from vision.cli import main
from vision.colour import default_models
from vision.params import REPO_ROOT, load_vision_params
from tools.synth import SceneOptions, render_scene
from vision.types import UnsureReason

PARAMS = load_vision_params()
# A calm synthetic scene (the set-up calibration asks for: dice apart, even light).
CALM_SCENE = SceneOptions(width=1600, height=900, die_px=56.0, table="grey_card", tint="neutral", dim=False, cubes=0,
                          cubes_near_dice=False, touching=False, cocked=False, glare=False, hard_light=False,
                          blur_sigma=0.5)


@pytest.fixture(scope="module")
def scene_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    frame, _ = render_scene(0)
    path = tmp_path_factory.mktemp("scene") / "scene.png"
    cv2.imwrite(str(path), frame)
    return path


def test_read_json_shape(scene_file: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["read", "--json", "--calibration", str(tmp_path / "none.json"), str(scene_file)])
    assert code == 1  # a named calibration file that does not exist is an error, not a silent default
    code = main(["read", "--json", "--debug", str(tmp_path / "dbg"), str(scene_file)])
    assert code == 0
    line = json.loads(capsys.readouterr().out.strip().split("\n")[-1])
    assert line["image"] == str(scene_file) and isinstance(line["ms"], float)
    assert line["dice"], "the synthetic scene has six dice"
    for die in line["dice"]:
        assert set(die) == {"x", "y", "w", "h", "colour", "value", "confidence", "unsure", "reason",
                            "colour_doubtful"}
        assert die["value"] is None or 1 <= die["value"] <= 6
        assert die["unsure"] == (die["value"] is None) == (die["reason"] is not None)
        assert die["reason"] is None or die["reason"] in {reason.value for reason in UnsureReason}
    assert (tmp_path / "dbg" / "scene_debug.jpg").is_file()


def test_any_mode_has_no_colours(scene_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", "--json", "--expect", "any", str(scene_file)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["dice"] and all(die["colour"] is None for die in line["dice"])


def test_unreadable_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture", encoding="utf-8")
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((100, 100), 128, np.uint8))
    for path in (tmp_path / "missing.jpg", text, grey):
        assert main(["read", "--json", str(path)]) == 2
        assert json.loads(capsys.readouterr().out)["message"]


def test_black_image_gives_empty_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros((720, 1280, 3), np.uint8))
    assert main(["read", "--json", str(black)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["dice"] == [] and "contrast" in line["message"]


def test_module_entry_point_runs_without_traceback(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "vision", "read", str(tmp_path / "nope.png")],
                            cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "no such file" in result.stderr and "Traceback" not in result.stderr


def test_bad_config_exits_2_and_names_the_file(tmp_path: Path, scene_file: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    cases = {
        "bad-value.toml": ("[vision]\nread_die_px = 'big'\n", "read_die_px"),
        "unknown-key.toml": ("[vision.learned]\nclasifier_path = 'x.onnx'\n", "clasifier_path"),
        "not-toml.toml": ("[vision\n", "not valid TOML"),
    }
    for name, (text, named) in cases.items():
        config = tmp_path / name
        config.write_text(text, encoding="utf-8")
        assert main(["--config", str(config), "read", str(scene_file)]) == 2
        err = capsys.readouterr().err
        assert str(config) in err and named in err and "Traceback" not in err
    assert main(["--config", str(tmp_path / "absent.toml"), "read", str(scene_file)]) == 2
    assert "absent.toml" in capsys.readouterr().err


def _override(tmp_path: Path, text: str) -> Path:
    config = tmp_path / "mine.toml"
    config.write_text(text, encoding="utf-8")
    return config


def test_config_option_lays_its_keys_over_the_repository_config(tmp_path: Path, scene_file: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """--config takes a file of the keys to change, as the app's own override file: one that
    switches the learned reader off, or names a classifier that is not there, is read with the
    classical reader, and the reading says so; every other key keeps the repository's value."""
    assert main(["read", str(scene_file)]) == 0
    assert "learned" in capsys.readouterr().out
    off = _override(tmp_path, "[vision.learned]\nenabled = false\n")
    assert main(["--config", str(off), "read", str(scene_file)]) == 0
    assert "disabled in [vision.learned]" in capsys.readouterr().out
    absent = _override(tmp_path, f'[vision.learned]\nclassifier_path = "{(tmp_path / "absent.onnx").as_posix()}"\n')
    assert main(["--config", str(absent), "read", str(scene_file)]) == 0
    assert "absent.onnx" in capsys.readouterr().out


def test_config_without_a_learned_table_keeps_the_repository_models(tmp_path: Path, scene_file: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    config = _override(tmp_path, "[vision]\ncolour_margin_min = 0.1\n")
    assert main(["--config", str(config), "read", str(scene_file)]) == 0
    out = capsys.readouterr().out
    assert "learned" in out and "classical" not in out


def test_calibration_round_trip(tmp_path: Path) -> None:
    calibration = Calibration(models=default_models(PARAMS))
    path = tmp_path / "deep" / "calibration.json"
    save_calibration(calibration, path)
    assert load_calibration(path) == calibration


def test_calibrate_command_then_read_with_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame, labels = render_scene(0, CALM_SCENE)
    image = tmp_path / "clean.png"
    cv2.imwrite(str(image), frame)
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(image), "--out", str(out)]) == 0
    assert set(load_calibration(out).models) == {"red", "blue", "green", "black", "gray", "violet"}
    capsys.readouterr()
    assert main(["read", "--json", "--calibration", str(out), str(image)]) == 0
    read = {d["colour"]: d["value"] for d in json.loads(capsys.readouterr().out)["dice"] if not d["unsure"]}
    truth = {d.colour: d.value for d in labels.dice}
    assert read and all(truth[colour] == value for colour, value in read.items())


def test_calibrate_refuses_a_frame_without_six_clear_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = tmp_path / "empty_table.png"
    cv2.imwrite(str(image), np.random.default_rng(1).integers(0, 255, (720, 1280, 3), dtype=np.uint8))
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(image), "--out", str(out)]) == 1
    assert "six dice" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("content", ["{", "[]", '{"version": 1}', '{"version": 9, "models": []}'])
def test_bad_calibration_file_is_a_clear_error(tmp_path: Path, content: str) -> None:
    path = tmp_path / "cal.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CalibrationError, match="cal.json"):
        load_calibration(path)
