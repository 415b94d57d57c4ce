"""The Pi camera source against a stand-in `picamera2` module that records every call."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from hardware.camera import CameraError, CameraSettings, Picamera2Camera, make_camera

MAIN = (2304, 1296)
LORES = (320, 180)


class RecordingPicamera2:
    """Records configuration and controls the way picamera2's Picamera2 receives them."""

    instances: list[RecordingPicamera2] = []
    fail_on_create: Exception | None = None

    camera_controls: dict[str, Any] = {"LensPosition": (0.0, 15.0, 1.0), "ExposureTime": (1, 66666, None)}

    def __init__(self) -> None:
        if RecordingPicamera2.fail_on_create is not None:
            raise RecordingPicamera2.fail_on_create
        self.calls: list[tuple[str, Any]] = []
        self.controls: list[dict[str, Any]] = []
        self.metadata_reads = 0
        self.unplugged = False
        RecordingPicamera2.instances.append(self)

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", kwargs))
        return {"made_by": "create_video_configuration", **kwargs}

    def configure(self, configuration: dict[str, Any]) -> None:
        self.calls.append(("configure", configuration))

    def start(self) -> None:
        self.calls.append(("start", None))

    def capture_metadata(self) -> dict[str, Any]:
        self.metadata_reads += 1
        # Exposure drifts while the automatic loop settles; the last values must be locked.
        return {"ExposureTime": 10000 + self.metadata_reads, "AnalogueGain": 1.5,
                "ColourGains": (1.9, 1.4), "Lux": 300.0}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.append(dict(controls))

    def capture_array(self, stream: str) -> np.ndarray:
        if self.unplugged:
            raise RuntimeError("Camera frontend has timed out!")
        if stream == "main":
            frame = np.zeros((MAIN[1], MAIN[0], 3), np.uint8)
            frame[..., 0] = 200  # blue, as BGR memory order has it
            return frame
        yuv = np.full((LORES[1] * 3 // 2, LORES[0]), 90, np.uint8)
        yuv[: LORES[1]] = 150  # the luma plane
        return yuv

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def close(self) -> None:
        self.calls.append(("close", None))


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[RecordingPicamera2]]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = RecordingPicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    RecordingPicamera2.instances = []
    RecordingPicamera2.fail_on_create = None
    yield RecordingPicamera2


def open_camera(settle_frames: int = 4, focus: float = 0.0) -> tuple[Picamera2Camera, RecordingPicamera2]:
    camera = Picamera2Camera(MAIN, LORES, frame_rate=15.0, settle_frames=settle_frames, focus_dioptres=focus)
    camera.open()
    return camera, RecordingPicamera2.instances[-1]


def test_configuration_asks_for_a_bgr_main_stream_and_a_small_motion_stream(fake_picamera2) -> None:
    _, device = open_camera()
    assert device.calls[0] == ("create_video_configuration", {
        "main": {"size": MAIN, "format": "RGB888"},
        "lores": {"size": LORES, "format": "YUV420"},
        "controls": {"FrameDurationLimits": (66667, 66667), "AeEnable": True, "AwbEnable": True},
        "queue": False,
    })
    assert device.calls[1][0] == "configure"
    assert device.calls[1][1]["made_by"] == "create_video_configuration"
    assert device.calls[2] == ("start", None)


def test_a_focus_motor_is_set_to_the_configured_distance(fake_picamera2) -> None:
    _, device = open_camera(focus=1.7)
    assert device.calls[0][1]["controls"] == {
        "FrameDurationLimits": (66667, 66667), "AeEnable": True, "AwbEnable": True,
        "AfMode": 0, "LensPosition": 1.7}


def test_a_camera_without_focus_motor_gets_no_focus_controls(fake_picamera2, monkeypatch) -> None:
    monkeypatch.setattr(RecordingPicamera2, "camera_controls", {"ExposureTime": (1, 66666, None)})
    _, device = open_camera(focus=1.7)
    assert "LensPosition" not in device.calls[0][1]["controls"]


def test_exposure_and_white_balance_are_locked_after_settling(fake_picamera2) -> None:
    _, device = open_camera(settle_frames=4)
    assert device.metadata_reads == 5
    assert device.controls == [{"AeEnable": False, "AwbEnable": False, "ExposureTime": 10005,
                                "AnalogueGain": 1.5, "ColourGains": (1.9, 1.4)}]


def test_relock_lets_the_camera_adapt_then_locks_the_new_values(fake_picamera2) -> None:
    camera, device = open_camera(settle_frames=2)
    camera.relock_exposure()
    assert device.controls[1] == {"AeEnable": True, "AwbEnable": True}
    assert device.controls[2] == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 10006,
                                  "AnalogueGain": 1.5, "ColourGains": (1.9, 1.4)}


def test_frames_are_bgr_uint8_and_motion_frames_are_small(fake_picamera2) -> None:
    camera, _ = open_camera()
    main = camera.read_main()
    assert main.shape == (MAIN[1], MAIN[0], 3) and main.dtype == np.uint8
    assert tuple(main[0, 0]) == (200, 0, 0)
    motion = camera.read_motion()
    assert motion.shape == (LORES[1], LORES[0], 3) and motion.dtype == np.uint8
    assert np.all(motion == 150)  # the luma plane, not the chroma rows below it


def test_unplugged_camera_raises_camera_error_and_closes_quietly(fake_picamera2) -> None:
    camera, device = open_camera()
    device.unplugged = True
    with pytest.raises(CameraError, match="capturing a frame failed: Camera frontend has timed out"):
        camera.read_main()
    camera.close()
    camera.close()
    assert device.calls[-2:] == [("stop", None), ("close", None)]


def test_no_camera_attached_is_a_camera_error(fake_picamera2) -> None:
    fake_picamera2.fail_on_create = IndexError("list index out of range")
    camera = Picamera2Camera(MAIN, LORES, frame_rate=15.0, settle_frames=1)
    with pytest.raises(CameraError, match="no Pi camera found"):
        camera.open()


def test_auto_picks_the_pi_camera_when_picamera2_imports(fake_picamera2) -> None:
    settings = CameraSettings(source="auto", device="0", folder="/somewhere", loop=True, main_size=MAIN,
                              motion_size=LORES, frame_rate=15.0, exposure_settle_frames=0,
                              focus_dioptres=0.0)
    assert isinstance(make_camera(settings), Picamera2Camera)


def test_without_picamera2_opening_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes `import picamera2` fail
    camera = Picamera2Camera(MAIN, LORES, frame_rate=15.0, settle_frames=1)
    with pytest.raises(CameraError, match="python3-picamera2"):
        camera.open()
