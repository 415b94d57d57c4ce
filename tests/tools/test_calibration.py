"""The calibration inputs the quantizer keeps: a fair sample of what a net ran, and tiles of one size."""

from __future__ import annotations

import numpy as np

from tools.training.calibration import RecordingNet, tiles


class Doubling:
    """A stand-in net whose output is its input twice: the recorder must pass runs through."""

    runtime = "test"

    def run(self, blob: np.ndarray) -> np.ndarray:
        return blob * 2.0


def numbered(count: int) -> np.ndarray:
    """A batch of `count` 1 x 1 x 1 inputs holding 0 .. count - 1."""
    return np.arange(count, dtype=np.float32).reshape(count, 1, 1, 1)


def test_the_recorder_passes_runs_through_and_keeps_single_inputs() -> None:
    recorder = RecordingNet(Doubling(), most=10, seed=1)
    out = recorder.run(numbered(4))
    assert np.array_equal(out, numbered(4) * 2.0)
    assert recorder.seen == 4
    assert [blob.shape for blob in recorder.blobs] == [(1, 1, 1, 1)] * 4
    assert [float(blob[0, 0, 0, 0]) for blob in recorder.blobs] == [0.0, 1.0, 2.0, 3.0]


def test_the_recorder_keeps_a_seeded_sample_spread_over_everything_it_saw() -> None:
    kept = []
    for seed in (1, 1, 2):
        recorder = RecordingNet(Doubling(), most=50, seed=seed)
        for start in range(0, 1000, 100):
            recorder.run(numbered(100) + start)
        kept.append(sorted(float(blob[0, 0, 0, 0]) for blob in recorder.blobs))
    assert recorder.seen == 1000 and len(kept[0]) == 50
    assert kept[0] == kept[1] and kept[0] != kept[2]  # the seed decides, and only the seed
    assert sum(value >= 500 for value in kept[0]) >= 15  # late batches have their share
    assert sum(value < 100 for value in kept[0]) < 20  # the first batch does not fill it


def test_tiles_cut_each_input_row_by_row_and_drop_what_is_left_at_the_edges() -> None:
    frame = np.arange(2 * 20 * 30, dtype=np.float32).reshape(1, 2, 20, 30)
    cut = tiles([frame, frame[:, :, :8, :8]], 8)
    assert len(cut) == 2 * 3 + 1  # 20 x 30 holds two rows of three; 8 x 8 is one tile
    assert all(tile.shape == (1, 2, 8, 8) for tile in cut)
    assert np.array_equal(cut[0], frame[:, :, :8, :8])
    assert np.array_equal(cut[2], frame[:, :, :8, 16:24])
    assert np.array_equal(cut[3], frame[:, :, 8:16, :8])
    assert tiles([frame[:, :, :7, :]], 8) == []  # smaller than a tile: nothing
