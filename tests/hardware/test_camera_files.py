"""The OpenCV source on a real video file, and the folder replay, read through OpenCV."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import CameraError, CameraSettings, FolderCamera, OpenCVCamera, make_camera

SIZE = (160, 120)
MOTION = (40, 30)


def level_frame(level: int, channels: int = 3) -> np.ndarray:
    """A flat frame whose grey level identifies it after lossy compression."""
    shape = (SIZE[1], SIZE[0], channels) if channels > 1 else (SIZE[1], SIZE[0])
    return np.full(shape, level, np.uint8)


def write_video(path: Path, levels: list[int]) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, SIZE)
    assert writer.isOpened()
    for level in levels:
        writer.write(level_frame(level))
    writer.release()


def settings(**changes: object) -> CameraSettings:
    base = dict(source="auto", device="", folder="", loop=True, main_size=(2304, 1296),
                motion_size=MOTION, frame_rate=15.0, exposure_settle_frames=0, focus_dioptres=0.0)
    base.update(changes)
    return CameraSettings(**base)  # type: ignore[arg-type]


def test_video_file_frames_come_in_order_as_bgr_uint8_and_loop(tmp_path: Path) -> None:
    video = tmp_path / "roll.avi"
    write_video(video, [40, 120, 200])
    camera = OpenCVCamera(str(video), (2304, 1296), MOTION, loop=True)
    camera.open()
    frames = [camera.read_main() for _ in range(4)]
    assert all(f.shape == (SIZE[1], SIZE[0], 3) and f.dtype == np.uint8 for f in frames)
    assert [round(float(f.mean()) / 40) * 40 for f in frames] == [40, 120, 200, 40]
    camera.close()


def test_video_file_without_loop_ends_with_a_camera_error(tmp_path: Path) -> None:
    video = tmp_path / "short.avi"
    write_video(video, [60])
    camera = OpenCVCamera(str(video), (2304, 1296), MOTION, loop=False)
    camera.open()
    camera.read_main()
    with pytest.raises(CameraError, match="delivered no frame"):
        camera.read_main()


def test_motion_read_then_main_read_show_the_same_moment(tmp_path: Path) -> None:
    video = tmp_path / "pair.avi"
    write_video(video, [40, 200])
    camera = OpenCVCamera(str(video), (2304, 1296), MOTION, loop=True)
    camera.open()
    small = camera.read_motion()
    assert small.shape == (MOTION[1], MOTION[0], 3)
    assert abs(float(camera.read_main().mean()) - float(small.mean())) < 3
    assert abs(float(camera.read_main().mean()) - 200) < 8  # a second main read moves on


def test_missing_device_is_a_camera_error() -> None:
    camera = OpenCVCamera("/nonexistent/video.avi", (2304, 1296), MOTION, loop=True)
    with pytest.raises(CameraError, match="cannot open camera '/nonexistent/video.avi'"):
        camera.open()


def test_folder_replays_in_natural_order_and_converts_grey_and_alpha(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "frame10.png"), level_frame(30))
    cv2.imwrite(str(tmp_path / "frame2.png"), level_frame(20, channels=1))
    cv2.imwrite(str(tmp_path / "frame1.png"), np.dstack([level_frame(10), level_frame(255, 1)]))
    (tmp_path / "notes.txt").write_text("not a frame")
    camera = FolderCamera(tmp_path, MOTION, loop=False)
    camera.open()
    frames = [camera.read_main() for _ in range(3)]
    assert [int(f[0, 0, 0]) for f in frames] == [10, 20, 30]
    assert all(f.ndim == 3 and f.shape[2] == 3 and f.dtype == np.uint8 for f in frames)
    with pytest.raises(CameraError, match="has no more images"):
        camera.read_main()


def test_folder_with_an_unreadable_image_names_it_and_moves_on(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"not really a png")
    cv2.imwrite(str(tmp_path / "b.png"), level_frame(77))
    camera = FolderCamera(tmp_path, MOTION, loop=True)
    camera.open()
    with pytest.raises(CameraError, match=r"a\.png: missing or not a readable image"):
        camera.read_motion()
    assert int(camera.read_motion()[0, 0, 0]) == 77


def test_empty_or_missing_folder_is_a_camera_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="holds no images"):
        FolderCamera(tmp_path, MOTION, loop=True).open()
    with pytest.raises(CameraError, match="does not exist"):
        FolderCamera(tmp_path / "gone", MOTION, loop=True).open()


def test_unplugged_folder_fails_then_recovers_when_it_returns(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "1.png"), level_frame(50))
    camera = FolderCamera(folder, MOTION, loop=True)
    camera.open()
    assert int(camera.read_main()[0, 0, 0]) == 50
    (folder / "1.png").rename(tmp_path / "1.png")
    folder.rmdir()
    with pytest.raises(CameraError):
        camera.read_main()
    camera.close()
    with pytest.raises(CameraError, match="does not exist"):
        camera.open()
    folder.mkdir()
    (tmp_path / "1.png").rename(folder / "1.png")
    camera.open()
    assert int(camera.read_main()[0, 0, 0]) == 50


def test_auto_without_picamera2_prefers_a_set_folder_then_the_device(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "picamera2", None)
    assert isinstance(make_camera(settings(folder=str(tmp_path), device="0")), FolderCamera)
    assert isinstance(make_camera(settings(device="0")), OpenCVCamera)
    assert make_camera(settings()) is None
    assert make_camera(settings(source="none", device="0")) is None
