"""The lockstep hands (brisca.envs.batch) against the engine: every seat's input, what it cannot see (for the
critic), the legal ids, the turn, the result and the rewards, bit for bit, over random hands of every covered
configuration; and the self-play that plays them (brisca.learn.train.collect_batch)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable

import pytest

np = pytest.importorskip("numpy")

from brisca.actions import PASS, Action, Bid, Discard  # noqa: E402
from brisca.agents.net import Net, reward  # noqa: E402
from brisca.agents.simple import GreedyAgent  # noqa: E402
from brisca.envs.actions import ActionCodec, Block  # noqa: E402
from brisca.envs.batch import COMPILED, Batch, covers, policy, privileged_size, quantize  # noqa: E402
from brisca.envs.encode import ObservationEncoder, cues  # noqa: E402
from brisca.game import Game, RuledGame  # noqa: E402
from brisca.rules import Rules, make_rules  # noqa: E402

if os.environ.get("BRISCA_REQUIRE_KERNEL") and not COMPILED:
    pytest.fail("BRISCA_REQUIRE_KERNEL is set but numba is not installed")


def hidden(game: Game, seat: int, stock_size: int) -> object:
    """What ``seat`` cannot see, as :meth:`Batch.privileged` writes it, read from the engine."""
    n = game.players
    out = np.zeros(privileged_size(n), np.float32)
    for k in range(1, n):
        for card in game.hand((seat + k) % n):
            out[48 * (k - 1) + card.index] = 1.0
    if isinstance(game, RuledGame) and game.rules.talon:  # no stock: the talon in the auction, then the discards
        laid = [s for s, a in game.history if isinstance(a, Discard)]
        for card in game.talon if game.phase == "bid" else game.discards if laid and laid[0] != seat else ():
            out[48 * (n - 1 if game.phase == "bid" else n) + card.index] = 1.0
        return out
    stock = game.stock()
    size = stock_size or len(stock)  # (every card dealt: the whole deck lies cut until the cutter chooses)
    for depth, card in enumerate(stock):  # the next card drawn first
        if depth < n:
            out[48 * (n - 1) + card.index] = 1.0
        out[48 * n + card.index] = np.float32(1.0 - depth / size)
    return out


#: How a seat of :func:`play_along` picks its action: from the game, its legal actions and the random numbers.
Chooser = Callable[[Game, list[Action], random.Random], Action]


def at_random(game: Game, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def bidding_low(share: float) -> Chooser:
    """Random play whose auction passes three times in four and otherwise bids the lowest bid, and which with
    chance ``share`` plays the fixed greedy player's choice: hands made and set, voided, played alone."""
    greedy = GreedyAgent()

    def choose(game: Game, legal: list[Action], rng: random.Random) -> Action:
        if rng.random() < share:
            return greedy.act(game.view(game.turn))
        bids = [a for a in legal if isinstance(a, Bid)]
        if PASS in legal and (not bids or rng.random() < 0.75):
            return PASS
        return bids[0] if bids else rng.choice(legal)

    return choose


def play_along(presets: list[str | Rules], players: int, hands: int, seed: int,
               options: dict[str, object] | None = None, with_cues: bool = False, seen: Counter[str] | None = None,
               choose: Chooser = at_random) -> int:
    """Random hands played in a one-lane batch and in the engine side by side; every position compared (with the
    cues where asked). The number of positions; ``seen`` counts how the hands ended (their results' reasons) and
    what the seats did (the kinds of the actions taken), and how many king-knight pairs scored. ``choose`` picks
    each action (at random by default)."""
    rules = [make_rules(p, options) for p in presets]
    batch = Batch(rules, players, size=1, cues=with_cues)
    encoders = [ObservationEncoder(r, players) for r in rules]
    rng = random.Random(seed)
    positions = 0
    for _ in range(hands):
        p = rng.randrange(len(rules))
        game = Game(rules[p], players, dealer=rng.randrange(players), seed=rng.getrandbits(32))
        batch.load(0, game, p)
        enc = encoders[p]
        while True:
            positions += 1
            for seat in range(players):
                want = enc.encode(game.view(seat))
                got = batch.features(0, seat)
                assert got.dtype == np.float32
                assert got[:enc.size].tobytes() == want.tobytes(), (game, seat, np.nonzero(got[:enc.size] != want))
                rest = got[enc.size:]
                assert rest[:len(rules)].tolist() == [1.0 if i == p else 0.0 for i in range(len(rules))]
                if with_cues:
                    assert rest[len(rules):].tobytes() == cues(game.view(seat)).tobytes(), (game, seat)
                else:
                    assert len(rest) == len(rules)
                assert batch.privileged([0], [seat])[0].tobytes() == hidden(game, seat, batch.stock_size).tobytes()
            if game.is_over():
                assert batch.is_over(0) and batch.turn(0) is None and batch.legal_ids(0) == []
                break
            assert batch.turn(0) == game.turn
            legal = game.legal_actions()
            view = game.view(game.turn)
            assert batch.legal_ids(0) == [enc.codec.ids[a] for a in legal]
            assert np.flatnonzero(enc.mask(view)).tolist() == sorted(batch.legal_ids(0))
            action = choose(game, legal, rng)
            if seen is not None:
                seen[action.kind] += 1
            game.apply(action)
            batch.apply(0, enc.codec.ids[action])
        result = game.result()
        assert result is not None
        if seen is not None:
            seen[result.reason] += 1
            seen["alone"] += bool(result.contract is not None and result.contract.alone)
            seen["pair"] += sum(b.why.startswith("king and knight") for b in result.bonuses)
        assert batch.result(0) == (tuple(result.side_points), result.winner)
        c = result.contract
        assert batch.contract(0) == (None if c is None else (c.declarer, c.partner, c.points))
        for seat in range(players):
            assert batch.reward(0, seat) == reward(game, seat)
    return positions


@pytest.mark.parametrize("players", [2, 4])
def test_the_networks_presets_match_the_engine(players: int) -> None:
    assert play_along(["spanish", "briscola"], players, hands=40, seed=players) > 1000


@pytest.mark.parametrize("players", [2, 4])
def test_the_cues_match_the_engine(players: int) -> None:
    assert play_along(["spanish", "briscola"], players, hands=30, seed=10 + players, with_cues=True) > 700
    assert play_along(["spanish"], players, hands=6, seed=3, options={"trump_exchange": "any_time"},
                      with_cues=True) > 100


@pytest.mark.parametrize(("preset", "players"), [
    ("spanish", 3), ("spanish", 6), ("briscola", 3), ("lombard", 2), ("mariaje", 4), ("mexican", 3),
    ("tuscan-kept-ranks", 2),
])
def test_other_plain_presets_match_the_engine(preset: str, players: int) -> None:
    assert play_along([preset], players, hands=8, seed=len(preset)) > 100


@pytest.mark.parametrize("options", [
    {"trump_exchange": "any_time", "exchange_chain": False},
    {"trump_exchange": "before_penultimate", "last_trick_bonus": 10},
    {"pair_bonus": True, "tie": "most_cards"},
    {"hand_winner": "least", "tie": "shared"},
])
def test_plain_options_match_the_engine(options: dict[str, object]) -> None:
    assert play_along(["spanish"], 2, hands=15, seed=7, options=options) > 300
    assert play_along(["spanish"], 4, hands=5, seed=8, options=options) > 100


@pytest.mark.parametrize(("players", "hands"), [(2, 300), (3, 200), (4, 200), (6, 100)])
def test_muerte_al_tres_matches_the_engine(players: int, hands: int) -> None:
    """kill_three: the ace of trumps held back until the three of trumps is out (or it is the seat's last card);
    the hand over at once, won by the ace's side, when the ace takes the three."""
    seen: Counter[str] = Counter()
    assert covers("muerte-al-tres", players)
    assert play_along(["muerte-al-tres"], players, hands=hands, seed=20 + players, seen=seen) > hands * 10
    assert seen["three-killed"] > hands // 20 and seen["points"] > hands // 4, seen
    assert seen["exchange"] > 0, seen


def test_muerte_al_tres_in_a_batch_with_its_options() -> None:
    """kill_three with the bonuses it skips or keeps when the hand ends at once, and beside the plain preset."""
    seen: Counter[str] = Counter()
    play_along(["muerte-al-tres"], 2, hands=60, seed=31, seen=seen,
               options={"last_trick_bonus": 10, "pair_bonus": True, "trump_exchange": "any_time"})
    play_along(["muerte-al-tres", "spanish"], 4, hands=40, seed=32, seen=seen, with_cues=True)
    assert seen["three-killed"] > 5, seen


@pytest.mark.parametrize(("players", "hands"), [(2, 300), (3, 200), (4, 200)])
def test_open_hands_match_the_engine(players: int, hands: int) -> None:
    """scoperta: every hand face up, so every seat's input shows every other hand (and never the stock's order)."""
    assert covers("scoperta", players)
    assert play_along(["scoperta"], players, hands=hands, seed=40 + players) > hands * 10
    batch = Batch(["scoperta"], players, size=1)
    batch.load(0, Game("scoperta", players, seed=players))
    enc = ObservationEncoder("scoperta", players)
    known = enc.split(batch.features(0, 0)[:enc.size])["known"]
    for r in range(1, players):
        assert np.flatnonzero(known[r - 1]).tolist() == sorted(batch.hand(0, r))


def test_open_hands_beside_hidden_ones_and_with_options() -> None:
    """open_hands with the exchange, muerte al tres and a partnership; a batch of open and hidden presets."""
    seen: Counter[str] = Counter()
    options = {"trump_exchange": "after_win", "kill_three": True}
    assert play_along(["scoperta"], 4, hands=60, seed=41, options=options, seen=seen, with_cues=True) > 600
    assert seen["exchange"] > 0 and seen["three-killed"] > 0, seen
    assert play_along(["scoperta", "briscola"], 2, hands=60, seed=42) > 600


def test_bixkla_s_partner_signals_match_the_engine() -> None:
    """Partner signals: each true one a seat's action (the seat acts again), once a turn; seen by the partners
    alone, in the hand's plane and the current trick's."""
    seen: Counter[str] = Counter()
    assert covers("bixkla", 4)
    assert play_along(["bixkla"], 4, hands=300, seed=50, seen=seen) > 3000 * 4
    assert seen["signal"] > 1500 and seen["play"] == 300 * 40, seen
    assert seen["tie"] > 0, seen  # (bixkla's tie is a draw)


@pytest.mark.parametrize("options", [
    {"signals": "partner", "signal_asks": True},
    {"signals": "open", "kill_three": True},
    {"signals": "partner", "open_hands": True, "trump_exchange": "any_time"},
])
def test_signals_with_other_rules_match_the_engine(options: dict[str, object]) -> None:
    """The Spanish set (asks too), open signals seen by all, signals beside muerte al tres and open hands."""
    seen: Counter[str] = Counter()
    assert play_along(["spanish"], 4, hands=60, seed=51, options=options, seen=seen, with_cues=True) > 60 * 40
    assert seen["signal"] > 500, seen
    assert play_along(["spanish"], 2, hands=10, seed=52, options=options) > 200  # two sides of one: no signals


def test_a_signal_is_checked_like_a_card() -> None:
    """A signal that is not true, not of the rules, or already made this turn, is refused and changes nothing."""
    from brisca.actions import Signal

    game = Game("bixkla", 4, seed=3)
    batch = Batch(["bixkla"], 4, size=1)
    batch.load(0, game)
    ids = batch.codec.ids
    true = [a for a in game.legal_actions() if isinstance(a, Signal)]
    false = [Signal(n) for n in ("trump-ace", "trump-three", "trump-king", "trump-knight", "trump-jack", "high-card")
             if Signal(n) not in true]
    assert true and false
    before = batch.st.copy()
    for action in [*false, Signal("briscas"), Signal("ask-points")]:
        with pytest.raises(ValueError, match="not legal"):
            batch.apply(0, ids[action])
    assert (batch.st == before).all()
    batch.apply(0, ids[true[0]])
    with pytest.raises(ValueError, match="not legal"):
        batch.apply(0, ids[true[0]])
    game.apply(true[0])
    assert batch.legal_ids(0) == [ids[a] for a in game.legal_actions()] and batch.turn(0) == game.turn


@pytest.mark.parametrize("preset", ["chiamata", "chiamata-buia"])
@pytest.mark.parametrize(("share", "hands", "seed"), [(0.0, 80, 60), (0.5, 60, 61), (1.0, 60, 62)])
def test_briscola_chiamata_matches_the_engine(preset: str, share: float, hands: int, seed: int) -> None:
    """Briscola Chiamata at 5 (and Buia, the call after a first trick with no trump): every bid and pass, the
    call and every card an action id of the engine's, every seat's input bit for bit (the auction's fields, the
    called card, the partner once the card shows him), the contract's result and the rewards; random, greedy and
    mixed play."""
    seen: Counter[str] = Counter()
    assert covers(preset, 5)
    assert play_along([preset], 5, hands=hands, seed=seed + len(preset), seen=seen,
                      choose=bidding_low(share)) > hands * 30
    assert seen["made"] > hands // 10 and seen["set"] > hands // 10, seen
    assert seen["call"] == seen["made"] + seen["set"] and seen["play"] == 40 * seen["call"], seen
    if share < 1.0:  # (the greedy player always bids, and calls a card it lacks)
        assert seen["alone"] > 0, seen
    if share == 0.0:
        assert seen["all-passed"] > 0, seen
        assert play_along([preset], 5, hands=15, seed=seed, with_cues=True) > 15 * 40  # random bids, high ones


@pytest.mark.parametrize("options", [
    {"auction_direction": "against_play", "all_pass": "last_must_bid"},
    {"min_bid": 70, "bid_step": 5, "max_bid": 100, "last_trick_bonus": 10},
    {"pair_bonus": True, "call_time": "after_first_trick"},
])
def test_briscola_chiamata_s_options_match_the_engine(options: dict[str, object]) -> None:
    """The auction's way round and its bids, the last seat made to bid, bonuses added to the contract's points."""
    seen: Counter[str] = Counter()
    assert covers(make_rules("chiamata", options), 5)
    assert play_along(["chiamata"], 5, hands=40, seed=63, options=options, seen=seen, with_cues=True,
                      choose=bidding_low(0.3)) > 40 * 30
    assert seen["made"] > 0 and seen["set"] > 0, seen
    if options.get("all_pass") == "last_must_bid":
        assert seen["all-passed"] == 0, seen
    assert play_along(["chiamata", "chiamata-buia"], 5, hands=20, seed=64, options=options) > 20 * 40


def refused(batch: Batch, ids: dict[Action, int], *actions: Action) -> None:
    """Each action is refused by lane 0 as not legal now, and the lane is left as it was."""
    before = batch.st.copy()
    for action in actions:
        with pytest.raises(ValueError, match="not legal"):
            batch.apply(0, ids[action])
    assert (batch.st == before).all()


def both(batch: Batch, ids: dict[Action, int], game: Game, action: Action) -> None:
    """``action`` played in the game and in lane 0, which then agree on the legal actions and the turn."""
    game.apply(action)
    batch.apply(0, ids[action])
    assert batch.legal_ids(0) == [ids[a] for a in game.legal_actions()] and batch.turn(0) == game.turn


def test_a_chiamata_action_out_of_its_phase_is_refused_and_changes_nothing() -> None:
    """A card during the auction, a bid not above the highest, a call of a card out of the deck or played in the
    first trick, a bid or a card while the declarer calls: each refused, the lane as it was."""
    game = Game("chiamata-buia", 5, seed=8)
    batch = Batch(["chiamata-buia"], 5, size=1)
    batch.load(0, game)
    ids = batch.codec.ids

    from brisca.actions import Call, Play
    from brisca.cards import Card

    refused(batch, ids, Play(game.hand(game.turn)[0]), Call(Card.parse("1O")))
    both(batch, ids, game, Bid(70))
    refused(batch, ids, Bid(70), Bid(65))
    for _ in range(4):
        both(batch, ids, game, PASS)
    declarer = game.turn
    refused(batch, ids, Bid(80), PASS, Call(Card.parse("1O")))  # the call waits for the first trick
    for _ in range(5):
        both(batch, ids, game, game.legal_actions()[0])
    assert game.phase == "call" and game.turn == declarer
    played = game.tricks[0].cards[0]
    refused(batch, ids, Call(played), Call(Card.parse("8O")), Play(game.hand(declarer)[0]), PASS)
    both(batch, ids, game, next(a for a in game.legal_actions() if isinstance(a, Call)))


@pytest.mark.parametrize(("share", "hands", "seed"), [(0.0, 120, 80), (0.5, 100, 81), (1.0, 100, 82)])
def test_brisca_rematada_matches_the_engine(share: float, hands: int, seed: int) -> None:
    """Brisca Rematada at 3: every bid and pass, the talon taken and shown, every discard of two cards (one id a
    pair), the trump named, each king-knight pair declared on lead (its card led next) and every card an action id
    of the engine's; every seat's input bit for bit (the talon, the declarer's own discards and their points
    hidden from the others until the count, the declarations), the solo contract's result and the rewards; random,
    greedy and mixed play."""
    seen: Counter[str] = Counter()
    assert covers("rematada", 3)
    assert play_along(["rematada"], 3, hands=hands, seed=seed, seen=seen, choose=bidding_low(share)) > hands * 35
    assert seen["discard"] == seen["trump"] == seen["made"] + seen["set"] == hands, seen  # (the last seat must bid)
    assert seen["play"] == 30 * hands and seen["all-passed"] == 0, seen
    assert seen["set"] > hands // 10, seen
    if share > 0.0:  # (the greedy player declares its pairs and makes some contracts)
        assert seen["made"] > hands // 20 and seen["declare"] > hands // 5, seen
    else:
        assert seen["declare"] > 0, seen
        assert play_along(["rematada"], 3, hands=25, seed=seed, with_cues=True) > 25 * 35  # random bids, high ones


@pytest.mark.parametrize("options", [
    {"max_bid": 170, "min_bid": 120},
    {"bid_step": 5, "last_trick_bonus": 0},
    {"all_pass": "redeal", "auction_direction": "against_play"},
    {"auction_direction": "against_play"},
    {"declarations": "off", "pair_bonus": True},
])
def test_brisca_rematada_s_options_match_the_engine(options: dict[str, object]) -> None:
    """The auction's bids and way round, a hand everybody passed (void, under ``all_pass: redeal``), pairs scored
    when captured instead of declared."""
    seen: Counter[str] = Counter()
    rules = make_rules("rematada", options)
    assert covers(rules, 3)
    assert play_along([rules], 3, hands=60, seed=83, seen=seen, with_cues=True, choose=bidding_low(0.4)) > 60 * 20
    assert seen["made"] > 0 and seen["set"] > 0, seen
    assert (seen["all-passed"] > 0) == (options.get("all_pass") == "redeal"), seen
    assert (seen["declare"] > 0) == (options.get("declarations") != "off"), seen
    assert seen["pair"] > 5, seen  # (declared, or captured under pair_bonus)


def test_a_rematada_action_out_of_its_phase_is_refused_and_changes_nothing() -> None:
    """A card, a discard, a trump or a declaration during the auction; a card, a bid or a trump while the talon's
    taker discards, and a discard of cards he does not hold; a discard or a card while he names the trump; a
    declaration before winning a trick, of a pair not held or declared already, and a card other than the pair's
    once declared: each refused, the lane as it was."""
    from brisca.actions import Declare, Play, TrumpChoice
    from brisca.cards import Rank, Suit

    rng = random.Random(4)
    batch = Batch(["rematada"], 3, size=1)
    ids = batch.codec.ids

    def to_act(game: Game) -> int:
        seat = game.turn
        assert seat is not None
        return seat

    declared = 0
    for seed in range(400):
        game = Game("rematada", 3, seed=seed)
        batch.load(0, game)
        hand = game.hand(to_act(game))
        refused(batch, ids, Play(hand[0]), Discard(hand[0], hand[1]), TrumpChoice(Suit.OROS), Declare(Suit.COPAS))
        both(batch, ids, game, Bid(110))
        refused(batch, ids, Bid(110), Bid(100))
        both(batch, ids, game, PASS)
        both(batch, ids, game, PASS)
        declarer = to_act(game)
        assert isinstance(game, RuledGame) and game.phase == "discard"
        mine = sorted(game.hand(declarer))
        other = sorted(game.hand((declarer + 1) % 3))
        refused(batch, ids, Play(mine[0]), Bid(120), PASS, TrumpChoice(Suit.OROS), Discard(other[0], other[1]),
                Discard(mine[0], other[0]), Declare(Suit.OROS))
        both(batch, ids, game, Discard(mine[0], mine[1]))
        refused(batch, ids, Discard(mine[2], mine[3]), Play(mine[2]), Declare(Suit.OROS), PASS)
        both(batch, ids, game, TrumpChoice(Suit(seed % 4)))
        refused(batch, ids, *(Declare(s) for s in Suit), TrumpChoice(Suit.OROS), Discard(mine[2], mine[3]))
        while not game.is_over():
            legal = game.legal_actions()
            declares = [a for a in legal if isinstance(a, Declare)]
            refused(batch, ids, *(Declare(s) for s in Suit if Declare(s) not in declares))
            if not declares:
                both(batch, ids, game, rng.choice(legal))
                continue
            suit = declares[0].suit
            both(batch, ids, game, declares[0])
            refused(batch, ids, Declare(suit), *(Play(c) for c in game.hand(to_act(game))
                                     if c.suit is not suit or c.rank not in (Rank.KING, Rank.KNIGHT)))
            declared += 1
        result = game.result()
        assert result is not None and batch.result(0) == (tuple(result.side_points), result.winner)
        if declared >= 10:
            break
    assert declared >= 10


def mixed(share: float) -> Chooser:
    """Random play that with chance ``share`` plays the fixed greedy player's choice."""
    greedy = GreedyAgent()

    def choose(game: Game, legal: list[Action], rng: random.Random) -> Action:
        return greedy.act(game.view(game.turn)) if rng.random() < share else rng.choice(legal)

    return choose


@pytest.mark.parametrize(("share", "hands", "seed"), [(0.0, 120, 90), (0.5, 80, 91), (1.0, 80, 92)])
def test_brisca_portena_matches_the_engine(share: float, hands: int, seed: int) -> None:
    """Chilean brisca porteña at 4: the cutter's choice of the deal (alce, golpe, pelada: each dealt and shown as
    the engine does, the dealer's trump card seen by all while he holds it), the duties (descanso), the guarded 2
    and the pelada's trump lead, every vale declared on a turn or marked in the window after a card (the seats
    asked, their passes) and every card an action id of the engine's; every seat's input bit for bit, the masks,
    the results (the vales to the trick's winner, the last trick's 10, a level count a tie for the replay) and
    the rewards; random, greedy and mixed play."""
    seen: Counter[str] = Counter()
    assert covers("chilean", 4)
    assert play_along(["chilean"], 4, hands=hands, seed=seed, seen=seen, choose=mixed(share)) > hands * 45
    assert seen["cut"] == hands and seen["play"] == 40 * hands, seen
    assert seen["points"] + seen["tie"] + seen["capote"] == hands, seen
    assert seen["declare"] == seen["pair"] > hands // 10 and seen["pass"] > hands, seen
    if share < 1.0:
        assert play_along(["chilean"], 4, hands=20, seed=seed, with_cues=True, choose=mixed(share)) > 20 * 45


@pytest.mark.parametrize("options", [
    {"deal": "alce"},
    {"deal": "golpe"},
    {"deal": "pelada"},
    {"deal": "golpe", "golpe_partner_shows": True},
    {"cut_ways": ["golpe", "pelada"]},
    {"follow": "suit_beat_trump", "capote": "match"},
    {"declarations": "off", "lead_two": "any", "cutter": "left", "follow": "suit"},
    {"follow": "suit_trump", "deal": "pelada"},
    {"deal": "one_by_one", "follow": "none", "tie": "most_cards"},
])
def test_brisca_portena_s_options_match_the_engine(options: dict[str, object]) -> None:
    """Each way of dealing fixed, two ways to choose from, the dealer's partner showing in a golpe, the duty to
    beat and trump a partner too, capote for the match, no vales nor guarded 2s, the cutter on the left."""
    seen: Counter[str] = Counter()
    rules = make_rules("chilean", options)
    assert covers(rules, 4)
    assert play_along([rules], 4, hands=30, seed=93, seen=seen, with_cues=True, choose=mixed(0.3)) > 30 * 40
    assert (seen["cut"] > 0) == (rules.deal == "cutter_chooses"), seen
    assert (seen["declare"] > 0) == (rules.declarations == "vales"), seen


def test_a_portena_s_shown_cards_and_duties_are_the_engine_s() -> None:
    """The cards shown at each way's deal land in the ``shown`` planes and, while held, in the ``known`` ones; a
    pelada's cutter holding trumps may lead nothing else; each lane's legal cards are the engine's where a duty
    narrows them."""
    from brisca.actions import Cut

    enc = ObservationEncoder("chilean", 4)
    batch = Batch(["chilean"], 4, size=1)
    ids = batch.codec.ids
    narrowed = 0
    for seed in range(60):
        for way in ("alce", "golpe", "pelada"):
            game = Game("chilean", 4, dealer=seed % 4, seed=seed)
            batch.load(0, game)
            game.apply(Cut(way))
            batch.apply(0, ids[Cut(way)])
            assert isinstance(game, RuledGame)
            for seat in range(4):
                got = enc.split(batch.features(0, seat)[:enc.size])
                shown = {(s, c.index) for s, c in game.view(seat).shown}
                assert {(int((seat + r) % 4), int(c)) for r, c in zip(*np.nonzero(got["shown"]), strict=True)} == shown
                assert len(shown) >= (2 if way != "alce" else 0)
                held = {(s, c.index) for s, c in game.view(seat).known}
                known = np.nonzero(got["known"])
                assert {(int((seat + r + 1) % 4), int(c)) for r, c in zip(*known, strict=True)} == held
            cutter = game.turn
            assert cutter is not None and cutter == (game.dealer + 1) % 4
            assert batch.turn(0) == cutter
            trumps = [c for c in game.hand(cutter) if c.suit is game.trump]
            if way == "pelada" and trumps:
                plays = [i for i in batch.legal_ids(0) if i < 48]
                assert plays and all(i // 12 == int(game.trump) for i in plays)
            rng = random.Random(seed)
            while not game.is_over():
                legal = game.legal_actions()
                assert batch.legal_ids(0) == [ids[a] for a in legal]
                turn = game.turn
                assert turn is not None
                hand = game.hand(turn) if game.phase == "play" else []
                narrowed += len([a for a in legal if a.kind == "play"]) < len(hand)
                action = rng.choice(legal)
                game.apply(action)
                batch.apply(0, ids[action])
    assert narrowed > 500


def test_a_portena_action_out_of_its_phase_or_against_a_duty_is_refused_and_changes_nothing() -> None:
    """A card, a pass or a vale before the cut, and a way the rules do not offer; a cut once dealt; a card against
    the duty to follow or to beat, a 2 led unguarded, a vale not held or the pass during the play; a card, a cut or
    a vale not markable while seats are asked to mark: each refused, the lane as it was."""
    from brisca.actions import Cut, Declare, Play
    from brisca.cards import Suit

    batch = Batch([make_rules("chilean", {"cut_ways": ["alce", "golpe"]})], 4, size=1)
    ids = {**batch.codec.ids, Cut("pelada"): 118}
    rng = random.Random(6)
    seen: Counter[str] = Counter()

    for seed in range(80):
        game = Game(batch.rules[0], 4, seed=seed)
        batch.load(0, game)
        assert isinstance(game, RuledGame)
        refused(batch, ids, Play(game.deck[0]), PASS, Declare(Suit.OROS), Cut("pelada"))
        game.apply(Cut("golpe" if seed % 2 else "alce"))
        batch.apply(0, ids[game.history[-1][1]])
        refused(batch, ids, Cut("alce"), Cut("golpe"))
        while not game.is_over():
            legal = game.legal_actions()
            turn = game.turn
            assert turn is not None
            if game.phase == "mark":
                refused(batch, ids, *(Play(c) for c in game.hand(turn)[:2]), Cut("alce"),
                        *(Declare(s) for s in Suit if Declare(s) not in legal))
                seen["mark"] += 1
            else:
                against = [Play(c) for c in game.hand(turn) if Play(c) not in legal]
                refused(batch, ids, *against, PASS, *(Declare(s) for s in Suit if Declare(s) not in legal))
                seen["duty"] += bool(against)
                seen["two"] += any(not game.trick and a.card.rank == 2 for a in against)
            action = rng.choice(legal)
            game.apply(action)
            batch.apply(0, ids[action])
            assert batch.legal_ids(0) == [ids[a] for a in game.legal_actions()] and batch.turn(0) == game.turn
        result = game.result()
        assert result is not None and batch.result(0) == (tuple(result.side_points), result.winner)
    assert seen["mark"] > 20 and seen["duty"] > 200 and seen["two"] > 5, seen


def test_a_portena_capote_and_a_level_count_are_the_engine_s() -> None:
    """A side that takes all ten tricks wins the hand whatever the count (``capote: hand``), and a level count is
    a tie the engine deals again (``tie: replay``): no winner, a reward of the margin alone; found in random hands
    of the engine, replayed in the batch."""
    batch = Batch(["chilean"], 4, size=1)
    ids = batch.codec.ids
    rng = random.Random(7)
    found: Counter[str] = Counter()
    for seed in range(6000):
        game = Game("chilean", 4, dealer=seed % 4, seed=seed)
        moves = []
        while not game.is_over():
            action = rng.choice(game.legal_actions())
            game.apply(action)
            moves.append(ids[action])
        result = game.result()
        assert result is not None
        if result.reason not in ("capote", "tie") or found[result.reason] >= 3:
            continue
        found[result.reason] += 1
        batch.load(0, Game("chilean", 4, dealer=seed % 4, seed=seed))
        for aid in moves:
            batch.apply(0, aid)
        assert batch.is_over(0)
        assert batch.result(0) == (tuple(result.side_points), result.winner)
        assert [batch.reward(0, s) for s in range(4)] == [reward(game, s) for s in range(4)]
        if result.reason == "tie":
            assert result.winner is None and result.side_points[0] == result.side_points[1]
            assert batch.reward(0, 0) == 0.0
        else:
            assert result.winner is not None and batch.reward(0, result.winner) >= 1.0
        if min(found["capote"], found["tie"]) >= 3:
            break
    assert found["capote"] >= 1 and found["tie"] >= 1, found


@pytest.mark.parametrize(("presets", "players", "hands"), [(["chiamata", "chiamata-buia"], 5, 12),
                                                         (["rematada"], 3, 10)])
def test_the_plain_python_lanes_play_the_auctions_as_the_engine(presets: list[str], players: int, hands: int) -> None:
    """The same functions run as plain Python where numba is missing (here with numba's compiler off)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from collections import Counter; import test_batch as t;"
            f"seen = Counter(); n = t.play_along({presets!r}, {players}, hands={hands}, seed=70, seen=seen,"
            " with_cues=True, choose=t.bidding_low(0.5)); assert seen['made'] and seen['set'], seen; print(n)")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code, os.path.dirname(__file__)], env=env, capture_output=True,
                         text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.strip()) > hands * 30


def test_the_plain_python_lanes_play_portena_as_the_engine() -> None:
    """Porteña's cut, duties and vales as plain Python where numba is missing (here with numba's compiler off)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from collections import Counter; import test_batch as t;"
            "seen = Counter(); n = t.play_along(['chilean'], 4, hands=8, seed=71, seen=seen, with_cues=True,"
            " choose=t.mixed(0.5)); assert seen['cut'] == 8 and seen['declare'], seen; print(n)")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code, os.path.dirname(__file__)], env=env, capture_output=True,
                         text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.strip()) > 8 * 45


@pytest.mark.parametrize(("presets", "players"), [
    (["muerte-al-tres"], 2), (["muerte-al-tres", "spanish"], 6), (["scoperta"], 3), (["bixkla"], 4),
    (["chiamata", "chiamata-buia"], 5), (["rematada"], 3), (["chilean"], 4),
])
def test_the_trainer_plays_the_new_presets_in_lockstep(presets: list[str], players: int) -> None:
    """The trainer picks the lockstep self-play wherever :func:`covers` says the batch plays the presets, and its
    hands there keep what the self-play keeps: legal choices, every hand played to the end, zero-sum rewards between
    two sides."""
    from brisca.learn.train import batch_lanes, collect_batch, init_arrays, shape

    assert batch_lanes(None, 64, presets, players, None) == (64 if COMPILED else 0)
    inputs, actions = shape(presets, players)
    task = {"weights": init_arrays(inputs, actions, 16, 0), "league": [], "presets": presets, "players": players,
            "games": 24, "seed": 5, "gae": 0.95, "league_share": 0.0, "lanes": 8}
    many = collect_batch(task)
    assert many["games"] == 24 and many["obs"].shape[1] == inputs
    assert many["mask"][np.arange(len(many["act"])), many["act"]].all()
    if make_rules(presets[0]).sides(players) == 2:
        assert abs(many["reward"]) < 1e-9  # what one side wins the other loses
    if presets == ["bixkla"]:  # the signals are choices too
        assert (many["act"] >= 101).sum() > 50
    if presets == ["chilean"]:  # the cut is a choice in every hand, and the vales and their passes are choices too
        cuts = batch_block(presets[0], players, "cut")
        assert ((many["act"] >= cuts.start) & (many["act"] < cuts.stop)).sum() == 24
        declares = batch_block(presets[0], players, "declare")
        assert ((many["act"] >= declares.start) & (many["act"] < declares.stop)).sum() > 0
    if players == 5:  # chiamata: the bids, the passes and the calls are choices too
        assert (many["act"] >= 111).sum() > 24 * 2
    if presets == ["rematada"]:  # the bids and passes, the discards and the trumps named are choices too
        discards = batch_block(presets[0], players, "discard")
        trumps = batch_block(presets[0], players, "trump")
        assert ((many["act"] >= discards.start) & (many["act"] < discards.stop)).sum() == 24
        assert ((many["act"] >= trumps.start) & (many["act"] < trumps.stop)).sum() == 24


def batch_block(preset: str, players: int, name: str) -> Block:
    """The codec's block ``name`` for ``preset`` at ``players``."""
    return ActionCodec.for_rules(preset, players).block(name)


#: Rematada with its auction going the other way round: another preset of the same encoding and action ids.
REMATADA_AGAINST = make_rules("rematada", {"auction_direction": "against_play"})
#: Porteña with the duty to beat and trump a partner's card too: the same encoding and action ids.
CHILEAN_BEAT = make_rules("chilean", {"follow": "suit_beat_trump"})


@pytest.mark.parametrize(("presets", "players"), [(["spanish", "briscola"], 2), (["chiamata", "chiamata-buia"], 5),
                                                  (["rematada", REMATADA_AGAINST], 3), (["chilean", CHILEAN_BEAT], 4)])
def test_lockstep_lanes_match_games_played_beside_them(presets: list[str | Rules], players: int) -> None:
    """observe() plays every forced move and lists each lane's seat to decide, its input and mask; act() applies
    one id a row: the same as each lane's Game."""
    batch = Batch(presets, players, size=12, seed=3)
    encoders = [ObservationEncoder(p, players) for p in presets]
    rng = random.Random(5)
    games = []
    for lane in range(12):
        p = lane % 2
        g = Game(presets[p], players, dealer=lane % players, seed=lane)
        batch.load(lane, g, p)
        games.append((g, p))
    steps = 0
    while True:
        obs, mask, lanes, seats = batch.observe()
        for g, _p in games:  # the engine plays its forced moves too
            while not g.is_over() and len(g.legal_actions()) == 1:
                g.apply(g.legal_actions()[0])
        assert sorted(lanes.tolist()) == [i for i, (g, _p) in enumerate(games) if not g.is_over()]
        if not len(lanes):
            break
        ids = []
        for row, (lane, seat) in enumerate(zip(lanes, seats, strict=True)):
            g, p = games[lane]
            assert g.turn == seat
            enc = encoders[p]
            assert obs[row][:enc.size].tobytes() == enc.encode(g.view(int(seat))).tobytes()
            assert np.flatnonzero(mask[row]).tolist() == np.flatnonzero(enc.mask(g.view(int(seat)))).tolist()
            action = rng.choice(g.legal_actions())
            g.apply(action)
            ids.append(enc.codec.ids[action])
        batch.act(lanes, ids)
        steps += 1
    assert steps > 10
    rewards = batch.rewards(np.arange(12))
    assert rewards.tolist() == [[reward(g, s) for s in range(players)] for g, _p in games]
    assert not batch.live.any()


def test_random_deals_are_whole_decks_and_differ() -> None:
    batch = Batch(["spanish"], 4, size=50, seed=9)
    batch.deal_all()
    hands = set()
    for lane in range(50):
        cards = [c for s in range(4) for c in batch.hand(lane, s)] + batch.stock(lane)
        assert sorted(cards) == sorted(c.index for c in make_rules("spanish").deck_cards(4))
        assert all(len(batch.hand(lane, s)) == 3 for s in range(4))
        assert batch.turn(lane) == (batch.dealers[lane] + 1) % 4
        hands.add(tuple(batch.hand(lane, 0)))
    assert len(hands) > 45
    assert set(batch.dealers.tolist()) == {0, 1, 2, 3}
    again = Batch(["spanish"], 4, size=50, seed=1)
    again.seed(9)
    again.deal_all()
    assert (again.st == batch.st).all()  # the same seed, the same deals


def test_an_illegal_id_is_refused_and_changes_nothing() -> None:
    batch = Batch(["briscola"], 2, size=1)
    game = Game("briscola", 2, seed=1)
    batch.load(0, game)
    before = batch.st.copy()
    held = set(batch.legal_ids(0))
    stranger = next(c for c in range(48) if c not in held)
    with pytest.raises(ValueError, match="not legal"):
        batch.apply(0, stranger)
    with pytest.raises(ValueError, match="not legal"):
        batch.act([0], [48 + stranger])  # an exchange in a game without it
    assert (batch.st == before).all()


def test_every_preset_with_a_stock_chiamata_rematada_and_chilean_are_covered_at_every_player_count() -> None:
    """The batch refuses no preset: none that turns a trump and draws (every trump exchange such a preset uses
    included), nor Briscola Chiamata's (a called card), Brisca Rematada (a talon and a named trump) nor Chilean
    brisca porteña (the cutter's choice of the deal, the duties, the vales) at any player count it allows."""
    from brisca.rules import find_variant, variant_names

    dealt_out = set()
    for name in variant_names():
        rules = find_variant(name)
        assert all(covers(rules, n) for n in rules.player_counts), name
        if rules.dealt_out:
            dealt_out.add(rules.variant)
    assert dealt_out == {"chiamata", "chiamata-buia", "rematada", "chilean"}
    assert {find_variant(name).trump_exchange for name in variant_names() if not find_variant(name).dealt_out} <= {
        "off", "after_win", "any_time", "before_penultimate"}


def test_covers_only_what_it_plays() -> None:
    assert covers("spanish", 2) and covers("briscola", 4)
    for preset in ("chilean", "rematada", "chiamata"):
        assert not covers(preset, 2) and not covers(preset, 3 if preset == "chilean" else 4)
    assert covers("chiamata", 5) and covers("chiamata-buia", 5) and covers("rematada", 3) and covers("chilean", 4)
    refused = 0
    unplayed: list[dict[str, object]] = [
        {"kill_three": True}, {"open_hands": True}, {"declarations": "on_lead"}, {"claim": True}, {"arrastro": True},
        {"deal_look": True},
        {"partners_look": True}, {"signals": "partner"}, {"trump_from": "named"}, {"hand_size": 9}]
    for option in unplayed:
        try:
            variant = make_rules("chilean", option)
        except ValueError:  # (options the rules refuse with Porteña's)
            continue
        assert not covers(variant, 4), option
        refused += 1
    assert refused >= 8
    for options in ({"bidding": "low_card"}, {"kill_three": True}, {"open_hands": True}):
        assert not covers(make_rules("chiamata", options), 5), options
    beyond: list[dict[str, object]] = [{"kill_three": True}, {"open_hands": True}, {"talon": 3}, {"follow": "suit"},
                                       {"declarations": "vales"}, {"claim": True}, {"arrastro": True},
                                       {"deal": "golpe"}]
    for extra in beyond:
        try:
            rules = make_rules("rematada", extra)
        except ValueError:  # (options the rules refuse with Rematada's)
            continue
        assert not covers(rules, 3), extra
    assert not covers(make_rules("spanish", {"signals": "combination"}), 4)
    for kind in ("out_of_turn", "announced"):  # no preset with a stock exchanges so
        assert not covers(make_rules("spanish", {"trump_exchange": kind}), 2)
    assert not covers("briscola", 6)  # not a player count of the preset
    with pytest.raises(ValueError, match="does not play chilean"):
        Batch(["chilean"], 2)
    with pytest.raises(ValueError, match="does not play chilean"):
        Batch([make_rules("chilean", {"arrastro": True})], 4)
    with pytest.raises(ValueError, match="do not share one action space"):
        Batch(["bixkla", "briscola"], 4)  # (the high card's signal has an id of its own)
    with pytest.raises(ValueError, match="deal different hands or decks"):
        Batch(["spanish", make_rules("spanish", {"hand_size": 4})], 2)


def test_quantize_and_policy() -> None:
    batch = Batch(["spanish", "briscola"], 2, size=64, seed=2)
    batch.deal_all()
    obs, mask, _lanes, _seats = batch.observe()
    rows = np.arange(0, len(obs), 3)
    assert (quantize(obs, rows) == np.rint(obs[rows] * 255).astype(np.uint8)).all()
    net = Net(_fresh(batch.inputs, batch.codec.size), {"presets": ["spanish", "briscola"], "players": 2})
    rng = np.random.default_rng(1)
    ids, logp, values = policy(net.arrays, obs, mask, rng.random(len(obs)))
    logits, want_values = net.forward(obs)
    assert np.allclose(values, want_values, atol=1e-4)
    for row, aid in enumerate(ids):
        assert mask[row, aid]
        legal = np.flatnonzero(mask[row])
        z = logits[row, legal].astype(np.float64)
        want = z[list(legal).index(aid)] - z.max() - np.log(np.exp(z - z.max()).sum())
        assert abs(logp[row] - want) < 1e-4
    # a uniform number near 0 takes the first legal id, near 1 the last
    first, _lp, _v = policy(net.arrays, obs, mask, np.zeros(len(obs)))
    last, _lp, _v = policy(net.arrays, obs, mask, np.full(len(obs), 1 - 1e-12))
    assert [int(np.flatnonzero(m)[0]) for m in mask] == first.tolist()
    assert [int(np.flatnonzero(m)[-1]) for m in mask] == last.tolist()


def _fresh(inputs: int, actions: int) -> dict[str, object]:
    from brisca.learn.train import init_arrays

    arrays = init_arrays(inputs, actions, 32, seed=4)
    arrays["wp"] = arrays["wp"] * 300  # a policy far from uniform, so the test of log-probabilities means something
    return arrays


def test_the_research_page_examples_run() -> None:
    """The lockstep batch's and the vector environment's examples in docs/research.md, as written."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text(encoding="utf-8")
    part = page.split("## Many hands at once", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", part, re.S)
    assert len(blocks) == 2
    exec(compile(blocks[0], "research.md", "exec"), {})
    pytest.importorskip("gymnasium")
    exec(compile(blocks[1], "research.md", "exec"), {})


@pytest.mark.parametrize(("presets", "players"), [
    (["spanish", "briscola"], 2), (["spanish", "briscola"], 4), (["chiamata", "chiamata-buia"], 5),
    (["rematada", REMATADA_AGAINST], 3), (["chilean", CHILEAN_BEAT], 4),
])
def test_hands_in_progress_replay_as_the_engine_plays_them(presets: list[str | Rules], players: int) -> None:
    """``replay`` sets many lanes to hands part played (deck, dealer, history) in one call: every seat's input, the
    turn and the legal ids then match the engine's; played on, the margins match :func:`margin`'s (under a
    contract, side 0 the declarer's and 1 the others')."""
    from brisca.agents.exact import margin

    rules = [make_rules(p) for p in presets]
    batch = Batch(rules, players, size=24, cues=True)
    enc = ObservationEncoder(rules[0], players)
    rng = random.Random(players)
    choose = bidding_low(0.3)
    games: list[Game] = []
    of_lane: list[int] = []
    histories: list[list[int]] = []
    for lane in range(batch.size):
        p = lane % 2
        game = Game(rules[p], players, dealer=rng.randrange(players), seed=rng.getrandbits(32))
        for _ in range(rng.randrange(0, 40 // players * players)):
            if game.is_over():
                break
            game.apply(choose(game, game.legal_actions(), rng))
        games.append(game)
        of_lane.append(p)
        histories.append([enc.codec.ids[a] for _s, a in game.history])
    width = max(len(h) for h in histories) + 1
    ids = np.zeros((batch.size, width), np.int64)
    for lane, h in enumerate(histories):
        ids[lane, :len(h)] = h
    decks = [[c.index for c in g.deck] for g in games]
    batch.replay(np.arange(batch.size), decks, [g.dealer for g in games], ids, [len(h) for h in histories], of_lane)
    for lane, game in enumerate(games):
        assert batch.is_over(lane) == game.is_over() and batch.turn(lane) == game.turn
        for seat in range(players):
            got = batch.features(lane, seat)
            assert got[:enc.size].tobytes() == ObservationEncoder(rules[of_lane[lane]], players).encode(
                game.view(seat)).tobytes()
            assert got[enc.size + len(rules):].tobytes() == cues(game.view(seat)).tobytes()
        while not game.is_over():
            action = choose(game, game.legal_actions(), rng)
            game.apply(action)
            batch.apply(lane, enc.codec.ids[action])
    lanes = np.arange(batch.size)
    for side in range(2):
        got = batch.margins(lanes, side, 0.01)
        assert got.tolist() == pytest.approx([margin(g, side, 0.01) for g in games], abs=1e-12)
    # an illegal history is refused with the row that broke
    ids[3, 0] = 999  # no action has this id
    with pytest.raises(ValueError, match="row 3"):
        batch.replay(lanes[:4], decks[:4], [g.dealer for g in games[:4]], ids[:4], [1] * 4, of_lane[:4])
    assert not batch.live[:4].any()


def test_greedy_takes_the_highest_legal_logit() -> None:
    batch = Batch(["spanish", "briscola"], 2, size=64, seed=5)
    batch.deal_all()
    obs, mask, _lanes, _seats = batch.observe()
    net = Net(_fresh(batch.inputs, batch.codec.size), {"presets": ["spanish", "briscola"], "players": 2})
    from brisca.envs.batch import greedy

    logits, _values = net.forward(obs)
    got = greedy(net.arrays, obs, mask)
    for row, aid in enumerate(got):
        legal = np.flatnonzero(mask[row])
        assert aid == legal[int(np.argmax(logits[row, legal]))]


def test_the_reward_s_margin_counts_the_way_the_hand_is_won() -> None:
    """Where the fewest points win (``mexican``) the margin the reward adds is the points fewer than the best
    other side's, not more: the tie-breaker pulls the way the win does (and the batch's reward is the engine's)."""
    rng = random.Random(5)
    for preset, sign in (("mexican", -1), ("spanish", 1)):
        for _ in range(6):
            game = Game(preset, 2, seed=rng.getrandbits(32))
            while not game.is_over():
                game.apply(rng.choice(game.legal_actions()))
            result = game.result()
            assert result is not None
            for seat in range(2):
                side = game.side_of(seat)
                won = 0.0 if result.winner is None else (1.0 if result.winner == side else -1.0)
                margin = sign * (result.side_points[side] - result.side_points[1 - side])
                assert reward(game, seat) == pytest.approx(won + 0.25 * margin / 240)


def test_a_chiamata_hand_pays_the_declarer_s_team_and_the_defenders_alike() -> None:
    """In Briscola Chiamata the reward is the team's, as the match scores it: the declarer and his called partner
    share the sign of the contract's result (the declarer twice the partner's, four times alone), every defender
    the other sign; the margin over the bid pulls each team its own way; a hand everybody passed pays nothing."""
    rng = random.Random(11)
    seen = Counter[str]()
    for _ in range(60):
        game = Game("chiamata", 5, seed=rng.getrandbits(32))
        while not game.is_over():
            legal = game.legal_actions()  # (bids mostly passed, so that some contracts are made)
            game.apply(PASS if PASS in legal and rng.random() < 0.8 else rng.choice(legal))
        result = game.result()
        assert result is not None
        c = result.contract
        if c is None:
            assert [reward(game, s) for s in range(5)] == [0.0] * 5
            seen["passed"] += 1
            continue
        made = result.reason == "made"
        took = sum(result.side_points[s] for s in c.side())
        for seat in range(5):
            won = (2.0 if c.alone else 1.0) if seat == c.declarer else 0.5 if seat == c.partner else -0.5
            lead = took - c.points if seat in c.side() else c.points - took
            assert reward(game, seat) == pytest.approx((won if made else -won) + 0.25 * lead / 240)
        team, defence = c.side(), set(range(5)) - c.side()
        assert len({reward(game, s) > 0 for s in team}) == 1 and len({reward(game, s) > 0 for s in defence}) == 1
        assert (reward(game, c.declarer) > 0) == made != (reward(game, min(defence)) > 0)
        seen["made" if made else "set"] += 1
    assert seen["made"] and seen["set"]
