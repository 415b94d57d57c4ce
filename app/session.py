"""The session: one game at a time, tied to the journal and the rules core.

The UI and the command line talk only to this object. Every action is checked
by the rules core first (a refused action changes nothing, on screen or on
disk), then committed to the journal, and only then becomes the current state.
Undo, redo and going back are journal events too, so the table's whole history
stays visible. After each round, when a game ends and when the session leaves a
game, the game is also written as a backup record file. A damaged database is
set aside at start and the player is told in `notices`; so is each stored game
that no longer replays (`set_aside`): it is never resumed, its rows stay as they
are, and `readable_game` gives it up to where it stops. Nothing here knows about
Kivy, nor about any one game: the rules come from the registered `Game` the
journal names.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.backup import BACKUP_FOLDER, backup_files, highest_backup_id, set_restored, write_backup
from app.game_summary import GameSummary
from app.games import MAX_DOCUMENT_BYTES, UnknownGame, read_document
from app.games import game as find_game
from app.games.base import (
    Game,
    GameDocument,
    Message,
    Progress,
    RecordError,
    RulesError,
    ScoreTable,
    Waiting,
    player_name_problem,
)
from app.journal import (
    Clock,
    Connect,
    Event,
    GameRow,
    Journal,
    JournalDamagedError,
    JournalError,
    Timeline,
    local_timestamp,
    open_or_set_aside,
)
from app.start_cache import KnownGame, QuietBackup, StartCache, key_digest, start_cache_path

log = logging.getLogger(__name__)


class SessionError(Exception):
    """A session request that cannot be met (no game loaded, nothing to undo, damaged game)."""


@dataclass(frozen=True)
class HistoryEntry:
    """One journal event of the current game, for the history list.

    `index` is the action's 0-based position in the game for action, undo and
    redo events, and the number of actions kept for a goto. `live` tells whether
    an action event's action is part of the game now (False once undone).
    `message` is the whole line; `action_message` the summary of the action
    alone, so a translated UI can compose "Undo: ..." itself.
    """

    seq: int
    kind: str
    index: int
    action: dict[str, Any] | None
    message: Message
    action_message: Message | None
    created_at: str
    live: bool = False

    @property
    def text(self) -> str:
        return str(self.message)


@dataclass(frozen=True)
class BackupOffer:
    """A backup record that holds more of a game than the journal does (a lost -wal, an emptied file)."""

    path: Path
    game_id: int
    game: Game  # the registered game that reads the copy
    document: GameDocument
    in_journal: int | None  # live actions of that game in the journal; None: the journal lacks it


@dataclass(frozen=True)
class ReadableGame:
    """A stored game as far as it replays: its rules, its document up to where it stops, the
    state there, and why it stops (None: the whole game replays)."""

    game: Game
    document: GameDocument
    state: Any
    problem: str | None


class PlayerNotice(str):
    """A notice for the player: its English text (what the CLI and logs print), carrying the
    Message it was made from so the UI can show it in the table's language."""

    message: Message

    def __new__(cls, message: Message) -> PlayerNotice:
        notice = super().__new__(cls, message.render())
        notice.message = message
        return notice


class Session:
    """Plays one game at a time against a journal file.

    `notices` holds plain-words messages for the player that are no error of an
    action (the database was damaged and set aside, a backup could not be
    written); the UI shows them and may clear the list.
    """

    def __init__(self, journal: Journal, backup_dir: Path | None = None) -> None:
        self.journal = journal
        self.backup_dir = backup_dir  # None: no backup files (a bare session in tests)
        self.notices: list[PlayerNotice] = []
        self.game_id: int | None = None
        self._game: Game | None = None  # the rules of the current game
        self._backup_due = False  # the current game has events its backup file lacks
        self._backed_up_at: tuple[int, bool] | None = None  # (round, game over) the backup file shows
        self._header: dict[str, Any] = {}
        self._timeline = Timeline()
        self._states: list[Any] = []  # _states[i]: the state after i live actions
        self._steps: list[HistoryEntry] = []  # `live` is filled in by history()
        self._messages: dict[int, Message] = {}  # origin seq of an action -> its summary
        self._summaries: dict[int, tuple[int, GameSummary]] = {}  # game id -> (last seq, summary)
        self.set_aside: dict[int, str] = {}  # game id -> why it no longer replays
        self.backup_offers: list[BackupOffer] = []  # games a backup copy can give back (check_backups)

    @classmethod
    def open(
        cls,
        db_path: str | Path,
        clock: Clock = local_timestamp,
        backup_dir: Path | None = None,
        connect: Connect | None = None,
    ) -> Session:
        """Open the journal at db_path, checking it first.

        A damaged file (or some other program's, or a newer Windrose's) is set
        aside as `<name>.damaged-<time>`, a new empty journal is opened and
        `notices` says so. JournalOpenError when the file cannot be opened at
        all (read-only folder, locked): then it is left untouched.
        Backups go to `backup_dir`, by default `backups/` beside the database.
        """
        db_path = Path(db_path)
        folder = backup_dir if backup_dir is not None else db_path.parent / BACKUP_FOLDER
        journal, damage, moved_to = open_or_set_aside(db_path, clock, connect)
        session = cls(journal, backup_dir=folder)
        if damage is not None and moved_to is not None:
            session.notices.append(_set_aside_notice(damage, moved_to, folder))
        cache = StartCache.load(start_cache_path(db_path))
        session.check_games(cache)
        session.check_backups(cache)
        cache.save()
        return session

    def check_backups(self, cache: StartCache | None = None) -> None:
        """Offer each backup that is ahead of the journal: its game is missing, or has fewer actions.

        A backup matches the journal's games by game and header (start time, players, set-up), so
        a copy already imported under a new id is not offered again. Only a backup whose actions begin
        with the journal's live ones is offered, and never one whose actions are all still
        reachable there (undone or gone back from on purpose).

        A game's timeline is read only for the backups of its header, one backup at a time: all
        of them at once held some 50 MB at 200 stored games, which the process kept. With the
        start cache (after `check_games` with it), a file that offered nothing last time is not
        read again while it and the games it was weighed against are unchanged.
        """
        if self.backup_dir is None:
            return
        known = cache.kept_games() if cache is not None else {}
        keys = {row.id: known[row.id].key if row.id in known else key_digest(_stored_game_key(row))
                for row in self.journal.games()}
        offers = []
        for game_id, path in backup_files(self.backup_dir):
            try:
                stat = path.stat()
            except OSError:
                continue  # gone since the folder was listed
            if cache is not None and (quiet := cache.quiet_backup(path.name)) is not None \
                    and quiet.still_quiet(stat, self._weighed_against(quiet.key, keys, known)):
                cache.keep_backup(path.name, quiet)
                continue
            offer, key = self._backup_offer(game_id, path, keys)
            if offer is not None:
                offers.append(offer)
            elif cache is not None and key is not None:
                cache.keep_backup(path.name, QuietBackup(stat.st_size, stat.st_mtime_ns, key,
                                                         self._weighed_against(key, keys, known)))
        self.backup_offers = offers
        if offers:
            self.notices.append(PlayerNotice(Message(
                "The backup copies hold more than the games file (game: actions in the copy/in the file): "
                "{games}. Tap \"Restore from the backups\" on the start screen to take them back.",
                {"games": "; ".join(_offer_text(offer) for offer in offers)})))

    def _backup_offer(self, game_id: int, path: Path, keys: dict[int, str | None]) -> tuple[BackupOffer | None, str | None]:
        """The offer of one backup file, if it is ahead of the journal (`check_backups`), and the
        digest of its same-game key (None for a file that cannot be read or whose header cannot be written)."""
        try:
            rules, document = read_game_file(path)
        except (OSError, RecordError):
            return None, None  # not a copy we can use; the file stays for a person to look at
        key = key_digest(_same_game_key(rules, document.header))
        matching = {other: timeline for other in keys
                    if key is not None and keys[other] == key and (timeline := self._timeline_of(other)) is not None}
        if any(timeline.reachable >= len(document.actions) for timeline in matching.values()):
            return None, key
        same = matching.get(game_id)
        if same is not None and document.actions[: len(same.live)] == same.actions:
            return BackupOffer(path, game_id, rules, document, len(same.live)), key
        if not matching:
            return BackupOffer(path, game_id, rules, document, None), key
        return None, key

    def _weighed_against(self, key: str, keys: dict[int, str | None], known: dict[int, KnownGame]) -> dict[int, str]:
        """The stored games a backup of this key is weighed against (same key, replaying), with their digests."""
        return {game_id: known[game_id].digest for game_id in keys
                if keys[game_id] == key and game_id not in self.set_aside and game_id in known}

    def _timeline_of(self, game_id: int) -> Timeline | None:
        """The journal's timeline of a game that replays; None when it set the game aside."""
        if game_id in self.set_aside:
            return None
        try:
            return self.journal.timeline(game_id)
        except JournalError:
            return None

    def restore_backups(self) -> list[int]:
        """Take back every offered game from its backup (one tap); returns the games' ids.

        A game still in the journal gets the missing actions appended, each checked and committed as
        at the table; a game the journal lacks (or set aside) comes back as a new game, and its old
        copy is renamed so it is not offered again. Stops at the first fault (JournalError, OSError).
        """
        restored = []
        for offer in list(self.backup_offers):
            try:
                if offer.in_journal is not None:
                    self.load(offer.game_id)
                    for action in offer.document.actions[offer.in_journal:]:
                        self.act(action)
                    restored.append(offer.game_id)
                else:
                    game_id = self.import_document(offer.game, offer.document)
                    self._write_backup_if_due()
                    set_restored(offer.path, game_id)
                    restored.append(game_id)
            except (RulesError, RecordError, SessionError) as err:  # a copy this version cannot replay
                self.notices.append(PlayerNotice(Message(
                    "The backup copy {file} could not be restored ({reason}); it is kept as it is.",
                    {"file": offer.path.name, "reason": str(err)})))
            self.backup_offers.remove(offer)
        return restored

    def check_games(self, cache: StartCache | None = None) -> None:
        """Replay every stored game; each one that does not replay is set aside and the table told.

        Its rows stay untouched (a later Windrose may read them); it is listed with its problem,
        never resumed, and exports up to the point where it stops. With the start cache, a game
        whose stored bytes are those the last start summarised is not replayed again.
        """
        if cache is not None:
            self._summaries_from(cache)
        for summary in self.games():
            if summary.problem is not None and summary.id not in self.set_aside:
                self._set_game_aside(summary.id, summary.problem)

    def _summaries_from(self, cache: StartCache) -> None:
        """Take the cached summaries of unchanged games, summarise the rest, and keep them all in the cache."""
        digests = self.journal.digests()
        last_seqs = self.journal.last_seqs()
        for game_id, digest in digests.items():
            if (known := cache.known_game(game_id, digest)) is not None:
                self._summaries[game_id] = (last_seqs.get(game_id, 0), known.summary)
                cache.keep_game(game_id, known)
        kept = cache.kept_games()
        for row in self.journal.games():
            if row.id not in kept and row.id in digests:
                cache.keep_game(row.id, KnownGame(digests[row.id], self._summary_of(row, last_seqs),
                                                  key_digest(_stored_game_key(row))))

    def _summary_of(self, row: GameRow, last_seqs: dict[int, int]) -> GameSummary:
        """The game's summary, replayed now and remembered until it has new events."""
        cached = self._summaries.get(row.id)
        if cached is None or cached[0] != last_seqs.get(row.id, 0) or cached[1].finished != row.finished:
            cached = (last_seqs.get(row.id, 0), self._summarise(row))
            self._summaries[row.id] = cached
        return cached[1]

    def _set_game_aside(self, game_id: int, problem: str) -> None:
        self.set_aside[game_id] = problem
        names = ", ".join(name for _colour, name in self._summaries[game_id][1].players) \
            if game_id in self._summaries else ""
        self.notices.append(PlayerNotice(Message(
            "Game {game} ({players}) cannot be replayed ({reason}). It was set aside as it is: Past games "
            "shows it and exports it up to where it stops.",
            {"game": game_id, "players": names or "?", "reason": problem})))

    def close(self) -> None:
        """Write the current game's backup if it is behind, then close the journal."""
        self._write_backup_if_due()
        self.journal.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- games -----------------------------------------------------------------

    def games(self) -> list[GameSummary]:
        """Every stored game, oldest first, with its round and (once over) winner.

        Each game is replayed once; the summary is reused until the game has new events.
        """
        last_seqs = self.journal.last_seqs()
        return [self._summary_of(row, last_seqs) for row in self.journal.games()]

    def _summarise(self, row: GameRow) -> GameSummary:
        header = row.header
        players: list[tuple[str, str]] = []
        round_number, winner, problem = 0, None, row.problem
        label: Message | None = None
        try:
            if problem is not None:
                raise JournalError(problem)
            rules = _rules_of(row)
            players = [(seat.id, seat.name) for seat in rules.seats(header)]
            state = rules.replay(GameDocument(header, self.journal.timeline(row.id).actions))
            progress = rules.progress(state)
            round_number, label = progress.round, progress.label
            if progress.finished:
                winner = rules.score(state).winner
        except (RulesError, RecordError, JournalError, SessionError, KeyError, TypeError, AttributeError) as err:
            problem = problem or str(err)
        return GameSummary(row.id, row.game_type, str(header.get("started", "")), players, row.finished,
                           round_number, winner, label if problem is None else None, problem)

    def new_game(self, game: str, header: dict[str, Any]) -> int:
        """Start and load a new game of the registered game `game` from its header (players,
        set-up, start time; the game's first format unless the header names one of its own).

        RecordError, with nothing stored, for bad players or set-up. A record's optional
        top-level fields may ride along in the header, so an export gives them back. A
        player's name the one name rule refuses (app.games.base) is a SessionError, also for
        a game whose reader lets it pass: its backup could not be imported back.
        """
        try:
            rules = find_game(game)
        except UnknownGame as err:
            raise SessionError(str(err)) from None
        header = {"format": rules.formats[0], **{k: v for k, v in header.items() if k != "actions"}}
        state = rules.new_state(header)
        for seat in rules.seats(header):
            problem = player_name_problem(seat.name)
            if problem is not None:
                raise SessionError(f"the name {seat.name!r} of player {seat.id} {problem}")
        id_above = highest_backup_id(self.backup_dir) if self.backup_dir is not None else 0
        new_id = self.journal.create_game(header, game_type=rules.id, id_above=id_above)
        self._write_backup_if_due()
        self._reset(new_id, rules, header, state)
        self._backup_due = True
        return new_id

    def import_document(self, rules: Game, document: GameDocument) -> int:
        """Store a game's record or sheet as a new game and load it; each action checked and
        committed as at the table.

        A document that does not replay is refused whole (RulesError, RecordError) before
        anything is stored; a name the name rule refuses is a SessionError.
        """
        rules.replay(document)
        game_id = self.new_game(rules.id, document.header)
        for action in document.actions:
            self.act(action)
        return game_id

    def load(self, game_id: int) -> None:
        """Make a stored game current, replaying its journal (SessionError if it no longer replays)."""
        row = self.journal.game(game_id)
        if row.problem is not None:
            raise SessionError(row.problem)
        rules = _rules_of(row)
        header = row.header
        try:
            start = rules.new_state(header)
        except (RecordError, KeyError, TypeError, AttributeError) as err:
            raise SessionError(f"game {game_id} has a damaged header: {err}") from None
        events, problem = self.journal.readable_events(game_id)
        if problem is not None:
            raise SessionError(problem)
        self._write_backup_if_due()
        current = (self.game_id, self._game, self._header, self._timeline, self._states, self._steps,
                   self._messages)
        self._reset(game_id, rules, header, start)
        for event in events:
            try:
                self._follow(event)
            except (RulesError, JournalError) as err:
                # Keep whatever game was loaded before; the damaged one stays on disk untouched.
                (self.game_id, self._game, self._header, self._timeline, self._states, self._steps,
                 self._messages) = current
                self._backed_up_at = self._backup_mark() if self.game_id is not None else None
                raise SessionError(f"game {game_id}, journal event {event.seq}: {err}") from None
        self._backed_up_at = self._backup_mark()

    def resume_last(self) -> bool:
        """Load the last unfinished game, if there is one and it replays.

        A game that no longer replays is set aside (and the table told) instead; no older
        game is resumed in its place, so the start screen shows what happened.
        """
        game_id = self.journal.last_unfinished()
        if game_id is None or game_id in self.set_aside:
            return False
        try:
            self.load(game_id)
        except SessionError as err:
            self._set_game_aside(game_id, str(err))
            return False
        return True

    def readable_game(self, game_id: int) -> ReadableGame:
        """A stored game up to where it stops replaying, and why it stops.

        What a set-aside game can still give: its readable events, folded, and of their
        actions those that replay. SessionError when not even the header can be read, or the
        game is of a kind this Windrose does not know.
        """
        row = self.journal.game(game_id)
        if row.problem is not None:
            raise SessionError(row.problem)
        rules = _rules_of(row)
        events, problem = self.journal.readable_events(game_id)
        timeline = Timeline()
        for event in events:
            try:
                timeline.apply(event.seq, event.kind, event.payload)
            except JournalError as err:
                problem = f"game {game_id}, event {event.seq}: {err}"
                break
        document = GameDocument(dict(row.header), timeline.actions)
        try:
            try:
                state = rules.replay(document)
            except RulesError as err:  # the actions before the refused one still replay
                problem = problem or str(err)
                document = GameDocument(document.header, document.actions[: err.action_index or 0])
                state = rules.replay(document)
        except (RecordError, KeyError, TypeError, AttributeError) as err:
            raise SessionError(f"game {game_id} has a damaged header: {err}") from None
        return ReadableGame(rules, document, state, problem)

    # -- the current game --------------------------------------------------------

    @property
    def game(self) -> Game:
        """The rules of the current game (SessionError when none is loaded)."""
        self._require_game()
        assert self._game is not None
        return self._game

    @property
    def state(self) -> Any:
        """The current state, the game's own data (read only: the session keeps it for undo)."""
        self._require_game()
        return self._states[-1]

    def state_after(self, actions: int) -> Any:
        """The state after the first `actions` live actions (0: the start), for looking back over a
        round; read only, as `state`."""
        self._require_game()
        return self._states[actions]

    @property
    def position(self) -> tuple[int | None, int]:
        """The loaded game and how many of its events this session followed: any commit changes it."""
        return self.game_id, len(self._steps)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The live actions, in order (a copy)."""
        return self._timeline.actions

    @property
    def can_undo(self) -> bool:
        return self.game_id is not None and self._timeline.can_undo

    @property
    def can_redo(self) -> bool:
        return self.game_id is not None and self._timeline.can_redo

    @property
    def next_redo(self) -> dict[str, Any] | None:
        """The action Redo would bring back (a copy), so a form can offer what was undone."""
        if self.game_id is None or not self._timeline.can_redo:
            return None
        return json.loads(json.dumps(self._timeline.redo_stack[-1].action))

    @property
    def is_over(self) -> bool:
        return self.progress().finished

    def progress(self) -> Progress:
        """How far the current game is (round, phase, over or not)."""
        return self.game.progress(self.state)

    def document(self) -> GameDocument:
        """The current game as its header plus the live actions."""
        self._require_game()
        return GameDocument(dict(self._header), self.actions)

    def record_text(self) -> str:
        """The current game as its game's record or sheet file."""
        return self.game.write(self.document())

    def act(self, action: dict[str, Any]) -> Any:
        """Check an action with the rules, commit it, and return the new state.

        A RulesError (also raised for a malformed action) leaves the state and
        the journal exactly as they were; it names the action's index.
        """
        self._require_game()
        try:
            # What is kept (and replayed later) is exactly what the journal stores,
            # and the caller's dict can change afterwards without touching the game.
            action = json.loads(json.dumps(action))
        except (TypeError, ValueError) as err:
            raise SessionError(f"an action must be plain JSON data: {err}") from None
        before = self._states[-1]
        after = self._apply(before, action, len(self._states) - 1)
        event = self.journal.append(self._current(), "action", action, finished=self.game.progress(after).finished)
        self._follow(event, after)
        self._after_commit()
        return after

    def undo(self) -> Any:
        """Take back the last action (it can be redone until a new action is taken)."""
        return self._commit("undo", {"index": len(self._states) - 2}, "nothing to undo")

    def redo(self) -> Any:
        """Put back the last undone action."""
        return self._commit("redo", {"index": len(self._states) - 1}, "nothing to redo")

    def go_back(self, keep: int) -> Any:
        """Keep the first `keep` actions; the rest can be redone one by one.

        Also goes forward (up to every redoable action) when `keep` is larger
        than the number of live actions.
        """
        return self._commit("goto", {"keep": keep, "from": len(self._states) - 1}, "")

    def history(self) -> list[HistoryEntry]:
        """Every journal event of the current game in order, undone actions included."""
        self._require_game()
        live = {entry.origin_seq for entry in self._timeline.live}
        return [replace(step, live=step.kind == "action" and step.seq in live) for step in self._steps]

    def options(self, player: str) -> Any:
        """The game's legal options for one player now."""
        return self.game.options(self.state, player)

    def waiting_for(self) -> Waiting:
        """What the game expects next, and from whom."""
        return self.game.waiting_for(self.state)

    def score(self) -> ScoreTable:
        """The final result with its breakdown (SessionError until the game is over)."""
        if not self.is_over:
            raise SessionError("the game is not over yet: every player needs a final entry first")
        return self.game.score(self.state)

    # -- internals ---------------------------------------------------------------

    def _commit(self, kind: str, payload: dict[str, Any], refusal: str) -> Any:
        self._require_game()
        try:
            self._timeline.check(kind, payload)
        except JournalError as err:
            raise SessionError(refusal or str(err)) from None
        preview = Timeline(list(self._timeline.live), list(self._timeline.redo_stack))
        preview.apply(0, kind, payload)
        finished = self.game.progress(self._state_for(preview)).finished
        event = self.journal.append(self._current(), kind, payload, finished=finished)
        self._follow(event)
        self._after_commit()
        return self._states[-1]

    def _after_commit(self) -> None:
        """A committed event: when the round changed or the game ended, write the backup and fold
        the WAL into the database file (a lost -wal then costs at most the round under way)."""
        self._backup_due = True
        if self._backup_mark() != self._backed_up_at:
            self._write_backup_if_due()
            try:
                self.journal.checkpoint()
            except JournalError as err:  # the events are safe in the WAL; the next round tries again
                log.warning("%s", err)

    def _backup_mark(self) -> tuple[int, bool]:
        progress = self.game.progress(self._states[-1])
        return progress.round, progress.finished

    def _write_backup_if_due(self) -> None:
        """Write the current game's record file; a failure becomes a notice, never an error.

        The action is already safe in the journal, so a full disk here must not
        refuse it; the player is told the backup is behind.
        """
        if self.game_id is None or not self._backup_due or self.backup_dir is None:
            return
        try:
            write_backup(self.backup_dir, self.game_id, self._header.get("started"), self.record_text())
        except OSError as err:
            notice = PlayerNotice(Message(
                "The backup copy of game {game} could not be written ({reason}); the game itself is saved.",
                {"game": self.game_id, "reason": err.strerror or str(err)}))
            if notice not in self.notices:
                self.notices.append(notice)
            return
        self._backup_due = False
        self._backed_up_at = self._backup_mark()

    def _state_for(self, timeline: Timeline) -> Any:
        """The state a changed timeline would give, without touching the session."""
        keep = len(timeline.live)
        if keep < len(self._states):
            return self._states[keep]
        state = self._states[-1]
        for entry in timeline.live[len(self._states) - 1 :]:
            state = self.game.apply(state, entry.action)
        return state

    def _follow(self, event: Event, after: Any = None) -> None:
        """Bring timeline, states and history up to date with one committed event.

        `after` is the state an action event gives, when the caller already has it.
        """
        live_before = list(self._timeline.live)
        self._timeline.apply(event.seq, event.kind, event.payload)
        if event.kind == "action":
            before = self._states[-1]
            if after is None:
                after = self._apply(before, event.payload, len(self._states) - 1)
            self._states.append(after)
            summary = self.game.describe(before, event.payload, after)
            self._messages[event.seq] = summary
            self._add_step(event, len(self._states) - 2, event.payload, summary, summary)
        elif event.kind == "undo":
            undone = live_before[-1]
            self._states.pop()
            summary = self._messages[undone.origin_seq]
            self._add_step(event, len(self._states) - 1, undone.action, Message("Undo: {action}", {"action": summary}),
                           summary)
        elif event.kind == "redo":
            redone = self._timeline.live[-1]
            self._states.append(self._apply(self._states[-1], redone.action, len(self._states) - 1))
            summary = self._messages[redone.origin_seq]
            self._add_step(event, len(self._states) - 2, redone.action, Message("Redo: {action}", {"action": summary}),
                           summary)
        else:
            keep = len(self._timeline.live)
            del self._states[keep + 1 :]
            for entry in self._timeline.live[len(self._states) - 1 :]:
                self._states.append(self._apply(self._states[-1], entry.action, len(self._states) - 1))
            template = "Went back to action {keep}" if keep < len(live_before) else "Went forward to action {keep}"
            self._add_step(event, keep, None, Message(template, {"keep": keep}), None)

    def _add_step(
        self, event: Event, index: int, action: dict[str, Any] | None, message: Message, summary: Message | None
    ) -> None:
        self._steps.append(HistoryEntry(event.seq, event.kind, index, action, message, summary, event.created_at))

    def _apply(self, state: Any, action: dict[str, Any], index: int) -> Any:
        """The state after one action; a RulesError names the action's index in the game."""
        try:
            return self.game.apply(state, action)
        except RulesError as err:
            raise err.at_index(index) from None

    def _reset(self, game_id: int, rules: Game, header: dict[str, Any], start: Any) -> None:
        self.game_id = game_id
        self._game = rules
        self._header = header
        self._timeline = Timeline()
        self._states = [start]
        self._steps = []
        self._messages = {}
        self._backup_due = False
        self._backed_up_at = self._backup_mark()

    def _require_game(self) -> None:
        if self.game_id is None:
            raise SessionError("no game is loaded: start a new game or load one")

    def _current(self) -> int:
        assert self.game_id is not None
        return self.game_id


def read_game_file(path: Path) -> tuple[Game, GameDocument]:
    """A record or sheet file read by the registered game whose format it names; a file over
    the size limit is refused without reading it all (RecordError, OSError)."""
    with path.open("rb") as handle:
        data = handle.read(MAX_DOCUMENT_BYTES + 1)
    return read_document(data)


def _same_game_key(rules: Game, header: dict[str, Any]) -> str | None:
    """What tells two stored games are the same game: the game and its own file of the header
    alone (start time, players, set-up); None for a header the game cannot write."""
    try:
        return f"{rules.id}\n{rules.write(GameDocument(header, []))}"
    except (RecordError, KeyError, TypeError, AttributeError):
        return None


def _stored_game_key(row: GameRow) -> str | None:
    """`_same_game_key` of a stored game (None for a game of a kind this Windrose lacks)."""
    try:
        return _same_game_key(_rules_of(row), row.header)
    except SessionError:
        return None


def _offer_text(offer: BackupOffer) -> str:
    """'#3 Anna, Ben: 60/12': the game, its players, and its actions in the copy / in the games file."""
    names = ", ".join(seat.name for seat in offer.game.seats(offer.document.header))
    return f"#{offer.game_id} {names}: {len(offer.document.actions)}/{offer.in_journal or 0}"


def _set_aside_notice(damage: JournalDamagedError, moved_to: Path, backup_dir: Path) -> PlayerNotice:
    """What the player reads when the games file had to be replaced."""
    return PlayerNotice(Message(
        "The saved games file could not be used: {reason}. It was kept as {kept} and a new, empty games "
        "file was started. Copies of your games are in {folder}: import one to carry on playing it.",
        {"reason": damage.reason, "kept": moved_to.name, "folder": str(backup_dir)},
    ))


def _rules_of(row: GameRow) -> Game:
    """The registered game a stored game belongs to (SessionError for one this Windrose lacks)."""
    try:
        return find_game(row.game_type)
    except UnknownGame:
        raise SessionError(f"game {row.id} is a {row.game_type!r} game, which this Windrose does not know") from None
