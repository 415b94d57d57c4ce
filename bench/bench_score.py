"""CPU time of `python -m app score FILE` for each game's worked example (not a test).

Run from the repository root:  .venv/bin/python -m bench.bench_score [--runs N]

Prints, per file, the median CPU time (user + system) of the whole command in a fresh
interpreter, measured from the child's resource usage so that other work on a shared
machine does not count, and which games' rules the command loaded (goal: its own only).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FILES = ["tests/records/four_players.json", "tests/games/marcopolo2/four_players.json",
         "tests/games/shadows/three_players.json", "tests/games/guild_columns/four_players.json",
         "tests/games/voyage/three_players.json"]
# Scores the file as `python -m app score` does, then lists the game packages the run imported.
SCORE_AND_LIST = (
    "import sys\n"
    "from app.cli import main\n"
    "code = main(['score', sys.argv[1]])\n"
    "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('app.games.') and m.count('.') >= 2"
    " and m.split('.')[2] != 'base'}), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def child_cpu_seconds(command: list[str]) -> tuple[float, str]:
    """CPU seconds the command's process used, and what it wrote to stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), result.stderr.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_score", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args(argv)
    for name in FILES:
        times = [child_cpu_seconds([sys.executable, "-m", "app", "score", name])[0] for _ in range(args.runs)]
        _, loaded = child_cpu_seconds([sys.executable, "-c", SCORE_AND_LIST, name])
        print(f"{name}: CPU median {statistics.median(times) * 1000:.0f} ms, best {min(times) * 1000:.0f} ms "
              f"(of {args.runs}); games loaded: {loaded.splitlines()[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
