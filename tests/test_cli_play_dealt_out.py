"""``brisca play`` for the dealt-out games: ``chilean``, ``rematada`` and ``chiamata`` (and its ``low_card`` auction).

Whole matches run end to end through a real process, stdin piped in, like ``test_cli_play_variants.py``
(its helpers are reused: no traceback and no escape code anywhere). The checks that need the engine's
hidden state (the talon, the discards, the hidden partner) to prove the screen did not show it run in
process, with a scripted person who answers from the legal actions of their own view, the way a person
reads them off the screen.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from brisca.actions import Action, Bid, Call, Declare, Discard, Pass, Play, RankBid, TrumpChoice
from brisca.agents import Agent, make_agent
from brisca.cards import Card, Lang, Rank
from brisca.cli.play import Outcome, Table, TerminalGame, agent_seed
from brisca.game import Game, HandResult, Match, RuledGame, View
from brisca.i18n import Messages
from brisca.rulebook import card_notation
from brisca.rules import make_rules
from test_cli_play import brisca, replay

#: The computer players of the end-to-end runs: the default level (``--ai`` left out). Put ``"--ai", "easy"``
#: here to run them against random players.
AI: tuple[str, ...] = ()

#: An answer for every prompt of these games, in a cycle: a pass, a bid, a discard by positions, a suit,
#: a call, a declaration, then card positions. Each prompt takes the first that fits and explains the rest.
CYCLE = "\n".join(["pass", "100", "61", "1 2", "O", "3O", "declare O", *map(str, range(1, 11))]) + "\n"
STDIN = CYCLE * 400

OVER = {"en": "Match over", "es": "Fin de la partida", "it": "Partita finita"}
AUCTION_WON = {"en": "wins the auction with", "es": "gana la subasta con", "it": "vince l'asta con"}


def play(*args: str, stdin: str = STDIN) -> str:
    """``brisca play ARGS`` that must exit 0; its transcript."""
    proc = brisca("play", *args, stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


def ruled(game: Game) -> RuledGame:
    """The engine's hand of a dealt-out game, to read what it hides (tests only: the terminal may not)."""
    assert isinstance(game, RuledGame)
    return game


def card_re(card: Card) -> str:
    """A card's notation as a word: ``1O`` but not the end of ``11O``."""
    return rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])"


# ---------------------------------------------------------------- whole matches, end to end

MATCHES = [
    ("chilean", 4, (), "es"),
    ("chilean", 4, ("deal=golpe",), "en"),
    ("chilean", 4, ("deal=pelada",), "it"),
    ("rematada", 3, (), "en"),
    ("chiamata", 5, (), "it"),
    ("chiamata", 5, ("bidding=low_card",), "en"),
    ("chiamata-buia", 5, (), "es"),
]


@pytest.mark.parametrize(("variant", "players", "rules", "lang"), MATCHES)
def test_a_whole_match_in_the_terminal(
    variant: str, players: int, rules: tuple[str, ...], lang: str, tmp_path: Path
) -> None:
    record = tmp_path / "match.json"
    args = ["--variant", variant, "-p", str(players), *AI, "--seed", "3", "--lang", lang, "--save", str(record)]
    for rule in rules:
        args += ["-r", rule]
    out = play(*args)
    assert OVER[lang] in out
    assert len(replay(record)["hands"]) == len(re.findall(r"^(Hand|Mano) \d+\. ", out, re.MULTILINE))
    if variant == "chilean":
        # The dealer's trump card is announced and shown while he holds it; the hand ends with the last trick.
        assert {"en": "by the dealer's card", "es": "por la carta del que reparte",
                "it": "dalla carta del mazziere"}[lang] in out
        assert {"en": "bonus for last trick, 10 points", "es": "premio por última baza, 10 puntos",
                "it": "10 punti"}[lang] in out
        if rules:
            assert {"en": "Shown face up at the deal:", "it": "Scoperte nella distribuzione:"}[lang] in out
    else:
        assert AUCTION_WON[lang] in out
        if variant == "rematada":  # the contract's score is worth its game points only: those are told
            assert {"en": "Game points won in this hand:", "es": "Puntos de juego ganados en esta mano:",
                    "it": "Punti gioco vinti in questa mano:"}[lang] in out
            assert "Match points for this hand:" not in out and "Puntos de la partida" not in out
        else:
            assert {"en": "Match points for this hand:", "es": "Puntos de la partida en esta mano:",
                    "it": "Punti della partita in questa mano:"}[lang] in out
    if variant.startswith("chiamata"):
        # the Italian notation, and the names in the language of the screen
        name = {"en": r"\w+ of (coins|cups|swords|clubs)", "it": r"\w+ di (denari|coppe|spade|bastoni)",
                "es": r"\w+ de (oros|copas|espadas|bastos)"}[lang]
        assert re.search(rf"\b[A2-7FCR][DCSB] {name}", out)
        assert not re.search(r"\b\d+[OE] ", out)
        assert {"en": "has been played:", "es": "Se ha jugado", "it": "È uscita"}[lang] in out
    if variant == "chiamata-buia":  # the call comes after a first trick played without trumps
        assert "sale a la primera baza, que se juega sin triunfo; la llamada viene después." in out
        assert "aún ninguno: lo declara la llamada tras la primera baza" in out


# ---------------------------------------------------------------- a scripted person, in process


def answer(view: View, rng: random.Random, *, declare: bool = False) -> str:
    """A line the person could type for a legal action of their view, in the forms the prompts offer: cards in the
    deck's notation, or in the Spanish one where that reads the same (not 10 in an Italian deck)."""
    legal = view.legal_actions
    notation = card_notation(view.rules)

    def written(card: Card) -> str:
        return card.text(notation) if card.rank == Rank.JACK else rng.choice([card.text(notation), str(card)])

    if not legal:  # a cut, or a prompt between hands
        return ""
    if declare and any(isinstance(a, Declare) for a in legal):
        action: Action = next(a for a in legal if isinstance(a, Declare))
    elif view.phase == "bid" and Pass() in legal and rng.random() < 0.5:
        action = Pass()
    elif view.phase == "bid":
        action = next((a for a in legal if not isinstance(a, Pass)), Pass())  # the lowest bid there is
    else:
        action = rng.choice(legal)
    if isinstance(action, Bid):
        return rng.choice([str(action.points), f"bid {action.points}"])
    if isinstance(action, RankBid):
        rank = Rank(action.rank).text(notation)
        return rng.choice([rank, f"bid rank {rank}"])
    if isinstance(action, Discard):
        if rng.random() < 0.5:
            return " ".join(str(view.hand.index(c) + 1) for c in action.cards)
        return f"discard {' '.join(map(written, action.cards))}"
    if isinstance(action, TrumpChoice):
        return rng.choice([action.suit.text(notation), action.suit.letter, action.text(notation)])
    if isinstance(action, Call):
        return rng.choice([written(action.card), f"call {written(action.card)}"])
    if isinstance(action, Play):
        return rng.choice([written(action.card), str(view.hand.index(action.card) + 1)])
    return action.text(notation)


class Passer:
    """A computer player that passes every auction it may and plays at random otherwise."""

    def __init__(self, seed: int) -> None:
        self.inner = make_agent("random", seed=seed)

    def act(self, view: View) -> Action:
        return Pass() if Pass() in view.legal_actions else self.inner.act(view)


def session(
    variant: str, players: int, seed: int, options: dict[str, object] | None = None, *,
    lang: Lang = "en", declare: bool = False, passers: bool = False, cut: bool = True,
    lines: Iterator[str] | None = None, seat: int = 0,
) -> tuple[Outcome, str, TerminalGame]:
    """A match in process, the person at ``seat`` scripted (or fed ``lines``), the others random players
    (``passers``: players that pass every auction they may)."""
    rules = make_rules(variant, options)
    buf = io.StringIO()
    console = Console(file=buf, no_color=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    agents: dict[int, Agent] = {
        s: Passer(agent_seed(seed, s) or 0) if passers else make_agent("random", seed=agent_seed(seed, s))
        for s in range(players) if s != seat
    }
    rng = random.Random(seed)
    start: Match | Table = Table(rules, players, seed) if cut else Match(rules, players, seed=seed)
    game = TerminalGame(start, seat, agents, Messages(lang), console, ai_name="easy", echo=True)

    def read() -> str:
        if lines is not None:
            return next(lines)
        return answer(game.view(), rng, declare=declare) if game.dealt else ""

    game.read_line = read
    return game.run(), buf.getvalue(), game


def hands_of(out: str) -> list[str]:
    """The transcript cut at each new hand ("Hand 2. Dealer: ...")."""
    parts = re.split(r"^(?=Hand \d+\. Dealer: )", out, flags=re.MULTILINE)
    return [p for p in parts if p.startswith("Hand ")]


@pytest.fixture
def view_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal reads nothing but views: no hand, talon, discard or contract straight from the engine."""

    def forbidden(self: Game, *args: object) -> object:
        raise AssertionError("the terminal read engine-level state")

    monkeypatch.setattr(Game, "stock", forbidden)
    for name in ("talon", "discards", "contract"):
        monkeypatch.setattr(RuledGame, name, property(forbidden))
    real_hand = Game.hand

    def hand(self: Game, seat: int) -> tuple[Card, ...]:
        caller = sys._getframe(1).f_code
        assert Path(caller.co_filename).parent.name == "game", f"{caller.co_name} read a hand directly"
        return real_hand(self, seat)

    monkeypatch.setattr(Game, "hand", hand)


@pytest.mark.usefixtures("view_only")
@pytest.mark.parametrize(("variant", "players", "options"), [
    ("rematada", 3, {}),
    ("chiamata", 5, {}),
    ("chiamata", 5, {"bidding": "low_card"}),
    ("chilean", 4, {"deal": "pelada"}),
    ("chiamata-buia", 5, {}),
])
def test_the_person_bids_discards_names_calls_and_declares(
    variant: str, players: int, options: dict[str, object]
) -> None:
    """Every kind of move, typed in the forms the prompts offer, through whole matches; the screen is built
    from the person's view alone (the fixture makes any other read fail)."""
    outcome, out, game = session(variant, players, 1, options, declare=True)
    assert outcome is Outcome.FINISHED
    assert "Match over." in out
    assert not re.search(r"^(I do not understand|Not allowed)", out, re.MULTILINE)  # every answer was legal
    mine = [a for g in game.match.games for s, a in g.history if s == 0]
    if variant == "rematada":
        assert any(isinstance(a, Discard) for a in mine) and any(isinstance(a, TrumpChoice) for a in mine)
        assert re.search(r"^You lay \S+ .*, \S+ .* face down in your pile \(\d+ points\)\.$", out, re.MULTILINE)
        assert re.search(r"^The talon is .*: you show it and take it\.$", out, re.MULTILINE)
    if variant.startswith("chiamata") and not options:
        assert any(isinstance(a, Call) for a in mine)
        assert re.search(r"^You call [A2-7FCR][DCSB] ", out, re.MULTILINE)
        assert re.search(r"^Contract: you must take \d+ points\. Trump: ", out, re.MULTILINE)
    if options.get("bidding") == "low_card":
        assert re.search(r"^You name the [A2-7FCR] \(\w+\)\.$", out, re.MULTILINE)
    if variant == "chilean":
        assert "Cut and deal: pelada" in out


# ---------------------------------------------------------------- bad input in the auction


def _rematada_card_not_held(seed: int) -> Card:
    """A card the person at seat 0 holds neither before nor after taking the talon."""
    game = ruled(Match("rematada", 3, seed=seed).game)
    held = set(game.view(0).hand) | set(game.talon)
    return next(c for c in game.rules.deck_cards(3) if c not in held)


def test_bad_bids_discards_and_trumps_are_explained_and_nothing_is_lost() -> None:
    seed = 2
    stranger = _rematada_card_not_held(seed)
    stdin = "\n".join(["90", "105", "300", "hello", "?", "230", "ZZ", str(stranger), "1", "1 1", "1 2", "X", "O", "q"])
    out = play("--variant", "rematada", "-p", "3", *AI, "--seed", str(seed), "--lang", "en", "--no-cut",
               stdin=stdin + "\n")
    for message in (
        "Too low: a bid must be at least 100 now, not 90.",
        "Bids go up in steps of 10 from 100: 105 is not one of them.",
        "Too high: the highest bid is 230, not 300.",
        '"hello" is not a bid: type a number from 100 to 230 in steps of 10, or pass.',
        '"zz" is not a card of your hand: type positions like 1 2 or cards like',
        f"You do not hold {stranger} ",
        "Lay exactly 2 cards, not 1.",
        "Name each card once.",
        '"X" is not a suit: type one of O coins (oros), C cups (copas), E swords (espadas), B clubs (bastos).',
    ):
        assert out.count(message) == 1, message
    assert "Auction: from the player after the dealer, bid from 100 to 230 points in steps of 10" in out  # help
    assert "You bid 230." in out
    assert "You win the auction with 230." in out
    assert re.search(r"^You lay .* face down in your pile \(\d+ points\)\.$", out, re.MULTILINE)
    assert "You name the trump: coins." in out
    assert "Contract: you must take 230 points. Trump: coins." in out
    assert "You leave the match." in out


def test_the_last_seat_must_bid_when_the_others_pass() -> None:
    # With no cut the last seat deals and speaks last: the person sits there.
    lines = iter(["pass", "100", "q"])
    outcome, out, _game = session("rematada", 3, 4, passers=True, cut=False, lines=lines, seat=2)
    assert outcome is Outcome.QUIT
    assert "You are the last one left and nobody has bid: your bid (from 100 to 230 in steps of 10)" in out
    assert out.count("You are the last one left and nobody has bid: you must bid at least 100.") == 1
    assert "You bid 100." in out and "You win the auction with 100." in out


def test_bad_bids_and_calls_in_chiamata() -> None:
    stdin = "\n".join(["60", "121", "abc", "bid", "120", "ZZ", "9O", "call 3O", "q"]) + "\n"
    out = play("--variant", "chiamata", "-p", "5", *AI, "--seed", "5", "--lang", "en", "--no-cut",
               stdin=stdin)
    for message in (
        "Too low: a bid must be at least 61 now, not 60.",
        "Too high: the highest bid is 120, not 121.",
        '"abc" is not a bid: type a number from 61 to 120, or pass.',
        '"bid" is not a bid: type a number from 61 to 120, or pass.',
        '"ZZ" is not a card: call one like',
        "9D nine of coins is not in this deck.",
    ):
        assert out.count(message) == 1, message
    assert "You win the auction with 120." in out
    assert "You call 3D three of coins." in out  # the Italian notation, the names of the screen's language
    assert "Called card: 3D three of coins (trump). Its holder is your hidden partner." in out


def test_a_low_card_auction() -> None:
    stdin = "\n".join(["8", "foo", "2", "X", "trump O", "q"]) + "\n"
    out = play("--variant", "chiamata", "-p", "5", "-r", "bidding=low_card", *AI, "--seed", "5",
               "--lang", "en", "--no-cut", stdin=stdin)
    assert out.count('"8" is not a rank you may name: name one of A (ace), 3 (three), R (king), ') == 1
    assert out.count('"foo" is not a rank you may name') == 1
    assert "You name the 2 (two)." in out
    assert "You win the auction with 2 (two)." in out
    assert out.count('"X" is not a suit: type one of D coins (denari), C cups (coppe), S swords (spade),'
                     ' B clubs (bastoni).') == 1
    assert "Name the suit of the called card, the 2 (two): it is trumps" in out
    assert "Contract: you must take 61 points. Trump: coins." in out
    assert "Called card: 2D two of coins (trump). Its holder is your hidden partner." in out


def test_bad_input_in_spanish_and_italian() -> None:
    out = play("--variant", "rematada", "-p", "3", *AI, "--seed", "2", "--lang", "es", "--no-cut",
               stdin="90\nhola\nq\n")
    assert "Demasiado baja: ahora la puja debe ser de al menos 100, no 90." in out
    assert '"hola" no es una puja: escribe un número de 100 a 230 de 10 en 10, o paso.' in out
    assert "Tu puja (de 100 a 230 de 10 en 10) o paso" in out
    out = play("--variant", "chiamata", "-p", "5", *AI, "--seed", "5", "--lang", "it", "--no-cut",
               stdin="50\nciao\npasso\nq\n")
    assert "Troppo bassa: ora l'offerta dev'essere almeno 61, non 50." in out
    assert '"ciao" non è un\'offerta: scrivi un numero da 61 a 120, o passo.' in out
    assert "Passi." in out


# ---------------------------------------------------------------- what must stay hidden


def test_the_talon_and_the_computers_discards_stay_hidden() -> None:
    told_talon = hidden_discards = 0
    for seed in range(6):
        outcome, out, game = session("rematada", 3, seed, passers=False, declare=False)
        assert outcome is Outcome.FINISHED
        for text, hand in zip(hands_of(out), map(ruled, game.match.games), strict=True):
            assert hand.contract is not None
            declarer = hand.contract.declarer
            won = re.search(r"^(You win|.* wins) the auction with \d+\.$", text, re.MULTILINE)
            assert won
            before, after = text[: won.start()], text[won.start():]
            for card in hand.talon:
                assert not re.search(card_re(card), before), (seed, card)
                assert re.search(card_re(card), after.split("\n", 2)[1])  # shown right after the auction
            told_talon += 1
            if declarer != 0:
                assert re.search(r"^Seat \d \(easy\) lays 2 cards face down in his pile\.$", after, re.MULTILINE)
                for card in set(hand.discards) - set(hand.talon):
                    assert not re.search(card_re(card), text), (seed, card)
                hidden_discards += 1
    assert told_talon and hidden_discards


def test_the_hidden_partner_is_told_only_once_the_called_card_is_played() -> None:
    checked = 0
    for seed in range(4):
        outcome, out, game = session("chiamata", 5, seed)
        assert outcome is Outcome.FINISHED
        for text, hand in zip(hands_of(out), map(ruled, game.match.games), strict=True):
            contract = hand.contract
            if contract is None:
                assert "everybody passed, the hand is void. Next dealer: " in text
                continue
            called, partner, declarer = contract.called, contract.partner, contract.declarer
            played = re.search(rf"^(You play|Seat {partner} \(easy\) plays) {called.text('italian')} ", text,
                               re.MULTILINE)
            assert played, (seed, called)
            before = text[: played.start()]
            assert not re.search(r"is the partner of|is your partner|plays alone|partner: |alone: ", before)
            if partner == 0 and declarer != 0:
                assert "you are the hidden partner of" in before
            elif partner != 0:
                assert "you are the hidden partner" not in before
            reveal = text[played.start():].split("\n")
            reveal_line = next(line for line in reveal if " has been played: " in line)
            if partner == declarer:
                assert "alone" in reveal_line
            elif partner == 0:
                assert "you are the partner of" in reveal_line
            else:
                assert f"Seat {partner} (easy) is " in reveal_line
            checked += 1
    assert checked


def test_a_hand_where_everybody_passes_is_void() -> None:
    lines = iter(["pass", "", "q"])  # the person passes; the next deal's cut is random; then leave
    outcome, out, game = session("chiamata", 5, 7, passers=True, cut=False, lines=lines)
    assert outcome is Outcome.QUIT
    assert "Hand 1: everybody passed, the hand is void. Next dealer: You." in out
    assert "Match points: You 0 · Seat 1 (easy) 0" in out
    assert game.match.games[1].dealer == 0


# ---------------------------------------------------------------- the Chilean deal, vales, the trump card


@pytest.mark.parametrize("deal", ["golpe", "pelada"])
def test_cards_shown_at_the_deal_and_the_dealers_trump_card_are_known_cards(deal: str) -> None:
    seed = 3
    view = Match("chilean", 4, seed=seed, options={"deal": deal}).game.view(0)
    out = play("--variant", "chilean", "-p", "4", "-r", f"deal={deal}", *AI, "--seed", str(seed),
               "--lang", "en", "--no-cut", stdin="q\n")
    turned = view.turned
    assert turned is not None
    assert f"Trump: {turned.suit.name_in('en')}, by the dealer's card {turned} " in out
    shown: dict[int, list[Card]] = {}
    for seat, card in view.shown:
        shown.setdefault(seat, []).append(card)
    assert shown
    for seat, cards in shown.items():
        who = "You" if seat == 0 else rf"Seat {seat} \(\w+(, partner)?\)"
        line = re.search(rf"^Shown face up at the deal: {who}: (?P<cards>.*)\.$", out, re.MULTILINE)
        assert line
        assert re.findall(r"\d+[OCEB]", line.group("cards")) == [str(c) for c in cards]
    known = [c for s, c in view.known]
    assert turned in known  # the dealer (seat 3) holds it: it is a known card for the person
    assert re.search(rf"^(Known cards)? +Seat 3 \(\w+\): {turned} ", out, re.MULTILINE)
    assert re.search(rf"^Trump +\w+ · {turned} \S+ .*, the card of Seat 3 \(\w+\) \(dealer\)", out, re.MULTILINE)


def test_vales_are_offered_declared_and_scored() -> None:
    for seed in range(40):
        outcome, out, _game = session("chilean", 4, seed, declare=True)
        assert outcome is Outcome.FINISHED
        if "You declare vales" in out:
            break
    else:
        pytest.fail("no deal where the person could declare vales")
    offered = re.search(r"^  \[declare ([OCEB])\] declare the king and knight of (\w+) \((20|40) points\)$", out,
                        re.MULTILINE)
    assert offered
    assert re.search(r"^You declare vales, king and knight of \w+: (20|40) points for the side that wins this trick\.$",
                     out, re.MULTILINE)
    assert re.search(r"^Declarations +You: \w+ \((20|40)\)$", out, re.MULTILINE)
    assert re.search(r": bonus for declaring 12[OCEB] king of \w+ and 11[OCEB] knight of \w+, (20|40) points\.$",
                     out, re.MULTILINE)


def test_declarations_in_rematada_and_a_refused_one() -> None:
    for seed in range(40):
        outcome, out, _game = session("rematada", 3, seed, declare=True)
        assert outcome is Outcome.FINISHED
        if "You declare the king and knight" in out:
            break
    else:
        pytest.fail("no deal where the person could declare")
    assert re.search(r": bonus for declaring 12[OCEB] .* (20|40) points\.$", out, re.MULTILINE)
    out = play("--variant", "rematada", "-p", "3", *AI, "--seed", "2", "--lang", "en", "--no-cut",
               stdin="pass\n" * 3 + "declare O\nq\n")
    assert out.count("A pair is declared when you lead one of its cards after winning a trick, holding both.") == 1


def test_the_same_seed_and_input_give_the_same_game() -> None:
    assert session("chiamata", 5, 9)[1] == session("chiamata", 5, 9)[1]


@pytest.fixture
def capotes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Taking all ten tricks is rare between random players: every hand's result is made a capote of side 1."""
    real = RuledGame.result

    def capote(self: RuledGame) -> HandResult | None:
        out = real(self)
        return out if out is None else dataclasses.replace(out, winner=1, reason="capote")

    monkeypatch.setattr(RuledGame, "result", capote)


@pytest.mark.usefixtures("capotes")
def test_capote_is_told_in_the_hand_summary() -> None:
    outcome, out, _game = session("chilean", 4, 2)
    assert outcome is Outcome.FINISHED
    assert "Capote: Other side (seats 1, 3) took every trick and wins the hand outright." in out
    assert re.search(r"^Other side \(seats 1, 3\) wins the hand\.$", out, re.MULTILINE)
    assert "Taking every trick (capote) wins the hand outright." in _game._dealt_out_rules()


@pytest.mark.usefixtures("capotes")
def test_capote_under_capote_match_is_told_as_winning_the_match() -> None:
    outcome, out, game = session("chilean", 4, 2, {"capote": "match"})
    assert outcome is Outcome.FINISHED
    assert "Capote: Other side (seats 1, 3) took every trick and wins the match outright." in out
    assert "wins the hand outright" not in out
    assert "Taking every trick (capote) wins the match outright." in game._dealt_out_rules()


@pytest.mark.parametrize(("variant", "players"), [("rematada", 3), ("chilean", 4)])
def test_declared_points_are_in_the_running_score(variant: str, players: int) -> None:
    """The Points row adds the declarations in (on lead: to the declarer's side; vales: to the trick's winner) and
    says how much of it they are; at the end of each hand that agrees with the engine's bonuses."""
    told = 0
    for seed in range(40):
        outcome, out, game = session(variant, players, seed, declare=True)
        assert outcome is Outcome.FINISHED
        for hand in game.match.games:
            result = hand.result()
            assert result is not None
            engine = [0] * hand.rules.sides(players)
            for bonus in result.bonuses:
                if bonus.why.endswith(" declared"):
                    engine[bonus.side] += bonus.points
            assert game.declared_points(hand.view(0)) == engine
        after = out.split("You declare", 1)[1] if "You declare" in out else ""
        shown = re.search(r"^Points +.*?(\d+) \((20|40|60|80) declared\)", after, re.MULTILINE)
        if shown:
            assert int(shown.group(1)) >= int(shown.group(2))
            told += 1
        if told >= 2:
            break
    assert told, "no deal where a declaration showed in the running score"


def test_a_huge_bid_is_refused_and_quoted_back_cut_short() -> None:
    huge = "9" * 5000
    out = play("--variant", "rematada", "-p", "3", *AI, "--seed", "2", "--lang", "en", "--no-cut",
               stdin=f"{huge}\nbid {huge}x\nq\n")
    assert out.count(f"Too high: the highest bid is 230, not {'9' * 39}….") == 1
    assert f'"bid {"9" * 35}…" is not a bid' in out
    assert "9" * 41 not in out
