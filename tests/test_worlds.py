"""Worlds sampled from a view agree with it, never depend on what it hides, and are uniform over what it allows."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from brisca import Game
from brisca.rules import find_variant, variant_names
from brisca.worlds import WorldError, sample_world, sample_worlds

CONFIGS = [(v, n, {}) for v in variant_names() for n in find_variant(v).player_counts] + [
    ("spanish", 4, {"follow": "suit_beat_trump", "arrastro": True, "signals": "partner", "claim": True}),
    ("spanish", 6, {"follow": "descanso", "signals": "partner"}),
    ("spanish", 2, {"follow": "suit_trump", "follow_from": "empty_stock"}),
    ("spanish", 3, {"follow": "suit", "trump_rotation": True}),
    ("spanish", 6, {"deck": 48, "trump_exchange": "any_time", "deal_look": True}),
    ("chilean", 4, {"deal": "golpe"}),
    ("chilean", 4, {"follow": "suit_beat_trump"}),
    ("chilean", 4, {"deal": "pelada", "signals": "partner"}),
    ("chiamata", 5, {"bidding": "low_card"}),
]

FIELDS = ("hand", "trick", "tricks", "stock_count", "hand_sizes", "face_up", "seat_points", "exchanges",
          "legal_actions", "turn", "leader", "received", "arrastro", "turned", "trump", "history", "signals",
          "phase", "bids", "contract", "talon", "discards", "declarations", "shown")


def _position(variant: str, players: int, options: dict[str, object], seed: int) -> Game | None:
    game = Game(variant, players, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 60)):
        if game.is_over():
            return None
        game.apply(rng.choice(game.legal_actions()))
    return None if game.is_over() else game


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS)
def test_a_world_shows_the_viewer_exactly_what_it_saw(variant: str, players: int, options: dict[str, object]) -> None:
    checked = 0
    for seed in range(25):
        game = _position(variant, players, options, seed)
        if game is None:
            continue
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        world = sample_world(view, seed=seed)
        again = world.view(seat)
        for name in FIELDS:
            assert getattr(again, name) == getattr(view, name), name
        assert sorted(again.known, key=str) == sorted(view.known, key=str)
        assert sorted(world.deck) == sorted(game.deck)
        checked += 1
    assert checked >= 10


def _hide(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with the cards ``seat`` cannot see dealt differently."""
    view = game.view(seat)
    fixed = {c for _s, c in view.known}
    other = game.clone()
    hidden_slots: list[tuple[list[object], int]] = []
    for s in range(game.players):
        if s == seat:
            continue
        for i, a in enumerate(other._hands[s]):
            if a.card not in fixed:
                hidden_slots.append((other._hands[s], i))  # type: ignore[arg-type]
    start = 1 if game.turned is not None else 0
    for i in range(start, len(other._stock)):
        hidden_slots.append((other._stock, i))  # type: ignore[arg-type]
    cards = [slot[0][slot[1]] for slot in hidden_slots]
    rng.shuffle(cards)
    for (lst, i), card in zip(hidden_slots, cards, strict=True):
        lst[i] = card
    return other


@pytest.mark.parametrize("players", [2, 4])
def test_worlds_do_not_depend_on_the_hidden_cards(players: int) -> None:
    for seed in range(20):
        game = _position("spanish", players, {}, seed)
        if game is None or not game.stock_count:
            continue
        seat = game.turn
        assert seat is not None
        other = _hide(game, seat, random.Random(seed))
        assert other.view(seat) == game.view(seat)
        a = sample_world(game.view(seat), seed=7)
        b = sample_world(other.view(seat), seed=7)
        assert a.deck == b.deck


def test_same_seed_same_world_and_different_seeds_differ() -> None:
    game = _position("spanish", 2, {}, 3)
    assert game is not None
    view = game.view(game.turn)
    assert sample_world(view, seed=1).deck == sample_world(view, seed=1).deck
    decks = {sample_world(view, seed=s).deck for s in range(20)}
    assert len(decks) > 10


def test_hidden_cards_are_dealt_uniformly() -> None:
    """Every unseen card is equally likely to be in the opponent's hand (2 players, mid-hand)."""
    game = Game("spanish", 2, seed=11)
    rng = random.Random(0)
    for _ in range(10):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    unseen = view.unseen_cards()
    hidden = view.hand_sizes[1 - seat] - sum(1 for s, _c in view.known if s == 1 - seat)
    counts: Counter[object] = Counter()
    worlds = sample_worlds(view, 3000, seed=5)
    for w in worlds:
        for c in w.hand(1 - seat):
            if c in unseen:
                counts[c] += 1
    expected = 3000 * hidden / len(unseen)
    for c in unseen:
        assert abs(counts[c] - expected) < 5 * expected**0.5, (c, counts[c], expected)


def test_a_duty_of_play_is_respected() -> None:
    """Under follow: suit, a seat that did not follow is never given a card of that suit it held then."""
    seen = 0
    for seed in range(200):
        game = Game("spanish", 2, seed=seed, options={"follow": "suit"})
        rng = random.Random(seed)
        while not game.is_over() and game.stock_count:
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over():
            continue
        # Stock gone: the opponent's hand is fully determined, so one world only, and it must replay.
        seat = game.turn
        assert seat is not None
        world = sample_world(game.view(seat), seed=seed)
        assert set(world.hand(1 - seat)) == set(game.hand(1 - seat))
        seen += 1
    assert seen > 50


def test_a_contradictory_view_is_refused() -> None:
    game = Game("spanish", 2, seed=1)
    view = game.view(0)
    import dataclasses

    bad = dataclasses.replace(view, hand_sizes=(3, 9))
    with pytest.raises(WorldError):
        sample_world(bad, seed=0, tries=3)


# ----------------------------------------------------------- dealt-out games


def _dealt_position(variant: str, players: int, options: dict[str, object], seed: int, left: int) -> Game | None:
    """A random position of a dealt-out game in the card play, with about ``left`` cards still in the hands."""
    game = Game(variant, players, seed=seed, options=options, dealer=seed % players)
    rng = random.Random(seed)
    while not game.is_over() and (game.phase != "play" or sum(len(game.hand(s)) for s in range(players)) > left):
        game.apply(rng.choice(game.legal_actions()))
    return None if game.is_over() else game


@pytest.mark.parametrize(("variant", "options"), [
    ("chilean", {}), ("chilean", {"deal": "golpe"}), ("chilean", {"deal": "pelada"}), ("rematada", {}),
    ("chiamata", {}),
])
def test_dealt_out_worlds_from_every_seat_late_in_the_hand(variant: str, options: dict[str, object]) -> None:
    """Late positions (tight voids), every seat and a spectator: the world replays to exactly the same view."""
    players = find_variant(variant).player_counts[0]
    checked = 0
    for seed in range(30):
        game = _dealt_position(variant, players, options, seed, left=random.Random(seed).randrange(2, 14))
        if game is None:
            continue
        for seat in [*range(players), None]:
            view = game.view(seat)
            world = sample_world(view, seed=seed)
            again = world.view(seat)
            for name in FIELDS:
                assert getattr(again, name) == getattr(view, name), (seed, seat, name)
            assert world.stock_count == 0 and sorted(world.deck) == sorted(game.deck)
            checked += 1
    assert checked >= 60


def _voids(game: Game) -> list[tuple[int, str, object]]:
    """(seat, what, suit/card) that the duties of play revealed: 'suit' not followed, 'trump' not trumped,
    'above' a card of the suit led it did not beat (the best card of that suit then).  Under the descanso a seat
    owes nothing to its partner's card: following it low shows nothing, nor does a plain card under it when it is
    not a trump."""
    out: list[tuple[int, str, object]] = []
    strength = game.rules.strength_table
    descanso = game.rules.follow == "descanso"
    for trick in game.tricks:
        led = trick.cards[0].suit
        best, holder = trick.cards[0], trick.leader
        for i, c in enumerate(trick.cards[1:], start=1):
            seat = trick.seat_of(i, game.players)
            mate = descanso and game.side_of(holder) == game.side_of(seat)
            if c.suit is not led:
                out.append((seat, "suit", led))
                if c.suit is not game.trump and not (mate and best.suit is not game.trump):
                    out.append((seat, "trump", game.trump))
            elif best.suit is led and strength[c.index] < strength[best.index] and not mate:
                out.append((seat, "above", best))
            if (c.suit is best.suit and strength[c.index] > strength[best.index]) or (
                c.suit is game.trump and best.suit is not game.trump
            ):
                best, holder = c, seat
    return out


def test_chilean_worlds_respect_the_duties_and_the_cards_shown() -> None:
    """Follow, beat, trump: no world gives a seat a card it showed it lacked; shown cards and the dealer's
    trump card stay with their holders."""
    checked = 0
    for seed in range(40):
        options = {"deal": ("alce", "golpe", "pelada")[seed % 3]}
        game = _dealt_position("chilean", 4, options, seed, left=14)
        if game is None:
            continue
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        strength = game.rules.strength_table
        voids = [v for v in _voids(game) if v[0] != seat]
        for k in range(5):
            world = sample_world(view, seed=k)
            for other, what, x in voids:
                hand = world.hand(other)
                if what in ("suit", "trump"):
                    assert not any(c.suit is x for c in hand), (seed, other, what, x, hand)
                else:
                    assert not any(c.suit is x.suit and strength[c.index] > strength[x.index]  # type: ignore[attr-defined]
                                   for c in hand), (seed, other, x, hand)
            for s, c in view.known:
                assert c in world.hand(s)
            assert world.turned == game.turned and world.dealt_hand(game.dealer)[-1] == game.turned
            assert [(s, c) for s, c in world.view(seat).shown] == list(view.shown)
        checked += bool(voids)
    assert checked >= 10


def test_chilean_worlds_ask_no_seat_the_history_did_not_ask() -> None:
    """After a vale is marked, a seat is asked again only if it may mark another: a world where it holds the other
    pair of a card in the trick would ask it again, so the view rules that world out. Random play, found by a
    search of random games (8 of 30 worlds broke this before it was checked)."""
    seed = 2140
    rng = random.Random(seed)
    game = Game("chilean", 4, seed=seed)
    for _ in range(43):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.turn)
    assert view.phase == "play" and type(view.history[-1][1]).__name__ == "Declare"
    draws = random.Random(seed)
    for _ in range(30):
        world = sample_world(view, draws)
        assert world.turn == view.turn and world.phase == view.phase
        assert set(world.legal_actions()) == set(view.legal_actions)


def test_rematada_worlds_hide_the_declarers_discards() -> None:
    """A defender's worlds: the talon went to the declarer (in his hand, his discards or played), his discards
    are two cards he had and vary between worlds, and the points the defender sees do not depend on them."""
    varied = 0
    for seed in range(40):
        game = _dealt_position("rematada", 3, {}, seed, left=20)
        if game is None or game.contract is None:
            continue
        declarer = game.contract.declarer
        seat = (declarer + 1) % 3
        view = game.view(seat)
        assert view.discards == () and len(view.talon) == 2
        assert view.seat_points[declarer] == sum(t.points for t in view.tricks if t.winner == declarer)
        discards = set()
        for k in range(12):
            world = sample_world(view, seed=k)
            assert world.contract == game.contract
            pile = world.discards  # type: ignore[attr-defined]
            assert len(pile) == 2 and not set(pile) & set(view.hand)
            played = {c for s, a in world.history if s == declarer for c in [getattr(a, "card", None)] if c}
            for c in view.talon:
                assert c in world.hand(declarer) or c in pile or c in played
            assert set(pile) <= set(world.dealt_hand(declarer)) | set(view.talon)
            discards.add(pile)
        varied += len(discards) > 1
    assert varied >= 10


def test_chiamata_worlds_place_the_called_card_anywhere_hidden() -> None:
    """The called card's holder is hidden: worlds put it in different hands (never the viewer's, unless the
    viewer holds it), and once it is played its holder is fixed."""
    spread = fixed = 0
    for seed in range(60):
        game = _dealt_position("chiamata", 5, {}, seed, left=35)
        if game is None or game.contract is None:
            continue
        called = game.contract.called
        assert called is not None
        for seat in range(5):
            view = game.view(seat)
            holders = set()
            for k in range(8):
                world = sample_world(view, seed=k)
                holders.add(world.contract.partner)  # type: ignore[attr-defined]
            if called in view.hand or called in view.played_cards():
                assert holders == {game.contract.partner}
                fixed += 1
            else:
                assert seat not in holders
                spread += len(holders) > 1
    assert spread >= 20 and fixed >= 5


def test_a_sampler_draws_the_same_worlds_as_sample_world() -> None:
    from brisca.worlds import WorldSampler

    game = Game("spanish", 4, seed=12)
    rng = random.Random(12)
    for _ in range(9):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.turn)
    a, b = random.Random(5), random.Random(5)
    sampler = WorldSampler(view)
    for _ in range(20):
        assert sampler.draw(a).deck == sample_world(view, b).deck


def test_worlds_with_a_drawn_past_show_the_viewer_what_it_saw_and_vary_the_past() -> None:
    """``past=True``: the same future as a plain draw would allow (every view field the viewer saw), and when the
    opponent received its cards varies from world to world, where the plain draw places them the same way."""
    from brisca.worlds import WorldSampler

    varied = 0
    for seed in range(8):
        game = Game("spanish" if seed % 2 else "briscola", 2, seed=seed)
        rng = random.Random(seed)
        while game.stock_count > 10:
            game.apply(rng.choice(game.legal_actions()))
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        other = 1 - seat
        held = [a.card for a in game._hands[other]]
        sampler = WorldSampler(view)
        pasts = set()
        plain = set()
        for k in range(12):
            world = sampler.draw(random.Random(k), 2, {other: held}, past=True)
            again = world.view(seat)
            for name in FIELDS:
                assert getattr(again, name) == getattr(view, name), name
            assert sorted(a.card for a in world._hands[other]) == sorted(held)
            pasts.add(tuple(world.deck))
            plain.add(tuple(sampler.draw(random.Random(k), 2, {other: held}).deck[:20]))
        assert len(plain) == 1  # (the stock's unseen order is drawn; the first 20 cards dealt were received)
        varied += len(pasts) > 1
    assert varied >= 6
