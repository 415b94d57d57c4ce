"""The session: rules first, then the journal; undo, redo, go back, history, resume."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games.base import RecordError, RulesError
from app.games.macao import Record, legal_options, load_record, replay, score, waiting_for
from app.games.macao.simulate import random_record
from app.journal import JournalError
from app.session import PlayerNotice, Session, SessionError
from app.ui.i18n import Translator


def fixed_clock() -> Iterator[str]:
    return (f"1970-01-01T00:{n // 60:02d}:{n % 60:02d}+00:00" for n in itertools.count())


@pytest.fixture(scope="module")
def record() -> Record:
    return random_record(seed=7, players=2)


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    ticks = fixed_clock()
    with Session.open(tmp_path / "windrose.db", clock=lambda: next(ticks)) as opened:
        yield opened


def start(session: Session, record: Record) -> int:
    return session.new_game("macao", {"started": record.started, "players": record.players, "wall": record.wall})


def play(session: Session, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        session.act(action)


def state_json(state: Any) -> dict[str, Any]:
    return state.to_json()


def event_count(session: Session) -> int:
    with sqlite3.connect(session.journal.path) as other:
        return other.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def test_acting_a_whole_record_gives_the_replayed_state_and_the_same_record(
    session: Session, record: Record
) -> None:
    start(session, record)
    play(session, record.actions)
    assert state_json(session.state) == state_json(replay(record))
    assert session.actions == record.actions
    assert json.loads(session.record_text()) == record.to_json()
    assert session.is_over
    sheet = score(replay(record))
    assert session.game.score_document(session.state) == sheet.to_json()
    assert [(line.player, line.total, line.rank) for line in session.score().lines] == [
        (row.colour, row.total, row.rank) for row in sheet.rows]
    assert session.score().winner == sheet.winner
    assert session.journal.game(session.game_id).finished


def test_a_refused_action_changes_neither_state_nor_journal(session: Session, record: Record) -> None:
    start(session, record)
    play(session, record.actions[:10])
    before, events, history = state_json(session.state), event_count(session), len(session.history())
    wrong_player = next(p["colour"] for p in record.players if p["colour"] != session.state.turn)
    refused = {"type": "end_turn", "player": wrong_player}
    with pytest.raises(RulesError) as caught:
        session.act(refused)
    assert caught.value.action_index == 10
    with pytest.raises(RulesError, match="not well formed"):
        session.act({"type": "teleport"})
    assert state_json(session.state) == before
    assert event_count(session) == events
    assert len(session.history()) == history
    assert session.actions == record.actions[:10]


def test_undo_redo_and_a_new_action_clearing_redo(session: Session, record: Record) -> None:
    start(session, record)
    assert not session.can_undo
    with pytest.raises(SessionError, match="nothing to undo"):
        session.undo()
    play(session, record.actions[:20])
    assert state_json(session.undo()) == state_json(replay(record, upto=19))
    assert state_json(session.undo()) == state_json(replay(record, upto=18))
    assert session.can_redo
    assert state_json(session.redo()) == state_json(replay(record, upto=19))
    session.act(record.actions[19])  # taking the same action anew drops the redo stack
    assert not session.can_redo
    with pytest.raises(SessionError, match="nothing to redo"):
        session.redo()
    assert session.actions == record.actions[:20]
    kinds = [entry.kind for entry in session.history()]
    assert kinds == ["action"] * 20 + ["undo", "undo", "redo", "action"]


def test_go_back_and_forward_through_the_actions(session: Session, record: Record) -> None:
    start(session, record)
    play(session, record.actions[:30])
    assert state_json(session.go_back(5)) == state_json(replay(record, upto=5))
    assert session.actions == record.actions[:5]
    assert state_json(session.go_back(25)) == state_json(replay(record, upto=25))
    assert state_json(session.redo()) == state_json(replay(record, upto=26))
    with pytest.raises(SessionError, match="only 0..30"):
        session.go_back(31)
    entries = session.history()
    assert [e.text for e in entries if e.kind == "goto"] == ["Went back to action 5", "Went forward to action 25"]


def test_history_names_players_and_cards_and_marks_undone_actions(session: Session, record: Record) -> None:
    start(session, record)
    play(session, record.actions[:12])
    session.undo()
    entries = session.history()
    names = {p["name"] for p in record.players}
    pick = next(e for e in entries if e.kind == "action" and e.action["type"] == "setup_pick")
    picked_card = record.actions[0]["cards"][pick.action["card"]]["name"]
    assert pick.text.startswith(tuple(names)) and picked_card in pick.text
    assert [e.live for e in entries[:12]] == [True] * 11 + [False]
    undo = entries[-1]
    assert (undo.kind, undo.index, undo.live) == ("undo", 11, False)
    assert undo.text == "Undo: " + entries[11].text and undo.action_message == entries[11].message
    assert entries[0].message.template and entries[0].created_at.startswith("1970")


def test_a_reopened_journal_rebuilds_state_and_history(tmp_path: Path, record: Record) -> None:
    path = tmp_path / "windrose.db"
    with Session.open(path) as first:
        game = start(first, record)
        play(first, record.actions[:40])
        first.go_back(33)
        first.undo()
        expected_state, expected_history = state_json(first.state), first.history()
    with Session.open(path) as second:
        assert second.resume_last()
        assert second.game_id == game
        assert state_json(second.state) == expected_state
        assert second.history() == expected_history
        assert second.can_redo and second.actions == record.actions[:32]


def test_finishing_marks_the_game_and_undo_reopens_it(session: Session, record: Record) -> None:
    game = start(session, record)
    play(session, record.actions)
    assert session.journal.last_unfinished() is None
    session.undo()
    assert session.journal.last_unfinished() == game
    with pytest.raises(SessionError, match="not over"):
        session.score()


def test_games_list_and_resume_the_last_unfinished(session: Session, record: Record) -> None:
    assert not session.resume_last()
    done = start(session, record)
    play(session, record.actions)
    open_game = start(session, record)
    play(session, record.actions[:50])
    winner = score(replay(record)).winner
    summaries = {s.id: s for s in session.games()}
    assert (summaries[done].finished, summaries[done].winner, summaries[done].round) == (True, winner, 13)
    assert summaries[open_game].finished is False and summaries[open_game].winner is None
    assert summaries[open_game].round == replay(record, upto=50).round
    assert summaries[open_game].players == [(p["colour"], p["name"]) for p in record.players]
    session.load(done)
    assert session.resume_last() and session.game_id == open_game


def test_options_and_waiting_for_come_from_the_rules(session: Session, record: Record) -> None:
    start(session, record)
    turn_actions = next(i for i, a in enumerate(record.actions) if a["type"] == "end_turn")
    play(session, record.actions[:turn_actions])
    colour = session.state.turn
    assert session.waiting_for() == waiting_for(replay(record, upto=turn_actions))
    assert session.options(colour) == legal_options(replay(record, upto=turn_actions), colour)


def test_no_game_loaded_and_bad_players_are_refused(session: Session) -> None:
    with pytest.raises(SessionError, match="no game is loaded"):
        session.act({"type": "roll"})
    with pytest.raises(RecordError, match="players: expected 2 to 4 entries"):
        session.new_game("macao", {"started": "today", "players": [{"colour": "orange", "name": "Ann"}],
                                   "wall": ["orange"]})
    assert session.journal.games() == []


def test_an_action_the_journal_cannot_save_does_not_count(session: Session, record: Record) -> None:
    start(session, record)
    play(session, record.actions[:5])
    before = state_json(session.state)
    with sqlite3.connect(session.journal.path) as other:
        other.execute("CREATE TRIGGER full BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with pytest.raises(JournalError, match="could not be saved: disk full"):
        session.act(record.actions[5])
    assert state_json(session.state) == before
    assert session.actions == record.actions[:5] and len(session.history()) == 5
    with sqlite3.connect(session.journal.path) as other:
        other.execute("DROP TRIGGER full")
    session.act(record.actions[5])
    assert session.actions == record.actions[:6]


def test_a_game_that_no_longer_replays_is_refused_and_the_loaded_game_stays(
    session: Session, record: Record
) -> None:
    good = start(session, record)
    play(session, record.actions[:8])
    damaged = session.journal.create_game(session.journal.game(good).header, "macao")
    session.journal.append(damaged, "action", record.actions[0])
    session.journal.append(damaged, "action", {"type": "end_turn", "player": record.players[0]["colour"]})
    session.load(good)
    with pytest.raises(SessionError, match=f"game {damaged}, journal event 2: action 1 \\(end_turn"):
        session.load(damaged)
    assert session.game_id == good and session.actions == record.actions[:8]
    problems = {s.id: s.problem for s in session.games()}
    assert problems[good] is None and "end_turn" in str(problems[damaged])


GOLDEN = sorted(p for p in (Path(__file__).parent / "records").glob("*.json") if ".expected" not in p.name)


@pytest.mark.parametrize("golden", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_action_of_the_golden_games_has_a_readable_summary(session: Session, golden: Path) -> None:
    game = load_record(golden.read_text(encoding="utf-8"))
    start(session, game)
    play(session, game.actions)
    names = {p["colour"]: p["name"] for p in game.players}
    for entry in session.history():
        text = entry.text
        assert text and "{" not in text and "None" not in text, text
        if "player" in entry.action:
            assert names[entry.action["player"]] in text, text
    cards = [e.text for e in session.history() if e.action["type"] in ("take_card", "activate", "setup_pick")]
    assert cards and not any(text.endswith("a card") for text in cards)


def test_the_games_list_follows_new_events(session: Session, record: Record) -> None:
    game = start(session, record)
    play(session, record.actions[:3])
    assert session.games()[0].round == 0
    play(session, record.actions[3:])
    (summary,) = session.games()
    assert (summary.id, summary.round, summary.finished) == (game, 13, True)
    session.undo()
    assert session.games()[0].finished is False and session.games()[0].winner is None


def test_the_game_keeps_its_own_copy_of_each_action(session: Session, record: Record) -> None:
    start(session, record)
    action = dict(record.actions[0])
    session.act(action)
    action["type"] = "changed afterwards"
    assert session.actions == record.actions[:1]
    with pytest.raises(SessionError, match="plain JSON"):
        session.act({"type": "roll", "dice": {1, 2}})
    assert session.actions == record.actions[:1]


# -- notices for the player, in the table's language --------------------------------------------


@pytest.fixture
def german() -> Translator:
    translator = Translator()
    translator.set_language("de")
    return translator


def test_a_set_aside_journal_notice_reads_in_english_and_in_german(tmp_path: Path, german: Translator) -> None:
    (tmp_path / "windrose.db").write_bytes(b"this is not a database" * 100)
    with Session.open(tmp_path / "windrose.db", clock=lambda: "2026-11-29T19:30:00+01:00") as opened:
        [notice] = opened.notices
    kept = next(tmp_path.glob("windrose.db.damaged-*")).name
    assert isinstance(notice, PlayerNotice)
    assert notice.startswith("The saved games file could not be used: the file is not a SQLite database")
    assert kept in notice and str(tmp_path / "backups") in notice
    shown = german.message(notice.message)
    assert shown.startswith("Die Datei mit den gespeicherten Partien war nicht lesbar: die Datei ist keine "
                            "SQLite-Datenbank (beschädigt oder eine andere Datei).")
    assert f"Sie wurde als {kept} aufbewahrt" in shown and str(tmp_path / "backups") in shown


def test_a_backup_notice_reads_in_german(tmp_path: Path, record: Record, german: Translator) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the backup folder should be")
    with Session.open(tmp_path / "windrose.db", backup_dir=blocked) as opened:
        start(opened, record)
        play(opened, record.actions)
        [notice] = opened.notices
    assert notice.startswith("The backup copy of game 1 could not be written (")
    assert german.message(notice.message).startswith("Die Sicherungskopie von Partie 1 konnte nicht geschrieben werden (")
    assert german.message(notice.message).endswith("); die Partie selbst ist gespeichert.")


@pytest.mark.parametrize(("name", "problem"), [
    ("A" * 41, "is 41 characters long; at most 40 are allowed"),
    ("Ann\x07", "contains control characters"),
    ("Ann\nBen", "contains control characters"),
    (" Ann", "must not start or end with a space"),
    ("\u202eAnn", "reverses the writing direction"),
])
def test_a_name_the_one_name_rule_refuses_is_refused_before_anything_is_stored(
    session: Session, name: str, problem: str
) -> None:
    def header(second: str) -> dict[str, Any]:
        return {"players": [{"colour": "white", "name": "Bea"}, {"colour": "orange", "name": second}],
                "wall": ["white", "orange"]}

    with pytest.raises(RecordError, match=problem) as caught:
        session.new_game("macao", header(name))
    assert caught.value.where == "players[1].name"
    assert session.journal.games() == [] and session.game_id is None
    session.new_game("macao", header("A" * 40))
