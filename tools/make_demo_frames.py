"""Write the demo camera's frames: a few synthetic rolls coming to rest.

The app replays app/assets/demo_frames in name order on a desktop (folder
camera, one frame per tick). All rolls are thrown on the same table, as at a
real game. Each roll is a hand letting the dice go, two frames of tumbling and
sliding, then enough still frames for the settling time and the vote.
Deterministic: the same command writes the same files.

    python -m tools.make_demo_frames [--out app/assets/demo_frames]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from tools.synth import SceneOptions, render_roll_sequence

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "app" / "assets" / "demo_frames"
# One table (as at a real game), three throws on it: the scene seed and a layout seed per roll.
SCENE_SEED = 101
TABLE = "grey_card"
ROLLS: tuple[int, ...] = (1, 2, 3)
MOVING_FRAMES = 3  # hand and dice in flight, tumbling, sliding
STILL_FRAMES = 9  # 0.5 s of settling at 10 frames/s, then three frames to vote on, and one spare
JPEG_QUALITY = 80


def demo_frames() -> list[tuple[str, np.ndarray]]:
    """(file name, BGR frame) for every demo frame, in replay order."""
    out: list[tuple[str, np.ndarray]] = []
    for roll, layout_seed in enumerate(ROLLS, start=1):
        options = SceneOptions(
            width=1600, height=900, die_px=44, table=TABLE, tint="neutral", dim=False, cocked=False,
            glare=False, blur_sigma=0.8, cubes=6, tilt_deg=0.0, cards=0, colour_spread=0.0, layout_seed=layout_seed,
        )
        sequence = render_roll_sequence(SCENE_SEED, n_frames=26, options=options, hand=True)
        still = [i for i, moving in enumerate(sequence.moving) if not moving]
        rest = still[0]
        picks = [0, rest // 2, rest - 1][:MOVING_FRAMES] + still[:STILL_FRAMES]
        for index, frame_index in enumerate(picks):
            out.append((f"roll{roll}_{index:02d}.jpg", sequence.frames[frame_index]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.make_demo_frames", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("roll*_*.jpg"):
        old.unlink()
    total = 0
    for name, frame in demo_frames():
        path = args.out / name
        if not cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            print(f"make_demo_frames: could not write {path}", file=sys.stderr)
            return 2
        total += path.stat().st_size
    print(f"wrote {len(list(args.out.glob('roll*_*.jpg')))} frames to {args.out} ({total / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
