"""More table surfaces for the drawn scenes: what a player's table may look like and the
reader must not depend on (light and dark wood, felt, cloth, newspaper, carpet, a printed
game board with ships, harbours and hexes). Linear RGB, drawn in image space, deterministic
per generator; pure numpy + OpenCV. `tools.synth` draws its own four tables and asks here
for these."""

from __future__ import annotations

import math

import cv2
import numpy as np

MORE_TABLES: tuple[str, ...] = ("light_wood", "dark_wood", "felt", "cloth", "paper", "board", "carpet")

# Felt and cloth come in any of these (sRGB): green, red, blue, purple, black, beige.
_CLOTH_SRGB = ((0.12, 0.38, 0.18), (0.55, 0.10, 0.10), (0.10, 0.20, 0.50), (0.35, 0.15, 0.45),
               (0.08, 0.08, 0.09), (0.78, 0.72, 0.60))
# A printed board's palette (sRGB): sea, land, sand, roof red, ink.
_BOARD_SEA = (0.22, 0.45, 0.62)
_BOARD_LAND = ((0.55, 0.62, 0.35), (0.72, 0.62, 0.42), (0.60, 0.50, 0.38))
_BOARD_INK = ((0.12, 0.10, 0.09), (0.85, 0.82, 0.74), (0.70, 0.15, 0.12), (0.90, 0.75, 0.25))


def _linear(srgb: object) -> np.ndarray:
    return np.asarray(srgb, np.float32) ** 2.2


def _smooth_noise(rng: np.random.Generator, width: int, height: int, cells: int) -> np.ndarray:
    small = rng.standard_normal((max(2, height * cells // width), cells)).astype(np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)


def more_table(kind: str, width: int, height: int, die_px: float, rng: np.random.Generator) -> np.ndarray:
    """The table surface `kind` (one of MORE_TABLES), (height, width, 3) linear RGB float32.
    `die_px` scales the patterns: board art and cloth checks come at a die's size and above."""
    if kind not in MORE_TABLES:
        raise ValueError(f"unknown table {kind!r}; choose one of {', '.join(MORE_TABLES)}")
    grain = rng.standard_normal((height, width)).astype(np.float32)
    if kind in ("light_wood", "dark_wood"):
        return _wood(kind == "light_wood", width, height, grain, rng)
    if kind == "felt":
        base = _linear(_CLOTH_SRGB[int(rng.integers(len(_CLOTH_SRGB)))]) * rng.uniform(0.8, 1.15)
        tex = 1 + 0.05 * _smooth_noise(rng, width, height, 16) + 0.08 * cv2.GaussianBlur(grain, (0, 0), 0.8)
        return (base[None, None, :] * tex[..., None]).astype(np.float32)
    if kind == "cloth":
        return _cloth(width, height, die_px, grain, rng)
    if kind == "paper":
        return _newspaper(width, height, die_px, grain, rng)
    if kind == "carpet":
        return _carpet(width, height, grain, rng)
    return _board(width, height, die_px, grain, rng)


def _wood(light: bool, width: int, height: int, grain: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Planks with rings and streaks: pale birch or maple, or dark walnut."""
    srgb = (0.82, 0.68, 0.50) if light else (0.30, 0.18, 0.10)
    base = _linear(srgb) * rng.uniform(0.85, 1.1)
    angle = rng.uniform(-0.3, 0.3) + (math.pi / 2 if rng.random() < 0.5 else 0.0)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    across = -xx * math.sin(angle) + yy * math.cos(angle)
    period = rng.uniform(12, 40) * width / 1600
    warp = 5.0 * _smooth_noise(rng, width, height, 6) * period / 10
    rings = np.sin(2 * math.pi * (across + warp) / period)
    streaks = cv2.GaussianBlur(grain, (0, 0), 1.0)
    kernel = max(3, int(width / 30)) | 1
    streaks = cv2.blur(streaks, (kernel, 1)) if abs(math.cos(angle)) > 0.5 else cv2.blur(streaks, (1, kernel))
    plank = rng.uniform(0.12, 0.3) * max(width, height)
    seams = (np.abs(((across + 0.5 * plank) % plank) - 0.5 * plank) > 1.5).astype(np.float32)
    tex = (1 + 0.08 * rings + 0.6 * streaks + 0.05 * _smooth_noise(rng, width, height, 4)) * (0.55 + 0.45 * seams)
    return (base[None, None, :] * tex[..., None]).astype(np.float32)


def _cloth(width: int, height: int, die_px: float, grain: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A woven table cloth: a fine weave and, in most cloths, a check of two colours."""
    first = _linear(_CLOTH_SRGB[int(rng.integers(len(_CLOTH_SRGB)))])
    second = _linear((0.88, 0.86, 0.80)) if rng.random() < 0.7 else first * 0.5
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    weave = 1 + 0.06 * np.sin(xx * 2.1) * np.sin(yy * 2.1) + 0.05 * grain
    check = rng.uniform(0.6, 2.5) * die_px
    stripes_x = (np.sin(2 * math.pi * xx / check) > 0).astype(np.float32)
    stripes_y = (np.sin(2 * math.pi * yy / check) > 0).astype(np.float32)
    mix = (0.5 * stripes_x + 0.5 * stripes_y)[..., None] if rng.random() < 0.8 else np.zeros((height, width, 1))
    cloth = first[None, None, :] * (1 - mix) + second[None, None, :] * mix
    return (cloth * weave[..., None]).astype(np.float32)


def _newspaper(width: int, height: int, die_px: float, grain: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Newsprint: greyish paper, columns of text lines, headlines and a photo or two."""
    paper = _linear((0.86, 0.84, 0.78)) * rng.uniform(0.85, 1.05)
    canvas = np.ones((height, width), np.float32)
    line = max(2, int(die_px * rng.uniform(0.12, 0.25)))
    column = max(20, int(die_px * rng.uniform(3, 6)))
    for x0 in range(int(rng.integers(0, column // 2)), width, column):
        y = int(rng.integers(0, 3 * line))
        while y < height:
            if rng.random() < 0.04:  # a headline
                cv2.rectangle(canvas, (x0, y), (x0 + column - 6, y + 3 * line), 0.25, -1)
                y += 5 * line
                continue
            length = int((column - 6) * rng.uniform(0.6, 1.0))
            for x in range(x0, x0 + length, max(3, line * 2)):
                cv2.rectangle(canvas, (x, y), (x + int(line * rng.uniform(0.8, 1.8)), y + line - 1),
                              float(rng.uniform(0.2, 0.45)), -1)
            y += 2 * line
    for _ in range(int(rng.integers(0, 3))):  # photos: smooth grey patches
        x, y = int(rng.integers(width)), int(rng.integers(height))
        size = int(die_px * rng.uniform(2, 5))
        patch = 0.55 + 0.25 * _smooth_noise(rng, size, size, 4)
        canvas[y:y + size, x:x + size] = patch[: height - y, : width - x]
    tex = cv2.GaussianBlur(canvas, (0, 0), 0.6) * (1 + 0.02 * grain)
    return (paper[None, None, :] * tex[..., None]).astype(np.float32)


def _carpet(width: int, height: int, grain: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A speckled carpet: a mid colour with many small flecks of others."""
    base = _linear(_CLOTH_SRGB[int(rng.integers(len(_CLOTH_SRGB)))]) * rng.uniform(0.6, 1.2)
    flecks = rng.random((height, width)).astype(np.float32)
    carpet = np.repeat((0.7 + 0.3 * cv2.GaussianBlur(grain, (0, 0), 1.2))[..., None], 3, axis=2) * base
    palette = np.array([_linear(c) for c in ((0.9, 0.9, 0.85), (0.1, 0.1, 0.1), (0.6, 0.4, 0.2))])
    for k, colour in enumerate(palette):
        spots = cv2.GaussianBlur(((flecks > 0.985 - 0.005 * k) & (flecks < 0.99 - 0.005 * k)).astype(np.float32),
                                 (0, 0), 0.7)
        carpet = carpet * (1 - spots[..., None]) + colour * spots[..., None]
    return carpet.astype(np.float32)


def _board(width: int, height: int, die_px: float, grain: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A printed game board: sea and land, a hex grid, harbours, ships, round and square
    tokens printed on it (some die-sized, with dots), roads and an ink frame."""
    sea = _linear(_BOARD_SEA) * rng.uniform(0.8, 1.15)
    land = _linear(_BOARD_LAND[int(rng.integers(len(_BOARD_LAND)))])
    coast = _smooth_noise(rng, width, height, 4) > rng.uniform(-0.4, 0.4)
    canvas = np.where(coast[..., None], land[None, None, :], sea[None, None, :]).astype(np.float32)
    canvas = canvas * (1 + 0.05 * _smooth_noise(rng, width, height, 30)[..., None])
    ink = [_linear(c) for c in _BOARD_INK]
    hex_r = die_px * rng.uniform(1.2, 2.5)
    dx, dy = hex_r * math.sqrt(3), hex_r * 1.5
    outline = [(hex_r * math.cos(math.pi / 6 + k * math.pi / 3), hex_r * math.sin(math.pi / 6 + k * math.pi / 3))
               for k in range(6)]
    thickness = max(1, int(die_px / 25))
    for row in range(int(height / dy) + 2):
        for col in range(int(width / dx) + 2):
            cx, cy = col * dx + (dx / 2 if row % 2 else 0), row * dy
            poly = np.array([(cx + x, cy + y) for x, y in outline], np.int32)
            cv2.polylines(canvas, [poly], True, (ink[0] * 1.5).tolist(), thickness, cv2.LINE_AA)
    for _ in range(int(rng.integers(4, 10))):  # harbours, ships, tokens
        x, y = float(rng.uniform(0, width)), float(rng.uniform(0, height))
        size = die_px * rng.uniform(0.6, 1.6)
        colour = ink[int(rng.integers(len(ink)))].tolist()
        shape = int(rng.integers(4))
        if shape == 0:  # a ship: hull and a sail
            hull = np.array([(x - size, y), (x + size, y), (x + 0.6 * size, y + 0.45 * size),
                             (x - 0.6 * size, y + 0.45 * size)], np.int32)
            sail = np.array([(x, y - 1.2 * size), (x, y - 0.05 * size), (x + 0.8 * size, y - 0.1 * size)], np.int32)
            cv2.fillPoly(canvas, [hull], colour, cv2.LINE_AA)
            cv2.fillPoly(canvas, [sail], ink[1].tolist(), cv2.LINE_AA)
        elif shape == 1:  # a harbour: a quay with a house
            cv2.rectangle(canvas, (int(x), int(y)), (int(x + 2 * size), int(y + 0.5 * size)), colour, -1)
            cv2.rectangle(canvas, (int(x + 0.3 * size), int(y - 0.7 * size)), (int(x + 1.1 * size), int(y)),
                          ink[2].tolist(), -1)
        elif shape == 2:  # a round token with a number
            cv2.circle(canvas, (int(x), int(y)), int(size * 0.6), colour, -1, cv2.LINE_AA)
            cv2.circle(canvas, (int(x), int(y)), max(1, int(size * 0.12)), ink[0].tolist(), -1, cv2.LINE_AA)
        else:  # a die-sized square printed with dots: what must never be read as a die
            half = size / 2
            cv2.rectangle(canvas, (int(x - half), int(y - half)), (int(x + half), int(y + half)), colour, -1)
            dot = (ink[1] if float(np.mean(colour)) < 0.3 else ink[0]).tolist()
            for _dot in range(int(rng.integers(1, 7))):
                ox, oy = rng.uniform(-0.5, 0.5, 2) * half
                cv2.circle(canvas, (int(x + ox), int(y + oy)), max(1, int(size * 0.09)), dot, -1, cv2.LINE_AA)
    border = max(2, int(die_px * 0.3))
    cv2.rectangle(canvas, (border, border), (width - border, height - border), ink[0].tolist(), border // 2)
    canvas *= (1 + 0.015 * grain)[..., None]
    return canvas.astype(np.float32)
