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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from brisca.actions import PASS, Action, Bid, Claim, Exchange, Play, Signal
from brisca.agents import ismcts
from brisca.agents.auction import auction_action, shortlist
from brisca.agents.bidding import bid_values, simulated_bid

# The exact endgame and the rollout policy are modules of their own (the heuristic, the tree search and the
# compiled kernel use them too); their names stay importable from here.
from brisca.agents.exact import (
    EXACT_CARDS,
    MODEL_CARDS,
    best_exact,
    exact_choice,
    exact_world,
    expect,
    greedy_action,
    margin,
    outcome,
    solve,
    stock_hidden,
    team_of,
)
from brisca.agents.heuristic import HeuristicAgent, allies, signal_to_make
from brisca.agents.inference import MODELS, Reading, beliefs, read_hands, skill_evidence
from brisca.agents.net import load_net, reward
from brisca.agents.rollout import (
    MIX_ONE,
    RolloutPolicy,
    _shares,
    apply_tracked,
    lcg,
    playout,
    policy_move,
    rollout_action,
)
from brisca.agents.simple import _require_turn
from brisca.game import Game, View
from brisca.worlds import Constraint, WorldError, WorldSampler

#: Worlds the compiled kernel plays in one call (the Python-to-numba crossing is paid once for them).
_BATCH = 8
#: Worlds the network's rollouts (:class:`NetRollouts`) play in one round: a forward pass moves all of them.
_NET_WORLDS = 64
#: With a time budget, how often (in worlds) the search asks whether its choice is settled.
_CHECK_EVERY = 256


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


def _after(world: Game, action: Action) -> Game:
    """A copy of ``world`` with ``action`` made."""
    g = world.clone()
    g.apply(action)
    return g


def net_leaves(net: Any, worlds: Sequence[Game], candidates: Sequence[Action], seat: int) -> list[list[float]]:
    """For each world and candidate: the candidate played, the other seats moving by ``net``'s policy (each from
    its own view of the world) until ``seat`` is to act again, then ``net``'s value of ``seat``'s view (the reward
    itself if the hand is over). The other seats' forward passes, and the values, are batched."""
    import numpy as np

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


class NetRollouts:
    """Each candidate in each world played to the end of the hand by a network's choices (every seat's, from its own
    view of the world), all of them in lockstep in one :class:`~brisca.envs.batch.Batch`: one compiled call loads
    the worlds, one forward pass a round of decisions moves every unfinished hand. Built by :meth:`make` for the
    games the network and the batch both play."""

    def __init__(self, net: Any, rules: Any, players: int, lanes: int) -> None:
        from brisca.envs.batch import Batch

        self.net = net
        self.batch = Batch(net.presets, players, size=lanes, cues=net.cues)
        self.preset = net.preset(rules, players)
        self.ids = self.batch.codec.ids

    @classmethod
    def make(cls, net: Any, rules: Any, players: int, lanes: int) -> NetRollouts | None:
        """The rollouts of ``net`` for these rules, or ``None`` where it or the batch does not play them."""
        from brisca.envs.batch import COMPILED, covers

        if net is None or not COMPILED or net.advisor is not None or not covers(rules, players):
            return None
        rollouts = cls(net, rules, players, lanes)
        return rollouts if rollouts.batch.inputs == net.inputs and rollouts.preset is not None else None

    def values(self, worlds: Sequence[Game], candidates: Sequence[Action], sides: Sequence[int],
               weight: float) -> list[list[float]]:
        """For each world and candidate, :func:`margin` (``weight`` a point) of the hand played out for side
        ``sides[w]``."""
        import numpy as np

        from brisca.envs.batch import greedy

        batch, ids, k = self.batch, self.ids, len(candidates)
        m = len(worlds) * k
        if m > batch.size:
            raise ValueError(f"{m} rollouts do not fit a batch of {batch.size}")
        history = [ids[a] for _s, a in worlds[0].history]
        moves = np.zeros((m, len(history) + 1), np.int64)
        moves[:, :len(history)] = history
        moves[:, len(history)] = np.tile([ids[a] for a in candidates], len(worlds))
        decks = np.array([[c.index for c in w.deck] for w in worlds], np.int64).repeat(k, axis=0)
        dealers = np.array([w.dealer for w in worlds], np.int64).repeat(k)
        lanes = np.arange(m)
        batch.replay(lanes, decks, dealers, moves, np.full(m, len(history) + 1), np.full(m, self.preset))
        arrays = self.net.arrays
        while True:
            obs, mask, rows, _seats = batch.observe()
            if not len(rows):
                break
            batch.act(rows, greedy(arrays, obs, mask))
        values = batch.margins(lanes, np.repeat(sides, k), weight)
        return [values[w * k:(w + 1) * k].tolist() for w in range(len(worlds))]


#: The point weight of :func:`solve`'s values (:func:`margin`'s default).
SOLVE_WEIGHT = 1 / 600


@dataclass(frozen=True)
class Appraisal:
    """What the expert's search found for a view: each candidate's value (:func:`margin`'s: the result, 1, 1/2 or
    0, plus ``weight`` a point of margin) in each world it weighed, the worlds common to every candidate."""

    candidates: tuple[Action, ...]
    #: One row per world, one value per candidate.
    values: tuple[tuple[float, ...], ...]
    #: The value of a point of margin in ``values``.
    weight: float
    #: How the values were found: ``exact`` (every hand known: solved), ``every world`` (every world the view
    #: allows, each solved to the end), ``sampled`` (sampled worlds, played out by the rollout policy), ``bidding``
    #: (a bid: sampled deals played out by the heuristic player) or ``weighed`` (the auction's other choices and a
    #: blind call's first trick: likewise).
    method: str


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
        bid: str = "rules",
        early: str = "search",
        hidden: int | str = 1,
        worlds: int | str = 200,
        weigh: str = "uniform",
        *,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.rng = random.Random(seed)
        self.think = think
        #: What the time budget (``think``) is read from: seconds, as :func:`time.perf_counter` counts them. A test
        #: gives a clock of its own (one that counts the calls, or stands still), so that no test depends on how
        #: fast the machine is.
        if not callable(clock):
            raise ValueError(f"clock is a function that returns seconds, not {clock!r}")
        self.clock = clock
        self.sims = sims
        #: Value of a point of margin against a whole win (see :func:`margin`). Measured: 0.01 beat 1/600
        #: (0.719 against 0.697 versus ``heuristic``, 80 worlds, 80 duplicate deals each).
        self.weight = weight
        #: Keep a move unless another beats it by this many standard errors, world by world: the network's choice
        #: where ``net`` covers the game (``hard``'s move), else the heuristic's.
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
        #: The rollout policy's card choice: the ``heuristic``'s rules, the ``learned`` score fitted to this
        #: search's own values (:mod:`brisca.agents.learned`; measured no gain, docs/strength.md), or the ``net``
        #: (:class:`NetRollouts`): every seat plays the self-play network's choice to the end of the hand, where it
        #: covers the game (``net=off`` then means the shipped one; its values replace ``blend``'s leaves), the
        #: worlds still shaped by the reading; else the heuristic.
        if rollout not in ("heuristic", "learned", "net"):
            raise ValueError(f"rollout is heuristic, learned or net, not {rollout!r}")
        self.learned = rollout == "learned"
        self.net_rollout = rollout == "net"
        #: An experiment of the compiled kernel (:func:`brisca.agents.kernel._nested`): with two players, the rules
        #: it covers and an opponent not read as greedy, each rollout's (of the sampled-world search; the tree
        #: search leaves its rollouts as they are) next choice for this seat is searched over
        #: ``nest`` worlds redrawn from what it sees then, instead of taken from the policy. 0 (the default): off.
        #: Measured: docs/strength.md ("The expert's options", `nest`).
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
        #: Measured: docs/strength.md ("The expert's options", `net` and `blend`).
        self.blend = _number("blend", blend, float)
        if not 0 <= self.blend <= 1:
            raise ValueError(f"blend is a share from 0 to 1, not {blend!r}")
        self.net: Any = None
        if str(net).lower() not in ("off", "0", "false", "no"):
            self.net = (load_net(None, searched=True) if str(net).lower() in ("on", "1", "true", "yes")
                        else load_net(str(net)))
        elif self.net_rollout:
            self.net = load_net(None, searched=True)
        self._rollouts: dict[tuple[object, int], NetRollouts | None] = {}
        #: Two players, where the network covers the game: ``hidden`` (more than 1) solves every world exactly from
        #: that many hidden cards left in the stock on (:func:`~brisca.agents.kernel.stock_choice`: every world when
        #: they are at most ``worlds``, else that many drawn; the network's move among equals), down to the
        #: stock's last trick, which the search's own every-world solving plays; ``early=net`` plays the
        #: network's move before that instead of searching (the search with the network measured no stronger than
        #: the network alone: docs/strength.md). Elsewhere neither applies.
        if early not in ("search", "net"):
            raise ValueError(f"early is search or net, not {early!r}")
        self.early = early
        self.hidden = _number("hidden", hidden, int)
        self.stock_worlds = _number("worlds", worlds, int)
        if self.hidden < 1 or self.stock_worlds < 1:
            raise ValueError(f"hidden and worlds are 1 or more, not {hidden!r} and {worlds!r}")
        #: With ``hidden``: ``net`` weighs the opponent's possible hands by the network's chance of its last
        #: choices (:meth:`~brisca.agents.net.Net.likelihoods`), the stock's last trick included; ``uniform`` counts
        #: every hand the same there and leaves that trick to the search's own solving, against its reading.
        if weigh not in ("uniform", "net"):
            raise ValueError(f"weigh is uniform or net, not {weigh!r}")
        self.weigh = weigh
        if (self.hidden > 1 or early == "net") and self.net is None:
            self.net = load_net(None, searched=True)
        #: How it bids in a point auction: ``rules``, the shared rule-based bidder; ``sim``, each choice weighed
        #: over sampled deals played out (:mod:`brisca.agents.bidding`), within ``think`` (48 deals under
        #: ``sims``). Measured: docs/strength.md ("Bidding by simulation").
        self.bid = str(bid).lower()
        if self.bid not in ("rules", "sim"):
            raise ValueError(f"bid is rules or sim, not {bid!r}")
        self._randomness: dict[int, float] = {}
        self._evidence: dict[object, float] = {}
        self.last_worlds = 0

    def act(self, view: View) -> Action:
        legal = _require_turn(view)
        bid = None
        if self.bid == "sim":  # a fixed number of worlds under ``sims`` (reproducible), else within ``think``
            bid = simulated_bid(view, self.rng, deadline=None if self.sims else self.clock() + self.think,
                                clock=self.clock)
        if bid is None:
            bid = auction_action(view)
        if bid is not None:
            return bid  # the auction, discard, trump and call: the heuristic's judgment
        if view.call_pending:
            # The first trick of a blind call (Chiamata Buia): the sides are made by a call still to come, which
            # the worlds cannot score; the heuristic's judgment plays it.
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
        deadline = self.clock() + self.think
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
        early = self._early(view, None if self.sims else deadline)
        if early is not None:
            return early
        if sampler is None:
            return candidates[0]
        last = self._last_draw(view, candidates, read, sampler, deadline)
        if last is not None:
            return last
        if self.search == "ismcts":
            return self._tree(view, candidates, read, sampler, deadline)
        return self._search(view, candidates, read, sampler, deadline)

    def _early(self, view: View, deadline: float | None) -> Action | None:
        """Two players, the network covering the game, the stock's last trick still to come: with ``hidden``, the
        move best over every world solved exactly; with ``early=net``, before that, the network's move."""
        if (self.hidden == 1 and self.early != "net") or view.players != 2 or self.net is None:
            return None
        left = stock_hidden(view)
        net = self.net.pick(view.rules, 2)
        weighed = self.weigh == "net" and self.hidden > 1
        if left is None or left < (1 if weighed else 2) or net is None:
            return None
        mine: Action = net.choose(view)
        if left <= self.hidden:
            from brisca.agents.kernel import stock_choice

            best = stock_choice(view, self.hidden, self.stock_worlds, self.rng.getrandbits(32), prefer=mine,
                                deadline=deadline, reader=net.reader() if weighed else None, clock=self.clock)
            if best is not None:
                return best
        return mine if self.early == "net" else None

    def appraise(self, view: View, limit: float = math.inf, include: Action | None = None) -> Appraisal | None:
        """The values the search gives each move it weighs for ``view`` (the seat to act), world by world: what
        :meth:`act` chooses from, for a reader of the choice (:mod:`brisca.analysis`). ``None`` where the
        expert weighs nothing: a forced move, a claim.

        The same dispatch as :meth:`act`, with the sampled-world search (never the tree search): every hand known
        (:func:`exact_world`): each move solved exactly; one hidden card left in the stock: every world the view
        allows, each solved to the end; else ``sims`` sampled worlds, common to every move, or fewer once the clock
        reaches ``limit`` (a value of ``self.clock``). Values are :func:`margin`'s, with ``self.weight`` a
        point (the solved ones with :func:`solve`'s), and every world counts the same (``infer`` is not applied).

        A bid in a point auction is weighed as ``bid=sim`` weighs it (:func:`brisca.agents.bidding.bid_values`):
        passing, the lowest bid and ``include`` (another bid, the one played in an analysis), over ``sims``
        sampled deals (at most 48) played out by the heuristic player. The auction's other choices (the cut, a
        vale, the discard, the trump, the call: :func:`~brisca.agents.auction.shortlist` where they are many) and a
        blind call's first trick, which :meth:`act` leaves to the rules and the heuristic, are weighed the same
        way (``weighed``): a reader sees what each was worth, by the same player the bids are weighed by.
        """
        legal = _require_turn(view)
        bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: b.points)
        weighed: list[Action] | None = None
        if view.phase == "bid" and bids and PASS in legal:
            weighed, method = [PASS, bids[0]] + ([include] if include in bids and include != bids[0] else []), "bidding"
        elif auction_action(view) is not None or view.call_pending:
            # The auction's other choices (the cut, a vale, the discard, the trump, the call) and a blind call's
            # first trick, weighed as a bid is: the heuristic plays each sampled deal out.
            weighed, method = shortlist(view, include), "weighed"
            if len(weighed) < 2:
                return None
        if weighed is not None:
            deadline = None if limit == math.inf else limit
            dealt = bid_values(view, weighed, self.rng, min(48, self.sims or 48), deadline, self.weight, self.clock)
            return Appraisal(tuple(weighed), tuple(map(tuple, dealt)), self.weight, method) if dealt else None
        candidates = [a for a in legal if not isinstance(a, Signal)]
        if len(candidates) < 2 or any(isinstance(a, Claim) for a in candidates):
            return None
        assert view.seat is not None
        read = beliefs(view, self.read) if self.read != "off" else None
        self._randomness = self._random_chances(view)
        try:
            sampler = WorldSampler(view, read)
        except WorldError:
            return None
        world = exact_world(view)
        if world is not None:
            side = team_of(world, view.seat)
            row = []
            for action in candidates:
                child = world.clone()
                child.apply(action)
                row.append(solve(child, side))
            return Appraisal(tuple(candidates), (tuple(row),), SOLVE_WEIGHT, "exact")
        rows = self._last_draw_values(view, candidates, read, sampler, solved=True)
        if rows:
            return Appraisal(tuple(candidates), tuple(map(tuple, rows)), SOLVE_WEIGHT, "every world")
        if any(isinstance(a, Exchange) for a in candidates):
            return self._appraise_exchanges(view, candidates, read, sampler, limit)
        _totals, per_world = self._search_values(view, candidates, read, sampler, math.inf, limit)
        return Appraisal(tuple(candidates), tuple(map(tuple, per_world)), self.weight, "sampled")

    def _appraise_exchanges(self, view: View, candidates: Sequence[Action],
                            read: Sequence[Sequence[Constraint]] | None, sampler: WorldSampler,
                            limit: float) -> Appraisal:
        """:meth:`appraise`'s sampled values where an exchange is among the moves: an exchange does not end the
        turn, so it is worth what the best move after it is worth (the follow-up best on average over the same
        worlds, each played out after the exchange), not what the rollout policy's next card makes of it."""
        assert view.seat is not None
        first: list[Action | None] = []
        plays: list[Action] = []
        groups: list[list[int]] = []
        for action in candidates:
            nexts: list[Action] = []
            if isinstance(action, Exchange):
                # The follow-ups are the seat's own hand's: the same in every world (one drawn aside to list them).
                probe = _after(sampler.draw(random.Random(0)), action)
                if probe.turn == view.seat:
                    nexts = [a for a in probe.legal_actions() if not isinstance(a, (Signal, Claim))]
            groups.append(list(range(len(plays), len(plays) + max(1, len(nexts)))))
            first.extend([action] * len(nexts) if nexts else [None])
            plays.extend(nexts or [action])
        _totals, per_world = self._search_values(view, plays, read, sampler, math.inf, limit, first)
        picks = [max(g, key=lambda j: sum(row[j] for row in per_world)) for g in groups]
        rows = tuple(tuple(row[j] for j in picks) for row in per_world)
        return Appraisal(tuple(candidates), rows, self.weight, "sampled")

    def _tree(self, view: View, candidates: Sequence[Action], read: Sequence[Sequence[Constraint]] | None,
              sampler: WorldSampler, deadline: float) -> Action:
        """Information-set tree search (:func:`brisca.agents.ismcts.tree_search`) over worlds from ``sampler``: as
        many iterations as the sampled-world search plays rollouts (``sims`` or ``cap`` worlds a candidate)."""
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

        visits, means = ismcts.tree_search(draw, view.seat, candidates, self.rng,
                                    worlds * len(candidates), math.inf if self.sims is not None else deadline,
                                    self.weight, greedy, mix, self.explore, self.widen, fast, self.learned,
                                    self.clock)
        self.last_worlds = sum(visits)
        if not self.last_worlds:
            return candidates[0]
        return candidates[ismcts.choose(visits, means)]

    def _last_draw(self, view: View, candidates: Sequence[Action], read: Sequence[Sequence[Constraint]] | None,
                   sampler: WorldSampler, deadline: float = math.inf) -> Action | None:
        """Two players, one hidden card left in the stock: the move worth most on average over every world the view
        allows (the opponent's hidden hand and the stock's last hidden card: a handful), each played to the end
        against the models of the opponent (:func:`expect`). ``None`` where that does not apply.

        After this trick both draw and nothing is hidden any more, so averaging the worlds' exact values is the
        exact value of each move: no fusion of strategies that the sampled-world search would commit here. Past
        the ``deadline`` (with a time budget) it gives up, for the sampled-world search to answer at once.
        """
        rows = self._last_draw_values(view, candidates, read, sampler, deadline)
        if not rows:
            return None
        self.last_worlds = len(rows)
        totals = [sum(row[i] for row in rows) for i in range(len(candidates))]
        return candidates[max(range(len(candidates)), key=lambda i: totals[i])]

    def _last_draw_values(self, view: View, candidates: Sequence[Action],
                          read: Sequence[Sequence[Constraint]] | None, sampler: WorldSampler,
                          deadline: float = math.inf, solved: bool = False) -> list[list[float]] | None:
        """:meth:`_last_draw`'s values: for each world the view allows, each candidate's (``None`` where that
        search does not apply, or past the ``deadline`` with a time budget). ``solved``: each world's value
        against the best defence (:func:`solve`, a result and a margin) instead of against the models of the
        opponent (:func:`expect`, whose chances of random play blend results)."""
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
        rows = []
        for world in worlds:
            if self.sims is None and self.clock() >= deadline:
                return None
            side = team_of(world, seat)
            row = []
            for action in candidates:
                child = world.clone()
                child.apply(action)
                row.append(solve(child, side) if solved else expect(child, side, greedy, wild, self.weight))
            rows.append(row)
        return rows

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
        totals, per_world = self._search_values(view, candidates, read, sampler, deadline)
        worlds = self.last_worlds
        k = len(candidates)
        if not worlds:
            return candidates[0]
        best = max(range(k), key=lambda i: totals[i])
        if self.anchor > 0 and worlds > 1:
            home = self._home_index(view, candidates)
            if home is not None and home != best:
                # Compare world by world: the luck of a world is the same for both moves and cancels.
                diffs = [v[best] - v[home] for v in per_world]
                mean = sum(diffs) / worlds
                var = sum((d - mean) ** 2 for d in diffs) / (worlds - 1)
                if mean < self.anchor * math.sqrt(var / worlds):
                    best = home
        return candidates[best]

    def _search_values(self, view: View, candidates: Sequence[Action], read: Sequence[Sequence[Constraint]] | None,
                       sampler: WorldSampler, deadline: float, limit: float = math.inf,
                       then: Sequence[Action | None] | None = None) -> tuple[list[float], list[list[float]]]:
        """:meth:`_search`'s values: each candidate's total (worlds weighed by ``infer``) and every world's values.
        ``limit`` stops even a fixed number of worlds (``sims``) once the clock reaches it. ``then``: per
        candidate, a move of the same seat made before it in each world (an exchange, which does not end the
        turn), or ``None``."""
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
        net = self.net.pick(view.rules, view.players) if self.net is not None else None
        blend = self.blend if net is not None else 0.0
        if net is not None:
            size = _BATCH  # the network values a batch of worlds in one pass
        rollouts = self._net_rollouts(net, view) if self.net_rollout else None
        if rollouts is not None:
            size, blend, net = _NET_WORLDS, 0.0, None
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
                    if worlds + len(batch) >= self.sims or ((worlds or batch) and self.clock() >= limit):
                        break
                elif (worlds or batch) and self.clock() >= deadline:
                    break
                try:
                    world = self._draw(source, reading, tracked)
                except WorldError:
                    break
                side = team_of(world, view.seat)  # under a contract the world knows the viewer's team
                w = world_likelihood(world, view.seat, self.infer) if self.infer > 0 else 1.0
                batch.append((world, side, w, self.rng.getrandbits(31) if mix else 0))
            if then is None:
                results = self._batch_values(batch, candidates, view.seat, fast, rollouts, net, blend, greedy, mix)
            else:
                # Each group of candidates after its own first move, in the same worlds.
                results = [[0.0] * k for _b in batch]
                for first in dict.fromkeys(then):
                    idx = [i for i in range(k) if then[i] == first]
                    moved = batch if first is None else [(_after(w, first), sd, wt, sx) for w, sd, wt, sx in batch]
                    part = self._batch_values(moved, [candidates[i] for i in idx], view.seat, fast, rollouts, net,
                                              blend, greedy, mix)
                    for row, values in zip(results, part, strict=True):
                        for i, v in zip(idx, values, strict=True):
                            row[i] = v
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
        return totals, per_world

    def _batch_values(self, batch: Sequence[tuple[Game, int, float, int]], candidates: Sequence[Action], seat: int,
                      fast: Any, rollouts: NetRollouts | None, net: Any, blend: float, greedy: Sequence[int],
                      mix: Sequence[int]) -> list[list[float]]:
        """Each world's (``batch``: world, side, weight, seed) value of each candidate: played out by the rollout
        policy (the kernel's or Python's) or the network's rollouts, blended with the network's leaves."""
        k = len(candidates)
        if not batch:
            return []
        if blend >= 1:
            results = [[0.0] * k for _b in batch]
        elif rollouts is not None:
            results = rollouts.values([b[0] for b in batch], candidates, [b[1] for b in batch], self.weight)
        elif fast is not None:
            rows = fast.evaluate([b[0] for b in batch], candidates, [b[1] for b in batch], self.weight,
                                 greedy, mix, [b[3] for b in batch], self.endgame, self.learned, self.nest)[0]
            results = [[float(v) for v in row] for row in rows]
        else:
            results = []
            for world, side, _w, seed in batch:
                values = []
                for action in candidates:
                    g = world.clone()
                    g.apply(action)
                    values.append(playout(g, side, 0, self.weight, greedy, mix, seed, self.endgame, self.learned))
                results.append(values)
        if net is not None:
            leaves = net_leaves(net, [b[0] for b in batch], candidates, seat)
            results = [[(1 - blend) * r + blend * (0.5 + 0.5 * v) for r, v in zip(row, leaf, strict=True)]
                       for row, leaf in zip(results, leaves, strict=True)]
        return results

    def _net_rollouts(self, net: Any, view: View) -> NetRollouts | None:
        """The network's rollouts for this game (made once a game and kept), or ``None`` where they do not apply."""
        key = (view.rules, view.players)
        if key not in self._rollouts:
            size = _NET_WORLDS * (view.rules.hand_size + 2)  # worlds a round times the most candidates a move
            self._rollouts[key] = NetRollouts.make(net, view.rules, view.players, size)
        return self._rollouts[key]

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

    def _home_index(self, view: View, candidates: Sequence[Action]) -> int | None:
        """The index of the move ``anchor`` keeps: the network's choice where it covers the game, else the
        heuristic's (``None`` if that move is not a candidate)."""
        net = self.net.pick(view.rules, view.players) if self.net is not None else None
        choice = net.choose(view) if net is not None else HeuristicAgent().act(view)
        return candidates.index(choice) if choice in candidates else None


__all__ = ["EXACT_CARDS", "MIX_ONE", "MODEL_CARDS", "SOLVE_WEIGHT", "Appraisal", "ExpertAgent", "NetRollouts",
           "RolloutPolicy", "apply_tracked", "best_exact", "exact_choice", "exact_world", "expect", "greedy_action",
           "lcg", "margin", "net_leaves", "outcome", "playout", "policy_move", "rollout_action", "solve", "team_of",
           "world_likelihood"]
