"""The `python -m app` command line: score, check, import and export game records and score
sheets, each read by the registered game whose format it names.

These paths never import Kivy or OpenCV, so they start fast and run on a
machine without a screen. With no subcommand the touchscreen UI starts, and
only then is the UI package imported.

Exit codes: 0 done; 2 the input is wrong (record, option, settings file,
unknown game), the UI is missing or another Windrose holds the journal;
3 the game journal cannot be opened. `import` writes, so it takes the
journal's instance lock (app.instance_lock) for as long as it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from app.games import MAX_DOCUMENT_BYTES, read_document
from app.games.base import Game, GameDocument, RecordError, RulesError
from app.instance_lock import InstanceLock, InstanceLockError
from app.journal import JournalError, JournalOpenError
from app.logs import start_logging
from app.paths import default_db_path
from app.session import Session, SessionError
from vision.atomic_file import write_atomically

SUBCOMMANDS = ("score", "check", "import", "export")
OPTIONS_WITH_VALUE = ("--config", "--db", "--screenshot-tour")  # their value is never a command
EXIT_BAD_INPUT = 2
EXIT_JOURNAL = 3


class CliError(Exception):
    """A failure to report on stderr as one plain line, with its exit code."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors with our exit code and no traceback."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise CliError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m app",
        description="Windrose, the board-game table companion. Without a command it starts the touchscreen app.",
    )
    parser.add_argument("--config", metavar="PATH", help="settings file overriding config.toml")
    common = _Parser(add_help=False)
    common.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    database = _Parser(add_help=False)
    database.add_argument("--db", metavar="PATH", help="game journal (default: from settings, else the data dir)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    score_cmd = commands.add_parser("score", parents=[common], help="print the final scores of a record as JSON")
    score_cmd.add_argument("record", metavar="RECORD", help="a complete game record or score sheet (JSON)")
    check_cmd = commands.add_parser("check", parents=[common], help="validate a record and show each round")
    check_cmd.add_argument("record", metavar="RECORD", help="a game record (JSON)")
    check_cmd.add_argument("--json", action="store_true", help="print the round report as JSON")
    import_cmd = commands.add_parser(
        "import", parents=[common, database], help="store a record as a new game; prints its id"
    )
    import_cmd.add_argument("record", metavar="RECORD", help="a game record (JSON)")
    import_cmd.add_argument("--verbose", action="store_true", help="report each action on stderr once committed")
    export_cmd = commands.add_parser("export", parents=[common, database], help="write a stored game as a record")
    export_cmd.add_argument("--game", default="last", metavar="ID|last", help="which game (default: last played)")
    export_cmd.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    start_logging()  # to stderr, for journald; the UI sets the level from the settings
    argv = list(sys.argv[1:] if argv is None else argv)
    if wants_ui(argv):
        return _start_ui(argv)
    _never_fail_on_encoding()
    try:
        args = build_parser().parse_args(argv)
        handler = {"score": _score, "check": _check, "import": _import, "export": _export}[args.command]
        return handler(args)
    except CliError as err:
        print(f"error: {err}", file=sys.stderr)
        return err.code
    except JournalError as err:
        print(f"error: the game journal failed: {err}", file=sys.stderr)
        return EXIT_JOURNAL
    except BrokenPipeError:
        return 0


def wants_ui(argv: list[str]) -> bool:
    """True when no subcommand is named (help requests stay with the CLI)."""
    skip_value = False
    for token in argv:
        if skip_value:
            skip_value = False
        elif token in OPTIONS_WITH_VALUE:
            skip_value = True
        elif token in ("-h", "--help") or token in SUBCOMMANDS:
            return False
    return True


def _never_fail_on_encoding() -> None:
    """A console that cannot show a character (PYTHONIOENCODING=ascii) gets an escape, not a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _start_ui(argv: list[str]) -> int:
    try:
        from app.ui import main as ui_main  # noqa: PLC0415 - the UI (Kivy) loads only on this path
    except ImportError as err:
        print(f"error: the touchscreen app cannot start: {err}", file=sys.stderr)
        print("the command line works without it: python -m app --help", file=sys.stderr)
        return EXIT_BAD_INPUT
    return int(ui_main(argv) or 0)


# -- commands ---------------------------------------------------------------------


def _score(args: argparse.Namespace) -> int:
    rules, document = _read_record(args.record)
    state = _replay(rules, document, args.record)
    progress = rules.progress(state)
    if not progress.finished:
        raise CliError(
            f"{args.record}: the game is not finished (round {progress.round}, phase {progress.phase}); "
            "scores need every player's end-of-game entries"
        )
    _print_json(rules.score_document(state))
    return 0


def _check(args: argparse.Namespace) -> int:
    rules, document = _read_record(args.record)
    try:
        report = rules.check(document)
    except RulesError as err:
        raise CliError(f"{args.record}: {err}") from None
    if args.json:
        _print_json(report.document)
        return 0
    sys.stdout.writelines(report.lines)
    return 0


def _import(args: argparse.Namespace) -> int:
    rules, document = _read_record(args.record)
    _replay(rules, document, args.record)  # refuse an invalid record before storing anything
    with _open_session(args, write=True) as session:
        try:
            game_id = session.new_game(rules.id, document.header)
            for index, action in enumerate(document.actions):
                session.act(action)  # one committed transaction per action, as at the table
                if args.verbose:
                    print(f"committed action {index}", file=sys.stderr, flush=True)
        except (RulesError, SessionError) as err:
            raise CliError(f"{args.record}: {err}") from None
        print(game_id, flush=True)
    return 0


def _export(args: argparse.Namespace) -> int:
    with _open_session(args) as session:
        game_id = _pick_game(session, args.game)
        try:
            stored = session.readable_game(game_id)  # a set-aside game: as far as it goes
        except (SessionError, JournalError) as err:
            raise CliError(str(err)) from None
        if stored.problem is not None:
            print(f"note: game {game_id} stops replaying ({stored.problem}); the record holds the "
                  f"{len(stored.document.actions)} actions before that point", file=sys.stderr)
        text = stored.game.write(stored.document)
    if args.out:
        _write_file(Path(args.out), text)
    else:
        if not _console_can_show(text):  # the same JSON, with \uXXXX escapes the console can show
            text = json.dumps(json.loads(text), indent=2, ensure_ascii=True)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


# -- helpers ----------------------------------------------------------------------


def _read_record(path_text: str) -> tuple[Game, GameDocument]:
    """The record in a file: its size is checked before reading, and never more than the limit is read."""
    path = Path(path_text)
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            raise CliError(f"{path}: not a valid game record: the file is {size // 1024} kB; a game record is at "
                           f"most {MAX_DOCUMENT_BYTES // (1024 * 1024)} MB")
        with path.open("rb") as handle:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)  # a pipe or a growing file has no size up front
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a folder, not a record file") from None
    except UnicodeDecodeError as err:
        raise CliError(f"{path}: not a text file (byte {err.start} is not UTF-8)") from None
    except OSError as err:
        raise CliError(f"{path}: cannot be read ({err.strerror or err})") from None
    try:
        return read_document(text)
    except (RecordError, ValueError) as err:
        raise CliError(f"{path}: not a valid game record: {err}") from None


def _replay(rules: Game, document: GameDocument, source: str) -> Any:
    try:
        return rules.replay(document)
    except RulesError as err:
        raise CliError(f"{source}: {err}") from None


@contextmanager
def _open_session(args: argparse.Namespace, write: bool = False) -> Iterator[Session]:
    """The session on the chosen journal; a writing command holds the instance lock throughout."""
    path = _db_path(args)
    lock = InstanceLock(path)
    if write:
        try:
            lock.acquire()
        except InstanceLockError as err:
            raise CliError(str(err), EXIT_BAD_INPUT) from None
    try:
        try:
            session = Session.open(path)
        except JournalOpenError as err:
            raise CliError(str(err), EXIT_JOURNAL) from None
        for notice in session.notices:  # e.g. a damaged database was set aside
            print(f"note: {notice}", file=sys.stderr)
        with session:
            yield session
    finally:
        lock.release()


def _db_path(args: argparse.Namespace) -> Path:
    """--db wins; then the settings' [journal] db_path; then the XDG data dir."""
    if args.db:
        return Path(args.db)
    from app.config import ConfigError, load_config  # noqa: PLC0415 - settings only when needed

    try:
        configured = load_config(args.config)["journal"].get("db_path", "")
    except ConfigError as err:
        raise CliError(str(err)) from None
    return Path(configured) if configured else default_db_path()  # `~` expanded by load_config


def _pick_game(session: Session, which: str) -> int:
    if which == "last":
        game_id = session.journal.last_game()
        if game_id is None:
            raise CliError(f"{session.journal.path} holds no games yet")
        return game_id
    try:
        return int(which)
    except ValueError:
        raise CliError(f"--game takes a game id or 'last', not {which!r}") from None


def _write_file(path: Path, text: str) -> None:
    """Write whole or not at all, so a crash never leaves half a record."""
    try:
        write_atomically(path, text if text.endswith("\n") else text + "\n")
    except OSError as err:
        raise CliError(f"{path}: cannot write ({err.strerror or err})") from None


def _print_json(document: Any) -> None:
    """JSON as readable text; escaped as \\uXXXX where the console cannot show a character, so it stays JSON."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    if not _console_can_show(text):
        text = json.dumps(document, indent=2, ensure_ascii=True)
    print(text)


def _console_can_show(text: str) -> bool:
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except UnicodeEncodeError:
        return False
    return True

