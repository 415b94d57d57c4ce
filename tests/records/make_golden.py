"""Writes the golden game records in this folder (run: python -m tests.records.make_golden).

Each game is played here round by round through tests/games/builder.py, which
checks every action and tracks the windroses. The expected scores next to each
record (<name>.expected.json) and how they were reached (<name>.md) are written
by hand; this script only prints the builder's own tally as a cross-check.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from tests.games.builder import RecordBuilder, card

HERE = Path(__file__).resolve().parent
Turn = Callable[[RecordBuilder, str], None]


def play_round(
    b: RecordBuilder,
    office: list[dict],
    cards: list[dict],
    picks: dict[str, int | tuple[int, int]],
    dice: dict[str, int],
    choices: dict[str, tuple[str, str]],
    turns: dict[str, Turn],
) -> None:
    """One round: reveal, draft in wall order, roll, dice in wall order, turns."""
    b.reveal(office, cards)
    for colour in list(b.pending):
        pick = picks[colour]
        if isinstance(pick, tuple):
            b.take_card(colour, pick[0], discard=pick[1])
        else:
            b.take_card(colour, pick)
    b.roll(dice)
    for colour in list(b.pending):
        b.choose_dice(colour, *choices[colour])
    for colour in list(b.pending):
        turn = turns.get(colour)
        if turn is not None:
            turn(b, colour)
        b.end_turn(colour)


def dice(red: int, blue: int, green: int, black: int, gray: int, violet: int) -> dict[str, int]:
    return {"red": red, "blue": blue, "green": green, "black": black, "gray": gray, "violet": violet}


def filler(tag: str, kind: str = "building", cost: list[str] | None = None, tribute: tuple[int, int] = (0, 1)) -> dict:
    """A plain card with no effect the rules model."""
    return card(tag, kind, cost or ["gray"], tribute)


def offices(r: int, a: tuple[int, int], b_: tuple[int, int], cost_a: list[str] | None = None,
            cost_b: list[str] | None = None) -> list[dict]:
    return [
        card(f"Office {r}A", "office", cost_a or ["red"], a),
        card(f"Office {r}B", "office", cost_b or ["blue"], b_),
    ]


def status(b: RecordBuilder) -> str:
    lines = [f"round {b.round} phase {b.phase} wall {b.turn_order()}"]
    for seat in b.seats.values():
        rose = [dict(sector) for sector in seat.windrose]
        lines.append(
            f"  {seat.colour}: gold {seat.gold} prestige {seat.prestige} punish {seat.punish} "
            f"tableau {[c['name'] for c in seat.tableau]} rose {rose}"
        )
    return "\n".join(lines)


def write(name: str, b: RecordBuilder) -> None:
    (HERE / f"{name}.json").write_text(b.to_json())
    print(f"{name}: builder tally {json.dumps(b.scores())}")


GAMES: dict[str, Callable[[], RecordBuilder]] = {}


def main() -> None:
    wanted = sys.argv[1:] or list(GAMES)
    for name in wanted:
        write(name, GAMES[name]())


# ---------------------------------------------------------------------------
# Game 1: two players. Ann (orange) and Ben (white) finish level; Ben is further
# along the wall and wins the tie. Also: prestige bought at a 0-gold price with
# 0 gold, a sixth card, adjustments (one during the other player's turn),
# quarters, deliveries, ship moves, a card effect gaining gold, rounds 8-12 dice.
# ---------------------------------------------------------------------------
BASE = dice(1, 2, 2, 1, 3, 4)


def two_players() -> RecordBuilder:
    b = RecordBuilder([("orange", "Ann"), ("white", "Ben")], ["orange", "white"], "2026-11-29T19:30:00+01:00")
    b.setup_draw([
        card("Tea House", "building", ["red"], (0, 1)),
        card("Pagoda", "building", ["green", "green"], (1, 1)),
        card("Scribe", "person", ["black"], (0, 1)),
        card("Lantern", "building", ["violet"], (1, 2)),
    ])
    b.setup_pick("white", 2)
    b.setup_pick("orange", 0)
    b.setup_cubes("orange", "red", "blue")
    b.setup_cubes("white", "black", "green")
    ann_dice, ben_dice = ("red", "blue"), ("black", "green")
    picks_default = {"orange": ann_dice, "white": ben_dice}

    def r1_ann(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Tea House")
        b.buy_prestige(c)
        b.ship(c, 1, ["red"], to="sea 1")

    def r1_ben(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Scribe")
        b.card_effect(c, "Scribe", gain={"gold": 1}, note="copies a letter for a coin")
        b.buy_prestige(c)

    # round 1: tribute 3 gold -> 6 prestige
    play_round(
        b,
        offices(1, (1, 1), (0, 1)),
        [filler("Dock", "building", ["blue"], (1, 1)), filler("Weaver", "person", ["green"], (0, 1)),
         filler("Kiln", "building", ["red"], (1, 2)), filler("Well", "building", ["gray"], (0, 0))],
        {"orange": 2, "white": 3}, BASE, picks_default, {"orange": r1_ann, "white": r1_ben},
    )

    def r2_ann(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Dock")
        b.activate_named(c, "Market")
        b.wall(c, 1, ["red"])
        b.ship(c, 1, ["blue"], to="sea 2")

    def r2_ben(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Weaver")
        b.activate_named(c, "Tailor")
        b.card_effect(c, "Scribe", gain={"gold": 1})
        b.buy_prestige(c)

    # round 2: tribute 3 gold -> 6 prestige
    play_round(
        b,
        offices(2, (0, 1), (1, 1)),
        [filler("Market", "building", ["blue", "blue"], (1, 2)), filler("Tailor", "person", ["green", "green"], (0, 1)),
         filler("Shrine", "building", ["violet"], (0, 0)), filler("Guard", "person", ["gray"], (1, 1))],
        {"orange": 2, "white": 3}, BASE, picks_default, {"orange": r2_ann, "white": r2_ben},
    )

    def r3_ann(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Jade Shop")
        b.take_quarter(c, ["blue", "blue"], "tea")
        b.buy_prestige(c)  # spends her last 2 gold

    def r3_ben(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Scribe", gain={"gold": 1})
        b.wall(c, 1, ["black"])  # lands on Ann's space: on top of her
        b.ship(c, 2, ["green", "green"])

    # round 3: tribute 2 gold -> 6 prestige
    play_round(
        b,
        offices(3, (1, 1), (0, 1)),
        [filler("Jade Shop", "building", ["red"], (1, 1)), filler("Porter", "person", ["green"], (0, 1)),
         filler("Stable", "building", ["gray"], (0, 0)), filler("Clerk", "person", ["gray"], (0, 2))],
        {"orange": 2, "white": 3}, BASE, picks_default, {"orange": r3_ann, "white": r3_ben},
    )

    def r4_ben(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Scribe", gain={"gold": 1})
        b.wall(c, 1, ["black"])
        b.ship(c, 2, ["green", "green"])

    def r4_ann(b: RecordBuilder, c: str) -> None:
        b.ship(c, 1, ["red"], to="Lisbon")
        b.deliver(c, "tea", 4, port="Lisbon")
        b.activate_named(c, "Harbour")

    # round 4: Ben is on top at space 2, so he drafts and acts first. Tribute 4 -> 6
    play_round(
        b,
        offices(4, (1, 1), (1, 1)),
        [filler("Cooper", "person", ["black"], (0, 1)), filler("Harbour", "building", ["blue", "blue"], (1, 2)),
         filler("Mill", "building", ["gray"], (0, 0)), filler("Bell Tower", "building", ["gray"], (1, 1))],
        {"white": 2, "orange": 3}, BASE, picks_default, {"white": r4_ben, "orange": r4_ann},
    )

    def r5_ben(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Scribe", gain={"gold": 1})
        b.buy_prestige(c)
        b.wall(c, 1, ["black"])
        b.ship(c, 2, ["green", "green"])

    def r5_ann(b: RecordBuilder, c: str) -> None:
        b.buy_prestige(c)  # price 0, Ann has 0 gold
        b.activate_named(c, "Rope Walk")
        b.ship(c, 2, ["blue", "blue"])

    # round 5: every card has a 0 gold number: 0 gold -> 6 prestige
    play_round(
        b,
        offices(5, (0, 1), (0, 2)),
        [filler("Ink Maker", "person", ["green"], (0, 1)), filler("Rope Walk", "building", ["red"], (0, 0)),
         filler("Bridge", "building", ["gray"], (0, 1)), filler("Gardener", "person", ["gray"], (0, 1))],
        {"white": 2, "orange": 3}, BASE, picks_default, {"white": r5_ben, "orange": r5_ann},
    )

    def r6_ben(b: RecordBuilder, c: str) -> None:
        b.adjust("orange", "the bank owed Ann 2 gold change from round 4", gold=2)
        b.adjust(c, "Ben's disc had been moved 4 too far", prestige=-4)
        b.card_effect(c, "Scribe", gain={"gold": 1})
        b.buy_prestige(c)
        b.wall(c, 1, ["black"])
        b.ship(c, 2, ["green", "green"])

    def r6_ann(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Silk Loft")
        b.take_quarter(c, ["blue", "blue"], "joker")
        b.joker(c, "gold")
        b.buy_prestige(c)

    # round 6: tribute 4 gold -> 6 prestige
    play_round(
        b,
        offices(6, (1, 1), (1, 1)),
        [filler("Lamp Maker", "person", ["black", "gray"], (1, 1)), filler("Silk Loft", "building", ["red"], (0, 1)),
         filler("Orchard", "building", ["gray"], (1, 2)), filler("Fisher", "person", ["gray"], (0, 0))],
        {"white": 2, "orange": 3}, BASE, picks_default, {"white": r6_ben, "orange": r6_ann},
    )

    def r7_ben(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Scribe", gain={"gold": 1})
        b.buy_prestige(c)
        b.wall(c, 1, ["black"])
        b.ship(c, 2, ["green", "green"])

    def r7_ann(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Customs")
        b.ship(c, 1, ["red"])

    # round 7: tribute 2 gold -> 6 prestige; Ben's tableau reaches five cards
    play_round(
        b,
        offices(7, (0, 1), (1, 2)),
        [filler("Herbalist", "person", ["green"], (0, 1)), filler("Customs", "building", ["blue", "blue"], (1, 1)),
         filler("Quarry", "building", ["gray"], (0, 0)), filler("Nun", "person", ["gray"], (0, 1))],
        {"white": 2, "orange": 3}, BASE, picks_default, {"white": r7_ben, "orange": r7_ann},
    )

    def r8_ben(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Lacquer Hall")  # paid with the violet 6 that counts as 1
        b.activate_named(c, "Porter")
        b.wall(c, 1, ["green"])
        b.card_effect(c, "Scribe", gain={"gold": 1})

    def r8_ann(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Ferry")
        b.take_quarter(c, ["blue", "blue"], "silk")

    # round 8: violet shows 6 and counts as 1. Ben takes a sixth card and discards Cooper.
    play_round(
        b,
        offices(8, (1, 1), (0, 1)),
        [filler("Lacquer Hall", "building", ["violet"], (0, 1)), filler("Ferry", "building", ["red"], (1, 2)),
         filler("Salt Pan", "building", ["gray"], (1, 1)), filler("Potter", "person", ["gray"], (0, 0))],
        {"white": (2, 1), "orange": 3}, dice(1, 2, 2, 1, 3, 6),
        {"white": ("violet", "green"), "orange": ann_dice}, {"white": r8_ben, "orange": r8_ann},
    )

    b.adjust("orange", "Ann took a card back from the discard pile", punish=1)

    def r9_ben(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Lamp Maker")  # gray 5 counts as 1
        b.activate_named(c, "Ink Maker")
        b.wall(c, 1, ["green"])

    def r9_ann(b: RecordBuilder, c: str) -> None:
        b.ship(c, 2, ["blue", "blue"], to="Seville")
        b.deliver(c, "silk", 5, port="Seville")
        b.ship(c, 1, ["red"])

    # round 9: dice above 4 count as 1 (gray 5); violet 4 stays 4 and reaches Ann in round 12.
    # tribute 2 gold -> 6 prestige
    play_round(
        b,
        offices(9, (0, 1), (1, 1)),
        [filler("Pavilion", "building", ["green"], (1, 2)), filler("Watchtower", "building", ["violet"], (0, 1)),
         filler("Tannery", "building", ["gray"], (0, 1)), filler("Barber", "person", ["gray"], (0, 0))],
        {"white": 2, "orange": 3}, dice(1, 2, 2, 1, 5, 4),
        {"white": ("black", "gray"), "orange": ("red", "violet")}, {"white": r9_ben, "orange": r9_ann},
    )

    def r10_ben(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Scribe", gain={"gold": 1})
        b.buy_prestige(c)  # no cubes needed

    def r10_ann(b: RecordBuilder, c: str) -> None:
        b.take_quarter(c, ["red", "gray"], "rice")  # gray 4 counts as 1

    # round 10: dice above 3 count as 1 (gray 4). Ben's windrose gives him nothing: punish marker.
    # tribute 2 gold -> 5 prestige
    play_round(
        b,
        offices(10, (1, 1), (0, 1)),
        [filler("Teahouse Guild", "building", ["black"], (1, 2)), filler("Scholar", "person", ["gray"], (0, 1)),
         filler("Granary", "building", ["gray"], (0, 0)), filler("Mason", "person", ["gray"], (0, 0))],
        {"white": 2, "orange": 3}, dice(1, 2, 2, 1, 4, 3),
        {"white": ("green", "violet"), "orange": ("red", "gray")}, {"white": r10_ben, "orange": r10_ann},
    )

    def r11_ben(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Herbalist")
        b.activate_named(c, "Pavilion")
        b.wall(c, 1, ["black"])
        b.card_effect(c, "Scribe", gain={"gold": 1})
        b.buy_prestige(c)

    def r11_ann(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Scholar")  # gray 3 counts as 1
        b.buy_prestige(c)

    # round 11: dice above 2 count as 1 (gray 3, violet 5); blue and green 2 stay 2.
    # tribute 1 gold -> 3 prestige
    play_round(
        b,
        offices(11, (0, 1), (0, 1)),
        [filler("Rice Broker", "person", ["green"], (1, 1)), filler("Ropemaker", "person", ["gray"], (0, 0)),
         filler("Smithy", "building", ["gray"], (0, 0)), filler("Painter", "person", ["gray"], (0, 0))],
        {"white": 2, "orange": 3}, dice(1, 2, 2, 1, 3, 5),
        {"white": ("black", "blue"), "orange": ("gray", "green")}, {"white": r11_ben, "orange": r11_ann},
    )

    def r12_ben(b: RecordBuilder, c: str) -> None:
        b.take_quarter(c, ["violet", "violet", "violet", "black"], "jade")  # black 3 counts as 1
        b.ship(c, 3, ["blue", "blue", "gray"], to="Amsterdam")  # gray 4 counts as 1
        b.deliver(c, "jade", 7, port="Amsterdam")

    def r12_ann(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Watchtower")
        b.take_quarter(c, ["violet", "violet", "violet", "violet"], "porcelain")
        b.ship(c, 3, ["green", "green", "blue"], to="London")  # blue 2 counts as 1
        b.deliver(c, "porcelain", 6, port="London")

    # round 12: every die counts as 1. Tribute 2 gold -> 4 prestige (nobody can pay)
    play_round(
        b,
        offices(12, (1, 1), (0, 1)),
        [filler("Lotus Pond", "building", ["red"], (1, 2)), filler("Archer", "person", ["red"], (0, 0)),
         filler("Gate", "building", ["gray"], (0, 0)), filler("Cook", "person", ["gray"], (0, 0))],
        {"white": 2, "orange": 3}, dice(1, 2, 2, 3, 4, 5),
        {"white": ("black", "gray"), "orange": ("violet", "blue")}, {"white": r12_ben, "orange": r12_ann},
    )
    b.final("white", 11, 1)
    b.final("orange", 0, 3)
    return b


GAMES["two_players"] = two_players


if __name__ == "__main__":
    main()
