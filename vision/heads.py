"""A classifier's last layer refitted to one table (`vision adapt`), and the net that reads with it.

Each shipped classifier `<name>.onnx` has its features net beside it, `<name>.features.onnx`
(tools/training/features_net.py): the classifier without its last layer. That layer only weighs
the features net's output into the seven logits, and its JSON keeps the shipped weights. A
refit changes that layer alone: a thousand numbers a classifier, fitted on a Pi in seconds from
the table's own rolls, and read as the classifier is, the features net then the layer. The
refitted layers of a table lie in one file, by the classifier file's name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.atomic_file import write_atomically
from vision.onnx_net import OnnxNet

HEADS_VERSION = 1


@dataclass(frozen=True)
class Head:
    """A classifier's last layer: logits = features @ weight.T + bias."""

    weight: np.ndarray  # classes x features, float32
    bias: np.ndarray  # classes, float32

    @classmethod
    def from_json(cls, data: object, where: str) -> Head:
        """From {"weight": [[...]], "bias": [...]}; ValueError saying what is wrong and `where`."""
        if not isinstance(data, dict):
            raise ValueError(f"{where}: a layer is an object with a weight and a bias")
        try:
            weight = np.array(data["weight"], np.float32)
            bias = np.array(data["bias"], np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: a layer's weight and bias are lists of numbers ({exc})") from None
        if weight.ndim != 2 or bias.shape != (weight.shape[0],) or weight.size == 0:
            raise ValueError(f"{where}: a weight of classes x features and a bias per class, got "
                             f"{weight.shape} and {bias.shape}")
        if not (np.isfinite(weight).all() and np.isfinite(bias).all()):
            raise ValueError(f"{where}: the layer holds a number that is not finite")
        return cls(weight, bias)

    def to_json(self) -> dict[str, object]:
        return {"weight": self.weight.tolist(), "bias": self.bias.tolist()}


class HeadedNet:
    """A features net followed by a last layer: the classifier, with that layer as given."""

    def __init__(self, features: OnnxNet, head: Head) -> None:
        self._features = features
        self.head = head
        self.runtime = features.runtime

    def run(self, blob: np.ndarray) -> np.ndarray:
        features = self._features.run(blob).reshape(len(blob), -1)
        if features.shape[1] != self.head.weight.shape[1]:
            raise ValueError(f"the features net gives {features.shape[1]} features, the layer weighs "
                             f"{self.head.weight.shape[1]}")
        return (features @ self.head.weight.T + self.head.bias).astype(np.float32)


def features_path(classifier: Path) -> Path:
    """Where a classifier's features net lies: beside it, `<name>.features.onnx`."""
    return classifier.with_name(f"{classifier.stem}.features.onnx")


def shipped_head(classifier: Path) -> Head:
    """The classifier's own last layer, from its features net's JSON; OSError when there is no
    features net, ValueError naming the file when its JSON holds no usable layer."""
    meta_path = features_path(classifier).with_suffix(".json")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{meta_path}: unreadable ({exc})") from None
    if not isinstance(meta, dict) or "head" not in meta:
        raise ValueError(f"{meta_path}: holds no last layer ('head')")
    return Head.from_json(meta["head"], str(meta_path))


def load_heads(path: Path) -> dict[str, Head]:
    """The refitted layers in `path`, by classifier file name; OSError when it cannot be read,
    ValueError naming it when it is no heads file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: unreadable ({exc})") from None
    if not isinstance(data, dict) or data.get("version") != HEADS_VERSION or not isinstance(data.get("heads"), dict):
        raise ValueError(f"{path}: not a file of refitted layers of version {HEADS_VERSION}")
    return {str(name): Head.from_json(head, f"{path}: {name}") for name, head in data["heads"].items()}


def save_heads(path: Path, heads: dict[str, Head]) -> None:
    """Write the layers (atomically: a run cut short leaves the old file or none); OSError when
    it cannot."""
    text = json.dumps({"version": HEADS_VERSION, "heads": {name: head.to_json() for name, head in heads.items()}})
    write_atomically(path, text + "\n")

