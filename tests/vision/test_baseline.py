"""The plain pip-blob reader the bench compares the reader with (vision/baseline.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.baseline import _groups, read_baseline
from vision.bench import run_bench
from vision.evaluate import LabelledDie, Score, score_image
from vision.params import WHOLE_FRAME, load_vision_params
from tools.synth import SceneOptions, render_scene


def test_pips_chain_into_one_die_only_within_reach() -> None:
    centres = np.array([[0, 0], [10, 10], [20, 20], [100, 0], [200, 0]], np.float32)
    assert _groups(centres, np.full(5, 15.0)) == [[0, 1, 2], [3], [4]]


def test_white_dice_seen_plainly_are_mostly_read_and_a_blank_frame_has_none() -> None:
    """The recipe works where it is meant to (white dice, black pips, a dark table, straight
    down): a yardstick that read nothing would make the speed comparison meaningless."""
    score = Score()
    for seed in range(6):
        options = SceneOptions(width=640, height=480, die_px=48, dice_style="white", table="dark", cubes=0, cards=0,
                               dim=False, cocked=False, glare=False, tint="neutral", blur_sigma=0.5, tilt_deg=0.0,
                               touching=False)
        frame, labels = render_scene(seed, options)
        score_image(score, [LabelledDie(d.box, d.value, None) for d in labels.dice], read_baseline(frame), False)
    assert score.right >= 28 and score.dice == 36
    assert read_baseline(np.full((480, 640, 3), 128, np.uint8)).dice == ()


def test_the_bench_times_the_baseline_on_the_same_frames() -> None:
    rows = run_bench(load_vision_params().with_tray(WHOLE_FRAME), runs=1)
    assert [row["size"] for row in rows] == ["1280x720", "1600x900", "2304x1296"]
    assert all(float(row[key]) > 0 for row in rows for key in ("baseline_ms", "read_ms", "classical_ms"))  # type: ignore[arg-type]
    # The drawn frame reads complete: the next roll at its table is timed with its look remembered.
    assert all(float(row["next_roll_cpu_ms"]) > 0 for row in rows)  # type: ignore[arg-type]


def test_evaluate_scores_the_baseline_on_request(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.cli import main as vision_main

    dataset = tmp_path / "set"
    assert vision_main(["synth", str(dataset), "--count", "2", "--seed", "5", "--width", "640", "--height", "360"]) == 0
    capsys.readouterr()
    assert vision_main(["evaluate", str(dataset), "--reader", "baseline", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["dice"] == 12 and "colour_and_value_right" not in report and "phantom_per_image" in report


def test_the_bench_reads_each_frame_with_two_settings_in_turn(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from vision.cli import main as vision_main

    other = tmp_path / "batch8.toml"
    other.write_text("[vision.learned]\nclassifier_batch = 8\n", encoding="utf-8")
    assert vision_main(["bench", "--runs", "2", "--against", str(other)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["1280x720", "1600x900", "2304x1296"]
    assert all(f"{other} " in line and "ratio " in line for line in lines)


@pytest.mark.parametrize("text", [None, "[vision.learned]\nclassifier_batch = \"four\"\n", "[vision.learned\n"])
def test_a_bad_config_to_bench_against_is_named_without_a_traceback(tmp_path: Path, text: str | None,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from vision.cli import EXIT_BAD_INPUT, main as vision_main

    other = tmp_path / "other.toml"
    if text is not None:
        other.write_text(text, encoding="utf-8")
    assert vision_main(["bench", "--runs", "1", "--against", str(other)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("bench: --against: ") and str(other) in err and "Traceback" not in err


def test_a_config_to_bench_against_whose_models_do_not_load_is_refused(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Its reader would fall back to the classical one, and the figures would compare that."""
    from vision.cli import EXIT_BAD_INPUT, main as vision_main

    other = tmp_path / "other.toml"
    other.write_text(f'[vision.learned]\nclassifier_path = "{tmp_path / "gone.onnx"}"\n', encoding="utf-8")
    assert vision_main(["bench", "--runs", "1", "--against", str(other)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith(f"bench: --against {other}: learned models not loaded") and "gone.onnx" in err
    assert "it would time the classical reader" in err
