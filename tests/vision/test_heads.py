"""The classifiers' features nets and refitted last layers (vision.heads): a features net and the
shipped layer read as the classifier does, in both runtimes; a file of refitted layers changes
what the reader reads and is loaded again when written anew; a damaged one is named, never a
traceback."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from tests.vision.test_reader_synthetic import CALM
from tools.synth import SceneOptions, render_scene
from vision.heads import Head, HeadedNet, features_path, load_heads, save_heads, shipped_head
from vision.learned_models import DiceNet, ModelError, crop_dice, model_path
from vision.learned_params import load_learned_params
from vision.onnx_net import OnnxRuntimeNet, OpenCvNet, image_blob
from vision.params import load_vision_params
from vision.reader import CLASSICAL_PATH, learned_models, read_dice

PARAMS = load_vision_params()
LEARNED = load_learned_params()
onnxruntime = pytest.importorskip("onnxruntime")
CLASSIFIERS = ("classifier_path", "second_classifier_path")


def dice_crops(seed: int = 3) -> np.ndarray:
    """The six dice of a drawn table and two patches of its table, as the classifier's crops."""
    frame, labels = render_scene(seed, SceneOptions(**CALM))
    centres = np.array([d.center for d in labels.dice] + [(40.0, 40.0), (frame.shape[1] - 60.0, 50.0)])
    sides = np.full(len(centres), float(np.mean([d.face_side for d in labels.dice])))
    return crop_dice(frame, centres, sides, 64, 1.6)


@pytest.mark.parametrize("model", CLASSIFIERS)
@pytest.mark.parametrize("runtime", ["onnxruntime", "opencv"])
def test_the_features_net_and_the_shipped_layer_give_the_classifiers_logits(model: str, runtime: str) -> None:
    path = model_path(getattr(LEARNED, model))
    blob = image_blob(dice_crops())
    load = (lambda p: OnnxRuntimeNet(p, onnxruntime)) if runtime == "onnxruntime" else OpenCvNet
    whole = load(path).run(blob)
    headed = HeadedNet(load(features_path(path)), shipped_head(path)).run(blob)
    assert headed.shape == whole.shape == (8, 7)
    assert np.max(np.abs(headed - whole)) < 1e-4  # the same sums in another order
    assert np.array_equal(headed.argmax(axis=1)[:6] > 0, np.ones(6, bool))  # the dice read as dice


def test_a_refitted_layer_is_read_and_a_file_written_anew_is_loaded_again(tmp_path: Path) -> None:
    frame, labels = render_scene(5, SceneOptions(**CALM))
    name = model_path(LEARNED.classifier_path).name
    shipped = shipped_head(model_path(LEARNED.classifier_path))
    heads = tmp_path / "heads.json"
    save_heads(heads, {name: shipped})
    as_shipped = read_dice(frame, PARAMS, "macao", learned=LEARNED)
    through = dataclasses.replace(LEARNED, classifier_heads_path=str(heads))
    same = read_dice(frame, PARAMS, "macao", learned=through)
    assert [(d.colour, d.value, d.unsure) for d in same.dice] == [(d.colour, d.value, d.unsure) for d in as_shipped.dice]
    # A layer that calls every crop "not a die" leaves the first classifier finding no die.
    blind = Head(shipped.weight, np.array([50.0, 0, 0, 0, 0, 0, 0], np.float32))
    save_heads(heads, {name: blind})
    chosen = learned_models(through)
    assert not isinstance(chosen, str)
    assert isinstance(chosen[0].classifier._net, HeadedNet) and chosen[0].classifier._net.head.bias[0] == 50.0
    assert not isinstance(chosen[0].extra_classifiers[0]._net, HeadedNet)  # no layer of its own: as shipped
    assert len(read_dice(frame, PARAMS, "macao", learned=through).dice) < len(labels.dice)


def test_damaged_files_of_layers_are_named(tmp_path: Path) -> None:
    heads = tmp_path / "heads.json"
    name = model_path(LEARNED.classifier_path).name
    good = shipped_head(model_path(LEARNED.classifier_path)).to_json()
    cases = {
        "not json {": "unreadable",
        json.dumps({"version": 9, "heads": {}}): "not a file of refitted layers",
        json.dumps({"version": 1, "heads": {name: {"weight": [[1.0, 2.0]], "bias": [1.0, 2.0]}}}): "a bias per class",
        json.dumps({"version": 1, "heads": {name: {"weight": [["x"]], "bias": [0.0]}}}): "lists of numbers",
        json.dumps({"version": 1, "heads": {name: {**good, "bias": [float("nan")] * 7}}}): "not finite",
        json.dumps({"version": 1, "heads": {name: "layer"}}): "an object with a weight and a bias",
    }
    for text, message in cases.items():
        heads.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=message) as caught:
            load_heads(heads)
        assert str(heads) in str(caught.value)
        reading = read_dice(render_scene(1, SceneOptions(**CALM))[0], PARAMS, "macao",
                            learned=dataclasses.replace(LEARNED, classifier_heads_path=str(heads)))
        assert reading.message.startswith(CLASSICAL_PATH) and str(heads) in reading.message  # said, and still read
    heads.write_text(json.dumps({"version": 1, "heads": {"someone_elses.onnx": good}}), encoding="utf-8")
    problem = learned_models(dataclasses.replace(LEARNED, classifier_heads_path=str(heads)))
    assert isinstance(problem, str) and "someone_elses.onnx, a classifier the reader does not use" in problem
    missing = learned_models(dataclasses.replace(LEARNED, classifier_heads_path=str(tmp_path / "gone.json")))
    assert isinstance(missing, str) and "gone.json: the refitted layers cannot be read" in missing


def test_a_classifier_without_its_features_net_cannot_take_a_layer(tmp_path: Path) -> None:
    lone = tmp_path / "lone.onnx"
    source = model_path(LEARNED.classifier_path)
    lone.write_bytes(source.read_bytes())
    lone.with_suffix(".json").write_bytes(source.with_suffix(".json").read_bytes())
    assert DiceNet.load(lone).crop_px == 64  # as shipped it loads
    with pytest.raises(ModelError, match="lone.features.onnx: no such model file"):
        DiceNet.load(lone, head=shipped_head(source))
    with pytest.raises(OSError):
        shipped_head(lone)
