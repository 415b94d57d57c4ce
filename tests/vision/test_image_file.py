"""Image files as frames: sizes refused from the header before decoding, 16 bits scaled, OpenCV's errors in words."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.image_file import MAX_PIXELS, ImageFileError, read_image, stated_size

REPO_ROOT = Path(__file__).resolve().parents[2]


def vision_read(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vision", "read", *map(str, paths)], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)


def jpeg_claiming(width: int, height: int) -> bytes:
    """A JPEG whose frame header (after an APP0 segment) claims a size; no picture data follows."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + bytes.fromhex("011100021101031101")
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def test_headers_state_their_size() -> None:
    assert stated_size(jpeg_claiming(65500, 65000)) == (65500, 65000)
    png = cv2.imencode(".png", np.zeros((7, 9, 3), np.uint8))[1].tobytes()
    bmp = cv2.imencode(".bmp", np.zeros((7, 9, 3), np.uint8))[1].tobytes()
    assert stated_size(png) == (9, 7) and stated_size(bmp) == (9, 7)
    assert stated_size(b"GIF89a") is None


def test_frames_over_the_limit_are_refused_before_decoding(tmp_path: Path) -> None:
    wide = tmp_path / "wide.png"
    cv2.imwrite(str(wide), np.zeros((4000, 5000, 3), np.uint8))  # 20 MP, a few kB on disk
    claimed = tmp_path / "claimed.jpg"
    claimed.write_bytes(jpeg_claiming(65500, 65500))
    tiff = tmp_path / "wide.tiff"  # no header of ours: OpenCV's own limit refuses it
    cv2.imwrite(str(tiff), np.zeros((4000, 5000, 3), np.uint8))
    result = vision_read(wide, claimed, tiff)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "cv2.error" not in result.stderr
    assert f"{wide}: 5000x4000 pixels by its header, more than the {MAX_PIXELS:,}" in result.stderr
    assert f"{claimed}: 65500x65500 pixels by its header" in result.stderr
    assert f"{tiff}: " in result.stderr


def test_the_largest_frame_allowed_is_read(tmp_path: Path) -> None:
    largest = tmp_path / "largest.png"
    cv2.imwrite(str(largest), np.zeros((3456, 4608, 3), np.uint8))
    assert read_image(largest).shape == (3456, 4608, 3)


def test_sixteen_bit_frames_are_scaled_not_clipped(tmp_path: Path) -> None:
    deep = tmp_path / "deep.png"
    levels = np.array([0, 1000, 20000, 40000, 65535], np.uint16)
    cv2.imwrite(str(deep), np.dstack([np.tile(levels, (4, 1))] * 3))
    frame = read_image(deep)
    assert frame.dtype == np.uint8
    assert list(frame[0, :, 0]) == [0, 3, 78, 156, 255]  # 40000 is not clipped to 255


@pytest.mark.parametrize("content", [b"", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, jpeg_claiming(640, 480)],
                         ids=["empty", "cut-png", "jpeg-without-data"])
def test_broken_files_give_a_reason_naming_the_file(tmp_path: Path, content: bytes) -> None:
    broken = tmp_path / "broken.png"
    broken.write_bytes(content)
    with pytest.raises(ImageFileError, match=f"^{broken}: "):
        read_image(broken)
