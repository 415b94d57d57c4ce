"""Figures for the leaning check seen by a tilted camera (not a test): flat dice taken for
leaning and cocked dice marked, outward taken from the picture's centre, from the true point
below the camera, and from that point found from four corners of a rectangle on the table.

    .venv/bin/python -m tests.vision.bench_tilt_lean [SEEDS] [TILT_DEG ...]
"""

from __future__ import annotations

import sys

import numpy as np

from tools import synth
from vision.learned import leaning_dice
from vision.learned_params import load_learned_params
from vision.perspective import point_below_camera
from vision.reader import learned_models
from tools.synth import SceneOptions, render_scene

CALM = dict(cubes=0, touching=False, glare=False, cards=0, hard_light=False, blur_sigma=0.5)


def main(argv: list[str]) -> None:
    learned = load_learned_params()
    chosen = learned_models(learned)
    assert not isinstance(chosen, str), chosen
    lean = chosen[0].lean
    seeds = range(1, (int(argv[0]) if argv else 20) + 1)
    for tilt in [float(t) for t in argv[1:]] or [10.0, 20.0, 30.0]:
        for cocked in (False, True):
            marks: dict[str, list[bool]] = {"centre": [], "true": [], "corners": []}
            truth: list[bool] = []
            for seed in seeds:
                options = SceneOptions(**CALM, cocked=cocked, tilt_deg=tilt)
                frame, labels = render_scene(seed, options)
                world = synth._build_world(seed, options)
                spots = np.array([box.centre[:2] for box in world.dice])
                (x0, y0), (x1, y1) = spots.min(0) - 30, spots.max(0) + 30
                corners = world.cam.project(np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], float))
                height, width = frame.shape[:2]
                below = {"centre": None, "true": tuple(float(v) for v in world.cam.project(np.zeros(3))),
                         "corners": point_below_camera(corners, width, height, 66.0)}
                centres = np.array([d.center for d in labels.dice])
                side = float(np.median([d.box[2] - d.box[0] for d in labels.dice if not d.cocked]))
                for name, point in below.items():
                    marks[name] += leaning_dice(frame, lean, centres, side, learned, point, None)
                truth += [d.cocked for d in labels.dice]
            leaning = np.array(truth)
            for name, marked in marks.items():
                flags = np.array(marked)
                print(f"tilt {tilt:4.1f} {'cocked scenes' if cocked else 'flat scenes  '} outward from {name:8s}: "
                      f"flat taken for leaning {int(flags[~leaning].sum())}/{int((~leaning).sum())}, "
                      f"cocked marked {int(flags[leaning].sum())}/{int(leaning.sum())}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
