"""Brisca as a single-agent Gymnasium environment: the learner plays one seat (``pip install 'brisca[rl]'``).

The other seats are played by brisca agents (``"random"``, ``"greedy"``, any
``"module:Class"`` for :func:`brisca.agents.make_agent`, or agent objects). One
episode is one hand; ``players=None`` (the default) is the preset's smallest
player count. Importing this module registers ``brisca/brisca-v0`` and
``brisca/<preset>-v0`` with Gymnasium::

    import gymnasium
    import brisca.envs.gymnasium  # or gymnasium.make("brisca.envs.gymnasium:brisca/spanish-v0")

    env = gymnasium.make("brisca/spanish-v0", opponents="greedy", reward="dense")

- Observation: the :class:`~brisca.envs.encode.ObservationEncoder` vector of the
  learner's :class:`~brisca.game.View` (a ``Box``); with ``mask_in_observation=True``
  a ``Dict`` of ``observation`` and ``action_mask`` as in the PettingZoo environment.
- Action: ``Discrete(codec.size)`` over :class:`~brisca.envs.actions.ActionCodec` ids.
  The legal ones are in ``info["action_mask"]`` (``int8``) and :meth:`BriscaEnv.action_masks`
  (booleans, for sb3-contrib's ``MaskablePPO``).
- An illegal action ends the episode with ``illegal_reward`` (-1) and
  ``info["illegal"] = True`` (``illegal="raise"`` raises ``ValueError`` instead).
- Reward: ``"win"`` (default), ``"points"`` or ``"dense"`` for the learner's seat
  (see :mod:`brisca.envs`), added up over the opponents' moves until the learner's next turn.
- ``seat=None`` (default) draws the learner's seat for every hand, and ``dealer=None``
  the dealer; ints fix them. ``reset(seed)`` seeds ``np_random``, which deals, draws
  seats and dealers, and seeds the opponents named by string (agent objects keep their own state).
  ``reset(options={"seat": s, "dealer": d, "deck": [...]})`` fixes them for one hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from brisca.actions import Action
from brisca.agents import Agent, make_agent
from brisca.envs import (
    check_reward,
    contract_returns,
    deck_points,
    hand_returns,
    render_table,
    step_rewards,
    unavailable,
)
from brisca.envs.actions import ActionCodec
from brisca.envs.encode import ObservationEncoder
from brisca.errors import IllegalActionError
from brisca.game import Game
from brisca.rules import Rules, make_rules, variant_names

_MISSING: ImportError | None = None
if TYPE_CHECKING:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from numpy.typing import NDArray
else:
    try:
        import gymnasium
        import numpy as np
        from gymnasium import spaces
    except ImportError as _exc:  # the 'rl' extra is missing: importable (for doctest collection), not usable
        _MISSING = _exc
        gymnasium = SimpleNamespace(Env=unavailable("Env"))

__all__ = ["AUTORESET_ACTION", "ENV_IDS", "BriscaEnv", "BriscaVectorEnv"]

OpponentSpec = str | Agent


class BriscaEnv(gymnasium.Env[Any, "np.int64"]):
    """One learner seat against brisca agents (see the module docs)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        preset: Rules | str = "spanish",
        players: int | None = None,
        *,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: int | None = None,
        options: Mapping[str, object] | None = None,
        reward: str = "win",
        dealer: int | None = None,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        mask_in_observation: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if _MISSING is not None:
            raise ImportError(f"brisca.envs.gymnasium needs the 'rl' extra: pip install 'brisca[rl]' ({_MISSING})")
        self.rules = rules = make_rules(preset, options)
        if players is None:
            players = min(rules.player_counts)
        rules.check_players(players)
        self.players = players
        for name, value in (("seat", seat), ("dealer", dealer)):
            if value is not None and not (type(value) is int and 0 <= value < players):
                raise ValueError(f"{name} must be a seat from 0 to {players - 1}, or None, not {value!r}")
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal must be 'terminate' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.reward = check_reward(reward)
        self.fixed_seat = seat
        self.dealer = dealer
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.mask_in_observation = mask_in_observation
        self.render_mode = render_mode
        specs = [opponents] * (players - 1) if isinstance(opponents, str | Agent) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"give one opponent, or {players - 1} (one per other seat), not {len(specs)}")
        self._specs: list[OpponentSpec] = specs
        self.opponents: list[Agent] = [make_agent(s) if isinstance(s, str) else s for s in specs]
        self.encoder = ObservationEncoder(rules, players)
        self.codec: ActionCodec = self.encoder.codec
        vector = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (self.codec.size,), np.int8)
        self.observation_space: spaces.Space[Any] = (
            spaces.Dict({"observation": vector, "action_mask": mask}) if mask_in_observation else vector
        )
        self.action_space: spaces.Space[np.int64] = spaces.Discrete(self.codec.size)
        self.game: Game | None = None
        self.seat = 0
        self._by_seat: dict[int, Agent] = {}

    # ------------------------------------------------------------------ cycle

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.players
        if seed is not None:
            # The opponents named by string are made again from the new seed, so a seeded episode replays.
            self.opponents = [
                make_agent(s, seed=int(rng.integers(2**31))) if isinstance(s, str) else s for s in self._specs
            ]
        opts = options or {}
        seat = opts.get("seat", self.fixed_seat)
        self.seat = int(rng.integers(n)) if seat is None else seat
        dealer = opts.get("dealer", self.dealer)
        if dealer is None:
            dealer = int(rng.integers(n))
        deck = opts.get("deck")
        shuffle = None if deck is not None else random.Random(int(rng.integers(2**63)))
        self.game = Game(self.rules, n, dealer=dealer, deck=deck, seed=shuffle)
        others = [s for s in range(n) if s != self.seat]
        self._by_seat = dict(zip(others, self.opponents, strict=True))
        self._advance()
        return self._observe(), self._info()

    def _advance(self) -> float:
        """Let the opponents play until the learner's turn or the end; the learner's rewards meanwhile."""
        game = self.game
        assert game is not None
        paid = 0.0
        seat = self.seat
        dense = self.reward == "dense"
        while not game.is_over() and game.turn != seat:
            turn = game.turn
            assert turn is not None
            before = game.side_points
            game.apply(self._by_seat[turn].act(game.view(turn)))
            if dense:
                step = step_rewards(game, "dense", before)
                if step is not None:
                    paid += step[seat]
        if not dense and game.is_over():
            paid += hand_returns(game, self.reward)[seat]
        return paid

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.is_over():
            raise RuntimeError("the hand is over: call reset()")
        index = int(action)
        act: Action | None = self.codec.actions[index] if 0 <= index < self.codec.size else None
        before = game.side_points
        try:
            if act is None:
                raise IllegalActionError(f"action {index} is outside 0..{self.codec.size - 1}")
            game.apply(act)
        except IllegalActionError as exc:
            if self.illegal == "raise":
                raise ValueError(f"illegal action {index} ({act}): {exc}") from None
            info = self._info()
            info["illegal"] = True
            return self._observe(), self.illegal_reward, True, False, info
        reward = 0.0
        if self.reward == "dense":
            step = step_rewards(game, "dense", before)
            if step is not None:
                reward += step[self.seat]
        reward += self._advance()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, game.is_over(), False, self._info()

    # ---------------------------------------------------------- observations

    def _observe(self) -> Any:
        game = self.game
        assert game is not None
        view = game.view(self.seat)
        vector = self.encoder.encode(view)
        if self.mask_in_observation:
            return {"observation": vector, "action_mask": self.encoder.mask(view)}
        return vector

    def _mask(self) -> NDArray[np.int8]:
        game = self.game
        mask = np.zeros(self.codec.size, np.int8)
        if game is not None and not game.is_over() and game.turn == self.seat:
            ids = self.codec.ids
            mask[[ids[a] for a in game.legal_actions()]] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        info: dict[str, Any] = {"action_mask": self._mask(), "seat": self.seat}
        result = game.result()
        if result is not None:
            info["winner"] = result.winner
            # The learner's side won (under a contract: its team made, or set, the contract).
            info["won"] = hand_returns(game, "win")[self.seat] > 0
            info["side_points"] = result.side_points
            info["scores"] = result.scores
        return info

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions now, as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        mask: NDArray[np.bool_] = self._mask().astype(bool)
        return mask

    def render(self) -> str | None:  # type: ignore[override]
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = render_table(self.game) if self.game is not None else "(no hand dealt: call reset())"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


#: The ids registered with Gymnasium: the generic one (``preset=`` keyword) and one per preset.
ENV_IDS: tuple[str, ...] = ("brisca/brisca-v0", *(f"brisca/{name}-v0" for name in variant_names()))


def _register() -> None:
    for env_id in ENV_IDS:
        if env_id in gymnasium.registry:
            continue
        name = env_id.split("/")[1][:-3]
        kwargs = {} if name == "brisca" else {"preset": name}
        gymnasium.register(env_id, entry_point="brisca.envs.gymnasium:BriscaEnv", kwargs=kwargs)


if _MISSING is None:
    _register()


#: The action a sub-environment of :class:`BriscaVectorEnv` whose hand has just ended allows, alone, on the step
#: that resets it (any action is ignored there): its mask row is never all zeros.
AUTORESET_ACTION = 0


class BriscaVectorEnv(gymnasium.vector.VectorEnv if _MISSING is None else object):  # type: ignore[misc]
    """``num_envs`` hands at once, one learner seat in each against a built-in player, over
    :class:`brisca.envs.batch.Batch` (numpy and numba: the ``fast`` extra besides ``rl``).

    The same observation and action spaces as :class:`BriscaEnv` (without the mask in the observation: the masks
    are in ``info["action_mask"]`` and :meth:`action_masks`), for the presets the batch plays
    (:func:`brisca.envs.batch.covers`: the games with a stock, ``muerte-al-tres``, ``scoperta`` and ``bixkla``
    among them, ``chiamata`` and ``chiamata-buia`` at 5 and ``rematada`` at 3, whose returns are their contract's,
    and ``chilean`` at 4, its partnerships', as :func:`brisca.envs.hand_returns` gives them). Differences, for
    speed: the opponents are ``"random"`` (a uniform legal action) or ``"net"`` (the shipped network for the
    game, its best action; or a network file's path), every other seat (a partner too) played by them; a seat
    with a single legal action plays it without a step (the learner too); rewards are ``"win"`` or
    ``"points"`` at the end of the hand. Sub-environments reset on the step after the one that ended them
    (Gymnasium's ``NEXT_STEP`` autoreset): on that step ``info["autoreset"]`` is true for them, their action is
    ignored, and their mask allows :data:`AUTORESET_ACTION` alone, so that a legal action can still be sampled
    from every row (a learner leaves those steps out of its updates, as Gymnasium's autoreset asks).

        env = BriscaVectorEnv(256, "spanish", opponent="net", seed=1)
        obs, info = env.reset()
        masks = info["action_mask"]        # (256, 111) int8, at least one 1 a row
    """

    def __init__(self, num_envs: int = 64, preset: Rules | str = "spanish", players: int | None = None, *,
                 opponent: str = "random", seat: int | None = None, reward: str = "win",
                 illegal_reward: float = -1.0, options: Mapping[str, object] | None = None,
                 seed: int | None = None) -> None:
        if _MISSING is not None:
            raise ImportError(f"brisca.envs.gymnasium needs the 'rl' extra: pip install 'brisca[rl]' ({_MISSING})")
        from brisca.envs.batch import Batch

        self.rules = rules = make_rules(preset, options)
        if players is None:
            players = min(rules.player_counts)
        rules.check_players(players)
        if reward not in ("win", "points"):
            raise ValueError(f"reward must be win or points here (dense: BriscaEnv), not {reward!r}")
        if seat is not None and not (type(seat) is int and 0 <= seat < players):
            raise ValueError(f"seat must be a seat from 0 to {players - 1}, or None, not {seat!r}")
        self.players = n = players
        self.reward = reward
        self.illegal_reward = float(illegal_reward)
        self.fixed_seat = seat
        self._net, self._net_preset = self._opponent(opponent)
        # A network that reads the cues gets them from the batch, after the encoding and the preset's input.
        self.batch = Batch([rules], n, size=num_envs, seed=0 if seed is None else seed,
                           cues=self._net is not None and self._net.cues)
        self.encoder = self.batch.encoder
        self.codec = self.batch.codec
        self.opponent = opponent
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.single_action_space = spaces.Discrete(self.codec.size)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}
        self.seats = np.zeros(num_envs, np.int64)
        self._obs = np.zeros((num_envs, self.encoder.size), np.float32)
        self._mask = np.zeros((num_envs, self.codec.size), np.int8)
        self._ended = np.zeros(num_envs, np.bool_)
        self._rng = np.random.default_rng(seed)

    def _opponent(self, opponent: str) -> tuple[Any, int]:
        if opponent == "random":
            return None, 0
        from brisca.agents.net import load_net

        found = load_net(None if opponent == "net" else opponent)
        net = found.pick(self.rules, self.players) if found is not None else None
        if net is None:
            raise ValueError(f"opponent {opponent!r}: no network plays {self.rules.variant} at {self.players} "
                             "players; use 'random'")
        preset = net.preset(self.rules, self.players)
        assert preset is not None
        return net, preset

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self.batch.seed(seed)
        self._deal(np.arange(self.num_envs))
        self._advance()
        return self._obs.copy(), self._info()

    def _deal(self, lanes: Any) -> None:
        self.batch.deal(lanes)
        if self.fixed_seat is None:
            self.seats[lanes] = self._rng.integers(0, self.players, len(lanes))
        else:
            self.seats[lanes] = self.fixed_seat
        self._ended[lanes] = False

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        actions = np.asarray(actions, np.int64).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, np.bool_)
        illegal = np.zeros(self.num_envs, np.bool_)
        restart = np.flatnonzero(self._ended)
        if len(restart):
            self._deal(restart)
        playing = np.flatnonzero(~self._ended)
        playing = playing[~np.isin(playing, restart)]
        ok = (actions[playing] >= 0) & (actions[playing] < self.codec.size)
        ok[ok] = self._mask[playing[ok], actions[playing[ok]]] == 1
        bad = playing[~ok]
        illegal[bad] = True
        terminated[bad] = True
        rewards[bad] = self.illegal_reward
        self._ended[bad] = True
        self.batch.live[bad] = 0
        good = playing[ok]
        self.batch.act(good, actions[good])
        over = self._advance()
        over = over[~np.isin(over, bad)]
        terminated[over] = True
        rewards[over] = self._returns(over)
        ended = np.flatnonzero(self._ended)  # reset on the next step, whatever it plays
        self._mask[ended] = 0
        self._mask[ended, AUTORESET_ACTION] = 1
        info = self._info()
        info["illegal"] = illegal
        return self._obs.copy(), rewards, terminated, np.zeros(self.num_envs, np.bool_), info

    def _advance(self) -> Any:
        """The opponents play until every live hand waits for its learner or has ended; the hands that ended."""
        batch = self.batch
        before = batch.live.copy()
        while True:
            obs, mask, lanes, seats = batch.observe()
            theirs = seats != self.seats[lanes]
            mine = ~theirs
            self._obs[lanes[mine]] = obs[mine, :self.encoder.size]
            self._mask[lanes[mine]] = mask[mine]
            if not theirs.any():
                break
            rows = np.flatnonzero(theirs)
            batch.act(lanes[rows], self._choose(obs[rows], mask[rows]))
        ended = np.flatnonzero((before == 1) & (batch.live == 0))
        self._ended[ended] = True
        for lane in ended:  # the learner's last view, all its moves made
            self._obs[lane] = batch.features(int(lane), int(self.seats[lane]))[:self.encoder.size]
        self._mask[ended] = 0
        return ended

    def _choose(self, obs: Any, mask: Any) -> Any:
        if self._net is None:  # a uniform legal action
            u = self._rng.random(len(mask))
            counts = mask.sum(axis=1)
            pick = (u * counts).astype(np.int64)
            order = np.cumsum(mask, axis=1) - 1
            return (order == pick[:, None]).argmax(axis=1) if len(mask) else pick
        x = np.zeros((len(obs), self._net.inputs), np.float32)
        size = self.encoder.size
        x[:, :size] = obs[:, :size]
        x[:, size + self._net_preset] = 1.0
        x[:, size + len(self._net.presets):] = obs[:, size + 1:]  # what follows the preset's input: the cues
        logits, _values = self._net.forward(x)
        return np.where(mask, logits, -np.inf).argmax(axis=1)

    def _returns(self, lanes: Any) -> Any:
        out = np.zeros(len(lanes), np.float64)
        sides = self.batch.sides
        sign = -1.0 if self.rules.hand_winner == "least" else 1.0
        scale = 1.0 / deck_points(self.rules, self.players)
        for i, lane in enumerate(lanes):
            totals, winner = self.batch.result(int(lane))
            if self.rules.contract != "off":  # Briscola Chiamata: the contract's teams and match points
                out[i] = self._contract_return(int(lane), winner is not None)
                continue
            side = int(self.seats[lane]) % sides
            if self.reward == "win":
                out[i] = 0.0 if winner is None else (1.0 if winner == side else -1.0 / (sides - 1))
            else:
                out[i] = (totals[side] - sum(totals) / sides) * sign * scale
        return out

    def _contract_return(self, lane: int, made: bool) -> float:
        """:func:`brisca.envs.hand_returns` of a finished hand of Briscola Chiamata for the lane's learner: the
        called contract scores the declarer 2 (4 alone), his partner 1 and every other seat -1, each negated when
        it is set; a solo contract (Brisca Rematada) the bid to the declarer who makes it, else half of it to each
        other seat; nothing when everybody passed."""
        contract = self.batch.contract(lane)
        if contract is None:
            return 0.0
        declarer, partner, points = contract
        if partner is None:  # a solo contract (rematada): made, the declarer scores the bid; set, each other half
            scores = [(points if s == declarer else 0) if made else (0 if s == declarer else points // 2)
                      for s in range(self.players)]
            team = frozenset((declarer,))
        else:
            value = [(4 if partner == declarer else 2) if s == declarer else 1 if s == partner else -1
                     for s in range(self.players)]
            scores = value if made else [-v for v in value]
            team = frozenset((declarer, partner))
        return contract_returns(self.rules, self.reward, team, made, scores)[int(self.seats[lane])]

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "seat": self.seats.copy(), "autoreset": self._ended.copy()}

    def action_masks(self) -> NDArray[np.bool_]:
        """Every sub-environment's legal actions now, as booleans (``MaskablePPO``'s call)."""
        return self._mask.astype(bool)
