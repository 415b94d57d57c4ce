"""Taps a table spends per round, measured by playing seeded whole games on the real screens.

    python -m bench.taps [--json] [--players 2 4] [--cards tribute typed] [--dice camera typed] [--seed 4]

Each configuration is one whole game (set-up to final scores) played by taps only
(tests/ui/tap_player.py, in its own process through tests/ui/play_game.py): 2 or 4
players; cards entered by their tribute alone (cost paid at activation) or typed
whole with the "check costs" setting; dice read by the camera from a synthetic scene
of each roll the table makes (so corrections are the reader's real misses) or typed.

The players' own moves are "actions"; everything else (entering cards, the roll,
correcting and confirming dice, a form's extra taps) is "beyond". The card phase is
every tap from the reveal to the round's last draft pick. Medians over rounds 1-12.
A benchmark, not a test: it prints figures, one JSON object a line with --json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SEED = 4  # a game whose table delivers, sails, uses jokers and activates cards


def play(folder: Path, seed: int, players: int, cards: str, dice: str) -> dict[str, Any]:
    """One whole game by taps in a fresh process (the app runs only in a subprocess)."""
    flags = [f"players={players}"] + (["tribute"] if cards == "tribute" else []) + \
        (["camera", "rendered"] if dice == "camera" else [])
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(folder / "kivy"), "PYTHONPATH": str(ROOT)}
    env.setdefault("SDL_VIDEODRIVER", "offscreen")
    done = subprocess.run([sys.executable, "-m", "tests.ui.play_game", "full", str(folder), str(seed), *flags],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"players={players} cards={cards} dice={dice}: the game stopped:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def figures(result: dict[str, Any], seed: int, players: int, cards: str, dice: str) -> dict[str, Any]:
    parts = result["median_taps_by_part"]
    return {
        "players": players, "cards": cards, "dice": dice, "seed": seed,
        "median_taps_per_round": result["median_taps_per_round"],
        "median_taps_beyond_actions_per_round": parts["beyond actions"],
        "median_taps_card_phase": result["median_taps_card_phase"],
        "median_taps_actions_per_round": parts["actions"],
        "median_taps_table_facts_per_round": parts["table facts"],
        "median_taps_overhead_per_round": parts["overhead"],
        "taps_by_kind": result["taps_by_kind"],
        "beyond_taps_by_kind_per_round": result["beyond_taps_by_kind_per_round"],
        "final_scores_match_the_rules": result["shown"] == result["expected"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.taps", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=[2, 3, 4])
    parser.add_argument("--cards", nargs="+", default=["tribute", "typed"], choices=["tribute", "typed"])
    parser.add_argument("--dice", nargs="+", default=["camera", "typed"], choices=["camera", "typed"])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="windrose-taps-") as temporary:
        for index, (players, cards, dice) in enumerate(itertools.product(args.players, args.cards, args.dice)):
            folder = Path(temporary) / str(index)
            folder.mkdir()
            line = figures(play(folder, args.seed, players, cards, dice), args.seed, players, cards, dice)
            if args.json:
                print(json.dumps(line), flush=True)
            else:
                print(f"{players} players, cards {cards}, dice {dice}: median taps a round "
                      f"{line['median_taps_per_round']}, beyond the actions "
                      f"{line['median_taps_beyond_actions_per_round']}, card phase "
                      f"{line['median_taps_card_phase']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
