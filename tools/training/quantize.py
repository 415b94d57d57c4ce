"""Quantize the reader's float networks to 8-bit integers (onnxruntime static quantization, QDQ).

    .venv/bin/python -m tools.training.quantize [--config FLOAT.toml] \
        --calibrate $D/dice-real-dev:even $D/dice-real-dev2:even $D/dice-rendered-dev:even /tmp/lrn/rand_lo:even \
        --out /tmp/int8

`--config` names the float models (`[vision.learned]` paths, as any reader config; default
`tools/training/float_models.toml`, the float nets the shipped 8-bit classifiers came from);
each is written to `--out` as `<name>.int8.onnx` with its JSON metadata beside it. The range of each layer's activations is measured on what the reader itself feeds that net
while it reads the `--calibrate` images (`--expect`, default macao: every look, crop and turn it
takes), so no range is guessed from a made-up input. Only convolutions are quantized, weights
per output channel; the first convolution of every net (three colour channels in, little to
gain, the most to lose), the detector's second one (its first two moved its heat most on
held-out frames, one layer at a time) and its output layers stay float.

An 8-bit net runs the reader's convolutions about twice as fast on one core and is a quarter
of the size; both runtimes (onnxruntime, OpenCV's DNN) run the QDQ form. The two classifiers
ship in 8 bits (percentile calibration); the detector and the leaning check stay float: see
"8-bit networks", "The classifiers in 8 bits" and "The detector in 8 bits, calibrated by
percentile on tiles" in tools/training/README.md. Judge any result
with `python -m vision evaluate` on the held-out sets before shipping it. Needs the training
tools' `onnx`.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnxruntime
from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                      quantize_static)
from onnxruntime.quantization.shape_inference import quant_pre_process

from tools.training.calibration import RecordingNet, tiles
from tools.training.data import load_specs
from vision.learned_models import model_path
from vision.learned_params import load_learned_params
from vision.params import WHOLE_FRAME, load_vision_params
from vision.reader import learned_models, read_dice

# Inputs kept per net for calibration, a uniform sample of all it saw: a detector input of a
# frame at 800 px is 4 MB, and the ranges settle long before the crops run out.
MOST_CROPS = 1000
MOST_FRAMES = 60
# The detector's inputs, cut to one size for the histogram calibrations (a multiple of its 8 px).
DETECTOR_TILE = 128
FLOAT_MODELS = Path(__file__).with_name("float_models.toml")
# Layers left in float, by their names in the exported graphs (tools/training/nets.py).
FIRST_CONV_OF_A_CROP_NET = "/features/features.0/features.0.0/Conv"
DETECTOR_FLOAT_LAYERS = ("/down4/down4.0/down4.0.0/Conv", "/down4/down4.1/down4.1.0/Conv", "/lateral/Conv",
                         "/heat/Conv", "/size/Conv")
CALIBRATION_METHODS = {"minmax": CalibrationMethod.MinMax, "percentile": CalibrationMethod.Percentile,
                       "entropy": CalibrationMethod.Entropy}


class Blobs(CalibrationDataReader):
    """The recorded inputs, one at a time, under the model's input name."""

    def __init__(self, input_name: str, blobs: list[np.ndarray]) -> None:
        self._items: Iterator[np.ndarray] = iter(blobs)
        self._name = input_name

    def get_next(self) -> dict[str, np.ndarray] | None:
        blob = next(self._items, None)
        return None if blob is None else {self._name: blob}


def quantize(float_path: Path, blobs: list[np.ndarray], out: Path, float_layers: tuple[str, ...],
             method: CalibrationMethod, note: str) -> None:
    """`float_path` calibrated on `blobs` by `method`, its convolutions but `float_layers` in
    8 bits (int8 weights per channel, uint8 activations), written to `out` with its JSON
    metadata beside it, `note` added."""
    input_name = onnxruntime.InferenceSession(str(float_path), providers=["CPUExecutionProvider"]).get_inputs()[0].name
    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        # The detector's input is any size: shapes are left to the runtime, not inferred.
        quant_pre_process(str(float_path), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(out), Blobs(input_name, blobs), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        op_types_to_quantize=["Conv"], nodes_to_exclude=list(float_layers), calibrate_method=method,
                        extra_options={"CalibMaxIntermediateOutputs": 32})
    meta = json.loads(float_path.with_suffix(".json").read_text(encoding="utf-8"))
    meta["quantized"] = note
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def _metadata(onnx_path: Path) -> dict[str, object]:
    """The JSON written beside a model file."""
    return json.loads(onnx_path.with_suffix(".json").read_text(encoding="utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, default=FLOAT_MODELS,
                        help="a TOML whose [vision.learned] paths name the float models (default: %(default)s)")
    parser.add_argument("--calibrate", nargs="+", required=True, help="FOLDER[:even|odd] ... images the reader reads")
    parser.add_argument("--expect", choices=("macao", "any"), default="macao")
    parser.add_argument("--crop-method", choices=sorted(CALIBRATION_METHODS), default="minmax",
                        help="how the crop nets' activation ranges are set")
    parser.add_argument("--detector-method", choices=sorted(CALIBRATION_METHODS), default="minmax",
                        help=f"how the detector's ranges are set (other than minmax: on {DETECTOR_TILE} px tiles of "
                             "the frames it saw, as those calibrations take inputs of one size)")
    parser.add_argument("--every-convolution", action="store_true",
                        help="quantize the convolutions the tool otherwise keeps in float as well")
    parser.add_argument("--seed", type=int, default=1, help="which of the inputs are kept for calibration")
    parser.add_argument("--out", type=Path, required=True, help="folder for the <name>.int8.onnx files")
    args = parser.parse_args()
    params = load_vision_params(args.config).with_tray(WHOLE_FRAME)
    learned = load_learned_params(args.config)
    loaded = learned_models(learned)
    if isinstance(loaded, str):
        raise SystemExit(loaded)
    models, _ = loaded
    quantized = [path for path in (learned.detector_path, learned.classifier_path, learned.second_classifier_path,
                                   learned.lean_path) if path and "quantized" in _metadata(model_path(path))]
    if quantized:
        raise SystemExit(f"{args.config} names 8-bit models ({', '.join(quantized)}); quantize the float ones "
                         f"(without --config: {FLOAT_MODELS.name} beside this tool names them)")
    crop_nets = [(learned.classifier_path, models.classifier)]
    crop_nets += list(zip((learned.second_classifier_path,) if models.extra_classifiers else (),
                          models.extra_classifiers))
    crop_nets += [(learned.lean_path, models.lean)] if models.lean is not None else []
    detector_float, crop_float = ((), ()) if args.every_convolution else (DETECTOR_FLOAT_LAYERS,
                                                                          (FIRST_CONV_OF_A_CROP_NET,))
    plans = [(learned.detector_path, models.detector, MOST_FRAMES, detector_float,
              CALIBRATION_METHODS[args.detector_method])]
    plans += [(path, net, MOST_CROPS, crop_float, CALIBRATION_METHODS[args.crop_method]) for path, net in crop_nets]
    recorders = []
    for _path, holder, most, _layers, _method in plans:
        recorders.append(RecordingNet(holder._net, most, args.seed))  # the tool listens in on the reader's own nets
        holder._net = recorders[-1]
    images = load_specs(args.calibrate)
    for image in images:
        read_dice(image.load(), params, expect=args.expect, learned=learned)
    args.out.mkdir(parents=True, exist_ok=True)
    for (path, _holder, _most, float_layers, method), recorder in zip(plans, recorders):
        source = model_path(path)
        out = args.out / f"{source.stem}.int8.onnx"
        kept = f"but {', '.join(float_layers)}" if float_layers else "all"
        note = (f"int8 (QDQ: convolutions {kept}; per-channel weights; {method.name}) "
                f"from {source.name}, "
                f"calibrated on {len(recorder.blobs)} of the {recorder.seen} inputs the reader gave it reading "
                f"{len(images)} images of {' '.join(args.calibrate)} ({args.expect})")
        blobs = recorder.blobs
        if path == learned.detector_path and method is not CalibrationMethod.MinMax:
            blobs = tiles(blobs, DETECTOR_TILE)
            note += f", cut into {len(blobs)} tiles of {DETECTOR_TILE} px"
        quantize(source, blobs, out, float_layers, method, note)
        print(f"{out}: {out.stat().st_size / 1e6:.2f} MB (float {source.stat().st_size / 1e6:.2f} MB), "
              f"{len(recorder.blobs)} calibration inputs")


if __name__ == "__main__":
    main()
