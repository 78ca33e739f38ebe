"""Golden records of the presets and rule options: ``python -m brisca replay`` against the variant referee.

The records and their expected outputs are written by
``tests/golden/variants/make_golden.py`` from ``tests/variant_referee.py``
(the engine only supplies each preset's option values).  Every good record must
replay with the outputs the referee computed, and show what its name says; the
views along the way must agree with the referee's; every bad record must exit 2
with one line on standard error naming the action at fault, and no traceback.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from brisca import Game, make_rules
from brisca.actions import Action
from variant_referee import Hand, MatchScore, RefereeError, entry_action, key, replay_record

HERE = Path(__file__).resolve().parent / "golden" / "variants"
BAD = HERE / "bad"
RECORDS = sorted(HERE.glob("*.record.json"))
BAD_SPECS = sorted(BAD.glob("*.expect.json"))
KEYS = ("trump", "tricks", "seat_points", "team_points", "bonuses", "winner", "reason")
MATCH_KEYS = ("hands_won", "match_points", "match_over", "match_winner")
#: Printed for some matches only: the seats a draw for partners gave, the game points of ``match: game_points``.
OPTIONAL_MATCH_KEYS = ("seating", "game_points")

# Loaded under its own name: tests/golden/make_golden.py is imported elsewhere as plain "make_golden".
_spec = importlib.util.spec_from_file_location("variant_make_golden", HERE / "make_golden.py")
assert _spec is not None and _spec.loader is not None
maker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(maker)


def name_of(path: Path) -> str:
    return path.name.split(".")[0]


def load(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def expected_for(path: Path) -> Any:
    return load(path.with_name(path.name.replace(".record.json", ".expected.json")))


def replay(path: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "brisca", "replay", str(path)], capture_output=True, timeout=60)


def sorted_bonuses(hand: dict[str, Any]) -> dict[str, Any]:
    """The order bonuses are listed in is not a rule: compare them as a sorted list."""
    return dict(hand, bonuses=sorted(hand["bonuses"], key=lambda b: (b["side"], b["points"], b["why"])))


def test_there_is_a_golden_record_of_every_kind() -> None:
    names = {name_of(p) for p in RECORDS}
    presets = {"preset_" + n.replace("-", "_") for n in ("spanish", "briscola", "bixkla", "lombard", "tuscan",
                                                          "mexican", "muerte-al-tres", "mariaje", "scoperta",
                                                          "lombard-kept-ranks", "tuscan-kept-ranks")}
    options = {
        "follow_suit", "follow_suit_trump", "follow_suit_beat_trump", "follow_from_empty_stock", "exchange_off",
        "exchange_any_time", "exchange_before_penultimate", "exchange_no_chain", "arrastro", "claim",
        "signals_partner", "signals_open", "last_trick_bonus", "match_big_win", "match_tie_replay",
        "tie_most_cards", "match_trump_rotation", "match_target_points", "deal_look", "partners_look", "open_hands",
        "pair_bonus", "hand_winner_least", "kill_three", "match_rematada_game_points", "match_game_points_big_win",
        "match_fixed_hands", "match_fixed_hands_level", "match_partners_draw", "exchange_announced",
        "exchange_announced_taken_back", "exchange_announced_last_round", "exchange_out_of_turn",
    }
    assert presets | options <= names
    dealt_out = {
        "preset_chilean", "preset_rematada", "preset_chiamata", "chilean_golpe", "chilean_pelada", "chilean_vales",
        "chilean_capote", "chiamata_low_card", "chiamata_alone", "chiamata_all_passed", "rematada_last_must_bid",
        "rematada_made", "match_chiamata", "match_rematada", "chilean_descanso", "chilean_beat_partner",
        "preset_chiamata_buia", "chiamata_buia_set", "match_chiamata_buia",
    }
    assert dealt_out <= names
    assert len(BAD_SPECS) >= 11


@pytest.mark.parametrize("path", RECORDS, ids=name_of)
def test_golden_replay(path: Path) -> None:
    proc = replay(path)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""
    out = json.loads(proc.stdout)
    want = expected_for(path)
    hands = out.get("hands", [out])
    wanted = want.get("hands", [want])
    assert len(hands) == len(wanted)
    for i, (got, exp) in enumerate(zip(hands, wanted, strict=True)):
        if "scores" in exp:  # a game with an auction: the bids, the contract and the match points it scored
            assert got["scores"] == exp["scores"], f"hand {i}: scores"
            assert got["auction"] == exp["auction"], f"hand {i}: auction"
            contract = got["contract"]
            if exp["contract"] is None:
                assert contract is None, f"hand {i}: contract"
            else:
                assert {k: contract[k] for k in exp["contract"]} == exp["contract"], f"hand {i}: contract"
        assert got.get("winners") == exp.get("winners"), f"hand {i}: winners"  # only a shared hand has them
        got = sorted_bonuses({k: got[k] for k in KEYS})
        exp = sorted_bonuses({k: exp[k] for k in KEYS})
        for k in KEYS:
            if k == "tricks":
                for t_got, t_exp in zip(got[k], exp[k], strict=False):
                    assert t_got == t_exp, f"hand {i}: first trick that differs"
            assert got[k] == exp[k], f"hand {i}: {k}"
    if "hands" in want:
        assert {k: out[k] for k in MATCH_KEYS} == {k: want[k] for k in MATCH_KEYS}
        for k in OPTIONAL_MATCH_KEYS:
            assert out.get(k) == want.get(k), k


@pytest.mark.parametrize("path", RECORDS, ids=name_of)
def test_expected_files_are_the_referees(path: Path) -> None:
    """The expected outputs are exactly what the referee computes (run make_golden.py after changing it)."""
    assert maker.expected(load(path)) == expected_for(path)


@pytest.mark.parametrize("path", RECORDS, ids=name_of)
def test_golden_views_and_legal_actions(path: Path) -> None:
    """Step by step through each hand: legal actions, what each seat knows and which signals it sees."""
    data = load(path)
    options = maker.preset(data["variant"]) | data.get("rules", {})
    rules = make_rules(data["variant"], data.get("rules", {}))
    score = MatchScore(options, data["players"])
    for h in data.get("hands", [data]):
        deal = score.next_deal()[1] if score.hands else h.get("deal", 0)
        game = Game(rules, data["players"], dealer=h["dealer"], deck=h["deck"], deal_number=deal)
        ref = Hand(options, data["players"], h["dealer"], h["deck"], deal)
        for i, entry in enumerate([*h["actions"], None]):
            assert {key(a.to_json()) for a in game.legal_actions()} == ref.legal_keys(), i
            for other in range(game.players):  # (a seat not to act: its exchange out of turn, or nothing)
                if other != game.turn:
                    assert {key(a.to_json()) for a in game.legal_actions(other)} == ref.legal_keys(other), (i, other)
            for viewer in (None, *range(game.players)):
                view = game.view(viewer)
                assert {(s, str(c)) for s, c in view.known} == ref.known(viewer), (i, viewer)
                assert list(view.signals) == ref.visible_signals(viewer), (i, viewer)
            if entry is None:
                break
            seat, action = entry_action(entry)
            game.apply(Action.from_json(action), seat)
            ref.act(seat, action)
        score.add(ref)


def _actions(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for h in data.get("hands", [data]) for a in h["actions"]]


def test_golden_records_show_what_they_claim() -> None:
    """Each option's record really uses it (the generator picked seeds where it matters)."""
    rec = {name_of(p): load(p) for p in RECORDS}
    exp = {name_of(p): expected_for(p) for p in RECORDS}
    assert any(a.get("arrastro") for a in _actions(rec["arrastro"]))
    assert any(a.get("arrastro") for a in _actions(rec["arrastro_kills_three"]))
    assert exp["arrastro_kills_three"]["reason"] == "three-killed"
    assert _actions(rec["claim"])[-1] == {"seat": _actions(rec["claim"])[-1]["seat"], "claim": True}
    assert _actions(rec["claim_two_players"])[-1].get("claim") is True
    assert _actions(rec["claim_partners_look"])[-1].get("claim") is True
    assert len(exp["claim"]["tricks"]) < 10
    assert sum(1 for a in _actions(rec["signals_partner"]) if "signal" in a) >= 4
    assert sum(1 for a in _actions(rec["signals_open"]) if "signal" in a) >= 4
    assert sum(1 for a in _actions(rec["preset_bixkla"]) if "signal" in a) >= 3
    for name in ("kill_three", "preset_muerte_al_tres"):
        assert exp[name]["reason"] == "three-killed"
        assert sum(exp[name]["seat_points"]) < 120 or len(exp[name]["tricks"]) < len(rec[name]["deck"]) // rec[
            name]["players"]
    assert any(b["why"] == "last trick" for b in exp["last_trick_bonus"]["bonuses"])
    assert {b["points"] for b in exp["pair_bonus"]["bonuses"]} >= {20, 40}
    assert any(b["points"] == 40 for b in exp["preset_mariaje"]["bonuses"])
    assert exp["tie_most_cards"]["reason"] == "most-cards"
    assert exp["tie_draw_four_players"]["winner"] is None
    least = exp["hand_winner_least"]
    assert least["team_points"][least["winner"]] == min(least["team_points"])
    for name in ("exchange_any_time", "exchange_before_penultimate", "exchange_no_chain", "preset_spanish"):
        assert any("exchange" in a for a in _actions(rec[name])), name
    assert not any("exchange" in a for a in _actions(rec["exchange_off"]))
    # 001's announced exchange: made after the announcer's next trick won; taken back once the face-up card is
    # drawn first; made in the last round, so that the last seat to draw drew the announced trump.
    made = _referee_hand(rec["exchange_announced"])
    assert made.exchanges and not any("exchange" in a for a in _actions(rec["exchange_announced"]))
    assert {e["gave"] for e in made.exchanges} <= {a["announce"] for a in _actions(rec["exchange_announced"])
                                                  if "announce" in a}
    assert _referee_hand(rec["exchange_announced_taken_back"]).taken_back
    assert maker.announced_then(_referee_hand(rec["exchange_announced_last_round"]), "exchanged", last_round=True)
    # 000's exchange "at any time, even while playing a trick": one made by a seat not to act.
    assert maker.exchanged_out_of_turn(_referee_hand(rec["exchange_out_of_turn"]))
    # The regional values with Briscola's rank order: some trick falls otherwise under the moved ranks.
    for name, moved in (("preset_lombard_kept_ranks", "lombard"), ("preset_tuscan_kept_ranks", "tuscan")):
        assert maker.winners_differ(_referee_hand(rec[name]), {"rank_order": maker.preset(moved)["rank_order"]})
    assert [h["trump"] for h in exp["match_trump_rotation"]["hands"]] == ["O", "C", "E", "B"]
    assert exp["match_trump_rotation"]["match_winner"] is None  # level after the four deals
    rotation = exp["match_trump_rotation_replay"]
    assert [h["trump"] for h in rotation["hands"]] == ["O", "C", "C", "E", "B"]
    assert rotation["hands"][1]["reason"] == "tie"
    assert [h["dealer"] for h in rec["match_tie_replay"]["hands"]][1:] == [0, 0]
    assert exp["match_tie_replay"]["hands"][1]["winner"] is None
    assert max(exp["match_big_win"]["hands_won"]) == 3 and len(exp["match_big_win"]["hands"]) == 3
    assert exp["match_big_win_least"]["hands_won"] == [0, 2] or exp["match_big_win_least"]["hands_won"] == [2, 0]
    points = exp["match_target_points"]
    assert max(points["match_points"]) >= 200 and points["match_winner"] is not None
    assert any(h["bonuses"] for h in points["hands"])
    # The dealt-out games.
    assert any("declare" in a for a in _actions(rec["preset_chilean"]))
    assert any("declare" in a for a in _actions(rec["preset_rematada"]))
    assert any("discard" in a for a in _actions(rec["preset_rematada"]))
    assert exp["preset_chiamata"]["reason"] == "made"
    assert exp["chilean_capote"]["reason"] == "capote" and len({t["winner"] % 2 for t in exp["chilean_capote"][
        "tricks"]}) == 1
    assert any("declared" in b["why"] for b in exp["chilean_vales"]["bonuses"])
    # The descanso: a seat threw a plain card under its partner's, holding a trump (the older reading forbids it).
    assert maker.rested(_referee_hand(rec["chilean_descanso"]))
    assert rec["chilean_beat_partner"]["rules"] == {"follow": "suit_beat_trump"}
    alone = exp["chiamata_alone"]["contract"]
    assert alone["partner"] == alone["declarer"]
    assert sorted(map(abs, exp["chiamata_alone"]["scores"])) == [1, 1, 1, 1, 4]
    void = exp["chiamata_all_passed"]
    assert void["reason"] == "all-passed" and void["tricks"] == [] and void["scores"] == [0] * 5
    assert all("pass" in a for a in _actions(rec["chiamata_all_passed"]))
    low = [a for a in _actions(rec["chiamata_low_card"]) if "bid" in a]
    assert low and all(isinstance(a["bid"], str) for a in low) and len(low) >= 3
    assert exp["chiamata_low_card"]["contract"]["points"] == 61
    must = exp["rematada_last_must_bid"]["auction"]
    assert [("pass" in b) for b in must] == [True, True, False] and must[2]["bid"] == 100
    made = exp["rematada_made"]
    assert made["reason"] == "made" and made["scores"][made["contract"]["declarer"]] == made["contract"]["points"]
    assert sum(exp["preset_rematada"]["scores"]) in (exp["preset_rematada"]["contract"]["points"],
                                                     exp["preset_rematada"]["contract"]["points"] // 2 * 2)
    # Chiamata Buia (000: "trumps are only declared after the first trick"): the call follows the first trick,
    # which a card of the suit called later did not take, and whose winner (not the bidder) led the second.
    for name in ("preset_chiamata_buia", "chiamata_buia_set"):
        actions = _actions(rec[name])
        calls = [i for i, a in enumerate(actions) if "call" in a]
        plays = [i for i, a in enumerate(actions) if "play" in a]
        assert len(calls) == 1 and sum(1 for i in plays if i < calls[0]) == 5
        assert maker.first_trick_untrumped(_referee_hand(rec[name]))
    assert exp["preset_chiamata_buia"]["reason"] == "made" and exp["chiamata_buia_set"]["reason"] == "set"
    for name in ("match_chiamata", "match_rematada", "match_chiamata_buia"):
        match = exp[name]
        assert match["match_over"] and match["match_winner"] is not None
        assert match["match_points"] == [sum(h["scores"][s] for h in match["hands"]) for s in range(len(
            match["match_points"]))]
    assert max(exp["match_chiamata"]["match_points"]) >= 11
    # Rematada's game points (000, second article): a set contract gives each defender one, first to three.
    rematada = exp["match_rematada_game_points"]
    assert rematada["hands"][0]["reason"] == "set" and sorted(rematada["game_points"]) in ([1, 2, 3], [2, 2, 3])
    assert max(rematada["game_points"]) == 3 and rematada["game_points"][rematada["match_winner"]] == 3
    big = exp["match_game_points_big_win"]
    assert big["hands"][0]["winner"] is not None and big["game_points"][big["hands"][0]["winner"]] >= 2
    # A fixed number of hands: three are played; two level hands play on to a third.
    assert len(exp["match_fixed_hands"]["hands"]) == 3 and max(exp["match_fixed_hands"]["hands_won"]) == 2
    level = exp["match_fixed_hands_level"]
    assert [h["winner"] for h in level["hands"][:2]] == [0, 1] and len(level["hands"]) >= 3
    # The draw for partners: a tie drawn again, the highest at seat 0 dealing, partners on even seats.
    drawn = rec["match_partners_draw"]
    assert len(drawn["draw"]) > 1 and drawn["hands"][0]["dealer"] == 0
    assert exp["match_partners_draw"]["seating"] == drawn["seating"] and sorted(drawn["seating"]) == [0, 1, 2, 3]
    # The last readings: a vale nobody can hold is asked of nobody (no pass follows the card), the partner's last
    # card shown in a golpe, Mexico's eleven, capote winning the match, a Briscola hand as the whole game each for
    # himself, the draw for the first dealer kept, the auction against the play.
    for name in ("chilean_vale_known_turned", "chilean_vale_known_golpe", "chilean_vale_known_pelada"):
        assert maker.vale_known_elsewhere(_referee_hand(rec[name]), "turned" if name.endswith("turned") else "shown")
    shows = _referee_hand(rec["chilean_golpe_partner_shows"])
    assert len(shows.shown) == 3 and any(seat % 2 == shows.dealer % 2 for seat, _c in shows.shown)
    assert exp["mexican_eleven_two_within"]["reason"] == "within-limit"
    assert len(exp["mexican_eleven_two_within"]["winners"]) == 2
    assert all(exp["mexican_eleven_two_within"]["team_points"][s] <= 11
               for s in exp["mexican_eleven_two_within"]["winners"])
    one = exp["mexican_eleven_one_within"]
    assert one["winner"] is not None and sorted(one["team_points"])[1] > 11
    assert exp["mexican_eleven_none_within"]["reason"] == "over-limit"
    assert min(exp["mexican_eleven_none_within"]["team_points"]) > 11
    capote = exp["match_capote"]
    assert [h["reason"] for h in capote["hands"]][-1] == "capote" and capote["match_over"]
    assert max(capote["hands_won"]) < 3 and capote["match_winner"] == capote["hands"][-1]["winner"]
    one_hand = exp["match_briscola_one_hand"]
    assert [h["reason"] for h in one_hand["hands"]] == ["tie", "points"] and max(one_hand["hands_won"]) == 1
    assert max(exp["match_briscola_partners"]["hands_won"]) == 2
    for name in ("match_dealer_draw", "match_dealer_draw_face_value"):
        assert len(rec[name]["dealer_draw"]) > 1
        assert rec[name]["hands"][0]["dealer"] in rec[name]["dealer_draw"][-1]["seats"]
    bids = exp["chiamata_auction_against_play"]["auction"]
    dealer = rec["chiamata_auction_against_play"]["dealer"]
    assert [b["seat"] for b in bids[:5]] == [(dealer - k) % 5 for k in range(1, 6)]


def _referee_hand(data: dict[str, Any]) -> Hand:
    """The referee's hand after a one-hand record's actions."""
    h = Hand(maker.preset(data["variant"]) | data.get("rules", {}), data["players"], data["dealer"], data["deck"],
             data.get("deal", 0))
    for entry in data["actions"]:
        h.act(entry["seat"], {k: v for k, v in entry.items() if k != "seat"})
    return h


def test_hands_checked_by_reasoning() -> None:
    """A few facts of the records read straight off the cards, without the referee or the engine."""
    rec = {name_of(p): load(p) for p in RECORDS}
    # Muerte al tres: the last trick holds the ace and the three of trumps, and the side of the ace wins.
    exp = expected_for(HERE / "preset_muerte_al_tres.record.json")
    last = exp["tricks"][-1]
    trump = exp["trump"]
    assert {f"1{trump}", f"3{trump}"} <= set(last["cards"])
    ace_seat = (last["leader"] + last["cards"].index(f"1{trump}")) % rec["preset_muerte_al_tres"]["players"]
    assert exp["winner"] == ace_seat % 2
    # Trump rotation: no card is turned, so the 40 cards are all dealt or drawn and all 20 tricks are played.
    for h in expected_for(HERE / "match_trump_rotation.record.json")["hands"]:
        assert len(h["tricks"]) == 20 and sum(h["seat_points"]) == 120
    # Golpe: 10 cards in a row to each seat from the dealer's right; the last of each opponent's packet is shown
    # (so the cutter's and the dealer's left-hand opponent's tenth cards are played by them), and the bottom card
    # is the dealer's trump.
    golpe = rec["chilean_golpe"]
    deck, dealer = golpe["deck"], golpe["dealer"]
    assert expected_for(HERE / "chilean_golpe.record.json")["trump"] == deck[39][-1]
    seats = [(dealer + 1 + k) % 4 for k in range(4)]
    for k, seat in enumerate(seats):
        played = {a["play"] for a in golpe["actions"] if a["seat"] == seat and "play" in a}
        assert played == set(deck[10 * k:10 * k + 10])
    # Pelada: the top card is the trump and the dealer plays it; the cutter leads a trump to the first trick.
    pelada = rec["chilean_pelada"]
    top = pelada["deck"][0]
    assert [a["seat"] for a in pelada["actions"] if a.get("play") == top] == [pelada["dealer"]]
    first = next(a for a in pelada["actions"] if "play" in a)
    assert first["seat"] == (pelada["dealer"] + 1) % 4 and first["play"][-1] == top[-1]
    # Rematada: the talon is the last two cards; the declarer's discards score for him (card points and the
    # declarations make up the difference between his tricks and his total).
    made = load(HERE / "rematada_made.record.json")
    exp = expected_for(HERE / "rematada_made.record.json")
    declarer = exp["contract"]["declarer"]
    discards = next(a["discard"] for a in made["actions"] if "discard" in a)
    points = {"1": 11, "3": 10, "12": 4, "11": 3, "10": 2}
    tricks = sum(t["points"] for t in exp["tricks"] if t["winner"] == declarer)
    assert exp["seat_points"][declarer] == tricks + sum(points.get(c[:-1], 0) for c in discards)


@pytest.mark.parametrize("spec_path", BAD_SPECS, ids=name_of)
def test_bad_record(spec_path: Path) -> None:
    spec = load(spec_path)
    record = spec_path.with_name(spec_path.name.replace(".expect.json", ".json"))
    proc = replay(record)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, err
    assert "Traceback" not in err, err[-2000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[-2000:]
    assert proc.stdout == b""
    assert re.search(rf"\baction {spec['index']}\b", lines[0]), lines[0]
    if spec["fragment"]:
        assert re.search(spec["fragment"], lines[0], re.IGNORECASE), lines[0]


@pytest.mark.parametrize("spec_path", BAD_SPECS, ids=name_of)
def test_bad_records_are_bad_by_the_rules(spec_path: Path) -> None:
    """The referee refuses each bad record at the index the test expects, and accepts everything before it."""
    spec = load(spec_path)
    data = load(spec_path.with_name(spec_path.name.replace(".expect.json", ".json")))
    assert spec["index"] == len(data["actions"]) - 1
    with pytest.raises(RefereeError, match=rf"^action {spec['index']}:"):
        replay_record(data, maker.preset(data["variant"]))
    replay_record(dict(data, actions=data["actions"][:-1]), maker.preset(data["variant"]))
