"""Frame sources for the dice camera, behind one small interface.

Every source hands out BGR uint8 frames: a large "main" frame to read the dice
from and a small "motion" frame to see whether they still move. Any failure
(missing, unplugged, unreadable) is raised as `CameraError` with a message a
player can act on; the dice service turns that into its "camera unavailable"
state. picamera2 is imported only inside `Picamera2Camera`.
"""

from __future__ import annotations

import queue
import re
import threading
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

AF_MODE_MANUAL = 0  # libcamera's controls.AfModeEnum.Manual
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class CameraError(Exception):
    """The camera cannot deliver a frame; the message says which camera and why."""


class Camera(Protocol):
    """What the dice service needs from a camera."""

    description: str

    def open(self) -> None:
        """Start delivering frames; raises CameraError."""

    def read_main(self) -> np.ndarray:
        """The next full-size BGR uint8 frame, for reading dice; raises CameraError."""

    def read_motion(self) -> np.ndarray:
        """The next small BGR uint8 frame, for motion detection; raises CameraError."""

    def relock_exposure(self) -> None:
        """Let exposure and white balance adapt again, then lock them; raises CameraError."""

    def close(self) -> None:
        """Release the device; never raises."""


@dataclass(frozen=True)
class CameraSettings:
    """The [camera] keys the sources need (all defaults live in config.toml)."""

    source: str
    device: str
    folder: str
    loop: bool
    main_size: tuple[int, int]
    motion_size: tuple[int, int]
    frame_rate: float
    exposure_settle_frames: int
    focus_dioptres: float


def to_bgr_uint8(frame: np.ndarray, where: str) -> np.ndarray:
    """Bring a grey, BGRA or 16-bit frame to 3-channel BGR uint8; CameraError otherwise."""
    if frame.dtype == np.uint16:
        frame = (frame >> 8).astype(np.uint8)
    if frame.dtype != np.uint8 or frame.size == 0:
        raise CameraError(f"{where}: unusable frame ({frame.dtype}, shape {frame.shape})")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    raise CameraError(f"{where}: unusable frame shape {frame.shape}")


def shrink(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The small motion frame made from a main frame (area averaging keeps noise down)."""
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


def picamera2_importable() -> bool:
    """True when the Pi camera can be used here (the probe lives in Picamera2Camera)."""
    return Picamera2Camera.available()


def make_camera(settings: CameraSettings) -> Camera | None:
    """The (unopened) source the settings ask for; None for `source = "none"`.

    `auto` takes the Pi camera when picamera2 imports, else the image folder when
    one is set, else the OpenCV device when one is set.
    """
    source = settings.source
    if source == "auto":
        if picamera2_importable():
            source = "picamera2"
        elif settings.folder:
            source = "folder"
        elif settings.device:
            source = "opencv"
        else:
            return None
    if source == "picamera2":
        return Picamera2Camera(settings.main_size, settings.motion_size, settings.frame_rate,
                               settings.exposure_settle_frames, settings.focus_dioptres)
    if source == "opencv":
        return OpenCVCamera(settings.device, settings.main_size, settings.motion_size, settings.loop)
    if source == "folder":
        return FolderCamera(Path(settings.folder), settings.motion_size, settings.loop)
    if source == "none":
        return None
    raise ValueError(f"unknown camera source {source!r}")


class Picamera2Camera:
    """The Pi camera through picamera2: a main stream for reading, a lores stream for motion.

    "RGB888" in picamera2 is BGR in memory, as OpenCV expects. The motion stream
    is YUV420 (the only lores format every Pi accepts); its luma plane is used.
    Exposure and white balance run automatically for a few frames, then the
    values the camera settled on are fixed so dice colours stay put all game.
    A camera with a focus motor (Camera Module 3) is focused once, by hand, on
    the tray: autofocus hunting between rolls would blur the frames we read.
    """

    def __init__(self, main_size: tuple[int, int], motion_size: tuple[int, int],
                 frame_rate: float, settle_frames: int, focus_dioptres: float = 0.0) -> None:
        self.description = f"Pi camera ({main_size[0]}x{main_size[1]})"
        self._main_size = main_size
        self._motion_size = motion_size
        self._frame_us = int(round(1_000_000 / frame_rate))
        self._settle_frames = settle_frames
        self._focus_dioptres = focus_dioptres
        self._camera: Any = None

    @staticmethod
    def available() -> bool:
        """True when the Pi camera library imports (it comes from apt, on the Pi only)."""
        try:
            import picamera2  # noqa: F401  (the probe itself)
        except (ImportError, OSError):
            return False
        return True

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("the Pi camera library picamera2 is not installed "
                              "(apt install python3-picamera2)") from exc
        try:
            camera = Picamera2()
        except Exception as exc:  # picamera2 raises IndexError/RuntimeError when no camera is found
            raise CameraError(f"no Pi camera found ({exc or type(exc).__name__})") from exc
        self._camera = camera
        try:
            controls: dict[str, Any] = {"FrameDurationLimits": (self._frame_us, self._frame_us),
                                        "AeEnable": True, "AwbEnable": True}
            if self._focus_dioptres > 0 and "LensPosition" in camera.camera_controls:
                controls.update({"AfMode": AF_MODE_MANUAL, "LensPosition": self._focus_dioptres})
            configuration = camera.create_video_configuration(
                main={"size": self._main_size, "format": "RGB888"},
                lores={"size": self._motion_size, "format": "YUV420"},
                controls=controls,
                queue=False,
            )
            camera.configure(configuration)
            camera.start()
        except Exception as exc:  # any libcamera failure means no frames
            self.close()
            raise CameraError(f"the Pi camera would not start: {exc}") from exc
        self._lock_exposure()

    def _call(self, what: str, action: Any, *args: Any) -> Any:
        if self._camera is None:
            raise CameraError(f"{self.description} is not open")
        try:
            return getattr(self._camera, action)(*args)
        except Exception as exc:  # an unplugged ribbon surfaces as assorted errors
            raise CameraError(f"{self.description}: {what} failed: {exc}") from exc

    def _lock_exposure(self) -> None:
        metadata: dict[str, Any] = {}
        for _ in range(self._settle_frames + 1):
            metadata = self._call("reading exposure", "capture_metadata")
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for name in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if name in metadata:
                controls[name] = metadata[name]
        self._call("locking exposure", "set_controls", controls)

    def relock_exposure(self) -> None:
        self._call("unlocking exposure", "set_controls", {"AeEnable": True, "AwbEnable": True})
        self._lock_exposure()

    def read_main(self) -> np.ndarray:
        frame = self._call("capturing a frame", "capture_array", "main")
        return to_bgr_uint8(np.asarray(frame), self.description)

    def read_motion(self) -> np.ndarray:
        yuv = np.asarray(self._call("capturing a motion frame", "capture_array", "lores"))
        width, height = self._motion_size
        return to_bgr_uint8(np.ascontiguousarray(yuv[:height, :width]), self.description)

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is None:
            return
        for action in ("stop", "close"):
            try:
                getattr(camera, action)()
            except Exception:  # closing a vanished camera must not stop the app
                continue


class _GrabbingCamera(ABC):
    """A source with one stream: each motion read takes the next frame, and a main read
    right after it returns that same moment at full size (so replaying a folder or a
    video advances one frame per look, as a live camera would)."""

    def __init__(self, motion_size: tuple[int, int]) -> None:
        self._motion_size = motion_size
        self._unread_main: np.ndarray | None = None

    @abstractmethod
    def _grab(self) -> np.ndarray:
        """The next frame of the source as BGR uint8; raises CameraError."""

    def read_main(self) -> np.ndarray:
        frame, self._unread_main = self._unread_main, None
        return self._grab() if frame is None else frame

    def read_motion(self) -> np.ndarray:
        self._unread_main = self._grab()
        return shrink(self._unread_main, self._motion_size)


class OpenCVCamera(_GrabbingCamera):
    """A V4L2/USB camera or a video file through cv2.VideoCapture."""

    def __init__(self, device: str, main_size: tuple[int, int], motion_size: tuple[int, int],
                 loop: bool) -> None:
        super().__init__(motion_size)
        self.description = f"camera {device!r}"
        self._device = device
        self._main_size = main_size
        self._loop = loop
        self._is_file = not device.isdigit() and Path(device).is_file()
        self._capture: cv2.VideoCapture | None = None

    def open(self) -> None:
        source: int | str = int(self._device) if self._device.isdigit() else self._device
        capture = cv2.VideoCapture(source)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"cannot open {self.description}: no such camera or video file")
        if not self._is_file:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self._main_size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self._main_size[1])
        self._capture = capture

    def _grab(self) -> np.ndarray:
        if self._capture is None:
            raise CameraError(f"{self.description} is not open")
        ok, frame = self._capture.read()
        if not ok and self._is_file and self._loop:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"{self.description} delivered no frame (unplugged or at its end)")
        return to_bgr_uint8(frame, self.description)

    def relock_exposure(self) -> None:
        """Nothing to do: USB cameras keep their own automatic exposure."""

    def close(self) -> None:
        self._unread_main = None
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class TimedCamera:
    """A camera whose every call gives up after `timeout_s`: a driver that never returns (a USB
    camera half unplugged, a stalled libcamera request) must not hold the dice loop, or a
    Settings change that closes the camera, for ever.

    The calls run one at a time on one daemon thread, kept for the camera's life. A thread per
    call would cost memory for good: OpenCV keeps about 1 KB for every thread that has run one
    of its parallel functions (the motion frame's resize), some 30 KB a roll. A call that does
    not answer in time is left behind and reported as CameraError; until it returns, further
    calls are refused at once (the driver is not called twice at the same time), and `close`
    runs beside it on a thread of its own and does not wait for it.
    """

    def __init__(self, camera: Camera, timeout_s: float) -> None:
        self.description = camera.description
        self._camera = camera
        self._timeout_s = timeout_s
        self._hung: threading.Event | None = None  # set once the call that hung has returned
        self._calls: queue.SimpleQueue[Callable[[], None] | None] | None = None
        self._worker: threading.Thread | None = None
        self._stop_worker: weakref.finalize | None = None

    def _call(self, what: str, function: Callable[[], Any], even_if_hung: bool = False) -> Any:
        hung = self._hung is not None and not self._hung.is_set()
        if hung and not even_if_hung:
            raise CameraError(f"{self.description} still has not answered an earlier request; "
                              "check its cable, or restart the Pi")
        done = threading.Event()
        outcome: list[Any] = []

        def run() -> None:
            try:
                outcome.append((True, function()))
            except Exception as exc:  # handed to the caller's thread below
                outcome.append((False, exc))
            done.set()

        if hung:  # the worker is still inside the hung call
            threading.Thread(target=run, name="windrose-camera-close", daemon=True).start()
        else:
            self._queue().put(run)
        if not done.wait(self._timeout_s):
            self._hung = done
            raise CameraError(f"{self.description}: {what} gave no answer within {self._timeout_s:g} s "
                              "(the camera hangs)")
        ok, value = outcome[0]
        if not ok:
            raise value
        return value

    def _queue(self) -> queue.SimpleQueue[Callable[[], None] | None]:
        """The worker's queue, the worker started on first use (again after a close). A camera
        dropped without a close ends its worker too."""
        if self._calls is None:
            calls: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
            self._worker = threading.Thread(target=_serve, args=(calls,), name="windrose-camera-call", daemon=True)
            self._worker.start()
            self._stop_worker = weakref.finalize(self, calls.put, None)
            self._calls = calls
        return self._calls

    def open(self) -> None:
        """Open the device; where that fails the worker ends too (a camera that did not open is
        dropped, and tried again with a new one)."""
        try:
            self._call("opening", self._camera.open)
        except Exception:
            self._end_worker()
            raise

    def read_main(self) -> np.ndarray:
        return self._call("reading a frame", self._camera.read_main)

    def read_motion(self) -> np.ndarray:
        return self._call("reading a motion frame", self._camera.read_motion)

    def relock_exposure(self) -> None:
        self._call("locking the exposure", self._camera.relock_exposure)

    def close(self) -> None:
        """Release the device, waiting at most `timeout_s`, even beside a call that hangs (closing
        is what may free it), and end the worker once it is free; never raises."""
        try:
            self._call("closing", self._camera.close, even_if_hung=True)
        except Exception:  # a camera that hangs or fails on close is given up all the same
            pass
        self._end_worker()

    def _end_worker(self) -> None:
        """Let the worker end once the call it is in returns, waiting for it only if none hangs."""
        stop, worker = self._stop_worker, self._worker
        self._calls = self._worker = self._stop_worker = None
        if stop is not None and worker is not None:
            stop()  # the worker ends after the call it is in, if one hangs
            if self._hung is None or self._hung.is_set():
                worker.join(self._timeout_s)


def _serve(calls: queue.SimpleQueue[Callable[[], None] | None]) -> None:
    """A camera worker's life: run the calls in order until told to stop (None)."""
    while (call := calls.get()) is not None:
        call()


def _natural_key(path: Path) -> list[object]:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class FolderCamera(_GrabbingCamera):
    """Images of a folder replayed in name order (frame2 before frame10): demos and tests."""

    def __init__(self, folder: Path, motion_size: tuple[int, int], loop: bool) -> None:
        super().__init__(motion_size)
        self.description = f"image folder {str(folder)!r}"
        self._folder = folder
        self._loop = loop
        self._files: list[Path] = []
        self._next = 0

    def open(self) -> None:
        if not self._folder.is_dir():
            raise CameraError(f"{self.description} does not exist")
        files = sorted((path for path in self._folder.iterdir()
                        if path.suffix.lower() in IMAGE_SUFFIXES), key=_natural_key)
        if not files:
            raise CameraError(f"{self.description} holds no images "
                              f"({', '.join(sorted(IMAGE_SUFFIXES))})")
        self._files = files
        self._next = 0

    def _grab(self) -> np.ndarray:
        if not self._files:
            raise CameraError(f"{self.description} is not open")
        if self._next >= len(self._files):
            if not self._loop:
                raise CameraError(f"{self.description} has no more images")
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        try:
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        except cv2.error as err:  # e.g. over OpenCV's pixel limit (OPENCV_IO_MAX_IMAGE_PIXELS)
            raise CameraError(f"{path}: OpenCV cannot decode it ({str(err).strip().splitlines()[-1]})") from None
        if frame is None:
            raise CameraError(f"{path}: missing or not a readable image")
        return to_bgr_uint8(frame, str(path))

    def relock_exposure(self) -> None:
        """Nothing to do: stored images have their exposure already."""

    def close(self) -> None:
        self._files = []
        self._next = 0
        self._unread_main = None
