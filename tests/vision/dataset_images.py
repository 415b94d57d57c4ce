"""Labelled development images for the tests that read real files (each test is skipped when
shared/datasets is absent, as on a machine without the datasets)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.evaluate import LabelledDie, load_labels
from vision.params import REPO_ROOT

DATASETS = REPO_ROOT.parent / "shared" / "datasets"


def labelled_image(dataset: str, image: str) -> tuple[np.ndarray, list[LabelledDie]]:
    """The image of `dataset` (a folder under shared/datasets) and its labelled dice."""
    folder = DATASETS / dataset
    if not (folder / "images" / image).is_file():
        pytest.skip(f"{folder} not available")
    frame = cv2.imread(str(folder / "images" / image), cv2.IMREAD_COLOR)
    label = next((folder / "labels").glob(Path(image).stem + ".*"))
    return frame, load_labels(label, frame.shape[1], frame.shape[0])
