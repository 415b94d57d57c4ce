"""Clock jumps: the Pi has no real-time clock and may boot in 1970, or be set back mid-game.

The injected clock jumps backwards and to 1970 between actions and games; the
history order, "last unfinished game", resuming and file names must not care.
Timestamps stay what the clock said: display text only.
"""

from __future__ import annotations

import re
from pathlib import Path

from app.backup import BACKUP_FOLDER, backup_path
from app.games.macao import replay
from app.session import Session
from tests.reliability.helpers import seeded_game, start

JOURNAL_SOURCE = Path(__file__).resolve().parents[2] / "app" / "journal.py"


class JumpingClock:
    """A display clock that can be set to any time, like a Pi whose clock is corrected or lost."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.readings: list[str] = []

    def set(self, text: str) -> None:
        self.text = text

    def __call__(self) -> str:
        self.readings.append(self.text)
        return self.text


def test_backwards_and_1970_jumps_change_no_order(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    clock = JumpingClock("2026-11-29T20:00:00+01:00")
    first, second = seeded_game(21, started="evening game"), seeded_game(22, started="after the reboot")

    with Session.open(db, clock=clock) as session:
        first_id = start(session, first)
        for action in first.actions[:20]:
            session.act(action)
        clock.set("2026-11-29T18:00:00+01:00")  # set back two hours mid-game
        for action in first.actions[20:30]:
            session.act(action)
        clock.set("1970-01-01T00:00:07+00:00")  # power cut, boot without network time
        second_id = start(session, second)
        for action in second.actions[:15]:
            session.act(action)
        clock.set("2026-11-29T22:30:00+01:00")  # network time is back
        session.load(first_id)
        clock.set("1970-01-01T00:00:03+00:00")  # and lost again
        for action in first.actions[30:40]:
            session.act(action)
        session.undo()
        session.undo()
        session.redo()
        session.go_back(35)

        history = session.history()
        assert [entry.seq for entry in history] == list(range(1, len(history) + 1))
        assert [entry.kind for entry in history][-4:] == ["undo", "undo", "redo", "goto"]
        assert [entry.index for entry in history if entry.kind == "action"] == list(range(40))
        stamps = [entry.created_at for entry in history]
        assert stamps[0] == "2026-11-29T20:00:00+01:00" and stamps[20] == "2026-11-29T18:00:00+01:00"
        assert stamps[-1] == "1970-01-01T00:00:03+00:00"  # kept as the clock said, for display only
        assert session.journal.last_unfinished() == first_id  # most recently played, whatever the clock
        expected = session.state.to_json()
        assert expected == replay(first, upto=35).to_json()

    clock.set("1970-01-01T00:00:01+00:00")  # restart at an even earlier "time"
    with Session.open(db, clock=clock) as session:
        assert session.resume_last() and session.game_id == first_id
        assert session.state.to_json() == expected
        assert session.can_redo and len(session.history()) == len(history)
        assert [summary.id for summary in session.games()] == [first_id, second_id]
        session.load(second_id)
        assert session.actions == second.actions[:15]
        session.act(second.actions[15])
        assert session.journal.last_unfinished() == second_id

    folder = tmp_path / BACKUP_FOLDER
    assert backup_path(folder, first_id, "evening game").exists()  # named by the game, not the clock
    assert backup_path(folder, second_id, "after the reboot").exists()


def test_two_damaged_files_set_aside_under_the_same_1970_time_both_survive(tmp_path: Path) -> None:
    db = tmp_path / "windrose.db"
    clock = JumpingClock("1970-01-01T00:00:00+00:00")
    for attempt in range(2):
        db.write_text(f"damaged file number {attempt}", encoding="utf-8")
        with Session.open(db, clock=clock) as session:
            assert len(session.notices) == 1
    kept = sorted(tmp_path.glob("windrose.db.damaged-*"))
    assert [path.name for path in kept] == ["windrose.db.damaged-19700101T000000+0000",
                                            "windrose.db.damaged-19700101T000000+0000-2"]
    assert {path.read_text() for path in kept} == {"damaged file number 0", "damaged file number 1"}


def test_the_journal_never_orders_by_a_timestamp() -> None:
    source = JOURNAL_SOURCE.read_text(encoding="utf-8")
    orderings = re.findall(r"ORDER BY ([a-z_, ]+)", source)
    assert orderings, "the journal's queries have orderings to check"
    assert all("created_at" not in ordering for ordering in orderings), orderings
