"""Records, ``brisca-record/1``: writing, reading, replaying, and every kind of bad record."""

from __future__ import annotations

import copy
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from brisca import Game, Match, RecordError
from brisca import record as rec
from brisca.actions import Exchange, Play
from brisca.cards import ITALIAN, Card, Rank, Suit
from brisca.record import FORMAT, MatchRecord, Record
from brisca.rulebook import card_notation
from brisca.rules import find_variant


def played(players: int = 2, seed: int = 1, steps: int | None = None, options: dict[str, Any] | None = None) -> Game:
    rng = random.Random(seed)
    game = Game("spanish", players, seed=seed, dealer=seed % players, options=options)
    n = 0
    while not game.is_over() and (steps is None or n < steps):
        legal = game.legal_actions()
        game.apply(next((a for a in legal if isinstance(a, Exchange)), rng.choice(legal)))
        n += 1
    return game


def record_json(game: Game) -> dict[str, Any]:
    return json.loads(Record.from_game(game).dumps())


def replay_text(text: str) -> Any:
    record = rec.loads(text)
    return record.replay()


def replay_data(data: Any) -> Any:
    return replay_text(json.dumps(data))


# ------------------------------------------------------------------ writing


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("options", [None, {"deck": 48}, {"trump_exchange": "off"}])
def test_round_trip(players: int, options: dict[str, Any] | None) -> None:
    for seed, steps in ((players, None), (players + 1, 7)):
        game = played(players, seed, steps, options)
        record = Record.from_game(game)
        for text in (record.dumps(), rec.dumps(record, indent=2)):
            back = rec.loads(text)
            assert isinstance(back, Record)
            assert back == record
            again = back.replay()
            assert again.history == game.history
            assert again.deck == game.deck
            assert again.dealer == game.dealer
            assert again.rules == game.rules
            assert again.tricks == game.tricks
            assert again.seat_points == game.seat_points
            assert again.is_over() == game.is_over()
            assert rec.summary(again) == rec.summary(game)


def test_json_shape() -> None:
    game = played(4, 3, 10, {"deck": 48})
    data = record_json(game)
    assert data["format"] == FORMAT == "brisca-record/1"
    assert data["variant"] == "spanish"
    assert data["rules"] == {"deck": 48}
    assert data["players"] == 4
    assert data["dealer"] == game.dealer
    assert data["deck"] == [str(c) for c in game.deck]
    assert data["actions"] == [{"seat": s, a.kind: str(a.card)} for s, a in game.history]
    assert set(data) == {"format", "variant", "rules", "players", "dealer", "deck", "actions"}
    assert "rules" not in record_json(played(2, 3, 2))


def test_load_and_dump_files() -> None:
    game = played(3, 5)
    buf = io.StringIO()
    rec.dump(Record.from_game(game), buf)
    assert buf.getvalue().endswith("\n")
    buf.seek(0)
    back = rec.load(buf)
    assert isinstance(back, Record)
    assert back.replay().history == game.history


def test_replay_upto() -> None:
    game = played(2, 4)
    record = Record.from_game(game)
    partial = record.replay(5)
    assert partial.history == game.history[:5]


def test_record_that_stops_early() -> None:
    game = played(4, 2, steps=6)
    back = replay_text(Record.from_game(game).dumps())
    assert not back.is_over()
    assert back.history == game.history
    out = rec.summary(back)
    assert out["winner"] is None and out["over"] is False
    assert len(out["tricks"]) == 1 and len(out["current_trick"]) == 2


def test_actions_may_be_left_out() -> None:
    data = record_json(played(2, 1, 0))
    del data["actions"]
    game = replay_data(data)
    assert game.history == ()


def _match(players: int, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match("spanish", players, seed=seed, options={"deck": 48})
    while True:
        while not match.game.is_over():
            match.game.apply(rng.choice(match.game.legal_actions()))
        if match.is_over():
            return match
        match.next_hand()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_match_round_trip(players: int) -> None:
    match = _match(players, players)
    record = MatchRecord.from_match(match)
    text = record.dumps(indent=1)
    data = json.loads(text)
    assert set(data) == {"format", "variant", "rules", "players", "hands"}
    assert [h["dealer"] for h in data["hands"]] == [g.dealer for g in match.games]
    back = rec.loads(text)
    assert isinstance(back, MatchRecord)
    games = back.replay()
    assert [g.history for g in games] == [g.history for g in match.games]
    out = rec.match_summary(back, games)
    assert out["hands_won"] == list(match.hands_won)
    assert out["match_winner"] == match.winner
    assert len(out["hands"]) == len(match.games)


# ------------------------------------------------------------- bad headers


BASE = record_json(played(2, 7))


def mutated(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is KeyError:
            data.pop(key, None)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "not valid JSON"),
        ("", "not valid JSON"),
        ('{"format": "brisca-record/1",}', "not valid JSON"),
        ("[]", "JSON object"),
        ("42", "JSON object"),
        ('"text"', "JSON object"),
        ("null", "JSON object"),
    ],
)
def test_broken_json(text: str, fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment) as info:
        rec.loads(text)
    assert info.value.index is None


def test_bytes_that_are_not_utf8() -> None:
    with pytest.raises(RecordError):
        rec.loads(b"\xff\xfe{")


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"format": "brisca-record/2"}, "format"),
        ({"format": KeyError}, "format"),
        ({"variant": "poker"}, "unknown variant"),
        ({"variant": 3}, "variant"),
        ({"variant": KeyError}, "variant"),
        ({"rules": {"jokers": True}}, "unknown rule option 'jokers'"),
        ({"rules": {"deck": 52}}, "deck"),
        ({"rules": {"trump_exchange": "always"}}, "trump_exchange"),
        ({"rules": [1]}, "rules"),
        ({"players": 5}, "5"),
        ({"players": 1}, "players"),
        ({"players": "2"}, "players"),
        ({"players": KeyError}, "players"),
        ({"dealer": 2}, "dealer"),
        ({"dealer": -1}, "dealer"),
        ({"dealer": "0"}, "dealer"),
        ({"dealer": KeyError}, "dealer"),
        ({"deck": "1O 2O"}, "deck"),
        ({"deck": [1, 2]}, "deck"),
        ({"deck": KeyError}, "deck"),
        ({"deck": ["ZZ", *BASE["deck"][1:]]}, "ZZ"),
        ({"deck": BASE["deck"][:-1]}, "deck"),
        ({"deck": [*BASE["deck"][:-1], BASE["deck"][0]]}, "deck"),
        ({"deck": [*BASE["deck"][:-1], "8O"]}, "8O"),
        ({"deck": [*BASE["deck"], "8O"]}, "deck"),
        ({"actions": {"seat": 0}}, "actions"),
        ({"extra": 1}, "extra"),
        ({"players": 3}, "deck"),  # a 40-card deck for 3 players (the 2 of oros is out)
        ({"rules": {"deck": 48}}, "deck"),  # a 40-card deck for 48-card rules
    ],
)
def test_bad_headers(changes: dict[str, Any], fragment: str) -> None:
    data = mutated(**changes)
    if "players" in changes and changes["players"] == 3:
        data["actions"] = []
    with pytest.raises(RecordError, match=fragment) as info:
        replay_data(data)
    assert info.value.index is None
    assert "\n" not in str(info.value)


# ------------------------------------------------------------- bad actions


def _valid(players: int = 2, seed: int = 7) -> tuple[Game, dict[str, Any]]:
    game = played(players, seed)
    return game, record_json(game)


def _expect(data: dict[str, Any], index: int, fragment: str) -> RecordError:
    with pytest.raises(RecordError, match=fragment) as info:
        replay_data(data)
    err = info.value
    assert err.index == index, str(err)
    assert str(err).startswith(f"action {index}: ")
    assert "\n" not in str(err)
    return err


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("index", [0, 1, 5, 17])
def test_card_not_held(players: int, index: int) -> None:
    game, data = _valid(players, players)
    before = Record.from_game(game).replay(index)
    seat = before.turn
    assert seat is not None
    foreign = next(c for c in before.deck if c not in before.hand(seat))
    data["actions"][index] = {"seat": seat, "play": str(foreign)}
    _expect(data, index, f"does not hold {foreign}|{foreign}")


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("index", [0, 1, 6, 21])
def test_out_of_turn(players: int, index: int) -> None:
    game, data = _valid(players, players)
    before = Record.from_game(game).replay(index)
    seat = before.turn
    assert seat is not None
    data["actions"][index]["seat"] = (seat + 1) % players
    _expect(data, index, "turn")


def test_exchange_not_allowed() -> None:
    game, data = _valid(2, 3)
    # before any trick is won nobody may exchange, whatever the face-up card
    for index in (0, 1):
        bad = copy.deepcopy(data)
        seat = data["actions"][index]["seat"]
        trump = game.trump.letter
        bad["actions"].insert(index, {"seat": seat, "exchange": f"7{trump}"})
        _expect(bad, index, "exchang|trick")
    # a card that is never given in exchange
    bad = copy.deepcopy(data)
    bad["actions"].insert(4, {"seat": data["actions"][4]["seat"], "exchange": "1C"})
    _expect(bad, 4, "1C|exchang|trick")
    # exchanges refused when the rules say off
    bad = copy.deepcopy(data)
    bad["rules"] = {"trump_exchange": "off"}
    exchanged = [i for i, a in enumerate(data["actions"]) if "exchange" in a]
    assert exchanged
    _expect(bad, exchanged[0], "exchange")


def test_exchange_after_face_up_drawn() -> None:
    game, data = _valid(2, 3)
    replay = Record.from_game(game)
    index = next(i for i in range(len(game.history)) if replay.replay(i).stock_count == 0)
    seat = data["actions"][index]["seat"]
    data["actions"].insert(index, {"seat": seat, "exchange": f"7{game.trump.letter}"})
    _expect(data, index, "drawn|face-up|exchang")


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_anything_after_the_end(players: int) -> None:
    game, data = _valid(players, players)
    assert game.is_over()
    n = len(data["actions"])
    data["actions"].append({"seat": game.tricks[-1].winner, "play": data["actions"][0]["play"]})
    _expect(data, n, "over")


@pytest.mark.parametrize(
    ("action", "fragment"),
    [
        ({"seat": 0}, "exactly one"),
        ({"seat": 0, "play": "1O", "exchange": "7O"}, "exactly one"),
        ({"seat": 0, "play": "ZZ"}, "ZZ"),
        ({"seat": 0, "play": 3}, "card"),
        ({"seat": 0, "pass": "1O"}, "exactly one|pass"),
        ({"seat": 9, "play": "1O"}, "seat"),
        ({"seat": -1, "play": "1O"}, "seat"),
        ({"seat": "0", "play": "1O"}, "seat"),
        ({"seat": True, "play": "1O"}, "seat"),
        ({"play": "1O"}, "seat"),
        ([0, "1O"], "JSON object"),
        ("1O", "JSON object"),
    ],
)
@pytest.mark.parametrize("index", [0, 3])
def test_malformed_action(action: Any, fragment: str, index: int) -> None:
    _game, data = _valid(2, 5)
    data["actions"][index] = action
    _expect(data, index, fragment)


def test_record_error_fields() -> None:
    err = RecordError("why", 3, 1)
    assert (err.reason, err.index, err.hand) == ("why", 3, 1)
    assert str(err) == "hand 2: action 3: why"  # hands counted from 1, as everywhere people read them
    assert str(RecordError("header")) == "header"
    assert isinstance(err, ValueError)


# -------------------------------------------------------------- bad matches


def _match_json(players: int = 2, seed: int = 4) -> tuple[Match, dict[str, Any]]:
    match = _match(players, seed)
    return match, json.loads(MatchRecord.from_match(match).dumps())


def test_bad_match_hand_names_the_hand() -> None:
    _match_obj, data = _match_json()
    last = len(data["hands"]) - 1
    hand = data["hands"][last]
    hand["actions"][2]["seat"] = (hand["actions"][2]["seat"] + 1) % 2
    with pytest.raises(RecordError) as info:
        replay_data(data)
    assert (info.value.hand, info.value.index) == (last, 2)
    assert str(info.value).startswith(f"hand {last + 1}: action 2: ")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d.update(hands=[]), "hands"),
        (lambda d: d.update(hands={}), "hands"),
        (lambda d: d["hands"].append(3), "hand"),
        (lambda d: d["hands"][0].update(extra=1), "extra"),
        (lambda d: d["hands"][0].update(dealer=7), "dealer"),
        (lambda d: d["hands"][0].update(deck=d["hands"][0]["deck"][1:]), "deck"),
        (lambda d: d.update(dealer=0), "dealer"),  # a hand field in a match header
    ],
)
def test_bad_match_structure(change: Any, fragment: str) -> None:
    _match_obj, data = _match_json()
    change(data)
    with pytest.raises(RecordError, match=fragment):
        replay_data(data)


# The match rules apply to match records too: the deal passes to the next seat, a hand starts once the
# previous one is over, and nothing follows the hand that wins the match ("anything after the end").


def test_match_record_hand_after_the_match_is_won() -> None:
    match, data = _match_json(2, 4)
    assert match.is_over()
    extra = Game("spanish", 2, dealer=(match.game.dealer + 1) % 2, seed=99, options={"deck": 48})
    while not extra.is_over():
        extra.apply(extra.legal_actions()[0])
    hand = json.loads(Record.from_game(extra).dumps())
    data["hands"].append({key: hand[key] for key in ("dealer", "deck", "actions")})
    assert rec.loads(json.dumps(data | {"hands": data["hands"][-1:]})).replay()  # the hand itself is fine
    with pytest.raises(RecordError) as info:
        replay_data(data)
    assert info.value.hand == len(data["hands"]) - 1


def test_match_record_unfinished_hand_before_the_next() -> None:
    _match_obj, data = _match_json(2, 4)
    assert len(data["hands"]) >= 2
    data["hands"][0]["actions"] = data["hands"][0]["actions"][:5]
    with pytest.raises(RecordError) as info:
        replay_data(data)
    assert info.value.hand in (0, 1)


def test_match_record_deal_passes_to_the_next_seat() -> None:
    _match_obj, data = _match_json(2, 4)
    assert len(data["hands"]) >= 2
    second = data["hands"][1]
    assert second["dealer"] == (data["hands"][0]["dealer"] + 1) % 2
    # the same deck and actions, dealt by the wrong seat: replay it with the seats swapped
    second["dealer"] = data["hands"][0]["dealer"]
    second["actions"] = [{**a, "seat": (a["seat"] + 1) % 2} for a in second["actions"]]
    assert rec.loads(json.dumps(data | {"hands": [second]})).replay()  # the hand itself is fine
    with pytest.raises(RecordError) as info:
        replay_data(data)
    assert info.value.hand == 1


def test_play_and_exchange_kinds_in_records() -> None:
    game = played(2, 3)
    kinds = {type(a) for _s, a in game.history}
    assert Play in kinds
    data = record_json(game)
    assert all(set(a) in ({"seat", "play"}, {"seat", "exchange"}) for a in data["actions"])


# ------------------------------------------------------------------ notations: records are always canonical

GOLDEN = Path(__file__).resolve().parent / "golden"
SPANISH_CARD = re.compile(r"(?:[1-9]|1[0-2])[OCEB]")


def _cards_in(data: Any) -> list[str]:
    """Every card text of a record's JSON: decks, plays, exchanges, calls, discards."""
    hands = data.get("hands", [data])
    out: list[str] = []
    for hand in hands:
        out += hand["deck"]
        for action in hand["actions"]:
            for key in ("play", "exchange", "call"):
                if key in action:
                    out.append(action[key])
            out += action.get("discard", [])
    return out


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("**/*.record.json")), ids=lambda p: p.stem)
def test_records_written_before_the_notations_still_load(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = rec.loads(text)
    assert all(SPANISH_CARD.fullmatch(c) for c in _cards_in(json.loads(text)))
    games = MatchRecord.of(record).replay()
    assert games
    # written back, the record keeps the same header and the same cards, and replays to the same game
    again, before = json.loads(record.dumps()), json.loads(text)
    header = ("format", "variant", "rules", "players", "seed")
    assert {k: again.get(k) for k in header} == {k: before.get(k) for k in header}
    assert sorted(_cards_in(again)) == sorted(_cards_in(json.loads(text)))
    assert [g.history for g in MatchRecord.of(rec.loads(json.dumps(again))).replay()] == [g.history for g in games]


def _italian_match(variant: str, players: int, seed: int) -> Match:
    # The shortest match the preset's count allows (an option of another count is refused).
    short = {"target_hands": 1} if find_variant(variant).match == "target_hands" else {"target_points": 1}
    match = Match(variant, players, seed=seed, options=short)
    rng = random.Random(seed)
    while not match.is_over():
        game = match.game
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        if not match.is_over():
            match.next_hand()
    return match


@pytest.mark.parametrize(("variant", "players"), [("briscola", 2), ("briscola", 4), ("chiamata", 5),
                                                  ("mariaje", 3)])
def test_records_of_italian_presets_keep_the_spanish_notation(variant: str, players: int) -> None:
    match = _italian_match(variant, players, seed=11)
    assert card_notation(match.rules) is ITALIAN
    text = MatchRecord.from_match(match).dumps()
    data = json.loads(text)
    cards = _cards_in(data)
    assert cards and all(SPANISH_CARD.fullmatch(c) for c in cards), cards
    assert set(data) <= {"format", "variant", "rules", "players", "seed", "hands"}  # no field an old reader refuses
    loaded = rec.loads(text)
    assert isinstance(loaded, MatchRecord)
    assert card_notation(loaded.make_rules()) is ITALIAN  # the record's rules name the notation to show
    assert [g.history for g in loaded.replay()] == [g.history for g in match.games]


def _to_italian(data: Any) -> Any:
    """A record's JSON with every card and suit written in the Italian notation (as a person might write one)."""
    data = copy.deepcopy(data)
    for hand in data.get("hands", [data]):
        hand["deck"] = [Card.parse(c).text(ITALIAN) for c in hand["deck"]]
        for action in hand["actions"]:
            for key in ("play", "exchange", "call"):
                if key in action:
                    action[key] = Card.parse(action[key]).text(ITALIAN)
            if "discard" in action:
                action["discard"] = [Card.parse(c).text(ITALIAN) for c in action["discard"]]
            for key in ("trump", "declare"):
                if key in action:
                    action[key] = Suit.parse(action[key]).text(ITALIAN)
            if isinstance(action.get("bid"), str):
                action["bid"] = Rank.parse(action["bid"]).text(ITALIAN)
    return data


@pytest.mark.parametrize(("variant", "players"), [("briscola", 3), ("chiamata", 5)])
def test_a_record_in_the_italian_notation_reads_as_the_same_game(variant: str, players: int) -> None:
    match = _italian_match(variant, players, seed=4)
    canonical = json.loads(MatchRecord.from_match(match).dumps())
    italian = _to_italian(canonical)
    assert italian != canonical and any(c[0] in "AFCR" for c in _cards_in(italian))
    loaded = rec.loads(json.dumps(italian))
    assert [g.history for g in loaded.replay()] == [g.history for g in match.games]
    assert json.loads(loaded.dumps()) == canonical  # and it is written back in the canonical notation


@pytest.mark.parametrize("mode", ["announced", "out_of_turn"])
def test_records_of_the_exchange_readings_round_trip(mode: str) -> None:
    """Announcements (``{"announce": "7O"}``) and exchanges made out of turn (the seat that made them, where it made
    them) are written and read back, and the replay is the same game; the summary lists announcements."""
    from brisca.actions import Announce

    found = 0
    for seed in range(60):
        rng = random.Random(seed)
        players = (2, 3, 4)[seed % 3]
        game = Game("spanish", players, seed=seed, options={"trump_exchange": mode})
        special = 0
        while not game.is_over():
            others = [(s, a) for s in range(players) if s != game.turn for a in game.legal_actions(s)]
            if others:
                game.apply(others[0][1], others[0][0])
                special += 1
                continue
            legal = game.legal_actions()
            announce = [a for a in legal if isinstance(a, Announce)]
            special += bool(announce)
            game.apply(announce[0] if announce else rng.choice(legal))
        if not special:
            continue
        found += 1
        data = record_json(game)
        kinds = {k for a in data["actions"] for k in a if k != "seat"}
        assert ("announce" in kinds) == (mode == "announced")
        back = replay_data(data)
        assert back.history == game.history and back.exchanges == game.exchanges
        assert rec.summary(back) == rec.summary(game)
        assert ("announcements" in rec.summary(game)) == (mode == "announced")
    assert found >= 10
