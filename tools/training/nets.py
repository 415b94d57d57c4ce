"""The small networks (torch), kept to layers OpenCV's DNN module runs from ONNX."""

from __future__ import annotations

import torch
from torch import nn


def _mean_and_max(features: torch.Tensor) -> torch.Tensor:
    """Each channel's mean and maximum over the crop: a pip weighs the same wherever it lies."""
    return torch.cat([features.mean(dim=(2, 3), keepdim=True), features.amax(dim=(2, 3), keepdim=True)], 1)


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DiceClassifier(nn.Module):
    """crop (3 x S x S, BGR 0-1, S a multiple of 8) -> 7 logits: not a die, 1..6."""

    def __init__(self, width: int = 16, crop_px: int = 40, pooled_head: bool = False) -> None:
        """`pooled_head`: the head sees the features' mean and maximum over the crop rather than
        every cell in place, so a pip counts the same wherever on the face it lies."""
        super().__init__()
        if crop_px % 8:
            raise ValueError(f"crop_px must be a multiple of 8, got {crop_px}")
        w = width
        self.features = nn.Sequential(
            _conv(3, w), nn.MaxPool2d(2),  # S/2
            _conv(w, 2 * w), _conv(2 * w, 2 * w), nn.MaxPool2d(2),  # S/4
            _conv(2 * w, 3 * w), _conv(3 * w, 3 * w), nn.MaxPool2d(2),  # S/8
            _conv(3 * w, 4 * w),
        )
        self.pooled_head = pooled_head
        inputs = 2 * 4 * w if pooled_head else 4 * w * (crop_px // 8) ** 2
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(inputs, 96), nn.ReLU(inplace=True),
                                  nn.Linear(96, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = self.features(x)
        return self.head(_mean_and_max(features) if self.pooled_head else features)


class _Residual(nn.Module):
    """Two 3x3 convolutions added back onto their input: depth without losing the gradient."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, 3, 1, 1, bias=False), nn.BatchNorm2d(channels), nn.ReLU(inplace=True),
            nn.Conv2d(channels, channels, 3, 1, 1, bias=False), nn.BatchNorm2d(channels))
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.relu(x + self.body(x))


class ResidualDiceClassifier(nn.Module):
    """crop (3 x S x S, BGR 0-1, S a multiple of 16) -> 7 logits: not a die, 1..6.

    The plain net underfits the photographs (it reads its own training photos' crops right only
    95 % of the time): this one halves the crop at once and spends its work deeper, on residual
    blocks at 1/4 and 1/8 of the crop, so a larger crop (the photos' own die size) costs only
    about 1.6 times the plain net's smaller one. The head pools like the plain net's pooled head."""

    def __init__(self, width: int = 16, crop_px: int = 64) -> None:
        super().__init__()
        if crop_px % 16:
            raise ValueError(f"crop_px must be a multiple of 16, got {crop_px}")
        w = width
        self.features = nn.Sequential(
            _conv(3, w), _conv(w, 2 * w, 2), _conv(2 * w, 2 * w), nn.MaxPool2d(2),  # S/4
            _conv(2 * w, 4 * w), _Residual(4 * w), nn.MaxPool2d(2),  # S/8
            _conv(4 * w, 6 * w), _Residual(6 * w), nn.MaxPool2d(2),  # S/16
            _conv(6 * w, 8 * w),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(2 * 8 * w, 128), nn.ReLU(inplace=True),
                                  nn.Linear(128, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(_mean_and_max(self.features(x)))


class LeanClassifier(nn.Module):
    """outward crop (3 x S x S, BGR 0-1, S a multiple of 8) -> 2 logits: flat, cocked.

    Its head sees every cell in place, not pooled: where a face shows (outward, on the right
    of the crop) is the whole point."""

    def __init__(self, width: int = 8, crop_px: int = 32) -> None:
        super().__init__()
        if crop_px % 8:
            raise ValueError(f"crop_px must be a multiple of 8, got {crop_px}")
        w = width
        self.features = nn.Sequential(
            _conv(3, w), nn.MaxPool2d(2),  # S/2
            _conv(w, 2 * w), nn.MaxPool2d(2),  # S/4
            _conv(2 * w, 3 * w), nn.MaxPool2d(2),  # S/8
            _conv(3 * w, 3 * w),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(3 * w * (crop_px // 8) ** 2, 32),
                                  nn.ReLU(inplace=True), nn.Linear(32, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class DiceHeatmapNet(nn.Module):
    """frame (3 x H x W, H and W multiples of 8) -> 2 x H/4 x W/4: centre heatmap (0-1), log side (px)."""

    stride = 4
    multiple = 8

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.down4 = nn.Sequential(_conv(3, w, 2), _conv(w, 2 * w, 2), _conv(2 * w, 2 * w))
        self.down8 = nn.Sequential(_conv(2 * w, 3 * w, 2), _conv(3 * w, 3 * w), _conv(3 * w, 3 * w))
        self.lateral = nn.Conv2d(3 * w, 2 * w, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.merge = _conv(2 * w, 2 * w)
        self.heat = nn.Conv2d(2 * w, 1, 1)
        self.size = nn.Conv2d(2 * w, 1, 1)
        nn.init.constant_(self.heat.bias, -4.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = self.down4(x)
        coarse = self.down8(fine)
        merged = self.merge(fine + self.up(self.lateral(coarse)))
        return torch.cat([torch.sigmoid(self.heat(merged)), self.size(merged)], dim=1)


def _dilated(cin: int, cout: int, dilation: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, dilation, dilation, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class SidedHeatmapNet(DiceHeatmapNet):
    """DiceHeatmapNet whose side map comes from a branch that sees about 160 px around each
    cell (dilated convolutions on the coarse features) instead of the heat's 60: a die's
    side is judged against its surroundings, not only from its own middle. The heat path is
    the base net's, so a trained detector can keep its peaks and learn only this branch."""

    def __init__(self, width: int = 16) -> None:
        super().__init__(width)
        del self.size  # the side comes from the branch below
        w = width
        self.side_context = nn.Sequential(_dilated(3 * w, 2 * w, 2), _dilated(2 * w, 2 * w, 4))
        self.side_merge = _conv(2 * w, 2 * w)
        self.side_out = nn.Conv2d(2 * w, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = self.down4(x)
        coarse = self.down8(fine)
        merged = self.merge(fine + self.up(self.lateral(coarse)))
        side = self.side_out(self.side_merge(merged + self.up(self.side_context(coarse))))
        return torch.cat([torch.sigmoid(self.heat(merged)), side], dim=1)
