#!/usr/bin/env bash
# Issue 39: training that does not know the table, judged on what it never saw.
#
#   tools/training/train_unseen.sh WORK_DIR [PYTHON_WITH_TORCH]
#
# 1. Draws the judging sets (each holds one factor value no training scene has; each scene with
#    its empty-tray picture) and the randomised training scenes without those values
#    (`python -m vision synth --randomise`), plain and with a cocked die in every scene.
# 2. Splits dice-real-dev2 by image name: even images train, odd images judge (48 each; the odd
#    ones also with their 4:3 restored, `tools.training.unstretch`).
# 3. Trains the detector, then the classifier and the leaning check on its candidates (seeded,
#    one torch thread each, niced).
# 4. Scores the shipped models and the new ones on every set with `python -m vision evaluate`,
#    the drawn sets both alone (as `vision read` on a photo) and beside their empty trays (as
#    the app reads after its camera check: inside the tray corners, with the camera's field of
#    view, which labels drawn since 2026-12-06 evening give; older sets are read without them).
# Run from the repository's root. Steps whose output exists are skipped, so it can be re-run.
set -euo pipefail
work=${1:?usage: train_unseen.sh WORK_DIR [PYTHON_WITH_TORCH]}
torch_python=${2:-.venv/bin/python}
python=.venv/bin/python
datasets=../shared/datasets
sets=$work/sets
train=$work/train
mkdir -p "$sets" "$train" "$work/split" "$work/models"

synth() {  # synth NAME ARGS...: a drawn set, unless already there
    local name=$1; shift
    [ -d "$name/images" ] || nice -n 10 $python -m vision synth "$name" "$@"
}

# The judging sets: 150 scenes each; every one holds a value held out of training below.
synth "$sets/unseen_board" --count 150 --seed 3901 --only background=board --empty-trays
synth "$sets/unseen_white" --count 150 --seed 3902 --only style=white --empty-trays
synth "$sets/unseen_tilt" --count 150 --seed 3903 --only tilt=30-35 --empty-trays
synth "$sets/unseen_marbled" --count 150 --seed 3906 --only style=marbled --empty-trays
synth "$sets/white_webcam" --count 150 --seed 3904 --only style=white --only background=light_wood \
    --only camera=webcam --only tilt=20-30,30-35 --empty-trays
synth "$sets/unseen_board_macao" --count 100 --seed 3907 --only background=board --only style=macao --only pips=usual \
    --empty-trays
synth "$sets/randomised" --count 150 --seed 3905 --randomise --empty-trays  # every value, for reference
# The leaning check's judges: a cocked die in every scene, under a 30-35 degree camera and by tray walls.
synth "$sets/tilt_cocked" --count 100 --seed 3913 --randomise --only tilt=30-35 --cocked
synth "$sets/walls_test" --count 100 --seed 8101 --cocked --by-walls
synth "$sets/ondie_test" --count 100 --seed 9402 --cocked --on-a-die
synth "$sets/oncube_test" --count 100 --seed 9902 --cocked --on-a-cube

# Training scenes: every factor randomised, the judged values left out (light dice both ways).
held_out=(--hold-out background=board --hold-out style=white,ivory,marbled --hold-out tilt=30-35)
synth "$train/rand_lo" --count 400 --seed 7901 --randomise "${held_out[@]}"
synth "$train/rand_cocked_lo" --count 300 --seed 8401 --randomise --cocked "${held_out[@]}"
synth "$train/rand_walls_lo" --count 200 --seed 8501 --randomise --cocked --by-walls "${held_out[@]}"
synth "$train/synth_a" --count 240 --seed 7001
synth "$train/synth_glare" --count 120 --seed 7301 --glare
synth "$train/synth_foreign" --count 120 --seed 7601 --foreign
synth "$train/synth_lean" --count 200 --seed 7801 --cocked
synth "$train/synth_walls" --count 200 --seed 8001 --cocked --by-walls
synth "$train/synth_ondie" --count 300 --seed 9501 --cocked --on-a-die
synth "$train/rand_ondie_lo" --count 300 --seed 8701 --randomise --cocked --on-a-die "${held_out[@]}"
synth "$train/synth_oncube" --count 300 --seed 9801 --cocked --on-a-cube
synth "$train/rand_oncube_lo" --count 300 --seed 8801 --randomise --cocked --on-a-cube "${held_out[@]}"

# dice-real-dev2 halves by sorted image name (as FOLDER:even / FOLDER:odd in training).
$python - "$datasets/dice-real-dev2" "$work/split" <<'EOF'
import sys
from pathlib import Path
from tools.training.data import load_folder
source, out = Path(sys.argv[1]), Path(sys.argv[2])
records = load_folder(source)
for part, chosen in (("even", records[0::2]), ("odd", records[1::2])):
    folder = out / f"real2_{part}"
    for sub in ("images", "labels"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    for record in chosen:
        label = source / "labels" / f"{record.path.stem}.txt"
        for link, target in ((folder / "images" / record.path.name, record.path), (folder / "labels" / label.name, label)):
            if not link.exists():
                link.symlink_to(target.resolve())
EOF

# The odd half once more with each photo given back its phone's 4:3 (the export squeezed them
# square; docs/dice-reader.md, "The real photos squeezed square"): the figure to judge by.
[ -d "$work/split/real2_odd_4x3/images" ] || $python -m tools.training.unstretch "$datasets/dice-real-dev2:odd" \
    "$work/split/real2_odd_4x3"

detector=$work/models/det_lo/dicedet.onnx
[ -f "$detector" ] || nice -n 10 $torch_python -m tools.training.train_detector \
    --train $datasets/dice-real-dev $datasets/dice-rendered-dev "$work/split/real2_even" "$train/synth_a" "$train/rand_lo" \
    --test "$work/split/real2_odd" "$sets/white_webcam" "$sets/unseen_board" \
    --out "$detector" --steps 1500 --seed 2
# Shipped 2026-12-05 as vision/models/dicedet.onnx and vision/models/dicenet_wide.onnx (the
# classifier shipped before it reads the dice as well: second_classifier_path).
classifier=$work/models/cls_lo/dicenet.onnx  # cls_B of tools/training/README.md (14 epochs)
[ -f "$classifier" ] || nice -n 10 $torch_python -m tools.training.train_classifier \
    --train $datasets/dice-real-dev@6 $datasets/dice-rendered-dev@4 "$work/split/real2_even@3" \
        "$train/synth_glare@1" "$train/synth_foreign@1" "$train/rand_lo@3" \
    --out "$classifier" --epochs 14 --washout 0.25 --specks 4 --residual --width 16 --crop-px 64 --seed 5 \
    --negatives-from "$detector"
# Shipped 2026-12-05 as vision/models/dicelean.onnx (lean_B2 of tools/training/README.md: seed 2).
lean=$work/models/lean_lo/dicelean.onnx
[ -f "$lean" ] || nice -n 10 $torch_python -m tools.training.train_lean \
    --train "$train/rand_cocked_lo" "$train/rand_walls_lo" "$train/synth_lean" "$train/synth_walls" "$train/synth_a" \
        "$train/synth_foreign" "$train/synth_ondie" "$train/rand_ondie_lo" "$train/synth_oncube" "$train/rand_oncube_lo" \
        $datasets/dice-rendered-dev $datasets/dice-real-dev "$work/split/real2_even" \
    --test "$sets/tilt_cocked" "$sets/walls_test" "$sets/ondie_test" "$sets/oncube_test" "$work/split/real2_odd" \
    --detector "$detector" --epochs 30 --width 16 --crop-px 64 --seed 2 --out "$lean"

# Scores: the shipped models, then the new detector alone, then detector and classifier, then all
# three (a config naming the files). Drawn sets alone and beside their empty trays (NAME_ref).
score() {  # score OUT_DIR [--config FILE]
    local out=$1; shift
    mkdir -p "$out"
    for name in unseen_board unseen_white unseen_tilt unseen_marbled white_webcam randomised unseen_board_macao; do
        local expect=any
        [ "$name" = unseen_board_macao ] && expect=macao
        [ -f "$out/$name.json" ] || $python -m vision evaluate "$sets/$name" --expect $expect --json "$@" > "$out/$name.json"
        [ -f "$out/${name}_ref.json" ] || $python -m vision evaluate "$sets/$name" --expect $expect --references --json "$@" \
            > "$out/${name}_ref.json"
    done
    [ -f "$out/real2_odd.json" ] || $python -m vision evaluate "$work/split/real2_odd" --expect any --json "$@" > "$out/real2_odd.json"
    [ -f "$out/real2_odd_4x3.json" ] || $python -m vision evaluate "$work/split/real2_odd_4x3" --expect any --json "$@" \
        > "$out/real2_odd_4x3.json"
    [ -f "$out/real2_all.json" ] || $python -m vision evaluate $datasets/dice-real-dev2 --expect any --json "$@" > "$out/real2_all.json"
    [ -f "$out/real_dev.json" ] || $python -m vision evaluate $datasets/dice-real-dev --expect any --json "$@" > "$out/real_dev.json"
    [ -f "$out/rendered_dev.json" ] || $python -m vision evaluate $datasets/dice-rendered-dev --expect macao --json "$@" \
        > "$out/rendered_dev.json"
}
score "$work/scores/shipped"
printf '[vision.learned]\ndetector_path = "%s"\n' "$(realpath "$detector")" > "$work/det_lo.toml"
score "$work/scores/det_lo" --config "$work/det_lo.toml"
printf '[vision.learned]\ndetector_path = "%s"\nclassifier_path = "%s"\n' "$(realpath "$detector")" \
    "$(realpath "$classifier")" > "$work/both_lo.toml"
score "$work/scores/both_lo" --config "$work/both_lo.toml"
printf '[vision.learned]\ndetector_path = "%s"\nclassifier_path = "%s"\nlean_path = "%s"\n' "$(realpath "$detector")" \
    "$(realpath "$classifier")" "$(realpath "$lean")" > "$work/all_lo.toml"
score "$work/scores/all_lo" --config "$work/all_lo.toml"
