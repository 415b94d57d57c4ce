"""Running one ONNX network on the CPU: by onnxruntime when it is installed, else by OpenCV's DNN.

Both give the same outputs (to float rounding). onnxruntime runs the reader's small nets about
twice as fast (a whole read in two thirds of the time) but costs the app some 28 MB more; it has
no wheel for 32-bit Raspberry Pi OS, where OpenCV's DNN module (always there) takes over.
`runtime` in [vision.learned] picks one: "auto" (onnxruntime if it imports), "onnxruntime" or
"opencv".

onnxruntime's wheels (1.32) keep a queue of usage events (the computer, the models' names, run
times) under ~/.cache/Microsoft and send it to Microsoft (except where they see a CI service). A table's computer sends nothing
anywhere and writes nothing it does not need, so this module switches that off. The switch is
read when onnxruntime is first imported, so it is set as soon as this module is.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Protocol, TypeVar

import cv2
import numpy as np

from vision.learned_params import RUNTIMES

os.environ["ORT_DISABLE_TELEMETRY"] = "1"


def image_blob(images: np.ndarray) -> np.ndarray:
    """N x H x W x 3 uint8 images as the nets' input, N x 3 x H x W float32 in 0-1 (channels
    kept in BGR order). It is what cv2.dnn.blobFromImages makes, in a quarter of its time."""
    blob = np.empty((images.shape[0], images.shape[3], images.shape[1], images.shape[2]), np.float32)
    np.multiply(images.transpose(0, 3, 1, 2), np.float32(1.0 / 255.0), out=blob)
    return blob


class NetError(ValueError):
    """The file is no network the chosen runtime can run; the message names the file."""


class OnnxNet(Protocol):
    """A loaded network: one input blob (N x C x H x W float32) in, its first output out."""

    runtime: str

    def run(self, blob: np.ndarray) -> np.ndarray: ...


class OpenCvNet:
    """The network in OpenCV's DNN module, on the CPU, with OpenCV's thread count. One run at a
    time: a net keeps its input between setInput and forward, so two threads reading at once
    (a roll read while Settings' "Learn from our rolls now" runs) would swap each other's inputs."""

    runtime = "opencv"

    def __init__(self, path: Path) -> None:
        try:
            self._net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as exc:
            raise NetError(f"{path}: OpenCV cannot read this ONNX model") from exc
        self._net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self._net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        self._lock = threading.Lock()

    def run(self, blob: np.ndarray) -> np.ndarray:
        with self._lock:
            self._net.setInput(blob)
            return np.asarray(self._net.forward())


class OnnxRuntimeNet:
    """The network in an onnxruntime session on the CPU. It uses as many threads as OpenCV
    does (`cv2.getNumThreads()` when loaded: the reader's one knob for both), and its threads
    sleep between runs instead of spinning, so the UI keeps its cores."""

    runtime = "onnxruntime"

    def __init__(self, path: Path, onnxruntime: Any) -> None:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # errors only: its warnings are not the player's business
        try:
            self._session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception classes, not one base
            raise NetError(f"{path}: onnxruntime cannot read this ONNX model ({type(exc).__name__})") from exc
        self._input = self._session.get_inputs()[0].name

    def run(self, blob: np.ndarray) -> np.ndarray:
        return np.asarray(self._session.run(None, {self._input: np.ascontiguousarray(blob, np.float32)})[0])


def load_net(path: Path, runtime: str = "auto") -> OnnxNet:
    """The network at `path` in the `runtime` asked for ("auto": onnxruntime if installed).
    NetError for a file it cannot load, or for "onnxruntime" when that is not installed."""
    if runtime not in RUNTIMES:
        raise NetError(f"unknown runtime {runtime!r}; use one of {', '.join(RUNTIMES)}")
    if runtime != "opencv":
        try:
            import onnxruntime
        except ImportError as exc:
            if runtime == "onnxruntime":
                raise NetError("runtime 'onnxruntime' asked for, but onnxruntime is not installed") from exc
        else:
            onnxruntime.disable_telemetry_events()  # for a process that imported it before this module
            return OnnxRuntimeNet(path, onnxruntime)
    return OpenCvNet(path)


CropNetType = TypeVar("CropNetType", bound="CropNet")


class CropNet:
    """A network over square crops cut around a die: the net and the crop geometry it was
    trained for (the classifier's and the leaning check's)."""

    def __init__(self, net: OnnxNet, crop_px: int, window_sides: float) -> None:
        self._net = net
        self.crop_px = crop_px
        self.window_sides = window_sides  # crop width in die sides, as trained

    @classmethod
    def from_onnx(cls: type[CropNetType], net: OnnxNet, meta: dict[str, Any]) -> CropNetType:
        """From a loaded net and its metadata; KeyError/TypeError/ValueError when it lacks the geometry."""
        return cls(net, int(meta["crop_px"]), float(meta["window_sides"]))
