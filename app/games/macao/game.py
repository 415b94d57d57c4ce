"""Macao behind the `Game` interface: what the session, journal, backups, command line and
UI shell use, made from the rules core's own functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import (
    CheckReport,
    DiceNeed,
    Game,
    GameDocument,
    Message,
    Progress,
    RulesError,
    ScoreColumn,
    ScoreLine,
    ScoreTable,
    Seat,
    cube_phrase,
)

from .action_text import describe_action
from .model import CUBE_COLOURS, GameState
from .options import Expect, Options, legal_options, waiting_for
from .record import FORMAT, Record, dump_record, parse_record, start_state
from .report import round_report
from .rules import apply_action, apply_in_place
from .scoring import score

HEADER_KEYS = ("format", "started", "players", "wall")
SCORE_COLUMNS = (
    ScoreColumn("prestige", Message("Track")),
    ScoreColumn("punish_markers", Message("Punish markers")),
    ScoreColumn("punish_points", Message("Punish")),
    ScoreColumn("card_points", Message("Cards")),
    ScoreColumn("city_points", Message("City")),
)


def _record(document: GameDocument) -> Record:
    header = document.header
    return Record(
        players=[{"colour": p["colour"], "name": p["name"]} for p in header["players"]],
        wall=list(header["wall"]),
        actions=[dict(a) for a in document.actions],
        started=header.get("started"),
        format=header.get("format", FORMAT),
        extra={k: v for k, v in header.items() if k not in HEADER_KEYS},
    )


def _header(record: Record) -> dict[str, Any]:
    document = record.to_json()
    del document["actions"]
    return document


def _progress_label(state: GameState) -> Message:
    if state.phase == "over":
        return Message("Game over")
    if state.round == 0:
        return Message("Set-up")
    if state.phase == "final":
        return Message("Game end")
    return Message("Round {n}", {"n": state.round})


def _report_lines(report: list[dict[str, Any]]) -> list[str]:
    """The round report as text: one block per round, one line per player, windrose below."""
    lines = []
    for entry in report:
        dice = ", ".join(f"{colour} {pips}" for colour, pips in entry["dice"].items()) or "none"
        gold, prestige = entry["tribute"]
        lines.append(f"round {entry['round']}: dice {dice}; prestige {prestige} for {gold} gold\n")
        for player in entry["players"]:
            wall = player["wall"]
            lines.append(
                f"  {player['name']} ({player['colour']}): gold {player['gold']}, prestige {player['prestige']}, "
                f"punish {player['punish']}, wall space {wall['space']} (place {wall['depth']} from the top); "
                f"supply {cube_phrase(player['supply'])}\n"
            )
            sectors = " | ".join(
                f"{sector}: {cube_phrase(pile) if pile else '-'}" for sector, pile in player["windrose"].items()
            )
            lines.append(f"      windrose {sectors}\n")
    return lines


class Macao(Game[GameState]):
    """Macao's rules core as one game among several; records in format macao-record/1."""

    id = "macao"
    title = Message("Macao")
    min_players = 2
    max_players = 4
    formats = (FORMAT,)
    dice = DiceNeed(count=len(CUBE_COLOURS), colours=CUBE_COLOURS, repeats=False)

    def read(self, document: object) -> GameDocument:
        record = parse_record(document)
        return GameDocument(_header(record), record.actions)

    def write(self, document: GameDocument) -> str:
        return dump_record(_record(document))

    def new_state(self, header: Mapping[str, Any]) -> GameState:
        return start_state(parse_record({**header, "format": header.get("format", FORMAT), "actions": []}))

    def seats(self, header: Mapping[str, Any]) -> list[Seat]:
        return [Seat(str(p.get("colour", "?")), str(p.get("name", "?")), p.get("colour"))
                for p in header.get("players", [])]

    def start_player(self, header: Mapping[str, Any]) -> str | None:
        """The player on top of the starting stack on the wall."""
        wall = header.get("wall") or []
        return str(wall[0]) if wall else None

    def apply(self, state: GameState, action: Mapping[str, Any]) -> GameState:
        return apply_action(state, dict(action))

    def waiting_for(self, state: GameState) -> Expect:
        return waiting_for(state)

    def options(self, state: GameState, player: str) -> Options:
        return legal_options(state, player)

    def progress(self, state: GameState) -> Progress:
        return Progress(state.round, state.phase, _progress_label(state), state.phase == "over")

    def score(self, state: GameState) -> ScoreTable:
        sheet = score(state)
        lines = tuple(
            ScoreLine(row.colour, row.name, row.colour,
                      (row.prestige, row.punish_markers, row.punish_points, row.card_points, row.city_points),
                      row.total, row.rank)
            for row in sheet.rows
        )
        return ScoreTable(self.id, SCORE_COLUMNS, lines, sheet.winner, sheet.tie_break)

    def score_document(self, state: GameState) -> dict[str, Any]:
        return score(state).to_json()

    def describe(self, before: GameState, action: Mapping[str, Any], after: GameState) -> Message:
        return describe_action(action, before, after)

    def check(self, document: GameDocument) -> CheckReport:
        record = _record(document)
        report = round_report(record)
        state = self.replay(document)
        summary = f"valid: {len(record.actions)} actions; now round {state.round}, phase {state.phase}\n"
        return CheckReport({"rounds": report, "actions": len(record.actions), "phase": state.phase},
                           [*_report_lines(report), summary])

    def replay(self, document: GameDocument, upto: int | None = None) -> GameState:
        """As Game.replay, applying in place: a whole game in a couple of milliseconds."""
        state = self.new_state(document.header)
        actions = document.actions if upto is None else document.actions[:upto]
        for index, action in enumerate(actions):
            try:
                apply_in_place(state, action)
            except RulesError as err:
                raise err.at_index(index) from None
        return state


GAME = Macao()
