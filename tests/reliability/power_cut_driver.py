"""The process the power-cut test kills: plays scripted games through Session.act.

It prints `start` once its imports are done, then for each action `<game> <index>`
as soon as act() has returned (what a screen would now show as done), flushing
every line. Started again after a kill, it resumes where the journal says and
goes on with the same script; after a finished game it starts the next one.

Run: python -m tests.reliability.power_cut_driver DB_PATH
"""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from app.games.macao import Record
from app.games.macao.simulate import RandomTable
from app.session import Session

FIRST_SEED = 6100
PLAYERS = 2
GAMES_CAP = 1000  # a bound so a forgotten process stops on its own; the test always kills first


@cache
def scripted_game(game: int) -> Record:
    """Game number `game` of the script: a seeded legal 2-player game."""
    return replace(RandomTable(seed=FIRST_SEED + game, players=PLAYERS).play(), started=f"scripted game {game}")


def game_number(started: str) -> int:
    return int(started.rsplit(" ", 1)[1])


def display_clock() -> str:
    return "2026-11-29T20:00:00+01:00"


def play(db_path: Path) -> None:
    print("start", flush=True)
    session = Session.open(db_path, clock=display_clock)
    for _ in range(GAMES_CAP):
        last = session.journal.last_game()
        if last is None or session.journal.game(last).finished:
            game = 0 if last is None else game_number(session.journal.game(last).header["started"]) + 1
            record = scripted_game(game)
            session.new_game("macao", {"started": record.started, "players": record.players, "wall": record.wall})
        else:
            session.load(last)
            game = game_number(session.journal.game(last).header["started"])
            record = scripted_game(game)
        actions: list[dict[str, Any]] = record.actions
        for index in range(len(session.actions), len(actions)):
            session.act(actions[index])
            sys.stdout.write(f"{game} {index}\n")  # one write: a kill cannot split the line
            sys.stdout.flush()
    session.close()


if __name__ == "__main__":
    play(Path(sys.argv[1]))
