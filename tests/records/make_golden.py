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


def write(name: str, b: RecordBuilder) -> None:
    (HERE / f"{name}.json").write_text(b.to_json())
    print(f"{name}: builder tally {json.dumps(b.scores())}")
    for seat in b.seats.values():
        print(f"  {seat.name}: " + "; ".join(seat.ledger))


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


# ---------------------------------------------------------------------------
# Game 2: three players. Dan (yellow) reaches the 16th wall space first; Eve
# (brown) later moves past it and goes UNDER him. They finish level and Dan, on
# top of the last stack, wins. Also: Cleo's Jester (a joker as two cubes, as a
# cube and 3 gold, as 6 gold; a single take still allowed), an empty windrose,
# card effects that pay and gain (one repeatable), rounds 8-12 dice.
# ---------------------------------------------------------------------------
BASE3 = dice(1, 2, 3, 1, 2, 4)


def three_players() -> RecordBuilder:
    b = RecordBuilder([("brown", "Eve"), ("white", "Cleo"), ("yellow", "Dan")], ["yellow", "white", "brown"],
                      "2026-11-30T20:00:00+01:00")
    b.setup_draw([
        card("Jester", "person", ["black", "blue"], (1, 1), ["double_jokers"]),
        card("Smuggler", "person", ["black"], (0, 1), ["repeatable"]),
        card("Statue", "building", ["red"], (1, 2)),
        card("Archive", "building", ["gray"], (0, 0)),
        card("Courier", "person", ["violet"], (2, 2)),
    ])
    b.setup_pick("brown", 1)
    b.setup_pick("white", 0)
    b.setup_pick("yellow", 2)
    b.setup_cubes("yellow", "red", "blue")
    b.setup_cubes("white", "black", "blue")
    b.setup_cubes("brown", "black", "green")
    usual = {"yellow": ("red", "green"), "brown": ("black", "green"), "white": ("black", "blue")}
    _three_player_rounds(b, usual)
    return b


def _three_player_rounds(b: RecordBuilder, usual: dict[str, tuple[str, str]]) -> None:
    def r1_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Statue")
        b.wall(c, 1, ["red"])

    def r1_cleo(b: RecordBuilder, c: str) -> None:
        b.ship(c, 2, ["black", "black"])

    def r1_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Smuggler")
        b.card_effect(c, "Smuggler", pay={"gold": 1}, gain={"cubes": ["gray"]})
        b.card_effect(c, "Smuggler", pay={"gold": 1}, gain={"cubes": ["gray"]}, note="repeatable")
        b.wall(c, 1, ["black"])
        b.ship(c, 2, ["gray", "gray"])

    # round 1: tribute 3 gold -> 6 prestige (nobody buys)
    play_round(
        b,
        offices(1, (1, 1), (1, 2)),
        [filler("Lookout", "person", ["green"], (0, 1)), filler("Bazaar", "building", ["blue"], (1, 1)),
         filler("Mint", "building", ["green"], (0, 1)), filler("Cistern", "building", ["gray"], (0, 0))],
        {"yellow": 2, "white": 3, "brown": 4}, BASE3, usual,
        {"yellow": r1_dan, "white": r1_cleo, "brown": r1_eve},
    )

    def r2_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Mint")
        b.wall(c, 1, ["black"])
        b.ship(c, 1, ["green"])

    def r2_dan(b: RecordBuilder, c: str) -> None:
        b.wall(c, 2, ["blue", "blue", "red"])

    def r2_cleo(b: RecordBuilder, c: str) -> None:
        b.take_quarter(c, ["blue", "blue"], "joker")
        b.joker(c, ["violet"])  # before the Jester: one cube
        b.activate_named(c, "Jester")
        b.ship(c, 2, ["blue", "violet"])

    # round 2: tribute 3 gold -> 6 prestige
    play_round(
        b,
        offices(2, (1, 1), (0, 1), ["red"], ["green"]),
        [filler("Pier", "building", ["red"], (0, 1)), filler("Lamplighter", "person", ["green"], (1, 1)),
         filler("Tower House", "building", ["blue"], (1, 2)), filler("Kennel", "building", ["gray"], (0, 0))],
        {"brown": 3, "yellow": 2, "white": 4}, BASE3, usual,
        {"brown": r2_eve, "yellow": r2_dan, "white": r2_cleo},
    )

    def r3_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Lookout")
        b.wall(c, 2, ["green", "green", "red"])
        b.buy_prestige(c)

    def r3_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Temple")
        b.card_effect(c, "Temple", pay={"gold": 2}, gain={"prestige": 3}, note="an offering")
        b.wall(c, 2, ["green", "green", "green"])

    def r3_cleo(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Bazaar")
        b.ship(c, 2, ["blue", "black"])
        b.buy_prestige(c)

    # round 3: tribute 3 gold -> 7 prestige
    play_round(
        b,
        offices(3, (0, 1), (1, 1), ["gray"], ["violet"]),
        [filler("Temple", "building", ["black"], (0, 1)), filler("Saddler", "person", ["red"], (1, 1)),
         filler("Dye Works", "building", ["red", "gray"], (0, 2)), filler("Barracks", "building", ["gray"], (1, 1))],
        {"yellow": 3, "brown": 2, "white": 4}, BASE3, usual,
        {"yellow": r3_dan, "brown": r3_eve, "white": r3_cleo},
    )

    def r4_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Pier")
        b.wall(c, 2, ["green", "green", "green"])

    def r4_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Lamplighter")
        b.wall(c, 2, ["green", "green", "black"])

    def r4_cleo(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Tower House")
        b.take_quarter(c, ["blue", "black"], "joker")
        b.joker(c, ["red", "gray"])  # Jester: two cubes
        b.activate_named(c, "Dye Works")

    # round 4: tribute 3 gold -> 6 prestige (nobody buys)
    play_round(
        b,
        offices(4, (1, 1), (0, 1), ["black"], ["green"]),
        [filler("Chandler", "person", ["green"], (0, 1)), filler("Wharf", "building", ["green"], (1, 2)),
         filler("Sentry", "person", ["red"], (0, 0)), filler("Loom", "building", ["gray"], (1, 1))],
        {"yellow": 2, "brown": 3, "white": 4}, BASE3, usual,
        {"yellow": r4_dan, "brown": r4_eve, "white": r4_cleo},
    )

    def r5_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Saddler")
        b.wall(c, 2, ["green", "green", "green"])

    def r5_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Wharf")
        b.wall(c, 2, ["green", "green", "black"])

    def r5_cleo(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Sampan")
        b.ship(c, 2, ["blue", "black"])

    # round 5: tribute 3 gold -> 6 prestige (nobody buys)
    play_round(
        b,
        offices(5, (0, 1), (1, 1)),
        [filler("Quay", "building", ["red"], (0, 1)), filler("Fountain House", "building", ["green"], (1, 2)),
         filler("Sampan", "person", ["blue"], (0, 0)), filler("Kitchen", "building", ["gray"], (1, 1))],
        {"yellow": 2, "brown": 3, "white": 4}, BASE3, usual,
        {"yellow": r5_dan, "brown": r5_eve, "white": r5_cleo},
    )

    def r6_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Chandler")
        b.wall(c, 2, ["green", "green", "red"])

    def r6_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Fountain House")
        b.wall(c, 2, ["green", "green", "black"])

    def r6_cleo(b: RecordBuilder, c: str) -> None:
        b.take_quarter(c, ["blue"], "joker")
        b.joker(c, ["red", "gold"])  # Jester: a cube and 3 gold
        b.activate_named(c, "Sentry")
        b.ship(c, 1, ["blue"])

    # round 6: tribute 3 gold -> 7 prestige (nobody buys). Cleo takes dice of 3 and 4 pips.
    play_round(
        b,
        offices(6, (1, 1), (0, 1), ["violet"], ["gray"]),
        [filler("Ferryman", "person", ["green"], (0, 1)), filler("Glassworks", "building", ["green"], (1, 1)),
         filler("Drummer", "person", ["blue"], (0, 2)), filler("Bathhouse", "building", ["gray"], (1, 1))],
        {"yellow": 2, "brown": 3, "white": 4}, BASE3, {**usual, "white": ("green", "violet")},
        {"yellow": r6_dan, "brown": r6_eve, "white": r6_cleo},
    )

    def r7_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Quay")
        b.wall(c, 2, ["green", "green", "green"])

    def r7_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Glassworks")
        b.wall(c, 2, ["green", "green", "black"])

    def r7_cleo(b: RecordBuilder, c: str) -> None:
        b.buy_prestige(c)  # nothing on her windrose this round, but gold still buys prestige

    # round 7: Cleo's windrose is empty: punish marker. Tribute 3 gold -> 6 prestige
    play_round(
        b,
        offices(7, (1, 1), (0, 1), ["red"], ["black"]),
        [filler("Guildhall", "building", ["green"], (0, 1)), filler("Harbor Crane", "building", ["black"], (1, 2)),
         filler("Tutor", "person", ["violet"], (1, 1)), filler("Shed", "building", ["gray"], (0, 0))],
        {"yellow": 2, "brown": 3, "white": 4}, BASE3, {**usual, "white": ("blue", "green")},
        {"yellow": r7_dan, "brown": r7_eve, "white": r7_cleo},
    )

    def r8_dan(b: RecordBuilder, c: str) -> None:
        b.wall(c, 2, ["green", "green", "gray"])  # gray 6 counts as 1; reaches the 16th space
        b.activate_named(c, "Ferryman")
        b.activate_named(c, "Canal")

    def r8_eve(b: RecordBuilder, c: str) -> None:
        b.wall(c, 1, ["green"])
        b.activate_named(c, "Harbor Crane")
        b.card_effect(c, "Mint", pay={"cubes": ["green", "green"]}, gain={"gold": 3})
        b.buy_prestige(c)

    def r8_cleo(b: RecordBuilder, c: str) -> None:
        b.take_quarter(c, ["green", "green"], "joker")
        b.joker(c, ["gold", "gold"])  # Jester: 6 gold
        b.activate_named(c, "Drummer")
        b.buy_prestige(c)
        b.ship(c, 3, ["green", "blue", "black"])

    # round 8: gray shows 6 and counts as 1. Tribute 3 gold -> 6 prestige
    play_round(
        b,
        offices(8, (1, 2), (1, 1), ["red"], ["green"]),
        [filler("Canal", "building", ["red"], (0, 1)), filler("Pawnshop", "building", ["green"], (1, 1)),
         filler("Net Maker", "person", ["black"], (0, 1)), filler("Orchard", "building", ["gray"], (0, 0))],
        {"yellow": 2, "brown": 3, "white": 4}, dice(1, 2, 3, 1, 6, 4),
        {**usual, "yellow": ("red", "gray")},
        {"yellow": r8_dan, "brown": r8_eve, "white": r8_cleo},
    )

    def r9_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Guildhall")
        b.ship(c, 3, ["green", "green", "red"], to="Goa")

    def r9_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Pawnshop")
        b.activate_named(c, "Rigger")
        b.ship(c, 2, ["green", "green"])

    def r9_cleo(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Tutor")
        b.activate_named(c, "Net Maker")
        b.take_quarter(c, ["violet", "violet", "violet", "violet"], "lacquer")  # 4 from round 6 + violet 5 as 1
        b.ship(c, 2, ["blue", "blue"], to="Cadiz")
        b.deliver(c, "lacquer", 5, port="Cadiz")
        b.buy_prestige(c)
        b.ship(c, 3, ["green", "green", "green"])

    # round 9: violet shows 5 and counts as 1. Tribute 3 gold -> 7 prestige
    play_round(
        b,
        offices(9, (0, 1), (1, 1), ["violet"], ["black"]),
        [filler("Lighthouse", "building", ["red", "gray"], (1, 1)), filler("Rigger", "person", ["black"], (0, 1)),
         filler("Potter", "person", ["gray"], (0, 2)), filler("Abacus", "building", ["gray"], (1, 1))],
        {"yellow": 2, "brown": 3, "white": 4}, dice(1, 2, 3, 1, 2, 5),
        {"yellow": ("red", "green"), "brown": ("black", "gray"), "white": ("black", "violet")},
        {"yellow": r9_dan, "brown": r9_eve, "white": r9_cleo},
    )

    def r10_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Lighthouse")  # gray 4 counts as 1

    def r10_eve(b: RecordBuilder, c: str) -> None:
        b.wall(c, 3, ["green", "green", "green", "gray", "gray"])  # past the 16th space: under Dan
        b.activate_named(c, "Lantern Shop")  # violet 5 counts as 1

    def r10_cleo(b: RecordBuilder, c: str) -> None:
        b.take_quarter(c, ["black"], "joker")
        b.joker(c, "gold")  # with the Jester a single take is still allowed
        b.activate_named(c, "Inkwell")
        b.buy_prestige(c)

    # round 10: gray 4 and violet 5 count as 1; green 3 stays. Tribute 3 gold -> 6 prestige
    play_round(
        b,
        offices(10, (1, 1), (0, 1), ["blue"], ["red"]),
        [filler("Lantern Shop", "building", ["violet"], (0, 1)), filler("Cartwright", "person", ["red"], (1, 1)),
         filler("Inkwell", "person", ["gray"], (0, 0)), filler("Arsenal", "building", ["gray"], (1, 2))],
        {"yellow": 3, "brown": 2, "white": 4}, dice(1, 2, 3, 1, 4, 5),
        {"yellow": ("red", "gray"), "brown": ("black", "violet"), "white": ("black", "gray")},
        {"yellow": r10_dan, "brown": r10_eve, "white": r10_cleo},
    )

    def r11_dan(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Cartwright")
        b.activate_named(c, "Spice Stall")
        b.take_quarter(c, ["green", "green"], "spices")
        b.ship(c, 1, ["green"], to="Venice")
        b.deliver(c, "spices", 6, port="Venice")

    def r11_eve(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Shipwright")
        b.take_quarter(c, ["green"], "tea")  # green 3 counts as 1

    def r11_cleo(b: RecordBuilder, c: str) -> None:
        b.ship(c, 1, ["black"])

    # round 11: green 3 and violet 4 count as 1; gray 2 stays 2 (Cleo uses it in round 12).
    # tribute 3 gold -> 5 prestige (nobody buys)
    play_round(
        b,
        offices(11, (1, 1), (1, 1), ["green"], ["red"]),
        [filler("Spice Stall", "building", ["green"], (0, 1)), filler("Shipwright", "person", ["black"], (1, 1)),
         filler("Weigher", "person", ["gray", "gray"], (0, 0)), filler("Bell Foundry", "building", ["gray"], (0, 1))],
        {"yellow": 2, "brown": 3, "white": 4}, dice(1, 2, 3, 1, 2, 4),
        {"yellow": ("red", "green"), "brown": ("black", "green"), "white": ("black", "gray")},
        {"yellow": r11_dan, "brown": r11_eve, "white": r11_cleo},
    )

    def r12_dan(b: RecordBuilder, c: str) -> None:
        b.buy_prestige(c)
        b.activate_named(c, "Rope Shop")

    def r12_eve(b: RecordBuilder, c: str) -> None:
        b.ship(c, 2, ["black", "green"], to="Lisbon")  # black 5 and green 4 count as 1
        b.deliver(c, "tea", 4, port="Lisbon")
        b.buy_prestige(c)
        b.card_effect(c, "Temple", pay={"gold": 1}, gain={"prestige": 2})

    def r12_cleo(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Weigher")  # the gray 2 of round 11
        b.buy_prestige(c)
        b.ship(c, 2, ["red", "blue"])

    # round 12: every die counts as 1. All six cards have gold 0: prestige for 0 gold (6).
    play_round(
        b,
        offices(12, (0, 1), (0, 1), ["gray"], ["violet"]),
        [filler("Rope Shop", "building", ["red", "green"], (0, 1)), filler("Chapel", "building", ["gray"], (0, 1)),
         filler("Kite Maker", "person", ["gray"], (0, 1)), filler("Printer", "person", ["gray"], (0, 1))],
        {"yellow": 2, "brown": 3, "white": 4}, dice(3, 2, 4, 5, 6, 1),
        {"yellow": ("red", "green"), "brown": ("black", "green"), "white": ("red", "blue")},
        {"yellow": r12_dan, "brown": r12_eve, "white": r12_cleo},
    )
    b.final("white", 0, 1)
    b.final("brown", 17, 1)
    b.final("yellow", 16, 1)


GAMES["three_players"] = three_players


# ---------------------------------------------------------------------------
# Game 3: four players. Fay (orange) has an activated Abbot: no punish markers
# for the cards she leaves. Gus (white) leaves an Abbot he never activated on
# his tableau: it protects nobody; his track ends below 0 and counts 0.
# Ivy (brown) lands on Hal's (yellow) space, on top of him; they finish level
# and Ivy wins. Also: a sixth card, empty windroses, a card effect that gains
# cubes, deliveries, adjustments, rounds 8-12 dice.
# ---------------------------------------------------------------------------
BASE4 = dice(1, 2, 3, 1, 2, 4)


def four_players() -> RecordBuilder:
    b = RecordBuilder([("orange", "Fay"), ("white", "Gus"), ("yellow", "Hal"), ("brown", "Ivy")],
                      ["brown", "yellow", "white", "orange"], "2026-12-01T18:45:00+01:00")
    b.setup_draw([
        card("Abbot", "person", ["blue", "blue"], (1, 1), ["no_tableau_penalty"]),
        card("Fountain", "building", ["red"], (0, 1)),
        card("Harbour Master", "person", ["green"], (1, 2)),
        card("Clockmaker", "person", ["gray"], (0, 1)),
        card("Ox Cart", "building", ["black"], (1, 1)),
        card("Moon Gate", "building", ["violet"], (0, 0)),
    ])
    b.setup_pick("orange", 0)
    b.setup_pick("white", 3)
    b.setup_pick("yellow", 1)
    b.setup_pick("brown", 2)
    b.setup_cubes("brown", "black", "green")
    b.setup_cubes("yellow", "red", "blue")
    b.setup_cubes("white", "gray", "violet")
    b.setup_cubes("orange", "blue", "blue")
    _four_player_rounds(b)
    return b


def _four_player_rounds(b: RecordBuilder) -> None:
    usual = {"orange": ("red", "blue"), "yellow": ("red", "green"), "brown": ("black", "green"),
             "white": ("violet", "gray")}

    def r1_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Teahouse")
        b.ship(c, 1, ["black"])

    def r1_hal(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Fountain")
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]}, note="one red cube a round")
        b.activate_named(c, "Warden")
        b.ship(c, 1, ["red"])

    def r1_gus(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Clockmaker")

    def r1_fay(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Jetty")
        b.buy_prestige(c)
        b.ship(c, 1, ["red"])

    # round 1: tribute 3 gold -> 7 prestige
    play_round(
        b,
        offices(1, (1, 1), (0, 1)),
        [filler("Teahouse", "building", ["black"], (0, 1)), filler("Warden", "person", ["red"], (1, 1)),
         filler("Jetty", "building", ["blue"], (0, 2)), filler("Vault", "building", ["gray"], (1, 1))],
        {"brown": 2, "yellow": 3, "white": 5, "orange": 4}, BASE4, usual,
        {"brown": r1_ivy, "yellow": r1_hal, "white": r1_gus, "orange": r1_fay},
    )

    def r2_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Harbour Master")
        b.activate_named(c, "Cooperage")
        b.ship(c, 1, ["black"])

    def r2_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.wall(c, 2, ["blue", "blue", "red"])
        b.activate_named(c, "Lamp Post")

    def r2_gus(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Vault")
        b.buy_prestige(c)
        b.ship(c, 2, ["violet", "violet"])

    def r2_fay(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Abbot")
        b.wall(c, 1, ["blue"])
        b.ship(c, 2, ["blue", "red"])

    # round 2: tribute 3 gold -> 6 prestige. Gus drafts an Abbot he will never activate.
    play_round(
        b,
        offices(2, (0, 1), (1, 1), ["green"], ["violet"]),
        [filler("Cooperage", "building", ["green"], (1, 2)), filler("Lamp Post", "building", ["red"], (0, 1)),
         card("Abbot", "person", ["black", "black", "gray"], (1, 1), ["no_tableau_penalty"]),
         filler("Bamboo Yard", "building", ["blue"], (0, 0))],
        {"brown": 2, "yellow": 3, "white": 4, "orange": 5}, BASE4,
        {**usual, "white": ("violet", "green")},
        {"brown": r2_ivy, "yellow": r2_hal, "white": r2_gus, "orange": r2_fay},
    )

    def r3_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.take_quarter(c, ["green", "green"], "rice")
        b.ship(c, 2, ["green", "red"], to="Antwerp")
        b.deliver(c, "rice", 5, port="Antwerp")
        b.activate_named(c, "Paddy")

    def r3_fay(b: RecordBuilder, c: str) -> None:
        b.wall(c, 2, ["blue", "blue", "red"])  # from the 2nd space to the 4th: over Hal

    def r3_ivy(b: RecordBuilder, c: str) -> None:
        b.take_quarter(c, ["green", "green", "black"], "jade")
        b.ship(c, 1, ["green"])

    # round 3: Gus's windrose is empty: punish marker. Tribute 2 gold -> 5 prestige (nobody buys)
    play_round(
        b,
        offices(3, (1, 1), (0, 1), ["black"], ["gray"]),
        [filler("Paddy", "building", ["red"], (0, 1)), filler("Sluice", "building", ["green"], (1, 1)),
         filler("Kiosk", "building", ["black"], (0, 1)), filler("Ledger Room", "building", ["gray"], (0, 0))],
        {"yellow": 2, "orange": 3, "brown": 4, "white": 5}, BASE4,
        {**usual, "white": ("violet", "gray")},
        {"yellow": r3_hal, "orange": r3_fay, "brown": r3_ivy},
    )

    def r4_fay(b: RecordBuilder, c: str) -> None:
        b.ship(c, 3, ["blue", "blue", "red"])

    def r4_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.activate_named(c, "Salt Store")
        b.take_quarter(c, ["green", "green"], "tea")
        b.ship(c, 1, ["green"], to="Bordeaux")
        b.deliver(c, "tea", 3, port="Bordeaux")
        b.buy_prestige(c)

    def r4_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Kiosk")
        b.ship(c, 2, ["green", "green"], to="Hamburg")
        b.deliver(c, "jade", 6, port="Hamburg")
        b.activate_named(c, "Dovecote")

    def r4_gus(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Ledger Room")
        b.activate_named(c, "Bell")
        b.take_quarter(c, ["violet", "violet", "violet", "violet"], "lacquer")
        b.ship(c, 3, ["green", "green", "green"], to="Marseille")
        b.deliver(c, "lacquer", 4, port="Marseille")

    # round 4: tribute 3 gold -> 7 prestige
    play_round(
        b,
        offices(4, (1, 1), (1, 1), ["red"], ["gray"]),
        [filler("Salt Store", "building", ["red"], (0, 1)), filler("Dovecote", "building", ["green"], (1, 2)),
         filler("Bell", "building", ["gray"], (0, 1)), filler("Orchid House", "building", ["blue"], (0, 1))],
        {"orange": 5, "yellow": 2, "brown": 3, "white": 4}, BASE4, usual,
        {"orange": r4_fay, "yellow": r4_hal, "brown": r4_ivy, "white": r4_gus},
    )

    def r5_fay(b: RecordBuilder, c: str) -> None:
        b.wall(c, 2, ["blue", "blue", "red"])
        b.buy_prestige(c)

    def r5_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.activate_named(c, "Herb Garden")
        b.buy_prestige(c)
        b.ship(c, 2, ["green", "green"])

    def r5_ivy(b: RecordBuilder, c: str) -> None:
        b.wall(c, 2, ["green", "green", "black"])  # onto Hal's space, on top of him
        b.activate_named(c, "Signal Fire")
        b.buy_prestige(c)

    def r5_gus(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Sundial")
        b.buy_prestige(c)
        b.ship(c, 3, ["violet", "violet", "violet"])

    # round 5: all six gold numbers are 0: 0 gold -> 6 prestige for everybody
    play_round(
        b,
        offices(5, (0, 1), (0, 1), ["blue"], ["green"]),
        [filler("Herb Garden", "building", ["red"], (0, 1)), filler("Signal Fire", "building", ["green"], (0, 2)),
         filler("Sundial", "building", ["violet"], (0, 1)), filler("Rickshaw", "person", ["red"], (0, 0))],
        {"orange": 5, "yellow": 2, "brown": 3, "white": 4}, BASE4, usual,
        {"orange": r5_fay, "yellow": r5_hal, "brown": r5_ivy, "white": r5_gus},
    )

    def r6_fay(b: RecordBuilder, c: str) -> None:
        b.ship(c, 3, ["blue", "blue", "red"])

    def r6_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Kite Shop")
        b.take_quarter(c, ["green", "green", "black"], "silk")

    def r6_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.activate_named(c, "Well House")
        b.take_quarter(c, ["green", "green", "green"], "joker")
        b.joker(c, ["red"])
        b.ship(c, 2, ["red", "red"])

    def r6_gus(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Mill Pond")
        b.ship(c, 5, ["violet", "violet", "violet", "violet", "gray"])

    # round 6: tribute 4 gold -> 6 prestige (nobody buys). Fay's tableau reaches five cards.
    play_round(
        b,
        offices(6, (1, 1), (1, 2), ["red"], ["blue"]),
        [filler("Well House", "building", ["red"], (0, 1)), filler("Kite Shop", "building", ["green"], (1, 1)),
         filler("Mill Pond", "building", ["gray"], (0, 0)), filler("Pagoda", "building", ["blue"], (1, 1))],
        {"orange": 5, "brown": 3, "yellow": 2, "white": 4}, BASE4, usual,
        {"orange": r6_fay, "brown": r6_ivy, "yellow": r6_hal, "white": r6_gus},
    )

    def r7_fay(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Orchid House")
        b.wall(c, 1, ["blue"])
        b.activate_named(c, "Rickshaw")

    def r7_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Net Loft")
        b.ship(c, 2, ["green", "green"], to="Genoa")
        b.deliver(c, "silk", 5, port="Genoa")
        b.buy_prestige(c)

    def r7_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.activate_named(c, "Granite Yard")
        b.ship(c, 4, ["green", "green", "green", "red"])

    def r7_gus(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Tinker")

    # round 7: Fay takes a sixth card and discards Bamboo Yard. Tribute 3 gold -> 7 prestige
    play_round(
        b,
        offices(7, (1, 1), (0, 1), ["black"], ["violet"]),
        [filler("Granite Yard", "building", ["red"], (0, 1)), filler("Net Loft", "building", ["black"], (1, 1)),
         filler("Tinker", "person", ["violet"], (0, 1)), filler("Water Clock", "building", ["blue"], (1, 2))],
        {"orange": (5, 0), "brown": 3, "yellow": 2, "white": 4}, BASE4,
        {**usual, "white": ("green", "black")},
        {"orange": r7_fay, "brown": r7_ivy, "yellow": r7_hal, "white": r7_gus},
    )

    def r8_fay(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Incense Shop")  # violet 6 counts as 1
        b.ship(c, 2, ["blue", "blue"])

    def r8_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Rope Yard")
        b.take_quarter(c, ["green", "green"], "paper")
        b.ship(c, 1, ["black"])

    def r8_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.activate_named(c, "Dye Pit")
        b.take_quarter(c, ["green", "green", "green"], "spices")
        b.ship(c, 1, ["red"], to="Lisbon")
        b.deliver(c, "spices", 4, port="Lisbon")

    def r8_gus(b: RecordBuilder, c: str) -> None:
        b.ship(c, 2, ["violet", "violet"])

    # round 8: violet 6 counts as 1. Tribute 2 gold -> 5 prestige (nobody buys)
    play_round(
        b,
        offices(8, (0, 1), (1, 1), ["green"], ["black"]),
        [filler("Dye Pit", "building", ["red"], (0, 1)), filler("Rope Yard", "building", ["green"], (1, 1)),
         filler("Scales", "person", ["gray"], (0, 1)), filler("Incense Shop", "building", ["violet"], (0, 0))],
        {"orange": 5, "brown": 3, "yellow": 2, "white": 4}, dice(1, 2, 3, 1, 2, 6),
        {**usual, "orange": ("violet", "blue")},
        {"orange": r8_fay, "brown": r8_ivy, "yellow": r8_hal, "white": r8_gus},
    )

    def r9_fay(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Pagoda")
        b.ship(c, 2, ["blue", "red"])

    def r9_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Smokehouse")
        b.ship(c, 2, ["green", "green"], to="Porto")
        b.deliver(c, "paper", 4, port="Porto")
        b.ship(c, 2, ["green", "gray"])  # gray 5 counts as 1

    def r9_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.activate_named(c, "Counting House")
        b.ship(c, 3, ["green", "green", "green"])

    def r9_gus(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Scales")
        b.ship(c, 3, ["green", "green", "green"])

    # round 9: gray 5 counts as 1. Tribute 3 gold -> 6 prestige (nobody buys)
    play_round(
        b,
        offices(9, (1, 1), (0, 1), ["gray"], ["red"]),
        [filler("Counting House", "building", ["red"], (0, 1)), filler("Smokehouse", "building", ["black"], (1, 1)),
         filler("Ferry Slip", "building", ["gray"], (1, 1)), filler("Scroll Shop", "building", ["blue"], (0, 1))],
        {"orange": 5, "brown": 3, "yellow": 2, "white": 4}, dice(1, 2, 3, 1, 5, 4),
        {**usual, "brown": ("black", "gray"), "white": ("green", "violet")},
        {"orange": r9_fay, "brown": r9_ivy, "yellow": r9_hal, "white": r9_gus},
    )

    def r10_fay(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Water Clock")
        b.activate_named(c, "Glass Bead")  # violet 6 counts as 1
        b.buy_prestige(c)

    def r10_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Mirror Pond")
        b.take_quarter(c, ["green", "green", "gray"], "porcelain")  # gray 4 counts as 1
        b.ship(c, 1, ["green"], to="Cadiz")
        b.deliver(c, "porcelain", 7, port="Cadiz")
        b.buy_prestige(c)

    def r10_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.activate_named(c, "Teak Store")
        b.buy_prestige(c)
        b.ship(c, 4, ["green", "green", "green", "red"])

    def r10_gus(b: RecordBuilder, c: str) -> None:
        b.adjust(c, "Gus had 1 gold too many", gold=-1)

    # round 10: gray 4 and violet 6 count as 1. Gus's windrose is empty: punish marker.
    # tribute 1 gold -> 5 prestige
    play_round(
        b,
        offices(10, (0, 1), (0, 1), ["blue"], ["green"]),
        [filler("Teak Store", "building", ["red"], (0, 1)), filler("Mirror Pond", "building", ["black"], (1, 1)),
         filler("Pot Shop", "person", ["gray"], (0, 0)), filler("Glass Bead", "person", ["violet"], (0, 1))],
        {"orange": 5, "brown": 3, "yellow": 2, "white": 4}, dice(1, 2, 3, 1, 4, 6),
        {**usual, "orange": ("red", "violet"), "brown": ("black", "gray"), "white": ("blue", "green")},
        {"orange": r10_fay, "brown": r10_ivy, "yellow": r10_hal, "white": r10_gus},
    )

    def r11_fay(b: RecordBuilder, c: str) -> None:
        b.ship(c, 1, ["red"])

    def r11_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Drum Tower")
        b.ship(c, 1, ["green"])  # green 3 counts as 1

    def r11_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.take_quarter(c, ["green", "green", "violet"], "jade")  # violet 5 counts as 1
        b.ship(c, 1, ["green"], to="London")
        b.deliver(c, "jade", 9, port="London")
        b.activate_named(c, "Lotus Shop")

    def r11_gus(b: RecordBuilder, c: str) -> None:
        b.ship(c, 5, ["green", "green", "green", "blue", "blue"])

    # round 11: green 3 and violet 5 count as 1; gray 2 stays 2. Tribute 3 gold -> 6 prestige
    play_round(
        b,
        offices(11, (1, 1), (0, 1), ["red"], ["gray"]),
        [filler("Lotus Shop", "building", ["red"], (0, 1)), filler("Drum Tower", "building", ["red"], (1, 1)),
         filler("Boat House", "building", ["blue"], (0, 0)), filler("Seal Carver", "person", ["gray"], (1, 2))],
        {"orange": 5, "brown": 3, "yellow": 2, "white": 4}, dice(1, 2, 3, 1, 2, 5),
        {"orange": ("red", "gray"), "brown": ("red", "green"), "yellow": ("red", "violet"),
         "white": ("black", "gray")},
        {"orange": r11_fay, "brown": r11_ivy, "yellow": r11_hal, "white": r11_gus},
    )

    def r12_fay(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Seal Carver")  # the gray 2 of round 11
        b.ship(c, 3, ["gray", "red", "blue"])

    def r12_ivy(b: RecordBuilder, c: str) -> None:
        b.activate_named(c, "Star Tower")
        b.ship(c, 1, ["gray"])

    def r12_hal(b: RecordBuilder, c: str) -> None:
        b.card_effect(c, "Fountain", gain={"cubes": ["red"]})
        b.take_quarter(c, ["green", "green", "green"], "silk")
        b.ship(c, 1, ["green"], to="Rotterdam")
        b.deliver(c, "silk", 8, port="Rotterdam")
        b.activate_named(c, "Spice Market")

    def r12_gus(b: RecordBuilder, c: str) -> None:
        b.take_quarter(c, ["violet", "violet", "violet", "violet"], "joker")
        b.joker(c, "gold")
        b.ship(c, 3, ["green", "green", "green"])

    # round 12: every die counts as 1. Tribute 2 gold -> 6 prestige (nobody buys)
    play_round(
        b,
        offices(12, (0, 1), (1, 1), ["violet"], ["black"]),
        [filler("Spice Market", "building", ["red"], (1, 2)), filler("Star Tower", "building", ["black"], (0, 1)),
         filler("Inkstone", "person", ["gray"], (0, 1)), filler("Kettle Shop", "building", ["blue"], (0, 0))],
        {"orange": 5, "brown": 3, "yellow": 2, "white": 4}, dice(4, 2, 3, 1, 6, 5),
        {"orange": ("red", "blue"), "brown": ("black", "gray"), "yellow": ("red", "green"),
         "white": ("blue", "gray")},
        {"orange": r12_fay, "brown": r12_ivy, "yellow": r12_hal, "white": r12_gus},
    )
    b.final("white", 3, 2)
    b.final("yellow", 0, 3)
    b.final("orange", 2, 0)
    b.final("brown", 5, 4)


GAMES["four_players"] = four_players


if __name__ == "__main__":
    main()
