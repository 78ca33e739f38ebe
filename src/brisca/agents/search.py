"""The ``expert`` player: search over worlds consistent with what it sees.

Perfect-information Monte Carlo: draw worlds from the view (:mod:`brisca.worlds`),
play every candidate action in each world, finish the hand with the heuristic's
judgment as rollout policy (or exactly, by alpha-beta, once few cards are left and
the stock is gone), and keep the action with the best average. Common worlds for
every candidate make the comparison fair: the luck of a world is the same for all.

When nothing is hidden (two players once the stock is gone) the position is solved
exactly, which :func:`solve` proves against a brute-force search in the tests. The expert
then keeps to the moves that end as well against any defence (won, drawn or lost) and,
among them, plays the one worth most against what it expects of the opponents
(:func:`expect`): a lost endgame is played for the mistakes a random or greedy player makes.
With two players and one hidden card left in the stock, every world the view allows is
searched to the end the same way: after that trick nothing is hidden, so the average of the
worlds' values is the exact value of each move.

Reading the other seats (:mod:`brisca.agents.inference`): a seat whose every card play
so far fits a model of play (the greedy rule) is taken to play by it. Its plays then
say which cards it did not hold (the worlds honour that), and in the rollouts it plays
by the model, so the search expects from it what it has been doing. The first play no
hand could explain under the model drops the model for that seat.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from brisca.actions import PLAYS, Action, Announce, Claim, Declare, Exchange, Play, Signal
from brisca.agents.auction import auction_action
from brisca.agents.heuristic import Situation, allies, choose, signal_to_make
from brisca.agents.inference import MODELS, Reading, beliefs, read_hands, skill_evidence
from brisca.agents.learned import applies, choose_learned
from brisca.agents.simple import _require_turn, greedy_card
from brisca.cards import Card, Rank
from brisca.game import Game, View
from brisca.worlds import Constraint, WorldError, WorldSampler, sample_world

#: Solve exactly (instead of rolling out) when at most this many cards are left in hands, stock gone.
EXACT_CARDS = {2: 8, 3: 9, 4: 8, 5: 5, 6: 6}
#: Play an exact endgame against the models of the other seats (:func:`best_exact`) at most this many cards from
#: the end (two players: always; the chance nodes of a random player cannot be cut).
MODEL_CARDS = 8
#: Worlds the compiled kernel plays in one call (the Python-to-numba crossing is paid once for them).
_BATCH = 8
#: With a time budget, how often (in worlds) the search asks whether its choice is settled.
_CHECK_EVERY = 256


def team_of(game: Game, seat: int) -> int:
    """The team ``seat`` plays for in a complete game: its side, or under a contract 0 for the declarer's
    side (the declarer and the called card's holder) and 1 for the defenders (engine-level: a sampled world
    knows the hidden partner)."""
    contract = getattr(game, "contract", None)
    if contract is not None and game.rules.contract != "off":
        return 0 if seat in contract.side() else 1
    return game.side_of(seat)


def margin(game: Game, side: int, weight: float = 1 / 600) -> float:
    """A finished hand's value for ``side``: 1 for a win, 0.5 a draw, 0 a loss, plus ``weight`` a point of margin.

    The margin term breaks ties between equally winning lines and, weighted up, lowers the
    variance of a search's estimates (points move far more smoothly than wins). Under a
    contract ``side`` is a :func:`team_of` and the margin is the declarer's side's points
    over (or under) the contract; under ``hand_winner: least`` it counts the points a side
    stays below the others.
    """
    result = game.result()
    assert result is not None
    if result.scores is not None:
        c = result.contract
        if c is None:
            return 0.5
        lead = sum(result.side_points[s] for s in c.side()) - c.points
        made = result.reason == "made"
        return float(made == (side == 0)) + (lead if side == 0 else -lead) * weight
    pts = result.side_points
    rest = [p for i, p in enumerate(pts) if i != side]
    if game.rules.hand_winner == "least":  # fewer points is better: the margin counts below the closest other side
        lead = (min(rest) if rest else 0) - pts[side]
    else:
        lead = pts[side] - (max(rest) if rest else 0)
    won = 0.5 if result.winner is None else float(result.winner == side)
    return won + lead * weight


def solve(game: Game, side: int, alpha: float = -math.inf, beta: float = math.inf) -> float:
    """The exact value (see :func:`margin`) of a perfect-information position for ``side``, by alpha-beta."""
    if game.is_over():
        return margin(game, side)
    maximizing = team_of(game, game.turn) == side  # type: ignore[arg-type]
    best = -math.inf if maximizing else math.inf
    for action in _ordered(game):
        child = game.clone()
        child.apply(action)
        value = solve(child, side, alpha, beta)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def _ordered(game: Game) -> list[Action]:
    """Legal card actions, strongest first (good moves early make alpha-beta cut sooner); signals left out."""
    strength = game.rules.strength_table
    acts = [a for a in game.legal_actions() if not isinstance(a, Signal)]
    return sorted(acts, key=lambda a: -strength[a.card.index] if hasattr(a, "card") else -99)


def expect(game: Game, side: int, greedy: Collection[int] = (), wild: Mapping[int, float] | None = None,
           weight: float = 1 / 600) -> float:
    """The value (see :func:`margin`) of a perfect-information position for ``side`` when the other side plays by
    models: a seat in ``greedy`` plays the greedy rule, a seat with a share ``p`` in ``wild`` makes a uniformly
    random card play (or the exchange) with chance ``p`` and its side's best move otherwise, the rest their side's
    best.

    Chance nodes cannot be cut as alpha-beta cuts, so this walks the whole tree: keep it to a few cards.
    """
    if game.is_over():
        return margin(game, side, weight)
    seat = game.turn
    assert seat is not None
    mine = team_of(game, seat) == side
    if not mine and seat in greedy:
        action = greedy_action(game)
        if action is not None:
            child = game.clone()
            child.apply(action)
            return expect(child, side, greedy, wild, weight)
    values = []
    for action in _ordered(game):
        child = game.clone()
        child.apply(action)
        values.append((action, expect(child, side, greedy, wild, weight)))
    if mine:
        return max(v for _a, v in values)
    worst = min(v for _a, v in values)
    share = (wild or {}).get(seat, 0.0)
    if not share:
        return worst
    plays = [v for a, v in values if a.__class__ in (Play, Exchange, Announce)] or [v for _a, v in values]
    return share * sum(plays) / len(plays) + (1 - share) * worst


def outcome(value: float) -> float:
    """The result inside a :func:`margin` value (1, 1/2 or 0), with the margin term (at most 0.2) taken off."""
    return round(value * 2) / 2


def best_exact(game: Game, seat: int, greedy: Collection[int] = (),
               wild: Mapping[int, float] | None = None) -> tuple[Action, float]:
    """The best action for ``seat`` (to act) in a perfect-information position, and its value.

    With models of the other side's play (``greedy``, ``wild``: see :func:`expect`) the action is still one that
    reaches the best result against any play (win, draw or loss, by :func:`solve`); among those, the one worth
    most against the models. A lost position is then played for the mistakes the opponent is expected to make,
    and nothing is risked: against the best replies every such action ends the same way.
    """
    side = team_of(game, seat)
    models = bool(greedy or wild) and _cards_left(game) <= MODEL_CARDS
    scored = []
    for action in _ordered(game):
        child = game.clone()
        child.apply(action)
        value = solve(child, side)
        key = (outcome(value), expect(child, side, greedy, wild)) if models else (value, 0.0)
        scored.append((key, value, action))
    _key, value, action = max(scored, key=lambda kva: kva[0])
    return action, value


def _cards_left(game: Game) -> int:
    return sum(len(game.hand(s)) for s in range(game.players))


def exact_choice(view: View) -> Action | None:
    """The exact best action when the view hides nothing that matters (the stock gone and at most one
    hand unknown), and the rest is small enough to search; else ``None``."""
    world = exact_world(view)
    return None if world is None or view.seat is None else best_exact(world, view.seat)[0]


def exact_world(view: View) -> Game | None:
    """The one world the view allows, when it hides nothing that matters (the stock gone and at most one hand
    unknown) and the rest is small enough to solve; else ``None``."""
    if view.stock_count or view.seat is None or not view.legal_actions or view.phase != "play":
        return None
    if view.rules.talon and not view.discards:
        return None  # the declarer's face-down discards are hidden: more than one world
    hidden = [s for s in range(view.players) if s != view.seat and view.hand_sizes[s] > sum(
        1 for k, _c in view.known if k == s)]
    if len(hidden) > 1 or sum(view.hand_sizes) > EXACT_CARDS.get(view.players, 6) + 4:
        return None
    try:
        return sample_world(view, seed=0)
    except WorldError:
        return None


def rollout_action(game: Game, learned: bool = False) -> Action:
    """The heuristic's move in a complete (sampled) game (with ``learned``, its card choice the learned one)."""
    return RolloutPolicy(game, learned).action(game)


class RolloutPolicy:
    """The heuristic as a rollout policy, with its card counting kept up to date move by move.

    In a sampled world the policy counts cards the way a good player would: what has been
    played is gone, everything else is out (it does not peek at the world's hidden cards).
    With ``learned`` the card to play is :func:`brisca.agents.learned.choose_learned`'s instead
    of the heuristic's, in the games it was fitted to (:func:`brisca.agents.learned.applies`).
    """

    __slots__ = ("n", "trump", "strength", "points", "rem", "team", "declare", "least", "learned")

    def __init__(self, game: Game, learned: bool = False) -> None:
        rules = game.rules
        self.n = game.players
        self.trump = game.trump
        self.strength = rules.strength_table
        self.points = rules.point_table
        self.team = [team_of(game, s) for s in range(self.n)]
        self.declare = rules.declarations
        self.least = rules.hand_winner == "least"
        self.learned = learned and applies(rules, self.n)
        played = {c for t in game.tricks for c in t.cards}
        played.update(game.trick)
        strength = self.strength
        # Unplayed cards of each suit, strongest first.
        self.rem: list[list[Card]] = [
            sorted((c for c in rules.layout(self.n).cards if c.suit == suit and c not in played),
                   key=lambda c: -strength[c.index])
            for suit in range(4)
        ]

    def played(self, card: Card) -> None:
        self.rem[card.suit].remove(card)

    def action(self, game: Game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        cards = []
        declares = []
        for a in legal:
            if a.__class__ is Play:
                cards.append(a.card)
            elif isinstance(a, Exchange | Announce | Claim):
                return a
            elif a.__class__ is Declare:
                declares.append(a)
        if not cards:
            return legal[0]
        # Engine-level reads: this runs on the policy's own sampled world, thousands of times a move.
        seat = game._turn
        n, team, trump, strength = self.n, self.team, self.trump, self.strength
        trick = game._trick
        side = team[seat]
        best = game._best if trick else None
        partner_winning = bool(trick) and team[game._best_seat] == side
        opponents_after = any(team[(seat + i) % n] != side for i in range(1, n - len(trick)))
        if declares and (self.declare == "on_lead" or (not opponents_after and self._vale_wins(
                game, declares[0], cards, partner_winning))):
            return declares[0]
        held = cards
        if len(cards) < len(game._hands[seat]):  # a card it may not play now (a duty, the prisoner ace) is its own
            held = [a.card for a in game._hands[seat]]
        top = [0, 0, 0, 0]
        for suit in range(4):
            for c in self.rem[suit]:
                if c not in held:
                    top[suit] = strength[c.index]
                    break
        # (No trump yet in the first trick of a blind call: Chiamata Buia.)
        trumps_out = 0 if trump is None else len(self.rem[trump]) - sum(1 for c in held if c.suit is trump)
        s = Situation(cards, trick, trump, strength, self.points, partner_winning, opponents_after, trumps_out, top,
                      best, self.least)
        return PLAYS[(choose_learned(s, game.stock_count) if self.learned else choose(s)).index]

    def _vale_wins(self, game: Game, declare: Declare, cards: list[Card], partner_winning: bool) -> bool:
        """Vales, last to play for this side: whether declaring leaves the trick (and the pair's points) to it."""
        pair = (Card(Rank.KING, declare.suit), Card(Rank.KNIGHT, declare.suit))
        mine = [c for c in pair if c in cards]
        if len(mine) < 2 or not game._trick:  # only the partner's card is in the trick: this seat plays freely
            return partner_winning or not game._trick or any(self._beats(game, c) for c in cards)
        return any(self._beats(game, c) for c in mine) or (partner_winning and not any(
            self._beats(game, c) for c in cards if c not in mine))

    def _beats(self, game: Game, card: Card) -> bool:
        best = game._best
        if card.suit is best.suit:
            return self.strength[card.index] > self.strength[best.index]
        return card.suit is self.trump


def greedy_action(game: Game) -> Action | None:
    """The greedy rule's move in a complete game (it always takes the exchange, and never signals); ``None``
    where the choice is not a plain card play (the rollout policy decides those)."""
    legal = game.legal_actions()
    cards = []
    for a in legal:
        if a.__class__ is Exchange or a.__class__ is Announce:
            return a
        if a.__class__ is Play:
            cards.append(a.card)
        elif a.__class__ is not Signal:
            return None
    rules = game.rules
    return PLAYS[greedy_card(cards, game._trick, game.trump, rules.strength_table, rules.point_table).index]


#: The denominator of a seat's share of random moves in the rollouts (``mix``).
MIX_ONE = 1 << 15


def lcg(state: int) -> int:
    """The rollouts' random numbers (a 31-bit linear congruential generator; the kernel uses the same): cheap,
    reproducible from a seed, and the same in Python and in the compiled kernel. Draw with ``state >> 16``."""
    return (state * 1103515245 + 12345) & 0x7FFFFFFF


def _shares(mix: Sequence[int]) -> dict[int, float]:
    """The seats' shares of random moves, from the rollouts' ``mix`` (of :data:`MIX_ONE`) to :func:`expect`'s."""
    return {s: m / MIX_ONE for s, m in enumerate(mix) if m}


def _wild(game: Game, state: int) -> tuple[Action | None, int]:
    """A uniformly random card play (or the exchange, when legal) and the generator's next state."""
    legal = game.legal_actions()
    options: list[Action] = [a for a in game._hands[game._turn] if a in legal]
    options.extend(a for a in legal if a.__class__ is Exchange or a.__class__ is Announce)
    if not options:
        return None, state
    state = lcg(state)
    return options[(state >> 16) % len(options)], state


def playout(game: Game, side: int, exact_at: int = 0, weight: float = 1 / 600,
            greedy: Sequence[int] = (), mix: Sequence[int] = (), seed: int = 0, endgame: bool = False,
            learned: bool = False) -> float:
    """Finish ``game`` (a sampled world) with the rollout policy, exactly once small; its value for ``side``.

    The seats in ``greedy`` (those the search has read as greedy players) play the greedy rule instead;
    a seat makes a uniformly random move with chance ``mix[seat] / MIX_ONE`` (the share of its play the
    search has read as random), the random numbers drawn by :func:`lcg` from ``seed``. With ``endgame``, two
    players and the stock gone (nothing hidden), the rest is valued exactly against those models
    (:func:`expect`), as the expert plays it, instead of by the rollout policy. ``learned``: the rollout
    policy's card choice is the learned one (see :class:`RolloutPolicy`).
    """
    policy = RolloutPolicy(game, learned)
    state = seed & 0x7FFFFFFF
    exact = endgame and game.players == 2
    while not game.is_over():
        if game.stock_count == 0 and _cards_left(game) <= exact_at:
            return solve(game, side)
        if exact and game.stock_count == 0 and not game._trick:
            return expect(game, side, greedy, _shares(mix), weight)
        action, state = policy_move(game, policy, state, greedy, mix)
        apply_tracked(game, policy, action)
    return margin(game, side, weight)


def policy_move(game: Game, policy: RolloutPolicy, state: int, greedy: Sequence[int] = (),
                mix: Sequence[int] = ()) -> tuple[Action, int]:
    """The rollout policy's move for the seat to act (see :func:`playout`) and the generator's next state."""
    action = None
    if mix and mix[game._turn] > 0:
        state = lcg(state)
        if (state >> 16) < mix[game._turn]:
            action, state = _wild(game, state)
    if action is None and greedy and game._turn in greedy:
        action = greedy_action(game)
    if action is None:
        action = policy.action(game)
    return action, state


def apply_tracked(game: Game, policy: RolloutPolicy, action: Action) -> None:
    """Apply ``action`` and keep the policy's card counting up to date."""
    card = getattr(action, "card", None)
    if card is not None and not isinstance(action, Exchange | Announce):
        policy.played(card)
    game.apply(action)


def _random_chance(log_odds: float) -> float:
    """The chance of random play, from the log odds of a model of play (greedy, skilled) against it."""
    return 1 / (1 + math.exp(min(700.0, log_odds)))


def world_likelihood(world: Game, viewer: int, miss: float) -> float:
    """How well a sampled world explains the other seats' plays: the product, over every card another seat
    played, of 1 when the heuristic holding that world's cards would have played it, else ``miss``.

    Players are not random: a seat that threw a small card on a rich trick probably could not win
    it. Worlds where the observed plays look sensible count more (inference for determinized search).
    """
    history = world.history
    replay = Game(world.rules, world.players, dealer=world.dealer, deck=world.deck, deal_number=world.deal_number)
    weight = 1.0
    for seat, action in history:
        if (seat != viewer and action.__class__ is Play and len(replay.legal_actions()) > 1
                and rollout_action(replay) is not action):
            weight *= miss
        replay.apply(action, seat)
    return weight


def _flag(name: str, value: object) -> bool:
    """An on/off option, from Python or from ``expert[name=...]`` (where it arrives as 1, 0 or a word)."""
    if isinstance(value, bool):
        return value
    word = str(value).lower()
    if word in ("true", "yes", "on", "1"):
        return True
    if word in ("false", "no", "off", "0"):
        return False
    raise ValueError(f"{name} is on or off (1 or 0), not {value!r}")


def _number(name: str, value: object, kind: type[int] | type[float]) -> Any:
    try:
        return kind(value)  # type: ignore[arg-type,call-overload]
    except (TypeError, ValueError):
        raise ValueError(f"{name} is a number, not {value!r}") from None


def net_leaves(net: Any, worlds: Sequence[Game], candidates: Sequence[Action], seat: int) -> list[list[float]]:
    """For each world and candidate: the candidate played, the other seats moving by ``net``'s policy (each from
    its own view of the world) until ``seat`` is to act again, then ``net``'s value of ``seat``'s view (the reward
    itself if the hand is over). The other seats' forward passes, and the values, are batched."""
    import numpy as np

    from brisca.agents.net import reward

    games: list[Game] = []
    for world in worlds:
        for action in candidates:
            g = world.clone()
            g.apply(action)
            games.append(g)
    preset = net.preset(worlds[0].rules, worlds[0].players)
    ids = net.encoder(preset).codec.ids
    for _ in range(4 * worlds[0].players):
        moving = [g for g in games if not g.is_over() and g.turn != seat]
        if not moving:
            break
        views = [g.view(g.turn) for g in moving]
        x = np.zeros((len(views), net.inputs), np.float32)
        for i, v in enumerate(views):
            net.features(v, preset, x[i])
        logits = net.forward(x)[0]
        for g, v, row in zip(moving, views, logits, strict=True):
            legal = v.legal_actions
            g.apply(legal[max(range(len(legal)), key=lambda j: row[ids[legal[j]]])])
    values = [0.0] * len(games)
    rest = []
    for i, g in enumerate(games):
        if g.is_over():
            values[i] = reward(g, seat)
        else:
            rest.append(i)
    if rest:
        x = np.zeros((len(rest), net.inputs), np.float32)
        for j, i in enumerate(rest):
            net.features(games[i].view(seat), preset, x[j])
        for j, v in zip(rest, net.forward(x)[1], strict=True):
            values[j] = float(v)
    k = len(candidates)
    return [values[w * k:(w + 1) * k] for w in range(len(worlds))]


class ExpertAgent:
    """Searches sampled worlds for ``think`` seconds a move (or exactly ``sims`` worlds, for reproducible play).

    With ``sims`` set, a given seed gives the same move every time; with a time budget
    the number of worlds depends on the machine's speed.
    """

    def __init__(
        self,
        seed: int | None = None,
        think: float = 0.5,
        sims: int | None = None,
        weight: float = 0.01,
        anchor: float = 0.0,
        infer: float = 0.0,
        kernel: bool | str = True,
        read: str = "greedy",
        predict: bool | str = True,
        cap: int = 500,
        sure: float = 3.0,
        wild: float | str = 1.0,
        doubt: float | str = 0.0,
        track: bool | str = False,
        skilled: float | str = 0.5,
        search: str = "pimc",
        explore: float = 1.0,
        widen: float = 4.0,
        endgame: bool | str = False,
        rollout: str = "heuristic",
        nest: int | str = 0,
        net: str = "off",
        blend: float | str = 0.5,
    ) -> None:
        self.rng = random.Random(seed)
        self.think = think
        self.sims = sims
        #: Value of a point of margin against a whole win (see :func:`margin`). Measured: 0.01 beat 1/600
        #: (0.719 against 0.697 versus ``heuristic``, 80 worlds, 80 duplicate deals each).
        self.weight = weight
        #: Keep the heuristic's move unless another beats it by this many standard errors.
        self.anchor = anchor
        #: Inference: weigh each world by how well the other seats' past plays fit a heuristic player holding
        #: that world's cards; a play the model would not make counts ``infer`` (0: every world counts the same).
        self.infer = infer
        #: Play the rollouts with the compiled kernel (:mod:`brisca.agents.kernel`) when numba is installed and
        #: covers the rules: the same values, many more worlds a second. ``kernel=false`` keeps the Python path.
        self.kernel = _flag("kernel", kernel)
        #: Read the other seats' plays with this model of play (:mod:`brisca.agents.inference`): worlds then keep
        #: what their plays say they lacked, for as long as some world explains every play so. ``off``: the rules
        #: alone (and every opponent counts as unread for ``wild``). Measured: see docs/strength.md.
        if read != "off" and read not in MODELS:
            raise ValueError(f"read is one of off, {', '.join(MODELS)}; not {read!r}")
        self.read = read
        #: In the rollouts, play the seats the model reads (those whose every play it explains) by the model:
        #: the search then expects from them what they have been doing. Measured: see docs/strength.md.
        self.predict = _flag("predict", predict)
        #: With a time budget: stop at ``cap`` worlds (more measured no stronger; see docs/strength.md), or once
        #: the leading move is ahead of every other by ``sure`` standard errors (0: never early). ``sims``
        #: fixes the number of worlds instead, and ignores both.
        if self.kernel:
            from brisca.agents.kernel import warm

            warm()
        self.cap = _number("cap", cap, int)
        self.sure = _number("sure", sure, float)
        #: The share of random moves the rollouts expect from an opponent that no model reads (one whose plays the
        #: greedy reading could not explain; partners keep the heuristic's judgment). 1: all random. Measured (see
        #: docs/strength.md): it wins more against random players and no less against the heuristic and the
        #: expert itself; against the greedy player nothing changes (it is read as greedy).
        self.wild = _number("wild", wild, float)
        if not 0 <= self.wild <= 1:
            raise ValueError(f"wild is a share from 0 to 1, not {wild!r}")
        #: The chance, before a seat has played, that it plays at random rather than greedily. Two players: an
        #: opponent the greedy reading still explains is weighed by both models (the exact Bayes factor of
        #: :func:`brisca.agents.inference.greedy_evidence`): each batch of worlds takes it as random with the
        #: posterior chance (worlds by the rules alone, random moves in the rollouts), else as greedy. 0: every
        #: seat the reading explains is greedy (the default: over 2,000 games doubt measured no gain; see
        #: docs/strength.md).
        self.doubt = _number("doubt", doubt, float)
        if not 0 <= self.doubt < 1:
            raise ValueError(f"doubt is a chance from 0 to below 1, not {doubt!r}")
        #: Two players: deal an opponent read as greedy its hidden cards by their exact chances under the greedy
        #: model (:func:`brisca.agents.inference.read_hands` follows its hand play by play), instead of the world
        #: sampler's, which only knows which hands are possible, not how likely each is. Off by default: it
        #: measured no gain (see docs/strength.md).
        self.track = _flag("track", track)
        #: The chance, before it has played, that an opponent the greedy reading drops plays like the heuristic (a
        #: skilled player) rather than at random. Its free plays then weigh the two (the Bayes factor of
        #: :func:`brisca.agents.inference.skill_evidence`), and its share of random moves in the rollouts is
        #: ``wild`` times the posterior chance of random play (the heuristic's judgment plays the rest). 0: every
        #: dropped opponent plays at random (as ``wild`` alone would have it). Measured (docs/strength.md): 0.5 wins
        #: more against the heuristic and as much against random players.
        self.skilled = _number("skilled", skilled, float)
        if not 0 <= self.skilled < 1:
            raise ValueError(f"skilled is a chance from 0 to below 1, not {skilled!r}")
        #: The search before the endgame: ``pimc`` (sampled worlds, each candidate played out in each) or ``ismcts``
        #: (:mod:`brisca.agents.ismcts`: a tree of this seat's information sets, UCB with constant ``explore``,
        #: a node trying a move other than the rollout policy's once visited ``widen`` times a move it tried;
        #: ``sims`` and ``cap`` then count a candidate's worth of iterations a world). Measured: docs/strength.md.
        if search not in ("pimc", "ismcts"):
            raise ValueError(f"search is pimc or ismcts, not {search!r}")
        self.search = search
        self.explore = _number("explore", explore, float)
        self.widen = _number("widen", widen, float)
        if self.explore < 0 or self.widen <= 0:
            raise ValueError(f"explore is 0 or more and widen above 0, not {explore!r} and {widen!r}")
        #: Two players, the sampled-world search: value the rollouts' last tricks (the stock gone, nothing hidden)
        #: exactly against the models of the opponent (:func:`expect`), as the expert will play them, instead of by
        #: the rollout policy (the tree search's leaves always finish by the policy). Off: it measured no gain.
        self.endgame = _flag("endgame", endgame)
        #: The rollout policy's card choice: the ``heuristic``'s rules, or the ``learned`` score fitted to this
        #: search's own values (:mod:`brisca.agents.learned`). Learned measured no gain (docs/strength.md).
        if rollout not in ("heuristic", "learned"):
            raise ValueError(f"rollout is heuristic or learned, not {rollout!r}")
        self.learned = rollout == "learned"
        #: An experiment of the compiled kernel (:func:`brisca.agents.kernel._nested`): with two players, the rules
        #: it covers and an opponent not read as greedy, each rollout's (of the sampled-world search; the tree
        #: search leaves its rollouts as they are) next choice for this seat is searched over
        #: ``nest`` worlds redrawn from what it sees then, instead of taken from the policy. 0 (the default): off.
        #: Measured: docs/strength.md ("One more search step in the rollouts").
        self.nest = _number("nest", nest, int)
        if self.nest < 0:
            raise ValueError(f"nest is 0 or a number of worlds, not {nest!r}")
        if self.nest:
            from brisca.agents.kernel import MISSING, enabled

            if not (self.kernel and enabled()):
                why = MISSING or "kernel=false or BRISCA_KERNEL=0"
                raise ValueError(f"nest needs the compiled kernel, which is off: {why}")
        #: The self-play network (:mod:`brisca.agents.net`) at the leaves: ``off``, ``on`` (the shipped one) or the
        #: path of one. Where it covers the game, each candidate in each world is played on to this seat's next
        #: turn (the other seats moving by the network's policy, in the world they hold) and valued by the
        #: network from what the seat will see then; ``blend`` is that value's share of the world's value, the
        #: rollout's the rest (1: no rollouts). Where it does not cover the game the search is ``expert-v1``'s.
        #: Measured: docs/strength.md ("The self-play network").
        self.blend = _number("blend", blend, float)
        if not 0 <= self.blend <= 1:
            raise ValueError(f"blend is a share from 0 to 1, not {blend!r}")
        self.net: Any = None
        if str(net).lower() not in ("off", "0", "false", "no"):
            from brisca.agents.net import load_net

            self.net = load_net(None if str(net).lower() in ("on", "1", "true", "yes") else str(net))
        self._randomness: dict[int, float] = {}
        self._evidence: dict[object, float] = {}
        self.last_worlds = 0

    def act(self, view: View) -> Action:
        legal = _require_turn(view)
        bid = auction_action(view)
        if bid is not None:
            return bid  # the auction, discard, trump and call: the heuristic's judgment
        if view.call_pending:
            # The first trick of a blind call (Chiamata Buia): the sides are made by a call still to come, which
            # the worlds cannot score; the heuristic's judgment plays it.
            from brisca.agents.heuristic import HeuristicAgent

            return HeuristicAgent().act(view)
        candidates = [a for a in legal if not isinstance(a, Signal)]
        for a in candidates:
            if isinstance(a, Claim):
                return a  # a claim that holds takes every card left: nothing can do better
        signal = signal_to_make(view)
        if signal is not None:
            return signal
        if len(candidates) == 1:
            return candidates[0]
        deadline = time.perf_counter() + self.think
        read = beliefs(view, self.read) if self.read != "off" else None
        self._randomness = self._random_chances(view)
        try:
            sampler: WorldSampler | None = WorldSampler(view, read)
        except WorldError:
            sampler = None
        world = exact_world(view)
        if world is not None:
            assert view.seat is not None
            greedy, mix = self._roles(view, read, sampler.believed) if sampler is not None else ((), ())
            return best_exact(world, view.seat, greedy, _shares(mix))[0]
        if sampler is None:
            return candidates[0]
        last = self._last_draw(view, candidates, read, sampler, deadline)
        if last is not None:
            return last
        if self.search == "ismcts":
            return self._tree(view, candidates, read, sampler, deadline)
        return self._search(view, candidates, read, sampler, deadline)

    def _tree(self, view: View, candidates: Sequence[Action], read: Sequence[Sequence[Constraint]] | None,
              sampler: WorldSampler, deadline: float) -> Action:
        """Information-set tree search (:func:`brisca.agents.ismcts.tree_search`) over worlds from ``sampler``: as
        many iterations as the sampled-world search plays rollouts (``sims`` or ``cap`` worlds a candidate)."""
        from brisca.agents.ismcts import choose, tree_search

        assert view.seat is not None
        fast = None
        if self.kernel:
            from brisca.agents.kernel import kernel_for

            fast = kernel_for(view.rules, view.players)
        greedy, mix = self._roles(view, read, sampler.believed)
        worlds = self.sims if self.sims is not None else self.cap
        pool: list[Game] = []
        walks = 0

        def draw() -> Game:
            # As many worlds as the sampled-world search would draw, each walked once a candidate (with its own
            # random moves each time): drawing a world costs more than a walk down the tree.
            nonlocal walks
            if len(pool) < worlds:
                pool.append(sampler.draw(self.rng))
            walks += 1
            return pool[(walks - 1) % len(pool)].clone()

        visits, means = tree_search(draw, view.seat, candidates, self.rng,
                                    worlds * len(candidates), math.inf if self.sims is not None else deadline,
                                    self.weight, greedy, mix, self.explore, self.widen, fast, self.learned)
        self.last_worlds = sum(visits)
        if not self.last_worlds:
            return candidates[0]
        return candidates[choose(visits, means)]

    def _last_draw(self, view: View, candidates: Sequence[Action], read: Sequence[Sequence[Constraint]] | None,
                   sampler: WorldSampler, deadline: float = math.inf) -> Action | None:
        """Two players, one hidden card left in the stock: the move worth most on average over every world the view
        allows (the opponent's hidden hand and the stock's last hidden card: a handful), each played to the end
        against the models of the opponent (:func:`expect`). ``None`` where that does not apply.

        After this trick both draw and nothing is hidden any more, so averaging the worlds' exact values is the
        exact value of each move: no fusion of strategies that the sampled-world search would commit here. Past
        the ``deadline`` (with a time budget) it gives up, for the sampled-world search to answer at once.
        """
        seat = view.seat
        if view.players != 2 or not view.stock_count or seat is None or view.rules.dealt_out:
            return None
        if sum(view.hand_sizes) + view.stock_count > MODEL_CARDS:
            return None
        other = 1 - seat
        unseen = list(view.unseen_cards())
        hidden = view.hand_sizes[other] - sum(1 for s, _c in view.known if s == other)
        if len(unseen) != hidden + 1:
            return None  # more than one hidden card in the stock: their order would matter too
        greedy, mix = self._roles(view, read, sampler.believed)
        wild = _shares(mix)
        worlds = []
        for stock in unseen:  # the card left in the stock; the opponent holds the others
            hand = [c for c in unseen if c is not stock]
            try:
                worlds.append(sampler.draw(self.rng, 2, {other: hand}))
            except WorldError:
                continue  # the view (or the reading) rules this hand out
        if not worlds:
            return None
        totals = [0.0] * len(candidates)
        for world in worlds:
            if self.sims is None and time.perf_counter() >= deadline:
                return None
            side = team_of(world, seat)
            for i, action in enumerate(candidates):
                child = world.clone()
                child.apply(action)
                totals[i] += expect(child, side, greedy, wild, self.weight)
        self.last_worlds = len(worlds)
        return candidates[max(range(len(candidates)), key=lambda i: totals[i])]

    def _roles(self, view: View, read: Sequence[Sequence[Constraint]] | None,
               believed: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The seats the rollouts play by the greedy rule (those ``believed`` read as greedy, with ``predict``), and
        each seat's share of random moves: for the opponents the model could not read (not those it has not seen
        play freely yet)."""
        greedy = tuple(believed) if self.predict and self.read == "greedy" else ()
        mix = self._mix(view, [s for s in range(view.players) if read is not None and (s in believed or not read[s])])
        return greedy, mix

    def _search(self, view: View, candidates: Sequence[Action], read: Sequence[Sequence[Constraint]] | None,
                sampler: WorldSampler, deadline: float) -> Action:
        """Sampled worlds (from ``sampler``, built on the view's ``read`` beliefs), every candidate played out in
        each, until ``deadline`` (or ``sims`` worlds, or the cap, or a settled choice)."""
        assert view.seat is not None
        k = len(candidates)
        totals = [0.0] * k
        per_world: list[list[float]] = []
        worlds = 0
        fast = None
        if self.kernel:
            from brisca.agents.kernel import kernel_for  # numpy and numba load only when the search needs them

            fast = kernel_for(view.rules, view.players)
        size = 1 if fast is None else _BATCH  # the kernel plays a batch of worlds in one call
        net = self.net if self.net is not None and self.net.covers(view.rules, view.players) else None
        blend = self.blend if net is not None else 0.0
        if net is not None:
            size = _BATCH  # the network values a batch of worlds in one pass
        reading = self._reading(view, sampler.believed, read)
        doubts = self._doubts(view, sampler.believed, reading)
        samplers = {sampler.believed: sampler}
        track = self.track and view.players == 2
        check = _CHECK_EVERY
        while True:
            batch: list[tuple[Game, int, float, int]] = []
            if worlds % _BATCH == 0:
                # Who is read as greedy in the next block of worlds (a kernel batch; the Python path draws the same):
                # each doubted seat is taken as random with its chance.
                kept = tuple(s for s in sampler.believed if not (s in doubts and self.rng.random() < doubts[s]))
                if kept not in samplers:
                    samplers[kept] = WorldSampler(view, [r if s in kept else [] for s, r in enumerate(read or ())])
                source = samplers[kept]
                tracked = [s for s in kept if reading is not None and s in reading.hands] if track else []
                greedy, mix = self._roles(view, read, source.believed)
            while len(batch) < size:
                if self.sims is not None:
                    if worlds + len(batch) >= self.sims:
                        break
                elif (worlds or batch) and time.perf_counter() >= deadline:
                    break
                try:
                    world = self._draw(source, reading, tracked)
                except WorldError:
                    break
                side = team_of(world, view.seat)  # under a contract the world knows the viewer's team
                w = world_likelihood(world, view.seat, self.infer) if self.infer > 0 else 1.0
                batch.append((world, side, w, self.rng.getrandbits(31) if mix else 0))
            if blend >= 1:
                results = [[0.0] * k for _b in batch]
            elif fast is not None and batch:
                rows = fast.evaluate([b[0] for b in batch], candidates, [b[1] for b in batch], self.weight,
                                     greedy, mix, [b[3] for b in batch], self.endgame, self.learned,
                                     self.nest)[0]
                results = [[float(v) for v in row] for row in rows]
            else:
                results = []
                for world, side, _w, seed in batch:
                    values = []
                    for action in candidates:
                        g = world.clone()
                        g.apply(action)
                        values.append(playout(g, side, 0, self.weight, greedy, mix, seed, self.endgame,
                                              self.learned))
                    results.append(values)
            if net is not None and batch:
                leaves = net_leaves(net, [b[0] for b in batch], candidates, view.seat)
                results = [[(1 - blend) * r + blend * (0.5 + 0.5 * v) for r, v in zip(row, leaf, strict=True)]
                           for row, leaf in zip(results, leaves, strict=True)]
            for (_world, _side, w, _seed), values in zip(batch, results, strict=True):
                for i in range(k):
                    totals[i] += w * values[i]
                per_world.append(values)
                worlds += 1
            if len(batch) < size:
                break
            if self.sims is None and (worlds >= self.cap or (worlds >= check and self._settled(totals, per_world))):
                break
            if worlds >= check:
                check += _CHECK_EVERY
        self.last_worlds = worlds
        if not worlds:
            return candidates[0]
        best = max(range(k), key=lambda i: totals[i])
        if self.anchor > 0 and worlds > 1:
            home = self._heuristic_index(view, candidates)
            if home is not None and home != best:
                # Compare world by world: the luck of a world is the same for both moves and cancels.
                diffs = [v[best] - v[home] for v in per_world]
                mean = sum(diffs) / worlds
                var = sum((d - mean) ** 2 for d in diffs) / (worlds - 1)
                if mean < self.anchor * math.sqrt(var / worlds):
                    best = home
        return candidates[best]

    def _draw(self, source: WorldSampler, reading: Reading | None, tracked: Sequence[int]) -> Game:
        """A world from ``source``, the ``tracked`` seats' hidden cards dealt by ``reading`` (by the sampler alone
        if no such world can be built)."""
        if tracked and reading is not None:
            dealt = {s: reading.deal(s, self.rng) for s in tracked}
            hands = {s: h for s, h in dealt.items() if h is not None}
            if len(hands) == len(dealt):
                try:
                    return source.draw(self.rng, 2, hands)
                except WorldError:
                    pass
        return source.draw(self.rng)

    def _reading(self, view: View, believed: Sequence[int],
                 read: Sequence[Sequence[Constraint]] | None = None) -> Reading | None:
        """The greedy and random filters of the opponents read as greedy, when ``doubt`` or ``track`` use them: two
        players only, where one hand is hidden and the filters are exact (with more, each would ignore the
        others' hidden hands)."""
        uses = self.track or (self.doubt and self.wild)
        if not believed or self.read != "greedy" or not uses or view.players != 2:
            return None
        ally = allies(view)
        seats = [s for s in believed if not ally(s)]
        return read_hands(view, seats, read) if seats else None

    def _doubts(self, view: View, believed: Sequence[int], reading: Reading | None = None) -> dict[int, float]:
        """For each seat read as greedy, the posterior chance that it plays at random instead (from ``doubt``, the
        chance before any play, and the evidence of its plays); only opponents, and only while ``wild`` is on."""
        if not self.doubt or not believed or not self.wild or self.read != "greedy" or view.players != 2:
            return {}
        if reading is None:
            reading = self._reading(view, believed)
        if reading is None:
            return {}
        prior = math.log((1 - self.doubt) / self.doubt)
        return {s: _random_chance(prior + reading.evidence(s)) for s in reading.hands}

    def _random_chances(self, view: View) -> dict[int, float]:
        """With ``skilled``: each opponent's posterior chance of playing at random rather than like the heuristic
        (none where :func:`brisca.agents.inference.skill_evidence` does not apply: they play at random)."""
        if not self.skilled or not self.wild:
            return {}
        if len(self._evidence) > 20_000:  # the factors of past plays, kept across a game's moves
            self._evidence.clear()
        ally = allies(view)
        seats = [s for s in range(view.players) if not ally(s)]
        evidence = skill_evidence(view, seats, self._evidence)
        if evidence is None:
            return {}  # the test does not apply: every dropped opponent plays at random, as without ``skilled``
        prior = math.log(self.skilled / (1 - self.skilled))
        return {s: _random_chance(prior + evidence[s]) for s in seats}

    def _mix(self, view: View, read: Sequence[int]) -> tuple[int, ...]:
        """Each seat's share of random moves in the rollouts (of :data:`MIX_ONE`): ``wild`` for the opponents
        not in ``read`` (the seats a model of play explains, or has nothing to read of yet), times their chance
        of playing at random with ``skilled``; none for the others; ``()`` when none has any."""
        if not round(self.wild * MIX_ONE):
            return ()
        ally = allies(view)
        chances = self._randomness
        mix = tuple(0 if ally(s) or s in read else round(self.wild * chances.get(s, 1.0) * MIX_ONE)
                    for s in range(view.players))
        return mix if any(mix) else ()

    def _settled(self, totals: Sequence[float], per_world: Sequence[Sequence[float]]) -> bool:
        """Whether the leading move beats every other by ``sure`` standard errors, world by world (the luck of
        a world is the same for both moves and cancels): more worlds would not change the choice."""
        if self.sure <= 0 or self.infer > 0:
            return False
        n = len(per_world)
        best = max(range(len(totals)), key=lambda i: totals[i])
        for i in range(len(totals)):
            if i == best:
                continue
            diffs = [v[best] - v[i] for v in per_world]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean <= self.sure * math.sqrt(var / n):
                return False
        return True

    @staticmethod
    def _heuristic_index(view: View, candidates: Sequence[Action]) -> int | None:
        from brisca.agents.heuristic import HeuristicAgent

        choice = HeuristicAgent().act(view)
        return candidates.index(choice) if choice in candidates else None


__all__ = ["ExpertAgent", "best_exact", "exact_choice", "exact_world", "expect", "greedy_action", "margin",
           "net_leaves", "outcome", "playout", "rollout_action", "solve", "team_of"]
