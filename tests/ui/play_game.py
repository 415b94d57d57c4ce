"""Subprocess entry for the whole-game and restart tests (the whole app runs only in a subprocess).

    python -m tests.ui.play_game full DIR SEED [learned] [camera [rendered]] [drawn] [players=N] [tribute]
        play set-up to final scores by taps; print JSON (tribute: cards entered by their tribute only,
        their cost paid at activation, else typed with the "check costs" setting; learned: cards picked from a full catalogue;
        camera: every roll by the button on a MockFactory pin and the folder camera, then corrected;
        rendered (with camera): the folder camera shows a synthetic scene of each roll the table makes;
        drawn: a frame drawn after every tap, as the running app does, for the memory benchmark)
    python -m tests.ui.play_game stop DIR SEED N    play into round N's actions, print JSON, wait to be killed
    python -m tests.ui.play_game resume DIR         start on the same journal; print the screen and state as JSON
"""

from __future__ import annotations

import functools
import json
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.uix.button import Button

from app.games.macao import CUBE_COLOURS, score
from app.heap import freeze_start_up_objects, keep_heap_trimmed
from tests.ui.harness import UiHarness, make_context
from tests.ui.tap_player import FACTS, OVERHEAD, PARTS, TapPlayer

ROOT = Path(__file__).resolve().parents[2]


def smallest_button(ui: UiHarness) -> tuple[float, float]:
    sizes = [(b.width, b.height) for b in ui.walk() if isinstance(b, Button) and b.opacity > 0]
    return (min((w for w, _h in sizes), default=999.0), min((h for _w, h in sizes), default=999.0))


def screen_report(ui: UiHarness) -> dict[str, Any]:
    session = ui.app.session
    return {
        "screen": ui.app.manager.current,
        "game_id": session.game_id,
        "state": session.state.to_json() if session.game_id is not None else None,
        "labels": ui.labels(),
    }


def learn_every_card(folder: Path, seed: int) -> None:
    """A table that has met every card of this game before: its catalogue knows them all."""
    from app.games.macao.simulate import RandomTable
    from app.ui.macao.catalogue import CardCatalogue

    actions = RandomTable(seed, players=2, activity=0.7).play().actions
    cards = [c for a in actions if a["type"] == "setup_draw" for c in a["cards"]]
    cards += [c for a in actions if a["type"] == "reveal" for c in a["office"] + a["cards"]]
    catalogue = CardCatalogue(folder / "cards.json")
    catalogue.learn(cards)
    catalogue.save()


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# Enough copies of a rendered roll that the settle detector sees it still over several frames.
RENDERED_FRAMES = 12


def stage_rendered_roll(frames: Path, seed: int, throw: int, dice: dict[str, int]) -> None:
    """Every frame of the folder camera becomes one synthetic scene of the table's own roll
    (the same table each time, another throw): the reader then reads what the table rolled."""
    import cv2

    from tools.synth import SceneOptions, render_scene
    from vision.types import DIE_COLOURS

    options = SceneOptions(width=1600, height=900, cocked=False, layout_seed=throw,
                           values=tuple(dice[colour] for colour in DIE_COLOURS))
    frame, _labels = render_scene(seed, options)
    for index in range(RENDERED_FRAMES):
        cv2.imwrite(str(frames / f"{index:03d}.png"), frame)


def camera_station(folder: Path, rendered_seed: int | None = None) -> tuple[Any, Any, FakeClock]:
    """The real dice station on MockFactory pins and a folder camera, ticked by the player with
    its own clock. The camera replays one shipped demo roll (its resting frame held a while), or
    with `rendered_seed` a synthetic scene of each roll the table makes (see stage_rendered_roll)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from app.config import load_config
    from app.dice_station import build_dice_station
    from app.ui.dice_link import DiceLink  # OpenCV and numpy: only for a game with the camera

    frames = folder / "frames"
    frames.mkdir()
    if rendered_seed is None:
        demo = sorted((ROOT / "app" / "assets" / "demo_frames").glob("roll1_*.jpg"))
        for index, frame in enumerate(demo + [demo[-1]] * 15):
            shutil.copyfile(frame, frames / f"{index:03d}.jpg")
    else:
        stage_rendered_roll(frames, rendered_seed, 0, {colour: 1 for colour in CUBE_COLOURS})
    override = folder / "config.toml"
    override.write_text(f'[camera]\nsource = "folder"\nfolder = "{frames}"\nloop = true\n')
    config = load_config(override, env={}, home=Path("/nonexistent"))
    pins = MockFactory()
    Device.pin_factory = pins
    clock = FakeClock()
    link = DiceLink()
    link.attach(lambda **callbacks: build_dice_station(config, clock=clock, pin_factory=pins, **callbacks),
                start=False)
    link.station.service.tick(clock.now)  # opens the camera
    return link, pins, clock


class DrawingHarness(UiHarness):
    """The harness that also draws a frame after each tap (Kivy's event loop), as the running app
    does; here with software OpenGL, so slower and with the renderer's memory in the process."""

    def idle(self) -> None:
        super().idle()
        EventLoop.idle()


def play_full(folder: Path, seed: int, learned: bool = False, camera: bool = False,
              drawn: bool = False, rendered: bool = False, players: int = 2, cards: str = "typed") -> dict[str, Any]:
    """`rendered`: with the camera, each roll is a synthetic scene of the table's own dice."""
    if learned:
        learn_every_card(folder, seed)
    rendered_seed = 9100 + seed if rendered else None
    link, pins, clock = camera_station(folder, rendered_seed) if camera else (None, None, None)
    context = make_context(folder, dice=link)
    context.catalogue.load()
    freeze_start_up_objects()  # as the app's start-up does before the app runs (app.ui.launch.run_app)
    ui = (DrawingHarness if drawn else UiHarness)(context)
    stage = None if rendered_seed is None else functools.partial(stage_rendered_roll, folder / "frames", rendered_seed)
    player = TapPlayer(ui, seed, players=players, use_catalogue=learned, cards=cards,
                       camera=(link.station, pins, clock) if link is not None else None, stage_roll=stage)
    player.seat_players()
    smallest = [smallest_button(ui)]
    rss_by_round = {0: _rss_mb()}
    while player.table.state.phase != "over":
        player.step()
        smallest.append(smallest_button(ui))
        rss_by_round.setdefault(player.table.state.round, _rss_mb())  # as each round begins
    expected = score(player.table.state)
    shown_totals = {}
    labels = ui.labels()
    for row in expected.rows:
        # The breakdown table shows "rank. name" followed by the row's five numbers.
        at = labels.index(f"{row.rank}. {ui.app.session.state.player(row.colour).name}")
        shown_totals[row.colour] = [int(v) for v in labels[at + 1: at + 6]]
    taps = {int(k): v for k, v in player.taps_by_round.items()}
    rounds = [taps[r] for r in sorted(taps) if 1 <= r <= 12]
    result = {
        "screen": ui.app.manager.current,
        "expected": {row.colour: [row.prestige, -row.punish_points, row.card_points, row.city_points, row.total]
                     for row in expected.rows},
        "expected_winner": expected.winner,
        "shown": shown_totals,
        "session_winner": ui.app.session.score().winner,
        "winner_line": next(text for text in labels if text.endswith("wins.") or " wins." in text),
        "taps_by_round": taps,
        "median_taps_per_round": statistics.median(rounds),
        "actions_per_round": _actions_per_round(player.table.record().actions),
        "smallest_button": [min(w for w, _h in smallest), min(h for _w, h in smallest)],
        "actions": len(ui.app.session.actions),
        "table_actions": len(player.table.actions),
        "rss_mb": _rss_mb(),
        "rss_by_round": rss_by_round,
        "memory_mb": memory_breakdown(),
        "camera_rolls": player.camera_rolls,
        "taps_by_kind": player.taps_by_kind,
        "taps_by_part": {int(k): v for k, v in player.taps_by_part.items()},
        "median_taps_by_part": _median_parts(player.taps_by_part),
        "beyond_taps_by_kind_per_round": _mean_kinds(player.beyond_by_kind),
        "median_taps_card_phase": statistics.median(
            taps for number, taps in player.card_phase_by_round.items() if 1 <= number <= 12),
    }
    ui.close()
    if link is not None:
        link.close()
    return result


def _median_parts(by_round: dict[int, dict[str, int]]) -> dict[str, float]:
    """Rounds 1-12: the median taps per round for each part, and for taps beyond the players'
    own actions (table facts plus overhead)."""
    rounds = [parts for number, parts in sorted(by_round.items()) if 1 <= number <= 12]
    medians = {part: statistics.median(p[part] for p in rounds) for part in PARTS}
    medians["beyond actions"] = statistics.median(p[FACTS] + p[OVERHEAD] for p in rounds)
    return medians


def _mean_kinds(by_round: dict[int, dict[str, int]]) -> dict[str, float]:
    """Rounds 1-12: the taps beyond the actions a round, on average, for each kind."""
    rounds = [kinds for number, kinds in by_round.items() if 1 <= number <= 12]
    names = sorted({name for kinds in rounds for name in kinds})
    return {name: round(sum(kinds.get(name, 0) for kinds in rounds) / 12, 2) for name in names}


def _rss_mb() -> float:
    """This process's resident memory now (Linux /proc), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return -1.0


# Mappings of Mesa's software OpenGL (llvmpipe), which the offscreen window uses here; a Pi draws
# with its GPU driver instead.
SOFTWARE_GL = ("libLLVM", "/dri/", "libgallium", "swrast")


def memory_breakdown() -> dict[str, float]:
    """Where this process's resident memory is (Linux /proc/self/smaps), in MB: anonymous (heaps,
    Python objects, textures of the software renderer) and file-backed (code of the libraries),
    PSS (shared pages split between processes), and the software OpenGL libraries' share."""
    totals = {"rss": 0, "pss": 0, "anonymous": 0, "software_gl_rss": 0}
    mapping = ""
    for line in Path("/proc/self/smaps").read_text().splitlines():
        field, _, rest = line.partition(":")
        if " " in field:  # a mapping's header: address range, permissions, ..., path
            mapping = line
        elif field in ("Rss", "Pss", "Anonymous"):
            kilobytes = int(rest.split()[0])
            totals[field.lower()] += kilobytes
            if field == "Rss" and any(part in mapping for part in SOFTWARE_GL):
                totals["software_gl_rss"] += kilobytes
    megabytes = {key: round(value / 1024, 1) for key, value in totals.items()}
    megabytes["file_backed"] = round(megabytes["rss"] - megabytes["anonymous"], 1)
    return megabytes


def _actions_per_round(actions: list[dict[str, Any]]) -> dict[int, int]:
    counts: dict[int, int] = {}
    round_number = 0
    for action in actions:
        if action["type"] == "reveal":
            round_number += 1
        counts[round_number] = counts.get(round_number, 0) + 1
    return counts


def play_and_stop(folder: Path, seed: int, stop_round: int) -> None:
    ui = UiHarness(make_context(folder))
    player = TapPlayer(ui, seed)
    player.seat_players()
    player.play_until(lambda s: s.round == stop_round and s.phase == "actions")
    player.step()  # one action into the round's actions phase
    print(json.dumps(screen_report(ui)), flush=True)
    sys.stdin.readline()  # the test kills this process here, mid-round


def resume(folder: Path) -> None:
    ui = UiHarness(make_context(folder))
    print(json.dumps(screen_report(ui)), flush=True)
    ui.close()


def main(argv: list[str]) -> int:
    mode, folder = argv[0], Path(argv[1])
    keep_heap_trimmed()  # as the app's start-up does (app.ui.launch.run_app)
    if mode == "full":
        flags = argv[3:]
        players = next((int(f.split("=")[1]) for f in flags if f.startswith("players=")), 2)
        print(json.dumps(play_full(folder, int(argv[2]), learned="learned" in flags, camera="camera" in flags,
                                   drawn="drawn" in flags, rendered="rendered" in flags, players=players,
                                   cards="tribute" if "tribute" in flags else "typed")),
              flush=True)
    elif mode == "stop":
        play_and_stop(folder, int(argv[2]), int(argv[3]))
    elif mode == "resume":
        resume(folder)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
