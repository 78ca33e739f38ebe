"""Research interfaces: Brisca as a PettingZoo, Gymnasium and OpenSpiel environment.

The modules here import the engine; the engine never imports them.

- :mod:`brisca.envs.actions`: the fixed action space (:class:`ActionCodec`), no extra needed.
- :mod:`brisca.envs.encode`: observation encoders from a :class:`~brisca.game.View` (numpy).
- :mod:`brisca.envs.pettingzoo`: the AEC environment (``pip install 'brisca[rl]'``).
- :mod:`brisca.envs.gymnasium`: one learner against brisca agents (``pip install 'brisca[rl]'``).
- :mod:`brisca.envs.openspiel`: the ``brisca`` game for ``pyspiel`` (``pip install 'brisca[openspiel]'``).

Rewards are shared by all of them (see :func:`hand_returns` and :func:`step_rewards`)::

    >>> from brisca import Game
    >>> game = Game("spanish", 2, seed=3)
    >>> while not game.is_over():
    ...     game.apply(game.legal_actions()[0])
    >>> game.result().side_points, hand_returns(game, "win"), hand_returns(game, "points")
    ((43, 77), (-1.0, 1.0), (-0.14166666666666666, 0.14166666666666666))

- ``"win"``: at the end of the hand, +1 for every seat of the winning side and
  ``-1/(sides-1)`` for the others (so ±1 with two sides); 0 for everybody in a
  drawn hand. The hand's own result decides (a killed three, a tie broken on cards...).
- ``"points"``: at the end of the hand, the seat's side total (card points and
  bonuses) minus the mean of the sides' totals, over the deck's card points
  (120 in the 40-card game); negated where the fewest points win (``mexican``).
- ``"dense"``: the same quantity paid as it accrues, trick by trick, with the
  bonuses at the end; over a hand it adds up to ``"points"``.

All three are zero-sum over the seats.

Games with a contract (``rematada``, ``chiamata``) score match points
(:attr:`~brisca.game.HandResult.scores`), and their rewards come from them, paid at
the end of the hand (``"dense"`` pays nothing before, so it equals ``"points"``):

- ``"win"``: the contract's two teams (the declarer, with the called card's holder,
  against the others): the team that won (made, or set the contract) shares +1 a seat
  and the other team pays for it, scaled so that no seat gets more than 1 or less
  than -1 (in Chiamata, a made contract with a partner: +1, +1, -2/3, -2/3, -2/3).
  0 for everybody when everybody passed.
- ``"points"``: the seat's match points minus the mean of the seats', over the
  largest a seat can score in a hand (``max_bid`` for ``contract: solo``, 4 for
  ``contract: called``).
"""

from __future__ import annotations

from collections.abc import Sequence

from brisca.envs.actions import ActionCodec, Block, register_block
from brisca.game import Game
from brisca.rules import Rules

REWARDS: tuple[str, ...] = ("win", "points", "dense")

__all__ = [
    "REWARDS", "ActionCodec", "Block", "check_reward", "contract_returns", "deck_points", "hand_returns",
    "register_block",
    "render_table", "return_bounds", "step_rewards", "unavailable",
]


def unavailable(name: str) -> type:
    """A stand-in base class for an optional dependency that is not installed (subscriptable, like a generic)."""

    def __class_getitem__(cls: type, item: object) -> type:
        return cls

    return type(name, (), {"__class_getitem__": classmethod(__class_getitem__), "__module__": __name__})


def check_reward(reward: str) -> str:
    """``reward`` if it names a reward mode, else ``ValueError``."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


_DECK_POINTS: dict[tuple[int, int], tuple[Rules, int]] = {}


def deck_points(rules: Rules, players: int) -> int:
    """The card points in play for ``players`` players (the ``"points"`` scale; 120 in the 40-card game)."""
    key = (id(rules), players)
    hit = _DECK_POINTS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    table = rules.point_table
    total = max(1, sum(table[c.index] for c in rules.deck_cards(players)))
    if len(_DECK_POINTS) > 1024:
        _DECK_POINTS.clear()
    _DECK_POINTS[key] = (rules, total)  # the entry keeps the rules alive, so the id cannot be reused
    return total


def _per_seat(values: Sequence[float], players: int, sides: int, scale: float) -> tuple[float, ...]:
    mean = sum(values) / sides
    return tuple((values[s % sides] - mean) * scale for s in range(players))


def hand_returns(game: Game, reward: str) -> tuple[float, ...]:
    """Each seat's return for a finished hand (zeros while it is being played)."""
    result = game.result()
    players = game.players
    if result is None:
        return (0.0,) * players
    if result.scores is not None:
        return _contract_returns(game, reward)
    sides = game.rules.sides(players)
    if reward == "win":
        if result.winner is None:
            return (0.0,) * players
        lose = -1.0 / (sides - 1)
        return tuple(1.0 if s % sides == result.winner else lose for s in range(players))
    sign = -1.0 if game.rules.hand_winner == "least" else 1.0
    return _per_seat(result.side_points, players, sides, sign / deck_points(game.rules, players))


def _contract_returns(game: Game, reward: str) -> tuple[float, ...]:
    """Returns of a finished hand played for a contract (see the module docs)."""
    result = game.result()
    assert result is not None and result.scores is not None
    c = result.contract
    if c is None:
        return (0.0,) * game.players
    return contract_returns(game.rules, reward, c.side(), result.reason == "made", result.scores)


def contract_returns(rules: Rules, reward: str, team: frozenset[int], made: bool,
                     scores: Sequence[int]) -> tuple[float, ...]:
    """Each seat's return for a contract its ``team`` (the declarer and his partner) ``made`` or not, the seats
    scoring ``scores`` (:attr:`HandResult.scores <brisca.game.HandResult.scores>`)."""
    n = len(scores)
    if reward == "win":
        winners = team if made else frozenset(range(n)) - team
        w, lose = len(winners), n - len(winners)
        up = min(1.0, lose / w)
        down = -w * up / lose
        return tuple(up if s in winners else down for s in range(n))
    mean = sum(scores) / n
    scale = 1.0 / _contract_scale(rules)
    return tuple((v - mean) * scale for v in scores)


def _contract_scale(rules: Rules) -> float:
    return float(rules.max_bid) if rules.contract == "solo" else 4.0


def step_rewards(game: Game, reward: str, before: Sequence[int]) -> tuple[float, ...] | None:
    """The rewards of the last step, given ``before``: the sides' card points before it.

    ``None`` when the step paid nothing (the usual case), so callers can skip work.
    """
    if reward != "dense" or game.rules.contract != "off":
        if not game.is_over():
            return None
        return hand_returns(game, "points" if reward == "dense" else reward)
    if game.is_over():
        now: Sequence[int] = game.result().side_points  # type: ignore[union-attr]
    else:
        now = game.side_points
        if now == before:
            return None
    players = game.players
    sides = game.rules.sides(players)
    sign = -1.0 if game.rules.hand_winner == "least" else 1.0
    delta = [a - b for a, b in zip(now, before, strict=True)]
    return _per_seat(delta, players, sides, sign / deck_points(game.rules, players))


def return_bounds(rules: Rules, players: int, reward: str) -> tuple[float, float]:
    """Lower and upper bounds of a seat's return over a hand."""
    sides = rules.sides(players)
    if rules.contract != "off":
        if reward == "win" or rules.contract == "called":
            return -1.0, 1.0
        # solo: made, the declarer b(n-1)/n and the others -b/n; set, the declarer -b(n-1)/2n, the others b/2n.
        n = players
        return min(-1.0 / n, -(n - 1) / (2 * n)), max((n - 1) / n, 1 / (2 * n))
    if reward == "win":
        return -1.0 / (sides - 1), 1.0
    total = deck_points(rules, players)
    most = total + rules.last_trick_bonus + (100 if rules.pair_bonus or rules.declarations != "off" else 0)
    bound = most * (sides - 1) / sides / total
    return -bound, bound


def render_table(game: Game) -> str:
    """The whole table as text: trump, stock, every hand, the trick and the points."""
    lines = [
        f"{game.rules.variant}, {game.players} players, dealer {game.dealer}, trump "
        + (game.trump.name_in("en") if game.trump is not None else "not decided")
        + (f", face-up {game.face_up}" if game.face_up is not None else "")
        + f", stock {game.stock_count}",
    ]
    for s in range(game.players):
        mark = ">" if game.turn == s else " "
        hand = " ".join(str(c) for c in game.hand(s)) or "-"
        lines.append(f"{mark} seat {s} (side {game.side_of(s)}): {hand:<24} points {game.seat_points[s]}")
    if game.trick:
        lines.append("trick: " + " ".join(f"{c}({(game.leader + i) % game.players})" for i, c in enumerate(game.trick)))
    if game.tricks:
        last = game.tricks[-1]
        lines.append(f"last trick: {' '.join(map(str, last.cards))} won by seat {last.winner} ({last.points})")
    contract = getattr(game, "contract", None)
    if contract is not None:
        lines.append(f"contract: seat {contract.declarer} {contract.bid}, {contract.points} points"
                     + (f", called {contract.called} (seat {contract.partner})" if contract.called else ""))
    result = game.result()
    if result is not None:
        who = "drawn" if result.winner is None else f"side {result.winner} wins"
        lines.append(f"over: {who}, side points {list(result.side_points)} ({result.reason})"
                     + (f", match points {list(result.scores)}" if result.scores is not None else ""))
    return "\n".join(lines)
