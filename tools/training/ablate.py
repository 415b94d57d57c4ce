"""Which dice does one setting change? Read each labelled image twice, with the settings of
config.toml and with some of them changed, and list every die whose outcome differs.

    .venv/bin/python -m tools.training.ablate DATASET [DATASET ...] --set KEY=VALUE [--set ...]
        [--expect macao|any] [--detector PATH] [--classifier PATH]

KEY is a key of [vision.learned] or [vision] (`--set doubted_on_body=false`,
`--set macao_split_step=0`). Each die changed is listed as image, truth, then its outcome and
reading with config.toml's settings and with the changed ones (`missed`, `unsure`, `wrong`, `right`,
as `vision evaluate --mistakes` names them); a summary counts each kind of change and gives both
readers' figures. With the setting that a mechanism turns off, the list is the scenes that show
it at work: where the tests' scenes come from (a pool of them for the off-centre and glare
tests, chosen for several classifiers), and a quick check that a change mends dice without breaking others.
Needs no torch.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import cv2

from vision.evaluate import (RIGHT, LabelledDie, Score, as_read, as_truth, iter_dataset, judge, load_labels, match,
                             score_image)
from vision.learned import read_with_model
from vision.learned_models import LearnedModels
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import VisionParams, load_vision_params
from vision.types import DiceReading, ExpectMode

Params = TypeVar("Params", LearnedParams, VisionParams)


@dataclasses.dataclass(frozen=True)
class Change:
    """One labelled die read differently with the changed settings."""

    image: str
    truth: str
    before: str  # outcome and reading with config.toml's settings
    after: str  # ... and with the changed ones

    def line(self) -> str:
        return f"{self.image}  {self.truth}:  {self.before}  ->  {self.after}"


def with_settings(params: Params, settings: dict[str, str]) -> Params:
    """`params` with those of `settings` that are its fields, each parsed as its current type."""
    fields = {f.name for f in dataclasses.fields(params)}
    changed: dict[str, object] = {}
    for key, text in settings.items():
        if key not in fields:
            continue
        current = getattr(params, key)
        if isinstance(current, bool):
            if text.lower() not in ("true", "false"):
                raise ValueError(f"--set {key}={text}: true or false")
            changed[key] = text.lower() == "true"
        else:
            try:
                changed[key] = type(current)(text)
            except ValueError:
                raise ValueError(f"--set {key}={text}: not a {type(current).__name__}") from None
    return dataclasses.replace(params, **changed)


def _outcome(die: LabelledDie, reading: DiceReading, matches: dict[int, int], index: int,
             use_colour: bool) -> tuple[str, str]:
    """The die's outcome, and it with how it was read: `right (black 3 at 0.82)`, `missed (-)`."""
    got = reading.dice[matches[index]] if index in matches else None
    outcome = judge(die, got, use_colour)
    return outcome, f"{outcome} ({'-' if got is None else as_read(got)})"


def changes_in(image: str, dice: list[LabelledDie], before: DiceReading, after: DiceReading,
               use_colour: bool) -> list[Change]:
    """The labelled dice whose outcome differs between the two readings of one image."""
    first, second = match(dice, before.dice), match(dice, after.dice)
    changes = []
    for index, die in enumerate(dice):
        (was, described_before), (now, described_after) = (_outcome(die, before, first, index, use_colour),
                                                           _outcome(die, after, second, index, use_colour))
        if was != now:
            changes.append(Change(image, as_truth(die, use_colour), described_before, described_after))
    return changes


def ablate(folders: Sequence[Path], expect: ExpectMode, settings: dict[str, str],
           learned: LearnedParams, params: VisionParams) -> tuple[list[Change], Score, Score]:
    """Every die changed over the folders' images, and the scores with and without the change."""
    changed_learned, changed_params = with_settings(learned, settings), with_settings(params, settings)
    models = LearnedModels.load(learned)
    changes: list[Change] = []
    scores = Score(), Score()
    for folder in folders:
        for image_path, label_path in iter_dataset(folder):
            frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
            if frame is None:
                continue
            dice = load_labels(label_path, frame.shape[1], frame.shape[0])
            use_colour = expect == "macao" and any(d.colour for d in dice)
            readings = (read_with_model(frame, params, expect, None, models, learned),
                        read_with_model(frame, changed_params, expect, None, models, changed_learned))
            for score, reading in zip(scores, readings):
                score.colour_labelled |= use_colour
                score_image(score, dice, reading, use_colour, image_path.name)
            changes += changes_in(f"{folder.name}/{image_path.name}", dice, *readings, use_colour)
    return changes, *scores


def _figures(score: Score) -> str:
    report = score.report()
    right = report.get("colour_and_value_right", report["value_accuracy"])
    return (f"right {100 * float(right):.2f} %, wrong but confident {100 * float(report['wrong_but_confident']):.2f} %, "
            f"unsure {100 * float(report['unsure_rate']):.2f} %, recall {100 * float(report['recall']):.2f} %")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("datasets", nargs="+", type=Path)
    parser.add_argument("--set", action="append", required=True, metavar="KEY=VALUE", dest="settings")
    parser.add_argument("--expect", choices=("macao", "any"), default="macao")
    parser.add_argument("--detector", default=None)
    parser.add_argument("--classifier", default=None)
    args = parser.parse_args()
    settings = dict(item.partition("=")[::2] for item in args.settings)
    learned, params = load_learned_params(), load_vision_params()
    known = {f.name for f in dataclasses.fields(learned)} | {f.name for f in dataclasses.fields(params)}
    unknown = sorted(set(settings) - known)
    if unknown:
        parser.error(f"not a key of [vision.learned] or [vision]: {', '.join(unknown)}")
    models = {key: value for key, value in (("detector_path", args.detector), ("classifier_path", args.classifier))
              if value}
    learned = dataclasses.replace(learned, **models)
    cv2.setNumThreads(1)
    try:
        changes, before, after = ablate(args.datasets, args.expect, settings, learned, params)
    except ValueError as exc:
        parser.error(str(exc))
    for change in changes:
        print(change.line())
    kinds = Counter((c.before.split(" (")[0], c.after.split(" (")[0]) for c in changes)
    print(f"{len(changes)} dice changed: " + ", ".join(f"{n} {a} -> {b}" for (a, b), n in kinds.most_common()))
    print(f"with config.toml:      {_figures(before)}")
    print(f"with {' '.join(args.settings)}: {_figures(after)}")
    only_changed = sum(n for (was, now), n in kinds.items() if now == RIGHT)
    only_config = sum(n for (was, now), n in kinds.items() if was == RIGHT)
    print(f"dice read right only with config.toml's settings: {only_config}; "
          f"only with {' '.join(args.settings)}: {only_changed}")


if __name__ == "__main__":
    main()
