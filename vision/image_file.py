"""Reading an image file into a BGR uint8 frame without letting the file decide how much memory it takes.

A 30000x30000 PNG decodes to 2.7 GB before any check could look at it, and a
JPEG whose header claims 65500x65500 makes OpenCV raise. So the size a PNG,
JPEG or BMP header states is read first and refused above MAX_PIXELS (the
largest frame a supported camera gives); other formats meet OpenCV's own limit
(OPENCV_IO_MAX_IMAGE_PIXELS, which `python -m vision` sets before OpenCV loads).
16-bit frames are scaled to 8 bits, not clipped; every OpenCV error becomes a
plain reason naming the file.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

MAX_PIXELS = 4608 * 3456  # the Pi Camera Module 3's full frame, the largest [camera] size allowed
# OpenCV reads its own limit once, when it loads: imported first, this module sets it for every format.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
HEADER_BYTES = 64 * 1024  # JPEG metadata (EXIF, thumbnails) may come before the frame header
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG_FRAME_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


class ImageFileError(Exception):
    """An image file that cannot be used as a frame; the text names the file and why."""


def stated_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) as a PNG, JPEG or BMP header states it; None for other formats or no header."""
    if head.startswith(_PNG) and head[12:16] == b"IHDR" and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    if head.startswith(b"BM") and len(head) >= 26:
        width, height = struct.unpack("<ii", head[18:26])
        return abs(width), abs(height)
    if head.startswith(b"\xff\xd8"):
        return _jpeg_size(head)
    return None


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    """Walk the JPEG segments to the frame header (SOFn) and read its height and width."""
    at = 2
    while at + 4 <= len(head):
        if head[at] != 0xFF:
            return None
        marker = head[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # no length follows these
            at += 2
            continue
        length = struct.unpack(">H", head[at + 2 : at + 4])[0]
        if marker in _JPEG_FRAME_MARKERS:
            if at + 9 > len(head):
                return None
            height, width = struct.unpack(">HH", head[at + 5 : at + 9])
            return width, height
        at += 2 + length
    return None


def read_image(path: Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """The file as a BGR uint8 frame (alpha dropped, 16 bits scaled); ImageFileError otherwise.

    A grey image is refused: the reader names dice by colour.
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(HEADER_BYTES)
    except IsADirectoryError:
        raise ImageFileError(f"{path}: a folder, not an image") from None
    except FileNotFoundError:
        raise ImageFileError(f"{path}: no such file") from None
    except OSError as err:
        raise ImageFileError(f"{path}: cannot be read ({err.strerror or err})") from None
    size = stated_size(head)
    if size is not None and size[0] * size[1] > max_pixels:
        raise ImageFileError(f"{path}: {size[0]}x{size[1]} pixels by its header, more than the "
                             f"{max_pixels:,} a frame may have; shrink it first")
    try:
        frame = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    except cv2.error as err:
        raise ImageFileError(f"{path}: OpenCV cannot decode it ({_first_line(err)})") from None
    if frame is None:
        raise ImageFileError(f"{path}: not an image OpenCV can read")
    return to_frame(frame, path, max_pixels)


def to_frame(frame: np.ndarray, path: Path, max_pixels: int) -> np.ndarray:
    """Bring a decoded image to 3-channel BGR uint8, or say why it cannot be one."""
    if frame.shape[0] * frame.shape[1] > max_pixels:
        raise ImageFileError(f"{path}: {frame.shape[1]}x{frame.shape[0]} pixels, more than the "
                             f"{max_pixels:,} a frame may have; shrink it first")
    if frame.dtype == np.uint16:
        frame = (frame >> 8).astype(np.uint8)  # the top 8 of 16 bits: the whole range, scaled
    elif frame.dtype != np.uint8:
        raise ImageFileError(f"{path}: {frame.dtype} pixels; an 8- or 16-bit image is needed")
    if frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] == 1):
        raise ImageFileError(f"{path}: a one-channel (grey) image; a colour image is needed")
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


def _first_line(err: Exception) -> str:
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return lines[-1] if lines else type(err).__name__
