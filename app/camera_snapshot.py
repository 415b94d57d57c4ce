"""Save one frame from the configured camera: `python -m app.camera_snapshot OUT.png [--config PATH]`.

For calibrating the dice colours (`python -m vision calibrate OUT.png`) and for
collecting test frames. Stop the kiosk service first: the camera serves one
program at a time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from app.config import ConfigError, load_config
from app.dice_station import camera_settings
from hardware.camera import CameraError, make_camera


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.camera_snapshot", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="image file to write (.png or .jpg)")
    parser.add_argument("--config", help="settings file (default: the usual search)")
    args = parser.parse_args(argv)
    try:
        camera = make_camera(camera_settings(load_config(args.config)))
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if camera is None:
        print("no camera is configured ([camera] source)", file=sys.stderr)
        return 2
    try:
        camera.open()
        frame = camera.read_main()
    except CameraError as exc:
        print(exc, file=sys.stderr)
        return 1
    finally:
        camera.close()
    if not cv2.imwrite(str(args.out), frame):
        print(f"{args.out}: cannot write this file (folder missing, or not .png/.jpg?)", file=sys.stderr)
        return 1
    print(f"saved a {frame.shape[1]}x{frame.shape[0]} frame from {camera.description} to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
