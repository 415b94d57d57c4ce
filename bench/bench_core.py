"""Speed figures for the rules core, the command line and the journal (not a test).

Run from the repository root:  .venv/bin/python -m bench.bench_core [--runs N]

Prints: replay time of a 4-player 12-round record (goal < 20 ms), wall time of
`python -m app score` from start to exit (goal < 0.4 s), the session's load
time for the same game, and how many actions per second the journal commits
with synchronous=FULL on the disk holding --dir.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from app.games.macao import Record, dump_record, load_record, replay
from app.games.macao.simulate import random_record
from app.journal import Journal
from app.session import Session

REPO = Path(__file__).resolve().parent.parent
GOALS = {"replay": 0.020, "score": 0.400}


def four_player_record() -> tuple[Record, str]:
    """A golden 4-player game if one exists, else a seeded random complete game."""
    for path in sorted((REPO / "tests" / "records").glob("*.json")):
        if ".expected" in path.name:
            continue
        record = load_record(path.read_text(encoding="utf-8"))
        if len(record.players) == 4 and replay(record).phase == "over":
            return record, str(path.relative_to(REPO))
    return random_record(seed=1, players=4), "random_record(seed=1, players=4)"


def median_seconds(task: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and best wall time of `runs` calls, after one warm-up call."""
    task()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def score_command_seconds(record_path: Path, runs: int) -> tuple[float, float]:
    def run() -> None:
        subprocess.run([sys.executable, "-m", "app", "score", str(record_path)], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
    return median_seconds(run, runs)


def journal_append_rates(folder: Path, count: int, batches: int = 5) -> list[float]:
    """Committed actions per second in each batch (one transaction each, WAL, synchronous=FULL).

    Several batches, because fsync time swings with whatever else uses the disk.
    """
    with Journal.open(folder / "bench-append.db") as journal:
        assert journal.durability() == {"journal_mode": "wal", "synchronous": 2}
        game = journal.create_game({"players": [], "wall": []}, "macao")
        action = {"type": "adjust", "player": "orange", "gold": 1, "note": "benchmark"}
        rates = []
        for _ in range(batches):
            start = time.perf_counter()
            for _ in range(count // batches):
                journal.append(game, "action", action)
            rates.append((count // batches) / (time.perf_counter() - start))
        return rates


def session_act_rate(folder: Path, record: Record) -> float:
    """Actions per second through Session.act: rules check, commit, state update."""
    with Session.open(folder / "bench-session.db") as session:
        session.new_game("macao", {"started": record.started, "players": record.players, "wall": record.wall})
        start = time.perf_counter()
        for action in record.actions:
            session.act(action)
        return len(record.actions) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="replay repetitions (default 200)")
    parser.add_argument("--score-runs", type=int, default=10, help="`python -m app score` runs (default 10)")
    parser.add_argument("--appends", type=int, default=1000, help="journal commits to time (default 1000)")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the benchmark databases")
    args = parser.parse_args()

    record, source = four_player_record()
    print(f"record: {source}: {len(record.players)} players, {len(record.actions)} actions")
    median, best = median_seconds(lambda: replay(record), args.runs)
    print(f"replay: median {median * 1000:.2f} ms, best {best * 1000:.2f} ms over {args.runs} runs "
          f"(goal < {GOALS['replay'] * 1000:.0f} ms)")

    with tempfile.TemporaryDirectory(dir=args.dir) as folder_name:
        folder = Path(folder_name)
        record_path = folder / "record.json"
        record_path.write_text(dump_record(record), encoding="utf-8")
        median, best = score_command_seconds(record_path, args.score_runs)
        print(f"python -m app score: median {median:.3f} s, best {best:.3f} s over {args.score_runs} runs "
              f"(goal < {GOALS['score']:.1f} s)")

        with Session.open(folder / "bench-load.db") as session:
            game = session.new_game("macao", {"started": record.started, "players": record.players,
                                              "wall": record.wall})
            for action in record.actions:
                session.act(action)
            median, best = median_seconds(lambda: session.load(game), max(10, args.runs // 10))
        print(f"session load (journal replay with history): median {median * 1000:.2f} ms, best {best * 1000:.2f} ms")

        rates = journal_append_rates(folder, args.appends)
        rate = statistics.median(rates)
        print(f"journal append: median {rate:.0f} committed actions/s ({1000 / rate:.2f} ms each), "
              f"slowest batch {min(rates):.0f}/s; WAL, synchronous=FULL, {args.appends} commits in {folder}")
        print(f"session act (rules + commit): {session_act_rate(folder, record):.0f} actions/s")


if __name__ == "__main__":
    main()
