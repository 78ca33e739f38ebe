"""Two readings of Briscola Chiamata that source 000 names: Chiamata Buia and Chiamata a punti.

000, "Briscola Chiamata", further variations:

- "Chiamata Buia: trumps are only declared after the first trick."  Preset ``chiamata-buia``
  (``call_time: after_first_trick``): the bidder leads a first trick played with no trump suit, then calls
  a card still in a hand; its suit is trump and its holder the hidden partner.
- "Chiamata a punti: only the points to be won are declared, the suit and the card that will determine the
  pairs and the trump suit are declared only at the beginning of the deal."  That is the points auction
  (``bidding: points``) with the call when the play begins: the ``chiamata`` preset, also named
  ``chiamata-punti``.

Hand-built positions check each rule against the line it follows; random positions check that no view
leaks the partner and that every built-in player answers every new decision legally.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from brisca import Game, Match, find_variant, make_rules
from brisca import record as rec
from brisca.actions import PASS, PLAYS, Action, Bid, Call, Pass, Play, RankBid
from brisca.agents import make_agent
from brisca.agents.auction import choose_call
from brisca.cards import Card, Suit, parse_cards
from brisca.cli.play import Outcome, TerminalGame
from brisca.errors import IllegalActionError, RulesError
from brisca.game import RuledGame
from brisca.i18n import Messages
from brisca.rules import OPTIONS
from test_cli_play import brisca
from test_variant_properties import hidden_twin
from test_web_browser import _clock, _create_table, _open_page, browser, server  # noqa: F401 (fixtures)

#: Five hands of 8, seat by seat; the dealer is seat 4, so seat 0 speaks first and leads.
HANDS = {
    0: "1O 3O 12O 7B 2C 4E 5E 6E",
    1: "1B 3B 12B 11B 10B 7O 6O 5O",
    2: "1C 3C 12C 11C 10C 7C 6C 5C",
    3: "1E 3E 12E 11E 10E 7E 4O 2O",
    4: "11O 10O 6B 5B 4B 2B 4C 2E",
}


def dealt(variant: str = "chiamata-buia", **options: object) -> RuledGame:
    """The hands of :data:`HANDS`, dealt one at a time from seat 0 by the dealer, seat 4."""
    hands = {s: parse_cards(h) for s, h in HANDS.items()}
    deck = [hands[k % 5][k // 5] for k in range(40)]
    game = Game(variant, 5, dealer=4, deck=deck, options=options)
    assert isinstance(game, RuledGame)
    assert all(set(game.hand(s)) == set(hands[s]) for s in range(5))
    return game


def won_by_seat_0(game: RuledGame, bid: int = 70) -> None:
    """Seat 0 bids ``bid``; the others pass."""
    game.apply(Bid(bid))
    for _ in range(4):
        game.apply(PASS)


def play(game: RuledGame, *cards: str) -> None:
    for text in cards:
        game.apply(Play(Card.parse(text)))


# ---------------------------------------------------------------- Chiamata Buia: the engine


def test_the_preset_and_its_option() -> None:
    """``chiamata-buia`` is ``chiamata`` with the call after the first trick, and says which line it follows."""
    buia = find_variant("chiamata-buia")
    assert find_variant("buia") is buia
    assert buia.overrides() == {}
    assert dataclasses.replace(buia, variant="chiamata", title=find_variant("chiamata").title) == find_variant(
        "chiamata").with_options(call_time="after_first_trick")
    assert buia.call_time == "after_first_trick" and find_variant("chiamata").call_time == "before_play"
    assert "trumps are only declared after the first trick" in buia.readings[0]
    assert "Chiamata Buia: 'trumps are only declared after the first trick'" in OPTIONS["call_time"].help


def test_the_bidder_leads_before_any_trump_is_declared() -> None:
    """000: 'Chiamata Buia: trumps are only declared after the first trick.' After the auction the play begins at
    once, the bidder leading (002: 'the high bidder leading the first card to the first trick'); there is no trump
    and no call yet."""
    game = dealt()
    won_by_seat_0(game)
    assert game.phase == "play" and game.turn == 0 and game.leader == 0
    assert game.trump is None and game.contract is None
    assert set(game.legal_actions()) == {PLAYS[c.index] for c in game.hand(0)}
    with pytest.raises(IllegalActionError, match="once the first trick is over"):
        game.apply(Call(Card.parse("3C")))
    assert game.turn == 0 and len(game.history) == 5  # refused: nothing changed
    for seat in (None, *range(5)):
        view = game.view(seat)
        assert view.trump is None and view.contract is None and view.call_pending
        assert view.phase == "play"


def test_the_first_trick_has_no_trump() -> None:
    """000: 'Chiamata Buia: trumps are only declared after the first trick.' The first trick is played before the
    trump exists: the best card of the suit led takes it, even when a card of the suit called afterwards was played
    to it."""
    game = dealt()
    won_by_seat_0(game)
    play(game, "7B", "5O", "1C", "1E")
    # Seat 2's 1C would take the trick if coppe were trumps; without trumps the best bastoni so far holds it.
    assert game.view(4).trick_winner() == 0  # seat 0's 7B: 5O, 1C and 1E are not bastoni
    play(game, "2B")
    first = game.tricks[0]
    assert first.winner == 0 and first.points == 22
    assert game.phase == "call" and game.turn == 0
    game.apply(Call(Card.parse("3C")))  # coppe are trumps from now on: too late for the 1C
    assert game.trump is Suit.COPAS
    assert game.tricks[0].winner == 0


def test_the_call_comes_after_the_first_trick_whoever_won_it() -> None:
    """000: 'Chiamata Buia: trumps are only declared after the first trick.' Once the first trick is over the
    bidder calls (002: 'This high bidder then calls out a specific card'), even when another seat won it; that seat
    leads the second trick."""
    game = dealt()
    won_by_seat_0(game)
    play(game, "7B", "1B", "1C", "1E", "2B")
    assert game.tricks[0].winner == 1 and game.tricks[0].points == 33
    assert game.phase == "call" and game.turn == 0 and game.leader == 1
    legal = game.legal_actions()
    played = set(game.tricks[0].cards)
    assert set(legal) == {Call(c) for c in game.rules.deck_cards(5) if c not in played}
    for seat in range(1, 5):
        assert game.view(seat).legal_actions == ()
        assert game.view(seat).turn == 0
    game.apply(Call(Card.parse("3C")))
    contract = game.contract
    assert contract is not None
    assert (contract.declarer, contract.partner, contract.trump, contract.points) == (0, 2, Suit.COPAS, 70)
    assert game.phase == "play" and game.turn == 1 and game.leader == 1  # the first trick's winner leads


def test_a_card_played_in_the_first_trick_cannot_be_called() -> None:
    """002: 'whichever other player has the card called becomes the hidden partner': after the first trick (000,
    Chiamata Buia) the called card must still be in a hand."""
    game = dealt()
    won_by_seat_0(game)
    play(game, "7B", "1B", "1C", "1E", "2B")
    before = game.view(0)
    for text in ("1C", "7B"):
        with pytest.raises(IllegalActionError, match="was played in the first trick"):
            game.apply(Call(Card.parse(text)))
    assert game.view(0) == before
    game.apply(Call(Card.parse("1O")))  # his own card: he plays alone (002)
    assert game.contract is not None and game.contract.alone and game.trump is Suit.OROS


def test_points_of_the_first_trick_count_and_the_contract_is_scored_as_in_chiamata() -> None:
    """000: 'Chiamata Buia: trumps are only declared after the first trick.' The rest is Briscola Chiamata: the
    first trick's points count for whoever took it, and the contract scores +2/+1/-1 (002: 'the high bidder earns 2
    points for the hand and his hidden partner earns 1, while three opponents each lose 1 point')."""
    game = dealt()
    won_by_seat_0(game, 61)
    play(game, "7B", "1B", "1C", "1E", "2B")  # 33 points to seat 1, a defender
    game.apply(Call(Card.parse("3C")))  # seat 2 holds it: the partner
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    result = game.result()
    assert result is not None and result.contract is not None
    side = result.side_points[0] + result.side_points[2]
    assert result.seat_points[1] >= 33
    assert result.reason == ("made" if side >= 61 else "set")
    sign = 1 if side >= 61 else -1
    assert result.scores == (2 * sign, -sign, sign, -sign, -sign)


def test_options_that_do_not_go_with_a_call_after_the_first_trick() -> None:
    """The four cards of a rank can all fall in the first trick, and a named trump has no card: the option is for
    a called card after a points auction."""
    with pytest.raises(RulesError, match="call_time"):
        make_rules("chiamata-buia", {"bidding": "low_card"})
    with pytest.raises(RulesError, match="call_time"):
        make_rules("rematada", {"call_time": "after_first_trick"})
    with pytest.raises(RulesError, match="call_time"):
        make_rules("spanish", {"call_time": "after_first_trick"})
    with pytest.raises(RulesError, match="before_play, after_first_trick"):
        make_rules("chiamata", {"call_time": "later"})


def test_duties_and_arrastro_before_the_trump() -> None:
    """With duties of play, the first trick still has no trump: a seat void in the suit led owes nothing, and
    arrastro (the ace of trumps) cannot be called."""
    game = dealt(follow="suit_trump", arrastro=True)
    won_by_seat_0(game)
    assert not any(type(a).__name__ == "Arrastro" for a in game.legal_actions())
    play(game, "7B")
    assert {a.card for a in game.legal_actions()} == set(parse_cards("1B 3B 12B 11B 10B"))  # follow bastoni
    play(game, "1B")
    assert set(game.legal_actions()) == {PLAYS[c.index] for c in game.hand(2)}  # no bastoni, no trump: any card


# ---------------------------------------------------------------- Chiamata Buia: what views show


def test_no_view_shows_the_partner_before_the_called_card_is_played() -> None:
    """002: the partner 'should not announce this ... Once the called card is played to a trick, it will become
    obvious who this player is.' Moving the called card to another defender changes no other seat's view."""
    game = dealt()
    won_by_seat_0(game)
    play(game, "7B", "1B", "1C", "1E", "2B")
    game.apply(Call(Card.parse("3C")))  # seat 2 holds it
    for seat in (None, 0, 1, 3, 4):
        view = game.view(seat)
        assert view.contract is not None and view.contract.partner is None
        assert view.contract.called == Card.parse("3C") and view.trump is Suit.COPAS
    assert game.view(2).contract.partner is None  # type: ignore[union-attr]  # it knows from its own hand only
    twin = game.clone()
    assert isinstance(twin, RuledGame)
    three, other = PLAYS[Card.parse("3C").index], twin._hands[3][0]
    twin._hands[2][twin._hands[2].index(three)] = other
    twin._hands[3][0] = three
    twin._contract = dataclasses.replace(twin._contract, partner=3)  # type: ignore[arg-type]
    twin._dealt = tuple(tuple(other.card if c == three.card else three.card if c == other.card else c for c in h)
                        for h in twin._dealt)
    for seat in (None, 0, 1, 4):
        assert twin.view(seat) == game.view(seat), f"seat {seat} can tell who holds the called card"


def _random_positions(config: tuple[str, dict[str, object]], games: int, seed: int) -> Iterator[RuledGame]:
    """Every position of ``games`` random hands (random legal actions, bidding low half the time)."""
    variant, options = config
    for i in range(games):
        rng = random.Random(seed * 7919 + i)
        game = Game(variant, 5, dealer=rng.randrange(5), seed=rng.randrange(2**32), options=options)
        assert isinstance(game, RuledGame)
        while True:
            yield game
            if game.is_over():
                break
            game = game.clone()  # type: ignore[assignment]
            legal = game.legal_actions()
            bids = [a for a in legal if isinstance(a, Bid)]
            game.apply(bids[0] if bids and rng.random() < 0.4 else rng.choice(legal))


CONFIGS = [("chiamata-buia", {}), ("chiamata-buia", {"follow": "suit_beat_trump", "all_pass": "last_must_bid"}),
           ("chiamata-punti", {})]


@pytest.mark.parametrize("config", CONFIGS, ids=["buia", "buia-duties", "punti"])
def test_views_do_not_depend_on_what_a_seat_cannot_see(config: tuple[str, dict[str, object]]) -> None:
    """Other hands, and so the called card's holder, permuted in a clone: every seat's view stays the same."""
    rng = random.Random(3)
    checked = pending = 0
    for game in _random_positions(config, 25, seed=1):
        if rng.random() > 0.3:
            continue
        for seat in (None, *range(5)):
            view = game.view(seat)
            assert hidden_twin(game, seat, rng).view(seat) == view
            assert view.hand == (game.hand(seat) if seat is not None else ())
            contract = game.contract
            if contract is not None and contract.called not in view.played_cards() and seat != contract.partner:
                assert view.contract is not None and view.contract.partner is None
            checked += 1
        pending += game.view(None).call_pending
    assert checked > 500
    assert (pending > 0) == (config[0] == "chiamata-buia")


# ---------------------------------------------------------------- the players


def test_every_player_answers_every_decision_legally() -> None:
    """Bids, the call after the first trick, the first trick without trumps and the rest: thousands of random
    positions of the new options, each answered by every built-in player with a legal action."""
    agents = {name: make_agent(name, seed=5) for name in ("random", "greedy", "heuristic",
                                                          "heuristic[policy=learned]")}
    expert = make_agent("expert[sims=2]", seed=5)
    positions = 0
    kinds: set[str] = set()
    for config in CONFIGS:
        for k, game in enumerate(_random_positions(config, 40, seed=2)):
            if game.is_over():
                continue
            view = game.view(game.turn)
            legal = set(view.legal_actions)
            kinds.add("first-trick" if view.call_pending else view.phase)
            for name, agent in agents.items():
                assert agent.act(view) in legal, (name, config, game.history)
            if k % 9 == 0:
                assert expert.act(view) in legal, ("expert", config, game.history)
            positions += 1
    assert positions > 3000
    assert kinds == {"bid", "first-trick", "call", "play"}


def test_the_call_after_the_first_trick_is_a_card_still_in_a_hand() -> None:
    """The bidder's call: the strongest card he lacks in his best suit, among the cards not played yet."""
    game = dealt()
    won_by_seat_0(game)
    play(game, "1O", "7O", "1C", "1E", "11O")  # oros, the bidder's best suit, lose their ace
    view = game.view(0)
    call = choose_call(view)
    assert isinstance(call, Call) and call in view.legal_actions
    assert call.card not in view.played_cards() and call.card not in view.hand
    assert call.card.suit is Suit.OROS  # 3O 12O left in hand: his best suit still


# ---------------------------------------------------------------- records and the replay


def test_a_record_of_a_blind_call_replays_to_the_same_result(tmp_path: Path) -> None:
    """``brisca replay``: the call after five plays, the first trick won without trumps, the contract scored."""
    game = dealt()
    won_by_seat_0(game, 61)
    play(game, "7B", "1B", "1C", "1E", "2B")
    game.apply(Call(Card.parse("3C")))
    rng = random.Random(4)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    record = rec.Record.from_game(game)
    path = tmp_path / "buia.json"
    path.write_text(record.dumps(), encoding="utf-8")
    proc = brisca("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    result = game.result()
    assert result is not None
    assert out["variant"] == "chiamata-buia" and out["trump"] == "C"
    assert out["tricks"][0] == {"leader": 0, "cards": ["7B", "1B", "1C", "1E", "2B"], "winner": 1, "points": 33}
    assert out["tricks"][1]["leader"] == 1
    assert out["contract"]["called"] == "3C" and out["contract"]["partner"] == 2
    assert out["scores"] == list(result.scores or ()) and out["reason"] == result.reason
    # A call inside the first trick is refused by the replay with one line naming the action.
    data = json.loads(record.dumps())
    actions = data["actions"]
    data["actions"] = [*actions[:7], {"seat": 2, "call": "3C"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    bad = brisca("replay", str(path))
    assert bad.returncode == 2 and "action 7" in bad.stderr and "first trick" in bad.stderr
    assert bad.stderr.count("\n") == 1


# ---------------------------------------------------------------- the terminal


def test_the_terminal_asks_for_the_call_after_the_first_trick() -> None:
    """The person bids, leads the first trick (a call is refused then), and is asked for the call after it; a card
    played in the first trick is refused with why."""
    rules = make_rules("chiamata-buia")
    buf = io.StringIO()
    console = Console(file=buf, no_color=True, highlight=False, markup=False, emoji=False, soft_wrap=True)

    class Passer:
        def __init__(self, seed: int) -> None:
            self.inner = make_agent("random", seed=seed)

        def act(self, view: object) -> Action:
            legal = view.legal_actions  # type: ignore[attr-defined]
            return Pass() if Pass() in legal else self.inner.act(view)  # type: ignore[arg-type]

    terminal = TerminalGame(Match(rules, 5, seed=8), 0, {s: Passer(s) for s in range(1, 5)}, Messages("en"),
                            console, ai_name="random", echo=True)

    def lines() -> Iterator[str]:
        yield "75"
        yield "call 3O"
        yield "1"
        view = terminal.view()
        assert view.phase == "call" and view.turn == 0
        first = view.tricks[0].cards
        yield f"call {first[2]}"
        yield str(next(a for a in view.legal_actions if isinstance(a, Call)).card)
        yield "q"

    feed = lines()
    terminal.read_line = lambda: next(feed)
    assert terminal.run() is Outcome.QUIT
    out = buf.getvalue()
    assert "The trump is declared by the call after the first trick." in out
    assert "You lead the first trick, played without trumps; you call your card once it is over." in out
    assert "none yet: declared by the call after the first trick" in out
    assert out.count("The card is called once the first trick is over: play a card now.") == 1
    assert out.count("was played in the first trick: call a card still in a hand, like") == 1
    assert "Contract: you must take 75 points. Trump: " in out


# ---------------------------------------------------------------- Chiamata a punti


def test_chiamata_a_punti_bids_points_only_and_names_the_card_when_play_begins() -> None:
    """000: 'Chiamata a punti: only the points to be won are declared, the suit and the card that will determine
    the pairs and the trump suit are declared only at the beginning of the deal.' The alias ``chiamata-punti`` names
    the points auction; the card, and with it the suit, are named by the auction's winner when the play begins,
    and he leads."""
    punti = find_variant("chiamata-punti")
    assert punti is find_variant("chiamata") and punti.bidding == "points" and punti.call_time == "before_play"
    assert any("Chiamata a punti ('only the points to be won are declared" in r for r in punti.readings)
    game = dealt("chiamata-punti")
    assert all(isinstance(a, Bid | Pass) for a in game.legal_actions())  # points only: no card, no rank
    assert not any(isinstance(a, RankBid) for a in game.legal_actions())
    with pytest.raises(IllegalActionError, match="a bid is a number of points"):
        game.apply(RankBid(3))
    won_by_seat_0(game, 80)
    assert game.phase == "call" and game.turn == 0 and game.trump is None  # nothing named yet
    assert set(game.legal_actions()) == {Call(c) for c in game.rules.deck_cards(5)}
    game.apply(Call(Card.parse("3C")))
    assert game.trump is Suit.COPAS and game.contract is not None and game.contract.partner == 2
    assert game.phase == "play" and game.turn == 0 and not game.tricks  # the bidder leads the first trick


# ---------------------------------------------------------------- the web table


def test_a_person_plays_a_blind_call_in_chromium(browser: Any, server: str) -> None:  # noqa: F811 (the fixtures)
    """The page shows that the first trick has no trump, then offers the call (cards still in a hand only) to the
    person who won the auction; the match ends, and every hand's call followed five plays."""
    left_ms = _clock()
    context, page, errors = _open_page(browser, locale="en-US")
    page.goto(f"{server}/")
    table_id = _create_table(page, "chiamata-buia", "Ada", {s: "easy" for s in range(1, 5)},
                             options="target_points=2")
    seen: set[str] = set()
    blind = calls = 0
    for _ in range(400):
        page.wait_for_function(
            "document.body.dataset.status === 'finished' || (document.querySelector('#status').textContent"
            ".startsWith('Your turn') && (document.querySelector('#hand .card.legal') ||"
            " document.querySelector('#actions button:not([disabled])') || document.querySelector('#callgrid"
            " .callcard')))", timeout=left_ms())
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        phase = page.evaluate("document.body.dataset.phase")
        seen.add(phase)
        v = int(page.evaluate("document.body.dataset.v"))
        if phase == "bid":
            value = page.locator("#bidvalue")
            if value.count():  # bid the most there is: the auction is ours
                value.fill(value.get_attribute("max") or "")
                page.locator("#bidbutton").click()
            else:
                page.locator("#actions button").first.click()
        elif phase == "call":
            played = page.locator("#lasttrick .card").evaluate_all("els => els.map(e => e.dataset.card)")
            offered = page.locator("#callgrid .callcard").evaluate_all("els => els.map(e => e.dataset.call)")
            assert len(played) == 5 and not set(played) & set(offered) and len(offered) == 35
            assert page.locator("#prompt").inner_text().startswith("Call a card")
            page.locator("#callgrid .callcard").first.click()
            calls += 1
        else:
            assert phase == "play"
            if not page.locator("#contract").inner_text():  # no contract yet: the first trick, without trumps
                assert page.locator("#faceup").inner_text() == "No trump: the call comes after this first trick"
                blind += 1
            page.locator("#hand .card.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=left_ms())
    assert page.evaluate("document.body.dataset.status") == "finished"
    assert blind > 0 and seen >= {"bid", "play"}
    record = rec.loads(urllib.request.urlopen(f"{server}/api/games/{table_id}/record", timeout=5).read())
    assert isinstance(record, rec.MatchRecord)
    for game in record.replay():
        acts = [a for _s, a in game.history]
        if any(isinstance(a, Call) for a in acts):
            at = next(i for i, a in enumerate(acts) if isinstance(a, Call))
            assert sum(1 for a in acts[:at] if isinstance(a, Play)) == 5
    assert calls > 0 and "call" in seen  # the first auction is ours: seat 0 speaks first and bids the most
    assert not errors, errors
    context.close()
