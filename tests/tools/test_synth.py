"""The synthetic scene generator: deterministic, and its labels match what it draws."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools import synth
from tools.synth import SceneOptions, main, render_roll_sequence, render_scene, write_dataset
from vision.types import DIE_COLOURS

SMALL = SceneOptions(width=800, height=450, die_px=40)
CLEAN = SceneOptions(
    width=800, height=450, die_px=40, table="grey_card", tint="neutral", dim=False, cubes=0,
    touching=False, cocked=False, glare=False, hard_light=False, blur_sigma=0.0, gray_black_pips=False,
)


def test_same_seed_same_pixels_and_labels() -> None:
    frame_a, labels_a = render_scene(11, SMALL)
    frame_b, labels_b = render_scene(11, SMALL)
    assert np.array_equal(frame_a, frame_b)
    assert labels_a == labels_b


def test_different_seeds_differ() -> None:
    frame_a, labels_a = render_scene(11, SMALL)
    frame_b, labels_b = render_scene(12, SMALL)
    assert not np.array_equal(frame_a, frame_b)
    assert labels_a.dice != labels_b.dice


@pytest.mark.parametrize("seed", range(6))
def test_labels_are_sane(seed: int) -> None:
    frame, labels = render_scene(seed, SMALL)
    assert frame.shape == (450, 800, 3) and frame.dtype == np.uint8
    assert [d.colour for d in labels.dice] == list(DIE_COLOURS)
    for die in labels.dice:
        x0, y0, x1, y1 = die.box
        assert x0 < die.center[0] < x1 and y0 < die.center[1] < y1
        assert 0 <= x0 and 0 <= y0 and x1 <= 800 and y1 <= 450
        assert 0.9 * 40 < x1 - x0 < 2.2 * 40
        assert (die.value is None) == die.cocked
        if not die.cocked:
            assert die.value in range(1, 7)
        for other in die.touching:
            assert die.colour in labels.by_colour()[other].touching


def _bright_spots(frame: np.ndarray, centre: tuple[float, float], radius: float) -> int:
    """Count separate bright blobs (white pips) within `radius` of `centre`."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    disk = np.zeros_like(grey)
    cv2.circle(disk, (round(centre[0]), round(centre[1])), round(radius), 255, -1)
    inside = grey[disk > 0]
    level = (float(np.percentile(inside, 5)) + float(inside.max())) / 2
    mask = ((grey > level) & (disk > 0)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return sum(1 for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 4)


@pytest.mark.parametrize("seed", range(4))
def test_drawn_pips_match_the_labelled_value(seed: int) -> None:
    frame, labels = render_scene(seed, CLEAN)
    for die in labels.dice:
        assert _bright_spots(frame, die.center, 0.47 * 40) == die.value, die


def test_a_given_roll_is_drawn_on_the_same_table() -> None:
    """A scene of chosen pips (a known roll for the app's camera game): same table and layout."""
    chosen = (6, 1, 5, 2, 4, 3)
    given = replace(CLEAN, values=chosen)
    frame, labels = render_scene(2, given)
    _, drawn = render_scene(2, CLEAN)
    assert [d.value for d in labels.dice] == list(chosen)
    assert [d.center for d in labels.dice] == [d.center for d in drawn.dice]
    for die in labels.dice:
        assert _bright_spots(frame, die.center, 0.47 * 40) == die.value, die
    with pytest.raises(ValueError, match="six pips"):
        render_scene(2, replace(CLEAN, values=(1, 2, 3)))


def test_touching_pair_is_labelled() -> None:
    for seed in range(3):
        _, labels = render_scene(seed, SceneOptions(width=800, height=450, die_px=40, touching=True))
        touching = [d for d in labels.dice if d.touches_other_die]
        assert len(touching) >= 2
        assert labels.conditions["touching_dice"] == len(touching)


def test_cocked_die_has_no_value_and_a_wider_box() -> None:
    _, labels = render_scene(3, SceneOptions(width=800, height=450, die_px=40, cocked=True, touching=False))
    cocked = [d for d in labels.dice if d.cocked]
    assert len(cocked) == 1 and cocked[0].value is None
    assert cocked[0].colour == labels.conditions["cocked_die"]
    widths = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in labels.dice]
    flat_min = min(w for w, d in zip(widths, labels.dice) if not d.cocked)
    assert max(cocked[0].box[2] - cocked[0].box[0], cocked[0].box[3] - cocked[0].box[1]) > flat_min


def test_cubes_are_drawn_where_asked() -> None:
    bare, _ = render_scene(5, SceneOptions(width=800, height=450, die_px=40, cubes=0))
    busy, labels = render_scene(5, SceneOptions(width=800, height=450, die_px=40, cubes=12))
    assert 8 <= labels.conditions["distractor_cubes"] <= 12
    assert not np.array_equal(bare, busy)


def test_too_small_frame_is_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="too small"):
        render_scene(1, SceneOptions(width=32, height=32))
    with pytest.raises(ValueError, match="no room for six dice"):
        render_scene(1, SceneOptions(width=200, height=120, die_px=63))
    with pytest.raises(ValueError, match="at least 4 frames"):
        render_roll_sequence(1, n_frames=3)


def test_tilted_camera_keeps_dice_in_the_picture() -> None:
    for seed in range(4):
        _, labels = render_scene(seed, SceneOptions(width=800, height=450, die_px=40, tilt_deg=6.0))
        assert labels.conditions["tilt_deg"] == 6.0
        for die in labels.dice:
            x0, y0, x1, y1 = die.box
            assert 0 <= x0 < x1 <= 800 and 0 <= y0 < y1 <= 450


def test_label_says_where_the_camera_stands_over_the_table() -> None:
    """The leaning check's training turns each crop away from this point; a wrong one teaches it
    that a flat die's side faces mean a cocked die."""
    straight = render_scene(5, SceneOptions(width=800, height=450, die_px=40, tilt_deg=0.0))[1].conditions
    assert np.hypot(straight["below_camera_px"][0] - 400, straight["below_camera_px"][1] - 225) < 0.04 * 800
    for seed in range(3):
        _, labels = render_scene(seed, SceneOptions(width=800, height=450, die_px=40, tilt_deg=30.0))
        below = np.array(labels.conditions["below_camera_px"])
        assert np.hypot(*(below - (400, 225))) > 400  # far outside the frame's middle
        # the dice nearest the lens's foot are the nearest to the lens: the largest in the picture
        reach = [np.hypot(*(np.array(d.center) - below)) for d in labels.dice]
        sides = [d.face_side for d in labels.dice]
        assert np.corrcoef(reach, sides)[0, 1] < -0.5


def test_label_gives_the_tray_corners_a_player_would_tap() -> None:
    """The four corners of the tray floor (of the rolling area where no tray is drawn), as the
    camera check's taps give them: every die lies inside, a tilted camera sees the far side
    shorter than the near one, and with the label's field of view they give the point below
    the camera (as the leaning check reads it from them)."""
    from vision.params import WHOLE_FRAME, load_vision_params
    from vision.perspective import point_below_camera

    for tilt, tray in ((0.0, True), (30.0, False)):
        for seed in range(3):
            _, labels = render_scene(seed, SceneOptions(width=800, height=450, die_px=40, tilt_deg=tilt, tray=tray))
            corners = np.array(labels.conditions["tray_corners_px"])
            assert corners.shape == (4, 2) and np.all((corners >= 0) & (corners <= (800, 450)))
            params = load_vision_params().with_tray(WHOLE_FRAME).with_tray_corners(corners, 800, 450)
            outline = np.array(params.tray_quad) * (800, 450)
            for die in labels.dice:
                assert cv2.pointPolygonTest(outline.astype(np.float32), die.center, False) > 0
            lengths = np.hypot(*(corners - np.roll(corners, -1, axis=0)).T)
            far_near = min(lengths[0] / lengths[2], lengths[2] / lengths[0])  # opposite sides
            other = min(lengths[1] / lengths[3], lengths[3] / lengths[1])
            if tilt == 0.0:
                assert far_near > 0.97 and other > 0.97
            else:
                assert min(far_near, other) < 0.9
            # with the camera's field of view the label gives, the corners tell each die which way the
            # camera stands (the leaning check's "outward"; straight down, the lens's centre is drawn up
            # to 3 % off the picture's, which the reader takes as its centre)
            below = np.array(labels.conditions["below_camera_px"])
            told = np.array(point_below_camera(corners, 800, 450, labels.conditions["camera_fov_deg"]))
            if tilt == 0.0:
                assert np.hypot(*(told - below)) < 0.04 * 800
                continue
            for die in labels.dice:
                to_truth, to_told = below - die.center, told - die.center
                cosine = to_truth @ to_told / (np.linalg.norm(to_truth) * np.linalg.norm(to_told))
                assert np.degrees(np.arccos(min(cosine, 1.0))) < 5.0


def test_dataset_in_rendered_dev_format(tmp_path: Path) -> None:
    paths = write_dataset(tmp_path, 2, seed=4, options=SMALL)
    assert len(paths) == 2
    for path in paths:
        image = cv2.imread(str(path))
        assert image is not None and image.shape == (450, 800, 3)
        record = json.loads((tmp_path / "labels" / f"{path.stem}.json").read_text())
        assert record["image"] == path.name
        assert len(record["dice"]) == 6
        for die in record["dice"]:
            assert set(die) >= {"colour", "value", "cocked", "center_px", "bbox_px", "touches_other_die"}
    assert (tmp_path / "manifest.csv").read_text().count("\n") == 3


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "set"), "--count", "1", "--seed", "2", "--width", "640", "--height", "360"]) == 0
    assert len(list((tmp_path / "set" / "images").glob("*.jpg"))) == 1
    assert main([str(tmp_path / "none"), "--count", "0"]) == 2
    assert "--count" in capsys.readouterr().err


def test_roll_sequence_truth() -> None:
    sequence = render_roll_sequence(8, n_frames=16, hand_returns=True)
    again = render_roll_sequence(8, n_frames=16, hand_returns=True)
    assert all(np.array_equal(a, b) for a, b in zip(sequence.frames, again.frames))
    assert len(sequence.frames) == len(sequence.moving) == len(sequence.timestamps_s) == 16
    assert sequence.moving[0] and sequence.hand_in_view[0]
    assert sequence.hand_in_view[-1] and sequence.moving[-1]
    quiet = [i for i, moving in enumerate(sequence.moving) if not moving]
    assert quiet, "the dice must come to rest before the hand returns"
    # While nothing moves the picture changes only by camera noise.
    a, b = (sequence.frames[i].astype(np.int16) for i in quiet[:2])
    assert np.abs(a - b).mean() < 4
    # Frames are taken at the given rate.
    assert sequence.timestamps_s[1] - sequence.timestamps_s[0] == pytest.approx(0.1)


def test_vision_command_line_writes_a_set_that_evaluate_reads(tmp_path: Path) -> None:
    from vision.cli import main as vision_main
    from vision.evaluate import iter_dataset, load_labels

    folder = tmp_path / "set"
    assert vision_main(["synth", str(folder), "--count", "2", "--width", "640", "--height", "360", "--die-px", "30"]) == 0
    pairs = list(iter_dataset(folder))
    assert len(pairs) == 2
    labelled = load_labels(pairs[0][1], 640, 360)
    assert len(labelled) == 6 and {d.colour for d in labelled} == {"red", "blue", "green", "black", "gray", "violet"}


def test_synth_command_can_put_a_glare_spot_or_a_cocked_die_in_every_scene(tmp_path: Path) -> None:
    """The training recipe's drawn glare scenes come from this command (tools/training/README.md)."""
    import json

    from vision.cli import main as vision_main

    size = ["--count", "3", "--width", "640", "--height", "360", "--die-px", "30"]
    for flag, key in (("--glare", "glare_on"), ("--cocked", "cocked_die"), ("--foreign", "foreign_dice")):
        folder = tmp_path / flag.strip("-")
        assert vision_main(["synth", str(folder), *size, flag]) == 0
        scenes = [json.loads(p.read_text())["scene"] for p in sorted((folder / "labels").glob("*.json"))]
        assert len(scenes) == 3 and all(scene[key] not in (None, False) for scene in scenes)


def _around_the_dice(labels: synth.SceneLabels, shape: tuple[int, ...]) -> np.ndarray:
    """True within 3 px of any die's box."""
    inside = np.zeros(shape[:2], bool)
    for die in labels.dice:
        x0, y0, x1, y1 = (round(v) for v in die.box)
        inside[max(0, y0 - 3):y1 + 3, max(0, x0 - 3):x1 + 3] = True
    return inside


def test_foreign_dice_are_the_same_throw_in_other_paint() -> None:
    """Another set's dice: same places and pips, the table untouched, each die painted anew."""
    for seed in range(3):
        plain, plain_labels = render_scene(seed, CLEAN)
        foreign, labels = render_scene(seed, replace(CLEAN, foreign_dice=True))
        assert labels.dice == plain_labels.dice and labels.conditions["foreign_dice"]
        inside = _around_the_dice(labels, plain.shape)
        assert np.array_equal(plain[~inside], foreign[~inside])
        assert not np.array_equal(plain[inside], foreign[inside])


def test_translucent_dice_change_only_the_dice_of_a_foreign_set() -> None:
    """The same throw in the same paints; some dice are see-through, and only inside the dice
    does the picture change."""
    for seed in range(3):
        foreign, labels = render_scene(seed, replace(CLEAN, foreign_dice=True))
        smoky, smoky_labels = render_scene(seed, replace(CLEAN, foreign_dice=True, translucent_dice=True))
        assert smoky_labels.dice == labels.dice and smoky_labels.conditions["translucent_dice"]
        inside = _around_the_dice(labels, foreign.shape)
        assert np.array_equal(foreign[~inside], smoky[~inside])
        assert not np.array_equal(foreign[inside], smoky[inside])
    plain = render_scene(0, replace(CLEAN, translucent_dice=True))[1]
    assert not plain.conditions["translucent_dice"], "translucent dice come only with a foreign set"


def test_a_translucent_die_is_darker_and_shows_pips_through_its_body() -> None:
    dice = [box for _ in range(10) for box in synth._place_dice(
        np.random.default_rng(1), (0.0, 0.0, 200.0, 120.0), np.zeros(6), [1] * 6, -1, -1, (), False,
        {c: np.array(synth.DIE_SRGB[c]) for c in DIE_COLOURS})[0]]
    smoky = synth._see_through(dice, np.random.default_rng(3))
    changed = [(before, after) for before, after in zip(dice, smoky) if after.translucency > 0]
    assert 0.35 < len(changed) / len(dice) < 0.65
    low, high = synth.TRANSLUCENCY_RANGE
    assert all(low <= after.translucency <= high and after.marble is None and np.all(after.colour < before.colour)
               for before, after in changed)
    # Drawn alone from straight above, the opaque die shows only its top face; the see-through
    # one also the pips of the faces beneath it.
    camera = synth._Camera(f=800.0, cx=100.0, cy=100.0)
    flat = replace(changed[0][1], centre=np.array([0.0, 0.0, 8.0]), rotation=np.eye(3))
    pictures = []
    for box in (replace(flat, translucency=0.0), flat):
        canvas = np.zeros((200, 200, 3), np.float32)
        synth._draw_box(canvas, box, camera, np.array([0.0, 0.0, 1.0]), 0.5, np.ones(3, np.float32))
        pictures.append(canvas)
    assert np.abs(pictures[0] - pictures[1]).max() > 0.01


def test_foreign_paints_keep_their_pips_visible() -> None:
    """Every pip colour stands out from its die's paint; about half the dice are marbled; all
    five pip colours occur."""
    dice = [box for _ in range(10) for box in synth._place_dice(
        np.random.default_rng(1), (0.0, 0.0, 200.0, 120.0), np.zeros(6), [1] * 6, -1, -1, (), False,
        {c: np.array(synth.DIE_SRGB[c]) for c in DIE_COLOURS})[0]]
    painted = synth._repainted(dice, np.random.default_rng(2))
    to_srgb = lambda linear: np.asarray(linear) ** (1 / 2.2)  # noqa: E731
    assert all(np.linalg.norm(to_srgb(b.pip_colour) - to_srgb(b.colour)) >= synth.FOREIGN_MIN_CONTRAST - 1e-3
               for b in painted)
    assert 20 <= sum(b.marble is not None for b in painted) <= 40
    palette = np.array(synth.FOREIGN_PIPS_SRGB)
    used = {int(np.argmin(np.linalg.norm(palette - to_srgb(b.pip_colour), axis=1))) for b in painted}
    assert used == set(range(len(palette)))


def test_layout_seed_throws_again_on_the_same_table() -> None:
    first, labels_a = render_scene(9, SceneOptions(width=640, height=360, die_px=30, cubes=0, layout_seed=1))
    second, labels_b = render_scene(9, SceneOptions(width=640, height=360, die_px=30, cubes=0, layout_seed=2))
    assert labels_a.dice != labels_b.dice
    # Away from the dice (and their shadows) the two pictures show the very same table.
    mask = np.ones(first.shape[:2], bool)
    for die in (*labels_a.dice, *labels_b.dice):
        x0, y0, x1, y1 = (int(v) for v in die.box)
        mask[max(y0 - 25, 0) : y1 + 25, max(x0 - 25, 0) : x1 + 25] = False
    difference = np.abs(first.astype(np.int16) - second.astype(np.int16)).max(axis=2)
    assert np.percentile(difference[mask], 95) <= 2


@pytest.mark.parametrize("seed", range(8))
def test_a_cocked_die_stands_on_an_edge_and_leans_back_on_a_tray_wall(seed: int) -> None:
    """As a real one rests: its upper face tipped inwards by 25-45 degrees, its centre over the
    wall's side of the edge it stands on (else it would fall back flat), touching the wall."""
    inner = (-150.0, -100.0, 150.0, 100.0)
    rotation, xy = synth._leaning_on_a_wall(np.random.default_rng(seed), inner, 3)
    box = synth._Box(centre=np.array([xy[0], xy[1], 0.0]), rotation=rotation, half=np.full(3, synth.DIE_MM / 2),
                     colour=np.zeros(3))
    corners = box.corners()
    gaps = {"left": corners[:, 0].min() - inner[0], "right": inner[2] - corners[:, 0].max(),
            "top": corners[:, 1].min() - inner[1], "bottom": inner[3] - corners[:, 1].max()}
    wall = min(gaps, key=gaps.get)
    outward = {"left": (-1, 0), "right": (1, 0), "top": (0, -1), "bottom": (0, 1)}[wall]
    assert 0.5 <= gaps[wall] <= 0.7
    up = rotation @ synth._FACES[box.top_face()][0]
    assert 25 <= np.degrees(np.arccos(up[2])) <= 45
    assert up[:2] @ outward < 0  # the upper face looks inwards
    lowest = corners[np.argsort(corners[:, 2])[:2]].mean(axis=0)  # the edge it stands on
    assert (xy - lowest[:2]) @ outward > 0


def test_dice_by_the_walls_moves_only_flat_dice_and_only_when_asked() -> None:
    options = SceneOptions(cocked=False, touching=False)
    _, plain = render_scene(4, options)
    _, again = render_scene(4, options)
    _, by_walls = render_scene(4, replace(options, dice_by_walls=True))
    assert plain.dice == again.dice and by_walls.conditions["dice_by_walls"]
    moved = [a for a, b in zip(plain.dice, by_walls.dice) if a.center != b.center]
    assert moved and all(d.value is not None for d in by_walls.dice)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("support_mm, tilt_deg", [(synth.DIE_MM, (25.0, 45.0)), (8.0, synth._tilt_on_a_cube(8.0)),
                                                  (10.0, synth._tilt_on_a_cube(10.0))],
                         ids=["on a die", "on a small cube", "on a large cube"])
def test_a_die_can_lean_back_on_a_die_or_cube_as_on_a_wall(seed: int, support_mm: float,
                                                             tilt_deg: tuple[float, float]) -> None:
    """Tipped away from the flat box that holds it up by the tilt asked for, its faces lined up
    with that box's, its centre over the support's side of the edge it stands on, a lower edge a
    hair off the support's side face and below the support's top."""
    support = synth._Box(centre=np.array([10.0, -5.0, support_mm / 2]),
                         rotation=synth._rotation((0, 0, 1), 0.3 + seed) @ synth._face_up(2),
                         half=np.full(3, support_mm / 2), colour=np.zeros(3))
    rotation, xy = synth._leaning_on_a_box(np.random.default_rng(seed), support, 4, tilt_deg)
    box = synth._Box(centre=np.array([xy[0], xy[1], 0.0]), rotation=rotation, half=np.full(3, synth.DIE_MM / 2),
                     colour=np.zeros(3))
    box = replace(box, centre=box.centre - (0, 0, box.lowest_z()))
    corners = box.corners()
    # The side face it leans on: of the support's four, the one facing the leaning die's centre.
    sides = [sign * column[:2] for column in support.rotation.T if abs(column[2]) < 0.5 for sign in (1, -1)]
    normal = max(sides, key=lambda side: float((box.centre - support.centre)[:2] @ side))
    beyond = (corners - support.centre)[:, :2] @ normal - support_mm / 2  # each corner's distance past that face
    assert beyond.min() == pytest.approx(0.3, abs=1e-6)
    assert 0 < corners[np.argmin(beyond), 2] < support_mm  # it rests below the support's top
    up = rotation @ synth._FACES[box.top_face()][0]
    assert tilt_deg[0] <= np.degrees(np.arccos(up[2])) <= tilt_deg[1]
    assert up[:2] @ normal > 0  # the upper face looks away from the support
    lowest = corners[np.argsort(corners[:, 2])[:2]].mean(axis=0)  # the edge it stands on
    assert (box.centre[:2] - lowest[:2]) @ normal < 0  # its weight lies towards the support


def test_a_cocked_die_leans_on_another_die_only_when_asked() -> None:
    options = SceneOptions(cocked=True, touching=False)
    _, plain = render_scene(5, options)
    _, again = render_scene(5, replace(options, cocked_on_a_die=False))
    _, on_a_die = render_scene(5, replace(options, cocked_on_a_die=True))
    assert plain.dice == again.dice and on_a_die.conditions["cocked_on_a_die"]
    leaning = [d for d in on_a_die.dice if d.cocked]
    assert len(leaning) == 1 and leaning[0].value is None
    x0, y0, x1, y1 = leaning[0].box
    # Its box meets another die's: it rests on it.
    assert any(d.box[0] <= x1 + 1 and x0 - 1 <= d.box[2] and d.box[1] <= y1 + 1 and y0 - 1 <= d.box[3]
               for d in on_a_die.dice if not d.cocked)


@pytest.mark.parametrize("seed", range(6))
def test_a_cocked_die_can_lean_on_a_cube_put_down_for_it(seed: int) -> None:
    """The cube lies in the tray, clear of the five flat dice; the leaning die touches it and
    keeps its distance from the others."""
    inner = (0.0, 0.0, 200.0, 120.0)
    rng = np.random.default_rng(seed)
    dice, supports = synth._place_dice(
        rng, inner, rng.uniform(0, 6.3, 6), [3] * 6, 2, -1, (), False,
        {c: np.array(synth.DIE_SRGB[c]) for c in DIE_COLOURS}, on_a_cube=np.random.default_rng([seed, 12]))
    assert len(supports) == 1 and 8.0 <= 2 * supports[0].half[2] <= 10.0
    cube = synth._footprint(supports[0])
    assert synth._inside(cube, inner, 0.0)
    leaning = dice[2]
    assert abs((leaning.rotation @ synth._FACES[leaning.top_face()][0])[2]) < 0.95  # no face lies flat
    assert synth._polygon_gap(synth._footprint(leaning), cube) < 1.0  # it rests on the cube
    assert all(synth._polygon_gap(synth._footprint(die), synth._footprint(other)) > 2.5
               for i, die in enumerate(dice) for other in dice[i + 1:])


def test_a_cocked_die_leans_on_a_cube_only_when_asked() -> None:
    options = SceneOptions(cocked=True, touching=False, cubes=0)
    _, plain = render_scene(5, options)
    _, again = render_scene(5, replace(options, cocked_on_a_cube=False))
    _, on_a_cube = render_scene(5, replace(options, cocked_on_a_cube=True))
    assert plain.dice == again.dice and plain.conditions["distractor_cubes"] == 0
    assert on_a_cube.conditions["cocked_on_a_cube"] and on_a_cube.conditions["distractor_cubes"] == 1
    leaning = [d for d in on_a_cube.dice if d.cocked]
    assert len(leaning) == 1 and leaning[0].value is None


def test_a_die_leans_on_a_die_or_on_a_cube_not_both() -> None:
    with pytest.raises(ValueError, match="not both"):
        render_scene(5, SceneOptions(cocked=True, cocked_on_a_die=True, cocked_on_a_cube=True))


def test_still_frames_are_one_scene_each_with_its_own_noise() -> None:
    """A roll at rest as a camera sends it: the first frame is render_scene's, the empty tray
    render_scene_and_empty_tray's, and the others differ from the first by noise alone."""
    options = SceneOptions(layout_seed=3)
    frames, labels, empty = synth.render_still_frames(11, options, count=3)
    frame, labels_once, empty_once = synth.render_scene_and_empty_tray(11, options)
    assert np.array_equal(frames[0], frame) and np.array_equal(empty, empty_once)
    assert [d.to_json() for d in labels.dice] == [d.to_json() for d in labels_once.dice]
    for other in frames[1:]:
        difference = np.abs(other.astype(np.int16) - frames[0].astype(np.int16))
        assert 0 < difference.mean() < 4 and np.median(difference) <= 2
