"""The two runtimes of the learned models: onnxruntime and OpenCV's DNN give the same outputs and
the same readings; asking for a runtime that is not there is said plainly."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.vision.test_reader_synthetic import CALM
from vision.learned_models import LearnedModels, ModelError, model_path
from vision.learned_params import LearnedParams, load_learned_params
from vision.onnx_net import NetError, OnnxRuntimeNet, OpenCvNet, load_net
from vision.params import load_vision_params
from vision.reader import CLASSICAL_PATH, LEARNED_PATH, read_dice, release_learned_models
from tools.synth import SceneOptions, render_scene

REPO = Path(__file__).resolve().parents[2]
PARAMS = load_vision_params()
LEARNED = load_learned_params()
onnxruntime = pytest.importorskip("onnxruntime")  # installed by requirements.txt on x86-64 and 64-bit ARM


# Float nets agree to rounding. In an 8-bit net each runtime rounds the activations it
# requantizes in its own way, and a step's difference carries through the layers: at most 0.05
# of a logit on these noise crops for the shipped classifiers, where a reading moves with
# tenths (the readings of whole tables are compared below).
FLOAT_AGREEMENT = 1e-3
EIGHT_BIT_AGREEMENT = 0.1


@pytest.mark.parametrize(("model", "shape"), [("detector_path", (1, 3, 96, 160)), ("classifier_path", (5, 3, 64, 64)),
                                              ("second_classifier_path", (5, 3, 64, 64)),
                                              ("lean_path", (3, 3, 64, 64))])
def test_both_runtimes_give_the_same_outputs(model: str, shape: tuple[int, ...]) -> None:
    path = model_path(getattr(LEARNED, model))
    quantized = "quantized" in json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    blob = np.random.default_rng(7).random(shape, dtype=np.float32)
    by_opencv, by_onnxruntime = OpenCvNet(path).run(blob), OnnxRuntimeNet(path, onnxruntime).run(blob)
    assert by_opencv.shape == by_onnxruntime.shape
    assert np.max(np.abs(by_opencv - by_onnxruntime)) < (EIGHT_BIT_AGREEMENT if quantized else FLOAT_AGREEMENT)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_both_runtimes_read_a_table_alike(seed: int) -> None:
    frame, _ = render_scene(seed, SceneOptions(**CALM))
    readings = [read_dice(frame, PARAMS, learned=dataclasses.replace(LEARNED, runtime=runtime))
                for runtime in ("opencv", "onnxruntime")]
    assert all(r.message.startswith(LEARNED_PATH) for r in readings)
    by_opencv, by_onnxruntime = ([(d.colour, d.value, d.x, d.y, d.unsure) for d in r.dice] for r in readings)
    assert by_opencv == by_onnxruntime and len(by_opencv) == 6


def test_auto_takes_onnxruntime_when_installed_and_opencv_when_not(monkeypatch: pytest.MonkeyPatch) -> None:
    path = model_path(LEARNED.classifier_path)
    assert load_net(path, "auto").runtime == "onnxruntime"
    assert load_net(path, "opencv").runtime == "opencv"
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import onnxruntime now fails
    assert load_net(path, "auto").runtime == "opencv"
    with pytest.raises(NetError, match="onnxruntime is not installed"):
        load_net(path, "onnxruntime")


def test_a_file_neither_runtime_reads_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a network")
    for runtime, name in (("opencv", "OpenCV"), ("onnxruntime", "onnxruntime")):
        with pytest.raises(NetError, match=f"broken.onnx: {name} cannot read this ONNX model"):
            load_net(broken, runtime)


def test_the_runtime_key_is_checked() -> None:
    table = dataclasses.asdict(LEARNED)
    with pytest.raises(ValueError, match="'runtime' must be one of auto, onnxruntime, opencv"):
        LearnedParams.from_table(table | {"runtime": "tensorflow"})
    with pytest.raises(NetError, match="unknown runtime"):
        load_net(model_path(LEARNED.classifier_path), "tensorflow")


def test_a_missing_runtime_asked_for_falls_back_to_the_classical_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked for onnxruntime by name where it is not installed, the models do not load: the
    classical reader runs and the reading says why (as for a missing model file)."""
    release_learned_models()  # models loaded by earlier tests would still be there
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    asked = dataclasses.replace(LEARNED, runtime="onnxruntime")
    with pytest.raises(ModelError, match="onnxruntime is not installed"):
        LearnedModels.load(asked)
    frame, _ = render_scene(1, SceneOptions(**CALM))
    reading = read_dice(frame, PARAMS, learned=asked)
    assert reading.message.startswith(CLASSICAL_PATH) and "onnxruntime is not installed" in reading.message


def test_an_opencv_net_read_from_two_threads_gives_each_its_own_output() -> None:
    """A roll read while Settings' "Learn from our rolls now" runs shares the cached nets: without
    one run at a time, OpenCV's net swapped the threads' inputs (about a third of 300 runs)."""
    import threading

    net = OpenCvNet(model_path(LEARNED.classifier_path))
    blobs = [np.random.default_rng(seed).random((1, 3, 64, 64), dtype=np.float32) for seed in (1, 2)]
    expected = [net.run(blob).copy() for blob in blobs]
    mismatches = [0, 0]

    def read(which: int) -> None:
        for _ in range(150):
            mismatches[which] += not np.array_equal(net.run(blobs[which]), expected[which])

    threads = [threading.Thread(target=read, args=(which,)) for which in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert mismatches == [0, 0]


def _files_left_in_home(tmp_path: Path, name: str, script: str) -> list[str]:
    """The files a fresh Python writes under a home of its own while it runs `script`."""
    home = tmp_path / name
    home.mkdir()
    # Only these: onnxruntime stays quiet where it sees a CI service's variables (CI, GITHUB_ACTIONS...).
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-c", script], env=env, cwd=REPO, check=True, timeout=120)
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file())


def test_the_reader_keeps_onnxruntimes_telemetry_off(tmp_path: Path) -> None:
    """onnxruntime alone keeps a queue of usage events in the home folder, to be sent away; the
    reader's nets, and the tools, run with it switched off and write nothing there."""
    run_a_net = (f"import numpy as np; net = load_net(Path({str(model_path(LEARNED.classifier_path))!r}));"
                 " net.run(np.zeros((1, 3, 64, 64), np.float32))")
    alone = _files_left_in_home(tmp_path, "alone", "import onnxruntime")
    assert any("onnxruntime" in f for f in alone), f"this onnxruntime keeps no store to switch off: {alone}"
    assert _files_left_in_home(tmp_path, "reader", f"from pathlib import Path; from vision.onnx_net import load_net; "
                                                   f"{run_a_net}") == []
    assert _files_left_in_home(tmp_path, "tools", "import tools; import onnxruntime") == []
