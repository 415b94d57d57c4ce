"""Whole games replayed by the rules core must score exactly as worked out by hand.

The records and their expected scores live in tests/records/ (how each total
was reached is written up in <name>.md next to them).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.games.macao import GameState, load_record, replay, score

RECORDS = Path(__file__).resolve().parents[1] / "records"
REPO = RECORDS.parents[1]
GOLDEN = sorted(p.stem for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))

# Where everybody stands at the end, worked out from the wall moves in each .md:
# wall space index (0 = first space) -> stack, top first.
END_WALL: dict[str, dict[int, list[str]]] = {
    "two_players": {8: ["white"], 1: ["orange"]},
    "three_players": {15: ["yellow", "brown"], 0: ["white"]},
    "four_players": {6: ["orange"], 2: ["brown", "yellow"], 0: ["white"]},
}


def replayed(name: str) -> GameState:
    return replay(load_record((RECORDS / f"{name}.json").read_text()))


def expected(name: str) -> dict:
    return json.loads((RECORDS / f"{name}.expected.json").read_text())


def test_every_golden_record_has_expected_scores_and_notes() -> None:
    assert {"two_players", "three_players", "four_players"} <= set(GOLDEN)
    for name in GOLDEN:
        assert (RECORDS / f"{name}.expected.json").is_file(), name
        assert (RECORDS / f"{name}.md").is_file(), name


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_record_scores_as_worked_out_by_hand(name: str) -> None:
    state = replayed(name)
    assert state.phase == "over"
    assert score(state).to_json() == expected(name)


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_record_ends_with_the_wall_as_worked_out(name: str) -> None:
    state = replayed(name)
    stacks = {index: stack for index, stack in enumerate(state.wall) if stack}
    assert stacks == END_WALL[name]


def test_two_player_tie_is_explained_by_the_wall() -> None:
    sheet = score(replayed("two_players"))
    assert sheet.tie_break is not None
    text = str(sheet.tie_break)
    assert "Ben" in text and "wall" in text


@pytest.mark.parametrize(
    ("name", "colour", "tableau_penalty"),
    [
        ("four_players", "orange", 0),  # activated Abbot: her 3 waiting cards cost nothing
        ("four_players", "white", 5),  # an Abbot still on the tableau protects nobody
        ("two_players", "white", 3),
        ("three_players", "white", 2),
    ],
)
def test_tableau_penalty_per_player(name: str, colour: str, tableau_penalty: int) -> None:
    row = next(r for r in score(replayed(name)).rows if r.colour == colour)
    assert row.tableau_penalty == tableau_penalty


def test_prestige_track_never_goes_below_zero_at_the_end() -> None:
    gus = next(r for r in score(replayed("four_players")).rows if r.colour == "white")
    assert (gus.prestige, gus.punish_markers) == (16, 7)
    assert gus.punish_points == 16  # only what the track held, not 21
    assert gus.total == 3 + 4


def test_cli_score_prints_the_expected_json() -> None:
    if not (REPO / "app" / "__main__.py").is_file():
        pytest.skip("python -m app is not there yet")
    done = subprocess.run(
        [sys.executable, "-m", "app", "score", str(RECORDS / "three_players.json")],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected("three_players")


def test_cli_score_refuses_a_broken_record_with_exit_2(tmp_path: Path) -> None:
    if not (REPO / "app" / "__main__.py").is_file():
        pytest.skip("python -m app is not there yet")
    doc = json.loads((RECORDS / "two_players.json").read_text())
    index = next(i for i, a in enumerate(doc["actions"]) if a["type"] == "buy_prestige")
    doc["actions"].insert(index + 1, dict(doc["actions"][index]))  # the same purchase twice
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc))
    done = subprocess.run(
        [sys.executable, "-m", "app", "score", str(broken)],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert f"action {index + 1}" in done.stderr and "Ann" in done.stderr and "already" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("name", GOLDEN)
def test_records_are_what_the_generator_writes(name: str) -> None:
    """The JSON files stay in step with tests/records/make_golden.py."""
    from tests.records.make_golden import GAMES

    assert GAMES[name]().to_json() == (RECORDS / f"{name}.json").read_text()


@pytest.mark.parametrize("name", GOLDEN)
def test_the_builders_own_tally_agrees_with_the_hand_scores(name: str) -> None:
    """Two readings of the rules outside the core (by hand, by the builder) agree."""
    from tests.records.make_golden import GAMES

    assert GAMES[name]().scores() == expected(name)
