"""Golden records for ``brisca replay``, and their expected outputs, from the independent referee.

    python tests/golden/make_golden.py             # rewrite every expected file from the records
    python tests/golden/make_golden.py --records   # craft the records again first (deterministic)

Expected outputs come from ``tests/reference.py`` only: nothing here imports
:mod:`brisca`.  Records are crafted with the referee too (decks built with
``build_deck`` so that chosen cards land in chosen hands, then legal actions),
so every good record is legal by the rules as written, and every bad record is
refused by the referee at the index written in its ``.expect.json``.

A hand checked by hand: ``stops_early.record.json``
----------------------------------------------------

Two players, dealer 1, so seat 0 is dealt first and leads.  The deck is built
with ``build_deck(2, 1, {0: ["1C", "4C", "5B"], 1: ["3C", "2O", "6E"]},
turned="7O", stock=["12C", "10O", "11E", "3O"])``, so the deck starts
``1C 3C 4C 2O 5B 6E 7O 12C 10O 11E 3O ...``: seat 0 gets the 1st, 3rd and 5th
cards (1C 4C 5B), seat 1 the 2nd, 4th and 6th (3C 2O 6E), the 7th (7O) is turned
up: trump is oros ("O").  The actions:

* trick 1, seat 0 leads 1C, seat 1 plays 3C: same suit, the ace ranks above the
  three, seat 0 wins 11 + 10 = 21.  Seat 0 draws 12C, seat 1 draws 10O.
* trick 2, seat 0 (the winner) leads 4C, seat 1 plays 10O: a trump beats a card
  of the suit led, seat 1 wins 0 + 2 = 2.  Seat 1 draws 11E, seat 0 draws 3O.
* seat 1 leads 6E, and the record stops there.

So: trump "O"; tricks [{leader 0, cards [1C, 3C], winner 0, points 21},
{leader 0, cards [4C, 10O], winner 1, points 2}]; seat_points [21, 2];
team_points [21, 2] (one side per seat with two players); winner null (the hand
is not over).  ``test_golden.py`` asserts these values literally as well.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BAD = HERE / "bad"
sys.path.insert(0, str(HERE.parent))

from reference import Referee, build_deck, deck_cards, replay_record  # noqa: E402

FORMAT = "brisca-record/1"
KEYS = ("trump", "tricks", "seat_points", "team_points", "winner")


# ------------------------------------------------------------------ helpers


def entries(actions: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    return [{"seat": s, kind: card} for s, kind, card in actions]


def hand_record(ref: Referee, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT, "variant": "spanish"}
    if rules:
        data["rules"] = rules
    data.update(players=ref.players, dealer=ref.dealer, deck=list(ref.deck), actions=entries(ref.actions))
    return data


def deal_part(ref: Referee) -> dict[str, Any]:
    return {"dealer": ref.dealer, "deck": list(ref.deck), "actions": entries(ref.actions)}


def shuffled_deck(players: int, seed: int, deck48: bool = False) -> list[str]:
    deck = deck_cards(players, deck48)
    random.Random(seed).shuffle(deck)
    return deck


def act(ref: Referee, action: str) -> None:
    assert ref.turn is not None
    if action.startswith("x"):
        ref.act(ref.turn, "exchange", action[1:])
    else:
        ref.act(ref.turn, "play", action)


def play_out(ref: Referee, rng: random.Random, prefer_exchange: bool = True, stop: int | None = None) -> Referee:
    """Random legal actions until the end (or until ``stop`` actions in all); exchanges taken when offered."""
    while not ref.over and (stop is None or len(ref.actions) < stop):
        legal = sorted(ref.legal())
        exchanges = [a for a in legal if a.startswith("x")]
        act(ref, exchanges[0] if exchanges and prefer_exchange else rng.choice(legal))
    return ref


def find(make: Any, accept: Any, tries: int = 20000) -> Referee:
    for seed in range(tries):
        ref = make(seed)
        if accept(ref):
            return ref
    raise SystemExit("make_golden: no position found")


def has_chain(ref: Referee) -> bool:
    ex = ref.exchanges
    return any(a["gave"].startswith("7") and b["took"] == a["gave"] for i, a in enumerate(ex) for b in ex[i + 1:])


# ------------------------------------------------------------- good records


def craft_records() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    # 2 players, both exchanges: seat 0 gives 7O for the turned 1O, then seat 1 gives 2O for that 7O.
    deck = build_deck(2, 1, {0: ["1C", "7O", "4B"], 1: ["2C", "5B", "6E"]}, turned="1O",
                      stock=["3E", "2O", "4C", "5C"])
    ref = Referee(2, 1, deck)
    for a in ("1C", "2C", "x7O", "4B", "5B", "x2O"):
        act(ref, a)
    out["two_players_exchange_chain"] = hand_record(play_out(ref, random.Random(1)))
    assert has_chain(ref) and ref.over

    # 2 players, random deck, a hand with a chain found by search, seat 1 dealing... and seat 0 dealing.
    ref = find(lambda s: play_out(Referee(2, 0, shuffled_deck(2, s)), random.Random(s)), has_chain)
    out["two_players_random_chain"] = hand_record(ref)

    # 3 players (39 cards, no 2 of oros), with at least one exchange.
    ref = find(lambda s: play_out(Referee(3, s % 3, shuffled_deck(3, 100 + s)), random.Random(s)),
               lambda r: len(r.exchanges) >= 1)
    out["three_players"] = hand_record(ref)

    # 4 players in partnerships, with two exchanges.
    ref = find(lambda s: play_out(Referee(4, s % 4, shuffled_deck(4, 200 + s)), random.Random(s)),
               lambda r: len(r.exchanges) >= 2)
    out["four_players"] = hand_record(ref)

    # 6 players, two teams of three (36 cards, no 2s: only the 7 can be given).
    ref = find(lambda s: play_out(Referee(6, s % 6, shuffled_deck(6, 300 + s)), random.Random(s)),
               lambda r: len(r.exchanges) >= 1)
    out["six_players"] = hand_record(ref)

    # 48 cards, 3 players: the 7 of trumps takes a turned 9; 9s and 8s rank between the sota and the 7.
    deck = build_deck(3, 2, {0: ["1C", "7E", "4B"], 1: ["2C", "8C", "5B"], 2: ["9C", "2E", "6B"]},
                      turned="9E", deck48=True)
    ref = Referee(3, 2, deck, deck48=True)
    for a in ("1C", "8C", "9C", "x7E"):
        act(ref, a)
    out["deck48_three_players"] = hand_record(play_out(ref, random.Random(48)), {"deck": 48})

    # 48 cards, 4 players, random.
    ref = find(lambda s: play_out(Referee(4, 1, shuffled_deck(4, 400 + s, True), deck48=True), random.Random(s)),
               lambda r: any(t["cards"] and {c[:-1] for c in t["cards"]} & {"8", "9"} for t in r.tricks)
               and len(r.exchanges) >= 1)
    out["deck48_four_players"] = hand_record(ref, {"deck": 48})

    # No exchange at all with trump_exchange off, though the 7 of trumps is held by a winner.
    deck = build_deck(2, 1, {0: ["1C", "7O", "4B"], 1: ["2C", "5B", "6E"]}, turned="1O")
    ref = Referee(2, 1, deck, exchange=False)
    out["exchange_off"] = hand_record(play_out(ref, random.Random(5)), {"trump_exchange": "off"})

    # A record that stops early (checked by hand in the module docstring).
    deck = build_deck(2, 1, {0: ["1C", "4C", "5B"], 1: ["3C", "2O", "6E"]}, turned="7O",
                      stock=["12C", "10O", "11E", "3O"])
    ref = Referee(2, 1, deck)
    for a in ("1C", "3C", "4C", "10O", "6E"):
        act(ref, a)
    out["stops_early"] = hand_record(ref)

    # A 4-player hand that stops in the middle of a trick, after an exchange.
    ref = find(lambda s: play_out(Referee(4, 3, shuffled_deck(4, 500 + s)), random.Random(s), stop=23),
               lambda r: len(r.exchanges) >= 1 and r.table)
    out["stops_early_four_players"] = hand_record(ref)

    # A drawn hand, 60-60: a 2-player hand, and a 4-player hand with the sides level.
    ref = find(lambda s: play_out(Referee(2, 1, shuffled_deck(2, 600)), random.Random(s), prefer_exchange=False),
               lambda r: r.seat_points == [60, 60])
    out["draw_two_players"] = hand_record(ref)
    ref = find(lambda s: play_out(Referee(4, 3, shuffled_deck(4, 700)), random.Random(s)),
               lambda r: r.team_points() == [60, 60])
    out["draw_four_players"] = hand_record(ref)

    # A match of three hands, 2 players: the deal passes 1, 0, 1; the middle hand is drawn and does not count.
    first = find(lambda s: play_out(Referee(2, 1, shuffled_deck(2, 800 + s)), random.Random(s)),
                 lambda r: r.winner() is not None)
    drawn = find(lambda s: play_out(Referee(2, 0, shuffled_deck(2, 900)), random.Random(s), prefer_exchange=False),
                 lambda r: r.seat_points == [60, 60])
    third = find(lambda s: play_out(Referee(2, 1, shuffled_deck(2, 1000 + s)), random.Random(s)),
                 lambda r: r.winner() == first.winner())
    out["match_two_players"] = {
        "format": FORMAT, "variant": "spanish", "players": 2,
        "hands": [deal_part(first), deal_part(drawn), deal_part(third)],
    }

    # A 4-player match to one hand (rules target_hands 1).
    one = find(lambda s: play_out(Referee(4, 3, shuffled_deck(4, 1100 + s)), random.Random(s)),
               lambda r: r.winner() is not None)
    out["match_four_players_one_hand"] = {
        "format": FORMAT, "variant": "spanish", "rules": {"target_hands": 1}, "players": 4,
        "hands": [deal_part(one)],
    }
    return out


# -------------------------------------------------------------- bad records


def craft_bad() -> dict[str, tuple[Any, str | None, str | None]]:
    """name -> (record as JSON data, or raw text; a message fragment (regex) or None; "hand N" or None)."""
    bad: dict[str, tuple[Any, str | None, str | None]] = {}
    base_deck = build_deck(2, 1, {0: ["1C", "7O", "4B"], 1: ["2C", "5B", "6E"]}, turned="1O",
                           stock=["3E", "2O", "4C", "5C"])
    full = play_out(Referee(2, 1, base_deck), random.Random(3), prefer_exchange=False)
    good = hand_record(full)

    def edited(**changes: Any) -> dict[str, Any]:
        data = json.loads(json.dumps(good))
        data.update(changes)
        return data

    bad["broken_json"] = ('{"format": "brisca-record/1", "variant": "spanish", "players": 2,', "JSON", None)
    bad["not_utf8"] = ("\udcff\udcfe{", None, None)  # written as the bytes ff fe 7b
    bad["deeply_nested"] = ("[" * 100000 + "]" * 100000, None, None)
    bad["not_an_object"] = ("[1, 2, 3]", "object", None)
    bad["wrong_format"] = (edited(format="brisca-record/9"), "format", None)
    bad["unknown_variant"] = (edited(variant="poker"), "poker", None)
    bad["unknown_option"] = (edited(rules={"jokers": True}), "jokers", None)
    bad["bad_option_value"] = (edited(rules={"deck": 52}), "deck", None)
    bad["wrong_player_count"] = (edited(players=5), "5", None)
    bad["deck_missing_a_card"] = (edited(deck=good["deck"][:-1]), "deck", None)
    bad["deck_duplicate_card"] = (edited(deck=[*good["deck"][:-1], good["deck"][0]]), "deck", None)
    bad["deck_not_a_card"] = (edited(deck=["13O", *good["deck"][1:]]), "13O", None)
    bad["deck_for_three_players"] = (edited(players=3, actions=[]), "deck", None)  # the 2 of oros must go
    bad["dealer_out_of_range"] = (edited(dealer=2), "dealer", None)

    acts = good["actions"]
    # action 1: seat 1 plays a card seat 0 holds
    bad["card_not_held"] = (edited(actions=[acts[0], {"seat": 1, "play": "4B"}, *acts[2:]]), "4B", None)
    # action 2: the loser of trick 1 (seat 1) tries to lead trick 2
    assert full.tricks[0]["winner"] == 0
    bad["out_of_turn"] = (edited(actions=[*acts[:2], {"seat": 1, "play": acts[3]["play"]}, *acts[3:]]), "turn", None)
    # action 0: seat 0 holds the 7 of trumps but has won no trick yet
    bad["exchange_before_winning"] = (edited(actions=[{"seat": 0, "exchange": "7O"}, *acts]), "exchang|trick|win",
                                      None)
    # action 2: seat 0 has won, but the face-up ace is taken with the 7, not the 2 (which seat 1 holds anyway)
    bad["exchange_wrong_card"] = (edited(actions=[*acts[:2], {"seat": 0, "exchange": "2O"}, *acts[2:]]),
                                  "2O|7O|exchang", None)
    # action 2: a card that is never given in exchange
    bad["exchange_not_a_low_trump"] = (edited(actions=[*acts[:2], {"seat": 0, "exchange": "3E"}, *acts[2:]]),
                                       "3E|exchang|7O", None)
    # an exchange refused when the rules say off
    bad["exchange_when_off"] = (edited(rules={"trump_exchange": "off"},
                                       actions=[*acts[:2], {"seat": 0, "exchange": "7O"}, *acts[2:]]),
                                "exchange", None)
    # the face-up card has been drawn: seat 0 keeps the 7 of trumps to the end and tries it then
    keep = Referee(2, 1, base_deck)
    rng = random.Random(9)
    for a in ("1C", "2C"):
        act(keep, a)
    while keep.stock or keep.turn != 0:
        legal = sorted(a for a in keep.legal() if not a.startswith("x") and a != "7O")
        act(keep, rng.choice(legal))
    drawn = hand_record(keep)
    drawn["actions"].append({"seat": 0, "exchange": "7O"})
    bad["exchange_after_face_up_drawn"] = (drawn, "drawn|face-up|exchang|stock", None)
    # anything after the end
    bad["action_after_the_end"] = (edited(actions=[*acts, {"seat": full.tricks[-1]["winner"], "play": "1C"}]),
                                   "over|end", None)
    bad["action_not_a_card"] = (edited(actions=[*acts[:2], {"seat": 0, "play": "13O"}, *acts[3:]]), "13O", None)
    bad["action_seat_out_of_range"] = (edited(actions=[acts[0], {"seat": 7, "play": "2C"}, *acts[2:]]), "seat", None)
    two_kinds = {"seat": 0, "play": "1C", "exchange": "7O"}
    bad["action_two_kinds"] = (edited(actions=[two_kinds, *acts[1:]]), "play|exchange", None)
    # a match whose second hand goes wrong at action 4
    match = json.loads(json.dumps(craft_records()["match_two_players"]))
    hand = match["hands"][1]
    hand["actions"][4] = {**hand["actions"][4], "seat": 1 - hand["actions"][4]["seat"]}
    bad["match_second_hand_out_of_turn"] = (match, "turn", "hand 2")
    return bad


# ------------------------------------------------------------------ expected


def expected(data: dict[str, Any]) -> dict[str, Any]:
    """The referee's replay, cut down to what ``brisca replay`` must print."""
    out = replay_record(data)
    if "hands" in out:
        return {
            "hands": [{k: h[k] for k in KEYS} for h in out["hands"]],
            "hands_won": out["hands_won"],
            "match_winner": out["match_winner"],
        }
    return {k: out[k] for k in KEYS}


def bad_index(data: Any) -> int | None:
    """The index of the action the referee refuses, or ``None`` when the header is what is wrong."""
    if not isinstance(data, dict):
        return None
    try:
        replay_record(data)
    except ValueError as exc:
        m = re.match(r"action (\d+):", str(exc))
        return int(m.group(1)) if m else None
    except (KeyError, TypeError):
        return None
    raise SystemExit(f"make_golden: the referee accepts a bad record: {data}")


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if "--records" in argv:
        for name, data in craft_records().items():
            write_json(HERE / f"{name}.record.json", data)
        BAD.mkdir(exist_ok=True)
        for name, (data, fragment, hand) in craft_bad().items():
            path = BAD / f"{name}.json"
            if isinstance(data, str):
                path.write_bytes(data.encode("utf-8", "surrogateescape"))
                index = None
            else:
                write_json(path, data)
                index = bad_index(data)
            write_json(BAD / f"{name}.expect.json", {"index": index, "fragment": fragment, "hand": hand})
    for path in sorted(HERE.glob("*.record.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        write_json(path.with_name(path.name.replace(".record.json", ".expected.json")), expected(data))
    for path in sorted(BAD.glob("*.expect.json")):
        record = BAD / path.name.replace(".expect.json", ".json")
        spec = json.loads(path.read_text(encoding="utf-8"))
        try:
            data = json.loads(record.read_bytes().decode("utf-8"))
        except (ValueError, RecursionError):
            data = None
        spec["index"] = bad_index(data) if data is not None else None
        write_json(path, spec)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
