"""The rollout policy: the heuristic's judgment on a complete (sampled) game, move by move, and the playout.

:class:`RolloutPolicy` plays the heuristic's card choice (:func:`brisca.agents.heuristic.choose`, or the
learned one of :mod:`brisca.agents.learned`) on a world, counting cards as a good player would;
:func:`playout` finishes a world with it, the seats read as greedy or partly random playing by their
models (random numbers from :func:`lcg`). The sampled-world search (:mod:`brisca.agents.search`), the tree
search (:mod:`brisca.agents.ismcts`) and the compiled kernel (:mod:`brisca.agents.kernel`, which plays the
very same moves on arrays) all finish their worlds so.
"""

from __future__ import annotations

from collections.abc import Sequence

from brisca.actions import PLAYS, Action, Announce, Claim, Declare, Exchange, Play
from brisca.agents.exact import _cards_left, expect, greedy_action, margin, solve, team_of
from brisca.agents.heuristic import choose
from brisca.agents.learned import applies, choose_learned
from brisca.agents.situation import Situation
from brisca.cards import Card, Rank
from brisca.game import Game


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


__all__ = ["MIX_ONE", "RolloutPolicy", "apply_tracked", "lcg", "playout", "policy_move", "rollout_action"]
