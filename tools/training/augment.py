"""Photometric augmentation shared by both trainings: the reader must not depend on die
colour, light, white balance, sharpness or noise, so all of these are varied at random."""

from __future__ import annotations

import cv2
import numpy as np


def photometric(image: np.ndarray, rng: np.random.Generator, washout: float = 0.0) -> np.ndarray:
    """A randomly re-lit, re-coloured, blurred and noisy copy of a BGR uint8 image.

    `washout` is the share of copies pulled towards a light tone, as an over-exposed or
    glossy face looks: pale body, light pips that barely stand out from it."""
    out = image.astype(np.float32)
    if rng.random() < 0.5:
        out = out[:, :, rng.permutation(3)]  # die colours the sets do not hold
    if rng.random() < 0.1:
        out = np.repeat(out.mean(axis=2, keepdims=True), 3, axis=2)
    if rng.random() < 0.12:
        out = 255.0 - out  # dark pips on light dice and the reverse
    out = out * rng.uniform(0.85, 1.15, 3).astype(np.float32)  # white balance
    out = (out - 128.0) * rng.uniform(0.6, 1.3) + 128.0 + rng.uniform(-45, 45)
    out = np.clip(out, 0, 255)
    out = 255.0 * (out / 255.0) ** rng.uniform(0.7, 1.4)
    if washout and rng.random() < washout:  # no draw when off: the detector's seeded recipe stays as it was
        keep = rng.uniform(0.35, 0.8)
        tone = rng.uniform(195, 255) * rng.uniform(0.92, 1.0, 3).astype(np.float32)
        out = out * keep + tone * (1.0 - keep)
    if rng.random() < 0.35:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.3))
    if rng.random() < 0.6:
        out = out + rng.normal(0, rng.uniform(1, 9), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def random_flip_rot90(image: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, int, bool]:
    """The image turned by a random multiple of 90 degrees and maybe mirrored (and how)."""
    turns = int(rng.integers(4))
    flip = bool(rng.random() < 0.5)
    image = np.rot90(image, turns)
    if flip:
        image = image[:, ::-1]
    return np.ascontiguousarray(image), turns, flip
