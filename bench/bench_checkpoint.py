"""What folding the WAL into the database after each round costs (not a test).

Run from the repository root:  .venv/bin/python -m bench.bench_checkpoint [--games N] [--dir DIR]

Plays seeded 4-player games through the session on the disk holding --dir, once
with the per-round `PRAGMA wal_checkpoint(TRUNCATE)` and once without, and
prints the time of each checkpoint, the whole games' time both ways, and how
large the -wal file grows without it (what a lost -wal would take).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from app.games.macao.simulate import random_record
from app.journal import Journal
from app.session import Session


def play(folder: Path, games: int, checkpoint: bool) -> tuple[float, list[float], int]:
    """Seconds for all games, each checkpoint's seconds, and the largest -wal size seen."""
    db = folder / "windrose.db"
    timings: list[float] = []
    real_checkpoint = Journal.checkpoint

    def timed(journal: Journal) -> None:
        started = time.perf_counter()
        real_checkpoint(journal)
        timings.append(time.perf_counter() - started)

    Journal.checkpoint = timed if checkpoint else (lambda journal: None)  # type: ignore[method-assign]
    largest_wal = 0
    try:
        started = time.perf_counter()
        with Session.open(db) as session:
            for seed in range(games):
                record = random_record(seed=seed, players=4)
                session.new_game("macao", {"started": record.started, "players": record.players,
                                           "wall": record.wall})
                for action in record.actions:
                    session.act(action)
                    wal = Path(f"{db}-wal")
                    largest_wal = max(largest_wal, wal.stat().st_size if wal.exists() else 0)
        return time.perf_counter() - started, timings, largest_wal
    finally:
        Journal.checkpoint = real_checkpoint  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None, help="where the journal goes (default: a temp dir)")
    args = parser.parse_args()
    results = {}
    for checkpoint in (False, True):
        with tempfile.TemporaryDirectory(dir=args.dir) as folder:
            results[checkpoint] = play(Path(folder), args.games, checkpoint)
    without, _, wal_without = results[False]
    with_, timings, wal_with = results[True]
    print(f"{args.games} games, {len(timings)} checkpoints")
    print(f"checkpoint: median {statistics.median(timings) * 1000:.1f} ms, max {max(timings) * 1000:.1f} ms")
    print(f"whole games: {without:.2f} s without, {with_:.2f} s with ({(with_ - without) / without:+.1%})")
    print(f"largest -wal: {wal_without // 1024} kB without, {wal_with // 1024} kB with")


if __name__ == "__main__":
    main()
