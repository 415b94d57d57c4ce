"""What the reader feeds its nets, kept as calibration inputs for 8-bit quantization
(`tools/training/quantize.py`). Apart from the quantizer so that it needs no `onnx`."""

from __future__ import annotations

import numpy as np

from vision.onnx_net import OnnxNet


class RecordingNet:
    """A net that keeps a seeded, uniform sample of at most `most` of the single inputs it runs
    (a batch split into its items; reservoir sampling, so every image has its share)."""

    def __init__(self, net: OnnxNet, most: int, seed: int) -> None:
        self._net = net
        self.runtime = net.runtime
        self._most = most
        self._rng = np.random.default_rng(seed)
        self.seen = 0
        self.blobs: list[np.ndarray] = []

    def run(self, blob: np.ndarray) -> np.ndarray:
        for item in blob:
            self.seen += 1
            if len(self.blobs) < self._most:
                self.blobs.append(np.array(item[None], np.float32))
            else:
                slot = int(self._rng.integers(self.seen))
                if slot < self._most:
                    self.blobs[slot] = np.array(item[None], np.float32)
        return self._net.run(blob)


def tiles(blobs: list[np.ndarray], side: int) -> list[np.ndarray]:
    """Each 1 x C x H x W blob cut into `side` x `side` tiles, row by row (the rest of each edge
    is dropped). The histogram calibrations (percentile, entropy) add up tensors of one shape,
    and the detector sees frames of many sizes; a convolution's activations on a tile are those
    on the frame, but for the tile's own border."""
    cut = []
    for blob in blobs:
        height, width = blob.shape[2:]
        cut += [blob[:, :, y : y + side, x : x + side] for y in range(0, height - side + 1, side)
                for x in range(0, width - side + 1, side)]
    return cut
