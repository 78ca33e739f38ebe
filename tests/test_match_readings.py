"""How a match is set up and counted: the draw for partners, game points, a fixed number of hands.

Each test builds its positions by hand (drawn cards, hand results) and quotes the source line it follows.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from brisca import Card, Game, Match, RecordError, RulesError, Suit, make_rules
from brisca.actions import PASS, Bid
from brisca.game import Contract, HandResult, PartnerDraw, draw_for_partners
from brisca.record import MatchRecord, loads, match_summary
from brisca.rulebook import rules_text
from brisca.rules import find_variant

GOLDEN = Path(__file__).resolve().parent / "golden" / "variants"


def rounds(*draws: list[tuple[int, str]]) -> list[tuple[tuple[int, Card], ...]]:
    return [tuple((p, Card.parse(c)) for p, c in r) for r in draws]


class Done:
    """A finished hand reduced to its result: enough for :meth:`Match.of_games` to count a match."""

    def __init__(self, result: HandResult, dealer: int = 0, deal_number: int = 0) -> None:
        self._result, self.dealer, self.deal_number = result, dealer, deal_number

    def result(self) -> HandResult:
        return self._result

    def is_over(self) -> bool:
        return True


def won(side: int, points: tuple[int, int] = (70, 50)) -> Done:
    totals = points if side == 0 else points[::-1]
    return Done(HandResult(totals, totals, side))


def drawn() -> Done:
    return Done(HandResult((60, 60), (60, 60), None, reason="tie"))


def replayed() -> Done:
    return Done(HandResult((60, 60), (60, 60), None, reason="tie", replay=True))


def contract_hand(declarer: int, made: bool, players: int = 3) -> Done:
    c = Contract(declarer, Bid(100), 100, Suit.OROS)
    bid_or_half = [0] * players
    for s in range(players):
        bid_or_half[s] = (100 if s == declarer else 0) if made else (0 if s == declarer else 50)
    return Done(HandResult((40,) * players, (40,) * players, declarer if made else None,
                           reason="made" if made else "set", scores=tuple(bid_or_half), contract=c))


def match_of(options: dict[str, Any], players: int, hands: list[Done], variant: str = "spanish") -> Match:
    return Match.of_games(make_rules(variant, options), players, hands)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the draw for partners (001, 002)


def test_the_two_highest_play_against_the_two_lowest() -> None:
    # 001: "Each player draws one card and shows it. The two players with the highest cards play against the
    # other two. The player who draws the highest card has the choice of choosing seat and is the dealer. His
    # partner will be sitting in front of him."
    rules = make_rules("spanish", {"partners": "draw"})
    draw = PartnerDraw.from_rounds(rules, 4, rounds([(0, "5O"), (1, "1C"), (2, "2E"), (3, "3B")]))
    assert draw.order == (1, 3, 0, 2)  # ace, three, five, two: the order of play, not the face value
    assert draw.seating == (1, 0, 3, 2)
    assert draw.dealer == 0 and draw.player_at(0) == 1
    sides = {p: rules.side_of(draw.seating[p], 4) for p in range(4)}
    assert sides[1] == sides[3] != sides[0] == sides[2]
    # Partners face each other: seats two apart.
    assert abs(draw.seating[1] - draw.seating[3]) == 2 and abs(draw.seating[0] - draw.seating[2]) == 2


def test_the_draw_ranks_cards_as_the_variant_plays_them() -> None:
    # 002: "The player's drawing the two highest cards play as partners against the players drawing the two
    # lowest." In the Chilean game the 2 ranks second (003), so it beats the king.
    chilean = make_rules("chilean", {"partners": "draw"})
    draw = PartnerDraw.from_rounds(chilean, 4, rounds([(0, "12O"), (1, "2C"), (2, "4E"), (3, "3B")]))
    assert draw.order == (1, 0, 2, 3)


def test_players_tied_draw_again_among_themselves() -> None:
    # The sources do not say what a tie does: the tied players draw again, each tie in turn, highest first.
    rules = make_rules("spanish", {"partners": "draw"})
    first = [(0, "1O"), (1, "1C"), (2, "5E"), (3, "5B")]
    draw = PartnerDraw.from_rounds(rules, 4, rounds(first, [(0, "4O"), (1, "7C")], [(2, "3E"), (3, "10B")]))
    assert draw.order == (1, 0, 2, 3) and draw.seating == (2, 0, 1, 3)
    with pytest.raises(RulesError, match="tied and must draw again"):
        PartnerDraw.from_rounds(rules, 4, rounds(first, [(0, "4O"), (1, "7C")]))
    with pytest.raises(RulesError, match="players 0, 1 draw next"):
        PartnerDraw.from_rounds(rules, 4, rounds(first, [(2, "3E"), (3, "10B")], [(0, "4O"), (1, "7C")]))
    with pytest.raises(RulesError, match="rounds after every tie"):
        PartnerDraw.from_rounds(rules, 4, rounds([(0, "1O"), (1, "3C"), (2, "5E"), (3, "4B")], [(0, "4O")]))
    with pytest.raises(RulesError, match="all different"):
        PartnerDraw.from_rounds(rules, 4, rounds([(0, "1O"), (1, "1O"), (2, "5E"), (3, "4B")]))


def test_six_players_three_against_three_and_each_for_himself() -> None:
    rules = make_rules("spanish", {"partners": "draw"})
    six = PartnerDraw.from_rounds(rules, 6, rounds([(0, "5O"), (1, "1C"), (2, "7E"), (3, "3B"), (4, "4O"),
                                                    (5, "12C")]))
    assert six.order == (1, 3, 5, 2, 0, 4)
    assert [six.seating[p] for p in six.order] == [0, 2, 4, 1, 3, 5]
    # Three players, each for himself: the highest deals from seat 0, the others follow the cards.
    three = PartnerDraw.from_rounds(rules, 3, rounds([(0, "5O"), (1, "1C"), (2, "7E")]))
    assert three.seating == (2, 0, 1) and three.dealer == 0


def test_the_match_draws_from_its_seed_and_the_highest_deals() -> None:
    rules = make_rules("spanish", {"partners": "draw"})
    for seed in range(30):
        match = Match(rules, 4, seed=seed)
        assert match.draw is not None and match.draw == Match(rules, 4, seed=seed).draw
        assert match.game.dealer == match.draw.dealer == match.seating[match.draw.order[0]]
        assert match.game.deck == Match(rules, 4, seed=seed).game.deck
    assert draw_for_partners(rules, 4, 5) == draw_for_partners(rules, 4, random.Random(5))
    # Without the rule nobody moves.
    plain = Match("spanish", 4, seed=1)
    assert plain.draw is None and plain.seating == (0, 1, 2, 3) and plain.game.dealer == 3


def test_the_draw_decides_the_first_dealer() -> None:
    rules = make_rules("spanish", {"partners": "draw"})
    draw = draw_for_partners(rules, 4, 3)
    with pytest.raises(RulesError, match="first dealer"):
        Match(rules, 4, draw=draw, dealer=(draw.dealer + 1) % 4)
    with pytest.raises(RulesError, match="needs the rule"):
        Match("spanish", 4, draw=draw)
    with pytest.raises(RulesError, match="for 4 players"):
        Match(rules, 2, draw=draw)
    assert Match(rules, 4, draw=draw, dealer=draw.dealer).game.dealer == draw.dealer


def _finish(match: Match, seed: int) -> Match:
    rng = random.Random(seed)
    while True:
        game = match.game
        while not game.is_over():
            acts = game.legal_actions()
            game.apply(PASS if PASS in acts and rng.random() < 0.6 else rng.choice(acts))
        if match.is_over():
            return match
        match.next_hand()


def test_the_match_record_keeps_the_draw_and_replays_the_seating() -> None:
    match = _finish(Match("spanish", 4, seed=8, options={"partners": "draw"}), 8)
    record = MatchRecord.from_match(match)
    data = json.loads(record.dumps())
    assert data["seating"] == list(match.seating)
    assert data["draw"][0]["players"] == [0, 1, 2, 3]
    back = loads(record.dumps())
    assert isinstance(back, MatchRecord) and back.draw == match.draw
    out = match_summary(back, back.replay())
    assert out["seating"] == list(match.seating) and out["match_winner"] == match.winner
    # A record must carry the draw, and a seating that is the draw's.
    for change, needle in (
        ({"draw": None}, "records the draw"),
        ({"seating": [0, 1, 2, 3] if data["seating"] != [0, 1, 2, 3] else [1, 0, 3, 2]}, "field 'seating'"),
        ({"draw": [{"players": [0, 1, 2, 3], "cards": ["1O", "1O", "5C", "4B"]}]}, "bad draw"),
        ({"draw": [{"players": [0, 1], "cards": ["1O", "3O"]}]}, "bad draw"),
        ({"draw": "1O 3O"}, "list of rounds"),
    ):
        bad = {k: v for k, v in (data | change).items() if v is not None}
        with pytest.raises(RecordError, match=needle):
            loads(json.dumps(bad))
    plain = dict(data, rules={})
    with pytest.raises(RecordError, match="belong to matches"):
        loads(json.dumps(plain))
    # The first hand is dealt by the highest card.
    wrong = json.loads(record.dumps())
    wrong["hands"][0]["dealer"] = (wrong["hands"][0]["dealer"] + 1) % 4
    again = loads(json.dumps(wrong))
    assert isinstance(again, MatchRecord)
    with pytest.raises(RecordError, match="first dealer"):
        again.replay()


def test_brisca_replay_prints_the_seating_of_the_golden_draw() -> None:
    path = GOLDEN / "match_partners_draw.record.json"
    proc = subprocess.run([sys.executable, "-m", "brisca", "replay", str(path)], capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(path.read_text("utf-8"))
    out = json.loads(proc.stdout)
    # Players 0 and 3 drew aces and drew again; 3 won it (the jack beats the 7): 3 deals from seat 0, 0 sits
    # opposite, the knight (player 2) at seat 1 and the four (player 1) at seat 3.
    assert [r["players"] for r in data["draw"]] == [[0, 1, 2, 3], [0, 3]]
    assert out["seating"] == [2, 3, 1, 0] and out["hands"][0]["dealer"] == 0


# ------------------------------------------------------------------ game points (000, second article)


def test_rematada_gives_a_game_point_to_the_declarer_or_to_each_defender() -> None:
    # 000 (second article): "If the contractor secures at least the bid amount in points from captured cards,
    # they earn one game point; failure results in each opponent gaining one game point [...] The game
    # continues until a player reaches a predetermined number of game points, typically three."
    rules = find_variant("rematada")
    assert rules.match == "game_points" and rules.target_game_points == 3
    match = match_of({}, 3, [contract_hand(0, made=True), contract_hand(1, made=False)], "rematada")
    assert match.game_points == (2, 0, 1)
    assert match.points == (150, 0, 50)  # the first article's scores are still shown
    assert not match.is_over()
    match = match_of({}, 3, [contract_hand(0, True), contract_hand(1, False), contract_hand(0, True)], "rematada")
    assert match.game_points == (3, 0, 1) and match.winner == 0 and match.is_over()


def test_defenders_reaching_three_together_play_on() -> None:
    # Two defenders can reach the target in the same hand; level leaders play on, as 001 has it for hands: "If
    # two or more players reach that number of hands at the same time, the game continues until the tie is
    # broken."
    hands = [contract_hand(0, False), contract_hand(0, False), contract_hand(0, False)]
    match = match_of({}, 3, hands, "rematada")
    assert match.game_points == (0, 3, 3) and match.winner is None and not match.is_over()
    match = match_of({}, 3, [*hands, contract_hand(1, True)], "rematada")
    assert match.game_points == (0, 4, 3) and match.winner == 1


def test_the_first_articles_points_reading_is_still_there() -> None:
    # 000 (first article): "If so, the points are added to his score. If he fails, these points are distributed
    # among the other 2 players."
    hands = [contract_hand(0, True), contract_hand(0, True), contract_hand(0, True)]
    assert match_of({}, 3, hands, "rematada").winner == 0  # three game points
    points = match_of({"match": "target_points"}, 3, hands, "rematada")
    assert points.points == (300, 0, 0) and points.winner is None  # 500 to win


def test_game_points_of_plain_hands_and_big_wins() -> None:
    # 000 (first article): "In some variants, winning by more than a hundred card points is worth two game
    # points. Game is usually 3, 5 or 7 points."
    options = {"match": "game_points", "big_win": True, "target_game_points": 3}
    match = match_of(options, 2, [won(0, (111, 9)), drawn()])
    assert match.game_points == (2, 0) and match.winner is None
    match = match_of(options, 2, [won(0, (111, 9)), drawn(), won(1), won(0)])
    assert match.game_points == (3, 1) and match.winner == 0


def test_a_called_contract_scores_game_points_for_both_partners() -> None:
    c = Contract(0, Bid(70), 70, Suit.COPAS, Card.parse("1C"), 2)
    made = Done(HandResult((0,) * 5, (0,) * 5, 0, reason="made", scores=(2, -1, 1, -1, -1), contract=c))
    set_ = Done(HandResult((0,) * 5, (0,) * 5, None, reason="set", scores=(-2, 1, -1, 1, 1), contract=c))
    void = Done(HandResult((0,) * 5, (0,) * 5, None, reason="all-passed", scores=(0,) * 5))
    match = match_of({"match": "game_points"}, 5, [made, set_, void], "chiamata")
    assert match.game_points == (1, 1, 1, 1, 1)


def test_a_real_rematada_match_to_three_game_points() -> None:
    match = _finish(Match("rematada", 3, seed=4), 4)
    assert max(match.game_points) >= 3 and match.winner is not None
    assert match.game_points[match.winner] == max(match.game_points)
    for r in match.results:
        assert r.reason in ("made", "set") and r.contract is not None
    record = MatchRecord.from_match(match)
    out = match_summary(record, record.replay())
    assert out["game_points"] == list(match.game_points) and out["match_winner"] == match.winner


def test_the_pair_captured_as_the_second_article_reads_it() -> None:
    # 000 (second article): "including bonuses such as 10 points for the last trick and 20 or 40 points for
    # capturing kings and knights of the trump suit". The preset declares pairs; this reading captures them.
    options = {"pair_bonus": True, "declarations": "off"}
    for seed in range(200):
        game = Game("rematada", 3, seed=seed, options=options)
        rng = random.Random(seed)
        while not game.is_over():
            acts = game.legal_actions()
            game.apply(PASS if PASS in acts and rng.random() < 0.6 else rng.choice(acts))
        result = game.result()
        assert result is not None
        pairs = [b for b in result.bonuses if b.why.startswith("king and knight")]
        if not pairs or result.contract is None:
            continue
        for b in pairs:
            suit = next(s for s in Suit if b.why.endswith(s.name_in("en")))
            taken = game.captured(b.side)
            assert Card(12, suit) in taken and Card(11, suit) in taken
            assert b.points == (40 if suit is game.trump else 20)
        assert result.side_points == tuple(
            p + sum(b.points for b in result.bonuses if b.side == s) for s, p in enumerate(result.seat_points))
        return
    pytest.fail("no rematada hand with a captured pair")


def test_the_tip_of_170_is_documented_not_enforced() -> None:
    # 000: "Tip: it is recommended not to exceed 170 points when finishing"
    rematada = find_variant("rematada")
    assert any("170" in r for r in rematada.readings) and rematada.max_bid == 230
    assert "170" in Path(__file__).resolve().parent.parent.joinpath("docs", "variants", "rematada.md").read_text()


# ------------------------------------------------------------------ a fixed number of hands (000, second article)


def test_a_match_of_three_hands_is_won_by_the_most_hands_won() -> None:
    # 000 (second article): "The game concludes after an agreed number of hands (commonly one, three, or six),
    # with the team or player accumulating the most hand wins declared the overall victor"
    options = {"match": "fixed_hands", "hands": 3}
    assert match_of(options, 2, [won(0), won(0)]).winner is None  # two of three: not over yet
    match = match_of(options, 2, [won(0), won(0), won(1)])
    assert match.hands_won == (2, 1) and match.winner == 0 and match.is_over()
    # A drawn hand is a hand played.
    match = match_of(options, 2, [won(0), drawn(), drawn()])
    assert match.winner == 0


def test_level_after_the_agreed_hands_plays_on() -> None:
    # 000 (second article): "overall ties are resolved by additional play."
    options = {"match": "fixed_hands", "hands": 2}
    level = match_of(options, 2, [won(0), won(1)])
    assert level.deals_done == 2 and level.winner is None and not level.is_over()
    still = match_of(options, 2, [won(0), won(1), drawn()])
    assert still.winner is None and not still.is_over()
    assert match_of(options, 2, [won(0), won(1), drawn(), won(1)]).winner == 1


def test_a_hand_dealt_again_does_not_count_as_one_of_the_hands() -> None:
    # 000 (second article): "If both teams score exactly 60 points, the round results in a tie, and the hand is
    # annulled and replayed."
    options = {"match": "fixed_hands", "hands": 1, "tie": "replay"}
    assert not match_of(options, 2, [replayed()]).is_over()
    assert match_of(options, 2, [replayed(), won(1)]).winner == 1


def test_fixed_hands_plays_a_real_match_and_its_record() -> None:
    match = _finish(Match("spanish", 2, seed=2, options={"match": "fixed_hands", "hands": 6}), 2)
    assert match.deals_done >= 6 and match.winner is not None
    record = MatchRecord.from_match(match)
    out = match_summary(record, record.replay())
    assert out["match_winner"] == match.winner and out["hands_won"] == list(match.hands_won)


def test_options_check_and_rules_text() -> None:
    with pytest.raises(RulesError, match="fixed_hands"):
        make_rules("spanish", {"trump_rotation": True, "match": "fixed_hands"})
    for name, bad in (("partners", "random"), ("match", "hands"), ("hands", 0), ("target_game_points", "x")):
        with pytest.raises(RulesError, match=name):
            make_rules("spanish", {name: bad})
    text = rules_text(make_rules("spanish", {"match": "fixed_hands", "hands": 6, "partners": "draw"}))
    assert "6 hands" in text and "draws a card" in text
    assert "3 game points" in rules_text(find_variant("rematada"))
    assert "match of 6 hands" in make_rules("spanish", {"match": "fixed_hands", "hands": 6}).describe()


# ------------------------------------------------------------------ the terminal


def brisca_play(*args: str, stdin: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "brisca", "play", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8",
                                                                          "COLUMNS": "120"})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert "Traceback" not in proc.stdout
    return proc.stdout


@pytest.mark.parametrize("cut", [True, False])
def test_the_terminal_shows_the_draw_and_seats_everybody_by_it(cut: bool, tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    args = ["-p", "4", "--rule", "partners=draw", "--rule", "target_hands=1", "--ai", "random", "--lang", "en",
            "--save", str(record)]
    seed = next(s for s in range(200) if cut or len(Match(make_rules("spanish", {"partners": "draw"}), 4,
                                                           seed=s).draw.rounds) > 1)  # type: ignore[union-attr]
    out = brisca_play(*args, "--seed", str(seed), *([] if cut else ["--no-cut"]), stdin="\n1" * 400)
    data = json.loads(record.read_text("utf-8"))
    seating = data["seating"]
    header = "Drawing for partners and seats (the highest cards play together, and whoever draws the highest deals):\n"
    block = out.split(header)[1]
    block = block.split("At the table:")[0]
    first = re.findall(r"^  (You|Player \d): (\d+[OCEB]) ", block, re.MULTILINE)[:4]
    assert [card for _who, card in first] == data["draw"][0]["cards"]
    if len(data["draw"]) > 1:
        assert "drew cards of the same rank and draw again:" in block
    # The person is player 0 and sits where the draw put them; the highest card deals the first hand.
    mine = seating[0]
    assert f"Seat {mine}: You." in block
    highest = seating.index(0)
    assert f"Whoever draws the highest card deals: {'You' if highest == 0 else f'Player {highest}'}." in block
    assert data["hands"][0]["dealer"] == 0
    assert re.search(rf"^  {mine}  You$", out, re.MULTILINE)
    partner = (mine + 2) % 4
    assert f"Your partner: Seat {partner} (easy, partner)." in out
    assert re.search(r" play against ", block)
    again = subprocess.run([sys.executable, "-m", "brisca", "replay", str(record)], capture_output=True, timeout=60)
    assert json.loads(again.stdout)["seating"] == seating


def test_the_terminal_counts_rematada_game_points(tmp_path: Path) -> None:
    lines = "\n".join(["pass", "100", "1 2", "O", "declare O", *map(str, range(1, 11))]) + "\n"
    record = tmp_path / "match.json"
    out = brisca_play("--variant", "rematada", "--seed", "3", "--lang", "en", "--save", str(record),
                      stdin=lines * 600)
    assert "Match over" in out
    assert re.search(r"^Game points: .*\(the first to 3 game points wins the match\)\.$", out, re.MULTILINE)
    summary = json.loads(subprocess.run([sys.executable, "-m", "brisca", "replay", str(record)],
                                        capture_output=True, timeout=60).stdout)
    assert max(summary["game_points"]) == 3
    last = re.findall(r"^Game points: (.*) \(the first to 3", out, re.MULTILINE)[-1]
    assert [int(n) for n in re.findall(r" (\d+)(?: ·|$)", last)] == summary["game_points"]


def test_the_terminal_counts_a_fixed_number_of_hands() -> None:
    out = brisca_play("--no-cut", "--rule", "match=fixed_hands", "--rule", "hands=3", "--seed", "4", "--lang", "en",
                      "--ai", "random", stdin="1\n" * 600)
    assert "(hand 1 of 3; the most hands won wins the match)" in out
    assert "(hand 3 of 3; the most hands won wins the match)" in out or "level: one more hand" in out
    assert "Match over" in out


# ------------------------------------------------------------------ the web table


def _drive(client: Any, table_id: str, conns: dict[int, Any]) -> None:
    """The people play their first legal action on their turns until the match is over (bots play themselves)."""
    import time

    from test_server_common import match_of

    while not match_of(client, table_id).is_over():
        turn = match_of(client, table_id).game.turn
        conn = conns.get(turn) if turn is not None else None
        if conn is None:
            time.sleep(0.005)
            continue
        conn.sync()
        view = conn.state["view"]
        if view["turn"] != conn.seat or not view["legal"]:
            continue
        action = {k: v for k, v in view["legal"][0].items() if k != "text"}
        assert conn.request({"type": "play", "action": action})["type"] == "ack"


def test_the_web_table_draws_for_partners_and_moves_everybody(tmp_path: Path) -> None:
    from test_server_common import Conn, deadline, serve

    db = str(tmp_path / "db.sqlite3")
    with deadline(60), serve(db, takeover_after=None) as client:
        r = client.post("/api/tables", json={"players": 4, "bots": {"2": "easy", "3": "normal"}, "bot_delay": 0,
                                             "name": "Ana", "options": {"partners": "draw", "target_hands": 1}})
        assert r.status_code == 200, r.text
        table_id, ana_token = r.json()["table_id"], r.json()["token"]
        ana = Conn(client, table_id, token=ana_token)
        assert ana.seat == 0 and ana.state["table"]["draw"] is None  # nobody has drawn before the table is full
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bea"}).json()
        assert joined["seat"] == 1  # the seat taken; the draw then moves her
        seed = client.app.state.manager.actors[table_id].seed
        expected = draw_for_partners(make_rules("spanish", {"partners": "draw"}), 4, random.Random(
            f"brisca-partners:{seed}"))
        moved = ana.until(lambda m: m.get("kind") == "partners")[-1]
        assert moved["you"] == expected.seating[0] and moved["moves"] == list(expected.seating)
        assert moved["draw"]["dealer"] == 0 and moved["draw"]["order"] == [expected.seating[p] for p in
                                                                           expected.order]
        ana.seat = moved["you"]
        bea = Conn(client, table_id, token=joined["token"])
        assert bea.seat == expected.seating[1]  # the welcome gives the seat the draw gave
        seats = bea.state["table"]["seats"]
        assert seats[expected.seating[0]]["name"] == "Ana" and seats[expected.seating[1]]["name"] == "Bea"
        assert seats[expected.seating[2]]["bot"] == "easy" and seats[expected.seating[3]]["bot"] == "normal"
        assert bea.state["table"]["draw"]["rounds"][0][0] == {"seat": expected.seating[0],
                                                              "card": str(expected.rounds[0][0][1])}
        assert bea.state["view"]["dealer"] == 0
        # The two highest cards are partners: they sit on the even seats.
        assert {s["seat"] % 2 for s in seats if s["seat"] in (expected.seating[expected.order[0]],
                                                               expected.seating[expected.order[1]])} == {0}
        spectator = Conn(client, table_id)
        assert spectator.state["table"]["draw"] == moved["draw"]
    # A restart keeps the seats and the draw.
    with deadline(60), serve(db, takeover_after=None) as client:
        ana = Conn(client, table_id, token=ana_token)
        bea = Conn(client, table_id, token=joined["token"])
        assert (ana.seat, bea.seat) == (expected.seating[0], expected.seating[1])
        assert ana.state["table"]["draw"] == moved["draw"]
        _drive(client, table_id, {ana.seat: ana, bea.seat: bea})
        # The match is over in the table's memory as its last action is applied; its record is served once written.
        got = client.get(f"/api/games/{table_id}/record")
        for _ in range(200):
            if got.status_code == 200:
                break
            time.sleep(0.02)
            got = client.get(f"/api/games/{table_id}/record")
        record = loads(got.text)
        assert isinstance(record, MatchRecord) and record.draw == expected
        assert record.replay()[0].dealer == 0
        names = client.get("/api/games").json()[0]["names"]
        assert names[expected.seating[0]] == "Ana" and names[expected.seating[1]] == "Bea"
        for conn in (ana, bea):
            conn.close()


def test_the_web_table_shows_game_points_and_fixed_hands(tmp_path: Path) -> None:
    from test_server_common import Conn, create, deadline, serve

    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, preset="rematada", players=3, bots={str(s): "easy" for s in range(3)}, seed=4)
        spectator = Conn(client, table_id)
        spectator.until(lambda m: m.get("kind") == "match_over")
        info = spectator.state["table"]
        assert info["match"] == "game_points" and info["target_game_points"] == 3
        points = info["game_points"]
        assert points[info["match_winner"]] >= 3 and points.count(max(points)) == 1  # level leaders play on
        replay = client.get(f"/api/games/{table_id}/replay")
        assert replay.status_code == 200
        data = replay.json()
        assert data["game_points"] == points and data["steps"][-1]["game_points"] == points
        table_id = create(client, players=2, bots={"0": "easy", "1": "easy"}, seed=6,
                          options={"match": "fixed_hands", "hands": 3})
        spectator = Conn(client, table_id)
        spectator.until(lambda m: m.get("kind") == "match_over")
        info = spectator.state["table"]
        assert info["match"] == "fixed_hands" and info["hands"] == 3 and info["deals_done"] >= 3
        assert client.post("/api/tables", json={"options": {"hands": 10**6}}).status_code == 400
        assert client.post("/api/tables", json={"options": {"target_game_points": 10**6}}).status_code == 400


# ------------------------------------------------------------------ the referee


def test_the_referee_checks_the_draw_on_its_own() -> None:
    from variant_referee import RefereeError, check_draw

    options = json.loads(json.dumps(make_rules("spanish", {"partners": "draw"}).options()))
    tie = {"draw": [{"players": [0, 1, 2, 3], "cards": ["1O", "1C", "5E", "5B"]},
                    {"players": [0, 1], "cards": ["4O", "7C"]}, {"players": [2, 3], "cards": ["3E", "10B"]}]}
    assert check_draw(tie, options, 4) == [2, 0, 1, 3]
    engine = PartnerDraw.from_rounds(make_rules("spanish", {"partners": "draw"}), 4, rounds(
        *[list(zip(r["players"], r["cards"], strict=True)) for r in tie["draw"]]))
    assert list(engine.seating) == [2, 0, 1, 3]
    for bad, needle in (
        ({"draw": tie["draw"][:2]}, "tied"),
        ({"draw": [tie["draw"][0], tie["draw"][2], tie["draw"][1]]}, "draw next"),
        ({**tie, "seating": [0, 1, 2, 3]}, "seating"),
        ({"draw": [{"players": [0, 1, 2, 3], "cards": ["1O", "1O", "5E", "4B"]}]}, "bad cards"),
    ):
        with pytest.raises(RefereeError, match=needle):
            check_draw(bad, options, 4)
    with pytest.raises(RefereeError, match="without partners: draw"):
        check_draw(tie, json.loads(json.dumps(make_rules("spanish").options())), 4)


# ------------------------------------------------------------------ the page, in a real browser

import test_web_browser as web  # noqa: E402

browser = web.browser  # the browser and server fixtures of the page tests
server = web.server


def test_the_page_shows_the_draw_and_sits_the_person_where_it_says(browser: Any, server: str) -> None:
    left_ms = web._clock()
    context, page, errors = web._open_page(browser, locale="en-US")
    page.goto(f"{server}/")
    table_id = web._create_table(page, "spanish", "Ana", {1: "easy", 2: "easy", 3: "easy"}, players=4,
                             options="partners=draw, match=fixed_hands, hands=1")
    page.wait_for_function("document.body?.dataset.status === 'playing'", timeout=left_ms())
    info = web._get(f"{server}/api/tables/{table_id}")
    mine = next(s["seat"] for s in info["seats"] if s["name"] == "Ana")
    page.wait_for_function("document.querySelector('#scoreboard .draw')", timeout=left_ms())
    assert page.locator("#scoreboard .draw").inner_text().startswith("Draw for partners and seats: ")
    assert page.locator("#seats .seat.me").get_attribute("data-seat") == str(mine)
    assert "(hands: 1; the most won wins)" in page.locator("#scoreboard .matchscore").inner_text()
    while page.evaluate("document.body.dataset.status") != "finished":
        page.wait_for_function(
            "document.querySelector('#hand .card.legal') || document.body.dataset.status === 'finished'",
            timeout=left_ms())
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator("#hand .card.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=left_ms())
    assert web._get(f"{server}/api/tables/{table_id}")["status"] == "finished"
    assert not errors, errors
    context.close()
