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


def lamp_on_face(image: np.ndarray, rng: np.random.Generator, face_px: float, sheen: float, glare: float) -> np.ndarray:
    """A crop centred on a die with the lamp mirrored in its top face (`face_px`: the face's side in px).

    With chance `sheen` a soft light disc over the face's middle (a glossy face seen near the lamp's
    reflection: pale centre, coloured rim, faint pips); with chance `glare` a small bright spot
    anywhere on the face, sometimes over a pip, so that a spot hiding a pip is not read as no pip."""
    do_sheen, do_glare = rng.random() < sheen, rng.random() < glare
    if not (do_sheen or do_glare):
        return image
    out = image.astype(np.float32)
    size = image.shape[0]
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) + 0.5
    centre = size / 2.0
    if do_sheen:
        cx, cy = centre + rng.uniform(-0.15, 0.15, 2) * face_px
        radius = rng.uniform(0.3, 0.55) * face_px
        weight = np.clip(1.0 - np.hypot(xx - cx, yy - cy) / radius, 0.0, 1.0) ** 0.6 * rng.uniform(0.35, 0.75)
        tone = rng.uniform(190, 250) * rng.uniform(0.92, 1.0, 3).astype(np.float32)
        out = out * (1.0 - weight[..., None]) + tone * weight[..., None]
    if do_glare:
        cx, cy = centre + rng.uniform(-0.35, 0.35, 2) * face_px
        radius = rng.uniform(0.08, 0.2) * face_px  # softer and mostly larger than a pip
        weight = np.exp(-0.5 * (np.hypot(xx - cx, yy - cy) / radius) ** 2)
        out = out * (1.0 - weight[..., None]) + rng.uniform(225, 255) * weight[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def random_flip_rot90(image: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, int, bool]:
    """The image turned by a random multiple of 90 degrees and maybe mirrored (and how)."""
    turns = int(rng.integers(4))
    flip = bool(rng.random() < 0.5)
    image = np.rot90(image, turns)
    if flip:
        image = image[:, ::-1]
    return np.ascontiguousarray(image), turns, flip
